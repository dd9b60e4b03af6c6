/* mpi_run.c: the MPI layer of render and bench (mpi_run.h). With RC_HAVE_MPI the ranks of an
 * mpirun or srun job; without it, or when no launcher started the process, one rank. */
#define _POSIX_C_SOURCE 200809L
#include "mpi_run.h"
#include "cli.h"
#include "wavefront/film_peer.h"
#include "workers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef RC_HAVE_MPI
#include <pthread.h>
#include <mpi.h>
#endif

static struct {
    int started; /* MPI_Init ran */
    int phase;   /* 0: before the ranks agreed, 1: working together, 2: agreed to stop */
    int rank, size;
    int node_size; /* ranks on this rank's machine */
    char host[256];
    char device[256];
} mpi = {0, 0, 0, 1, 1, "", ""};

int cli_mpi_rank(void) {
    return mpi.rank;
}
int cli_mpi_size(void) {
    return mpi.size;
}

static void fill_host(void) {
    if (mpi.host[0]) return;
    if (gethostname(mpi.host, sizeof mpi.host) != 0) snprintf(mpi.host, sizeof mpi.host, "unknown");
    mpi.host[sizeof mpi.host - 1] = '\0';
}

const char *cli_mpi_host(void) {
    fill_host();
    return mpi.host;
}

const char *cli_mpi_device(rc_backend b) {
    if (b == RC_BACKEND_CPU) return "cpu";
    if (!mpi.device[0]) rc_cuda_use_device(0, mpi.device, sizeof mpi.device); /* CUDA's default */
    return mpi.device;
}

void cli_mpi_share(uint32_t total, uint32_t *first, uint32_t *count) {
    rc_share(total, (uint32_t)mpi.rank, (uint32_t)mpi.size, first, count);
}

#ifdef RC_HAVE_MPI
/* Started by an MPI launcher? A process started alone stays a plain program: no singleton
 * MPI_Init (Open MPI would start a daemon for it, and refuses to as root). */
static int launched(void) {
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (getenv(vars[i])) return 1;
    return 0;
}

/* --backend cpu among the arguments: the rank touches no GPU. */
static int cpu_only(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--backend=cpu") == 0) return 1;
        if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc && strcmp(argv[i + 1], "cpu") == 0)
            return 1;
    }
    return 0;
}

/* The node-local rank the launcher put in the environment, or -1. */
static int env_local_rank(void) {
    static const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                                 "PMI_LOCAL_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long n = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && *end == '\0' && n >= 0 && n < 65536) return (int)n;
    }
    return -1;
}

/* Creating the CUDA context takes as long as MPI_Init: a thread does it meanwhile (the device
 * is per thread, so the main thread selects it again after, at no cost). */
static void *warm_device(void *arg) {
    char desc[256];
    rc_cuda_use_device(*(const int *)arg, desc, sizeof desc);
    return NULL;
}

int cli_mpi_start(int *argc, char ***argv) {
    if (!launched()) return 0;
    int early = cpu_only(*argc, *argv) ? -1 : env_local_rank();
    pthread_t warm;
    int warming = early >= 0 && pthread_create(&warm, NULL, warm_device, &early) == 0;
    /* Other threads run (the warm-up above, OpenMP, the image writer); only this one calls MPI. */
    int provided = 0;
    int init = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (warming) pthread_join(warm, NULL);
    if (init != MPI_SUCCESS) {
        fprintf(stderr, "raycompact: MPI_Init failed\n");
        return RC_EXIT_FAIL;
    }
    mpi.started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi.size);
    /* The node-local rank picks the GPU: ranks sharing a machine take devices 0, 1, ...
     * (the launcher's number when it gives one: the device the thread above warmed). */
    MPI_Comm local;
    int local_rank = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, mpi.rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_size(local, &mpi.node_size);
    MPI_Comm_free(&local);
    if (cpu_only(*argc, *argv))
        snprintf(mpi.device, sizeof mpi.device, "cpu");
    else
        rc_cuda_use_device(early >= 0 ? early : local_rank, mpi.device, sizeof mpi.device);
    return 0;
}

int cli_mpi_end(int rc) {
    if (!mpi.started) return rc;
    /* A rank that stopped before the agreement (bad options, a scene it cannot read) joins the
     * one the others wait in, so they stop too; a failure after it ends the job. */
    if (mpi.phase == 0)
        rc = cli_mpi_agree(rc);
    else if (mpi.phase == 1 && rc != 0)
        cli_mpi_fail(rc);
    MPI_Finalize();
    mpi.started = 0;
    return rc;
}

int cli_mpi_agree(int rc) {
    if (!mpi.started) return rc;
    /* The largest code and the lowest rank that has it (MPI_MAXLOC): rank 0 names that rank
     * in one line, under the failing rank's own message. */
    struct {
        int rc, rank;
    } mine = {rc, mpi.rank}, worst = {rc, mpi.rank};
    MPI_Allreduce(&mine, &worst, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    mpi.phase = worst.rc == 0 ? 1 : 2;
    if (worst.rc != 0 && mpi.rank == 0 && mpi.size > 1)
        fprintf(stderr, "raycompact: rank %d of %d failed (exit code %d); every rank stops\n",
                worst.rank, mpi.size, worst.rc);
    return worst.rc;
}

int cli_mpi_fail(int rc) {
    if (mpi.size > 1 && rc != 0) {
        fprintf(stderr, "raycompact: rank %d of %d failed (exit code %d); ending the job\n",
                mpi.rank, mpi.size, rc);
        fflush(stdout);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, rc);
    }
    return rc;
}

/* MPI counts are int: large arrays go in pieces. */
#define CHUNK ((size_t)1 << 28)

int cli_mpi_sum_film(int64_t *sums, size_t count, rc_error *err) {
    if (mpi.size == 1) return 0;
    for (size_t at = 0; at < count; at += CHUNK) {
        int n = (int)(count - at < CHUNK ? count - at : CHUNK);
        void *send = mpi.rank == 0 ? MPI_IN_PLACE : (void *)(sums + at);
        void *recv = mpi.rank == 0 ? (void *)(sums + at) : NULL;
        if (MPI_Reduce(send, recv, n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
            return rc_fail(err, "MPI_Reduce of the film failed");
    }
    return 0;
}

int cli_mpi_sum_film_device(rc_renderer *r, size_t film_bytes, rc_error *err) {
    /* Every rank takes the same branch: size and node_size are the same everywhere. */
    if (mpi.size == 1 || mpi.node_size != mpi.size || mpi.size - 1 > RC_FILM_MAX_PEERS) return 0;
    typedef struct {
        uint64_t bytes; /* the film's size: ranks started with other image sizes are refused */
        int32_t ok;
        unsigned char handle[RC_FILM_HANDLE_BYTES];
    } share;
    /* rank 0's receive buffers: fixed, so that no allocation can fail between collectives */
    static share all[RC_FILM_MAX_PEERS + 1];
    static unsigned char handles[RC_FILM_MAX_PEERS * RC_FILM_HANDLE_BYTES];
    share mine;
    memset(&mine, 0, sizeof mine);
    mine.bytes = film_bytes;
    mine.ok = r && rc_film_export(r, mine.handle) == 0;
    int status = 0; /* 1 added, 0 not possible, -1 failed */
    if (MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
                   MPI_COMM_WORLD) != MPI_SUCCESS)
        status = rc_fail(err, "MPI_Gather of the film handles failed");
    int ok = 1;
    for (int i = 1; mpi.rank == 0 && status == 0 && i < mpi.size; i++) {
        if (all[i].bytes != film_bytes)
            status = rc_fail(err,
                             "rank %d's film has %llu bytes, rank 0's %llu: the ranks must "
                             "render the same image size",
                             i, (unsigned long long)all[i].bytes, (unsigned long long)film_bytes);
        ok = ok && all[i].ok;
        memcpy(handles + (size_t)(i - 1) * RC_FILM_HANDLE_BYTES, all[i].handle,
               RC_FILM_HANDLE_BYTES);
    }
    if (mpi.rank == 0 && status == 0 && ok && mine.ok)
        status = rc_film_add_peers(r, handles, mpi.size - 1, err);
    /* The other ranks keep their films until rank 0 has added them. */
    int mine_status = status;
    if (MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rc_fail(err, "MPI_Bcast after the film sum failed");
    if (status < 0 && mine_status >= 0)
        return rc_fail(err, "rank 0 failed to add the ranks' films on the GPU");
    return status;
}

int cli_mpi_gather(const void *mine, size_t bytes, void *all, rc_error *err) {
    if (mpi.size == 1) {
        memcpy(all, mine, bytes);
        return 0;
    }
    if (bytes > CHUNK) return rc_fail(err, "MPI gather of %zu bytes per rank: too large", bytes);
    if (MPI_Gather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD) !=
        MPI_SUCCESS)
        return rc_fail(err, "MPI_Gather failed");
    return 0;
}

#else /* one process */

int cli_mpi_start(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    return 0;
}
int cli_mpi_end(int rc) {
    return rc;
}
int cli_mpi_agree(int rc) {
    return rc;
}
int cli_mpi_fail(int rc) {
    return rc;
}
int cli_mpi_sum_film(int64_t *sums, size_t count, rc_error *err) {
    (void)sums;
    (void)count;
    (void)err;
    return 0;
}
int cli_mpi_sum_film_device(rc_renderer *r, size_t film_bytes, rc_error *err) {
    (void)r;
    (void)film_bytes;
    (void)err;
    return 0;
}
int cli_mpi_gather(const void *mine, size_t bytes, void *all, rc_error *err) {
    (void)err;
    memcpy(all, mine, bytes);
    return 0;
}
#endif
