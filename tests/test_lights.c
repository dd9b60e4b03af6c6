/* test_lights.c: emissive triangles as lights (light.h), against references that do not use
 * the code under test.
 *
 * 1. Sampling: rc_light_sample on a triangle must draw points uniform in area. The triangle is
 *    cut into K^2 congruent sub-triangles (each edge in K parts), every sample's point is
 *    recovered from the returned direction and distance and put in its sub-triangle by its own
 *    barycentrics, and the counts must fit the uniform expectation by a chi-square test
 *    (K^2 - 1 degrees of freedom, rejected below p = 1e-4). The density each sample returns
 *    must equal rc_light_pdf at the same direction and distance (1e-4 relative) and the
 *    closed form sel * d^2 / (area * |cos|) computed here in double.
 * 2. Irradiance: the mean of L cos / pdf over light samples of the triangle, from points above
 *    and beside it, against Lambert's formula for the irradiance of a polygon of uniform
 *    radiance L: E = L / 2 * sum_i angle_i * dot(n, normalize(v_i x v_i+1)), v_i the unit
 *    directions to its corners. The samples are independent: the mean is compared within 4
 *    standard errors (the samples' own deviation over sqrt(N)), and 4 standard errors must be
 *    below 1 % of E, so a 1 % bias cannot hide.
 * 3. The renderer: a Lambertian floor (albedo rho) under an emissive triangle and an emissive
 *    quad, black background. Nothing else reflects, so a floor point's radiance is
 *    rho / pi * (E_triangle + E_quad), both by Lambert's formula. The image must match it with
 *    light sampling `nee` (light samples MIS-weighed against the BSDF's; triangles entered the
 *    light table with this change) and with `bsdf`, and the two must agree with each other;
 *    the tolerance is test_nee.c's: pixels are independent, the image mean's standard error
 *    is the pixels' deviation over sqrt(pixels), each check within 4 standard errors, and 4
 *    standard errors below 1.5 % of the answer (measured: se about 0.12 % with nee at 256
 *    spp, 0.17 % with bsdf at 768). */
#include "chi2.h"
#include "rc_test.h"

#include <math.h>
#include <string.h>

#define PI_D 3.14159265358979323846

/* splitmix64: the test's own uniforms, apart from the renderer's RNG */
static double uniform01(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 40) / (double)(1ull << 24); /* 24 bits: exact in float, below 1 */
}

typedef struct dvec {
    double x, y, z;
} dvec;

static dvec dv(rc_vec3 v) {
    dvec d = {v.x, v.y, v.z};
    return d;
}
static dvec dsub(dvec a, dvec b) {
    dvec d = {a.x - b.x, a.y - b.y, a.z - b.z};
    return d;
}
static double ddot(dvec a, dvec b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static dvec dcross(dvec a, dvec b) {
    dvec d = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return d;
}
static dvec dnorm(dvec a) {
    double l = sqrt(ddot(a, a));
    dvec d = {a.x / l, a.y / l, a.z / l};
    return d;
}

/* Lambert's formula: the irradiance at x (unit normal n) from the polygon of radiance L with
 * corners c[0..k-1], wholly above x's horizon (either winding). */
static double polygon_irradiance(dvec x, dvec n, const dvec *c, int k, double L) {
    double sum = 0;
    for (int i = 0; i < k; i++) {
        dvec a = dnorm(dsub(c[i], x)), b = dnorm(dsub(c[(i + 1) % k], x));
        double cosg = fmax(-1.0, fmin(1.0, ddot(a, b)));
        sum += acos(cosg) * ddot(n, dnorm(dcross(a, b)));
    }
    return 0.5 * L * fabs(sum);
}

static rc_prim triangle_prim(rc_vec3 a, rc_vec3 b, rc_vec3 c, float sel) {
    rc_prim p;
    memset(&p, 0, sizeof p);
    p.p = a;
    p.a = rc_sub(b, a);
    p.b = rc_sub(c, a);
    p.type_mat = rc_prim_pack(RC_PRIM_TRIANGLE, 0);
    p.pad = sel;
    return p;
}

/* The barycentrics (of corners 1 and 2) of point y in the triangle's plane, in double. */
static void bary_of(const rc_prim *p, dvec y, double *b1, double *b2) {
    dvec e1 = dv(p->a), e2 = dv(p->b), r = dsub(y, dv(p->p));
    double d11 = ddot(e1, e1), d12 = ddot(e1, e2), d22 = ddot(e2, e2);
    double r1 = ddot(r, e1), r2 = ddot(r, e2), det = d11 * d22 - d12 * d12;
    *b1 = (d22 * r1 - d12 * r2) / det;
    *b2 = (d11 * r2 - d12 * r1) / det;
}

/* The sub-triangle (of K^2) holding barycentrics (b1, b2): cell (i, j) of the grid k * b, the
 * lower or the upper half of it. */
#define K 8
static int sub_triangle(double b1, double b2) {
    double x = b1 * K, y = b2 * K;
    int i = (int)floor(x), j = (int)floor(y);
    if (i < 0) i = 0;
    if (j < 0) j = 0;
    if (i > K - 1) i = K - 1;
    if (j > K - 1) j = K - 1;
    if (i + j > K - 1) { /* rounding just past the far edge */
        if (i > j)
            i = K - 1 - j;
        else
            j = K - 1 - i;
    }
    int upper = (x - i) + (y - j) > 1.0 && i + j < K - 1;
    /* row j holds 2 (K - j) - 1 sub-triangles: K - j lower and K - j - 1 upper ones */
    int before = 0;
    for (int r = 0; r < j; r++) before += 2 * (K - r) - 1;
    return before + (upper ? (K - j) + i : i);
}

static void sampling(void) {
    const rc_vec3 va = rc_v3(-1.0f, 2.0f, -0.5f), vb = rc_v3(1.5f, 2.5f, 0.2f),
                  vc = rc_v3(0.1f, 1.6f, 1.3f);
    const float sel = 0.37f;
    rc_prim p = triangle_prim(va, vb, vc, sel);
    const rc_vec3 origins[2] = {rc_v3(0.2f, 0.0f, 0.1f), rc_v3(3.0f, 1.9f, -2.0f)};
    enum { N = 400000, BINS = K * K };
    for (int oi = 0; oi < 2; oi++) {
        rc_vec3 o = origins[oi];
        static double obs[BINS];
        memset(obs, 0, sizeof obs);
        uint64_t s = 11 + (uint64_t)oi;
        long bad_pdf = 0, bad_closed = 0, bad_bary = 0, failed = 0;
        double worst = 0;
        dvec n = dcross(dv(p.a), dv(p.b));
        double area = 0.5 * sqrt(ddot(n, n));
        n = dnorm(n);
        for (long k = 0; k < N; k++) {
            float u1 = (float)uniform01(&s), u2 = (float)uniform01(&s), dist, pdf, b1, b2;
            rc_vec3 w;
            if (!rc_light_sample(&p, o, u1, u2, &w, &dist, &pdf, &b1, &b2)) {
                failed++;
                continue;
            }
            dvec y = {o.x + (double)w.x * dist, o.y + (double)w.y * dist, o.z + (double)w.z * dist};
            double c1, c2;
            bary_of(&p, y, &c1, &c2);
            obs[sub_triangle(c1, c2)] += 1;
            if (fabs(c1 - b1) > 1e-4 || fabs(c2 - b2) > 1e-4) bad_bary++;
            float q = rc_light_pdf(&p, o, w, dist);
            double rel = fabs((double)q - pdf) / pdf;
            if (rel > worst) worst = rel;
            if (rel > 1e-4) bad_pdf++;
            dvec wd = {w.x, w.y, w.z};
            double closed = sel * (double)dist * dist / (area * fabs(ddot(n, wd)));
            if (fabs(closed - pdf) / closed > 1e-4) bad_closed++;
        }
        double chi2 = 0, expd = (double)(N - failed) / BINS;
        for (int b = 0; b < BINS; b++) chi2 += (obs[b] - expd) * (obs[b] - expd) / expd;
        double pv = chi2_sf(chi2, BINS - 1);
        printf("triangle samples from origin %d: chi2 %.1f over %d sub-triangles, p-value %.4f; "
               "pdf against rc_light_pdf: worst %.2g relative; %ld failed\n",
               oi, chi2, BINS, pv, worst, failed);
        CHECK(failed == 0, "origin %d: %ld samples failed", oi, failed);
        CHECK(pv > 1e-4, "origin %d: not uniform in area (chi2 %g, p %g)", oi, chi2, pv);
        CHECK(bad_pdf == 0, "origin %d: %ld pdfs differ from rc_light_pdf", oi, bad_pdf);
        CHECK(bad_closed == 0, "origin %d: %ld pdfs differ from sel d^2 / (A cos)", oi, bad_closed);
        CHECK(bad_bary == 0, "origin %d: %ld barycentrics differ from the point's", oi, bad_bary);
    }
    /* the test tells a wrong warp: sqrt dropped (b1 = u1 (1 - u2)) crowds corner 0 */
    {
        static double obs[BINS];
        memset(obs, 0, sizeof obs);
        uint64_t s = 5;
        for (long k = 0; k < N / 4; k++) {
            double u1 = uniform01(&s), u2 = uniform01(&s);
            obs[sub_triangle(u1 * (1 - u2), u1 * u2)] += 1;
        }
        double chi2 = 0, expd = (double)(N / 4) / BINS;
        for (int b = 0; b < BINS; b++) chi2 += (obs[b] - expd) * (obs[b] - expd) / expd;
        CHECK(chi2_sf(chi2, BINS - 1) < 1e-6, "the chi-square test misses a wrong warp");
    }
}

static void irradiance(void) {
    const rc_vec3 va = rc_v3(-1.0f, 2.0f, -0.5f), vb = rc_v3(1.5f, 2.5f, 0.2f),
                  vc = rc_v3(0.1f, 1.6f, 1.3f);
    rc_prim p = triangle_prim(va, vb, vc, 1.0f);
    const dvec corners[3] = {dv(va), dv(vb), dv(vc)};
    const double L = 2.5;
    /* receivers: under it facing up, off to the side tilted towards it, close below it */
    const rc_vec3 xs[3] = {rc_v3(0.2f, 0.0f, 0.1f), rc_v3(3.0f, 0.5f, -1.0f),
                           rc_v3(0.0f, 1.2f, 0.3f)};
    const rc_vec3 ns[3] = {rc_v3(0, 1, 0), rc_normalize(rc_v3(-0.6f, 1.0f, 0.3f)),
                           rc_normalize(rc_v3(0.1f, 1.0f, -0.2f))};
    enum { N = 400000 };
    for (int r = 0; r < 3; r++) {
        dvec x = dv(xs[r]), n = dv(ns[r]);
        double want = polygon_irradiance(x, n, corners, 3, L);
        double s1 = 0, s2 = 0;
        uint64_t s = 100 + (uint64_t)r;
        for (long k = 0; k < N; k++) {
            float u1 = (float)uniform01(&s), u2 = (float)uniform01(&s), dist, pdf, b1, b2;
            rc_vec3 w;
            double f = 0;
            if (rc_light_sample(&p, xs[r], u1, u2, &w, &dist, &pdf, &b1, &b2)) {
                double c = fmax(0.0, (double)rc_dot(ns[r], w));
                f = L * c / pdf;
            }
            s1 += f;
            s2 += f * f;
        }
        double mean = s1 / N, se = sqrt(fmax(0.0, s2 / N - mean * mean) / (N - 1));
        printf("irradiance at receiver %d: Lambert %.6f, light samples %.6f (se %.6f, %+.2f se)\n",
               r, want, mean, se, (mean - want) / se);
        CHECK(4 * se < 0.01 * want, "receiver %d: too noisy for a 1%% check (se %g)", r, se);
        CHECK(fabs(mean - want) < 4 * se, "receiver %d: %g against Lambert's %g", r, mean, want);
    }
}

/* ---- the renderer ---- */

#define SIZE 32
#define SPP  256   /* nee; bsdf, which finds the lights only by chance, takes 3x as many */
#define TOL  0.015 /* 4 standard errors must be below this share of the mean */
#define SUB  4     /* the reference averages SUB x SUB points of each pixel */

static const float rho = 0.7f, L_TRI = 3.0f, L_QUAD = 4.0f;

typedef struct stats {
    double mean, se;
} stats;

/* The mean of (a - want - b) per pixel (green channel) and its standard error. */
static stats diff_stats(const float *a, const double *want, const float *b) {
    double s = 0, s2 = 0;
    const int n = SIZE * SIZE;
    for (int i = 0; i < n; i++) {
        double d = a[3 * i + 1] - (want ? want[i] : 0.0) - (b ? b[3 * i + 1] : 0.0);
        s += d;
        s2 += d * d;
    }
    stats st = {s / n, 0};
    st.se = sqrt(fmax(0.0, s2 / n - st.mean * st.mean) / (n - 1));
    return st;
}

static float *render(const rc_scene *s, int light_sampling, const char *algo) {
    rc_settings st = test_settings(s, SIZE, SIZE, algo, RC_MODE_INDICES);
    st.max_depth = 4;
    st.light_sampling = light_sampling;
    return test_render(s, &st, light_sampling == RC_LIGHTS_BSDF ? 3 * SPP : SPP);
}

static void floor_render(void) {
    rc_scene s;
    rc_error err;
    rc_scene_init(&s);
    s.background.type = RC_BG_CONSTANT;
    s.background.bottom = s.background.top = rc_v3s(0.0f);
    rc_material fm = test_material(RC_MAT_LAMBERTIAN, rho, rho, rho, 0);
    rc_material tm = test_material(RC_MAT_EMISSIVE, L_TRI, L_TRI, L_TRI, 0);
    rc_material qm = test_material(RC_MAT_EMISSIVE, L_QUAD, L_QUAD, L_QUAD, 0);
    uint32_t fi = (uint32_t)rc_scene_add_material(&s, &fm),
             ti = (uint32_t)rc_scene_add_material(&s, &tm),
             qi = (uint32_t)rc_scene_add_material(&s, &qm);
    rc_scene_add_quad(&s, rc_v3(-50, 0, 50), rc_v3(100, 0, 0), rc_v3(0, 0, -100), fi);
    const rc_vec3 t0 = rc_v3(-2.5f, 1.4f, -2.0f), t1 = rc_v3(1.0f, 1.9f, -1.2f),
                  t2 = rc_v3(-1.5f, 1.5f, 2.5f);
    rc_scene_add_triangle(&s, t0, t1, t2, ti);
    const rc_vec3 qc = rc_v3(1.6f, 1.8f, -0.5f), qu = rc_v3(1.0f, 0.0f, 0.2f),
                  qv = rc_v3(0.0f, 0.3f, 1.0f);
    rc_scene_add_quad(&s, qc, qu, qv, qi);
    s.camera.look_from = rc_v3(4, 2, 0);
    s.camera.look_at = rc_v3(0, 0, 0);
    s.camera.vfov = 20.0f;
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    CHECK(s.num_lights == 2, "%u lights, want the triangle and the quad", s.num_lights);
    const dvec tri[3] = {dv(t0), dv(t1), dv(t2)};
    const dvec quad[4] = {dv(qc), dv(rc_add(qc, qu)), dv(rc_add(rc_add(qc, qu), qv)),
                          dv(rc_add(qc, qv))};
    const dvec up = {0, 1, 0};
    rc_scene_view v = rc_scene_view_make(&s, SIZE, SIZE);
    double *want = malloc(SIZE * SIZE * sizeof *want), mean = 0;
    int off_floor = 0;
    for (int py = 0; py < SIZE; py++)
        for (int px = 0; px < SIZE; px++) {
            double sum = 0;
            for (int j = 0; j < SUB; j++)
                for (int i = 0; i < SUB; i++) {
                    rc_vec3 o, d;
                    rc_camera_ray(&v.camera, (px + (i + 0.5f) / SUB) / SIZE,
                                  1.0f - (py + (j + 0.5f) / SUB) / SIZE, 0.5f, 0.5f, &o, &d);
                    off_floor += !(d.y < 0.0f);
                    dvec x = {o.x - (double)d.x * o.y / d.y, 0.0, o.z - (double)d.z * o.y / d.y};
                    sum += rho / PI_D *
                           (polygon_irradiance(x, up, tri, 3, L_TRI) +
                            polygon_irradiance(x, up, quad, 4, L_QUAD));
                }
            want[py * SIZE + px] = sum / (SUB * SUB);
            mean += want[py * SIZE + px] / (SIZE * SIZE);
        }
    CHECK(off_floor == 0, "%d reference rays miss the floor", off_floor);
    float *a = render(&s, RC_LIGHTS_NEE, "scan-scatter"), *b = render(&s, RC_LIGHTS_BSDF, "none");
    CHECK(a && b, "render failed");
    if (a && b) {
        stats d = diff_stats(a, NULL, b), ea = diff_stats(a, want, NULL),
              eb = diff_stats(b, want, NULL);
        printf("floor under a triangle and a quad light: mean %.5f; nee - exact %+.5f (se %.5f), "
               "bsdf - exact %+.5f (se %.5f), nee - bsdf %+.5f (se %.5f)\n",
               mean, ea.mean, ea.se, eb.mean, eb.se, d.mean, d.se);
        CHECK(4 * ea.se < TOL * mean && 4 * eb.se < TOL * mean && 4 * d.se < TOL * mean,
              "too noisy for a %g %% check (se %g %g %g)", 100 * TOL, ea.se, eb.se, d.se);
        CHECK(fabs(ea.mean) < 4 * ea.se, "nee is off by %g", ea.mean);
        CHECK(fabs(eb.mean) < 4 * eb.se, "bsdf is off by %g", eb.mean);
        CHECK(fabs(d.mean) < 4 * d.se, "nee and bsdf differ by %g", d.mean);
        int bad = 0;
        for (int i = 0; i < SIZE * SIZE; i++)
            for (int c = 0; c < 3; c++) bad += !(a[3 * i + c] >= 0.0f) || !(b[3 * i + c] >= 0.0f);
        CHECK(bad == 0, "%d pixel values negative or NaN", bad);
    }
    free(a);
    free(b);
    free(want);
    rc_scene_free(&s);
}

int main(void) {
    sampling();
    irradiance();
    floor_render();
    return test_finish("test_lights");
}
