/* overlay.c: the overlay panel: what runs (algorithm, paper, mode, tile), the rates and the
 * frame-time budget, the paths alive per bounce as a row of columns, one stacked bar per
 * bounce (extend, shade, compact; labelled with the rays alive), and a scrolling graph of
 * frame time split by phase, and with F3 the active lanes per warp by bounce. Times and counts are
 * per displayed frame (summed over the renderer calls of a frame that adds more samples than one
 * wave holds). Sizes are in font units of the batch's scale, so the panel is as readable at 1080p
 * as in a small window; a window the whole panel would mostly cover gets it folded to the algorithm
 * and the rates. */
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define RC_PANEL_W      380.0f /* font units */
#define RC_BAR_ROWS     16     /* bounces from the 16th on share the last row */
#define RC_GRAPH_H      70.0f
#define RC_GRAPH_WINDOW 5000.0 /* ms of history in the graph */
#define RC_RATE_WINDOW  1000.0 /* ms the rates average over */
#define RC_GRAPH_COLS   2048
#define RC_FOLD         0.75f /* the share of the window the whole panel may take */

static const rc_rgba8 text = {235, 235, 235, 255}, dim = {160, 160, 165, 255},
                      accent = {255, 205, 80, 255}, panel = {12, 12, 16, 200},
                      track = {255, 255, 255, 28};
/* Phase colours, in rc_history's order: other (generate + accumulate), extend, shade, compact,
 * shadow, sort (--sort-materials), tail (--tail-below). */
static const rc_rgba8 phase_color[RC_PH_COUNT] = {
    {150, 150, 150, 255}, {70, 140, 245, 255}, {90, 200, 120, 255}, {255, 120, 40, 255},
    {190, 110, 230, 255}, {230, 210, 60, 255}, {80, 215, 215, 255}};
static const char *const phase_name[RC_PH_COUNT] = {
    "generate+accumulate", "extend", "shade", "compact", "shadow", "sort", "tail"};

typedef struct layout {
    rc_batch *b;
    float s;     /* pixels per font unit */
    float x, y;  /* the next line's top-left corner */
    float w;     /* content width, pixels */
    float right; /* the right end of the widest text so far */
} layout;

static void line(layout *l, rc_rgba8 c, const char *str) {
    l->right = fmaxf(l->right, l->x + rc_batch_text(l->b, l->x, l->y, c, str));
    l->y += RC_FONT_LINE * l->s;
}

/* "1.23M", "45.6k", "789". */
static void count_str(double v, char *out, size_t cap) {
    if (v >= 1e6)
        snprintf(out, cap, "%.2fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(out, cap, "%.1fk", v / 1e3);
    else
        snprintf(out, cap, "%.0f", v);
}

/* A dim label and its value, values aligned in one column. */
static float labelled(layout *l, const char *label, rc_rgba8 c, const char *value) {
    float col = l->x + rc_batch_text_width(l->b, "algorithm  ");
    rc_batch_text(l->b, l->x, l->y, dim, label);
    float end = col + rc_batch_text(l->b, col, l->y, c, value);
    l->right = fmaxf(l->right, end);
    return end;
}

static void header(layout *l, const rc_viewer *v) {
    char s[256];
    snprintf(s, sizeof s, "raycompact view   %ux%u   %s backend", v->st.width, v->st.height,
             rc_backend_name(v->st.backend));
    line(l, text, s);
    const sc_algorithm_info *info = sc_algorithm_find(v->st.algo);
    float x = labelled(l, "algorithm", accent, v->st.algo);
    if (info)
        l->right = fmaxf(l->right, x + rc_batch_textf(l->b, x, l->y, text, "  %s, %s", info->title,
                                                      info->stable ? "stable" : "not stable"));
    l->y += RC_FONT_LINE * l->s;
    if (l->w <= 0.0f) return; /* folded: the title and the algorithm only */
    labelled(l, info ? "paper" : "", dim,
             info ? info->paper : "no compaction: ended paths stay in the stream");
    l->y += RC_FONT_LINE * l->s;
    size_t tile = v->st.tune.tile ? v->st.tune.tile : SC_TILE_DEFAULT;
    int uses_tile = info && (info->tunables & SC_TUNE_TILE);
    char tail[32] = "off", lights[48] = "bsdf";
    if (v->st.tune.tail_below) snprintf(tail, sizeof tail, "below %u", v->st.tune.tail_below);
    if (v->r && rc_renderer_nee(v->r)) /* and where its shadow rays are traced (key X) */
        snprintf(lights, sizeof lights, "nee, shadows %s (%s)",
                 rc_renderer_shadows_inline(v->r) ? "inline" : "stream",
                 rc_shadows_name(v->st.shadows));
    snprintf(s, sizeof s, "mode %s   tile %zu%s   compaction %s   lights %s   tail %s   phases %s",
             rc_mode_name(v->st.mode), tile, uses_tile ? "" : " (unused)", info ? "on" : "off",
             lights, tail, v->st.tune.phase_timing ? "timed" : "off");
    line(l, text, s);
}

static void rates(layout *l, const rc_viewer *v, double now) {
    rc_history_rates r = rc_history_rates_over(&v->hist, now, RC_RATE_WINDOW);
    char spp[48], rays[16], samples[16], s[256];
    uint32_t frames = v->r ? rc_renderer_frames(v->r) : 0;
    if (v->spp_limit)
        snprintf(spp, sizeof spp, "%u/%u", frames, v->spp_limit);
    else
        snprintf(spp, sizeof spp, "%u", frames);
    count_str(r.rays_per_s, rays, sizeof rays);
    count_str(r.spp_per_s * v->st.width * v->st.height, samples, sizeof samples);
    snprintf(s, sizeof s, "spp %s%s   %.1f frames/s   %s rays/s", spp, v->paused ? " (paused)" : "",
             r.frames_per_s, rays);
    line(l, text, s);
    /* the budget: what the last frame added, in how long, against what (keys , and .) */
    const rc_budget *b = &v->budget;
    char calls[32] = "";
    if (v->frame_calls > 1) snprintf(calls, sizeof calls, " in %u calls", v->frame_calls);
    snprintf(s, sizeof s, "%s samples/s   %u spp/frame%s   %.1f of %g ms (, .)", samples,
             b->last_samples, calls, b->last_ms, b->budget_ms);
    line(l, text, s);
    if (v->st.tune.phase_timing)
        snprintf(s, sizeof s, "compaction takes %.1f%% of the frame time", 100.0 * r.compact_share);
    else
        snprintf(s, sizeof s, "phases not timed (B): the frame time only");
    line(l, text, s);
}

/* The pool's occupancy at bounce b: the paths alive in bounce b's stream per displayed frame
 * (rc_frame_stats.bounce[b].alive, smoothed), and into *pool the paths the frame's pool holds
 * (today: the samples it issued, the stream of bounce 0). The one place that reads them: when
 * the frame loop keeps a pool of slots refilled with new paths, its size comes in here. */
static double pool_occupancy(const rc_viewer *v, uint32_t b, double *pool) {
    *pool = v->hist.bounces ? v->hist.bounce[0].stream : 0.0;
    return b < v->hist.bounces ? v->hist.bounce[b].alive : 0.0;
}

/* One column per bounce, its height the share of the pool alive there. */
static void occupancy_row(layout *l, const rc_viewer *v) {
    uint32_t n = v->hist.bounces;
    double pool = 0.0;
    pool_occupancy(v, 0, &pool);
    char s[96], total[16];
    count_str(pool, total, sizeof total);
    snprintf(s, sizeof s, "paths alive per bounce, of %s a frame", total);
    line(l, text, s);
    float h = 14.0f * l->s, gap = l->s, cw = n ? fminf(16.0f * l->s, l->w / (float)n) : 0.0f;
    rc_batch_rect(l->b, l->x, l->y, l->w, h, track);
    for (uint32_t b = 0; b < n && pool > 0.0; b++) {
        double p;
        float share = (float)fmin(1.0, pool_occupancy(v, b, &p) / pool);
        rc_batch_rect(l->b, l->x + (float)b * cw, l->y + h * (1.0f - share), cw - gap, h * share,
                      accent);
    }
    l->y += h + 4.0f * l->s;
}

/* Colour chips and names of the phases from `first` on. */
static void legend(layout *l, int first) {
    float x = l->x, chip = 7.0f * l->s;
    for (int p = first; p < RC_PH_COUNT; p++) {
        rc_batch_rect(l->b, x, l->y, chip, chip, phase_color[p]);
        x += chip + 3.0f * l->s;
        x += rc_batch_text(l->b, x, l->y, dim, phase_name[p]) + 9.0f * l->s;
    }
    l->y += RC_FONT_LINE * l->s;
}

/* One bar: the phases stacked left to right, `full` ms filling `bw` pixels. */
static void bar(layout *l, float x, float bw, const double *ms, double full, const char *label) {
    float h = 7.0f * l->s;
    rc_batch_rect(l->b, x, l->y, bw, h, track);
    for (int p = RC_PH_EXTEND; p < RC_PH_COUNT; p++) {
        float w = full > 0.0 ? (float)(ms[p] / full) * bw : 0.0f;
        rc_batch_rect(l->b, x, l->y, w, h, phase_color[p]);
        x += w;
    }
    rc_batch_text(l->b, l->x + 30.0f * l->s + bw + 5.0f * l->s, l->y, text, label);
    l->y += 9.0f * l->s;
}

/* Bounce b's numbers, or the sum of bounces b.. when b is the last row. */
static rc_history_bounce row_of(const rc_history *h, uint32_t b, uint32_t rows) {
    rc_history_bounce sum = h->bounce[b];
    for (uint32_t k = b + 1; b == rows - 1 && k < h->bounces; k++) {
        for (int p = 0; p < RC_PH_COUNT; p++) sum.ms[p] += h->bounce[k].ms[p];
        sum.alive += h->bounce[k].alive;
        sum.stream += h->bounce[k].stream;
        sum.shadows += h->bounce[k].shadows;
    }
    return sum;
}

static void bounce_bars(layout *l, const rc_viewer *v) {
    const rc_history *h = &v->hist;
    /* auto: each bar names the algorithm it chose for that bounce */
    const int is_auto = strcmp(v->st.algo, sc_algorithm_get(SC_ALGO_AUTO)->name) == 0;
    const int timed = v->st.tune.phase_timing;
    line(l, text,
         !timed    ? "per bounce and frame: the rays alive (+ shadow rays); times off (B)"
         : is_auto ? "per bounce and frame: times, rays alive (+ shadow rays), auto's choice"
                   : "per bounce and frame: phase times, the rays alive (+ shadow rays)");
    legend(l, RC_PH_EXTEND);
    uint32_t rows = h->bounces < RC_BAR_ROWS ? h->bounces : RC_BAR_ROWS;
    double full = 0.0;
    for (uint32_t b = 0; b < rows; b++) {
        rc_history_bounce r = row_of(h, b, rows);
        double ms = 0.0;
        for (int p = RC_PH_EXTEND; p < RC_PH_COUNT; p++) ms += r.ms[p];
        full = fmax(full, ms);
    }
    float bw = l->w - 30.0f * l->s - 150.0f * l->s;
    for (uint32_t b = 0; b < rows; b++) {
        rc_history_bounce r = row_of(h, b, rows);
        char alive[16], stream[16], shadows[16], more_rays[24] = "", label[96], chosen[40] = "";
        count_str(r.alive, alive, sizeof alive);
        count_str(r.stream, stream, sizeof stream);
        count_str(r.shadows, shadows, sizeof shadows);
        if (r.shadows >= 0.5) snprintf(more_rays, sizeof more_rays, " +%s", shadows);
        double ms = 0.0;
        for (int p = RC_PH_EXTEND; p < RC_PH_COUNT; p++) ms += r.ms[p];
        if (is_auto && r.algo) snprintf(chosen, sizeof chosen, "  %s", r.algo);
        char took[24] = "";
        if (timed) snprintf(took, sizeof took, "  %.2f ms", ms);
        if (r.stream > r.alive + 0.5)
            snprintf(label, sizeof label, "%s of %s%s%s%s", alive, stream, more_rays, took, chosen);
        else
            snprintf(label, sizeof label, "%s%s%s%s", alive, more_rays, took, chosen);
        int more = b == rows - 1 && h->bounces > rows;
        rc_batch_textf(l->b, l->x, l->y, dim, more ? "%u+" : "%u", b);
        bar(l, l->x + 30.0f * l->s, bw, r.ms, full, label);
    }
    if (rows == 0) line(l, dim, "(no frame yet)");
}

/* F3: per bounce, the active lanes per warp instruction (of 32) at extend's node visits and at
 * shade's start, as bars of the 32 lanes a warp has, and the BSDF sampling's (its branches by
 * material model, each run on its own: the cost of divergent materials, Laine et al. 2013). */
static const rc_rgba8 div_color[3] = {
    {70, 140, 245, 255}, {90, 200, 120, 255}, {230, 210, 60, 255}};

static void divergence(layout *l, const rc_viewer *v) {
    const char *why = rc_view_divergence_why(v);
    line(l, text, "active lanes per warp instruction, of 32, per bounce (F3)");
    if (why) {
        line(l, dim, why);
        return;
    }
    static const char *const names[3] = {"extend nodes", "shade", "BSDF sampling"};
    float x = l->x, chip = 7.0f * l->s;
    for (int k = 0; k < 3; k++) {
        rc_batch_rect(l->b, x, l->y, chip, chip, div_color[k]);
        x += chip + 3.0f * l->s;
        x += rc_batch_text(l->b, x, l->y, dim, names[k]) + 9.0f * l->s;
    }
    l->y += RC_FONT_LINE * l->s;
    const rc_probe_counts *p = &v->div.shown;
    int rows = 0;
    for (int b = 0; b < RC_PROBE_BOUNCES; b++)
        if (p->bin[RC_PROBE_SHADE][b].lanes || p->bin[RC_PROBE_EXTEND_NODE][b].lanes) rows = b + 1;
    if (rows > RC_BAR_ROWS) rows = RC_BAR_ROWS;
    float bw = (l->w - 30.0f * l->s - 150.0f * l->s) / 3.0f, h = 7.0f * l->s;
    for (int r = 0; r <= rows && rows; r++) {
        int bin = r == rows ? RC_PROBE_ALL : r;
        const rc_probe_bin bins[3] = {p->bin[RC_PROBE_EXTEND_NODE][bin],
                                      p->bin[RC_PROBE_SHADE][bin], rc_probe_classes(p, bin)};
        if (r == rows)
            rc_batch_text(l->b, l->x, l->y, dim, "all");
        else
            rc_batch_textf(l->b, l->x, l->y, dim, "%d", r);
        char label[64];
        snprintf(label, sizeof label, "%5.1f %5.1f %5.1f", rc_probe_fill(&bins[0]),
                 rc_probe_fill(&bins[1]), rc_probe_fill(&bins[2]));
        for (int k = 0; k < 3; k++) {
            float x0 = l->x + 30.0f * l->s + (float)k * bw;
            rc_batch_rect(l->b, x0, l->y, bw - 2.0f * l->s, h, track);
            rc_batch_rect(l->b, x0, l->y,
                          (bw - 2.0f * l->s) * (float)rc_probe_fill(&bins[k]) / 32.0f, h,
                          div_color[k]);
        }
        rc_batch_text(l->b, l->x + 35.0f * l->s + 3.0f * bw, l->y, text, label);
        l->y += 9.0f * l->s;
    }
    if (!rows) line(l, dim, "(counting: no frame counted yet)");
}

/* 1, 2 or 5 times a power of ten, at least v. */
static double nice_ceiling(double v) {
    double p = pow(10.0, floor(log10(v > 1e-3 ? v : 1e-3)));
    return v <= p ? p : v <= 2.0 * p ? 2.0 * p : v <= 5.0 * p ? 5.0 * p : 10.0 * p;
}

typedef struct graph_cols {
    double ms[RC_GRAPH_COLS][RC_PH_COUNT];
    double weight[RC_GRAPH_COLS];
} graph_cols;

/* Each frame covers the columns of its time span; a column shows the mean of its frames. */
static int bin_frames(const rc_history *h, double now, int cols, graph_cols *g, double *peak) {
    memset(g, 0, sizeof *g);
    double t0 = now - RC_GRAPH_WINDOW, per_col = RC_GRAPH_WINDOW / cols;
    const rc_history_frame *f;
    int any = 0;
    for (size_t i = 0; (f = rc_history_get(h, i)) && f->end_ms > t0; i++) {
        int c1 = (int)((f->end_ms - t0) / per_col),
            c0 = (int)((f->end_ms - f->wall_ms - t0) / per_col);
        c0 = c0 < 0 ? 0 : c0;
        c1 = c1 >= cols ? cols - 1 : c1;
        for (int c = c0; c <= c1; c++) {
            for (int p = 0; p < RC_PH_COUNT; p++) g->ms[c][p] += f->ms[p];
            g->weight[c] += 1.0;
        }
        double sum = f->ms[0] + f->ms[1] + f->ms[2] + f->ms[3];
        if (sum > *peak) *peak = sum;
        any = 1;
    }
    return any;
}

static void frame_graph(layout *l, const rc_viewer *v, double now) {
    static graph_cols g;
    float gh = RC_GRAPH_H * l->s, gw = l->w;
    int cols = (int)gw < RC_GRAPH_COLS ? (int)gw : RC_GRAPH_COLS;
    double peak = 0.0;
    int any = bin_frames(&v->hist, now, cols, &g, &peak);
    double top = nice_ceiling(peak * 1.05);
    char s[96];
    snprintf(s, sizeof s, "frame time, last %.0f s (top %g ms)", RC_GRAPH_WINDOW / 1e3, top);
    line(l, text, s);
    legend(l, RC_PH_OTHER);
    rc_batch_rect(l->b, l->x, l->y, gw, gh, track);
    float colw = gw / (float)cols, base = l->y + gh;
    for (int c = 0; any && c < cols; c++) {
        if (g.weight[c] == 0.0) continue;
        float y = base;
        for (int p = 0; p < RC_PH_COUNT; p++) {
            float hh = (float)(g.ms[c][p] / g.weight[c] / top) * gh;
            rc_batch_rect(l->b, l->x + (float)c * colw, y - hh, colw, hh, phase_color[p]);
            y -= hh;
        }
    }
    double since = now - v->hist.changed_ms;
    if (v->hist.changed_ms > 0.0 && since < RC_GRAPH_WINDOW)
        rc_batch_rect(l->b, l->x + (float)((RC_GRAPH_WINDOW - since) / RC_GRAPH_WINDOW) * gw, l->y,
                      l->s, gh, accent);
    l->y += gh + 4.0f * l->s;
}

static void footer(layout *l, const rc_viewer *v) {
    char s[160];
    if (v->show_mask) {
        double n = (double)v->st.width * v->st.height;
        snprintf(s, sizeof s, "mask of bounce %d: %u of %.0f paths alive (%.1f%%)  [ ] change",
                 v->mask_bounce, v->film.mask_alive, n, 100.0 * v->film.mask_alive / n);
        line(l, accent, s);
    }
    snprintf(s, sizeof s, "exposure %+.1f  %s   display: %s   H help", v->exposure,
             rc_tonemap_name(v->tonemap), rc_film_path_name(v->film.path));
    line(l, dim, s);
}

float rc_overlay_width(const rc_viewer *v) {
    return (RC_PANEL_W + 16.0f) * v->batch.scale;
}

void rc_overlay_draw(rc_viewer *v, double now_ms) {
    rc_batch *b = &v->batch;
    float s = b->scale, pad = 8.0f * s;
    float w = fminf(RC_PANEL_W * s, (float)v->win_w - 2.0f * pad);
    layout l = {b, s, 2.0f * pad, 2.0f * pad, w - 2.0f * pad, 0.0f};
    /* The panel goes under the text: reserve its triangles first, size them at the end. */
    size_t bg = b->n;
    rc_batch_rect(b, 0.0f, 0.0f, 1.0f, 1.0f, panel);
    header(&l, v);
    rates(&l, v, now_ms);
    l.y += 4.0f * s;
    occupancy_row(&l, v);
    bounce_bars(&l, v);
    l.y += 4.0f * s;
    if (v->show_divergence) {
        divergence(&l, v);
        l.y += 4.0f * s;
    }
    frame_graph(&l, v, now_ms);
    footer(&l, v);
    /* A window the whole panel would cover three quarters of (in width or in height) gets
       the panel folded to its first lines and the rates. */
    if (l.y + pad > RC_FOLD * (float)v->win_h || w + 2.0f * pad > RC_FOLD * (float)v->win_w) {
        b->n = bg + 6;
        l = (layout){b, s, 2.0f * pad, 2.0f * pad, 0.0f, 0.0f};
        header(&l, v);
        rates(&l, v, now_ms);
        line(&l, dim, "O hides this, H help");
    }
    float x0 = pad, y0 = pad, x1 = fminf(fmaxf(pad + w, l.right + pad), (float)v->win_w - pad),
          y1 = l.y + pad;
    const float xs[6] = {x0, x1, x1, x0, x1, x0}, ys[6] = {y0, y0, y1, y0, y1, y1};
    for (int i = 0; i < 6 && bg + 6 <= b->n; i++) {
        b->v[bg + (size_t)i].x = xs[i];
        b->v[bg + (size_t)i].y = ys[i];
    }
}

void rc_help_draw(rc_viewer *v) {
    rc_batch *b = &v->batch;
    float s = b->scale, lh = RC_FONT_LINE * s, kw = 0.0f, ww = 0.0f;
    size_t n = 0;
    for (; rc_view_help[n].keys; n++) {
        kw = fmaxf(kw, rc_batch_text_width(b, rc_view_help[n].keys));
        ww = fmaxf(ww, rc_batch_text_width(b, rc_view_help[n].what));
    }
    float gap = 12.0f * s, pad = 10.0f * s, w = kw + gap + ww, h = (float)(n + 2) * lh;
    float x = ((float)v->win_w - w) / 2.0f, y = ((float)v->win_h - h) / 2.0f;
    rc_batch_rect(b, x - pad, y - pad, w + 2.0f * pad, h + 2.0f * pad, (rc_rgba8){12, 12, 16, 240});
    rc_batch_text(b, x, y, accent, "keys   (H or F1 closes this)");
    for (size_t i = 0; i < n; i++) {
        float yi = y + (float)(i + 2) * lh;
        rc_batch_text(b, x, yi, accent, rc_view_help[i].keys);
        rc_batch_text(b, x + kw + gap, yi, text, rc_view_help[i].what);
    }
}
