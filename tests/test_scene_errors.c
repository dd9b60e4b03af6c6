/* test_scene_errors.c: malformed scene files give the expected one-line error
 * ("file: field: what is wrong", "file:line:col: invalid JSON ...", or the OBJ reader's
 * "mesh.obj:line: what"), and a valid minimal file loads. */
#define _POSIX_C_SOURCE 200809L
#include "rc_test.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CAM "\"camera\": {\"look_from\": [0, 0, 1], \"look_at\": [0, 0, 0]}"

typedef struct scene_case {
    const char *text;
    const char *error; /* "@" stands for the scene's path, "%" for its directory; NULL = ok */
} scene_case;

static const scene_case k_cases[] = {
    {"{" CAM "}", NULL},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"metal\", \"albedo\": [1, 1, 1]}],"
     " \"spheres\": [{\"center\": [0, 0, 0], \"radius\": -1, \"material\": \"m\"}],"
     " \"meshes\": [{\"file\": \"good.obj\", \"material\": {\"type\": \"dielectric\"},"
     " \"scale\": [1, 2, 3]}]}",
     NULL},
    {"", "@:1:1: invalid JSON: unexpected end of file"},
    {"{\n  \"camera\": {\"look_from\": [0, 0, 1],,}\n}", "@:2:38: invalid JSON near '}'"},
    {"[1, 2]", "@: the scene must be a JSON object"},
    {"{}", "@: camera: missing"},
    {"{" CAM ", \"foo\": 1}", "@: foo: unknown field"},
    {"{" CAM ", " CAM "}", "@: camera: field given twice"},
    {"{\"camera\": {\"look_from\": [0, 0], \"look_at\": [0, 0, 0]}}",
     "@: camera.look_from: expected an array of 3 numbers"},
    {"{\"camera\": {\"look_from\": [0, 0, 1e999], \"look_at\": [0, 0, 0]}}",
     "@: camera.look_from: expected an array of 3 numbers (|x| <= 1e15)"},
    {"{\"camera\": {\"look_from\": [1, 2, 3], \"look_at\": [1, 2, 3]}}",
     "@: camera.look_at: equals look_from"},
    {"{\"camera\": {\"look_from\": [0, 1, 0], \"look_at\": [0, 0, 0]}}",
     "@: camera.up: is zero or parallel to the viewing direction"},
    {"{\"camera\": {\"look_from\": [0, 0, 1], \"look_at\": [0, 0, 0], \"vfov\": 200}}",
     "@: camera.vfov: 200 is out of range (0, 180)"},
    {"{" CAM ", \"render\": {\"width\": 0}}", "@: render.width: expected an integer in [1, 16384]"},
    {"{" CAM ", \"render\": {\"max_depth\": 2.5}}",
     "@: render.max_depth: expected an integer in [1, 64]"},
    {"{" CAM ", \"render\": {\"light_sampling\": \"area\"}}",
     "@: render.light_sampling: 'area' is not one of: nee, bsdf"},
    {"{" CAM ", \"render\": {\"light_sampling\": 1}}",
     "@: render.light_sampling: expected a string"},
    {"{" CAM ", \"background\": {\"type\": \"gradient\"}}",
     "@: background.type: 'gradient' is not one of: sky, constant"},
    {"{" CAM ", \"background\": {\"type\": \"constant\"}}", "@: background.color: missing"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"plastic\"}]}",
     "@: materials[0].type: 'plastic' is not one of: lambertian, metal, dielectric, emissive"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1],"
     " \"fuzz\": 0.1}]}",
     "@: materials[0].fuzz: not a field of a lambertian material"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1.5, 1, 1]}]}",
     "@: materials[0].albedo: each component must be in [0, 1]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"emissive\", \"emission\": [1, 1, 1]},"
     " {\"name\": \"m\", \"type\": \"emissive\", \"emission\": [1, 1, 1]}]}",
     "@: materials[1]: material name 'm' is used twice"},
    {"{" CAM ", \"spheres\": [{\"center\": [0, 0, 0], \"radius\": 1, \"material\": \"x\"}]}",
     "@: spheres[0].material: no material named 'x'"},
    {"{" CAM ", \"spheres\": [{\"center\": [0, 0, 0], \"radius\": 0, \"material\": \"x\"}]}",
     "@: spheres[0].radius: must not be 0"},
    {"{" CAM ", \"spheres\": [{\"center\": [0, 0, 0], \"radius\": \"big\"}]}",
     "@: spheres[0].radius: expected a number (|x| <= 1e15)"},
    {"{" CAM ", \"spheres\": {}}", "@: spheres: expected an array"},
    {"{" CAM ", \"spheres\": [3]}", "@: spheres[0]: expected an object"},
    {"{" CAM ", \"quads\": [{\"corner\": [0, 0, 0], \"u\": [1, 0, 0], \"v\": [2, 0, 0],"
     " \"material\": {\"type\": \"metal\", \"albedo\": [1, 1, 1]}}]}",
     "@: quads[0]: u and v are zero or parallel (the quad has no area)"},
    {"{" CAM ", \"boxes\": [{\"min\": [0, 0, 0], \"max\": [1, 0, 1], \"material\": \"m\"}]}",
     "@: boxes[0]: min must be below max on every axis"},
    {"{" CAM ", \"triangles\": [{\"vertices\": [[0, 0, 0], [1, 0, 0]], \"material\": \"m\"}]}",
     "@: triangles[0].vertices: expected an array of 3 points"},
    {"{" CAM ", \"meshes\": [{\"file\": \"missing.obj\", \"material\": {\"type\": \"lambertian\","
     " \"albedo\": [1, 1, 1]}}]}",
     "@: meshes[0]: %/missing.obj: cannot open: No such file or directory"},
    {"{" CAM ", \"meshes\": [{\"file\": \"bad.obj\", \"material\": {\"type\": \"lambertian\","
     " \"albedo\": [1, 1, 1]}}]}",
     "@: meshes[0]: %/bad.obj:2: vertex has 2 coordinates, needs 3"},
    {"{" CAM ", \"meshes\": [{\"file\": \"good.obj\", \"scale\": 0, \"material\": \"m\"}]}",
     "@: meshes[0].scale: must not be 0"},
};

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Expand "@" to the scene path and "%" to the directory. */
static void expand(const char *pattern, const char *path, const char *dir, char *out, size_t cap) {
    size_t j = 0;
    for (const char *p = pattern; *p && j + 1 < cap; p++) {
        const char *s = *p == '@' ? path : (*p == '%' ? dir : NULL);
        if (s)
            j += (size_t)snprintf(out + j, cap - j, "%s", s);
        else
            out[j++] = *p;
    }
    out[j < cap ? j : cap - 1] = '\0';
}

int main(void) {
    char dir[] = "/tmp/rc_scene_errors_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[256], obj_good[256], obj_bad[256];
    snprintf(path, sizeof path, "%s/scene.json", dir);
    snprintf(obj_good, sizeof obj_good, "%s/good.obj", dir);
    snprintf(obj_bad, sizeof obj_bad, "%s/bad.obj", dir);
    write_file(obj_good, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    write_file(obj_bad, "v 0 0 0\nv 1 0\n");
    for (size_t i = 0; i < sizeof k_cases / sizeof *k_cases; i++) {
        write_file(path, k_cases[i].text);
        rc_scene s;
        rc_error err = {{0}};
        int rc = rc_scene_load(path, &s, &err);
        if (!k_cases[i].error) {
            CHECK(rc == 0, "case %zu: %s", i, err.msg);
        } else {
            char want[600];
            expand(k_cases[i].error, path, dir, want, sizeof want);
            CHECK(rc != 0 && strcmp(err.msg, want) == 0, "case %zu: got '%s', want '%s'", i,
                  rc ? err.msg : "(loaded)", want);
        }
        rc_scene_free(&s);
    }
    rc_scene s;
    rc_error err;
    CHECK(rc_scene_load("/nonexistent/s.json", &s, &err) != 0 &&
              strcmp(err.msg, "/nonexistent/s.json: cannot open: No such file or directory") == 0,
          "missing: %s", err.msg);
    unlink(path);
    unlink(obj_good);
    unlink(obj_bad);
    rmdir(dir);
    return test_finish("test_scene_errors");
}
