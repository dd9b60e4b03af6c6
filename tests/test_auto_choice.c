/* test_auto_choice.c: the renderer reports, per bounce, the algorithm that compacted the paths.
 * With `auto` each bounce's name is a real algorithm (never "auto"), the one the library picks
 * for a stream of that length, element size and removed count offered flags and a list (asked
 * again here of a fresh context, on a synthetic stream with the same counts); where the CPU
 * table has a removal-list rule, the Cornell box's first bounces (well under 1 % of the paths
 * end) take it. A fixed algorithm reports itself, `none` "none".
 * Usage: test_auto_choice SCENE */
#include "rc_test.h"
#include "core/path.h"

#include <string.h>

#define SIZE 32

/* What auto picks for n elements of elem_size bytes, k of them removed (the last k). */
static const char *expected(size_t n, size_t elem_size, size_t k) {
    sc_context *ctx;
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return NULL;
    uint8_t *data = calloc(n ? n : 1, elem_size), *out = calloc(n ? n : 1, elem_size);
    uint8_t *flags = malloc(n ? n : 1);
    uint32_t *list = malloc((k ? k : 1) * sizeof *list);
    const char *name = NULL;
    if (data && out && flags && list) {
        for (size_t i = 0; i < n; i++) flags[i] = i < n - k;
        for (size_t j = 0; j < k; j++) list[j] = (uint32_t)(n - k + j);
        size_t kept;
        void *result;
        sc_choice c;
        if (sc_compact_any(ctx, SC_ALGO_AUTO, data, flags, out, n, elem_size, list, k, NULL, &kept,
                           &result) == SC_OK &&
            sc_last_choice(ctx, &c) == SC_OK)
            name = sc_algorithm_get(c.algo)->name;
    }
    free(data);
    free(out);
    free(flags);
    free(list);
    sc_context_destroy(ctx);
    return name;
}

/* Render two frames with `algo`; check every bounce's reported name. Returns how many bounces
 * took a removal-list algorithm. */
static int check_run(const rc_scene *s, const char *algo, rc_mode mode) {
    rc_settings st = test_settings(s, SIZE, SIZE, algo, mode);
    st.max_depth = 10;
    rc_error err;
    rc_renderer *r;
    if (rc_renderer_create(s, &st, &r, &err) != 0) {
        CHECK(0, "%s/%s: %s", algo, rc_mode_name(mode), err.msg);
        return 0;
    }
    const size_t elem = mode == RC_MODE_PAYLOAD ? sizeof(rc_path) : sizeof(uint32_t);
    const int is_auto = strcmp(algo, "auto") == 0;
    int lists = 0;
    for (int frame = 0; frame < 2; frame++) {
        rc_frame_stats fs;
        int rc = rc_render_frame(r, &fs, &err);
        CHECK(rc == 0, "%s/%s: %s", algo, rc_mode_name(mode), err.msg);
        if (rc != 0) break;
        CHECK(fs.bounces > 2, "%s: only %u bounces", algo, fs.bounces);
        for (uint32_t b = 0; b < fs.bounces; b++) {
            const rc_bounce_stats *o = &fs.bounce[b];
            CHECK(o->algo != NULL, "%s/%s bounce %u: no algorithm reported", algo,
                  rc_mode_name(mode), b);
            if (!o->algo) continue;
            if (!is_auto) {
                CHECK(strcmp(o->algo, algo) == 0, "%s bounce %u reports %s", algo, b, o->algo);
                continue;
            }
            const sc_algorithm_info *info = sc_algorithm_find(o->algo);
            CHECK(info && info->id != SC_ALGO_AUTO, "auto bounce %u reports '%s'", b, o->algo);
            const char *want = expected(o->stream, elem, o->stream - o->kept);
            CHECK(want && strcmp(want, o->algo) == 0,
                  "auto/%s bounce %u (%u in, %u kept): reports %s, the library picks %s",
                  rc_mode_name(mode), b, o->stream, o->kept, o->algo, want ? want : "(error)");
            lists += info && info->input == SC_INPUT_REMOVAL_LIST;
            if (frame == 0)
                printf("  auto %-8s bounce %2u: %5.1f %% removed -> %s\n", rc_mode_name(mode), b,
                       o->stream ? 100.0 * (o->stream - o->kept) / o->stream : 0.0, o->algo);
        }
    }
    rc_renderer_destroy(r);
    return lists;
}

int main(int argc, char **argv) {
    rc_scene s;
    int started = test_start("test_auto_choice", argc == 2, "SCENE", NULL, argv, 1, &s);
    if (started != 0) return started;
    /* Does the CPU table send a list of few removals to a removal-list algorithm? */
    const char *table = sc_policy_builtin("cpu");
    CHECK(table != NULL, "no built-in cpu table");
    const int table_lists = table && strstr(table, "\"redzone");
    for (int m = 0; m < 2; m++) {
        int lists = check_run(&s, "auto", (rc_mode)m);
        if (table_lists)
            CHECK(lists > 0, "auto/%s: no bounce took a removal-list algorithm",
                  rc_mode_name((rc_mode)m));
        check_run(&s, "scan-scatter", (rc_mode)m);
        check_run(&s, "redzone", (rc_mode)m);
        check_run(&s, "none", (rc_mode)m);
    }
    rc_scene_free(&s);
    return test_finish("test_auto_choice");
}
