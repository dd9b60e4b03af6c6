/* gen_spheres: writes scenes/spheres.json, the final scene of "Ray Tracing in One Weekend"
 * (Shirley, §14): a grid of small random spheres of all three materials around three large
 * ones, under the sky. A fixed-seed generator makes the output the same on every machine. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* splitmix64 (Steele et al. 2014): a fixed, portable sequence instead of libc's rand(). */
static uint64_t g_state = 20240917u;
static double rnd(void) {
    uint64_t z = (g_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}
static double rnd_in(double lo, double hi) {
    return lo + (hi - lo) * rnd();
}

static void sphere(int *first, double x, double y, double z, double r, const char *material) {
    printf("%s\n    {\"center\": [%.4f, %.4f, %.4f], \"radius\": %g, \"material\": %s}",
           *first ? "" : ",", x, y, z, r, material);
    *first = 0;
}

int main(void) {
    printf("{\n  \"comment\": \"RTIOW final scene, written by tools/gen_spheres.c\",\n");
    printf("  \"render\": {\"width\": 640, \"height\": 360, \"spp\": 32, \"max_depth\": 16},\n");
    printf("  \"camera\": {\"look_from\": [13, 2, 3], \"look_at\": [0, 0, 0], \"up\": [0, 1, 0],\n"
           "             \"vfov\": 20, \"aperture\": 0.1, \"focus_distance\": 10},\n");
    printf("  \"background\": {\"type\": \"sky\"},\n");
    printf("  \"materials\": [\n"
           "    {\"name\": \"ground\", \"type\": \"lambertian\", \"albedo\": [0.5, 0.5, 0.5]},\n"
           "    {\"name\": \"glass\", \"type\": \"dielectric\", \"ior\": 1.5},\n"
           "    {\"name\": \"brown\", \"type\": \"lambertian\", \"albedo\": [0.4, 0.2, 0.1]},\n"
           "    {\"name\": \"bronze\", \"type\": \"metal\", \"albedo\": [0.7, 0.6, 0.5], "
           "\"fuzz\": 0}\n  ],\n");
    printf("  \"spheres\": [");
    int first = 1;
    sphere(&first, 0, -1000, 0, 1000, "\"ground\"");
    for (int a = -11; a < 11; a++) {
        for (int b = -11; b < 11; b++) {
            double choose = rnd();
            double x = a + 0.9 * rnd(), y = 0.2, z = b + 0.9 * rnd();
            if (sqrt((x - 4) * (x - 4) + (z - 0) * (z - 0)) <= 0.9) continue;
            char mat[160];
            if (choose < 0.8) {
                double r = rnd() * rnd(), g = rnd() * rnd(), bl = rnd() * rnd();
                snprintf(mat, sizeof mat,
                         "{\"type\": \"lambertian\", \"albedo\": [%.4f, %.4f, %.4f]}", r, g, bl);
            } else if (choose < 0.95) {
                double r = rnd_in(0.5, 1), g = rnd_in(0.5, 1), bl = rnd_in(0.5, 1);
                snprintf(mat, sizeof mat,
                         "{\"type\": \"metal\", \"albedo\": [%.4f, %.4f, %.4f], \"fuzz\": %.4f}", r,
                         g, bl, rnd_in(0, 0.5));
            } else {
                snprintf(mat, sizeof mat, "\"glass\"");
            }
            sphere(&first, x, y, z, 0.2, mat);
        }
    }
    sphere(&first, 0, 1, 0, 1, "\"glass\"");
    sphere(&first, -4, 1, 0, 1, "\"brown\"");
    sphere(&first, 4, 1, 0, 1, "\"bronze\"");
    printf("\n  ]\n}\n");
    return 0;
}
