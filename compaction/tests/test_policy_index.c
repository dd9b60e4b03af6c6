/* test_policy_index.c: auto's lookup of a policy's rules by n (policy.c, build_index and
 * sc_policy_rules_for) against the plain walk it replaces: for every n at and around each
 * rule's bounds, and at random, the rules it hands back are exactly, in table order, the rules
 * whose n range holds n. Over the built-in tables, over random tables with overlapping and
 * open ranges, and over one too tangled to index (then every rule is walked). Internal API. */
#include "../src/policy.h"
#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int checks;

/* Compares the lookup at n with the walk; returns 0 if they agree. */
static int agree(const sc_policy *p, size_t n) {
    const uint32_t *at;
    size_t count;
    sc_policy_rules_for(p, n, &at, &count);
    size_t j = 0;
    for (size_t i = 0; i < p->num_rules; i++) {
        const sc_rule *r = &p->rules[i];
        if (at && (r->n_min > n || r->n_max < n)) continue;
        if (j >= count || (at ? at[j] : j) != i) return -1;
        j++;
    }
    checks++;
    return j == count ? 0 : -1;
}

static void check_all(const sc_policy *p, const char *what) {
    int bad = 0;
    for (size_t i = 0; i < p->num_rules && !bad; i++) {
        const sc_rule *r = &p->rules[i];
        size_t probes[6] = {r->n_min,
                            r->n_min ? r->n_min - 1 : 0,
                            r->n_min + 1,
                            r->n_max,
                            r->n_max == SIZE_MAX ? SIZE_MAX : r->n_max + 1,
                            r->n_max ? r->n_max - 1 : 0};
        for (int k = 0; k < 6 && !bad; k++) bad = agree(p, probes[k]) != 0;
    }
    for (int k = 0; k < 2000 && !bad; k++) bad = agree(p, (size_t)(next() >> (next() % 64)));
    bad = bad || agree(p, 0) || agree(p, SIZE_MAX);
    ASSERT_TRUE(!bad, "%s: the lookup by n differs from the walk over every rule", what);
}

static sc_policy *parse(const char *text, sc_backend backend) {
    sc_policy *p = NULL;
    char why[256];
    sc_status s = sc_policy_parse(text, strlen(text), backend, &p, why, sizeof why);
    ASSERT_STATUS(s, SC_OK, "%s", why);
    return p;
}

/* A table of `rules` serial rules with random n ranges: some open below or above, many
 * overlapping, spread over `span` (small: tangled). */
static char *random_table(int rules, size_t span) {
    size_t cap = 200 + (size_t)rules * 120;
    char *t = malloc(cap);
    if (!t) return NULL;
    size_t len = (size_t)snprintf(t, cap,
                                  "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": "
                                  "\"r\", \"backend\": \"cpu\", \"rules\": [");
    for (int i = 0; i < rules; i++) {
        size_t a = (size_t)(next() % span), b = a + (size_t)(next() % span);
        int shape = (int)(next() % 4); /* 0: both bounds, 1: open below, 2: open above, 3: none */
        char when[96] = "";
        if (shape == 0) snprintf(when, sizeof when, "\"n_min\": %zu, \"n_max\": %zu", a, b);
        if (shape == 1) snprintf(when, sizeof when, "\"n_max\": %zu", b);
        if (shape == 2) snprintf(when, sizeof when, "\"n_min\": %zu", a);
        len += (size_t)snprintf(t + len, cap - len, "%s{\"when\": {%s}, \"algo\": \"serial\"}",
                                i ? ", " : "", when);
    }
    snprintf(t + len, cap - len, "]}");
    return t;
}

int main(void) {
    const char *names[] = {"cpu", "sm_90", "cuda"};
    const sc_backend backends[] = {SC_BACKEND_CPU, SC_BACKEND_CUDA, SC_BACKEND_CUDA};
    for (int i = 0; i < 3; i++) {
        const char *text = sc_policy_builtin(names[i]);
        ASSERT_TRUE(text != NULL, "built-in table %s", names[i]);
        sc_policy *p = text ? parse(text, backends[i]) : NULL;
        if (!p) continue;
        ASSERT_TRUE(p->cut != NULL, "built-in table %s: not indexed", names[i]);
        check_all(p, names[i]);
        sc_policy_free(p);
    }
    for (int round = 0; round < 200; round++) {
        int rules = 1 + (int)(next() % 300);
        size_t span = round % 3 == 0 ? 50 : round % 3 == 1 ? 100000 : (size_t)1 << 40;
        char *t = random_table(rules, span);
        sc_policy *p = t ? parse(t, SC_BACKEND_CPU) : NULL;
        if (p) check_all(p, "random table");
        sc_policy_free(p);
        free(t);
    }
    /* every rule over every interval: more than 8 entries a rule, so no index */
    char *t = random_table(400, 3);
    sc_policy *p = t ? parse(t, SC_BACKEND_CPU) : NULL;
    if (p) {
        check_all(p, "tangled table");
        sc_policy_free(p);
    }
    free(t);
    return test_finish("test_policy_index", checks);
}
