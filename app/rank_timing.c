/* rank_timing.c: the per-rank lap clock and its table (rank_timing.h). */
#define _POSIX_C_SOURCE 200809L
#include "rank_timing.h"
#include "mpi_run.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
    double main_ms, last_ms; /* timing_now_ms at main and at the last lap */
    cli_rank_timing row;
} laps;

static const char *const names[CLI_PHASE_COUNT] = {"setup",  "scene",  "create", "first",
                                                   "frames", "reduce", "write"};

/* Seconds from the process's start to now, from its start time in /proc/self/stat (clock
 * ticks since boot, field 22, after the command name in parentheses); -1 where not known. */
static double since_start_ms(void) {
#if defined(__linux__) && defined(CLOCK_BOOTTIME)
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) return -1;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    unsigned long long ticks = 0;
    /* after ')': state (field 3) ... starttime (field 22) */
    for (int field = 2; p && field < 22; field++) p = strchr(p + 1, ' ');
    long hz = sysconf(_SC_CLK_TCK);
    struct timespec ts;
    if (!p || hz <= 0 || sscanf(p + 1, "%llu", &ticks) != 1 ||
        clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
        return -1;
    double ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6 - 1e3 * (double)ticks / hz;
    return ms >= 0 ? ms : 0;
#else
    return -1;
#endif
}

void cli_timing_main(void) {
    memset(&laps, 0, sizeof laps);
    laps.main_ms = laps.last_ms = timing_now_ms();
    laps.row.start_ms = since_start_ms();
}

void cli_timing_lap(cli_phase p) {
    double now = timing_now_ms();
    laps.row.phase_ms[p] += now - laps.last_ms;
    laps.last_ms = now;
}

void cli_timing_split(cli_phase from, cli_phase to, double ms) {
    if (ms > laps.row.phase_ms[from]) ms = laps.row.phase_ms[from];
    if (ms < 0) ms = 0;
    laps.row.phase_ms[from] -= ms;
    laps.row.phase_ms[to] += ms;
}

void cli_timing_samples(uint32_t n) {
    laps.row.samples = n;
}

cli_rank_timing cli_timing_mine(void) {
    cli_rank_timing r = laps.row;
    r.rank = (uint32_t)cli_mpi_rank();
    r.wall_ms = timing_now_ms() - laps.main_ms + (r.start_ms > 0 ? r.start_ms : 0);
    return r;
}

int cli_timing_gather(cli_rank_timing *all, rc_error *err) {
    cli_rank_timing me = cli_timing_mine();
    return cli_mpi_gather(&me, sizeof me, all, err);
}

/* Within 100 columns while every time is below 10^6 ms (a longer one widens its column). */
void cli_timing_print(FILE *f, const cli_rank_timing *all, int n) {
    fprintf(f, "\nper rank (ms) start");
    for (int p = 0; p < CLI_PHASE_COUNT; p++) fprintf(f, " %8s", names[p]);
    fprintf(f, " %8s %6s\n", "wall", "spp");
    for (int r = 0; r < n; r++) {
        const cli_rank_timing *t = &all[r];
        if (t->start_ms >= 0)
            fprintf(f, "rank %-4u %9.1f", t->rank, t->start_ms);
        else
            fprintf(f, "rank %-4u %9s", t->rank, "-");
        for (int p = 0; p < CLI_PHASE_COUNT; p++) fprintf(f, " %8.1f", t->phase_ms[p]);
        fprintf(f, " %8.1f %6u\n", t->wall_ms, t->samples);
    }
}

cJSON *cli_timing_json(const cli_rank_timing *all, int n) {
    cJSON *arr = cJSON_CreateArray();
    for (int r = 0; arr && r < n; r++) {
        const cli_rank_timing *t = &all[r];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "rank", t->rank);
        if (t->start_ms >= 0)
            cJSON_AddNumberToObject(j, "start_ms", t->start_ms);
        else
            cJSON_AddNullToObject(j, "start_ms");
        for (int p = 0; p < CLI_PHASE_COUNT; p++) {
            char key[32];
            snprintf(key, sizeof key, "%s_ms", names[p]);
            cJSON_AddNumberToObject(j, key, t->phase_ms[p]);
        }
        cJSON_AddNumberToObject(j, "wall_ms", t->wall_ms);
        cJSON_AddNumberToObject(j, "runs", t->samples);
        cJSON_AddItemToArray(arr, j);
    }
    return arr;
}
