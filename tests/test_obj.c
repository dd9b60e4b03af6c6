/* test_obj.c: the OBJ reader on malformed input: each case gives the expected one-line
 * "file:line: what" error, and random corruptions of a valid file never crash it. */
#include "rc_test.h"
#include "scene/obj.h"

#include <string.h>

typedef struct obj_case {
    const char *text;
    const char *error; /* expected message, or NULL: parses */
} obj_case;

static const obj_case k_cases[] = {
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", NULL},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n", NULL},
    {"v 0 0 0\r\nv 1 0 0\r\nv 0 1 0 1\r\nvt 0 0\r\nvn 0 0 1\r\nf 1/1/1 2//1 3/1\r\n", NULL},
    {"# quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\ng g1\ns off\nusemtl m\nf 1 2 3 4\n", NULL},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3", NULL},
    {"v 0 0 0\nv 1 0\n", "t.obj:2: vertex has 2 coordinates, needs 3"},
    {"v 0 0 0\nv\n", "t.obj:2: vertex has 0 coordinates, needs 3"},
    {"v 1 2 abc\n", "t.obj:1: 'abc' is not a number"},
    {"v 1 2 1e999\n", "t.obj:1: number 1e999 is out of range"},
    {"v 1 2 3e20\n", "t.obj:1: number 3e20 is out of range"},
    {"v 1 2 nan\n", "t.obj:1: number nan is out of range"},
    {"v 1 2 3 4 5 6 7 8\n", "t.obj:1: vertex has more than 7 values (x y z [w | r g b])"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n",
     "t.obj:4: face has 2 vertex references, needs at least 3"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n",
     "t.obj:4: vertex index 4 out of range (3 vertices defined so far)"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n",
     "t.obj:4: vertex index 0 is invalid (OBJ indices start at 1)"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n",
     "t.obj:4: vertex index -4 out of range (3 vertices defined so far)"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999999\n",
     "t.obj:4: vertex index 99999999999999999999999 out of range (3 vertices defined so far)"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3x\n", "t.obj:4: bad vertex reference '3x'"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/a/1\n", "t.obj:4: bad vertex reference '3/a/1'"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 /1\n", "t.obj:4: bad vertex reference '/1'"},
    {"f 1 2 3\nv 0 0 0\n", "t.obj:1: vertex index 1 out of range (0 vertices defined so far)"},
    {"v 0 0 0\nhello world\n", "t.obj:2: unknown statement 'hello'"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\n",
     "t.obj: no faces (a mesh needs at least one triangle of non-zero area)"},
    {"v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n",
     "t.obj: no faces (a mesh needs at least one triangle of non-zero area)"},
    {"", "t.obj: no faces (a mesh needs at least one triangle of non-zero area)"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/2 2/1 3/1\n",
     "t.obj:5: texture coordinate index 2 out of range (1 texture coordinates defined so far)"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//-2 3//1\n",
     "t.obj:5: normal index -2 out of range (1 normals defined so far)"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2 3\n",
     "t.obj:4: texture coordinate index 1 out of range (0 texture coordinates defined so far)"},
    {"vn 0 0\n", "t.obj:1: normal has 2 values, needs 3"},
    {"vn 0 0 1 0\n", "t.obj:1: normal has more than 3 values"},
    {"vt\n", "t.obj:1: texture coordinate has 0 values, needs 1"},
    {"vt 0 0 0 0\n", "t.obj:1: texture coordinate has more than 3 values"},
    {"vt 0 nan\n", "t.obj:1: number nan is out of range"},
};

/* Texture coordinates and normals follow their corners; faces without them read RC_OBJ_NONE. */
static void corners(void) {
    const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0.5 0.25 7\nvt 1 1\n"
                       "vn 0 0 2\nf 1 2 3\nf 2/2/1 4/1/1 3//1\n";
    rc_mesh m;
    rc_error err = {{0}};
    int rc = rc_obj_parse("t.obj", text, strlen(text), &m, &err);
    CHECK(rc == 0 && m.num_triangles == 2 && m.num_texcoords == 2 && m.num_normals == 1, "%s",
          err.msg);
    if (rc != 0) return;
    CHECK(m.tri_t && m.tri_n, "corner arrays missing");
    const uint32_t N = RC_OBJ_NONE, want_t[6] = {N, N, N, 1, 0, N}, want_n[6] = {N, N, N, 0, 0, 0};
    for (int i = 0; i < 6; i++)
        CHECK(m.tri_t[i] == want_t[i] && m.tri_n[i] == want_n[i], "corner %d: t %u n %u", i,
              m.tri_t[i], m.tri_n[i]);
    CHECK(m.vt[0] == 0.5f && m.vt[1] == 0.25f && m.vn[2] == 2.0f, "values");
    rc_mesh_free(&m);
}

static void cases(void) {
    for (size_t i = 0; i < sizeof k_cases / sizeof *k_cases; i++) {
        const obj_case *c = &k_cases[i];
        rc_mesh m;
        rc_error err = {{0}};
        int rc = rc_obj_parse("t.obj", c->text, strlen(c->text), &m, &err);
        if (!c->error) {
            CHECK(rc == 0 && m.num_triangles >= 1, "case %zu: %s", i, err.msg);
        } else {
            CHECK(rc != 0 && strcmp(err.msg, c->error) == 0, "case %zu: got '%s', want '%s'", i,
                  rc ? err.msg : "(no error)", c->error);
            CHECK(m.v == NULL && m.tri == NULL && m.num_triangles == 0, "case %zu: not empty", i);
        }
        rc_mesh_free(&m);
    }
    /* A NUL byte inside the text. */
    const char bin[] = "v 0 0 0\nv 1\0 0 0\n";
    rc_mesh m;
    rc_error err;
    CHECK(rc_obj_parse("t.obj", bin, sizeof bin - 1, &m, &err) != 0 &&
              strcmp(err.msg, "t.obj:2: NUL byte in the line (not a text file)") == 0,
          "NUL: %s", err.msg);
    CHECK(rc_obj_load("/nonexistent/x.obj", &m, &err) != 0 &&
              strncmp(err.msg, "/nonexistent/x.obj: cannot open: ", 33) == 0,
          "missing file: %s", err.msg);
}

/* Random byte edits, truncations and line duplications of a valid file: any result is
 * fine as long as it is either a mesh with valid indices or a "t.obj:..." error. */
static void corruptions(void) {
    const char *good = "# cube corner\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\n"
                       "vt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1 4/1/1\nf 1 2 5\nf -1 -2 -3\n";
    const char alphabet[] = "v f 0123456789-+./e#\n\t\r\0xyzE";
    uint64_t s = 12345;
    char buf[512];
    int errors = 0, meshes = 0;
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = strlen(good);
        memcpy(buf, good, n);
        int edits = 1 + iter % 8;
        for (int e = 0; e < edits; e++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(s >> 33) % n;
            int op = (int)(s >> 20) % 3;
            char ch = alphabet[(s >> 40) % (sizeof alphabet - 1)];
            if (op == 0) {
                buf[at] = ch;
            } else if (op == 1 && n + 1 < sizeof buf) {
                memmove(buf + at + 1, buf + at, n - at);
                buf[at] = ch;
                n++;
            } else {
                n = at + 1;
            }
        }
        rc_mesh m;
        rc_error err = {{0}};
        if (rc_obj_parse("t.obj", buf, n, &m, &err) == 0) {
            meshes++;
            for (size_t t = 0; t < 3 * m.num_triangles; t++)
                CHECK(m.tri[t] < m.num_vertices, "iteration %d: index out of range", iter);
        } else {
            errors++;
            CHECK(strncmp(err.msg, "t.obj:", 6) == 0 && !strchr(err.msg, '\n'),
                  "iteration %d: message '%s'", iter, err.msg);
        }
        rc_mesh_free(&m);
    }
    printf("corruptions: %d parsed, %d rejected\n", meshes, errors);
    CHECK(meshes > 0 && errors > 0, "corruptions: %d parsed, %d rejected", meshes, errors);
}

int main(void) {
    cases();
    corners();
    corruptions();
    return test_finish("test_obj");
}
