/* test_scenes_finite.c: every scene file given renders at low resolution without NaN or Inf,
 * and not to black. The film counts a NaN or Inf sample as RC_FILM_SAMPLE_MAX (film.h), so a
 * pixel above a quarter of that (4 samples) is one too. Usage: test_scenes_finite SCENE... */
#include "rc_test.h"

#include "wavefront/film.h"

#include <math.h>

static void check_scene(const char *path) {
    rc_scene s;
    int ok = test_load(path, &s) == 0; /* prints why not */
    CHECK(ok, "%s: cannot load", path);
    if (!ok) return;
    rc_settings st;
    rc_settings_init(&st, &s);
    st.width = 48;
    st.height = 32;
    float *img = test_render(&s, &st, 4);
    CHECK(img != NULL, "%s: render failed", path);
    if (img) {
        size_t bad = 0;
        double sum = 0.0;
        for (size_t i = 0; i < 48 * 32 * 3; i++) {
            if (!isfinite(img[i]) || img[i] < 0.0f || img[i] >= RC_FILM_SAMPLE_MAX / 4)
                bad++;
            else
                sum += img[i];
        }
        CHECK(bad == 0, "%s: %zu values NaN, Inf, negative or saturated", path, bad);
        CHECK(sum > 0.0, "%s: the image is black", path);
        printf("%s: %zu primitives, mean %.4f\n", path, s.num_prims, sum / (48 * 32 * 3));
    }
    free(img);
    rc_scene_free(&s);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) check_scene(argv[i]);
    CHECK(argc > 1, "no scenes given");
    return test_finish("test_scenes_finite");
}
