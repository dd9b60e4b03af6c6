/* auto.c: SC_ALGO_AUTO, the chooser. Its "algorithm file" is a table (policy.c): per call it
 * works out the removed fraction, walks the policy's rules, and hands the job to the chosen
 * algorithm with the rule's tile and scan. Moreira et al. 2009 §4 and the Jumping Jack paper
 * §7 propose such a density-driven meta-algorithm; the table holds the measured crossovers. */
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The policy a context uses, cached under the key it was loaded by (a path or "builtin:x"). */
typedef struct sc_auto {
    sc_policy *policy;
    char *key;
    char error[384];
    char choice_policy[SC_POLICY_NAME_MAX];
    sc_choice pending;   /* this call's choice, published by sc_auto_record on success */
    const char *builtin; /* the built-in table's name, found once per context */
} sc_auto;

static sc_auto *auto_of(sc_context *ctx) {
    if (!ctx->autos) ctx->autos = calloc(1, sizeof(sc_auto));
    return ctx->autos;
}

void sc_auto_free(sc_context *ctx) {
    sc_auto *a = ctx->autos;
    if (!a) return;
    sc_policy_free(a->policy);
    free(a->key);
    free(a);
    ctx->autos = NULL;
}

const char *sc_policy_error(const sc_context *ctx) {
    return ctx && ctx->autos ? ctx->autos->error : "";
}

/* The built-in table for the context: "cpu", "sm_90" on compute capability 9.0, else "cuda". */
static const char *builtin_name(const sc_context *ctx) {
    if (ctx->backend == SC_BACKEND_CPU) return "cpu";
#ifdef SC_HAVE_CUDA
    if (sc_cuda_device_cc(ctx) == 90) return "sm_90";
#endif
    return "cuda";
}

static const char *builtin_of(sc_context *ctx, sc_auto *a) {
    if (!a->builtin) a->builtin = builtin_name(ctx);
    return a->builtin;
}

/* 1 if the cached policy was loaded from this source ("file:" path or "builtin:" name). */
static int same_source(const char *key, const char *path, const char *name) {
    if (path) return !strncmp(key, "file:", 5) && !strcmp(key + 5, path);
    return !strncmp(key, "builtin:", 8) && !strcmp(key + 8, name);
}

/* The policy for this call: opt.policy, else $SC_POLICY, else the built-in table. Reloaded
 * only when that source changes. */
static sc_status get_policy(sc_job *job, const sc_policy **out) {
    sc_auto *a = auto_of(job->ctx);
    if (!a) return SC_ERR_OUT_OF_MEMORY;
    const char *path = job->opt.policy;
    if (!path || !path[0]) path = getenv("SC_POLICY");
    if (path && !path[0]) path = NULL;
    const char *name = builtin_of(job->ctx, a);
    if (a->policy && a->key && same_source(a->key, path, name)) {
        a->error[0] = 0;
        *out = a->policy;
        return SC_OK;
    }
    a->error[0] = 0;
    sc_policy_free(a->policy);
    a->policy = NULL;
    free(a->key);
    a->key = NULL;
    sc_policy *p = NULL;
    sc_status s;
    if (path) {
        s = sc_policy_load(path, job->ctx->backend, &p, a->error, sizeof a->error);
    } else {
        const char *text = sc_policy_builtin(name);
        char why[256] = "";
        s = text ? sc_policy_parse(text, strlen(text), job->ctx->backend, &p, why, sizeof why)
                 : SC_ERR_POLICY;
        if (s == SC_ERR_POLICY)
            snprintf(a->error, sizeof a->error, "built-in policy %s: %s", name,
                     text ? why : "missing");
    }
    if (s != SC_OK) return s;
    const char *kind = path ? "file:" : "builtin:", *src = path ? path : name;
    size_t len = strlen(kind) + strlen(src) + 1;
    a->key = malloc(len);
    if (!a->key) {
        sc_policy_free(p);
        return SC_ERR_OUT_OF_MEMORY;
    }
    snprintf(a->key, len, "%s%s", kind, src);
    snprintf(a->choice_policy, SC_POLICY_NAME_MAX, "%s", p->name);
    a->policy = p;
    *out = p;
    return SC_OK;
}

/* A cheap estimate from up to 512 flags, one drawn at a hashed place in each of as many equal
 * strata of the stream (CPU backend: the flags are host memory). */
static double sample_removed(const uint8_t *flags, size_t n) {
    const size_t m = n < 512 ? n : 512;
    if (m == 0) return 0.0;
    size_t zeros = 0, stratum = n / m;
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < m; i++) {
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 32;
        size_t at = i * stratum + (size_t)(h % stratum);
        zeros += flags[at] == 0;
    }
    return (double)zeros / (double)m;
}

/* The element count the choice is made for: the bound n, or on CUDA with a run-time count
 * (opt.d_n, or a preview, which has no data) the caller's expectation opt.n_hint. */
static size_t expected_n(const sc_job *job, int preview) {
    const size_t h = job->opt.n_hint;
    if (job->ctx->backend != SC_BACKEND_CUDA || h == SC_UNKNOWN_COUNT || h >= job->n) return job->n;
    return job->opt.d_n || preview ? h : job->n;
}

/* The removed fraction this call assumes, and where it comes from. */
static double removed_fraction(const sc_job *job, size_t n_expected, unsigned offer,
                               const sc_policy *p, sc_density_source *src) {
    const sc_context *ctx = job->ctx;
    const double n = (double)n_expected;
    /* CUDA with opt.d_k: k is only the bound (the count is on the device), not the density */
    const int k_bound = (ctx->backend == SC_BACKEND_CUDA && job->opt.d_k) || job->k_unknown;
    if ((offer & SC_OFFER_LIST) && n_expected && !k_bound) {
        *src = SC_DENSITY_EXACT;
        double r = (double)job->k / n; /* against n_hint, k may exceed it */
        return r > 1.0 ? 1.0 : r;
    }
    if (job->opt.removed_hint != SC_UNKNOWN_COUNT && n_expected) {
        *src = SC_DENSITY_HINT;
        double r = (double)job->opt.removed_hint / n;
        return r > 1.0 ? 1.0 : r;
    }
    if (ctx->prev_known && ctx->prev_n) {
        *src = SC_DENSITY_PREVIOUS;
        return 1.0 - (double)ctx->prev_kept / (double)ctx->prev_n;
    }
    if (ctx->backend == SC_BACKEND_CPU && (offer & SC_OFFER_FLAGS) && job->flags && job->n) {
        *src = SC_DENSITY_SAMPLED;
        return sample_removed(job->flags, job->n);
    }
    *src = SC_DENSITY_DEFAULT;
    return p->unknown_removed;
}

/* What the decision reads of a call: the count it is made for and the bound the kernels run
 * over, the element size, the removed fraction, the inputs offered, stability. */
typedef struct auto_call {
    const sc_policy *p;
    sc_backend backend;
    size_t n, n_bound, elem_size;
    double removed;
    unsigned offer;
    int stable;
    int built; /* 1: only algorithms this build implements (a call); 0: the table's backend */
} auto_call;

/* 1 if `algo` can run this call: on this backend, with an offered input, stable if asked. */
static int usable(const auto_call *c, sc_algorithm algo) {
    const sc_algorithm_info *info = sc_algorithm_get(algo);
    if (!info || algo == SC_ALGO_AUTO || !(info->backends & (1u << c->backend))) return 0;
    if (c->built && !sc_impl_for(algo, c->backend)) return 0;
    /* CUB has no device-side length: it costs the bound, not the count chosen for */
    if (algo == SC_ALGO_CUB && c->n < c->n_bound) return 0;
    if (c->stable && !info->stable) return 0;
    if (info->input == SC_INPUT_FLAGS) return (c->offer & SC_OFFER_FLAGS) != 0;
    return (c->offer & SC_OFFER_LIST) != 0;
}

static int matches(const sc_rule *r, const auto_call *c) {
    const int list = (c->offer & SC_OFFER_LIST) != 0;
    return c->n >= r->n_min && c->n <= r->n_max && c->elem_size >= r->elem_min &&
           c->elem_size <= r->elem_max && c->removed >= r->removed_min &&
           c->removed <= r->removed_max && (r->list < 0 || r->list == list) &&
           (r->stable < 0 || r->stable == c->stable);
}

/* When no rule decides: a stable flag algorithm, else Redzone on a list. */
static const sc_algorithm k_fallback[] = {SC_ALGO_SINGLE_PASS, SC_ALGO_SCAN_SCATTER, SC_ALGO_SERIAL,
                                          SC_ALGO_REDZONE};

/* The decision: the first rule whose conditions hold and whose algorithm can run the call (its
 * index), else the first usable algorithm of the fallback order (-1); *algo = SC_ALGO_COUNT when
 * none can run it. */
static int decide(const auto_call *c, sc_algorithm *algo) {
    const uint32_t *at;
    size_t count;
    sc_policy_rules_for(c->p, c->n, &at, &count);
    for (size_t j = 0; j < count; j++) {
        const size_t i = at ? at[j] : j;
        const sc_rule *r = &c->p->rules[i];
        if (matches(r, c) && usable(c, r->algo)) {
            *algo = r->algo;
            return (int)i;
        }
    }
    *algo = SC_ALGO_COUNT;
    for (size_t i = 0; *algo == SC_ALGO_COUNT && i < sizeof k_fallback / sizeof *k_fallback; i++)
        if (usable(c, k_fallback[i])) *algo = k_fallback[i];
    return -1;
}

static sc_status choose(sc_job *job, unsigned offer, sc_impl_fn *fn, int preview) {
    const sc_policy *p = NULL;
    sc_status s = get_policy(job, &p);
    if (s != SC_OK) return s;
    sc_auto *a = job->ctx->autos;
    sc_choice *c = &a->pending;
    memset(c, 0, sizeof *c);
    c->automatic = 1;
    c->n = expected_n(job, preview);
    c->removed = removed_fraction(job, c->n, offer, p, &c->source);
    const auto_call call = {p,
                            job->ctx->backend,
                            c->n,
                            job->n,
                            job->elem_size,
                            c->removed,
                            offer,
                            job->opt.require_stable != 0,
                            1};
    c->rule = decide(&call, &c->algo);
    size_t tile = 0;
    sc_scan scan = SC_SCAN_DEFAULT;
    if (c->rule >= 0) {
        const sc_rule *r = &p->rules[c->rule];
        c->gain = r->gain;
        tile = r->tile;
        scan = r->scan;
    }
    /* a list alone with stability asked: no removal-list algorithm is stable */
    if (c->algo == SC_ALGO_COUNT) return SC_ERR_UNSUPPORTED;
    job->info = sc_algorithm_get(c->algo);
    if (tile) job->tile = tile;
    if (scan != SC_SCAN_DEFAULT)
        job->scan = scan;
    else if (tile && job->opt.scan == SC_SCAN_DEFAULT)
        job->scan = job->tile < 128 ? SC_SCAN_HILLIS_STEELE : SC_SCAN_BLELLOCH;
    c->policy = a->choice_policy; /* the name of the policy loaded (get_policy) */
    *fn = sc_impl_for(c->algo, job->ctx->backend);
    return SC_OK;
}

sc_status sc_policy_decide(const char *json, size_t len, sc_backend backend, sc_policy_query *q,
                           size_t count, char *msg, size_t cap) {
    if (count && !q) return SC_ERR_INVALID_ARGUMENT;
    sc_policy *p = NULL;
    sc_status s = sc_policy_parse(json, len, backend, &p, msg, cap);
    if (s != SC_OK) return s;
    for (size_t i = 0; i < count; i++) {
        unsigned offer = (q[i].input != SC_INPUT_REMOVAL_LIST ? SC_OFFER_FLAGS : 0) |
                         (q[i].input != SC_INPUT_FLAGS ? SC_OFFER_LIST : 0);
        if (q[i].n > (size_t)UINT32_MAX) offer &= ~SC_OFFER_LIST; /* as a call: no list there */
        const auto_call c = {p,
                             backend,
                             q[i].n,
                             q[i].n,
                             q[i].elem_size,
                             q[i].removed,
                             offer,
                             q[i].require_stable != 0,
                             0};
        q[i].rule = decide(&c, &q[i].algo);
    }
    sc_policy_free(p);
    return SC_OK;
}

sc_status sc_auto_choose(sc_job *job, unsigned offer, sc_impl_fn *fn) {
    return choose(job, offer, fn, 0);
}

sc_status sc_auto_peek(sc_job *job, unsigned offer, sc_choice *out) {
    sc_impl_fn fn;
    sc_status s = choose(job, offer, &fn, 1);
    if (s != SC_OK) return s;
    *out = job->ctx->autos->pending;
    out->algo = job->info->id;
    out->tile = job->tile;
    out->scan = job->scan;
    return SC_OK;
}

void sc_auto_record(sc_job *job, int automatic) {
    sc_context *ctx = job->ctx;
    sc_choice *c = &ctx->choice;
    if (automatic && ctx->autos) {
        *c = ctx->autos->pending;
    } else {
        memset(c, 0, sizeof *c);
        c->n = job->n;
        c->rule = -2;
        c->removed = -1.0;
        c->source = SC_DENSITY_DEFAULT;
    }
    c->algo = job->info->id;
    c->automatic = automatic;
    c->tile = job->tile;
    c->scan = job->scan;
    ctx->has_choice = 1;
    /* The next auto call's density: this call's when its count reached the host (and, on CUDA,
     * its n was not a bound: with opt.d_n the true count stays on the device). Any other call
     * keeps the last known one (a loop of device-count calls on a stream of one density keeps
     * choosing for that density, instead of falling back to the default). */
    if (ctx->backend == SC_BACKEND_CPU || (job->host_kept && !job->opt.d_n)) {
        ctx->prev_known = 1;
        ctx->prev_n = job->n;
        ctx->prev_kept = job->kept;
    }
}

sc_status sc_last_choice(const sc_context *ctx, sc_choice *out) {
    if (!ctx || !out || !ctx->has_choice) return SC_ERR_INVALID_ARGUMENT;
    *out = ctx->choice;
    return SC_OK;
}
