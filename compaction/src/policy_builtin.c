/* policy_builtin.c: the policy tables built into the library, in the JSON format policy.c
 * reads (and `compact bench --tune` writes). `compact policy show NAME` prints them. */
#include "raycompact/compaction.h"

#include <string.h>

/* H100 (sm_90), seeded from docs/bench/h100/bench.json (compact bench, 2026-11-22, H100 80GB
 * HBM3, CUDA 13.0): sweeps "size" (n 2^16..2^26, 4-byte elements, 50 % removed), "density"
 * (n 2^24, 0-100 % removed, tiles 32/256/2048, lists in random and slot order) and "vector-io"
 * (elements 4/8/16 bytes). Single-pass is the fastest flag algorithm at every measured point
 * (1.2-1.6x CUB; stable), so no tile or scan is chosen; atomic is 3-30 % faster where the
 * stream is tiny (2^16) or everything goes, but unstable. Redzone with a removal list beats
 * single-pass up to about 3.5 % removed at 2^24 (2 %: 0.047 vs 0.066 ms; 5 %: 0.082 vs 0.065
 * ms); the rule for elements over 8 bytes (up to 10 %) is extrapolated from its O(k) moves
 * against single-pass's O(n) copy, not measured: `compact bench --tune` measures it. */
static const char k_sm90[] =
    "{\n"
    "  \"format\": \"raycompact-policy\", \"version\": 1,\n"
    "  \"name\": \"sm_90\", \"backend\": \"cuda\", \"device\": \"NVIDIA H100 80GB HBM3\",\n"
    "  \"source\": \"seeded from docs/bench/h100/bench.json (sweeps size, density, vector-io; "
    "2026-11-22); the Redzone rule above 8-byte elements is extrapolated\",\n"
    "  \"unknown_removed\": 0.5,\n"
    "  \"rules\": [\n"
    "    {\"when\": {\"list\": true, \"n_min\": 4194304, \"elem_max\": 8, \"removed_max\": 0.035},"
    " \"algo\": \"redzone\", \"note\": \"2^24x4B: 2 % 0.047 ms vs single-pass 0.066\"},\n"
    "    {\"when\": {\"list\": true, \"n_min\": 4194304, \"elem_min\": 9, \"removed_max\": 0.1},"
    " \"algo\": \"redzone\", \"note\": \"extrapolated: k moves against n copies\"},\n"
    "    {\"when\": {\"stable\": false, \"n_max\": 65536, \"elem_max\": 4}, \"algo\": \"atomic\","
    " \"note\": \"2^16x4B 50 %: 0.0067 ms vs single-pass 0.0070\"},\n"
    "    {\"when\": {\"stable\": false, \"removed_min\": 0.98, \"elem_max\": 4}, \"algo\": "
    "\"atomic\", \"note\": \"2^24x4B 100 %: 0.016 ms vs single-pass 0.024\"},\n"
    "    {\"algo\": \"single-pass\", \"note\": \"fastest flag algorithm at every other point\"}\n"
    "  ]\n"
    "}\n";

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
