/* raycompact: a wavefront path tracer whose ray stream is compacted after every bounce by a
 * swappable stream-compaction algorithm. */
#include "cli.h"
#include "mpi_run.h"
#include "echo.h"
#include "rank_timing.h"
#ifdef RC_HAVE_VIEWER
#include "viewer/view.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static void usage(FILE *f) {
    fprintf(
        f,
        "usage: raycompact <command> [options]\n"
        "\n"
        "A wavefront path tracer that removes ended paths from its ray stream after\n"
        "every bounce, with any algorithm of the compaction library.\n"
        "\n"
        "commands:\n"
        "  render --scene FILE --out FILE.png   render an image\n"
        "  view --scene FILE                    render live in a window, with per-phase timings\n"
        "  bench --scene FILE                   time every algorithm and mode, per bounce\n"
        "\n"
        "Run 'raycompact <command> --help' for a command's options. Started by mpirun or\n"
        "srun (a build with MPI), render and bench run over the ranks, one per GPU (README).\n"
        "\n"
        "Exit status: 0 ok; 1 a failure while running, or a valid request this build or\n"
        "machine cannot run (--backend cuda without CUDA or a device, view without the\n"
        "viewer); 2 bad usage or bad input, refused in one line before anything runs.\n");
}

/* The viewer is built when SDL2 and libepoxy are found. Without it `view` is a valid command
 * this build cannot run: exit 1, as --backend cuda in a build without CUDA. */
static int view(int argc, char **argv) {
#ifdef RC_HAVE_VIEWER
    return cmd_view(argc, argv);
#else
    (void)argc;
    (void)argv;
    fprintf(stderr, "raycompact view: this build has no viewer (it needs SDL2 and libepoxy)\n");
    return RC_EXIT_FAIL;
#endif
}

int main(int argc, char **argv) {
    cli_timing_main(); /* --stats and bench --json: per-rank times from here */
#ifdef __GLIBC__
    /* Blocks of 128 KiB and more are mapped on their own and unmapped when freed, and the heap
     * is trimmed above 256 KiB free. A scene's load frees large arrays (the file, the import,
     * the BVH builder's pieces) while it allocates others, and glibc's adaptive threshold would
     * move such sizes into the heap, where what is freed stays resident: 1 M triangles from a
     * .glb peaked 15 MiB higher. Malloc tunables a user sets (GLIBC_TUNABLES) win. */
    const char *tun = getenv("GLIBC_TUNABLES");
    if (!tun || !strstr(tun, "glibc.malloc.")) {
        mallopt(M_MMAP_THRESHOLD, 128 << 10);
        mallopt(M_TRIM_THRESHOLD, 256 << 10);
    }
#endif
    if (argc < 2) {
        usage(stderr);
        return RC_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("raycompact 0.1 (compaction library %d.%d)\n", SC_VERSION_MAJOR, SC_VERSION_MINOR);
        return 0;
    }
    /* render and bench run as the ranks of an MPI job when a launcher started them */
    if (!strcmp(cmd, "render") || !strcmp(cmd, "bench")) {
        int rc = cli_mpi_start(&argc, &argv);
        if (rc == 0)
            rc = !strcmp(argv[1], "render") ? cmd_render(argc - 1, argv + 1)
                                            : cmd_bench(argc - 1, argv + 1);
        return cli_mpi_end(rc);
    }
    if (!strcmp(cmd, "view")) return view(argc - 1, argv + 1);
    echo_line(stderr, "raycompact: unknown command '%s' (valid: render, view, bench)", cmd);
    return RC_EXIT_USAGE;
}
