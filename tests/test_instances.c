/* test_instances.c: the two-level BVH (app/core/inst.h) against its independent reference, the
 * same scene with every instance flattened into copied triangles in the one-level BVH:
 *   - random rays, both layouts: the same hit or miss, t within a float tolerance, the same
 *     (instance, triangle) where the hit is unambiguous (no other triangle within the tolerance);
 *   - shadow rays: the same answer;
 *   - the light table: as many entries, the same total power and the same selection
 *     probabilities (sorted), instanced emitters included;
 *   - instances counted against the memory limit of a scene file;
 *   - a render: the instanced image against the flattened one, RMSE of 8x8 block means under
 *     RC_INST_RENDER_RMSE (the two round their t differently, so paths may part ways).
 * Transforms: rotations, non-uniform scales, a mirror and a shear. */
#define _POSIX_C_SOURCE 200809L
#include "rc_test.h"
#include "scene/scene_inst.h"

#include <string.h>
#include <unistd.h>

#define MESH_RINGS          10
#define MESH_SIDES          16
#define NUM_INST            7
#define NUM_RAYS            20000
#define RC_INST_RENDER_RMSE 0.005

static uint32_t g_rng = 12345u;
static float frand(void) {
    g_rng = g_rng * 1664525u + 1013904223u;
    return (float)(g_rng >> 8) / 16777216.0f;
}

/* A ring torus of MESH_RINGS x MESH_SIDES quads (two triangles each), major radius 1. */
static rc_vec3 torus_point(int i, int j) {
    const float u = 2.0f * RC_PI * (float)(i % MESH_RINGS) / MESH_RINGS,
                v = 2.0f * RC_PI * (float)(j % MESH_SIDES) / MESH_SIDES;
    const float r = 1.0f + 0.35f * cosf(v);
    return rc_v3(r * cosf(u), 0.35f * sinf(v), r * sinf(u));
}

static void add_torus(rc_scene *s, uint32_t mat) {
    for (int i = 0; i < MESH_RINGS; i++)
        for (int j = 0; j < MESH_SIDES; j++) {
            rc_vec3 a = torus_point(i, j), b = torus_point(i + 1, j), c = torus_point(i + 1, j + 1),
                    d = torus_point(i, j + 1);
            rc_scene_add_triangle(s, a, b, c, mat);
            rc_scene_add_triangle(s, a, c, d, mat);
        }
}

/* Instance k's transform, rows of 4. */
static void transform_of(int k, double xf[12]) {
    const double th = 0.7 * k + 0.3, c = cos(th), s = sin(th);
    double sx = 1.0 + 0.2 * k, sy = 0.6 + 0.1 * k, sz = 1.1;
    if (k == 3) sx = -sx; /* a mirror */
    const double m[12] = {c * sx,  0.0, s * sz, -6.0 + 2.0 * k,      0.0, sy, 0.0, 1.0 + 0.1 * k,
                          -s * sx, 0.0, c * sz, -2.0 + 0.5 * (k % 3)};
    memcpy(xf, m, sizeof m);
    if (k == 5) xf[1] = 0.4; /* a shear */
}

static rc_vec3 xf_point(const double xf[12], rc_vec3 p) {
    return rc_v3((float)(xf[0] * p.x + xf[1] * p.y + xf[2] * p.z + xf[3]),
                 (float)(xf[4] * p.x + xf[5] * p.y + xf[6] * p.z + xf[7]),
                 (float)(xf[8] * p.x + xf[9] * p.y + xf[10] * p.z + xf[11]));
}

/* The one-level part both scenes share: a ground quad, a sphere, a lamp quad. */
static void add_common(rc_scene *s, uint32_t *mats) {
    rc_scene_init(s);
    rc_material m[4] = {test_material(RC_MAT_LAMBERTIAN, 0.6f, 0.6f, 0.6f, 0.0f),
                        test_material(RC_MAT_LAMBERTIAN, 0.8f, 0.3f, 0.2f, 0.0f),
                        test_material(RC_MAT_EMISSIVE, 6.0f, 6.0f, 5.0f, 0.0f),
                        test_material(RC_MAT_METAL, 0.9f, 0.8f, 0.5f, 0.2f)};
    for (int i = 0; i < 4; i++) mats[i] = (uint32_t)rc_scene_add_material(s, &m[i]);
    rc_scene_add_quad(s, rc_v3(-20, 0, -20), rc_v3(40, 0, 0), rc_v3(0, 0, 40), mats[0]);
    rc_scene_add_sphere(s, rc_v3(0, 1, 3), 0.8f, mats[3]);
    rc_scene_add_quad(s, rc_v3(-1, 6, -1), rc_v3(2, 0, 0), rc_v3(0, 0, 2), mats[2]);
    s->camera.look_from = rc_v3(0, 5, 14);
    s->camera.look_at = rc_v3(0, 1, 0);
    s->background.type = RC_BG_CONSTANT;
    s->background.bottom = rc_v3s(0.05f);
    s->background.top = rc_v3s(0.05f);
}

/* The lamp mesh: two emissive triangles, instanced twice. */
static void add_lamp(rc_scene *s, uint32_t mat) {
    rc_scene_add_triangle(s, rc_v3(0, 0, 0), rc_v3(1, 0, 0), rc_v3(1, 0, 1), mat);
    rc_scene_add_triangle(s, rc_v3(0, 0, 0), rc_v3(1, 0, 1), rc_v3(0, 0, 1), mat);
}
static void lamp_transform(int k, double xf[12]) {
    const double m[12] = {0.5 + k, 0, 0, -4.0 + 6.0 * k, 0, -1, 0, 5.0, 0, 0, 0.7, 2.0};
    memcpy(xf, m, sizeof m);
}

static int build(rc_scene *inst, rc_scene *flat) {
    uint32_t mi[4], mf[4];
    rc_error err;
    add_common(inst, mi);
    add_common(flat, mf);
    size_t first = inst->num_prims;
    add_torus(inst, mi[1]);
    long torus = rc_scene_add_mesh(inst, first);
    first = inst->num_prims;
    add_lamp(inst, mi[2]);
    long lamp = rc_scene_add_mesh(inst, first);
    CHECK(torus == 0 && lamp == 1, "meshes %ld %ld", torus, lamp);
    for (int k = 0; k < NUM_INST; k++) {
        double xf[12];
        transform_of(k, xf);
        CHECK(rc_scene_add_instance(inst, (uint32_t)torus, xf) == 0, "instance %d", k);
        rc_scene t;
        rc_scene_init(&t);
        add_torus(&t, mf[1]);
        for (size_t i = 0; i < t.num_prims; i++) {
            const rc_prim *p = &t.prims[i];
            rc_scene_add_triangle(flat, xf_point(xf, p->p), xf_point(xf, rc_add(p->p, p->a)),
                                  xf_point(xf, rc_add(p->p, p->b)), mf[1]);
        }
        rc_scene_free(&t);
    }
    for (int k = 0; k < 2; k++) {
        double xf[12];
        lamp_transform(k, xf);
        CHECK(rc_scene_add_instance(inst, (uint32_t)lamp, xf) == 0, "lamp %d", k);
        rc_scene t;
        rc_scene_init(&t);
        add_lamp(&t, mf[2]);
        for (size_t i = 0; i < t.num_prims; i++) {
            const rc_prim *p = &t.prims[i];
            rc_scene_add_triangle(flat, xf_point(xf, p->p), xf_point(xf, rc_add(p->p, p->a)),
                                  xf_point(xf, rc_add(p->p, p->b)), mf[2]);
        }
        rc_scene_free(&t);
    }
    double bad[12] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};
    CHECK(rc_scene_add_instance(inst, 0, bad) == -2, "a singular transform is refused");
    CHECK(rc_scene_add_instance(inst, 9, bad) == -3, "an unknown mesh is refused");
    if (rc_scene_finish(inst, &err) != 0 || rc_scene_finish(flat, &err) != 0) {
        fprintf(stderr, "finish: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* (input instance, input triangle) of a hit, as one number; the one-level primitives as
 * themselves. Instances come after the 3 shared primitives, torus instances first. */
#define COMMON  3u
#define TORUS_N (2u * MESH_RINGS * MESH_SIDES)
static uint64_t key_inst(const rc_scene *s, const rc_bvh_view *v, uint32_t id) {
    if (id == RC_NO_PRIM) return UINT64_MAX;
    if (id < v->num_prims) return s->bvh.ids[id];
    const uint32_t k = rc_inst_of(&v->inst, id);
    const rc_instance *in = &v->inst.instances[k];
    const uint32_t input = s->inst.top.ids[k];
    const uint32_t local = s->meshes[in->mesh].bvh.ids[id - in->base];
    if (in->mesh == 0) return COMMON + (uint64_t)input * TORUS_N + local;
    return COMMON + (uint64_t)NUM_INST * TORUS_N + (uint64_t)(input - NUM_INST) * 2u + local;
}
static uint64_t key_flat(const rc_scene *s, uint32_t id) {
    return id == RC_NO_PRIM ? UINT64_MAX : s->bvh.ids[id];
}

static void rays(const rc_scene *inst, const rc_scene *flat, uint32_t layout) {
    rc_scene_view vi = rc_scene_view_make(inst, 64, 64), vf = rc_scene_view_make(flat, 64, 64);
    if (layout == RC_BVH_WIDE) {
        vi.bvh.layout = vf.bvh.layout = RC_BVH_WIDE;
        vi.bvh.wide = inst->bvh.wide;
        vi.bvh.num_wide = inst->bvh.num_wide;
        vf.bvh.wide = flat->bvh.wide;
        vf.bvh.num_wide = flat->bvh.num_wide;
        vi.bvh.inst.wide = inst->inst.wide;
    }
    int miss_mismatch = 0, t_bad = 0, id_bad = 0, ambiguous = 0, hits = 0, occl_bad = 0;
    for (int r = 0; r < NUM_RAYS; r++) {
        rc_vec3 o = rc_v3(frand() * 20 - 10, frand() * 6, frand() * 20 - 10);
        rc_vec3 target = rc_v3(frand() * 14 - 7, frand() * 3, frand() * 6 - 3);
        rc_vec3 d = rc_sub(target, o);
        if (r % 3 == 0) d = rc_normalize(d);
        const rc_hit a = rc_bvh_intersect(&vi.bvh, o, d, 0.0f, INFINITY);
        const rc_hit b = rc_bvh_intersect(&vf.bvh, o, d, 0.0f, INFINITY);
        if ((a.prim == RC_NO_PRIM) != (b.prim == RC_NO_PRIM)) {
            miss_mismatch++;
            continue;
        }
        if (a.prim == RC_NO_PRIM) continue;
        hits++;
        const float tol = 1e-4f * (1.0f + b.t);
        if (!(fabsf(a.t - b.t) <= tol)) t_bad++;
        if (key_inst(inst, &vi.bvh, a.prim) != key_flat(flat, b.prim)) {
            /* unambiguous: nothing else of the flat scene within the tolerance beyond b.t */
            const rc_hit c = rc_bvh_intersect(&vf.bvh, o, d, b.t + tol, INFINITY);
            const rc_hit e = rc_bvh_intersect(&vf.bvh, o, d, 0.0f, fmaxf(b.t - tol, 0.0f));
            if (c.t - b.t > 2.0f * tol && e.prim == RC_NO_PRIM)
                id_bad++;
            else
                ambiguous++;
        }
        const float tm = 0.5f * b.t;
        if (rc_bvh_occluded(&vi.bvh, o, d, 0.0f, tm) != rc_bvh_occluded(&vf.bvh, o, d, 0.0f, tm) ||
            !rc_bvh_occluded(&vi.bvh, o, d, 0.0f, b.t * 1.001f))
            occl_bad++;
    }
    const char *ln = rc_bvh_layout_name(layout);
    printf("  %s: %d rays, %d hits, %d ambiguous\n", ln, NUM_RAYS, hits, ambiguous);
    CHECK(hits > NUM_RAYS / 4, "%s: only %d hits", ln, hits);
    /* a ray grazing an edge may pass between two triangles in one scene only */
    CHECK(miss_mismatch <= NUM_RAYS / 2000, "%s: %d hit/miss mismatches", ln, miss_mismatch);
    CHECK(t_bad <= NUM_RAYS / 2000, "%s: %d distances apart", ln, t_bad);
    CHECK(id_bad == 0, "%s: %d unambiguous hits on another triangle", ln, id_bad);
    CHECK(occl_bad <= NUM_RAYS / 2000, "%s: %d shadow answers differ", ln, occl_bad);
}

static int cmp_float(const void *a, const void *b) {
    const float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* The table's selection probabilities (sorted) and power (area x luminance, emission 6 6 5). */
static double light_probs(const rc_scene *s, float *out) {
    rc_scene_view v = rc_scene_view_make(s, 8, 8);
    double power = 0.0;
    for (uint32_t i = 0; i < s->num_lights; i++) {
        rc_prim buf;
        uint32_t tri;
        const rc_prim *p = rc_scene_prim(&v, s->light_prims[i], &buf, &tri);
        out[i] = p->pad;
        const double area =
            rc_length(rc_cross(p->a, p->b)) * (rc_prim_type(p) == RC_PRIM_TRIANGLE ? 0.5 : 1.0);
        power += area;
    }
    qsort(out, s->num_lights, sizeof *out, cmp_float);
    return power;
}

static void lights(const rc_scene *inst, const rc_scene *flat) {
    CHECK(inst->num_lights == flat->num_lights && inst->num_lights == 5, "lights %u vs %u",
          inst->num_lights, flat->num_lights);
    if (inst->num_lights != flat->num_lights) return;
    float pi[16], pf[16];
    double wi = light_probs(inst, pi), wf = light_probs(flat, pf);
    CHECK(fabs(wi - wf) <= 1e-5 * wf, "emitting area %g vs %g", wi, wf);
    double sum = 0.0;
    for (uint32_t i = 0; i < inst->num_lights; i++) {
        CHECK(fabsf(pi[i] - pf[i]) <= 1e-5f, "probability %u: %g vs %g", i, pi[i], pf[i]);
        sum += pi[i];
    }
    CHECK(fabs(sum - 1.0) < 1e-5, "probabilities sum to %g", sum);
    printf("  lights: %u, emitting area %.6f (flattened %.6f)\n", inst->num_lights, wi, wf);
}

static void render(const rc_scene *inst, const rc_scene *flat) {
    const uint32_t w = 64, h = 48, spp = 64;
    rc_settings st = test_settings(inst, w, h, "auto", RC_MODE_INDICES);
    st.max_depth = 5;
    float *a = test_render(inst, &st, spp), *b = test_render(flat, &st, spp);
    CHECK(a && b, "render");
    if (a && b) {
        double se = 0.0, mean = 0.0;
        int blocks = 0;
        for (uint32_t by = 0; by < h; by += 8)
            for (uint32_t bx = 0; bx < w; bx += 8)
                for (int c = 0; c < 3; c++) {
                    double sa = 0.0, sb = 0.0;
                    for (uint32_t y = by; y < by + 8; y++)
                        for (uint32_t x = bx; x < bx + 8; x++) {
                            sa += a[3 * ((size_t)y * w + x) + c];
                            sb += b[3 * ((size_t)y * w + x) + c];
                        }
                    se += (sa - sb) * (sa - sb) / (64.0 * 64.0);
                    mean += sb / 64.0;
                    blocks++;
                }
        const double rmse = sqrt(se / blocks);
        printf("  render %ux%u, %u spp: block RMSE %.5f (mean %.4f), bound %.3f\n", w, h, spp, rmse,
               mean / blocks, RC_INST_RENDER_RMSE);
        CHECK(mean / blocks > 0.02, "the image is dark: %g", mean / blocks);
        CHECK(rmse < RC_INST_RENDER_RMSE, "block RMSE %g", rmse);
    }
    free(a);
    free(b);
}

/* A scene file of n instances of a one-triangle mesh within a memory limit of 2 MiB (which the
 * text and its JSON tree take their share of): 1000 fit, 6000 (three primitives' worth each)
 * do not, and the error names the instance. */
static int json_instances(size_t n, char *msg, size_t cap) {
    char dir[] = "/tmp/rc_inst_json_XXXXXX";
    if (!mkdtemp(dir)) return -1;
    char obj[300];
    snprintf(obj, sizeof obj, "%s/tri.obj", dir);
    FILE *f = fopen(obj, "w");
    if (!f) return -1;
    fputs("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", f);
    fclose(f);
    size_t cap_text = 512 + n * 48, len = 0;
    char *text = malloc(cap_text);
    len += (size_t)snprintf(text, cap_text,
                            "{\"camera\": {\"look_from\": [0, 0, 5], \"look_at\": [0, 0, 0]},"
                            " \"meshes\": [{\"file\": \"tri.obj\", \"material\": {\"type\":"
                            " \"lambertian\", \"albedo\": [0.5, 0.5, 0.5]}}], \"instances\": [");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap_text - len, "%s{\"mesh\": 0}", i ? "," : "");
    len += (size_t)snprintf(text + len, cap_text - len, "]}");
    rc_scene s;
    rc_error err = {{0}};
    int rc = rc_scene_parse_max("limit.json", dir, text, len, 2, &s, &err);
    if (rc == 0) rc_scene_free(&s);
    snprintf(msg, cap, "%s", rc == 0 ? "" : err.msg);
    free(text);
    remove(obj);
    rmdir(dir);
    return rc;
}

static void memory_limit(void) {
    char msg[512];
    CHECK(json_instances(1000, msg, sizeof msg) == 0, "1000 instances in 2 MiB: %s", msg);
    int rc = json_instances(6000, msg, sizeof msg);
    printf("  6000 instances in 2 MiB: %s\n", msg);
    CHECK(rc != 0 && strstr(msg, "limit.json: instances[") &&
              strstr(msg, "6000 instances would take more than the memory limit of 2 MiB"),
          "6000 instances in 2 MiB: %s", rc ? msg : "loaded");
}

int main(void) {
    rc_scene inst, flat;
    if (build(&inst, &flat) != 0) return 1;
    CHECK(inst.num_instances == NUM_INST + 2 && inst.inst.total_prims == NUM_INST * TORUS_N + 4,
          "instances %zu, instanced primitives %llu", inst.num_instances,
          (unsigned long long)inst.inst.total_prims);
    CHECK(inst.bvh.num_prims == COMMON && flat.bvh.num_prims == COMMON + NUM_INST * TORUS_N + 4,
          "one-level primitives %u / %u", inst.bvh.num_prims, flat.bvh.num_prims);
    CHECK((rc_scene_features(&inst) & RC_FEAT_INST) && !(rc_scene_features(&flat) & RC_FEAT_INST),
          "the instance feature bit");
    rays(&inst, &flat, RC_BVH_BINARY);
    rays(&inst, &flat, RC_BVH_WIDE);
    lights(&inst, &flat);
    render(&inst, &flat);
    memory_limit();
    rc_scene_free(&inst);
    rc_scene_free(&flat);
    return test_finish("test_instances");
}
