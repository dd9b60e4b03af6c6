/* test_mtl.c: the MTL reader (mtl.c) and OBJ files with materials (obj.c, scene_import.c).
 *   - a table of MTL texts and their one-line "file.mtl:line: what" errors; a good file's values;
 *   - 20000 random corruptions of a valid file never crash the reader;
 *   - map files: missing, a FIFO (refused without blocking), in a subfolder;
 *   - an OBJ with an MTL written here loaded as a scene: each triangle's material mapped by the
 *     rules (emitter, glass, metal with its roughness from Ns, Lambertian with map_Kd as its
 *     sRGB base texture; highlights and Pm/Pr as the PBR model, rough tinted glass, norm as a
 *     linear normal map, a bump map ignored, map_d as the base texture's alpha); usemtl of an
 *     unknown name refused with its line. */
#include "png.h"
#include "rc_test.h"
#include "scene/obj.h"
#include "scene/scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct mtl_case {
    const char *text;
    const char *error; /* expected message, or NULL: parses */
} mtl_case;

static const mtl_case k_cases[] = {
    {"newmtl a\nKd 0.5 0.5 0.5\n", NULL},
    {"# only a comment\n\n", NULL},
    {"newmtl a\nKa 1 1 1\nTf 1 1 1\nmap_Ks x.png\nPr 0.3\nPm 1\naniso 0.5\n", NULL},
    {"newmtl a\nTf xyz 1 1 1\nTf spectral t.rfl 1\nmap_d -imfchan m a.png\n", NULL},
    {"newmtl a\nPr 2\n", "t.mtl:2: Pr: 2 is out of range (0 to 1)"},
    {"newmtl a\nPm x\n", "t.mtl:2: Pm: 'x' is not a number"},
    {"newmtl a\nTf 0.5 2 0\n", "t.mtl:2: Tf: 2 is out of range (0 to 1)"},
    {"newmtl a\nKd 0.5 x 0.5\n", "t.mtl:2: Kd: 'x' is not a number"},
    {"newmtl a\nKs nan 0 0\n", "t.mtl:2: Ks: nan is out of range (0 to 1)"},
    {"newmtl a\nKd 1.5 0 0\n", "t.mtl:2: Kd: 1.5 is out of range (0 to 1)"},
    {"newmtl a\nKe 1e999 0 0\n", "t.mtl:2: Ke: 1e999 is out of range (0 to 1e+06)"},
    {"newmtl a\nKd 1 1\n", "t.mtl:2: Kd needs r g b (or one value for all three)"},
    {"newmtl a\nKd 1 1 1 1\n", "t.mtl:2: Kd has more than 3 values (r g b)"},
    {"newmtl a\nNs 2e6\n", "t.mtl:2: Ns: 2e6 is out of range (0 to 1e+06)"},
    {"newmtl a\nNi 0.001\n", "t.mtl:2: Ni: 0.001 is out of range (0.01 to 10)"},
    {"newmtl a\nNi -1\n", "t.mtl:2: Ni: -1 is out of range (0 to 10)"},
    {"newmtl a\nNi\n", "t.mtl:2: Ni needs a value"},
    {"newmtl a\nd 0.5 0.5\n", "t.mtl:2: d has more than one value"},
    {"newmtl a\nTr -1\n", "t.mtl:2: Tr: -1 is out of range (0 to 1)"},
    {"newmtl a\nillum 11\n", "t.mtl:2: illum: 11 is out of range (0 to 10)"},
    {"newmtl a\nillum 2.5\n", "t.mtl:2: illum: expected a whole number 0 to 10"},
    {"Kd 1 1 1\nnewmtl a\n", "t.mtl:1: 'Kd' before any newmtl"},
    {"map_Kd a.png\n", "t.mtl:1: 'map_Kd' before any newmtl"},
    {"newmtl a\nnewmtl b\nnewmtl a\n", "t.mtl:3: material 'a' is defined twice"},
    {"newmtl\n", "t.mtl:1: newmtl needs a name"},
    {"newmtl a\nfoo 1\n", "t.mtl:2: unknown statement 'foo'"},
    {"newmtl a\nmap_Kd -zz 1 a.png\n", "t.mtl:2: map_Kd: unknown option '-zz'"},
    {"newmtl a\nmap_Kd -clamp maybe a.png\n", "t.mtl:2: map_Kd: option -clamp: bad or missing "
                                              "value 'maybe'"},
    {"newmtl a\nmap_Kd -s\n", "t.mtl:2: map_Kd: option -s: bad or missing value"},
    {"newmtl a\nmap_Kd -bm 1\n", "t.mtl:2: map_Kd needs a file name"},
    {"newmtl a\nmap_Kd /etc/a.png\n", "t.mtl:2: map_Kd '/etc/a.png': absolute paths are refused "
                                      "(paths are relative to the file)"},
    {"newmtl a\nmap_Kd C:\\a.png\n", "t.mtl:2: map_Kd 'C:\\a.png': absolute paths are refused "
                                     "(paths are relative to the file)"},
    {"newmtl a\nbump tex/../../a.png\n", "t.mtl:2: bump 'tex/../../a.png': paths leaving the "
                                         "file's folder are refused"},
    {"newmtl a\nnorm ..\n", "t.mtl:2: norm '..': paths leaving the file's folder are refused"},
    /* a backslash separates folders as a slash does: still refused out of the folder */
    {"newmtl a\nmap_Kd tex\\..\\..\\a.png\n",
     "t.mtl:2: map_Kd 'tex\\..\\..\\a.png': paths leaving the file's folder are refused"},
    {"newmtl a\nmap_Kd \\\\server\\a.png\n",
     "t.mtl:2: map_Kd '\\\\server\\a.png': absolute paths are refused (paths are relative to "
     "the file)"},
    {"newmtl a\nKd 1 1 1\x00\n", "t.mtl:2: NUL byte in the line (not a text file)"},
};

static void cases(void) {
    for (size_t i = 0; i < sizeof k_cases / sizeof *k_cases; i++) {
        const mtl_case *c = &k_cases[i];
        size_t len = strlen(c->text);
        if (strstr(c->text, "Kd 1 1 1") && c->error && strstr(c->error, "NUL")) len += 2;
        rc_mtl m;
        memset(&m, 0, sizeof m);
        rc_error err = {{0}};
        int rc = rc_mtl_parse("t.mtl", "d", c->text, len, &m, &err);
        if (!c->error)
            CHECK(rc == 0, "case %zu: unexpected error '%s'", i, err.msg);
        else
            CHECK(rc != 0 && strcmp(err.msg, c->error) == 0 && m.count == 0,
                  "case %zu: got '%s', want '%s'", i, rc ? err.msg : "(parsed)", c->error);
        rc_mtl_free(&m);
    }
}

static int near(float a, float b) {
    return fabsf(a - b) < 1e-6f;
}

/* A good file's values, defaults where it says nothing, map options skipped. */
static void values(void) {
    const char *text = "newmtl glass\nKd 0.9 0.95 1\nNi 1.45\nTr 0.75\nillum 4\n"
                       "newmtl plain\n"
                       "newmtl wood floor\r\nKd 0.5\nmap_Kd -s 2 2 1 -o 0.5 -bm 1 -clamp on "
                       "tex/wood grain.png  \nmap_Bump -bm 0.5 n.png\nNs 10\n"
                       "newmtl win\nNi 0\nmap_Kd .\\maps\\w.png\n";
    rc_mtl m;
    memset(&m, 0, sizeof m);
    rc_error err = {{0}};
    CHECK(rc_mtl_parse("g.mtl", "dir", text, strlen(text), &m, &err) == 0, "%s", err.msg);
    CHECK(m.count == 4, "%zu materials", m.count);
    if (m.count != 4) return;
    const rc_mtl_material *win = &m.materials[3];
    CHECK(win->ni == 1.0f && win->map_kd && strcmp(win->map_kd, "dir/./maps/w.png") == 0,
          "Ni 0 is the default, a Windows path's backslashes are slashes: %g '%s'", win->ni,
          win->map_kd ? win->map_kd : "(none)");
    const rc_mtl_material *g = &m.materials[0], *p = &m.materials[1], *w = &m.materials[2];
    CHECK(strcmp(g->name, "glass") == 0 && near(g->kd[1], 0.95f) && near(g->ni, 1.45f) &&
              near(g->d, 0.25f) && g->illum == 4 && g->has_kd,
          "glass values");
    CHECK(near(p->kd[0], 0.8f) && p->ks[0] == 0.0f && p->ke[0] == 0.0f && p->d == 1.0f &&
              p->ni == 1.0f && p->illum == 2 && !p->has_kd && !p->map_kd,
          "defaults");
    CHECK(strcmp(w->name, "wood floor") == 0 && near(w->kd[2], 0.5f) && near(w->ns, 10.0f),
          "name with a space: '%s'", w->name);
    CHECK(w->map_kd && strcmp(w->map_kd, "dir/tex/wood grain.png") == 0 && w->map_kd_line == 9,
          "map_Kd '%s'", w->map_kd ? w->map_kd : "(none)");
    CHECK(w->map_bump && strcmp(w->map_bump, "dir/n.png") == 0 && !w->bump_is_normal &&
              w->map_bump_line == 10,
          "map_Bump");
    CHECK(!g->has_tf && g->tf[0] == 1.0f && !g->has_pr && !g->has_pm && !g->has_ns && w->has_ns &&
              !w->map_d,
          "defaults of the new fields");
    rc_mtl_free(&m);
    memset(&m, 0, sizeof m);
    const char *pbr = "newmtl p\nTf 0.5 0.6 0.7\nPr 0.25\nPm 1\nmap_d -imfchan m mask.png\n"
                      "norm -bm 1 nrm.png\n";
    CHECK(rc_mtl_parse("p.mtl", "dir", pbr, strlen(pbr), &m, &err) == 0 && m.count == 1, "%s",
          err.msg);
    if (m.count == 1) {
        const rc_mtl_material *q = &m.materials[0];
        CHECK(q->has_tf && near(q->tf[1], 0.6f) && q->has_pr && near(q->pr, 0.25f) && q->has_pm &&
                  q->pm == 1.0f,
              "Tf, Pr, Pm");
        CHECK(q->map_d && strcmp(q->map_d, "dir/mask.png") == 0 && q->map_d_line == 5, "map_d");
        CHECK(q->map_bump && strcmp(q->map_bump, "dir/nrm.png") == 0 && q->bump_is_normal &&
                  q->map_bump_line == 6,
              "norm");
    }
    rc_mtl_free(&m);
    memset(&m, 0, sizeof m);
    CHECK(rc_mtl_parse("g.mtl", "dir", text, strlen(text), &m, &err) == 0, "%s", err.msg);
    CHECK(rc_mtl_find(&m, "wood floor", 10) == 2 && rc_mtl_find(&m, "wood", 4) == -1, "find");
    /* a second file appends; a name of the first may come again */
    CHECK(rc_mtl_parse("h.mtl", "dir", "newmtl glass\n", 13, &m, &err) == 0 && m.count == 5,
          "second file: %s", err.msg);
    /* an error in a later file leaves the earlier materials */
    CHECK(rc_mtl_parse("i.mtl", "dir", "newmtl z\nx\n", 11, &m, &err) != 0 && m.count == 5,
          "error in a later file");
    rc_mtl_free(&m);
}

/* Random byte edits, truncations and insertions of a valid file: either materials with their
 * values in range, or a "t.mtl:..." error of one line. */
static void corruptions(void) {
    const char *good = "newmtl a\nKd 0.5 0.25 1\nKs 1 1 1\nNs 500\nNi 1.5\nd 0.5\nillum 7\n"
                       "map_Kd -s 1 1 -bm 2 t.png\nnewmtl b\nKe 4 4 4\nTr 0.1\n";
    const char alphabet[] = "newmtlKdsNiTrmap_ -0123456789.e#\n\t\r\0/xon";
    uint64_t s = 777;
    char buf[512];
    int errors = 0, parsed = 0;
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
        rc_mtl m;
        memset(&m, 0, sizeof m);
        rc_error err = {{0}};
        if (rc_mtl_parse("t.mtl", "d", buf, n, &m, &err) == 0) {
            parsed++;
            for (size_t i = 0; i < m.count; i++) {
                const rc_mtl_material *a = &m.materials[i];
                CHECK(a->kd[0] >= 0 && a->kd[0] <= 1 && a->ni >= 0.01f && a->ni <= 10 &&
                          a->d >= 0 && a->d <= 1 && a->illum >= 0 && a->illum <= 10,
                      "iteration %d: value out of range", iter);
            }
        } else {
            errors++;
            CHECK(strncmp(err.msg, "t.mtl:", 6) == 0 && !strchr(err.msg, '\n'),
                  "iteration %d: message '%s'", iter, err.msg);
        }
        rc_mtl_free(&m);
    }
    printf("corruptions: %d parsed, %d rejected\n", parsed, errors);
    CHECK(parsed > 0 && errors > 0, "corruptions: %d parsed, %d rejected", parsed, errors);
}

static int write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

/* Four triangles, each at its own x (4 * i), of the materials lamp, glass, gold and wood; the
 * fifth before the usemtl has none. */
static const char *k_obj = "mtllib a.mtl sub/b.mtl\n"
                           "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                           "v 4 0 0\nv 5 0 0\nv 4 1 0\n"
                           "v 8 0 0\nv 9 0 0\nv 8 1 0\n"
                           "v 12 0 0\nv 13 0 0\nv 12 1 0\n"
                           "v 16 0 0\nv 17 0 0\nv 16 1 0\n"
                           "f 13 14 15\n"
                           "usemtl lamp\nf 1 2 3\nusemtl glass\nf 4 5 6\n"
                           "usemtl gold\nf 7 8 9\nusemtl wood\nf 10 11 12\n";

static void obj_scene(const char *dir) {
    char path[512], obj[512], sub[512];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0777);
    snprintf(path, sizeof path, "%s/a.mtl", dir);
    CHECK(write_text(path, "newmtl lamp\nKd 0 0 0\nKe 4 2 1\n"
                           "newmtl glass\nKd 0 0 0\nNi 1.33\nd 0.1\n"
                           "newmtl gold\nKd 0.1 0.1 0.1\nKs 1 0.8 0.4\nNs 198\nillum 3\n") == 0,
          "cannot write %s", path);
    snprintf(path, sizeof path, "%s/sub/b.mtl", dir);
    CHECK(write_text(path, "newmtl wood\nKd 0.5 1 1\nmap_Kd -s 1 1 1 tex.png\n") == 0,
          "cannot write %s", path);
    /* a 2x1 PNG: sRGB (255, 128, 0) and (0, 128, 255) */
    snprintf(path, sizeof path, "%s/sub/tex.png", dir);
    FILE *f = fopen(path, "wb");
    const unsigned char rgb[6] = {255, 128, 0, 0, 128, 255};
    CHECK(f && rc_png_write(f, rgb, 2, 1, 1) == 0, "cannot write %s", path);
    if (f) fclose(f);
    snprintf(obj, sizeof obj, "%s/m.obj", dir);
    CHECK(write_text(obj, k_obj) == 0, "cannot write %s", obj);
    rc_scene s;
    rc_error err = {{0}};
    CHECK(rc_scene_load_max(obj, 256, &s, &err) == 0, "%s", err.msg);
    if (err.msg[0]) return;
    CHECK(s.num_prims == 5, "%zu primitives", s.num_prims);
    int seen = 0;
    double g128 = pow((128 / 255.0 + 0.055) / 1.055, 2.4);
    for (size_t i = 0; i < s.num_prims; i++) {
        const rc_prim *p = rc_scene_prim_at(&s, i);
        const rc_material *m = &s.materials[rc_prim_material(p)];
        int which = (int)lroundf(p->p.x / 4.0f);
        seen |= 1 << which;
        switch (which) {
        case 0:
            CHECK(m->type == RC_MAT_EMISSIVE && near(m->color.x, 4) && near(m->color.z, 1),
                  "lamp: type %u", m->type);
            break;
        case 1:
            CHECK(m->type == RC_MAT_DIELECTRIC && near(m->param, 1.33f) && near(m->color.x, 1),
                  "glass: type %u ior %g", m->type, m->param);
            break;
        case 2:
            CHECK(m->type == RC_MAT_PBR && m->metallic == 1.0f && near(m->color.y, 0.8f) &&
                      near(m->roughness, sqrtf(0.1f)),
                  "gold: type %u roughness %g (want sqrt(sqrt(2 / 200)))", m->type, m->roughness);
            break;
        case 3: {
            CHECK(m->type == RC_MAT_LAMBERTIAN && near(m->color.x, 0.5f) && near(m->color.y, 1),
                  "wood: type %u colour %g %g %g", m->type, m->color.x, m->color.y, m->color.z);
            const rc_texture *t =
                m->tex_base ? &s.textures.textures[m->tex_base - 1] : s.textures.textures;
            CHECK(m->tex_base != 0 && t->srgb == 1 && t->width[0] == 2 && t->height[0] == 1 &&
                      t->filter == RC_FILTER_TRILINEAR && t->wrap_s == RC_WRAP_REPEAT,
                  "wood: map_Kd as the base colour texture (slot %u)", m->tex_base);
            if (m->tex_base) {
                /* the PNG's first pixel, as written (its mean, once the colour, no longer) */
                uint32_t t0 = s.textures.texels[t->base];
                CHECK((t0 & 255u) == 255u && ((t0 >> 8) & 255u) == 128u, "texel %08x", t0);
                (void)g128;
            }
            break;
        }
        default:
            CHECK(m->type == RC_MAT_LAMBERTIAN && near(m->color.x, 0.8f), "default: type %u",
                  m->type);
        }
    }
    CHECK(seen == 31, "triangles seen: %x", seen);
    rc_scene_free(&s);

    /* a JSON scene's mesh: the file's materials without "material", the one it names with */
    for (int named = 0; named < 2; named++) {
        snprintf(path, sizeof path, "%s/s%d.json", dir, named);
        f = fopen(path, "w");
        CHECK(f != NULL, "cannot write %s", path);
        if (!f) return;
        fprintf(f,
                "{\"camera\": {\"look_from\": [0, 0, 9], \"look_at\": [0, 0, 0]},"
                " \"meshes\": [{\"file\": \"m.obj\"%s}]}\n",
                named ? ", \"material\": {\"type\": \"metal\", \"albedo\": [1, 1, 1]}" : "");
        fclose(f);
        CHECK(rc_scene_load_max(path, 256, &s, &err) == 0, "%s", err.msg);
        if (err.msg[0]) return;
        int types = 0;
        for (size_t i = 0; i < s.num_prims; i++)
            types |= 1 << s.materials[rc_prim_material(rc_scene_prim_at(&s, i))].type;
        if (named)
            CHECK(types == 1 << RC_MAT_METAL && s.num_materials == 1, "named: types %x", types);
        else
            CHECK(types == (1 << RC_MAT_LAMBERTIAN | 1 << RC_MAT_DIELECTRIC | 1 << RC_MAT_EMISSIVE |
                            1 << RC_MAT_PBR) &&
                      s.num_prims == 5,
                  "the file's materials: types %x", types);
        rc_scene_free(&s);
    }

    /* a typo in usemtl names its line */
    snprintf(obj, sizeof obj, "%s/typo.obj", dir);
    write_text(obj, "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl gld\nf 1 2 3\n");
    char want[700];
    snprintf(want, sizeof want, "%s:5: usemtl 'gld': no such material in the mtllib files above",
             obj);
    CHECK(rc_scene_load_max(obj, 256, &s, &err) != 0 && strcmp(err.msg, want) == 0, "typo: '%s'",
          err.msg);
    /* usemtl without any mtllib (exporters write `usemtl Default`): the grey default */
    write_text(obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Default\nf 1 2 3\nusemtl Other\n"
                    "f 1 3 2\n");
    int loaded = rc_scene_load_max(obj, 256, &s, &err) == 0;
    CHECK(loaded, "usemtl without mtllib: '%s'", err.msg);
    if (loaded) {
        CHECK(s.num_prims == 2 && s.num_materials == 1 &&
                  s.materials[0].type == RC_MAT_LAMBERTIAN && near(s.materials[0].color.x, 0.8f),
              "usemtl without mtllib: %zu prims, %zu materials", s.num_prims, s.num_materials);
        rc_scene_free(&s);
    }
    /* a missing MTL file, a path out of the folder */
    write_text(obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nmtllib none.mtl\nf 1 2 3\n");
    snprintf(want, sizeof want, "%s:4: mtllib: %s/none.mtl: cannot open: ", obj, dir);
    CHECK(rc_scene_load_max(obj, 256, &s, &err) != 0 && strncmp(err.msg, want, strlen(want)) == 0,
          "missing mtl: '%s'", err.msg);
    write_text(obj, "mtllib ../a.mtl\n");
    snprintf(want, sizeof want,
             "%s:1: mtllib '../a.mtl': paths leaving the file's folder are refused", obj);
    CHECK(rc_scene_load_max(obj, 256, &s, &err) != 0 && strcmp(err.msg, want) == 0,
          "mtllib ..: '%s'", err.msg);
    /* a missing map file, and a FIFO refused at once */
    snprintf(path, sizeof path, "%s/c.mtl", dir);
    write_text(path, "newmtl x\nmap_Kd nothere.png\nnewmtl y\nmap_Kd fifo.png\n");
    write_text(obj, "mtllib c.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl x\nf 1 2 3\n");
    snprintf(want, sizeof want, "%s:2: map_Kd: ", path);
    CHECK(rc_scene_load_max(obj, 256, &s, &err) != 0 && strncmp(err.msg, want, strlen(want)) == 0 &&
              strstr(err.msg, "nothere.png"),
          "missing map: '%s'", err.msg);
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/fifo.png", dir);
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
    write_text(obj, "mtllib c.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl y\nf 1 2 3\n");
    snprintf(want, sizeof want, "%s:4: map_Kd: ", path);
    CHECK(rc_scene_load_max(obj, 256, &s, &err) != 0 && strncmp(err.msg, want, strlen(want)) == 0 &&
              strstr(err.msg, "not a regular file"),
          "FIFO map: '%s'", err.msg);
    unlink(fifo);
    /* from memory there is no folder: mtllib is refused, usemtl of nothing too */
    rc_mesh mesh;
    CHECK(rc_obj_parse_mtl("t.obj", NULL, 1000, "mtllib a.mtl\n", 13, &mesh, &err) != 0 &&
              strcmp(err.msg,
                     "t.obj:1: mtllib: MTL files are not read here (an OBJ from memory)") == 0,
          "mtllib from memory: '%s'", err.msg);
    /* the reader without materials ignores both, as it always did */
    const char *plain = "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl zz\nf 1 2 3\n";
    CHECK(rc_obj_parse("t.obj", plain, strlen(plain), &mesh, &err) == 0 && !mesh.tri_m,
          "rc_obj_parse: '%s'", err.msg);
    rc_mesh_free(&mesh);
}

/* The MTL rules beyond the four models: a highlight (Ks, Ns) and the PBR extension (Pm, Pr) as
 * the metallic-roughness model, rough tinted glass, an emitter that also reflects, a normal
 * map from `norm` (linear) beside a bump map that is not one (ignored), map_d as the base
 * texture's alpha (the same file, or a grey mask merged into a copy of map_Kd). */
static void mtl_rules(const char *dir) {
    char path[512], obj[512];
    snprintf(path, sizeof path, "%s/r.mtl", dir);
    CHECK(write_text(path, "newmtl shiny\nKd 0.5 0.5 0.5\nKs 0.5 0.5 0.5\nNs 98\n"
                           "newmtl pbr\nKd 0.2 0.2 0.2\nPm 1\nPr 0.4\n"
                           "newmtl frost\nNi 1.5\nd 0.5\nPr 0.3\nTf 0.9 0.8 0.7\n"
                           "newmtl glow\nKd 0.5 0.5 0.5\nKe 2 2 2\n"
                           "newmtl leaf\nmap_Kd sub/tex.png\nmap_d sub/tex.png\nnorm sub/tex.png\n"
                           "newmtl bumpy\nbump sub/tex.png\n"
                           "newmtl masked\nmap_Kd sub/tex.png\nmap_d mask.png\n") == 0,
          "cannot write %s", path);
    snprintf(path, sizeof path, "%s/mask.png", dir);
    FILE *f = fopen(path, "wb");
    const unsigned char grey[6] = {0, 0, 0, 255, 255, 255};
    CHECK(f && rc_png_write(f, grey, 2, 1, 1) == 0, "cannot write %s", path);
    if (f) fclose(f);
    static const char *const names[] = {"shiny", "pbr", "frost", "glow", "leaf", "bumpy", "masked"};
    char text[2048];
    size_t n = (size_t)snprintf(text, sizeof text, "mtllib r.mtl\n");
    for (int i = 0; i < 7; i++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "v %d 0 0\nv %d 0 0\nv %d 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl %s\n"
                              "f -3/-3 -2/-2 -1/-1\n",
                              4 * i, 4 * i + 1, 4 * i, names[i]);
    snprintf(obj, sizeof obj, "%s/r.obj", dir);
    CHECK(write_text(obj, text) == 0, "cannot write %s", obj);
    rc_scene s;
    rc_error err = {{0}};
    CHECK(rc_scene_load_max(obj, 256, &s, &err) == 0, "%s", err.msg);
    if (err.msg[0]) return;
    CHECK(s.num_prims == 7, "%zu primitives", s.num_prims);
    int seen = 0;
    for (size_t i = 0; i < s.num_prims; i++) {
        const rc_prim *p = rc_scene_prim_at(&s, i);
        const rc_material *m = &s.materials[rc_prim_material(p)];
        int which = (int)lroundf(p->p.x / 4.0f);
        seen |= 1 << which;
        const rc_texture *tb = m->tex_base ? &s.textures.textures[m->tex_base - 1] : NULL;
        const rc_texture *tn = m->tex_normal ? &s.textures.textures[m->tex_normal - 1] : NULL;
        switch (which) {
        case 0:
            CHECK(m->type == RC_MAT_PBR && m->metallic == 0.0f && near(m->color.x, 0.5f) &&
                      near(m->roughness, sqrtf(sqrtf(2.0f / 100.0f))),
                  "shiny: type %u roughness %g", m->type, m->roughness);
            break;
        case 1:
            CHECK(m->type == RC_MAT_PBR && m->metallic == 1.0f && near(m->roughness, 0.4f) &&
                      near(m->color.x, 0.2f),
                  "pbr: type %u", m->type);
            break;
        case 2:
            CHECK(m->type == RC_MAT_ROUGH_DIELECTRIC && near(m->roughness, 0.3f) &&
                      near(m->ior, 1.5f) && near(m->color.x, 0.9f) && near(m->color.z, 0.7f),
                  "frost: type %u", m->type);
            break;
        case 3:
            CHECK(m->type == RC_MAT_LAMBERTIAN && near(m->color.x, 0.5f) &&
                      near(m->emission.y, 2.0f),
                  "glow: type %u emission %g", m->type, m->emission.y);
            break;
        case 4:
            CHECK(m->alpha_cutoff == 0.5f && tb && tb->srgb == 1 && tn && tn->srgb == 0 &&
                      tb->base != tn->base,
                  "leaf: cutoff %g, base %u, normal %u", m->alpha_cutoff, m->tex_base,
                  m->tex_normal);
            break;
        case 5:
            CHECK(m->tex_normal == 0 && m->tex_base == 0, "bumpy: a height map is no normal map");
            break;
        case 6:
            CHECK(m->alpha_cutoff == 0.5f && tb && tb->srgb == 1, "masked: slot %u", m->tex_base);
            if (tb) {
                uint32_t t0 = s.textures.texels[tb->base], t1 = s.textures.texels[tb->base + 1];
                CHECK((t0 & 255u) == 255u && (t0 >> 24) == 0u && (t1 >> 24) == 255u,
                      "masked: map_Kd's colour, the mask's alpha: %08x %08x", t0, t1);
            }
            break;
        }
    }
    CHECK(seen == 127, "triangles seen: %x", seen);
    /* the OBJ's v grows upwards: the uvs go to the scene as 1 - v */
    CHECK(s.uvs && s.uvs[1] == 1.0f && s.uvs[2 * 2 + 1] == 0.0f, "uv v flipped");
    rc_scene_free(&s);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_mtl DIR\n");
        return 2;
    }
    cases();
    values();
    corruptions();
    obj_scene(argv[1]);
    mtl_rules(argv[1]);
    return test_finish("test_mtl");
}
