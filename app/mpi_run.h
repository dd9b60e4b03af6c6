/* mpi_run.h: render and bench over several processes, one per GPU, started by mpirun or srun.
 * The only MPI in the project: app/mpi_run.c includes mpi.h, the commands call these few
 * functions, and nothing below app/ knows about processes. In a build without MPI
 * (RAYCOMPACT_MPI=OFF), or a run not started by an MPI launcher, the process is rank 0 of 1
 * and every function does what a single process needs.
 *
 *     cli_mpi_start(&argc, &argv);     // main: MPI_Init, pick this rank's GPU
 *     cli_mpi_share(spp, &first, &n);  // render: this rank's samples
 *     ... render them; on a failure: return cli_mpi_fail(rc) (ends the whole job) ...
 *     cli_mpi_sum_film_device(r) or cli_mpi_sum_film(sums, count);
 *                                      // rank 0 receives the sum of every rank's film
 *     return cli_mpi_end(rc);          // main: MPI_Finalize */
#ifndef RC_MPI_RUN_H
#define RC_MPI_RUN_H

#include "wavefront/wavefront.h"

#include <stddef.h>
#include <stdint.h>

/* Start MPI when an MPI launcher started this process (mpirun, srun: it finds
 * OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK in the environment), and make the GPU of this
 * rank's node-local rank the process's CUDA device (not with --backend cpu among the
 * arguments). Returns 0, or RC_EXIT_FAIL with a message. */
int cli_mpi_start(int *argc, char ***argv);
/* End MPI (when started); returns rc. */
int cli_mpi_end(int rc);

int cli_mpi_rank(void); /* 0 .. size - 1 */
int cli_mpi_size(void); /* ranks in the job; 1 without MPI */
/* This process's host name, and what it renders on: "cpu", or its GPU ("NAME (device D of N,
 * PCI ...)", or why it has none). */
const char *cli_mpi_host(void);
const char *cli_mpi_device(rc_backend b);

/* Every rank calls it once, before the ranks work together: the largest rc of all ranks, so
 * that an error of any rank before that point (bad options, a scene one node cannot read) ends
 * them all the ordinary way; rank 0 then prints one line naming the lowest failing rank. A rank
 * that returns before calling it joins it in cli_mpi_end. */
int cli_mpi_agree(int rc);
/* A failure on this rank after the ranks started working together: with several ranks, end
 * the whole job now (MPI_Abort with rc, after a line naming this rank; the caller printed the
 * message), so no rank waits for it; alone, return rc. */
int cli_mpi_fail(int rc);

/* This rank's part of `total` samples: [first, first + count), the parts as equal as they go
 * (the first total % size ranks one more), in rank order (rc_share, which also shares a rank's
 * part out over its workers). */
void cli_mpi_share(uint32_t total, uint32_t *first, uint32_t *count);
/* Rank 0 receives, in place, the sum of every rank's `sums` (int64, added with wrap-around
 * like the film, so the order of the additions does not matter). Other ranks' arrays are left
 * as they were. One reduction: the data moved does not depend on the samples or waves. */
int cli_mpi_sum_film(int64_t *sums, size_t count, rc_error *err);
/* The same sum, GPU to GPU, when every rank runs on one machine with the CUDA backend (CUDA IPC,
 * film_peer.h): rank 0's film becomes the sum and only it goes to the host. Every rank calls it
 * after its last frame, with its film's size in bytes. 1: done; 0: not possible here (ranks on
 * several machines, the CPU backend, devices without peer access): use cli_mpi_sum_film; -1:
 * failed (err; also ranks whose films differ in size). r may be NULL on a rank whose film
 * cannot be shared (its workers' films not all on one device, or nothing rendered): then
 * every rank is told 0. */
int cli_mpi_sum_film_device(rc_renderer *r, size_t film_bytes, rc_error *err);
/* Rank 0 receives every rank's `bytes` bytes at all + rank * bytes (all may be NULL on the
 * others). */
int cli_mpi_gather(const void *mine, size_t bytes, void *all, rc_error *err);

#endif /* RC_MPI_RUN_H */
