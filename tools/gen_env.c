/* gen_env.c: a procedural sky as an equirectangular Radiance HDR (.hdr) file, for demo
 * scenes (the repository holds no third-party images):
 *   gen_env OUT.hdr [WIDTH [ELEVATION [AZIMUTH]]]
 * WIDTH (default 1024, even, 8 to 16384) x WIDTH / 2 texels; the sun at ELEVATION degrees
 * above the horizon (default 35) and AZIMUTH degrees (default 30) from -Z towards +X. The
 * mapping is core/envmap.h's: +Y up, u = 0.5 + atan2(x, -z) / (2 pi), v = theta / pi, the top
 * row the zenith.
 *
 * The sky: a blue gradient from a pale horizon to a deeper zenith, brighter around the sun
 * (a forward-scattering glow falling off with the angle to it), and a ground of dark grey
 * below the horizon; the sun: a disk of 1.5 degrees radius (larger than the real 0.27, so a
 * 1024-texel map still resolves it) of radiance 20000 x its colour, limb-darkened. Written
 * as flat RGBE scanlines (Ward, "Real Pixels", Graphics Gems II, 1991), which every reader
 * takes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static void rgbe(const double c[3], unsigned char out[4]) {
    double m = fmax(c[0], fmax(c[1], c[2]));
    if (m < 1e-32) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    int e;
    double f = frexp(m, &e) * 256.0 / m;
    for (int k = 0; k < 3; k++) out[k] = (unsigned char)fmin(255.0, c[k] * f);
    out[3] = (unsigned char)(e + 128);
}

static int parse(const char *s, double lo, double hi, double *out) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi)) return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv) {
    double width = 1024, elev = 35, azim = 30;
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: gen_env OUT.hdr [WIDTH (even, 8-16384) [ELEVATION (degrees) [AZIMUTH "
               "(degrees)]]]\nwrites a procedural sky with a sun as an equirectangular Radiance "
               "HDR file\n");
        return 0;
    }
    if (argc < 2 || argv[1][0] == '-' || argc > 5 ||
        (argc > 2 && parse(argv[2], 8, 16384, &width)) ||
        (argc > 3 && parse(argv[3], -90, 90, &elev)) ||
        (argc > 4 && parse(argv[4], -360, 360, &azim)) || fmod(width, 2.0) != 0.0) {
        fprintf(stderr, "usage: gen_env OUT.hdr [WIDTH (even, 8-16384) [ELEVATION (degrees) "
                        "[AZIMUTH (degrees)]]]\n");
        return 2;
    }
    unsigned w = (unsigned)width, h = w / 2;
    double el = elev * PI / 180.0, az = azim * PI / 180.0;
    double sun[3] = {cos(el) * sin(az), sin(el), -cos(el) * cos(az)};
    const double sun_radius = 1.5 * PI / 180.0, sun_power = 20000.0;
    const double sun_rgb[3] = {1.0, 0.92, 0.8};
    /* written beside the target and renamed over it at the end: an interrupted or failed run
       leaves the old file as it was */
    size_t plen = strlen(argv[1]);
    char *tmp = malloc(plen + 8);
    if (!tmp) return 1;
    snprintf(tmp, plen + 8, "%s.part", argv[1]);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        perror(tmp);
        free(tmp);
        return 1;
    }
    fprintf(f,
            "#?RADIANCE\n# gen_env: procedural sky, sun at %g degrees elevation, %g azimuth\n"
            "FORMAT=32-bit_rle_rgbe\n\n-Y %u +X %u\n",
            elev, azim, h, w);
    unsigned char *line = malloc((size_t)w * 4);
    if (!line) {
        fclose(f);
        remove(tmp);
        free(tmp);
        return 1;
    }
    for (unsigned j = 0; j < h; j++) {
        double theta = PI * (j + 0.5) / h;
        for (unsigned i = 0; i < w; i++) {
            double phi = 2.0 * PI * ((i + 0.5) / w - 0.5);
            double d[3] = {sin(theta) * sin(phi), cos(theta), -sin(theta) * cos(phi)};
            double c[3];
            double cosg = d[0] * sun[0] + d[1] * sun[1] + d[2] * sun[2];
            if (d[1] < 0.0) {
                /* ground: grey, lit a little by the sky */
                double g = 0.08 + 0.04 * fmax(0.0, sun[1]);
                c[0] = g, c[1] = 0.95 * g, c[2] = 0.9 * g;
            } else {
                double t = pow(d[1], 0.5); /* 0 at the horizon, 1 at the zenith */
                const double horizon[3] = {0.85, 0.9, 1.0}, zenith[3] = {0.2, 0.38, 0.8};
                double glow = 0.6 * pow(fmax(0.0, cosg), 8.0) + 0.15 * pow(fmax(0.0, cosg), 2.0);
                for (int k = 0; k < 3; k++)
                    c[k] = horizon[k] + (zenith[k] - horizon[k]) * t + glow * sun_rgb[k];
            }
            double gamma = acos(fmin(1.0, fmax(-1.0, cosg)));
            if (gamma < sun_radius) {
                double mu = sqrt(1.0 - (gamma / sun_radius) * (gamma / sun_radius));
                double limb = 0.4 + 0.6 * mu; /* linear limb darkening */
                for (int k = 0; k < 3; k++) c[k] = sun_power * limb * sun_rgb[k];
            }
            rgbe(c, line + 4 * i);
        }
        fwrite(line, 4, w, f);
    }
    free(line);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, argv[1]) != 0) {
        perror(argv[1]);
        remove(tmp);
        free(tmp);
        return 1;
    }
    free(tmp);
    return 0;
}
