/* gen_glb.c: a large glTF binary for timing the glTF reader: a wavy grid of at least N
 * triangles (positions, normals, uvs, 32-bit indices) in one .glb.
 *   gen_glb N OUT.glb      e.g. gen_glb 1000000 grid.glb (1000 x 500 quads, 1 M triangles)
 * then: build/tests/gltf_info grid.glb */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put32(FILE *f, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, f);
}

int main(int argc, char **argv) {
    char *end;
    unsigned long n = argc == 3 ? strtoul(argv[1], &end, 10) : 0;
    if (argc != 3 || *end || n < 2 || n > 100000000ul) {
        fprintf(stderr, "usage: gen_glb TRIANGLES OUT.glb (2 to 100000000 triangles)\n");
        return 2;
    }
    /* w x h quads, w = 2h, 2wh >= n */
    uint32_t h = (uint32_t)ceil(sqrt((double)n / 4.0)), w = 2 * h;
    while (2ull * (w - 1) * h >= n && w > 1) w--;
    if (2ull * w * h < n) w++;
    uint64_t nv = (uint64_t)(w + 1) * (h + 1), nt = 2ull * w * h;
    float *pos = malloc(nv * 12), *nrm = malloc(nv * 12), *uv = malloc(nv * 8);
    uint32_t *idx = malloc(nt * 12);
    if (!pos || !nrm || !uv || !idx) {
        fprintf(stderr, "gen_glb: out of memory\n");
        return 1;
    }
    for (uint32_t y = 0; y <= h; y++)
        for (uint32_t x = 0; x <= w; x++) {
            uint64_t i = (uint64_t)y * (w + 1) + x;
            float u = (float)x / (float)w, v = (float)y / (float)h;
            float px = 2.0f * u - 1.0f, pz = v - 0.5f;
            float py = 0.05f * sinf(20.0f * px) * cosf(20.0f * pz);
            float dx = 0.05f * 20.0f * cosf(20.0f * px) * cosf(20.0f * pz) * 0.5f;
            float dz = -0.05f * 20.0f * sinf(20.0f * px) * sinf(20.0f * pz);
            float l = sqrtf(dx * dx + 1.0f + dz * dz);
            pos[3 * i] = px, pos[3 * i + 1] = py, pos[3 * i + 2] = pz;
            nrm[3 * i] = -dx / l, nrm[3 * i + 1] = 1.0f / l, nrm[3 * i + 2] = -dz / l;
            uv[2 * i] = u, uv[2 * i + 1] = v;
        }
    uint64_t t = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t a = y * (w + 1) + x, b = a + 1, c = a + w + 1, d = c + 1;
            uint32_t q[6] = {a, c, b, b, c, d};
            memcpy(idx + 3 * t, q, sizeof q);
            t += 2;
        }
    uint64_t o_n = nv * 12, o_u = o_n + nv * 12, o_i = o_u + nv * 8, bin = o_i + nt * 12;
    char json[2048];
    int jl = snprintf(
        json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"raycompact gen_glb\"},"
        "\"buffers\":[{\"byteLength\":%llu}],\"bufferViews\":["
        "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%llu,\"target\":34962},"
        "{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu,\"target\":34962},"
        "{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu,\"target\":34962},"
        "{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu,\"target\":34963}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%llu,\"type\":\"VEC3\","
        "\"min\":[-1,-0.05,-0.5],\"max\":[1,0.05,0.5]},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":%llu,\"type\":\"VEC3\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":%llu,\"type\":\"VEC2\"},"
        "{\"bufferView\":3,\"componentType\":5125,\"count\":%llu,\"type\":\"SCALAR\"}],"
        "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.8,0.6,0.2,1],"
        "\"metallicFactor\":1,\"roughnessFactor\":0.3}}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,"
        "\"TEXCOORD_0\":2},\"indices\":3,\"material\":0}]}],"
        "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}],\"scene\":0}",
        (unsigned long long)bin, (unsigned long long)(nv * 12), (unsigned long long)o_n,
        (unsigned long long)(nv * 12), (unsigned long long)o_u, (unsigned long long)(nv * 8),
        (unsigned long long)o_i, (unsigned long long)(nt * 12), (unsigned long long)nv,
        (unsigned long long)nv, (unsigned long long)nv, (unsigned long long)(3 * nt));
    uint32_t jpad = (uint32_t)((jl + 3) / 4 * 4);
    uint64_t total = 12 + 8 + jpad + 8 + bin;
    if (total > 0xFFFFFFFFull) {
        fprintf(stderr, "gen_glb: %lu triangles do not fit a .glb (4 GiB)\n", n);
        return 1;
    }
    FILE *f = fopen(argv[2], "wb");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    put32(f, 0x46546C67u);
    put32(f, 2);
    put32(f, (uint32_t)total);
    put32(f, jpad);
    put32(f, 0x4E4F534Au);
    fwrite(json, 1, (size_t)jl, f);
    for (int i = jl; i < (int)jpad; i++) fputc(' ', f);
    put32(f, (uint32_t)bin);
    put32(f, 0x004E4942u);
    fwrite(pos, 12, nv, f);
    fwrite(nrm, 12, nv, f);
    fwrite(uv, 8, nv, f);
    fwrite(idx, 12, nt, f);
    if (fclose(f) != 0) {
        perror(argv[2]);
        return 1;
    }
    fprintf(stderr, "gen_glb: %s: %llu triangles, %llu vertices, %llu bytes\n", argv[2],
            (unsigned long long)nt, (unsigned long long)nv, (unsigned long long)total);
    free(pos);
    free(nrm);
    free(uv);
    free(idx);
    return 0;
}
