/* policy_builtin.c: the policy tables built into the library, in the JSON format policy.c
 * reads (and `compact bench --tune` writes). `compact policy show NAME` prints them. */
#include "raycompact/compaction.h"

#include <string.h>

/* H100 (sm_90): measured by `compact bench --tune` on an H100 80GB HBM3 (CUDA 13.0) with the
 * kernels of this release (scripts/gpu.sh auto tune). Grid: n 2^8 to 2^24, every 2^2; elements
 * 4, 16, 64 bytes; 1-99 % removed; with and without removal lists; tiles 64/256/1024; median of
 * 21 runs after 5 ms of every SM busy. Per half of each n cell the algorithm, the stable one
 * where they differ, and Redzone where a list is offered and it beats both (with its "gain" over
 * the flag choice), each the configuration whose worst ratio to the fastest over the point and
 * that half's edges is least (a list rule where the list also wins at that half's n edge);
 * fraction bounds where the choices' times cross at the half cell's middle. The text is
 * compaction/policies/sm_90.json, embedded at build time (cmake/EmbedText.cmake) as k_sm90. */
#include "policy_sm90.inc"

/* Other GPUs: single-pass (no tuning needed, stable), Redzone where a list removes little. */
static const char k_cuda[] =
    "{\n"
    "  \"format\": \"raycompact-policy\", \"version\": 1,\n"
    "  \"name\": \"cuda\", \"backend\": \"cuda\",\n"
    "  \"source\": \"generic: the H100 table's shape with a narrower Redzone range; run "
    "compact bench --tune on the GPU for a measured table\",\n"
    "  \"unknown_removed\": 0.5,\n"
    "  \"rules\": [\n"
    "    {\"when\": {\"list\": true, \"n_min\": 4194304, \"removed_max\": 0.02}, \"algo\": "
    "\"redzone\"},\n"
    "    {\"algo\": \"single-pass\"}\n"
    "  ]\n"
    "}\n";

/* CPU backend, from `compact bench --backend cpu --tune --n 2^12,2^16,2^20 --elem 4,16,64
 * --removed 0.01,0.05,0.2,0.5,0.9 --tile 64,256,1024` on a 2-core AMD EPYC (2026-11-23): the
 * serial pass is the fastest flag algorithm at nearly every point (the passes of the data-
 * parallel algorithms cost more than 2 threads win back), and one-block Redzone beats it with
 * a removal list up to 5-20 % removed. More cores move the crossovers: tune on the machine. */
static const char k_cpu[] =
    "{\n"
    "  \"format\": \"raycompact-policy\", \"version\": 1,\n"
    "  \"name\": \"cpu\", \"backend\": \"cpu\",\n"
    "  \"source\": \"compact bench --backend cpu --tune on a 2-core AMD EPYC, 2026-11-23\",\n"
    "  \"unknown_removed\": 0.5,\n"
    "  \"rules\": [\n"
    "    {\"when\": {\"list\": true, \"removed_max\": 0.1}, \"algo\": \"redzone-block\"},\n"
    "    {\"algo\": \"serial\"}\n"
    "  ]\n"
    "}\n";

const char *sc_policy_builtin(const char *name) {
    if (!name) return NULL;
    if (!strcmp(name, "sm_90")) return k_sm90;
    if (!strcmp(name, "cuda")) return k_cuda;
    if (!strcmp(name, "cpu")) return k_cpu;
    return NULL;
}
