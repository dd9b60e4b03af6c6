/* test_scene_errors.c: malformed scene files give the expected one-line error
 * ("file: field: what is wrong", "file:line:col: invalid JSON ...", or the OBJ reader's
 * "mesh.obj:line: what"), and a valid minimal file loads. */
#define _POSIX_C_SOURCE 200809L
#include "rc_test.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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
     "@: materials[0].type: 'plastic' is not one of: lambertian, metal, dielectric, emissive, "
     "pbr, rough_dielectric"},
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
    /* instances: one case per class of error */
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"},"
     " {\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}], \"instances\": []}",
     "@: meshes[1].name: a mesh before it has the name \"tri\""},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": \"tri\", \"translate\": [1, 0, 0]}, {\"mesh\": 0, \"transform\": "
     "[1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}]}",
     NULL},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": 3}]}",
     "@: instances[0].mesh: no mesh 3: meshes has 1 entries"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": \"knot\"}]}",
     "@: instances[0].mesh: no mesh is named \"knot\""},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"translate\": [1, 0, 0]}]}",
     "@: instances[0].mesh: missing"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": 0, \"transform\": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1e999, 0, 0, "
     "0, 1]}]}",
     "@: instances[0].transform: element 11: expected a number (|x| <= 1e15)"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": 0, \"scale\": [1, 0, 1]}]}",
     "@: instances[0]: the transform is singular (it flattens the mesh) or too large"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": 0, \"transform\": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, "
     "1]}]}",
     "@: instances[0].transform: the last row must be 0 0 0 1 (an affine transform)"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": 0, \"transform\": [1, 0, 0]}]}",
     "@: instances[0].transform: expected an array of 16 numbers (a 4x4 matrix in rows)"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": 0, \"transform\": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, "
     "1], \"translate\": [1, 2, 3]}]}",
     "@: instances[0].transform: give either transform or scale/rotate/translate"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": 0, \"rotate\": [0, 0, 0, 30]}]}",
     "@: instances[0].rotate: the axis has no length"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": [{\"mesh\": 0, \"shear\": 1}]}",
     "@: instances[0].shear: unknown field"},
    {"{" CAM
     ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1]}],"
     " \"meshes\": [{\"name\": \"tri\", \"file\": \"good.obj\", \"material\": \"m\"}],"
     " \"instances\": {\"mesh\": 0}}",
     "@: instances: expected an array"},
    /* the glTF-like models, and emission on any model */
    {"{" CAM ", \"materials\": [{\"name\": \"p\", \"type\": \"pbr\", \"color\": [0.8, 0.2, 0.1],"
     " \"metallic\": 0.5, \"roughness\": 0.3, \"ior\": 1.45, \"transmission\": 0.25,"
     " \"emission\": [1, 0.5, 0], \"emission_strength\": 4},"
     " {\"name\": \"r\", \"type\": \"rough_dielectric\", \"color\": [0.9, 1, 0.9],"
     " \"roughness\": 0.2, \"ior\": 1.33},"
     " {\"name\": \"g\", \"type\": \"metal\", \"albedo\": [1, 1, 1], \"emission\": [0, 2, 0]}],"
     " \"spheres\": [{\"center\": [0, 0, 0], \"radius\": 1, \"material\": \"p\"},"
     " {\"center\": [2, 0, 0], \"radius\": 1, \"material\": {\"type\": \"pbr\","
     " \"color\": [1, 1, 1]}}]}",
     NULL},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"metallic\": 1}]}",
     "@: materials[0].color: missing"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, 1, 1],"
     " \"metallic\": 1.5}]}",
     "@: materials[0].metallic: 1.5 is out of range [0, 1]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, 1, 1],"
     " \"roughness\": -0.25}]}",
     "@: materials[0].roughness: -0.25 is out of range [0, 1]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, 1, 1],"
     " \"transmission\": 2}]}",
     "@: materials[0].transmission: 2 is out of range [0, 1]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, 1, 1],"
     " \"ior\": 0.5}]}",
     "@: materials[0].ior: 0.5 is out of range [1, 4]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"rough_dielectric\", \"ior\": 5}]}",
     "@: materials[0].ior: 5 is out of range [1, 4]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, -1, 1]}]}",
     "@: materials[0].color: each component must be in [0, 1]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, 1, 1],"
     " \"roughness\": \"low\"}]}",
     "@: materials[0].roughness: expected a number (|x| <= 1e15)"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, 1, 1],"
     " \"fuzz\": 0.1}]}",
     "@: materials[0].fuzz: not a field of a pbr material"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"rough_dielectric\","
     " \"metallic\": 0}]}",
     "@: materials[0].metallic: not a field of a rough_dielectric material"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1],"
     " \"emission\": [1, -2, 1]}]}",
     "@: materials[0].emission: each component must be in [0, 1e+06]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1],"
     " \"emission\": [1, 1e999, 1]}]}",
     "@: materials[0].emission: expected an array of 3 numbers (|x| <= 1e15)"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": [1, 1, 1],"
     " \"emission_strength\": 2}]}",
     "@: materials[0].emission_strength: needs an emission colour"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, 1, 1],"
     " \"emission\": [1, 1, 1], \"emission_strength\": -1}]}",
     "@: materials[0].emission_strength: -1 is out of range [0, 1e+06]"},
    {"{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"pbr\", \"color\": [1, 1, 1],"
     " \"sheen\": 1}]}",
     "@: materials[0].sheen: unknown field"},
    /* the environment map: relative to the scene's folder, its own errors inside ours */
    {"{" CAM ", \"environment\": {\"file\": \"sky.hdr\", \"rotation\": 90, \"scale\": 1.5}}", NULL},
    {"{" CAM ", \"environment\": {\"file\": \"sky.hdr\"}, \"materials\": [{\"name\": \"e\","
     " \"type\": \"emissive\", \"emission\": [4, 4, 4]}], \"spheres\": [{\"center\": [0, 0, 0],"
     " \"radius\": 1, \"material\": \"e\"}]}",
     NULL},
    {"{" CAM ", \"environment\": {\"file\": \"nosuch.hdr\"}}",
     "@: environment: %/nosuch.hdr: cannot open: No such file or directory"},
    {"{" CAM ", \"environment\": {\"file\": \"good.obj\"}}",
     "@: environment: %/good.obj: not a Radiance HDR image (no #?RADIANCE or #?RGBE first line)"},
    {"{" CAM ", \"environment\": {\"file\": \"fifo.hdr\"}}",
     "@: environment: %/fifo.hdr: not a regular file"},
    {"{" CAM ", \"environment\": {\"file\": \"/dev/zero\"}}",
     "@: environment: /dev/zero: not a regular file"},
    {"{" CAM ", \"environment\": {\"file\": \"sky.hdr\", \"scale\": -1}}",
     "@: environment.scale: -1 is out of range [0, 1e+06]"},
    {"{" CAM ", \"environment\": {\"file\": \"sky.hdr\", \"rotation\": \"east\"}}",
     "@: environment.rotation: expected a number (|x| <= 1e15)"},
    {"{" CAM ", \"environment\": {\"file\": \"sky.hdr\", \"rotation\": 1e999}}",
     "@: environment.rotation: expected a number (|x| <= 1e15)"},
    {"{" CAM ", \"environment\": {\"file\": \"sky.hdr\", \"exposure\": 1}}",
     "@: environment.exposure: unknown field"},
    {"{" CAM ", \"environment\": {\"rotation\": 90}}", "@: environment.file: missing"},
    {"{" CAM ", \"environment\": {\"file\": 3}}", "@: environment.file: expected a string"},
    {"{" CAM ", \"environment\": {\"file\": \"\"}}", "@: environment.file: is empty"},
    {"{" CAM ", \"environment\": \"sky.hdr\"}", "@: environment: expected an object"},
    {"{" CAM ", \"background\": {\"type\": \"sky\"}, \"environment\": {\"file\": \"sky.hdr\"}}",
     "@: environment: a scene has a background or an environment, not both (the environment "
     "lights the rays that leave the scene)"},
};

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A 4 x 2 Radiance HDR map of flat RGBE scanlines, every texel (1, 0.5, 0.25). */
static void write_hdr(const char *path) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 4\n", f);
    static const unsigned char texel[4] = {128, 64, 32, 129};
    for (int i = 0; i < 8; i++) fwrite(texel, 1, sizeof texel, f);
    fclose(f);
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
    char path[256], obj_good[256], obj_bad[256], sky[256], fifo[256];
    snprintf(path, sizeof path, "%s/scene.json", dir);
    snprintf(obj_good, sizeof obj_good, "%s/good.obj", dir);
    snprintf(obj_bad, sizeof obj_bad, "%s/bad.obj", dir);
    snprintf(sky, sizeof sky, "%s/sky.hdr", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo.hdr", dir);
    write_file(obj_good, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    write_file(obj_bad, "v 0 0 0\nv 1 0\n");
    write_hdr(sky);
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
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
    unlink(sky);
    unlink(fifo);
    rmdir(dir);
    return test_finish("test_scene_errors");
}
