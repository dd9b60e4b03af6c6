/* test_view_hooks.c: what the viewer asks of the renderer beyond rendering, without a window.
 * The alive-ray mask of bounce k marks exactly the rays the frame's stats count alive at k,
 * for compaction by flags and by removal list, both modes, and `none`; a watched bounce the
 * frame never reaches leaves the mask empty; moving the camera changes the image; on the CUDA
 * backend the film copied to device memory holds the sums the image is the mean of.
 * Usage: test_view_hooks SCENE [cpu|cuda]   (cuda: exits 77, skipped, without a device) */
#include "rc_test.h"

#include <string.h>
#ifdef RC_TEST_CUDA
#include <cuda_runtime_api.h>
#endif

static rc_backend backend = RC_BACKEND_CPU;

#define W 48
#define H 32

static rc_settings settings(const rc_scene *s, const char *algo, rc_mode mode) {
    rc_settings st = test_settings(s, W, H, algo, mode);
    st.max_depth = 8;
    st.backend = backend;
    return st;
}

static uint32_t ones(const uint8_t *m) {
    uint32_t n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) n += m[i] != 0;
    return n;
}

/* Watch each bounce in turn for one frame: mask population == stats' alive count. */
static void check_mask(const rc_scene *s, const char *algo, rc_mode mode) {
    rc_settings st = settings(s, algo, mode);
    rc_renderer *r;
    rc_error err;
    CHECK(rc_renderer_create(s, &st, &r, &err) == 0, "%s", err.msg);
    if (!r) return;
    uint8_t mask[W * H];
    for (int k = 0; k < 10; k++) {
        rc_frame_stats fs;
        CHECK(rc_renderer_watch_bounce(r, k, &err) == 0, "%s", err.msg);
        CHECK(rc_render_frame(r, &fs, &err) == 0, "%s", err.msg);
        CHECK(rc_renderer_mask(r, mask, &err) == 0, "%s", err.msg);
        uint32_t want = (uint32_t)k < fs.bounces ? fs.bounce[k].alive : 0;
        CHECK(ones(mask) == want, "%s %s bounce %d: mask has %u, stats %u alive", algo,
              rc_mode_name(mode), k, ones(mask), want);
    }
    CHECK(rc_renderer_watch_bounce(r, -1, &err) == 0, "%s", err.msg);
    rc_renderer_destroy(r);
}

/* The device copy of the film, divided by the frames, is the image (CUDA builds only). */
static void check_device_film(rc_renderer *r, const float *mean) {
#ifdef RC_TEST_CUDA
    static float sums[W * H * 3];
    void *d = NULL;
    rc_error err;
    CHECK(cudaMalloc(&d, sizeof sums) == cudaSuccess, "cudaMalloc");
    if (!d) return;
    CHECK(rc_renderer_film_to_device(r, d, &err) == 0, "%s", err.msg);
    CHECK(cudaMemcpy(sums, d, sizeof sums, cudaMemcpyDeviceToHost) == cudaSuccess, "cudaMemcpy");
    cudaFree(d);
    float frames = (float)rc_renderer_frames(r), worst = 0.0f;
    for (size_t i = 0; i < (size_t)W * H * 3; i++)
        worst = fmaxf(worst, fabsf(sums[i] / frames - mean[i]) / fmaxf(1.0f, fabsf(mean[i])));
    CHECK(worst < 1e-5f, "device film / frames differs from the image by %g", worst);
#else
    (void)r;
    (void)mean;
    CHECK(0, "this test was built without CUDA");
#endif
}

static void check_camera(const rc_scene *s) {
    rc_settings st = settings(s, "scan-scatter", RC_MODE_INDICES);
    float *a = test_render(s, &st, 2);
    rc_renderer *r;
    rc_error err;
    CHECK(rc_renderer_create(s, &st, &r, &err) == 0, "%s", err.msg);
    if (!r || !a) return;
    rc_camera_desc d = s->camera;
    d.look_from = rc_add(d.look_from, rc_scale(rc_sub(d.look_at, d.look_from), 0.3f));
    rc_camera cam = rc_camera_make(&d, (float)W / H);
    rc_renderer_set_camera(r, &cam);
    float b[W * H * 3];
    for (int i = 0; i < 2; i++) CHECK(rc_render_frame(r, NULL, &err) == 0, "%s", err.msg);
    CHECK(rc_renderer_image(r, b, &err) == 0, "%s", err.msg);
    CHECK(memcmp(a, b, sizeof b) != 0, "moving the camera left the image as it was");
    if (backend == RC_BACKEND_CPU)
        CHECK(rc_renderer_film_to_device(r, b, &err) != 0, "the CPU backend has no device film");
    else
        check_device_film(r, b);
    rc_renderer_destroy(r);
    free(a);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3 || (argc == 3 && rc_backend_parse(argv[2], &backend) != 0)) {
        fprintf(stderr, "usage: test_view_hooks SCENE [cpu|cuda]\n");
        return 2;
    }
    if (backend == RC_BACKEND_CUDA) {
        sc_context *ctx = NULL;
        sc_status st = sc_context_create(SC_BACKEND_CUDA, &ctx);
        sc_context_destroy(ctx);
        /* a skip only for missing hardware (or a build without CUDA); any other failure fails */
        if (!rc_have_cuda_backend() || st == SC_ERR_NO_DEVICE || st == SC_ERR_UNSUPPORTED) {
            printf("view_hooks: skipped: no CUDA device\n");
            return 77;
        }
        if (st != SC_OK) {
            fprintf(stderr, "view_hooks: CUDA context: %s (%s)\n", sc_status_string(st),
                    sc_last_error_detail(NULL));
            return 1;
        }
    }
    rc_scene s;
    if (test_load(argv[1], &s) != 0) return 2;
    const char *algos[] = {"scan-scatter", "redzone", "none"};
    for (size_t a = 0; a < 3; a++) {
        check_mask(&s, algos[a], RC_MODE_INDICES);
        check_mask(&s, algos[a], RC_MODE_PAYLOAD);
    }
    check_camera(&s);
    rc_scene_free(&s);
    return test_finish("view_hooks");
}
