/* test_sort.c: --sort-materials. (1) The partition itself: after generate and extend, the sort
 * leaves the stream grouped by the material kind of each hit, with the miss and the ended
 * paths last, each group in stream order, the group sizes in r->groups, and the same paths as
 * before (a permutation); the kinds are recomputed here from the scene, not from sort.c.
 * (2) The image: bit-identical with and without sorting, for `none`, stable and unstable flag
 * and removal-list algorithms and auto, both modes, NEE and BSDF sampling, against the
 * unsorted render of `none` (the random numbers are keyed by pixel, sample and bounce; each
 * path adds light only to its own sample slot; shadow slot i is written for stream slot i).
 * Usage: test_sort SCENE... */
#include "rc_test.h"
#include "wavefront/renderer.h"

#include <string.h>

#define SIZE 32
#define SPP  3

/* The kind of a path's hit as the partition should see it: material type, miss, ended. */
static unsigned kind_of(const rc_scene *s, const rc_renderer *r, const rc_path *p) {
    if (!(p->flags & RC_PATH_ALIVE))
        return RC_SORT_DEAD; /* path.h: after the models, a miss then an ended path */
    if (p->prim == RC_NO_PRIM) return RC_SORT_MISS;
    return s->materials[rc_prim_material(&r->view.bvh.prims[p->prim])].type;
}

static void check_partition(const rc_scene *s, rc_mode mode, uint32_t wave) {
    rc_settings st = test_settings(s, SIZE, SIZE, "scan-scatter", mode);
    st.samples_per_wave = wave;
    st.sort_materials = 1;
    rc_error err;
    rc_renderer *r;
    if (rc_renderer_create(s, &st, &r, &err) != 0) {
        CHECK(0, "renderer: %s", err.msg);
        return;
    }
    rc_frame_stats fs;
    memset(&fs, 0, sizeof fs);
    rc_generate(r, &fs);
    rc_extend(r, 0, &fs);
    size_t n = r->n;
    /* before: how many paths of each kind the stream holds */
    uint8_t *seen = calloc(n, 1);
    size_t expect[RC_SORT_KEYS] = {0};
    for (size_t i = 0; i < n; i++) {
        const rc_path *p = rc_stream_path(r, i);
        expect[kind_of(s, r, p)]++;
    }
    CHECK(rc_sort(r, 0, &fs, &err) == 0, "sort: %s", err.msg);
    CHECK(r->n == n, "the sort changed the stream length");
    size_t pos = 0;
    int order_ok = 1, group_ok = 1, perm_ok = 1;
    for (unsigned k = 0; k < RC_SORT_KEYS; k++) {
        CHECK(r->groups[k] == expect[k], "group %u: %u paths, expected %zu", k, r->groups[k],
              expect[k]);
        uint32_t prev = 0;
        for (size_t j = 0; j < r->groups[k] && pos < n; j++, pos++) {
            const rc_path *p = rc_stream_path(r, pos);
            uint32_t id = rc_path_wave_sample(p) * r->num_pixels + p->pixel;
            if (kind_of(s, r, p) != k) group_ok = 0;
            if (j > 0 && id <= prev) order_ok = 0; /* the stream started in id order */
            if (id >= n || seen[id])
                perm_ok = 0;
            else
                seen[id] = 1;
            prev = id;
        }
    }
    CHECK(pos == n, "the groups hold %zu of %zu paths", pos, n);
    CHECK(group_ok, "%s: a path sits in another kind's group", rc_mode_name(mode));
    CHECK(order_ok, "%s: a group is not in stream order (the partition is not stable)",
          rc_mode_name(mode));
    CHECK(perm_ok, "%s: the sorted stream is not a permutation of the paths", rc_mode_name(mode));
    size_t kinds = 0;
    for (unsigned k = 0; k < 6; k++) kinds += expect[k] > 0;
    CHECK(kinds >= 2, "the first bounce hit only %zu kind(s): the test shows nothing", kinds);
    free(seen);
    rc_frame_stats whole;
    CHECK(rc_render_frame(r, &whole, &err) == 0, "frame: %s", err.msg);
    CHECK(whole.sorted == 1, "the frame's stats do not say it sorted");
    rc_renderer_destroy(r);
}

static float *render(const rc_scene *s, const char *algo, rc_mode mode, int ls, int sort,
                     uint32_t wave) {
    rc_settings st = test_settings(s, SIZE, SIZE, algo, mode);
    st.max_depth = 8;
    st.tune.tile = 64;
    st.light_sampling = ls;
    st.samples_per_wave = wave;
    st.sort_materials = sort;
    return test_render(s, &st, SPP);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_sort SCENE...\n");
        return 2;
    }
    const char *algos[] = {"none", "serial", "scan-scatter", "jumping-jack", "redzone", "auto"};
    const size_t bytes = SIZE * SIZE * 3 * sizeof(float);
    for (int a = 1; a < argc; a++) {
        rc_scene s;
        if (test_load(argv[a], &s) != 0) return 1;
        check_partition(&s, RC_MODE_INDICES, 1);
        check_partition(&s, RC_MODE_PAYLOAD, 2);
        for (int ls = RC_LIGHTS_NEE; ls <= RC_LIGHTS_BSDF; ls++) {
            float *ref = render(&s, "none", RC_MODE_INDICES, ls, 0, 1);
            CHECK(ref != NULL, "%s: reference render failed", argv[a]);
            if (!ref) break;
            for (size_t i = 0; i < sizeof algos / sizeof *algos; i++)
                for (int m = RC_MODE_INDICES; m <= RC_MODE_PAYLOAD; m++) {
                    uint32_t wave = 1 + (uint32_t)(i % 2); /* waves of 1, and of 2 + 1 */
                    float *img = render(&s, algos[i], (rc_mode)m, ls, 1, wave);
                    CHECK(img != NULL, "%s %s: render failed", algos[i], rc_mode_name((rc_mode)m));
                    if (img)
                        CHECK(memcmp(img, ref, bytes) == 0,
                              "%s, %s, %s, %s: the sorted image differs from the unsorted one",
                              argv[a], algos[i], rc_mode_name((rc_mode)m),
                              rc_light_sampling_name(ls));
                    free(img);
                }
            free(ref);
        }
        rc_scene_free(&s);
    }
    return test_finish("test_sort");
}
