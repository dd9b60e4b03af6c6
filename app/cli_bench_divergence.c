/* cli_bench_divergence.c: `raycompact bench --divergence`: the divergence probes' counts
 * (core/probe.h) of every run and megakernel as a table per bounce and as JSON. */
#include "cli_bench.h"

#include <cjson/cJSON.h>
#include <stdio.h>

const char *bench_probe_name(int point) {
    static const char *const names[RC_PROBE_POINTS] = {
        "extend.ray",  "extend.node",      "shade",          "scatter",   "class.lambertian",
        "class.metal", "class.dielectric", "class.emissive", "class.pbr", "class.rough_dielectric"};
    return point >= 0 && point < RC_PROBE_POINTS ? names[point] : "?";
}

/* The bins past the last bounce any point reached are left out. */
static int bounces_used(const rc_probe_counts *p) {
    int used = 0;
    for (int pt = 0; pt < RC_PROBE_POINTS; pt++)
        for (int b = 0; b < RC_PROBE_BOUNCES; b++)
            if (p->bin[pt][b].lanes && b + 1 > used) used = b + 1;
    return used;
}

static void fill_col(FILE *f, const rc_probe_bin *b) {
    if (b->lanes)
        fprintf(f, " %9.2f", rc_probe_fill(b));
    else
        fprintf(f, " %9s", "-");
}

static void print_counts(FILE *f, const char *who, const rc_probe_counts *p) {
    const int used = bounces_used(p);
    for (int b = 0; b <= used; b++) {
        const int bin = b == used ? RC_PROBE_ALL : b;
        char label[16];
        snprintf(label, sizeof label, "%d", b);
        const rc_probe_bin cls = rc_probe_classes(p, bin);
        fprintf(f, "%-28s %6s %12llu", b == 0 ? who : "", b == used ? "all" : label,
                p->bin[RC_PROBE_SHADE][bin].lanes);
        fill_col(f, &p->bin[RC_PROBE_EXTEND_RAY][bin]);
        fill_col(f, &p->bin[RC_PROBE_EXTEND_NODE][bin]);
        fill_col(f, &p->bin[RC_PROBE_SHADE][bin]);
        fill_col(f, &p->bin[RC_PROBE_SCATTER][bin]);
        fill_col(f, &cls);
        fprintf(f, "\n");
    }
}

void print_divergence(FILE *f, const bench_run *runs, int n, const bench_baselines *mk) {
    fprintf(f, "\nDivergence: active lanes per warp instruction (of 32) at each probe point, per\n"
               "bounce, over the timed frames (core/probe.h). 'shaded': paths shade took; 'ray' "
               "and\n'nodes': extend's traversal start and node visits; 'scatter': BSDF sampling; "
               "'classes':\nits branches by material model, each run on its own (the JSON has "
               "each class).\n");
    fprintf(f, "%-28s %6s %12s %9s %9s %9s %9s %9s\n", "run", "bounce", "shaded", "ray", "nodes",
            "shade", "scatter", "classes");
    for (int i = 0; i < n; i++) {
        const bench_run *rn = &runs[i];
        if (rn->skipped || !rn->probed) continue;
        char who[64];
        snprintf(who, sizeof who, "%s %s %s", rn->algo, rc_mode_name(rn->mode),
                 rc_frame_loop_name(rn->loop));
        print_counts(f, who, &rn->probes);
    }
    for (int i = 0; i < mk->n; i++) {
        const bench_baseline *b = &mk->b[i];
        if (!b->res.probed) continue;
        char who[64];
        snprintf(who, sizeof who, "megakernel %s", rc_megakernel_name(b->kind));
        print_counts(f, who, &b->res.probes);
    }
}

static cJSON *bin_json(const rc_probe_bin *b) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "lanes", (double)b->lanes);
    cJSON_AddNumberToObject(o, "issues", rc_probe_issues(b));
    cJSON_AddNumberToObject(o, "lanes_per_issue", rc_probe_fill(b));
    return o;
}

cJSON *bench_divergence_json(const rc_probe_counts *p) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "measure",
                            "active lanes per warp instruction at each probe point; lanes: "
                            "executions by one path; issues: warp instructions, shared out over "
                            "the bounces of their lanes");
    const int used = bounces_used(p);
    cJSON *points = cJSON_AddObjectToObject(o, "points");
    for (int pt = 0; pt < RC_PROBE_POINTS; pt++) {
        cJSON *j = cJSON_AddObjectToObject(points, bench_probe_name(pt));
        cJSON *arr = cJSON_AddArrayToObject(j, "bounces");
        for (int b = 0; b < used; b++) cJSON_AddItemToArray(arr, bin_json(&p->bin[pt][b]));
        cJSON_AddItemToObject(j, "all", bin_json(&p->bin[pt][RC_PROBE_ALL]));
    }
    return o;
}
