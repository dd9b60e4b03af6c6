/* gen_demo: writes the demo scene as one glTF 2.0 binary file (.glb): a gallery of objects on a
 * textured floor, each object with a material of its own, made here from nothing but maths, so
 * that the repository holds no third-party model or image.
 *
 *   gen_demo [--out FILE.glb] [--materials N] [--detail K]
 *
 * The objects stand in a grid, one per material (--materials, default 32, at most 1024): four
 * shapes (torus, sphere, (2,3) torus knot, rounded box) share their vertex data, each object is a
 * mesh of its own that names the shape's accessors with its own material. --detail scales the
 * tessellation: each shape has about 2048 K^2 triangles (default K = 4: 32768, so 32 objects
 * hold 1.05 M triangles). The materials cycle through what their shading does differently:
 * rough and smooth metals, plastics, clear and frosted glass (KHR_materials_transmission,
 * KHR_materials_ior), a base-colour texture, a normal map (with tangents), emission
 * (KHR_materials_emissive_strength), a metallic-roughness texture, vertex colours (COLOR_0) and
 * a texture on a second UV set (TEXCOORD_1). Beside them stand an alpha-masked screen
 * (alphaMode MASK) and a floor whose checker texture repeats through KHR_texture_transform. The
 * file has a perspective camera. The environment light is a file of its own (tools/gen_env).
 * Textures are PNG (stb_image_write, libstb-dev) in the binary chunk. */
#include <cjson/cJSON.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBIW_ASSERT(x) ((void)0)
#include <stb_image_write.h>

static const double k_pi = 3.14159265358979323846;

/* ---- the binary chunk: bufferViews appended one after another, each 4-byte aligned ---- */

typedef struct bin {
    unsigned char *data;
    size_t len, cap;
    cJSON *views; /* the bufferViews array */
} bin;

static void die(const char *what) {
    fprintf(stderr, "gen_demo: %s\n", what);
    exit(1);
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n);
    if (!q) die("out of memory");
    return q;
}

/* Append n bytes as a new bufferView (target 0: none); returns its index. */
static int bin_view(bin *b, const void *data, size_t n, int target) {
    size_t at = (b->len + 3) & ~(size_t)3;
    if (at + n > b->cap) {
        b->cap = (at + n) * 2;
        b->data = xrealloc(b->data, b->cap);
    }
    memset(b->data + b->len, 0, at - b->len);
    memcpy(b->data + at, data, n);
    b->len = at + n;
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "buffer", 0);
    cJSON_AddNumberToObject(v, "byteOffset", (double)at);
    cJSON_AddNumberToObject(v, "byteLength", (double)n);
    if (target) cJSON_AddNumberToObject(v, "target", target);
    cJSON_AddItemToArray(b->views, v);
    return cJSON_GetArraySize(b->views) - 1;
}

/* ---- accessors ---- */

enum { GL_FLOAT = 5126, GL_UNSIGNED_INT = 5125, GL_ARRAY_BUFFER = 34962, GL_ELEMENT = 34963 };

static int add_accessor(cJSON *accessors, int view, int component, size_t count, const char *type,
                        const float *lo, const float *hi, int ncomp) {
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", view);
    cJSON_AddNumberToObject(a, "componentType", component);
    cJSON_AddNumberToObject(a, "count", (double)count);
    cJSON_AddStringToObject(a, "type", type);
    if (lo && hi) {
        cJSON *mn = cJSON_CreateArray(), *mx = cJSON_CreateArray();
        for (int i = 0; i < ncomp; i++) {
            cJSON_AddItemToArray(mn, cJSON_CreateNumber(lo[i]));
            cJSON_AddItemToArray(mx, cJSON_CreateNumber(hi[i]));
        }
        cJSON_AddItemToObject(a, "min", mn);
        cJSON_AddItemToObject(a, "max", mx);
    }
    cJSON_AddItemToArray(accessors, a);
    return cJSON_GetArraySize(accessors) - 1;
}

/* ---- shapes: a (u, v) grid over a parametric surface, with normals, tangents, two UV sets ---- */

typedef struct shape {
    size_t nv, nt;
    float *pos, *nor, *tan, *uv0, *uv1, *col;
    uint32_t *idx;
    int acc_pos, acc_nor, acc_tan, acc_uv0, acc_uv1, acc_col, acc_idx;
} shape;

typedef void (*surface_fn)(double u, double v, double p[3]);

static void torus(double u, double v, double p[3]) {
    double a = 2.0 * k_pi * u, b = 2.0 * k_pi * v, r = 0.7 + 0.3 * cos(b);
    p[0] = r * cos(a);
    p[1] = 0.3 * sin(b);
    p[2] = -r * sin(a);
}

static void sphere(double u, double v, double p[3]) {
    double a = 2.0 * k_pi * u, b = k_pi * v;
    p[0] = sin(b) * cos(a);
    p[1] = -cos(b);
    p[2] = -sin(b) * sin(a);
}

/* The (2, 3) torus knot's curve and a tube of radius 0.12 around it (frame by differences). */
static void knot_curve(double t, double c[3]) {
    double r = 0.55 + 0.25 * cos(3.0 * t);
    c[0] = r * cos(2.0 * t);
    c[1] = 0.25 * sin(3.0 * t);
    c[2] = -r * sin(2.0 * t);
}

static void normalize3(double v[3]) {
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0)
        for (int i = 0; i < 3; i++) v[i] /= l;
}

static void cross3(const double a[3], const double b[3], double c[3]) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void knot(double u, double v, double p[3]) {
    const double h = 1e-4;
    double t = 2.0 * k_pi * u, c[3], a[3], b[3], tg[3], nr[3], bn[3];
    knot_curve(t, c);
    knot_curve(t - h, a);
    knot_curve(t + h, b);
    for (int i = 0; i < 3; i++) {
        tg[i] = b[i] - a[i];
        nr[i] = b[i] - 2.0 * c[i] + a[i];
    }
    normalize3(tg);
    double d = nr[0] * tg[0] + nr[1] * tg[1] + nr[2] * tg[2];
    for (int i = 0; i < 3; i++) nr[i] -= d * tg[i];
    normalize3(nr);
    cross3(tg, nr, bn);
    double s = 2.0 * k_pi * v;
    for (int i = 0; i < 3; i++) p[i] = c[i] + 0.12 * (cos(s) * nr[i] + sin(s) * bn[i]);
}

/* A rounded box: the sphere's directions pushed towards a cube (superellipsoid, exponent 0.3). */
static void rounded_box(double u, double v, double p[3]) {
    sphere(u, v, p);
    for (int i = 0; i < 3; i++) p[i] = copysign(pow(fabs(p[i]), 0.3), p[i]) * 0.8;
}

/* Normal and tangent from the surface's partial derivatives (central differences); at a pole
 * the u derivative vanishes and a neighbouring v row gives the tangent. */
static void frame_at(surface_fn f, double u, double v, double n[3], double t[3]) {
    const double h = 1e-5;
    double pu0[3], pu1[3], pv0[3], pv1[3], du[3], dv[3];
    double vv = v < h ? h : v > 1.0 - h ? 1.0 - h : v;
    f(u - h, vv, pu0);
    f(u + h, vv, pu1);
    f(u, vv - h, pv0);
    f(u, vv + h, pv1);
    for (int i = 0; i < 3; i++) {
        du[i] = pu1[i] - pu0[i];
        dv[i] = pv1[i] - pv0[i];
    }
    normalize3(du);
    normalize3(dv);
    cross3(du, dv, n);
    normalize3(n);
    memcpy(t, du, sizeof du);
}

static void make_shape(shape *s, surface_fn f, int nu, int nv_, int flip) {
    s->nv = (size_t)(nu + 1) * (size_t)(nv_ + 1);
    s->nt = 2 * (size_t)nu * (size_t)nv_;
    s->pos = xrealloc(NULL, s->nv * 3 * sizeof(float));
    s->nor = xrealloc(NULL, s->nv * 3 * sizeof(float));
    s->tan = xrealloc(NULL, s->nv * 4 * sizeof(float));
    s->uv0 = xrealloc(NULL, s->nv * 2 * sizeof(float));
    s->uv1 = xrealloc(NULL, s->nv * 2 * sizeof(float));
    s->col = xrealloc(NULL, s->nv * 4 * sizeof(float));
    s->idx = xrealloc(NULL, s->nt * 3 * sizeof(uint32_t));
    size_t k = 0;
    for (int j = 0; j <= nv_; j++)
        for (int i = 0; i <= nu; i++, k++) {
            double u = (double)i / nu, v = (double)j / nv_, p[3], n[3], t[3];
            f(u, v, p);
            frame_at(f, u, v, n, t);
            for (int c = 0; c < 3; c++) {
                s->pos[3 * k + c] = (float)p[c];
                s->nor[3 * k + c] = (float)(flip ? -n[c] : n[c]);
                s->tan[4 * k + c] = (float)t[c];
            }
            s->tan[4 * k + 3] = flip ? -1.0f : 1.0f;
            s->uv0[2 * k] = (float)(u * 4.0);
            s->uv0[2 * k + 1] = (float)v;
            s->uv1[2 * k] = (float)u;
            s->uv1[2 * k + 1] = (float)v;
            /* vertex colours: a hue that goes round with u */
            for (int c = 0; c < 3; c++)
                s->col[4 * k + c] = (float)(0.5 + 0.5 * cos(2.0 * k_pi * (u + c / 3.0)));
            s->col[4 * k + 3] = 1.0f;
        }
    k = 0;
    for (int j = 0; j < nv_; j++)
        for (int i = 0; i < nu; i++) {
            uint32_t a = (uint32_t)(j * (nu + 1) + i), b = a + 1, c = a + (uint32_t)nu + 1,
                     d = c + 1;
            uint32_t tri[6] = {a, b, d, a, d, c};
            if (flip) {
                tri[1] = d, tri[2] = b, tri[4] = c, tri[5] = d;
            }
            memcpy(s->idx + k, tri, sizeof tri);
            k += 6;
        }
}

static void upload_shape(shape *s, bin *b, cJSON *accessors) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < s->nv; i++)
        for (int c = 0; c < 3; c++) {
            lo[c] = fminf(lo[c], s->pos[3 * i + c]);
            hi[c] = fmaxf(hi[c], s->pos[3 * i + c]);
        }
    size_t nv = s->nv;
    s->acc_pos = add_accessor(accessors, bin_view(b, s->pos, nv * 12, GL_ARRAY_BUFFER), GL_FLOAT,
                              nv, "VEC3", lo, hi, 3);
    s->acc_nor = add_accessor(accessors, bin_view(b, s->nor, nv * 12, GL_ARRAY_BUFFER), GL_FLOAT,
                              nv, "VEC3", NULL, NULL, 0);
    s->acc_tan = add_accessor(accessors, bin_view(b, s->tan, nv * 16, GL_ARRAY_BUFFER), GL_FLOAT,
                              nv, "VEC4", NULL, NULL, 0);
    s->acc_uv0 = add_accessor(accessors, bin_view(b, s->uv0, nv * 8, GL_ARRAY_BUFFER), GL_FLOAT, nv,
                              "VEC2", NULL, NULL, 0);
    s->acc_uv1 = add_accessor(accessors, bin_view(b, s->uv1, nv * 8, GL_ARRAY_BUFFER), GL_FLOAT, nv,
                              "VEC2", NULL, NULL, 0);
    s->acc_col = add_accessor(accessors, bin_view(b, s->col, nv * 16, GL_ARRAY_BUFFER), GL_FLOAT,
                              nv, "VEC4", NULL, NULL, 0);
    s->acc_idx = add_accessor(accessors, bin_view(b, s->idx, s->nt * 12, GL_ELEMENT),
                              GL_UNSIGNED_INT, s->nt * 3, "SCALAR", NULL, NULL, 0);
}

static void free_shape(shape *s) {
    free(s->pos);
    free(s->nor);
    free(s->tan);
    free(s->uv0);
    free(s->uv1);
    free(s->col);
    free(s->idx);
}

/* ---- textures: procedural images, PNG-encoded into the binary chunk ---- */

typedef struct png_buf {
    unsigned char *data;
    size_t len;
} png_buf;

static void png_append(void *ctx, void *data, int size) {
    png_buf *p = ctx;
    p->data = xrealloc(p->data, p->len + (size_t)size);
    memcpy(p->data + p->len, data, (size_t)size);
    p->len += (size_t)size;
}

enum { TEX_CHECKER, TEX_TILES_NORMAL, TEX_MR, TEX_EMISSIVE, TEX_MASK, TEX_COUNT };

static unsigned char to8(double v) {
    v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
    return (unsigned char)lrint(v * 255.0);
}

/* Texel (x, y) of w x h of texture `kind` as RGBA in [0, 1]. */
static void texel(int kind, int x, int y, int w, int h, double c[4]) {
    double u = (x + 0.5) / w, v = (y + 0.5) / h;
    c[3] = 1.0;
    switch (kind) {
    case TEX_CHECKER: { /* sRGB checker with a thin grout */
        int cx = (int)(u * 8.0), cy = (int)(v * 8.0);
        double g = ((cx + cy) & 1) ? 0.8 : 0.25;
        double fu = u * 8.0 - cx, fv = v * 8.0 - cy;
        if (fu < 0.03 || fv < 0.03) g = 0.05;
        c[0] = g, c[1] = g * 0.95, c[2] = g * 0.9;
        break;
    }
    case TEX_TILES_NORMAL: { /* tangent-space normals of round bumps on a 6 x 6 grid */
        double fu = u * 6.0 - floor(u * 6.0) - 0.5, fv = v * 6.0 - floor(v * 6.0) - 0.5;
        double r2 = fu * fu + fv * fv, nx = 0.0, ny = 0.0;
        if (r2 < 0.16) {
            nx = fu * 2.0;
            ny = fv * 2.0;
        }
        double nz = sqrt(fmax(0.0, 1.0 - nx * nx - ny * ny));
        c[0] = 0.5 + 0.5 * nx, c[1] = 0.5 + 0.5 * ny, c[2] = 0.5 + 0.5 * nz;
        break;
    }
    case TEX_MR: { /* glTF: green = roughness, blue = metallic; stripes of each */
        double s = 0.5 + 0.5 * sin(u * 2.0 * k_pi * 10.0);
        c[0] = 1.0, c[1] = 0.1 + 0.8 * s, c[2] = v > 0.5 ? 1.0 : 0.0;
        break;
    }
    case TEX_EMISSIVE: { /* glowing rings */
        double r = sqrt((u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5));
        double g = fmod(r * 10.0, 1.0) < 0.3 ? 1.0 : 0.0;
        c[0] = g, c[1] = g * 0.6, c[2] = g * 0.2;
        break;
    }
    default: { /* TEX_MASK: a leafy screen, opaque where a disk of the grid covers it */
        double fu = u * 5.0 - floor(u * 5.0) - 0.5, fv = v * 5.0 - floor(v * 5.0) - 0.5;
        int in = fu * fu + fv * fv < 0.2;
        c[0] = 0.2, c[1] = 0.6, c[2] = 0.25, c[3] = in ? 1.0 : 0.0;
        break;
    }
    }
}

/* The PNG of a texture as an image of the file; returns its index in `images`. */
static int add_image(cJSON *images, bin *b, int kind, int size) {
    unsigned char *px = xrealloc(NULL, (size_t)size * (size_t)size * 4);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            double c[4];
            texel(kind, x, y, size, size, c);
            for (int k = 0; k < 4; k++)
                px[((size_t)y * (size_t)size + (size_t)x) * 4 + k] = to8(c[k]);
        }
    png_buf p = {NULL, 0};
    if (!stbi_write_png_to_func(png_append, &p, size, size, 4, px, size * 4))
        die("cannot encode a PNG texture");
    free(px);
    cJSON *im = cJSON_CreateObject();
    cJSON_AddNumberToObject(im, "bufferView", bin_view(b, p.data, p.len, 0));
    cJSON_AddStringToObject(im, "mimeType", "image/png");
    free(p.data);
    cJSON_AddItemToArray(images, im);
    return cJSON_GetArraySize(images) - 1;
}

/* ---- materials ---- */

static cJSON *tex_ref(int texture, int tex_coord) {
    cJSON *t = cJSON_CreateObject();
    cJSON_AddNumberToObject(t, "index", texture);
    if (tex_coord) cJSON_AddNumberToObject(t, "texCoord", tex_coord);
    return t;
}

static cJSON *rgba(double r, double g, double b, double a) {
    const double v[4] = {r, g, b, a};
    return cJSON_CreateDoubleArray(v, 4);
}

/* A colour on the hue circle, for materials that differ only in their colour. */
static void hue(double h, double c[3]) {
    for (int k = 0; k < 3; k++) c[k] = 0.5 + 0.45 * cos(2.0 * k_pi * (h + k / 3.0));
}

enum {
    KIND_METAL,
    KIND_PLASTIC,
    KIND_GLASS,
    KIND_TEXTURED,
    KIND_NORMAL,
    KIND_EMISSIVE,
    KIND_MR_TEXTURE,
    KIND_VERTEX_COLOR,
    KIND_UV1,
    KIND_COUNT
};
static const char *const k_kind_names[KIND_COUNT] = {"metal",       "plastic",       "glass",
                                                     "textured",    "normal_mapped", "emissive",
                                                     "mr_textured", "vertex_colour", "second_uv"};

/* Material i: its kind cycles, its roughness, colour and IOR vary with i. `tex` holds the
 * texture indices by TEX_*. Sets *kind. */
static cJSON *make_material(int i, int n, const int tex[TEX_COUNT], int *kind, cJSON *used_ext) {
    static const double metals[4][3] = {
        {1.0, 0.78, 0.34}, {0.95, 0.64, 0.54}, {0.97, 0.96, 0.91}, {0.56, 0.57, 0.58}};
    int k = i % KIND_COUNT, round = i / KIND_COUNT;
    double rough = fmod(0.05 + 0.37 * round + 0.13 * k, 0.9) + 0.02, c[3];
    hue((double)i / n, c);
    *kind = k;
    cJSON *m = cJSON_CreateObject(), *pbr = cJSON_CreateObject(), *ext = NULL;
    char name[64];
    snprintf(name, sizeof name, "%s_%d", k_kind_names[k], i);
    cJSON_AddStringToObject(m, "name", name);
    cJSON_AddItemToObject(m, "pbrMetallicRoughness", pbr);
    double metallic = 0.0;
    switch (k) {
    case KIND_METAL: {
        const double *mc = metals[round % 4];
        cJSON_AddItemToObject(pbr, "baseColorFactor", rgba(mc[0], mc[1], mc[2], 1.0));
        metallic = 1.0;
        rough = (round & 1) ? 0.05 : rough; /* smooth and rough ones */
        break;
    }
    case KIND_GLASS: {
        cJSON_AddItemToObject(pbr, "baseColorFactor",
                              rgba(0.9 + 0.1 * c[0], 0.9 + 0.1 * c[1], 0.9 + 0.1 * c[2], 1.0));
        ext = cJSON_CreateObject();
        cJSON *tr = cJSON_CreateObject(), *ior = cJSON_CreateObject();
        cJSON_AddNumberToObject(tr, "transmissionFactor", 1.0);
        cJSON_AddNumberToObject(ior, "ior", round & 1 ? 1.33 : 1.5);
        cJSON_AddItemToObject(ext, "KHR_materials_transmission", tr);
        cJSON_AddItemToObject(ext, "KHR_materials_ior", ior);
        rough = (round & 1) ? 0.25 : 0.0; /* frosted and clear */
        break;
    }
    case KIND_TEXTURED:
        cJSON_AddItemToObject(pbr, "baseColorTexture", tex_ref(tex[TEX_CHECKER], 0));
        break;
    case KIND_NORMAL: {
        cJSON_AddItemToObject(pbr, "baseColorFactor", rgba(c[0], c[1], c[2], 1.0));
        cJSON *nt = tex_ref(tex[TEX_TILES_NORMAL], 0);
        cJSON_AddNumberToObject(nt, "scale", 1.0);
        cJSON_AddItemToObject(m, "normalTexture", nt);
        metallic = round & 1;
        break;
    }
    case KIND_EMISSIVE: {
        cJSON_AddItemToObject(pbr, "baseColorFactor", rgba(0.05, 0.05, 0.05, 1.0));
        const double e[3] = {c[0], c[1], c[2]};
        cJSON_AddItemToObject(m, "emissiveFactor", cJSON_CreateDoubleArray(e, 3));
        cJSON_AddItemToObject(m, "emissiveTexture", tex_ref(tex[TEX_EMISSIVE], 0));
        ext = cJSON_CreateObject();
        cJSON *es = cJSON_CreateObject();
        cJSON_AddNumberToObject(es, "emissiveStrength", 8.0);
        cJSON_AddItemToObject(ext, "KHR_materials_emissive_strength", es);
        break;
    }
    case KIND_MR_TEXTURE:
        cJSON_AddItemToObject(pbr, "baseColorFactor", rgba(c[0], c[1], c[2], 1.0));
        cJSON_AddItemToObject(pbr, "metallicRoughnessTexture", tex_ref(tex[TEX_MR], 0));
        metallic = 1.0;
        rough = 1.0; /* the texture's green channel is the roughness */
        break;
    case KIND_VERTEX_COLOR:
        cJSON_AddItemToObject(pbr, "baseColorFactor", rgba(1.0, 1.0, 1.0, 1.0));
        break;
    case KIND_UV1:
        cJSON_AddItemToObject(pbr, "baseColorFactor", rgba(0.1, 0.1, 0.1, 1.0));
        cJSON_AddItemToObject(m, "emissiveTexture", tex_ref(tex[TEX_EMISSIVE], 1));
        cJSON_AddItemToObject(m, "emissiveFactor", cJSON_CreateDoubleArray((double[]){1, 1, 1}, 3));
        break;
    default: /* KIND_PLASTIC */
        cJSON_AddItemToObject(pbr, "baseColorFactor", rgba(c[0], c[1], c[2], 1.0));
        break;
    }
    cJSON_AddNumberToObject(pbr, "metallicFactor", metallic);
    cJSON_AddNumberToObject(pbr, "roughnessFactor", rough);
    if (ext) {
        for (cJSON *e = ext->child; e; e = e->next)
            if (!cJSON_GetObjectItemCaseSensitive(used_ext, e->string))
                cJSON_AddItemToObject(used_ext, e->string, cJSON_CreateTrue());
        cJSON_AddItemToObject(m, "extensions", ext);
    }
    return m;
}

/* ---- the file ---- */

typedef struct args {
    const char *out;
    int materials, detail;
} args;

static int parse_int(const char *s, int lo, int hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}

static void usage(FILE *f) {
    fprintf(f, "usage: gen_demo [--out FILE.glb] [--materials N] [--detail K]\n"
               "  --out FILE      the .glb to write (default demo.glb)\n"
               "  --materials N   objects, one material each, 1..1024 (default 32)\n"
               "  --detail K      tessellation: about 2048 K^2 triangles an object, 1..32 "
               "(default 4)\n");
}

static int parse_args(int argc, char **argv, args *a) {
    a->out = "demo.glb";
    a->materials = 32;
    a->detail = 4;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            usage(stdout);
            exit(0);
        }
        int bad = !v;
        if (!bad && !strcmp(o, "--out"))
            a->out = v;
        else if (!bad && !strcmp(o, "--materials"))
            bad = parse_int(v, 1, 1024, &a->materials) != 0;
        else if (!bad && !strcmp(o, "--detail"))
            bad = parse_int(v, 1, 32, &a->detail) != 0;
        else {
            fprintf(stderr, "gen_demo: unknown option '%s' (see --help)\n", o);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "gen_demo: %s needs %s\n", o,
                    !strcmp(o, "--out") ? "a file name" : "a whole number in its range (--help)");
            return -1;
        }
        i++;
    }
    return 0;
}

static cJSON *node_at(int mesh, double x, double y, double z, double s) {
    cJSON *n = cJSON_CreateObject();
    cJSON_AddNumberToObject(n, "mesh", mesh);
    const double t[3] = {x, y, z}, sc[3] = {s, s, s};
    cJSON_AddItemToObject(n, "translation", cJSON_CreateDoubleArray(t, 3));
    cJSON_AddItemToObject(n, "scale", cJSON_CreateDoubleArray(sc, 3));
    return n;
}

/* A mesh of one primitive over the shape's accessors with material `mat`. */
static cJSON *mesh_of(const shape *s, int mat, int kind) {
    cJSON *mesh = cJSON_CreateObject(), *prims = cJSON_CreateArray(), *p = cJSON_CreateObject(),
          *at = cJSON_CreateObject();
    cJSON_AddNumberToObject(at, "POSITION", s->acc_pos);
    cJSON_AddNumberToObject(at, "NORMAL", s->acc_nor);
    cJSON_AddNumberToObject(at, "TEXCOORD_0", s->acc_uv0);
    if (kind == KIND_NORMAL) cJSON_AddNumberToObject(at, "TANGENT", s->acc_tan);
    if (kind == KIND_UV1) cJSON_AddNumberToObject(at, "TEXCOORD_1", s->acc_uv1);
    if (kind == KIND_VERTEX_COLOR) cJSON_AddNumberToObject(at, "COLOR_0", s->acc_col);
    cJSON_AddItemToObject(p, "attributes", at);
    cJSON_AddNumberToObject(p, "indices", s->acc_idx);
    cJSON_AddNumberToObject(p, "material", mat);
    cJSON_AddItemToArray(prims, p);
    cJSON_AddItemToObject(mesh, "primitives", prims);
    return mesh;
}

/* The glb: header, JSON chunk (padded with spaces), BIN chunk (padded with zeros); written to
 * FILE.tmp and renamed, so a reader never sees half a file. */
static int write_glb(const char *path, const char *json, const bin *b) {
    size_t jl = strlen(json), jp = (jl + 3) & ~(size_t)3, bp = (b->len + 3) & ~(size_t)3;
    size_t total = 12 + 8 + jp + 8 + bp;
    if (total > 0xffffffffu) die("the file would be over 4 GiB (--detail smaller)");
    size_t tl = strlen(path) + 5;
    char *tmp = xrealloc(NULL, tl);
    snprintf(tmp, tl, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "gen_demo: %s: cannot write: %s\n", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    uint32_t h[3] = {0x46546c67u, 2u, (uint32_t)total}, jc[2] = {(uint32_t)jp, 0x4e4f534au},
             bc[2] = {(uint32_t)bp, 0x004e4942u};
    static const char spaces[4] = {' ', ' ', ' ', ' '}, zeros[4] = {0, 0, 0, 0};
    int ok = fwrite(h, 4, 3, f) == 3 && fwrite(jc, 4, 2, f) == 2 && fwrite(json, 1, jl, f) == jl &&
             fwrite(spaces, 1, jp - jl, f) == jp - jl && fwrite(bc, 4, 2, f) == 2 &&
             fwrite(b->data, 1, b->len, f) == b->len &&
             fwrite(zeros, 1, bp - b->len, f) == bp - b->len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "gen_demo: %s: cannot write: %s\n", path, strerror(errno ? errno : EIO));
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int main(int argc, char **argv) {
    args a;
    if (parse_args(argc, argv, &a) != 0) return 2;
    cJSON *root = cJSON_CreateObject(), *asset = cJSON_CreateObject();
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "raycompact tools/gen_demo");
    cJSON_AddItemToObject(root, "asset", asset);
    cJSON *accessors = cJSON_AddArrayToObject(root, "accessors");
    cJSON *views = cJSON_AddArrayToObject(root, "bufferViews");
    cJSON *images = cJSON_AddArrayToObject(root, "images");
    cJSON *textures = cJSON_AddArrayToObject(root, "textures");
    cJSON *samplers = cJSON_AddArrayToObject(root, "samplers");
    cJSON *materials = cJSON_AddArrayToObject(root, "materials");
    cJSON *meshes = cJSON_AddArrayToObject(root, "meshes");
    cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
    cJSON *used_ext = cJSON_CreateObject();
    bin b = {NULL, 0, 0, views};

    /* samplers: 0 repeat with mip-maps, 1 clamped */
    cJSON *s0 = cJSON_CreateObject(), *s1 = cJSON_CreateObject();
    cJSON_AddNumberToObject(s0, "magFilter", 9729);
    cJSON_AddNumberToObject(s0, "minFilter", 9987);
    cJSON_AddNumberToObject(s1, "magFilter", 9729);
    cJSON_AddNumberToObject(s1, "minFilter", 9729);
    cJSON_AddNumberToObject(s1, "wrapS", 33071);
    cJSON_AddNumberToObject(s1, "wrapT", 33071);
    cJSON_AddItemToArray(samplers, s0);
    cJSON_AddItemToArray(samplers, s1);
    int tex[TEX_COUNT];
    for (int k = 0; k < TEX_COUNT; k++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "source",
                                add_image(images, &b, k, k == TEX_CHECKER ? 512 : 256));
        cJSON_AddNumberToObject(t, "sampler", k == TEX_MASK ? 1 : 0);
        cJSON_AddItemToArray(textures, t);
        tex[k] = k;
    }

    /* the four shapes */
    int d = a.detail;
    shape shapes[4];
    make_shape(&shapes[0], torus, 64 * d, 16 * d, 0);
    make_shape(&shapes[1], sphere, 64 * d, 16 * d, 1);
    make_shape(&shapes[2], knot, 128 * d, 8 * d, 0);
    make_shape(&shapes[3], rounded_box, 64 * d, 16 * d, 1);
    size_t triangles = 0;
    for (int s = 0; s < 4; s++) upload_shape(&shapes[s], &b, accessors);

    /* one object per material, in a grid on the floor */
    int cols = (int)ceil(sqrt(a.materials * 2.0)), rows = (a.materials + cols - 1) / cols;
    cJSON *scene_nodes = cJSON_CreateArray();
    for (int i = 0; i < a.materials; i++) {
        int kind;
        cJSON_AddItemToArray(materials, make_material(i, a.materials, tex, &kind, used_ext));
        const shape *s = &shapes[i % 4];
        cJSON_AddItemToArray(meshes, mesh_of(s, i, kind));
        int r = i / cols, c = i % cols;
        double x = (c - (cols - 1) * 0.5) * 2.2, z = -(r - (rows - 1) * 0.5) * 2.2;
        double lift = i % 4 == 2 ? 0.37 : i % 4 == 0 ? 0.3 : 0.8;
        cJSON_AddItemToArray(nodes, node_at(i, x, lift, z, 0.8));
        cJSON_AddItemToArray(scene_nodes, cJSON_CreateNumber(i));
        triangles += s->nt;
    }

    /* the floor: a large quad whose checker repeats 12 times (KHR_texture_transform) */
    const float fl[4 * 3] = {-20, 0, 20, 20, 0, 20, 20, 0, -20, -20, 0, -20};
    const float fn[4 * 3] = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
    const float fuv[4 * 2] = {0, 1, 1, 1, 1, 0, 0, 0};
    const uint32_t fi[6] = {0, 1, 2, 0, 2, 3};
    const float flo[3] = {-20, 0, -20}, fhi[3] = {20, 0, 20};
    cJSON *floor_mesh = cJSON_CreateObject(), *fprims = cJSON_CreateArray(),
          *fp = cJSON_CreateObject(), *fat = cJSON_CreateObject();
    cJSON_AddNumberToObject(fat, "POSITION",
                            add_accessor(accessors, bin_view(&b, fl, sizeof fl, GL_ARRAY_BUFFER),
                                         GL_FLOAT, 4, "VEC3", flo, fhi, 3));
    cJSON_AddNumberToObject(fat, "NORMAL",
                            add_accessor(accessors, bin_view(&b, fn, sizeof fn, GL_ARRAY_BUFFER),
                                         GL_FLOAT, 4, "VEC3", NULL, NULL, 0));
    int acc_fuv = add_accessor(accessors, bin_view(&b, fuv, sizeof fuv, GL_ARRAY_BUFFER), GL_FLOAT,
                               4, "VEC2", NULL, NULL, 0);
    cJSON_AddNumberToObject(fat, "TEXCOORD_0", acc_fuv);
    int acc_fi = add_accessor(accessors, bin_view(&b, fi, sizeof fi, GL_ELEMENT), GL_UNSIGNED_INT,
                              6, "SCALAR", NULL, NULL, 0);
    cJSON_AddItemToObject(fp, "attributes", fat);
    cJSON_AddNumberToObject(fp, "indices", acc_fi);
    cJSON_AddItemToArray(fprims, fp);
    cJSON_AddItemToObject(floor_mesh, "primitives", fprims);
    {
        cJSON *m = cJSON_CreateObject(), *pbr = cJSON_CreateObject(),
              *t = tex_ref(tex[TEX_CHECKER], 0);
        cJSON *ext = cJSON_CreateObject(), *tt = cJSON_CreateObject();
        const double sc[2] = {12, 12};
        cJSON_AddItemToObject(tt, "scale", cJSON_CreateDoubleArray(sc, 2));
        cJSON_AddItemToObject(ext, "KHR_texture_transform", tt);
        cJSON_AddItemToObject(t, "extensions", ext);
        cJSON_AddStringToObject(m, "name", "floor");
        cJSON_AddItemToObject(pbr, "baseColorTexture", t);
        cJSON_AddNumberToObject(pbr, "metallicFactor", 0.0);
        cJSON_AddNumberToObject(pbr, "roughnessFactor", 0.6);
        cJSON_AddItemToObject(m, "pbrMetallicRoughness", pbr);
        cJSON_AddItemToArray(materials, m);
        if (!cJSON_GetObjectItemCaseSensitive(used_ext, "KHR_texture_transform"))
            cJSON_AddItemToObject(used_ext, "KHR_texture_transform", cJSON_CreateTrue());
    }
    cJSON_AddNumberToObject(fp, "material", cJSON_GetArraySize(materials) - 1);
    cJSON_AddItemToArray(meshes, floor_mesh);
    cJSON *fnode = cJSON_CreateObject();
    cJSON_AddNumberToObject(fnode, "mesh", cJSON_GetArraySize(meshes) - 1);
    cJSON_AddItemToArray(nodes, fnode);
    cJSON_AddItemToArray(scene_nodes, cJSON_CreateNumber(cJSON_GetArraySize(nodes) - 1));
    triangles += 2;

    /* the alpha-masked screen behind the grid: the floor's quad turned upright, double-sided */
    {
        cJSON *screen = cJSON_CreateObject(), *sp = cJSON_CreateArray(), *p = cJSON_CreateObject(),
              *at = cJSON_CreateObject(), *m = cJSON_CreateObject(), *pbr = cJSON_CreateObject();
        cJSON_AddNumberToObject(at, "POSITION", cJSON_GetObjectItem(fat, "POSITION")->valueint);
        cJSON_AddNumberToObject(at, "NORMAL", cJSON_GetObjectItem(fat, "NORMAL")->valueint);
        cJSON_AddNumberToObject(at, "TEXCOORD_0", acc_fuv);
        cJSON_AddItemToObject(p, "attributes", at);
        cJSON_AddNumberToObject(p, "indices", acc_fi);
        cJSON_AddStringToObject(m, "name", "masked_screen");
        cJSON_AddItemToObject(pbr, "baseColorTexture", tex_ref(tex[TEX_MASK], 0));
        cJSON_AddNumberToObject(pbr, "metallicFactor", 0.0);
        cJSON_AddNumberToObject(pbr, "roughnessFactor", 0.5);
        cJSON_AddItemToObject(m, "pbrMetallicRoughness", pbr);
        cJSON_AddStringToObject(m, "alphaMode", "MASK");
        cJSON_AddNumberToObject(m, "alphaCutoff", 0.5);
        cJSON_AddTrueToObject(m, "doubleSided");
        cJSON_AddItemToArray(materials, m);
        cJSON_AddNumberToObject(p, "material", cJSON_GetArraySize(materials) - 1);
        cJSON_AddItemToArray(sp, p);
        cJSON_AddItemToObject(screen, "primitives", sp);
        cJSON_AddItemToArray(meshes, screen);
        cJSON *n = cJSON_CreateObject();
        cJSON_AddNumberToObject(n, "mesh", cJSON_GetArraySize(meshes) - 1);
        /* upright (90 degrees about x), 0.1 x 0.08 of the floor's size, behind the last row */
        const double q[4] = {sin(k_pi / 4), 0, 0, cos(k_pi / 4)}, sc[3] = {0.12, 1, 0.06},
                     t[3] = {0, 1.2, -(rows * 0.5 + 0.6) * 2.2};
        cJSON_AddItemToObject(n, "rotation", cJSON_CreateDoubleArray(q, 4));
        cJSON_AddItemToObject(n, "scale", cJSON_CreateDoubleArray(sc, 3));
        cJSON_AddItemToObject(n, "translation", cJSON_CreateDoubleArray(t, 3));
        cJSON_AddItemToArray(nodes, n);
        cJSON_AddItemToArray(scene_nodes, cJSON_CreateNumber(cJSON_GetArraySize(nodes) - 1));
        triangles += 2;
    }

    /* the camera: up and in front of the grid, looking down at its centre */
    {
        cJSON *cams = cJSON_AddArrayToObject(root, "cameras"), *cam = cJSON_CreateObject(),
              *per = cJSON_CreateObject();
        cJSON_AddStringToObject(cam, "type", "perspective");
        cJSON_AddNumberToObject(per, "yfov", 0.7);
        cJSON_AddNumberToObject(per, "aspectRatio", 16.0 / 9.0);
        cJSON_AddNumberToObject(per, "znear", 0.05);
        cJSON_AddItemToObject(cam, "perspective", per);
        cJSON_AddItemToArray(cams, cam);
        double dist = 1.3 * fmax(cols, rows * 1.6) * 2.2, pitch = 0.45;
        cJSON *n = cJSON_CreateObject();
        cJSON_AddNumberToObject(n, "camera", 0);
        /* looking down -z, pitched down about x by `pitch` */
        const double q[4] = {-sin(pitch / 2), 0, 0, cos(pitch / 2)},
                     t[3] = {0, dist * sin(pitch) + 0.5, dist * cos(pitch)};
        cJSON_AddItemToObject(n, "rotation", cJSON_CreateDoubleArray(q, 4));
        cJSON_AddItemToObject(n, "translation", cJSON_CreateDoubleArray(t, 3));
        cJSON_AddItemToArray(nodes, n);
        cJSON_AddItemToArray(scene_nodes, cJSON_CreateNumber(cJSON_GetArraySize(nodes) - 1));
    }

    cJSON *scenes = cJSON_AddArrayToObject(root, "scenes"), *sc = cJSON_CreateObject();
    cJSON_AddItemToObject(sc, "nodes", scene_nodes);
    cJSON_AddItemToArray(scenes, sc);
    cJSON_AddNumberToObject(root, "scene", 0);
    cJSON *used = cJSON_AddArrayToObject(root, "extensionsUsed");
    for (cJSON *e = used_ext->child; e; e = e->next)
        cJSON_AddItemToArray(used, cJSON_CreateString(e->string));
    cJSON_Delete(used_ext);
    cJSON *buffers = cJSON_AddArrayToObject(root, "buffers"), *buf = cJSON_CreateObject();
    cJSON_AddNumberToObject(buf, "byteLength", (double)b.len);
    cJSON_AddItemToArray(buffers, buf);

    char *json = cJSON_PrintUnformatted(root);
    if (!json) die("out of memory");
    int rc = write_glb(a.out, json, &b);
    if (rc == 0)
        printf("gen_demo: wrote %s: %d objects, %d materials, %zu triangles, %.1f MB\n", a.out,
               a.materials, cJSON_GetArraySize(materials), triangles,
               (double)(b.len + strlen(json)) / 1e6);
    free(json);
    cJSON_Delete(root);
    for (int s = 0; s < 4; s++) free_shape(&shapes[s]);
    free(b.data);
    return rc == 0 ? 0 : 1;
}
