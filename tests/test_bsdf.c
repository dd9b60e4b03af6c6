/* test_bsdf.c: the BSDF interface of app/core/bsdf.h, statistically and exactly.
 *
 *   chi2-opaque, chi2-pbr, chi2-dielectric-enter, chi2-dielectric-leave: rc_bsdf_sample
 *     against rc_bsdf_pdf by Pearson's chi-square test, as Mitsuba 3
 *     (src/python/python/chi2.py) and pbrt-v4 (src/pbrt/bsdfs_test.cpp) do it: a histogram
 *     of the sampled directions in (cos theta, phi) over the whole sphere, the expected count
 *     of each cell the pdf integrated over it (Simpson, refined until it converges), cells
 *     expected below 5 pooled, one more cell for the samples that were absorbed. Rejected
 *     below a significance of 0.01 over the part's tests (Sidak: 1 - 0.99^(1/tests) each).
 *     The pdf's integral over the sphere must also match the share of samples that succeed.
 *   consistency: a sample's weight is eval / pdf at its direction, its pdf rc_bsdf_pdf's.
 *   reciprocity: f(wo, wi) = f(wi, wo) for reflection, f(wo, wi) = eta^2 f(wi, wo) for
 *     transmission (eta = n_wi / n_wo; bsdf.h's transmission is f for importance).
 *   furnace: white surfaces: the directional albedo by importance sampling (the mean weight)
 *     is at most 1 and matches a quadrature of eval over the sphere.
 *   rtiow: the Lambertian and the glass draw what rc_scatter (material.h) draws from the same
 *     random numbers; the fuzzy metal where the frame is the world's.
 *
 * Every random number is rc_rand of a fixed key, so the outcome is the same on every run.
 * With no argument every part runs; a second argument sets the Simpson grid that each cell's
 * quadrature begins with (4). */
#include "chi2.h"
#include "rc_test.h"
#include "core/bsdf.h"

#include <math.h>
#include <string.h>

#define NT 64         /* cells in cos(theta) over [-1, 1] (z = 0 is a cell border) */
#define NP 128        /* cells in phi */
static int g_sub = 4; /* Simpson intervals per cell side to begin with (even) */

static float urand(uint32_t i, uint32_t cfg, uint32_t dim) {
    return rc_rand(i, cfg, 0x5au, dim);
}

static rc_vec3 dir_cp(double c, double phi) {
    double s = sqrt(fmax(0.0, 1.0 - c * c));
    return rc_v3((float)(s * cos(phi)), (float)(s * sin(phi)), (float)c);
}

/* A unit direction with z of sign `side` and |z| = cz, azimuth phi. */
static rc_vec3 dir_side(float cz, float phi, float side) {
    float s = sqrtf(fmaxf(0.0f, 1.0f - cz * cz));
    return rc_v3(s * cosf(phi), s * sinf(phi), side * cz);
}

static const char *model_name(uint32_t m) {
    static const char *names[] = {"lambertian", "fuzz_metal", "smooth_dielectric",
                                  "emissive",   "gltf_pbr",   "rough_dielectric"};
    return m < RC_BSDF_MODEL_COUNT ? names[m] : "?";
}

static void describe(const rc_bsdf *b, char *buf, size_t n) {
    snprintf(buf, n, "%s(m=%.2f r=%.2f ior=%.2f t=%.2f fuzz=%.2f)", model_name(b->model),
             b->metallic, b->roughness, b->ior, b->transmission, b->fuzz);
}

/* ---- quadrature over the sphere in (cos theta, phi) ---- */

typedef enum quantity { Q_PDF, Q_EVAL } quantity;

static double quantity_at(const rc_bsdf *b, rc_vec3 wo, rc_vec3 wi, quantity q) {
    return q == Q_PDF ? rc_bsdf_pdf(b, wo, wi) : rc_bsdf_eval(b, wo, wi).y;
}

/* Composite Simpson with sub x sub intervals over cell (t, p). */
static double simpson_cell(const rc_bsdf *b, rc_vec3 wo, quantity q, int t, int p, int sub) {
    const double dc = 2.0 / NT, dp = 2.0 * M_PI / NP;
    double sum = 0;
    for (int i = 0; i <= sub; i++) {
        double c = -1.0 + dc * (t + (double)i / sub);
        double wc = (i == 0 || i == sub) ? 1.0 : (i % 2 ? 4.0 : 2.0);
        for (int j = 0; j <= sub; j++) {
            double wp = (j == 0 || j == sub) ? 1.0 : (j % 2 ? 4.0 : 2.0);
            sum += wc * wp * quantity_at(b, wo, dir_cp(c, dp * (p + (double)j / sub)), q);
        }
    }
    return sum * (dc / (3.0 * sub)) * (dp / (3.0 * sub));
}

/* cells[t * NP + p] = the integral of q over cell (t, p): Simpson on grids of 4, 8, ... 128
 * intervals a side until two successive ones agree within 0.02 sqrt(I / n), a fiftieth of
 * the standard deviation of a count of n samples (so the quadrature's error stays far below
 * the statistical noise the chi-square test measures), or within 1e-12. Narrow lobes (GGX at
 * roughness 0.2, refraction that squeezes it further, the fuzz ball's rim) refine where they
 * are and nowhere else. */
static void integrate_cells(const rc_bsdf *b, rc_vec3 wo, quantity q, double n, double *cells) {
    for (int t = 0; t < NT; t++) {
        for (int p = 0; p < NP; p++) {
            double prev = simpson_cell(b, wo, q, t, p, g_sub), cur = prev;
            for (int sub = 2 * g_sub; sub <= 128; sub *= 2) {
                cur = simpson_cell(b, wo, q, t, p, sub);
                double tol = 0.02 * sqrt(fmax(cur, 0.0) / n) + 1e-12;
                if (fabs(cur - prev) <= tol) break;
                prev = cur;
            }
            cells[t * NP + p] = cur;
        }
    }
}

static int cell_of(rc_vec3 wi) {
    double c = fmax(-1.0, fmin(1.0, wi.z));
    int t = (int)((c + 1.0) * 0.5 * NT);
    double phi = atan2(wi.y, wi.x);
    if (phi < 0) phi += 2.0 * M_PI;
    int p = (int)(phi / (2.0 * M_PI) * NP);
    t = t < 0 ? 0 : (t >= NT ? NT - 1 : t);
    p = p < 0 ? 0 : (p >= NP ? NP - 1 : p);
    return t * NP + p;
}

/* ---- the chi-square distribution ---- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

typedef struct chi2_part {
    const char *name;
    int tests;       /* how many chi-square tests the part makes (for Sidak) */
    int done, fails; /* so far */
    double min_p;
    uint32_t cfg; /* the next configuration's key */
} chi2_part;

static double *g_expected, *g_pairs;
static long *g_observed;

/* One chi-square test of b at wo with n samples. */
static void chi2_run(chi2_part *part, const rc_bsdf *b, rc_vec3 wo, long n) {
    uint32_t cfg = part->cfg++;
    const int cells = NT * NP;
    integrate_cells(b, wo, Q_PDF, (double)n, g_expected);
    memset(g_observed, 0, sizeof(long) * cells);
    long ok = 0, delta = 0;
    for (long i = 0; i < n; i++) {
        rc_bsdf_sampled s;
        float u0 = urand((uint32_t)i, cfg, 0), u1 = urand((uint32_t)i, cfg, 1),
              u2 = urand((uint32_t)i, cfg, 2);
        if (!rc_bsdf_sample(b, wo, u0, u1, u2, &s)) continue;
        if (s.flags & RC_LOBE_SPECULAR) {
            delta++;
            continue;
        }
        g_observed[cell_of(s.wi)]++;
        ok++;
    }
    /* (expected, observed) pairs, the absorbed samples as one more cell; every cell expected
     * below 5 goes into one pool, and more from the smallest up while the pool is below 5 */
    double integral = 0;
    for (int c = 0; c < cells; c++) integral += g_expected[c];
    int m = 0;
    for (int c = 0; c < cells; c++) {
        g_pairs[2 * m] = g_expected[c] * n;
        g_pairs[2 * m + 1] = (double)g_observed[c];
        m++;
    }
    g_pairs[2 * m] = fmax(0.0, (1.0 - integral) * n);
    g_pairs[2 * m + 1] = (double)(n - ok);
    m++;
    qsort(g_pairs, (size_t)m, 2 * sizeof(double), cmp_double);
    double chi2 = 0, pool_e = 0, pool_o = 0;
    int dof = -1, k = 0;
    for (; k < m && (g_pairs[2 * k] < 5.0 || pool_e < 5.0); k++) {
        pool_e += g_pairs[2 * k];
        pool_o += g_pairs[2 * k + 1];
    }
    if (pool_e > 0) {
        chi2 += (pool_o - pool_e) * (pool_o - pool_e) / pool_e;
        dof++;
    } else if (pool_o > 0) {
        chi2 = INFINITY; /* samples where the pdf says none can be */
    }
    for (; k < m; k++) {
        double e = g_pairs[2 * k], o = g_pairs[2 * k + 1];
        chi2 += (o - e) * (o - e) / e;
        dof++;
    }
    double pval = dof > 0 ? chi2_sf(chi2, dof) : 1.0;
    double alpha = 1.0 - pow(1.0 - 0.01, 1.0 / part->tests);
    char what[160];
    describe(b, what, sizeof what);
    double frac = (double)ok / n, se = sqrt(fmax(frac * (1 - frac), 1e-12) / n);
    CHECK(delta == 0, "%s: %ld delta samples in a test of the glossy lobes", what, delta);
    CHECK(pval >= alpha, "%s wo=(%.3f %.3f %.3f): chi2 %.1f, %d dof, p = %.3g < %.3g", what, wo.x,
          wo.y, wo.z, chi2, dof, pval, alpha);
    CHECK(fabs(integral - frac) <= 5 * se + 2e-3 && integral <= 1.0 + 2e-3,
          "%s wo.z=%.3f: the pdf integrates to %.5f, %.5f of the samples succeed", what, wo.z,
          integral, frac);
    part->done++;
    if (pval < alpha) part->fails++;
    if (pval < part->min_p) part->min_p = pval;
}

static void chi2_report(const chi2_part *part) {
    printf("%s: %d chi-square tests (planned %d), smallest p = %.4f, %d below the Sidak "
           "threshold %.2e\n",
           part->name, part->done, part->tests, part->min_p, part->fails,
           1.0 - pow(0.99, 1.0 / part->tests));
    CHECK(part->done == part->tests, "%s: %d tests run, %d planned", part->name, part->done,
          part->tests);
}

static const float cos_o[3] = {0.9f, 0.5f, 0.1f};
static const rc_vec3 tint = {0.8f, 0.6f, 0.3f};

/* Lambertian (both sides) and the fuzzy metal. */
static void part_chi2_opaque(void) {
    chi2_part part = {"chi2-opaque", 6 + 12, 0, 0, 1.0, 100};
    rc_bsdf lam = rc_bsdf_make(RC_BSDF_LAMBERTIAN, tint);
    for (int i = 0; i < 3; i++)
        for (int side = -1; side <= 1; side += 2)
            chi2_run(&part, &lam, dir_side(cos_o[i], 0.3f, (float)side), 200000);
    const float fuzz[4] = {0.1f, 0.3f, 0.7f, 1.0f};
    for (int f = 0; f < 4; f++) {
        rc_bsdf m = rc_bsdf_make(RC_BSDF_FUZZ_METAL, tint);
        m.fuzz = fuzz[f];
        for (int i = 0; i < 3; i++) chi2_run(&part, &m, dir_side(cos_o[i], 1.1f, 1.0f), 200000);
    }
    chi2_report(&part);
}

static void part_chi2_pbr(void) {
    chi2_part part = {"chi2-pbr", 27 + 8, 0, 0, 1.0, 200};
    const float rough[3] = {0.2f, 0.5f, 0.9f}, metal[3] = {0.0f, 0.5f, 1.0f};
    for (int r = 0; r < 3; r++)
        for (int m = 0; m < 3; m++)
            for (int i = 0; i < 3; i++) {
                rc_bsdf b = rc_bsdf_gltf(tint, metal[m], rough[r], 1.5f, 0.0f);
                chi2_run(&part, &b, dir_side(cos_o[i], 0.7f, 1.0f), 200000);
            }
    /* transmission 0.5: the diffuse base and the rough dielectric, entering and leaving */
    const float rough_t[2] = {0.3f, 0.7f}, cos_t[2] = {0.9f, 0.3f};
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 2; i++)
            for (int side = -1; side <= 1; side += 2) {
                rc_bsdf b = rc_bsdf_gltf(tint, 0.0f, rough_t[r], 1.5f, 0.5f);
                chi2_run(&part, &b, dir_side(cos_t[i], 2.0f, (float)side), 200000);
            }
    chi2_report(&part);
}

static rc_bsdf rough_dielectric(float roughness, float ior) {
    rc_bsdf b = rc_bsdf_make(RC_BSDF_ROUGH_DIELECTRIC, tint);
    b.roughness = roughness;
    b.ior = ior;
    return b;
}

/* The rough dielectric seen from outside (side 1: entering) or inside (-1: leaving). */
static void chi2_dielectric(const char *name, float side, uint32_t cfg) {
    chi2_part part = {name, 27, 0, 0, 1.0, cfg};
    const float rough[3] = {0.2f, 0.5f, 0.9f}, ior[3] = {1.33f, 1.5f, 2.4f};
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 3; i++) {
                rc_bsdf b = rough_dielectric(rough[r], ior[k]);
                chi2_run(&part, &b, dir_side(cos_o[i], 4.0f, side), 200000);
            }
    chi2_report(&part);
}

static void part_chi2_enter(void) {
    chi2_dielectric("chi2-dielectric-enter", 1.0f, 300);
}

static void part_chi2_leave(void) {
    chi2_dielectric("chi2-dielectric-leave", -1.0f, 350);
}

/* ---- the models every exact test goes through ---- */

#define NMODELS 16
static int test_models(rc_bsdf *out) {
    int n = 0;
    out[n++] = rc_bsdf_make(RC_BSDF_LAMBERTIAN, tint);
    for (int f = 0; f < 3; f++) {
        out[n] = rc_bsdf_make(RC_BSDF_FUZZ_METAL, tint);
        out[n++].fuzz = f == 0 ? 0.0f : (f == 1 ? 0.3f : 1.0f);
    }
    out[n] = rc_bsdf_make(RC_BSDF_SMOOTH_DIELECTRIC, tint);
    out[n++].ior = 1.5f;
    out[n++] = rc_bsdf_gltf(tint, 0.0f, 0.2f, 1.5f, 0.0f);
    out[n++] = rc_bsdf_gltf(tint, 0.5f, 0.5f, 1.5f, 0.0f);
    out[n++] = rc_bsdf_gltf(tint, 1.0f, 0.9f, 1.5f, 0.0f);
    out[n++] = rc_bsdf_gltf(tint, 0.0f, 0.0f, 1.5f, 0.0f); /* alpha at its clamp */
    out[n++] = rc_bsdf_gltf(tint, 0.2f, 0.4f, 1.33f, 0.7f);
    out[n++] = rough_dielectric(0.0f, 1.5f);
    out[n++] = rough_dielectric(0.2f, 1.5f);
    out[n++] = rough_dielectric(0.5f, 2.4f);
    out[n++] = rough_dielectric(0.9f, 1.33f);
    out[n++] = rc_bsdf_make(RC_BSDF_EMISSIVE, tint);
    return n;
}

static double rel_err(double a, double b) {
    return fabs(a - b) / fmax(fmax(fabs(a), fabs(b)), 1e-30);
}

static void part_consistency(void) {
    rc_bsdf models[NMODELS];
    int nm = test_models(models), bad = 0, total = 0;
    for (int k = 0; k < nm; k++) {
        char what[160];
        describe(&models[k], what, sizeof what);
        int worst_reported = 0;
        for (uint32_t i = 0; i < 20000; i++) {
            float cz = fmaxf(urand(i, 400 + k, 0), 0.02f);
            float side = urand(i, 400 + k, 1) < 0.5f ? -1.0f : 1.0f;
            rc_vec3 wo = dir_side(cz, 2.0f * RC_PI * urand(i, 400 + k, 2), side);
            rc_bsdf_sampled s;
            if (!rc_bsdf_sample(&models[k], wo, urand(i, 400 + k, 3), urand(i, 400 + k, 4),
                                urand(i, 400 + k, 5), &s))
                continue;
            rc_vec3 f = rc_bsdf_eval(&models[k], wo, s.wi);
            float pdf = rc_bsdf_pdf(&models[k], wo, s.wi);
            int ok;
            total++;
            if (s.flags & RC_LOBE_SPECULAR) {
                /* a delta lobe: eval and pdf know nothing of it unless the surface also has a
                 * glossy lobe there (none of these do at their mirror directions) */
                ok = s.pdf > 0.0f && s.pdf <= 1.0f && f.y == 0.0f && pdf == 0.0f;
            } else {
                ok = pdf > 0.0f && rel_err(s.pdf, pdf) < 1e-4 &&
                     rel_err(s.weight.x, f.x / pdf) < 1e-4 &&
                     rel_err(s.weight.y, f.y / pdf) < 1e-4 &&
                     rel_err(s.weight.z, f.z / pdf) < 1e-4 && fabsf(rc_length(s.wi) - 1) < 1e-5f;
            }
            ok = ok && isfinite(s.weight.x) && isfinite(s.weight.y) && isfinite(s.weight.z);
            if (!ok) {
                bad++;
                if (worst_reported++ < 3)
                    fprintf(stderr,
                            "%s wo=(%g %g %g) wi=(%g %g %g) flags %u: weight %g pdf %g, eval/pdf "
                            "%g pdf %g\n",
                            what, wo.x, wo.y, wo.z, s.wi.x, s.wi.y, s.wi.z, s.flags, s.weight.y,
                            s.pdf, f.y / pdf, pdf);
            }
        }
    }
    printf("consistency: %d samples of %d surfaces, %d inconsistent\n", total, nm, bad);
    CHECK(bad == 0, "%d samples whose weight or pdf disagree with eval and pdf", bad);
}

/* ---- reciprocity ---- */

static void part_reciprocity(void) {
    rc_bsdf models[NMODELS];
    int nm = test_models(models), pairs = 0, bad = 0;
    double worst[2] = {0, 0};
    for (int k = 0; k < nm; k++) {
        const rc_bsdf *b = &models[k];
        /* The RTIOW fuzzy metal is not reciprocal: its f * cos is colour * pdf, a density of
         * wi about the mirror of wo, so f(wo, wi) / f(wi, wo) = cos(wo) / cos(wi). */
        if (b->model == RC_BSDF_FUZZ_METAL) continue;
        for (uint32_t i = 0; i < 20000; i++) {
            uint32_t key = 500 + k;
            float so = urand(i, key, 0) < 0.5f ? -1.0f : 1.0f;
            float si = urand(i, key, 1) < 0.5f ? -so : so;
            rc_vec3 wo = dir_side(fmaxf(urand(i, key, 2), 0.02f), 6.3f * urand(i, key, 3), so);
            rc_vec3 wi = dir_side(fmaxf(urand(i, key, 4), 0.02f), 6.3f * urand(i, key, 5), si);
            double f1 = rc_bsdf_eval(b, wo, wi).y / fabs(wi.z);
            double f2 = rc_bsdf_eval(b, wi, wo).y / fabs(wo.z);
            if (si != so) {
                double eta = rc_diel_eta(b->ior, wo); /* n_wi / n_wo */
                f2 *= eta * eta;
                /* Skip pairs within a few degrees of the microfacet's critical angle: there
                 * 1 - F is ill-conditioned in float (the half vector's rounding moves it by
                 * percents), whichever way it is computed. */
                double h[3] = {wo.x + eta * wi.x, wo.y + eta * wi.y, wo.z + eta * wi.z};
                double hl = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
                double co = fabs(h[0] * wo.x + h[1] * wo.y + h[2] * wo.z) / hl;
                double ci = fabs(h[0] * wi.x + h[1] * wi.y + h[2] * wi.z) / hl;
                if (fmin(co, ci) < 0.05) continue;
            }
            if (f1 == 0 && f2 == 0) continue;
            pairs++;
            double e = rel_err(f1, f2);
            if (e > worst[si != so]) worst[si != so] = e;
            if (e > 2e-3) {
                if (bad++ < 5)
                    fprintf(stderr, "reciprocity: model %s wo.z %g wi.z %g: %g against %g\n",
                            model_name(b->model), wo.z, wi.z, f1, f2);
            }
        }
    }
    printf("reciprocity: %d pairs with f > 0, %d not reciprocal; largest relative difference "
           "%.2e (reflection), %.2e (transmission)\n",
           pairs, bad, worst[0], worst[1]);
    CHECK(pairs > 50000, "only %d pairs tested", pairs);
    CHECK(bad == 0, "%d pairs not reciprocal", bad);
}

/* ---- white furnace ---- */

static double *g_cells;

static void furnace_one(const rc_bsdf *b, rc_vec3 wo, uint32_t key) {
    const long n = 200000;
    double sum = 0, sum2 = 0;
    for (long i = 0; i < n; i++) {
        rc_bsdf_sampled s;
        double w = 0;
        if (rc_bsdf_sample(b, wo, urand((uint32_t)i, key, 0), urand((uint32_t)i, key, 1),
                           urand((uint32_t)i, key, 2), &s))
            w = s.weight.y;
        sum += w;
        sum2 += w * w;
    }
    double mc = sum / n, se = sqrt(fmax(sum2 / n - mc * mc, 0.0) / n);
    char what[160];
    describe(b, what, sizeof what);
    /* glTF's dielectric base is not energy conserving: fresnel_mix weighs the diffuse lobe by
     * 1 - F at each direction's own half vector, not by what the coat reflects, so at grazing
     * wo the coat's reflection and the nearly full diffuse add up to more than 1 (white,
     * roughness 0.2: 1.00 at cos 0.9, 1.03 at 0.5, 1.43 at 0.1; roughness 0.5: 1.11 at 0.1).
     * Bounded here so that it gets no worse; docs/materials.md says more. */
    int gltf_base = b->model == RC_BSDF_GLTF_PBR && (1 - b->metallic) * (1 - b->transmission) > 0;
    double bound = gltf_base ? (wo.z > 0.5f ? 1.005 : 1.5) : 1.0;
    CHECK(mc <= bound + 4 * se + 1e-5, "%s wo.z=%.2f: albedo %.5f > %.3f (se %.1e)", what, wo.z, mc,
          bound, se);
    if (b->model == RC_BSDF_LAMBERTIAN || b->model == RC_BSDF_SMOOTH_DIELECTRIC ||
        (b->model == RC_BSDF_ROUGH_DIELECTRIC && b->roughness == 0.0f)) {
        CHECK(fabs(mc - 1.0) < 1e-6, "%s wo.z=%.2f: albedo %.7f, not 1", what, wo.z, mc);
        printf("furnace: %-62s wo.z % .1f  albedo %.6f (exact)\n", what, wo.z, mc);
        return;
    }
    integrate_cells(b, wo, Q_EVAL, 1e7, g_cells);
    double quad = 0;
    for (int c = 0; c < NT * NP; c++) quad += g_cells[c];
    printf("furnace: %-62s wo.z % .1f  albedo %.5f +- %.5f, quadrature %.5f\n", what, wo.z, mc, se,
           quad);
    CHECK(fabs(mc - quad) <= 4 * se + 2e-3, "%s wo.z=%.2f: sampled albedo %.5f, quadrature %.5f",
          what, wo.z, mc, quad);
}

static void part_furnace(void) {
    rc_vec3 white = rc_v3s(1.0f);
    rc_bsdf list[16];
    int n = 0;
    list[n++] = rc_bsdf_make(RC_BSDF_LAMBERTIAN, white);
    list[n] = rc_bsdf_make(RC_BSDF_FUZZ_METAL, white);
    list[n++].fuzz = 0.5f;
    list[n] = rc_bsdf_make(RC_BSDF_SMOOTH_DIELECTRIC, white);
    list[n++].ior = 1.5f;
    list[n++] = rc_bsdf_gltf(white, 0.0f, 0.2f, 1.5f, 0.0f);
    list[n++] = rc_bsdf_gltf(white, 0.0f, 0.5f, 1.5f, 0.0f);
    list[n++] = rc_bsdf_gltf(white, 1.0f, 0.2f, 1.5f, 0.0f);
    list[n++] = rc_bsdf_gltf(white, 1.0f, 0.9f, 1.5f, 0.0f);
    list[n++] = rc_bsdf_gltf(white, 0.0f, 0.5f, 1.5f, 1.0f);
    list[n] = rough_dielectric(0.0f, 1.5f);
    list[n++].base_color = white;
    list[n] = rough_dielectric(0.3f, 1.5f);
    list[n++].base_color = white;
    list[n] = rough_dielectric(0.9f, 2.4f);
    list[n++].base_color = white;
    uint32_t key = 600;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 3; i += 2)
            for (int side = -1; side <= 1; side += 2) {
                int two_sided = list[k].model == RC_BSDF_SMOOTH_DIELECTRIC ||
                                list[k].model == RC_BSDF_ROUGH_DIELECTRIC ||
                                list[k].transmission > 0.0f;
                if (side < 0 && !two_sided) continue;
                furnace_one(&list[k], dir_side(cos_o[i], 0.4f, (float)side), key++);
            }
}

/* ---- the RTIOW models against material.h's rc_scatter ---- */

static void part_rtiow(void) {
    int tested = 0, bad = 0;
    for (uint32_t i = 0; i < 30000; i++) {
        uint32_t type = i % 4u; /* 3: the metal with the world's frame */
        rc_material m;
        memset(&m, 0, sizeof m);
        m.color = tint;
        m.type = type == 3u ? RC_MAT_METAL : type;
        /* the metal at any normal as a mirror; fuzzy where the frame is the world's */
        m.param = type == RC_MAT_DIELECTRIC ? (i % 8u < 4u ? 1.5f : 2.4f)
                  : type == RC_MAT_METAL    ? 0.0f
                                            : (i % 3u == 0 ? 0.0f : 0.6f * urand(i, 700, 9));
        rc_rng_key key = {i, 7u, 3u};
        rc_vec3 n = rc_normalize(
            rc_v3(urand(i, 700, 0) - 0.5f, urand(i, 700, 1) - 0.5f, urand(i, 700, 2) - 0.5f));
        if (type == 3u) n = rc_v3(0.0f, 0.0f, 1.0f);
        rc_vec3 d = rc_normalize(
            rc_v3(urand(i, 700, 3) - 0.5f, urand(i, 700, 4) - 0.5f, urand(i, 700, 5) - 0.5f));
        if (rc_dot(d, n) > 0.0f) d = rc_neg(d);
        if (!(rc_dot(d, n) < -1e-3f)) continue;
        int front = urand(i, 700, 6) < 0.5f;
        rc_vec3 out, weight;
        int r1 = rc_scatter(&m, d, n, front, key, &out, &weight);
        rc_frame fr = rc_frame_from_hit(n, front);
        rc_bsdf b = rc_bsdf_from_material(&m);
        rc_vec3 wo = rc_frame_to_local(&fr, rc_neg(d));
        float u0 = rc_key_rand(key, m.type == RC_MAT_METAL ? RC_DIM_SCATTER_W : RC_DIM_CHOICE);
        rc_bsdf_sampled s;
        int r2 = rc_bsdf_sample(&b, wo, u0, rc_key_rand(key, RC_DIM_SCATTER_U),
                                rc_key_rand(key, RC_DIM_SCATTER_V), &s);
        tested++;
        int ok = r1 == r2;
        if (ok && r1) {
            rc_vec3 w = rc_frame_to_world(&fr, s.wi);
            ok = rc_max_abs(rc_sub(w, out)) < 2e-5f && rc_max_abs(rc_sub(s.weight, weight)) == 0;
        }
        if (!ok && bad++ < 5) {
            rc_vec3 w = rc_frame_to_world(&fr, s.wi);
            fprintf(stderr,
                    "rtiow: type %u param %g: rc_scatter %d (%g %g %g), rc_bsdf_sample %d "
                    "(%g %g %g)\n",
                    m.type, m.param, r1, out.x, out.y, out.z, r2, w.x, w.y, w.z);
        }
    }
    printf("rtiow: %d scatter events, %d where rc_bsdf_sample draws otherwise\n", tested, bad);
    CHECK(bad == 0, "%d of %d draws differ from rc_scatter", bad, tested);
}

/* The chi-square tail against values known in closed form. */
static void part_gamma(void) {
    CHECK(fabs(chi2_sf(3.0, 2.0) - exp(-1.5)) < 1e-12, "Q(1, 1.5) = %.15g", chi2_sf(3.0, 2.0));
    CHECK(fabs(chi2_sf(30.0, 2.0) - exp(-15.0)) < 1e-15, "Q(1, 15)");
    /* k = 1: P(X >= x) = erfc(sqrt(x / 2)) */
    CHECK(fabs(chi2_sf(0.5, 1.0) - erfc(0.5)) < 1e-12, "chi2(1) at 0.5: %.15g", chi2_sf(0.5, 1));
    CHECK(fabs(chi2_sf(20.0, 1.0) - erfc(sqrt(10.0))) < 1e-15, "chi2(1) at 20");
    /* the median of chi2(k) is about k (1 - 2 / (9 k))^3 */
    double k = 8191, med = k * pow(1.0 - 2.0 / (9.0 * k), 3.0);
    CHECK(fabs(chi2_sf(med, k) - 0.5) < 1e-3, "chi2(8191) median: %.6f", chi2_sf(med, k));
}

int main(int argc, char **argv) {
    const char *part = argc > 1 ? argv[1] : "all";
    if (argc > 2) g_sub = atoi(argv[2]);
    int all = strcmp(part, "all") == 0, ran = 0;
    g_expected = malloc(sizeof(double) * NT * NP);
    g_cells = malloc(sizeof(double) * NT * NP);
    g_pairs = malloc(sizeof(double) * 2 * (NT * NP + 1));
    g_observed = malloc(sizeof(long) * NT * NP);
    if (!g_expected || !g_cells || !g_pairs || !g_observed) return 1;
#define PART(name, fn)                                                                             \
    if (all || strcmp(part, name) == 0) {                                                          \
        fn();                                                                                      \
        ran++;                                                                                     \
    }
    PART("gamma", part_gamma)
    PART("chi2-opaque", part_chi2_opaque)
    PART("chi2-pbr", part_chi2_pbr)
    PART("chi2-dielectric-enter", part_chi2_enter)
    PART("chi2-dielectric-leave", part_chi2_leave)
    PART("consistency", part_consistency)
    PART("reciprocity", part_reciprocity)
    PART("furnace", part_furnace)
    PART("rtiow", part_rtiow)
#undef PART
    free(g_expected);
    free(g_cells);
    free(g_pairs);
    free(g_observed);
    if (!ran) {
        fprintf(stderr, "test_bsdf: unknown part '%s'\n", part);
        return 2;
    }
    return test_finish("test_bsdf");
}
