/* test_scene_limits.c: what a hostile scene file costs (tests/fuzz found the cases). A file
 * whose array outgrows the memory limit fails fast, naming the array; a mesh path to a device
 * file is refused before it is read; many named materials load in O(n log n); every error is
 * one line of printable ASCII, the input's other bytes written as \xNN. */
#define _POSIX_C_SOURCE 200809L
#include "rc_test.h"
#include "scene/obj.h"
#include "rc_error.h"
#include "timing.h"

#include <string.h>

#define CAM "\"camera\": {\"look_from\": [0, 0, 5], \"look_at\": [0, 0, 0]}"

/* A growable text buffer. */
typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void put(text *t, const char *s) {
    size_t k = strlen(s);
    if (t->n + k + 1 > t->cap) {
        t->cap = 2 * (t->n + k + 1);
        t->s = realloc(t->s, t->cap);
        if (!t->s) abort();
    }
    memcpy(t->s + t->n, s, k + 1);
    t->n += k;
}

static int one_printable_line(const char *msg) {
    for (const char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) return 0;
    return msg[0] != '\0';
}

/* An array of 4 million numbers (8 MB) against a 32 MiB limit: the tree cJSON would build
 * takes some 400 MB; the check before it stops early and names the array. */
static void big_array(void) {
    text t = {0};
    put(&t, "{" CAM ", \"spheres\": [");
    for (int i = 0; i < 4000000; i++) put(&t, i ? ",1" : "1");
    put(&t, "]}");
    rc_scene s;
    rc_error err;
    double t0 = timing_now_ms();
    int rc = rc_scene_parse_max("big.json", ".", t.s, t.n, 32, &s, &err);
    double ms = timing_now_ms() - t0;
    CHECK(rc != 0, "a 4-million-element array loaded under a 32 MiB limit");
    CHECK(rc != 0 && strstr(err.msg, "big.json: spheres: too many elements") == err.msg,
          "message: %s", err.msg);
    CHECK(rc != 0 && strstr(err.msg, "memory limit of 32 MiB"), "message: %s", err.msg);
    CHECK(ms < 2000, "took %.0f ms", ms);
    /* The same text under the default limit reaches the field check. */
    rc = rc_scene_parse("big.json", ".", t.s, t.n, &s, &err);
    CHECK(rc != 0 && !strcmp(err.msg, "big.json: spheres[0]: expected an object"), "message: %s",
          err.msg);
    /* A limit smaller than the file itself. */
    rc = rc_scene_parse_max("big.json", ".", t.s, t.n, 4, &s, &err);
    CHECK(rc != 0 && strstr(err.msg, "alone exceed the memory limit of 4 MiB"), "message: %s",
          err.msg);
    free(t.s);
}

/* Primitives beyond what the limit leaves after the text and the tree. */
static void many_prims(void) {
    text t = {0};
    put(&t, "{" CAM ", \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\": "
            "[1, 1, 1]}], \"boxes\": [");
    /* 6 quads a box: 200 000 boxes are 1.2 million primitives, 230 MB at 192 bytes each; the
     * text and its tree take some 220 MB of the 300 MiB. */
    for (int i = 0; i < 200000; i++)
        put(&t, i ? ",{\"min\":[0,0,0],\"max\":[1,1,1],\"material\":\"m\"}"
                  : "{\"min\":[0,0,0],\"max\":[1,1,1],\"material\":\"m\"}");
    put(&t, "]}");
    rc_scene s;
    rc_error err;
    int rc = rc_scene_parse_max("boxes.json", ".", t.s, t.n, 300, &s, &err);
    CHECK(rc != 0 && strstr(err.msg, "too many primitives") && strstr(err.msg, "300 MiB"),
          "message: %s", rc ? err.msg : "(loaded)");
    if (rc == 0) rc_scene_free(&s);
    free(t.s);
}

/* 50 000 named materials and 200 000 spheres that use them: a linear lookup per sphere took
 * 52 s; sorted names take well under a second. */
static void many_materials(void) {
    text t = {0};
    char item[160];
    put(&t, "{" CAM ", \"materials\": [");
    for (int i = 0; i < 50000; i++) {
        snprintf(item, sizeof item,
                 "%s{\"name\": \"material-%d\", \"type\": \"lambertian\", \"albedo\": [0.5, 0.5, "
                 "0.5]}",
                 i ? "," : "", i);
        put(&t, item);
    }
    put(&t, "], \"spheres\": [");
    for (int i = 0; i < 200000; i++) {
        snprintf(item, sizeof item,
                 "%s{\"center\": [%d, %d, 0], \"radius\": 0.25, \"material\": \"material-%d\"}",
                 i ? "," : "", i % 1000, i / 1000, (int)((i * 7919u) % 50000));
        put(&t, item);
    }
    put(&t, "]}");
    rc_scene s;
    rc_error err;
    double t0 = timing_now_ms();
    int rc = rc_scene_parse("many.json", ".", t.s, t.n, &s, &err);
    double ms = timing_now_ms() - t0;
    CHECK(rc == 0, "%s", err.msg);
    if (rc == 0) {
        CHECK(s.num_materials == 50000 && s.num_spheres == 200000, "%zu materials, %zu spheres",
              s.num_materials, s.num_spheres);
        /* Each sphere got the material its name says (the names are in index order). */
        int wrong = 0;
        for (uint32_t i = 0; i < s.bvh.num_prims; i++) { /* leaf order: any order does */
            const rc_prim *p = &s.bvh.prims[i];
            long x = lroundf(p->p.x), y = lroundf(p->p.y);
            uint32_t want = (uint32_t)(((uint32_t)(y * 1000 + x) * 7919u) % 50000);
            wrong += rc_prim_material(p) != want;
        }
        CHECK(wrong == 0, "%d spheres with the wrong material", wrong);
        rc_scene_free(&s);
    }
    printf("50000 materials, 200000 spheres: loaded in %.0f ms\n", ms);
    CHECK(ms < 10000, "took %.0f ms", ms);
    free(t.s);
}

typedef struct error_case {
    const char *text;
    const char *error;
} error_case;

static const error_case k_errors[] = {
    /* Duplicates are found among sorted names, and reported at the later place. */
    {"{" CAM ", \"materials\": [{\"name\": \"b\", \"type\": \"metal\", \"albedo\": [1, 1, 1]},"
     " {\"name\": \"a\", \"type\": \"dielectric\"}, {\"name\": \"c\", \"type\": \"dielectric\"},"
     " {\"name\": \"a\", \"type\": \"dielectric\"}, {\"name\": \"b\", \"type\": \"dielectric\"}]}",
     "t.json: materials[3]: material name 'a' is used twice"},
    {"{" CAM ", \"spheres\": [{\"center\": [0, 0, 0], \"radius\": 1, \"material\": \"x\"}]}",
     "t.json: spheres[0].material: no material named 'x'"},
    /* Input bytes are echoed escaped, on one line. */
    {"{\"camera\": {\"look\\nfrom\\u001b[31mRED\": [0, 0, 5], \"look_at\": [0, 0, 0]}}",
     "t.json: camera.look\\x0afrom\\x1b[31mRED: unknown field"},
    {"{" CAM ", \"materials\": [{\"name\": \"n\", \"type\": \"\\r\\u0007\", \"albedo\": [1, 1, "
     "1]}]}",
     "t.json: materials[0].type: '\\x0d\\x07' is not one of: lambertian, metal, dielectric, "
     "emissive, pbr, rough_dielectric"},
    {"{" CAM ", \"spheres\": [{\"center\": [0, 0, 0], \"radius\": 1, \"material\": \"a\\nb\"}]}",
     "t.json: spheres[0].material: no material named 'a\\x0ab'"},
    {"{" CAM ", \"meshes\": [{\"file\": \"/x\\u001b]0;title\\u0007.obj\", \"material\": "
     "{\"type\": \"dielectric\"}}]}",
     "t.json: meshes[0]: /x\\x1b]0;title\\x07.obj: cannot open: No such file or directory"},
    /* Device files are refused before they are read (/dev/zero never ends). */
    {"{" CAM ", \"meshes\": [{\"file\": \"/dev/zero\", \"material\": {\"type\": "
     "\"dielectric\"}}]}",
     "t.json: meshes[0]: /dev/zero: not a regular file (a character device)"},
};

static void errors(void) {
    for (size_t i = 0; i < sizeof k_errors / sizeof *k_errors; i++) {
        rc_scene s;
        rc_error err;
        const char *txt = k_errors[i].text;
        int rc = rc_scene_parse("t.json", "/nonexistent", txt, strlen(txt), &s, &err);
        CHECK(rc != 0, "case %zu loaded", i);
        if (rc == 0) {
            rc_scene_free(&s);
            continue;
        }
        CHECK(!strcmp(err.msg, k_errors[i].error), "case %zu:\n  got  %s\n  want %s", i, err.msg,
              k_errors[i].error);
        CHECK(one_printable_line(err.msg), "case %zu: not one printable line", i);
    }
    /* The OBJ reader's tokens. */
    const char *obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 \x1b[31m3\n";
    rc_mesh m;
    rc_error err;
    int rc = rc_obj_parse("m.obj", obj, strlen(obj), &m, &err);
    CHECK(rc != 0 && one_printable_line(err.msg) && strstr(err.msg, "\\x1b[31m3"), "OBJ: %s",
          rc ? err.msg : "(loaded)");
    if (rc == 0) rc_mesh_free(&m);
    rc = rc_obj_load("/dev/zero", &m, &err);
    CHECK(rc != 0 && !strcmp(err.msg, "/dev/zero: not a regular file (a character device)"),
          "OBJ: %s", rc ? err.msg : "(loaded)");
}

int main(void) {
    big_array();
    many_prims();
    many_materials();
    errors();
    return test_finish("test_scene_limits");
}
