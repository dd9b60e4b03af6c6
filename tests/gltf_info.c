/* gltf_info.c: what the glTF reader makes of each file named, one line a file:
 *   FILE: loaded: T triangles, V vertices, P parts, I instances, M materials, X images,
 *         camera yes|no, N ms
 *   FILE: refused: THE ERROR LINE
 * and its notices as "FILE: notice: ..." lines before it. Exit 0 (even when files are refused),
 * 2 on bad usage. Used by gltf_models.py and to time a large file (tools/gen_glb). */
#define _POSIX_C_SOURCE 200809L
#include "scene/gltf.h"

#include <stdio.h>
#include <time.h>

static void on_notice(void *user, const char *line) {
    (void)user;
    printf("notice: %s\n", line);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: gltf_info FILE.gltf|FILE.glb...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        rc_import im;
        rc_error err;
        rc_gltf_options opt = {0, on_notice, NULL};
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int rc = rc_gltf_load(argv[i], &opt, &im, &err);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
        if (rc != 0) {
            printf("%s: refused: %s\n", argv[i], err.msg);
            continue;
        }
        printf("%s: loaded: %zu triangles, %zu vertices, %zu parts, %zu instances, %zu "
               "materials, %zu images, camera %s, %.1f ms\n",
               argv[i], im.num_triangles, im.num_vertices, im.num_parts, im.num_instances,
               im.num_materials, im.num_images, im.camera.present ? "yes" : "no", ms);
        rc_import_free(&im);
    }
    return 0;
}
