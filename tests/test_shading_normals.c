/* test_shading_normals.c: triangles with vertex normals (surface.h, shading.h) through the
 * whole CPU renderer.
 *
 * 1. Vertex normals all equal to the face normal change nothing: on a horizontal floor, whose
 *    normal (0 1 0) every interpolation gives back exactly, the film (film.h's exact
 *    fixed-point sums) is the flat triangles' byte for byte, with `nee` and with `bsdf`; on a
 *    tilted floor the interpolated normal rounds an ulp or two away from the face normal, so
 *    the image must match within 1e-5 relative (measured: 1.2e-7 at most).
 * 2. Vertex normals far from the face normal (up to about 60 degrees, one past the horizon of
 *    the face, which surface.h turns back) on Lambertian, fuzzy metal and glTF PBR triangles
 *    under a quad light and the sky: no pixel negative, NaN or infinite.
 * 3. The same bent normals on a Lambertian floor under a quad light, black background: the
 *    shading-normal rules (shading.h: a direction counts only where the shading and the
 *    geometric normal agree on its side) are the same for light samples and for the BSDF's
 *    own, so `nee` and `bsdf` estimate the same image: their difference's mean within 4
 *    standard errors (pixels independent: its deviation over sqrt(pixels)), 4 standard errors
 *    below 3 % of the mean (the noise of bsdf's paths, which find the light by chance, at
 *    1024 samples a pixel against nee's 256). */
#include "rc_test.h"

#include <math.h>
#include <string.h>

#define SIZE 24

static void *render(const rc_scene *s, int ls, uint32_t spp, int as_film) {
    rc_settings st = test_settings(s, SIZE, SIZE, "scan-scatter", RC_MODE_INDICES);
    st.max_depth = 5;
    st.light_sampling = ls;
    return as_film ? (void *)test_film(s, &st, spp) : (void *)test_render(s, &st, spp);
}

/* A floor of two triangles (corners c[0..3] in order around it), flat or with vertex normals
 * n[0..3] (NULL: flat). */
static void add_floor(rc_scene *s, const rc_vec3 *c, const rc_vec3 *n, uint32_t mat) {
    if (!n) {
        rc_scene_add_triangle(s, c[0], c[1], c[2], mat);
        rc_scene_add_triangle(s, c[0], c[2], c[3], mat);
        return;
    }
    uint32_t v[4];
    for (int k = 0; k < 4; k++) {
        const float f[3] = {n[k].x, n[k].y, n[k].z};
        v[k] = (uint32_t)rc_scene_add_vertex(s, f, NULL);
    }
    const uint32_t t0[3] = {v[0], v[1], v[2]}, t1[3] = {v[0], v[2], v[3]};
    CHECK(rc_scene_add_triangle_vtx(s, c[0], c[1], c[2], mat, t0) == 0, "add_triangle_vtx");
    CHECK(rc_scene_add_triangle_vtx(s, c[0], c[2], c[3], mat, t1) == 0, "add_triangle_vtx");
}

static float light_half = 0.6f, light_y = 1.6f; /* the quad light's half side and height */

static void lit_scene(rc_scene *s, const rc_vec3 *c, const rc_vec3 *n, uint32_t model, int black) {
    rc_error err;
    rc_scene_init(s);
    if (black) {
        s->background.type = RC_BG_CONSTANT;
        s->background.bottom = s->background.top = rc_v3s(0.0f);
    }
    rc_material e = test_material(RC_MAT_EMISSIVE, 4, 4, 4, 0);
    rc_material fm = test_material(model, 0.7f, 0.7f, 0.7f, model == RC_MAT_METAL ? 0.4f : 0);
    fm.roughness = 0.4f;
    uint32_t ei = (uint32_t)rc_scene_add_material(s, &e),
             fi = (uint32_t)rc_scene_add_material(s, &fm);
    rc_scene_add_quad(s, rc_v3(-light_half, light_y, -light_half), rc_v3(2 * light_half, 0, 0),
                      rc_v3(0, 0, 2 * light_half), ei);
    add_floor(s, c, n, fi);
    s->camera.look_from = rc_v3(0.3f, 2.2f, 3.0f);
    s->camera.look_at = rc_v3(0, 0, 0);
    s->camera.vfov = 45.0f;
    CHECK(rc_scene_finish(s, &err) == 0, "%s", err.msg);
}

static void face_normals(void) {
    /* counter-clockwise seen from above: the face normal points up */
    const rc_vec3 flat[4] = {rc_v3(-2, 0, 2), rc_v3(2, 0, 2), rc_v3(2, 0, -2), rc_v3(-2, 0, -2)};
    const rc_vec3 tilt[4] = {rc_v3(-2, -0.3f, 2), rc_v3(2, 0.2f, 2), rc_v3(2, 0.5f, -2),
                             rc_v3(-2, 0.0f, -2)};
    for (int k = 0; k < 2; k++) {
        const rc_vec3 *c = k ? tilt : flat;
        /* each triangle's own face normal, as rc_prim_normal computes it; the two triangles
           of the tilted floor are not coplanar, so each gets its own vertices */
        rc_vec3 n0 = rc_normalize(rc_cross(rc_sub(c[1], c[0]), rc_sub(c[2], c[0])));
        rc_vec3 n1 = rc_normalize(rc_cross(rc_sub(c[2], c[0]), rc_sub(c[3], c[0])));
        for (int ls = 0; ls < 2; ls++) {
            rc_scene a, b;
            rc_error err;
            lit_scene(&a, c, NULL, RC_MAT_LAMBERTIAN, 0);
            /* b: the same two triangles, each with its face normal at its three vertices */
            rc_scene_init(&b);
            {
                rc_material e = test_material(RC_MAT_EMISSIVE, 4, 4, 4, 0);
                rc_material fm = test_material(RC_MAT_LAMBERTIAN, 0.7f, 0.7f, 0.7f, 0);
                fm.roughness = 0.4f;
                uint32_t ei = (uint32_t)rc_scene_add_material(&b, &e),
                         fi = (uint32_t)rc_scene_add_material(&b, &fm);
                rc_scene_add_quad(&b, rc_v3(-0.6f, 1.6f, -0.6f), rc_v3(1.2f, 0, 0),
                                  rc_v3(0, 0, 1.2f), ei);
                const float f0[3] = {n0.x, n0.y, n0.z}, f1[3] = {n1.x, n1.y, n1.z};
                uint32_t v[6];
                for (int i = 0; i < 3; i++) v[i] = (uint32_t)rc_scene_add_vertex(&b, f0, NULL);
                for (int i = 3; i < 6; i++) v[i] = (uint32_t)rc_scene_add_vertex(&b, f1, NULL);
                rc_scene_add_triangle_vtx(&b, c[0], c[1], c[2], fi, v);
                rc_scene_add_triangle_vtx(&b, c[0], c[2], c[3], fi, v + 3);
                b.camera = a.camera;
                CHECK(rc_scene_finish(&b, &err) == 0, "%s", err.msg);
            }
            if (k == 1) {
                /* the tilted normal's interpolation b0 n + b1 n + b2 n, renormalized, rounds
                   to within an ulp or two of n (not exactly n): the same image up to the
                   rounding that carries, not byte for byte */
                float *ia = render(&a, ls, 16, 0), *ib = render(&b, ls, 16, 0);
                CHECK(ia && ib, "render failed");
                if (ia && ib) {
                    double worst = 0;
                    for (int i = 0; i < 3 * SIZE * SIZE; i++)
                        worst = fmax(worst, fabs(ia[i] - ib[i]) / (1e-3 + fabs(ia[i])));
                    printf("tilted floor, vertex normals = face normal (%s): the farthest "
                           "pixel value %.2g relative from the flat triangles'\n",
                           rc_light_sampling_name(ls), worst);
                    CHECK(worst < 1e-5, "tilted floor (%s): a pixel %g relative off",
                          rc_light_sampling_name(ls), worst);
                }
                free(ia);
                free(ib);
                rc_scene_free(&a);
                rc_scene_free(&b);
                continue;
            }
            int64_t *fa = render(&a, ls, 16, 1), *fb = render(&b, ls, 16, 1);
            CHECK(fa && fb, "render failed");
            if (fa && fb) {
                size_t diff = 0;
                for (size_t i = 0; i < 3u * SIZE * SIZE; i++) diff += fa[i] != fb[i];
                printf("horizontal floor, vertex normals = face normal (%s): %zu of %d film "
                       "values differ from the flat triangles'\n",
                       rc_light_sampling_name(ls), diff, 3 * SIZE * SIZE);
                CHECK(diff == 0, "horizontal floor (%s): %zu film values differ",
                      rc_light_sampling_name(ls), diff);
            }
            free(fa);
            free(fb);
            rc_scene_free(&a);
            rc_scene_free(&b);
        }
    }
}

static const rc_vec3 floor_c[4] = {{-5, 0, 5}, {5, 0, 5}, {5, 0, -5}, {-5, 0, -5}};

/* bent normals: about 60 degrees out, one below the face's horizon (turned back by surface.h) */
static void bent(rc_vec3 *n) {
    n[0] = rc_normalize(rc_v3(1.5f, 1.0f, 0.3f));
    n[1] = rc_normalize(rc_v3(-0.4f, 1.0f, 1.6f));
    n[2] = rc_normalize(rc_v3(0.2f, -1.0f, 0.4f));
    n[3] = rc_normalize(rc_v3(-1.2f, 1.0f, -1.0f));
}

static void finite_images(void) {
    const uint32_t models[3] = {RC_MAT_LAMBERTIAN, RC_MAT_METAL, RC_MAT_PBR};
    const char *names[3] = {"lambertian", "fuzzy metal", "pbr"};
    rc_vec3 n[4];
    bent(n);
    for (int m = 0; m < 3; m++)
        for (int ls = 0; ls < 2; ls++) {
            rc_scene s;
            lit_scene(&s, floor_c, n, models[m], 0);
            float *img = render(&s, ls, 32, 0);
            CHECK(img != NULL, "render failed");
            if (img) {
                int bad = 0;
                double sum = 0;
                for (int i = 0; i < 3 * SIZE * SIZE; i++) {
                    bad += !(img[i] >= 0.0f) || !isfinite(img[i]);
                    sum += img[i];
                }
                printf("bent vertex normals, %s (%s): mean %.4f, %d values negative, NaN or "
                       "infinite\n",
                       names[m], rc_light_sampling_name(ls), sum / (3 * SIZE * SIZE), bad);
                CHECK(bad == 0, "%s (%s): %d bad values", names[m], rc_light_sampling_name(ls),
                      bad);
            }
            free(img);
            rc_scene_free(&s);
        }
}

static void nee_agrees(void) {
    rc_vec3 n[4];
    bent(n);
    rc_scene s;
    /* a large light, so that bsdf's paths find it often enough, above a low camera that sees
       only the floor and the black sky */
    light_half = 2.0f, light_y = 3.0f;
    lit_scene(&s, floor_c, n, RC_MAT_LAMBERTIAN, 1);
    light_half = 0.6f, light_y = 1.6f;
    s.camera.look_from = rc_v3(0.3f, 1.2f, 3.0f);
    float *a = render(&s, RC_LIGHTS_NEE, 256, 0), *b = render(&s, RC_LIGHTS_BSDF, 1024, 0);
    CHECK(a && b, "render failed");
    if (a && b) {
        double s1 = 0, s2 = 0, mb = 0;
        const int np = SIZE * SIZE;
        for (int i = 0; i < np; i++) {
            double d = a[3 * i + 1] - b[3 * i + 1];
            s1 += d;
            s2 += d * d;
            mb += b[3 * i + 1] / np;
        }
        double m = s1 / np, se = sqrt(fmax(0.0, s2 / np - m * m) / (np - 1));
        printf("bent vertex normals, lambertian floor under a quad light: mean %.5f (bsdf), nee - "
               "bsdf %+.5f (se %.5f)\n",
               mb, m, se);
        CHECK(4 * se < 0.03 * mb, "too noisy (se %g)", se);
        CHECK(fabs(m) < 4 * se, "nee and bsdf differ by %g", m);
    }
    free(a);
    free(b);
    rc_scene_free(&s);
}

int main(void) {
    face_normals();
    finite_images();
    nee_agrees();
    return test_finish("test_shading_normals");
}
