/* policy.h: auto's decision table, parsed from JSON (policy.c) or built in (policy_builtin.c).
 * Not installed. */
#ifndef SC_POLICY_H
#define SC_POLICY_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SC_POLICY_MAX_BYTES (1u << 20) /* a table file larger than this is refused */
#define SC_POLICY_MAX_RULES 4096
#define SC_POLICY_NAME_MAX  64

/* One row: conditions (inclusive bounds; -1 = either way), then the choice. */
typedef struct sc_rule {
    size_t n_min, n_max, elem_min, elem_max;
    double removed_min, removed_max;
    int list;   /* 1: only when a removal list is offered; 0: only when none is; -1: either */
    int stable; /* 1: only when stability is required; 0: only when it is not; -1: either */
    sc_algorithm algo;
    size_t tile;  /* 0: the caller's tile */
    sc_scan scan; /* SC_SCAN_DEFAULT: the caller's scan */
    double gain;  /* "gain": the measured speed-up of this removal-list rule over the fastest
                     flag algorithm at its point; 0: not given */
} sc_rule;

typedef struct sc_policy {
    char name[SC_POLICY_NAME_MAX];
    sc_backend backend;
    double unknown_removed; /* the fraction assumed when nothing tells it */
    sc_rule *rules;
    size_t num_rules;
    /* Lookup by n (sc_policy_rules_for), built at parse time: the distinct n bounds cut the
     * range of n into num_cuts intervals, interval j starting at cut[j]; its rules, in table
     * order, are at[first[j]] .. at[first[j + 1] - 1]. NULL when the table is too tangled for
     * it (then every rule is walked). */
    size_t *cut, *first;
    uint32_t *at;
    size_t num_cuts;
} sc_policy;

/* Parse and validate `len` bytes of JSON for `backend`. SC_OK with *out (free with
 * sc_policy_free), SC_ERR_POLICY with the reason in msg, or SC_ERR_OUT_OF_MEMORY. */
sc_status sc_policy_parse(const char *json, size_t len, sc_backend backend, sc_policy **out,
                          char *msg, size_t cap);
/* Read a file and parse it; the message names the file. */
sc_status sc_policy_load(const char *path, sc_backend backend, sc_policy **out, char *msg,
                         size_t cap);
void sc_policy_free(sc_policy *p);
/* The rules whose n range holds n, in table order: *count indices into p->rules at *out, or
 * *out NULL and *count = num_rules when every rule is to be walked. */
void sc_policy_rules_for(const sc_policy *p, size_t n, const uint32_t **out, size_t *count);

#ifdef __cplusplus
}
#endif
#endif /* SC_POLICY_H */
