/* test_backend.h: what one test program needs to run on either backend: the command line
 * (--backend cpu|cuda, --quick, algorithm names), the context (exit 77 only when CUDA finds no
 * device), memory where the backend reads it (device memory for CUDA, host memory for the CPU),
 * and the GPU versions that cannot reproduce their CPU specification's order, with why. */
#ifndef SC_TEST_BACKEND_H
#define SC_TEST_BACKEND_H

#include "test.h"

typedef struct test_args {
    sc_backend backend; /* --backend cpu|cuda (default cpu) */
    int quick;          /* --quick: small streams only (for the sanitizers) */
    int full;           /* --full: the exhaustive matrix (every large stream and element size:
                           minutes per algorithm on a GPU; ctest label cuda-full) */
    int num_algos;      /* algorithm names given on the command line */
    const sc_algorithm_info *algos[SC_ALGO_COUNT];
} test_args;

/* Parses `PROG [--backend cpu|cuda] [--quick|--full] [ALGO...]`. Returns 0, or 2 after a one-line
 * error. Names are looked up in the table (an unknown name is an error); which input and backend
 * they must have is the caller's check. */
int test_parse_args(int argc, char **argv, const char *prog, test_args *args);
/* 1 if `a` was named on the command line, or none was named. */
int test_algo_selected(const test_args *args, const sc_algorithm_info *a);
const char *test_backend_name(sc_backend b);

/* Creates the context of args->backend. Returns 0, 77 (printed "skipped") when the CUDA backend
 * finds no device or the build has none, else 1 after a one-line error. */
int test_open(const test_args *args, const char *prog, sc_context **ctx);

/* The start of a test of one input kind: test_parse_args, where every algorithm named must be one
 * of the backend's and take other input than `excluded` (else 2 after "PROG: 'NAME' is not
 * KIND of the BACKEND backend"); test_open; for CUDA, a CPU context *spec for the specification
 * (NULL for the CPU). Returns 0, or the exit code. */
int test_start(int argc, char **argv, const char *prog, sc_input excluded, const char *kind,
               test_args *args, sc_context **ctx, sc_context **spec);

/* The algorithms such a test runs, in table order: the backend's that take other input than
 * `excluded` and were named (or none was). Start with *i = 0; NULL after the last. */
const sc_algorithm_info *test_next_algo(const test_args *args, sc_input excluded, int *i);

/* Memory the backend reads: cudaMalloc'd for CUDA, malloc'd for the CPU. A failure ends the
 * program with the call and why. */
void *test_alloc(sc_backend b, size_t bytes);
void test_free(sc_backend b, void *p);
void test_upload(sc_backend b, void *dst, const void *src, size_t bytes);
void test_download(sc_backend b, void *dst, const void *src, size_t bytes);
void test_fill(sc_backend b, void *dst, int byte, size_t bytes);
/* CUDA: waits for the device (the legacy stream's work and every other); CPU: nothing. */
void test_sync(sc_backend b);

/* How many phase timings the last call on ctx recorded; *bad: the first whose name is not one of
 * the whole comma-separated names of (*a)->phases, else NULL. For auto, *a becomes the
 * algorithm it chose. */
size_t test_phases(sc_context *ctx, const sc_algorithm_info **a, const char **bad);

/* Why a CUDA version's output order is not its CPU specification's, or NULL where the CUDA
 * output must equal the CPU output byte for byte. */
const char *test_order_free(const sc_algorithm_info *a);

#endif /* SC_TEST_BACKEND_H */
