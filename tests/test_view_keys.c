/* test_view_keys.c: the frame-time budget's keys (, and .) as `raycompact view --script`
 * sends them, without a window: the script is read as the viewer reads it and each key goes
 * through the viewer's key handler; the budget halves and doubles within its limits. Key X
 * moves the shadow rays to the place the renderer does not trace them now.
 * Usage: test_view_keys SCRIPT (tests/data/view_budget_keys.txt) */
#include "rc_test.h"
#include "viewer/viewer.h"

#include <string.h>

/* Send the script's keys to `v`; returns how many. */
static int send_keys(rc_viewer *v, const rc_script *s) {
    int n = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->steps[i].op != RC_SCRIPT_KEY) continue;
        rc_view_key(v, s->steps[i].a, s->steps[i].b);
        n++;
    }
    return n;
}

static void check_key_names(void) {
    const char *names[] = {",", "Comma", ".", "Period", "Shift+."};
    const int32_t want[] = {SDLK_COMMA, SDLK_COMMA, SDLK_PERIOD, SDLK_PERIOD, SDLK_PERIOD};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        int32_t key = 0, mod = 0;
        CHECK(rc_key_parse(names[i], &key, &mod) == 0 && key == want[i], "key %s: %d", names[i],
              key);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_view_keys SCRIPT\n");
        return 2;
    }
    check_key_names();
    rc_script s;
    rc_error err;
    CHECK(rc_script_load(argv[1], &s, &err) == 0, "%s", err.msg);
    rc_viewer *v = calloc(1, sizeof *v);
    CHECK(v != NULL, "out of memory");
    if (!v || s.n == 0) return test_finish("view_keys");
    rc_budget_init(&v->budget, RC_FRAME_MS_DEFAULT, RC_BUDGET_MAX_N);
    /* , Comma . Period Period Shift+. : 16 -> 8 -> 4 -> 8 -> 16 -> 32 -> 64 */
    CHECK(send_keys(v, &s) == 6, "the script sends 6 keys");
    CHECK(v->budget.budget_ms == 64.0, "budget after the script: %g ms", v->budget.budget_ms);
    for (int i = 0; i < 12; i++) rc_view_key(v, SDLK_COMMA, 0);
    CHECK(v->budget.budget_ms == RC_FRAME_MS_MIN, "halved 12 times: %g ms", v->budget.budget_ms);
    for (int i = 0; i < 12; i++) rc_view_key(v, SDLK_PERIOD, 0);
    CHECK(v->budget.budget_ms == RC_FRAME_MS_MAX, "doubled 12 times: %g ms", v->budget.budget_ms);
    CHECK(v->budget.n >= 1, "n %u", v->budget.n);
    int listed = 0;
    for (size_t i = 0; rc_view_help[i].keys; i++)
        listed |= strstr(rc_view_help[i].what, "budget") != NULL;
    CHECK(listed, "the help lists the budget's keys");
    /* X, with no renderer made: from where the settings put them (auto: in shade, for a scene
       of classic materials with a light), to the stream, and back */
    rc_scene_init(&v->scene);
    v->scene.num_lights = 1;
    rc_settings_init(&v->st, &v->scene);
    v->st.light_sampling = RC_LIGHTS_NEE;
    rc_view_key(v, 'x', 0);
    CHECK(v->st.shadows == RC_SHADOWS_STREAM && v->shadows_set && v->rebuild,
          "X from auto (inline): shadows %s", rc_shadows_name(v->st.shadows));
    rc_view_key(v, 'x', 0);
    CHECK(v->st.shadows == RC_SHADOWS_INLINE, "X again: shadows %s",
          rc_shadows_name(v->st.shadows));
    rc_script_free(&s);
    free(v);
    return test_finish("view_keys");
}
