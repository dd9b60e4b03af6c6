/* loop.c: the frame loop. Each turn: window and mouse events, the script's next steps,
 * pending setting changes, one displayed frame of the renderer (unless paused or done: the
 * samples per pixel the frame-time budget allows, budget.h), the film to its texture, the
 * image and overlay drawn, a screenshot when one is due, and the buffer swap. */
#include "viewer.h"

#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
#define RC_HAVE_MALLINFO2 1
#endif

#define RC_IDLE_WAIT_MS 30 /* how long an idle turn sleeps in SDL_WaitEventTimeout */

static void handle_event(rc_viewer *v, const SDL_Event *e) {
    switch (e->type) {
    case SDL_QUIT:
        v->quit = 1;
        break;
    case SDL_KEYDOWN:
        rc_view_key(v, (int32_t)e->key.keysym.sym, (int32_t)e->key.keysym.mod);
        break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT) v->dragging = e->type == SDL_MOUSEBUTTONDOWN;
        break;
    case SDL_MOUSEMOTION:
        if (v->dragging && (e->motion.xrel || e->motion.yrel))
            rc_view_drag(v, (float)e->motion.xrel, (float)e->motion.yrel);
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) rc_view_window_resized(v);
        break;
    default:
        break;
    }
}

/* 1 while a `wait` step holds the script at this turn. */
static int waiting(rc_viewer *v, const rc_script_step *st) {
    rc_script *s = &v->script;
    if (st->op == RC_SCRIPT_WAIT_MS) {
        double now = timing_now_ms();
        if (s->until_ms == 0.0) s->until_ms = now + st->a;
        if (now < s->until_ms) return 1;
        s->until_ms = 0.0;
        return 0;
    }
    if (st->op == RC_SCRIPT_WAIT_FRAMES) {
        if (s->waited < (uint32_t)st->a) {
            s->waited++;
            return 1;
        }
        s->waited = 0;
        return 0;
    }
    /* wait N spp: until the film holds them, or accumulation stopped short of N */
    if (v->rebuild || v->reset || v->scene_pending || v->resized) return 1;
    uint32_t want = (uint32_t)st->a;
    if (v->spp_limit && v->spp_limit < want) want = v->spp_limit;
    return v->r && rc_renderer_frames(v->r) < want && rc_view_wants_frame(v);
}

/* The script's `memory`, one line on stdout: the heap in use (bytes allocated and not freed, in
 * the arenas and in mapped blocks: it moves with what the process holds, not with how the
 * allocator lays it out), the resident set, and its anonymous part (heap, stacks, mappings of
 * no file: what a leak grows, where the whole also moves with the pages of shared libraries
 * that new code paths touch, e.g. a GL driver compiling a shader variant). */
static void print_memory(void) {
    char heap[32] = "n/a", rss[32] = "n/a", anon[32] = "n/a", line[128];
#ifdef RC_HAVE_MALLINFO2
    struct mallinfo2 mi = mallinfo2();
    snprintf(heap, sizeof heap, "%zu KiB", (mi.uordblks + mi.hblkhd) / 1024);
#endif
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f)) {
        unsigned long kib;
        if (sscanf(line, "VmRSS: %lu kB", &kib) == 1) snprintf(rss, sizeof rss, "%lu KiB", kib);
        if (sscanf(line, "RssAnon: %lu kB", &kib) == 1) snprintf(anon, sizeof anon, "%lu KiB", kib);
    }
    if (f) fclose(f);
    printf("raycompact view: memory: heap %s in use, resident %s (anonymous %s)\n", heap, rss,
           anon);
    fflush(stdout);
}

/* Run steps until one waits or a screenshot is due (it shows the state the steps before it
 * set up, so the steps after it wait for the next turn). */
static void run_script(rc_viewer *v) {
    rc_script *s = &v->script;
    while (s->next < s->n && !v->quit && !v->shot) {
        const rc_script_step *st = &s->steps[s->next];
        if ((st->op == RC_SCRIPT_WAIT_FRAMES || st->op == RC_SCRIPT_WAIT_SPP ||
             st->op == RC_SCRIPT_WAIT_MS) &&
            waiting(v, st))
            return;
        s->next++;
        switch (st->op) {
        case RC_SCRIPT_KEY:
            rc_view_key(v, st->a, st->b);
            break;
        case RC_SCRIPT_DRAG:
            rc_view_drag(v, (float)st->a, (float)st->b);
            break;
        case RC_SCRIPT_RESIZE: /* as a user would: the size-changed event follows, or not */
            SDL_SetWindowSize(v->win, st->a, st->b);
            rc_view_window_resized(v);
            break;
        case RC_SCRIPT_SCREENSHOT:
            v->shot = st->path;
            v->shot_line = st->line;
            break;
        case RC_SCRIPT_MEMORY:
            print_memory();
            break;
        case RC_SCRIPT_QUIT:
            v->quit = 1;
            break;
        default: /* a wait that is over */
            break;
        }
    }
}

/* The samples per pixel the next displayed frame adds: the budget's count, within the spp
 * limit; one while paused (a frame then only records a stale mask). */
static uint32_t frame_samples(const rc_viewer *v) {
    uint32_t n = v->paused ? 1 : v->budget.n, done = rc_renderer_frames(v->r);
    if (v->spp_limit && done < v->spp_limit && v->spp_limit - done < n) n = v->spp_limit - done;
    return n ? n : 1;
}

/* One displayed frame: `n` samples per pixel in calls of equal size, at most the renderer's
 * wave each (one wave size: a CUDA graph is captured once for it). Every call but the last
 * runs to its end here; the last one is submitted (rc_render_submit) and frame_done waits for
 * it: at once, or with overlap at the next turn, after this one has drawn the frame before. */
static int render_samples(rc_viewer *v, uint32_t n, rc_error *err) {
    uint32_t wave = rc_renderer_wave(v->r), calls = (n + wave - 1) / wave, each = n / calls;
    v->flight_t0 = timing_now_ms();
    for (uint32_t i = 0; i + 1 < calls; i++) {
        rc_frame_stats one;
        if (rc_render_samples(v->r, each, i ? &one : &v->flight_fs, err) != 0) return -1;
        if (i) rc_frame_stats_add(&v->flight_fs, &one);
    }
    if (rc_render_submit(v->r, each, calls > 1 ? &v->flight_last : &v->flight_fs, err) != 0)
        return -1;
    v->flight_calls = calls;
    v->frame_calls = calls;
    return 0;
}

/* The frame in flight, if any, waited for: its stats summed (total_ms the wall time of its
 * calls) into the budget and the history. */
static int frame_done(rc_viewer *v, rc_error *err) {
    if (!v->r || !rc_render_in_flight(v->r)) return 0;
    if (rc_render_wait(v->r, err) != 0 || rc_view_divergence_frame(v, err) != 0) return -1;
    rc_frame_stats *fs = &v->flight_fs;
    if (v->flight_calls > 1) rc_frame_stats_add(fs, &v->flight_last);
    fs->total_ms = timing_now_ms() - v->flight_t0;
    if (!v->paused) rc_budget_update(&v->budget, fs->samples, fs->total_ms);
    rc_history_add(&v->hist, fs, timing_now_ms());
    if (v->show_mask) v->mask_stale = 0;
    v->rendered++;
    v->samples += fs->samples;
    v->film_fresh = 1;
    return 0;
}

/* The renderer's part of a turn, `wanted` when a frame is due (rc_view_wants_frame). Without
 * overlap (the CPU backend, --no-overlap): the frame, then the film to its texture. With it:
 * the film of the frames ended so far to the texture, then the next frame submitted, which the
 * GPU renders while this turn draws, swaps and reads events (frame_done waits for it at the
 * start of the next turn, before any key or script step can change the renderer). The image
 * on screen then always holds every frame rc_renderer_frames counts, which `wait N spp` and
 * screenshots rely on. */
static int render(rc_viewer *v, int wanted) {
    rc_error err;
    int overlap = v->overlap && v->st.backend == RC_BACKEND_CUDA;
    if (wanted && !overlap &&
        (render_samples(v, frame_samples(v), &err) != 0 || frame_done(v, &err) != 0))
        goto fail;
    if ((v->film_fresh || v->film_dirty) && rc_film_update(&v->film, v->r, v->show_mask, &err) != 0)
        goto fail;
    v->film_fresh = v->film_dirty = 0;
    if (wanted && overlap && render_samples(v, frame_samples(v), &err) != 0) goto fail;
    return 0;
fail:
    fprintf(stderr, "raycompact view: %s\n", err.msg);
    return -1;
}

/* Where the image goes: fitted beside the overlay panel when that costs little of its size,
 * else fitted to the whole window (under the panel). */
static void image_rect(const rc_viewer *v, int *x, int *y, int *w, int *h) {
    float aspect = (float)v->st.width / (float)v->st.height;
    float left = v->show_overlay ? rc_overlay_width(v) : 0.0f;
    float W = (float)v->win_w, H = (float)v->win_h;
    float full = fminf(W / aspect, H), beside = fminf((W - left) / aspect, H);
    if (beside < 0.75f * full) left = 0.0f;
    float h1 = left > 0.0f ? beside : full, w1 = h1 * aspect;
    *w = (int)lrintf(w1);
    *h = (int)lrintf(h1);
    *x = (int)lrintf(left + (W - left - w1) / 2.0f);
    *y = (int)lrintf((H - h1) / 2.0f);
}

static void draw(rc_viewer *v) {
    SDL_GL_GetDrawableSize(v->win, &v->win_w, &v->win_h);
    /* 1 pixel per font unit up to 720 lines, 2 at 1080, 3 at 2160 */
    int scale = (v->win_h + 360) / 720;
    v->batch.scale = (float)(scale < 1 ? 1 : scale);
    glViewport(0, 0, v->win_w, v->win_h);
    glClearColor(0.02f, 0.02f, 0.025f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    int x, y, w, h;
    image_rect(v, &x, &y, &w, &h);
    rc_film_draw(&v->film, v->exposure, v->tonemap, v->show_mask, x, v->win_h - y - h, w, h);
    glViewport(0, 0, v->win_w, v->win_h);
    rc_batch_clear(&v->batch);
    if (v->show_overlay) rc_overlay_draw(v, timing_now_ms());
    if (v->show_help) rc_help_draw(v);
    rc_batch_draw(&v->batch, v->win_w, v->win_h);
}

/* A screenshot due this turn: F12's failure is reported, a script's ends the viewer. */
static int take_screenshot(rc_viewer *v) {
    rc_error err;
    int line = v->shot_line, rc = rc_screenshot(v->shot, v->win_w, v->win_h, &err);
    v->shot_line = 0;
    if (rc == 0)
        printf("raycompact view: wrote %s (%dx%d)\n", v->shot, v->win_w, v->win_h);
    else if (line)
        fprintf(stderr, "raycompact view: %s:%d: %s\n", v->script.path, line, err.msg);
    else
        fprintf(stderr, "raycompact view: %s\n", err.msg);
    fflush(stdout);
    v->shot = NULL;
    return rc != 0 && line ? -1 : 0;
}

static int turn(rc_viewer *v) {
    if (rc_view_session_apply(v) != 0) return -1;
    int wanted = rc_view_wants_frame(v);
    if (render(v, wanted) != 0) return -1;
    draw(v);
    if (v->shot && take_screenshot(v) != 0) return -1;
    SDL_GL_SwapWindow(v->win);
    /* Nothing to render and no script to run (or one waiting for the clock): sleep until an
     * event or the next redraw. */
    if (!wanted && (v->script.next >= v->script.n || v->script.until_ms > 0.0))
        SDL_WaitEventTimeout(NULL, RC_IDLE_WAIT_MS);
    return 0;
}

/* The medians of the newest frames in the history (at most RC_HISTORY_FRAMES - 1): the
 * renderer's wall time per frame, and the time from one frame's end to the next's (render,
 * display and swap: the frame time a viewer sees). Printed at exit, for benchmarks of the
 * viewer itself (scripts/gpu.sh view). */
static void print_frame_medians(const rc_viewer *v) {
    size_t n = v->hist.count > 1 ? v->hist.count - 1 : 0;
    if (n == 0) return;
    double *wall = malloc(2 * n * sizeof *wall);
    if (!wall) return;
    double *step = wall + n;
    double rays = 0.0, samples = 0.0, span = 0.0; /* over the same frames, end to end */
    for (size_t i = 0; i < n; i++) {
        const rc_history_frame *a = rc_history_get(&v->hist, i);
        const rc_history_frame *b = rc_history_get(&v->hist, i + 1);
        wall[i] = a->wall_ms;
        step[i] = a->end_ms - b->end_ms;
        rays += (double)a->rays;
        samples += (double)a->samples;
        span += step[i];
    }
    timing_stats w = timing_summary(wall, (int)n), f = timing_summary(step, (int)n);
    printf("raycompact view: median of the last %zu frames: render %.3f ms, frame to frame "
           "%.3f ms\n",
           n, w.median, f.median);
    if (span > 0.0) /* what the viewer delivers, display included: bench's rays/s to compare */
        printf("raycompact view: over the last %zu frames: %.1f Mrays/s, %.1f samples per pixel "
               "a second, %.1f per frame\n",
               n, rays / span / 1e3, samples / span * 1e3, samples / (double)n);
    free(wall);
}

int rc_view_run(rc_viewer *v) {
    v->film_dirty = 1;
    double t0 = timing_now_ms();
    while (!v->quit) {
        rc_error err; /* the frame in flight ends before any event touches the renderer */
        if (frame_done(v, &err) != 0) {
            fprintf(stderr, "raycompact view: %s\n", err.msg);
            return RC_EXIT_FAIL;
        }
        SDL_Event e;
        while (SDL_PollEvent(&e)) handle_event(v, &e);
        run_script(v);
        if (v->quit) break;
        if (turn(v) != 0) return RC_EXIT_FAIL;
        v->turns++;
    }
    double s = (timing_now_ms() - t0) / 1e3;
    printf("raycompact view: %llu frames rendered, %llu drawn in %.2f s (%.1f drawn/s)\n",
           (unsigned long long)v->rendered, (unsigned long long)v->turns, s,
           s > 0.0 ? (double)v->turns / s : 0.0);
    print_frame_medians(v);
    printf("raycompact view: %llu samples per pixel in %llu frames; frame budget %g ms, %u spp "
           "a frame at the end\n",
           (unsigned long long)v->samples, (unsigned long long)v->rendered, v->budget.budget_ms,
           v->budget.n);
    return 0;
}
