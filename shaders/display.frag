#version 330 core
// display.frag: the film (linear RGB) through exposure, a tone map and the sRGB transfer
// function; or the alive-ray mask of one bounce over a dimmed copy of the image. The tone maps
// are app/core/tonemap.h's, which the PNG writer runs: clip, reinhard, aces.
in vec2 uv;
out vec4 color;

uniform sampler2D film;  // linear RGB: the sums of the frames, or their mean
uniform sampler2D mask;  // R8: 1 where the pixel's path is alive at the watched bounce
uniform float scale;     // 1 / frames for sums (1 for a mean), times 2^exposure
uniform int show_mask;
uniform int tonemap;     // 0 clip, 1 reinhard, 2 aces (app/core/tonemap.h)

// Narkowicz's 2015 fit of the ACES RRT + ODT (tonemap.h).
vec3 aces_fit(vec3 x) {
    x = max(x, vec3(0.0));
    return min(vec3(1.0), (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14));
}

vec3 tone(vec3 c) {
    if (tonemap == 1) { // Reinhard et al. 2002, eq. 3, on the luminance
        float l = dot(c, vec3(0.2126, 0.7152, 0.0722));
        return l > 0.0 ? c / (1.0 + l) : vec3(0.0);
    }
    if (tonemap == 2) return aces_fit(c);
    return c;
}

vec3 to_srgb(vec3 c) {
    c = clamp(c, 0.0, 1.0);
    vec3 lo = 12.92 * c;
    vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    return mix(lo, hi, step(vec3(0.0031308), c));
}

void main() {
    vec3 c = tone(texture(film, uv).rgb * scale);
    if (show_mask != 0) {
        // Alive paths in amber, shaded by the image so the scene stays recognisable; ended
        // paths (removed by the compaction) nearly black.
        float l = dot(clamp(c, 0.0, 1.0), vec3(0.2126, 0.7152, 0.0722));
        vec3 alive = mix(vec3(1.0, 0.55, 0.08), vec3(1.0, 0.9, 0.6), l);
        vec3 ended = vec3(0.004, 0.006, 0.015) + 0.04 * clamp(c, 0.0, 1.0);
        c = texture(mask, uv).r > 0.002 ? alive : ended; // R8: a byte of 1 reads 1/255
    }
    color = vec4(to_srgb(c), 1.0);
}
