/* stats.c: frame statistics summed over a render or a benchmark, and their tables. */
#include "stats.h"
#include "core/path.h"

#include <stddef.h>
#include <string.h>

void rc_stats_total_add(rc_stats_total *t, const rc_frame_stats *f) {
    t->frames++;
    if (f->bounces > t->bounces) t->bounces = f->bounces;
    t->loop = f->loop;
    if (f->sorted) t->sorted = 1;
    if (f->shadows_inline) t->shadows_inline = 1;
    if (f->tail_from < f->bounces) {
        t->tail_frames++;
        t->tail_paired += f->tail_kind == RC_TAIL_PAIRS;
    }
    t->generate_ms += f->generate_ms;
    t->accumulate_ms += f->accumulate_ms;
    t->total_ms += f->total_ms;
    for (uint32_t b = 0; b < f->bounces; b++) {
        rc_bounce_total *o = &t->bounce[b];
        const rc_bounce_stats *s = &f->bounce[b];
        o->launches++;
        o->stream += s->stream;
        o->alive += s->alive;
        o->kept += s->kept;
        o->extend_ms += s->extend_ms;
        o->shade_ms += s->shade_ms;
        o->compact_ms += s->compact_ms;
        o->shadow_in += s->shadow_in;
        o->shadow_kept += s->shadow_kept;
        o->shadow_ms += s->shadow_ms;
        o->sort_ms += s->sort_ms;
        o->tail_ms += s->tail_ms;
        o->tails += s->tail_ms > 0.0;
        uint64_t modelled = 0;
        for (int i = 0; i < RC_PHASES_MODELLED; i++) {
            o->bytes[i] += s->bytes[i];
            modelled += s->bytes[i];
        }
        if (modelled) o->modelled_alive += s->alive;
        const sc_algorithm_info *info = s->algo ? sc_algorithm_find(s->algo) : NULL;
        o->algo = info                                            ? 1 + (int)info->id
                  : s->algo && strcmp(s->algo, RC_TAIL_NAME) == 0 ? -2
                  : s->algo                                       ? -1
                                                                  : 0;
        o->tailed += o->algo == -2;
    }
    for (size_t i = 0; i < f->num_lib; i++) {
        size_t j = 0;
        while (j < t->num_lib && strcmp(t->lib[j].name, f->lib[i].name) != 0) j++;
        if (j == t->num_lib) {
            if (j == SC_MAX_PHASES) continue;
            t->lib[j] = f->lib[i];
            t->num_lib++;
        } else {
            t->lib[j].ms += f->lib[i].ms;
        }
    }
}

const char *rc_stats_tail_kernel(const rc_stats_total *t) {
    if (t->tail_frames == 0) return NULL;
    return t->tail_paired == 0 ? "threads" : t->tail_paired == t->tail_frames ? "pairs" : "both";
}

const char *rc_stats_algo(const rc_bounce_total *o) {
    if (o->algo == -2) return RC_TAIL_NAME;
    if (o->algo < 0) return "none";
    const sc_algorithm_info *info = o->algo ? sc_algorithm_get((sc_algorithm)(o->algo - 1)) : NULL;
    return info ? info->name : "-";
}

/* The sum over bounces of the double at byte offset `off` of rc_bounce_total. */
static double sum_ms(const rc_stats_total *t, size_t off) {
    double s = 0;
    for (uint32_t b = 0; b < t->bounces; b++)
        s += *(const double *)((const char *)&t->bounce[b] + off);
    return s;
}
/* rc_stats_NAME_ms: the frames' NAME_ms summed over the bounces */
#define RC_STATS_SUM(NAME)                                                                         \
    double rc_stats_##NAME##_ms(const rc_stats_total *t) {                                         \
        return sum_ms(t, offsetof(rc_bounce_total, NAME##_ms));                                    \
    }
RC_STATS_SUM(extend)
RC_STATS_SUM(shade)
RC_STATS_SUM(compact)
RC_STATS_SUM(shadow)
RC_STATS_SUM(sort)
RC_STATS_SUM(tail)
/* Frames that ran the tail kernel (each runs it once, at one bounce). */
static uint32_t tail_launches(const rc_stats_total *t) {
    uint32_t n = 0;
    for (uint32_t b = 0; b < t->bounces; b++) n += t->bounce[b].tails;
    return n;
}
int rc_stats_sorted(const rc_stats_total *t) {
    return t->sorted;
}
uint64_t rc_stats_shadow_rays(const rc_stats_total *t) {
    uint64_t s = 0;
    for (uint32_t b = 0; b < t->bounces; b++) s += t->bounce[b].shadow_kept;
    return s;
}
double rc_stats_bytes_per_path(const rc_stats_total *t, int phase) {
    uint64_t bytes = 0, alive = 0;
    for (uint32_t b = 0; b < t->bounces; b++) {
        const rc_bounce_total *o = &t->bounce[b];
        for (int i = 0; i < RC_PHASES_MODELLED; i++)
            if (i == phase || phase == RC_PHASES_MODELLED) bytes += o->bytes[i];
        alive += o->modelled_alive;
    }
    return alive ? (double)bytes / (double)alive : 0.0;
}

/* A bounce's stream traffic per live path: extend, shade, shadow (with a shadow stream),
 * compact, their sum. */
static void bytes_row(FILE *f, const char *label, const uint64_t bytes[RC_PHASES_MODELLED],
                      uint64_t alive, int sphase) {
    double sum = 0.0;
    fprintf(f, "%6s", label);
    for (int i = 0; i < RC_PHASES_MODELLED; i++) {
        const double v = (double)bytes[i] / (double)alive;
        sum += v;
        if (i != RC_PHASE_SHADOW || sphase) fprintf(f, " %9.1f", v);
    }
    fprintf(f, " %9.1f\n", sum);
}

uint64_t rc_stats_rays(const rc_stats_total *t) {
    uint64_t s = 0;
    for (uint32_t b = 0; b < t->bounces; b++) s += t->bounce[b].alive;
    return s;
}

/* Bounces run as phases (each launches extend, shade, ...), over all frames: not the ones the
 * tail kernel ran. */
static uint32_t bounce_launches(const rc_stats_total *t) {
    uint32_t n = 0;
    for (uint32_t b = 0; b < t->bounces; b++) n += t->bounce[b].launches - t->bounce[b].tailed;
    return n;
}

static void phase_row(FILE *f, const char *name, uint32_t launches, double ms, double total) {
    fprintf(f, "  %-22s %9u %11.2f %7.1f%% %10.3f\n", name, launches, ms,
            total > 0 ? 100.0 * ms / total : 0.0, launches ? ms / launches : 0.0);
}

/* A time column of the per-bounce tables, or "-" where the phases were not timed. */
static void ms_col(FILE *f, double v, int width, int timed, int decimals) {
    if (timed)
        fprintf(f, " %*.*f", width, decimals, v);
    else
        fprintf(f, " %*s", width, "-");
}

void rc_stats_print_bounces(FILE *f, const rc_stats_total *t, double per, int timed, int decimals) {
    uint64_t shadows = 0;
    for (uint32_t b = 0; b < t->bounces; b++) shadows += t->bounce[b].shadow_in;
    const int sorted = rc_stats_sorted(t), tail = t->tail_frames > 0;
    /* shadow rays traced in shade: their counts, but no phase of their own to time */
    const int sphase = shadows && !t->shadows_inline;
    fprintf(f, "bounce     rays in       alive        kept  removed%s  algorithm\n",
            shadows ? "   shadow in  shadow kept" : "");
    for (uint32_t b = 0; b < t->bounces; b++) {
        const rc_bounce_total *o = &t->bounce[b];
        fprintf(f, "%6u %11.0f %11.0f %11.0f %7.1f%%", b, (double)o->stream / per,
                (double)o->alive / per, (double)o->kept / per,
                o->alive ? 100.0 * (double)(o->alive - o->kept) / (double)o->alive : 0.0);
        if (shadows)
            fprintf(f, " %11.0f %12.0f", (double)o->shadow_in / per, (double)o->shadow_kept / per);
        fprintf(f, "  %s\n", rc_stats_algo(o));
    }
    fprintf(f, "\nbounce  extend ms   shade ms  compact ms   share%s%s%s\n",
            sphase ? "  shadow ms" : "", sorted ? "    sort ms" : "", tail ? "    tail ms" : "");
    for (uint32_t b = 0; b < t->bounces; b++) {
        const rc_bounce_total *o = &t->bounce[b];
        double sum = o->extend_ms + o->shade_ms + o->compact_ms;
        fprintf(f, "%6u", b);
        ms_col(f, o->extend_ms / per, 10, timed, decimals);
        ms_col(f, o->shade_ms / per, 10, timed, decimals);
        ms_col(f, o->compact_ms / per, 11, timed, decimals);
        if (timed)
            fprintf(f, " %6.1f%%", sum > 0 ? 100.0 * o->compact_ms / sum : 0.0);
        else
            fprintf(f, " %7s", "-");
        if (sphase) ms_col(f, o->shadow_ms / per, 10, timed, decimals);
        if (sorted) ms_col(f, o->sort_ms / per, 10, timed, decimals);
        if (tail) ms_col(f, o->tail_ms / per, 10, timed, decimals);
        fprintf(f, "\n");
    }
    fprintf(f, "share: compact ms / (extend + shade + compact ms)\n");
    if (tail)
        fprintf(f,
                "bounces marked %s: one kernel ran them all (--tail-below), its time at the "
                "first\n",
                RC_TAIL_NAME);
    /* the stream traffic per live path, from the layouts (traffic.c) */
    uint64_t all[RC_PHASES_MODELLED] = {0}, alive = 0;
    for (uint32_t b = 0; b < t->bounces; b++) {
        for (int i = 0; i < RC_PHASES_MODELLED; i++) all[i] += t->bounce[b].bytes[i];
        alive += t->bounce[b].modelled_alive;
    }
    if (!alive) return;
    fprintf(f, "\nbounce  extend B   shade B%s compact B   total B  (stream bytes a live path)\n",
            sphase ? "  shadow B" : "");
    for (uint32_t b = 0; b < t->bounces; b++) {
        const rc_bounce_total *o = &t->bounce[b];
        if (!o->modelled_alive) continue;
        char label[16];
        snprintf(label, sizeof label, "%u", b);
        bytes_row(f, label, o->bytes, o->modelled_alive, sphase);
    }
    bytes_row(f, "all", all, alive, sphase);
    fprintf(f,
            "stream bytes: the records, queues and compaction inputs the phases move, from the "
            "layouts (path\n%zu B, shadow ray %zu B) and the counts; not the scene, the sample "
            "updates or the tail kernel\n",
            sizeof(rc_path), sizeof(rc_shadow));
}

void rc_stats_print(FILE *f, const rc_stats_total *t) {
    double total = t->total_ms;
    uint32_t bl = bounce_launches(t);
    fprintf(f, "phase                    launches    total ms    share     avg ms\n");
    phase_row(f, "generate", t->frames, t->generate_ms, total);
    phase_row(f, "extend", bl, rc_stats_extend_ms(t), total);
    int sorted = rc_stats_sorted(t);
    if (sorted) phase_row(f, "sort", bl, rc_stats_sort_ms(t), total);
    phase_row(f, "shade", bl, rc_stats_shade_ms(t), total);
    phase_row(f, "compact", bl, rc_stats_compact_ms(t), total);
    for (size_t i = 0; i < t->num_lib; i++) {
        char name[64];
        snprintf(name, sizeof name, "  %s", t->lib[i].name);
        phase_row(f, name, bl, t->lib[i].ms, total);
    }
    uint64_t shadows = 0;
    for (uint32_t b = 0; b < t->bounces; b++) shadows += t->bounce[b].shadow_in;
    if (shadows && !t->shadows_inline) phase_row(f, "shadow", bl, rc_stats_shadow_ms(t), total);
    const int tail = rc_stats_tail_ms(t) > 0.0;
    if (tail) phase_row(f, "tail", tail_launches(t), rc_stats_tail_ms(t), total);
    phase_row(f, "accumulate", t->frames, t->accumulate_ms, total);
    phase_row(f, "frame (wall)", t->frames, total, total);
    fprintf(f, "frame loop: %s\n\n", rc_frame_loop_name(t->loop));
    rc_stats_print_bounces(f, t, 1.0, 1, 2);
    double secs = total / 1e3;
    fprintf(f, "\n%llu rays traced in %.3f s: %.2f Mrays/s\n", (unsigned long long)rc_stats_rays(t),
            secs, secs > 0 ? (double)rc_stats_rays(t) / secs / 1e6 : 0.0);
    if (shadows && t->shadows_inline)
        fprintf(f, "%llu shadow rays traced besides, in shade (--shadows)\n",
                (unsigned long long)rc_stats_shadow_rays(t));
    else if (shadows)
        fprintf(f,
                "%llu shadow rays traced besides (the compact rows include their stream's "
                "compaction)\n",
                (unsigned long long)rc_stats_shadow_rays(t));
}
