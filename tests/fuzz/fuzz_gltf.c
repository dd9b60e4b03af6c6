/* fuzz_gltf.c: the glTF reader (rc_gltf_parse) on the input as a .glb when it starts with
 * "glTF", else as a .gltf's JSON. Relative URIs resolve in a folder made once under /tmp that
 * holds a.bin (64 bytes), a.png (2 x 1 pixels) and a FIFO named fifo (refused unopened). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_check.h"
#include "../png_2x1.h"
#include "scene/gltf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void put_file(const char *dir, const char *name, const void *data, size_t n) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, n, f);
    fclose(f);
}

static char g_dir[64];

static void remove_dir(void) {
    static const char *const names[] = {"a.bin", "a.png", "fifo"};
    char path[128];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", g_dir, names[i]);
        unlink(path);
    }
    rmdir(g_dir);
}

static const char *fuzz_dir(void) {
    char *dir = g_dir;
    if (dir[0]) return dir;
    snprintf(dir, sizeof g_dir, "/tmp/fuzz_gltf_XXXXXX");
    if (!mkdtemp(dir)) abort();
    float tri[16] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5f, 0.5f, 0, 1};
    put_file(dir, "a.bin", tri, sizeof tri);
    put_file(dir, "a.png", k_png, sizeof k_png);
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    mkfifo(fifo, 0600);
    atexit(remove_dir);
    return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *dir = fuzz_dir();
    /* an exact-size copy: the reader must not read past it */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    int is_glb = size >= 4 && memcmp(data, "glTF", 4) == 0;
    rc_gltf_options opt = {256, NULL, NULL};
    rc_import im;
    rc_error err;
    if (rc_gltf_parse(is_glb ? "fuzz.glb" : "fuzz.gltf", dir, copy, size, &opt, &im, &err) == 0) {
        size_t tris = 0;
        for (size_t p = 0; p < im.num_parts; p++) {
            const rc_import_part *pt = &im.parts[p];
            if (pt->material >= im.num_materials || pt->instance >= im.num_instances) abort();
            for (size_t t = 0; t < 3 * pt->num_triangles; t++)
                if (pt->indices[t] >= pt->num_vertices) abort();
            tris += pt->num_triangles;
        }
        if (tris != im.num_triangles) abort();
        for (size_t t = 0; t < im.num_textures; t++)
            if (im.textures[t].image >= (int32_t)im.num_images) abort();
        rc_import_camera cam;
        rc_import_frame(&im, 40.0f, 1.5f, &cam);
        rc_import_free(&im);
    } else {
        fuzz_check_message("gltf", err.msg);
    }
    free(copy);
    return 0;
}
