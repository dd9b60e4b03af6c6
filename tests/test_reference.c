/* test_reference.c: a small render matches a checked-in reference image made by this renderer
 * (tests/data/README.md says how). The comparison is on 16x16-pixel block means of the image
 * clamped to [0, 1] (as displayed), so per-pixel noise averages out and what remains are
 * systematic changes: a wall's colour, the light, the camera, the brightness.
 * The tolerance is stated by the caller; the independent check is test_furnace.
 * Usage: test_reference SCENE REFERENCE.pfm SPP TOLERANCE */
#include "image.h"
#include "rc_test.h"

int main(int argc, char **argv) {
    rc_scene s;
    int started = test_start("test_reference", argc == 5, "SCENE REFERENCE.pfm SPP TOLERANCE", NULL,
                             argv, 1, &s);
    if (started != 0) return started;
    rc_error err;
    float *ref;
    uint32_t w, h;
    if (rc_pfm_read(argv[2], &ref, &w, &h, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        rc_scene_free(&s);
        return 1;
    }
    rc_settings st;
    rc_settings_init(&st, &s);
    st.width = w;
    st.height = h;
    float *img = test_render(&s, &st, (uint32_t)atoi(argv[3]));
    CHECK(img != NULL, "render failed");
    if (img) {
        double tol = atof(argv[4]);
        double block = rc_image_block_rmse(img, ref, w, h, 16);
        double pixel = rc_image_rmse(img, ref, (size_t)w * h);
        printf("%s vs %s: block RMSE %.5f (tolerance %.5f), pixel RMSE %.5f\n", argv[1], argv[2],
               block, tol, pixel);
        CHECK(block <= tol, "block RMSE %g over tolerance %g", block, tol);
    }
    free(img);
    free(ref);
    rc_scene_free(&s);
    return test_finish("test_reference");
}
