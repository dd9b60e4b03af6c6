/* test_traffic.c: the stream traffic rc_bounce_stats.bytes models (traffic.c), on a small Cornell
 * box render on the CPU: at bounce 0, where every path is live, extend's bytes a path are the
 * queue entry, the flags, the 32-byte ray and the 8-byte hit (48 B in indices mode, 44 B in
 * payload mode, whose slots are the records); with the shadow rays traced in shade, the shadow
 * phase moves nothing and shade's bytes drop by exactly the shadow stream's share (each ray's
 * 48-byte record, its slot number, the shadow compaction's input), the path stream's bytes
 * staying what they were; `none` compacts nothing and shade writes it no input; a compaction of
 * records (payload) moves 16 times the bytes of one of 4-byte indices where flags choose.
 * Usage: test_traffic SCENE */
#include "rc_test.h"

#include <string.h>

#define SIZE 32

static int frame(const rc_scene *s, const char *algo, rc_mode mode, rc_shadows shadows,
                 rc_frame_stats *fs) {
    rc_settings st = test_settings(s, SIZE, SIZE, algo, mode);
    st.shadows = shadows;
    st.max_depth = 6;
    rc_renderer *r;
    rc_error err;
    if (rc_renderer_create(s, &st, &r, &err) != 0 || rc_render_frame(r, fs, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    rc_renderer_destroy(r);
    return 0;
}

int main(int argc, char **argv) {
    rc_scene s;
    int started = test_start("test_traffic", argc == 2, "SCENE", NULL, argv, 1, &s);
    if (started != 0) return started;
    static rc_frame_stats str, inl, pay, none;
    CHECK(frame(&s, "scan-scatter", RC_MODE_INDICES, RC_SHADOWS_STREAM, &str) == 0 &&
              frame(&s, "scan-scatter", RC_MODE_INDICES, RC_SHADOWS_INLINE, &inl) == 0 &&
              frame(&s, "scan-scatter", RC_MODE_PAYLOAD, RC_SHADOWS_STREAM, &pay) == 0 &&
              frame(&s, "none", RC_MODE_INDICES, RC_SHADOWS_STREAM, &none) == 0,
          "renders failed");
    const uint64_t n0 = SIZE * SIZE;
    CHECK(str.bounce[0].alive == n0 && str.bounce[0].bytes[RC_PHASE_EXTEND] == 48u * n0 &&
              pay.bounce[0].bytes[RC_PHASE_EXTEND] == 44u * n0,
          "bounce 0 extend: %llu and %llu bytes for %llu paths, want 48 and 44 a path",
          (unsigned long long)str.bounce[0].bytes[RC_PHASE_EXTEND],
          (unsigned long long)pay.bounce[0].bytes[RC_PHASE_EXTEND], (unsigned long long)n0);
    int rays = 0;
    for (uint32_t b = 0; b < str.bounces; b++) {
        const rc_bounce_stats *x = &str.bounce[b], *y = &inl.bounce[b], *p = &pay.bounce[b];
        CHECK(x->stream == y->stream && x->alive == y->alive && x->kept == y->kept &&
                  x->shadow_kept == y->shadow_kept,
              "bounce %u: the counts differ with the rays in shade", b);
        /* shade's share of the shadow stream: the rays, their slot numbers, the flags of
           scan-scatter (a flag algorithm) */
        const uint64_t share = 48u * x->shadow_kept + 4u * x->shadow_in + x->shadow_in;
        CHECK(y->bytes[RC_PHASE_SHADOW] == 0 && x->bytes[RC_PHASE_SHADOW] == 52u * x->shadow_kept &&
                  x->bytes[RC_PHASE_SHADE] == y->bytes[RC_PHASE_SHADE] + share &&
                  x->bytes[RC_PHASE_EXTEND] == y->bytes[RC_PHASE_EXTEND],
              "bounce %u: shade %llu / %llu bytes, shadow %llu / %llu (stream / inline)", b,
              (unsigned long long)x->bytes[RC_PHASE_SHADE],
              (unsigned long long)y->bytes[RC_PHASE_SHADE],
              (unsigned long long)x->bytes[RC_PHASE_SHADOW],
              (unsigned long long)y->bytes[RC_PHASE_SHADOW]);
        /* flags: n read, each kept element written, every element read; indices 4 B, records
           64 B (paths) and 48 B (shadow rays) */
        const uint64_t flags_path = x->stream, flags_shadow = x->shadow_in;
        CHECK(x->bytes[RC_PHASE_COMPACT] - flags_path - flags_shadow ==
                      4u * (x->stream + x->kept + x->shadow_in + x->shadow_kept) &&
                  p->bytes[RC_PHASE_COMPACT] - flags_path - flags_shadow ==
                      64u * (x->stream + x->kept) + 48u * (x->shadow_in + x->shadow_kept),
              "bounce %u: compaction %llu (indices) and %llu (payload) bytes", b,
              (unsigned long long)x->bytes[RC_PHASE_COMPACT],
              (unsigned long long)p->bytes[RC_PHASE_COMPACT]);
        CHECK(none.bounce[b].bytes[RC_PHASE_COMPACT] == 0, "none compacted %llu bytes at %u",
              (unsigned long long)none.bounce[b].bytes[RC_PHASE_COMPACT], b);
        rays += x->shadow_kept > 0;
    }
    CHECK(rays > 0 && str.bounces > 2, "%u bounces, %d with shadow rays", str.bounces, rays);
    rc_scene_free(&s);
    return test_finish("test_traffic");
}
