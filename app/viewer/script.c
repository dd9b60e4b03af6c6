/* script.c: parsing --script files. */
#include "script.h"
#include "grow.h"
#include "read_file.h"

#include <SDL.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RC_SCRIPT_MAX_BYTES (1u << 20)

/* Keys by name; single characters are their own code (SDL's convention for printable keys). */
static const struct {
    const char *name;
    SDL_Keycode key;
} named_keys[] = {
    {"Tab", SDLK_TAB},     {"Escape", SDLK_ESCAPE}, {"Esc", SDLK_ESCAPE},
    {"Space", SDLK_SPACE}, {"Return", SDLK_RETURN}, {"Enter", SDLK_RETURN},
    {"Left", SDLK_LEFT},   {"Right", SDLK_RIGHT},   {"Up", SDLK_UP},
    {"Down", SDLK_DOWN},   {"F1", SDLK_F1},         {"F2", SDLK_F2},
    {"F3", SDLK_F3},       {"F4", SDLK_F4},         {"F5", SDLK_F5},
    {"F6", SDLK_F6},       {"F7", SDLK_F7},         {"F8", SDLK_F8},
    {"F9", SDLK_F9},       {"F10", SDLK_F10},       {"F11", SDLK_F11},
    {"F12", SDLK_F12},     {"Comma", SDLK_COMMA},   {"Period", SDLK_PERIOD},
};

static const struct {
    const char *prefix;
    SDL_Keymod mod;
} modifiers[] = {{"Shift+", KMOD_LSHIFT}, {"Ctrl+", KMOD_LCTRL}, {"Alt+", KMOD_LALT}};

int rc_key_parse(const char *name, int32_t *key, int32_t *mod) {
    *mod = 0;
    for (int again = 1; again;) {
        again = 0;
        for (size_t i = 0; i < sizeof modifiers / sizeof *modifiers; i++) {
            size_t n = strlen(modifiers[i].prefix);
            if (strncasecmp(name, modifiers[i].prefix, n) == 0 && name[n]) {
                *mod |= modifiers[i].mod;
                name += n;
                again = 1;
            }
        }
    }
    if (strlen(name) == 1 && name[0] > 32 && name[0] < 127) {
        *key = (int32_t)tolower((unsigned char)name[0]);
        return 0;
    }
    for (size_t i = 0; i < sizeof named_keys / sizeof *named_keys; i++)
        if (strcasecmp(name, named_keys[i].name) == 0) {
            *key = (int32_t)named_keys[i].key;
            return 0;
        }
    return -1;
}

static const char unknown_command[] = "unknown command";

/* Fail with `msg` as the reason. */
static int bad(const char **why, const char *msg) {
    *why = msg;
    return -1;
}

/* A whole-word integer in [lo, hi]. */
static int parse_int(const char *s, long lo, long hi, int32_t *out) {
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || end == s || *end || errno || v < lo || v > hi) return -1;
    *out = (int32_t)v;
    return 0;
}

/* Split a line into at most 4 words, in place; returns how many. */
static int words(char *line, char **w) {
    int n = 0;
    for (char *tok = strtok(line, " \t\r"); tok; tok = strtok(NULL, " \t\r"))
        if (n < 4)
            w[n++] = tok;
        else
            return 5;
    return n;
}

/* wait N frames | N spp | N s | N ms; wall-clock waits are kept in ms, at most a day. */
static int parse_wait(char **w, int n, rc_script_step *st, const char **why) {
    static const char count[] = "the count must be an integer in [0, 1000000]";
    static const struct {
        const char *unit;
        rc_script_op op;
        long max, ms;
        const char *range;
    } units[] = {
        {"frames", RC_SCRIPT_WAIT_FRAMES, 1000000, 1, count},
        {"frame", RC_SCRIPT_WAIT_FRAMES, 1000000, 1, count},
        {"spp", RC_SCRIPT_WAIT_SPP, 1000000, 1, count},
        {"s", RC_SCRIPT_WAIT_MS, 86400, 1000, "the seconds must be an integer in [0, 86400]"},
        {"ms", RC_SCRIPT_WAIT_MS, 86400000, 1, "the ms must be an integer in [0, 86400000]"},
    };
    for (size_t i = 0; n == 3 && i < sizeof units / sizeof *units; i++) {
        if (strcmp(w[2], units[i].unit) != 0) continue;
        if (parse_int(w[1], 0, units[i].max, &st->a) != 0) return bad(why, units[i].range);
        st->a *= (int32_t)units[i].ms;
        st->op = units[i].op;
        return 0;
    }
    return bad(why, "expected 'wait N frames', 'wait N spp', 'wait N s' or 'wait N ms'");
}

/* resize W H: the window's size, in the range --window takes. */
static int parse_resize(char **w, int n, rc_script_step *st, const char **why) {
    st->op = RC_SCRIPT_RESIZE;
    if (n == 3 && parse_int(w[1], RC_VIEW_WINDOW_MIN, RC_VIEW_WINDOW_MAX, &st->a) == 0 &&
        parse_int(w[2], RC_VIEW_WINDOW_MIN, RC_VIEW_WINDOW_MAX, &st->b) == 0)
        return 0;
    return bad(why, "expected 'resize W H' (the window's size in pixels, 64..16384 each)");
}

static int parse_line(char *line, rc_script_step *st, const char **why, const char **arg) {
    char *w[4] = {NULL, NULL, NULL, NULL};
    int n = words(line, w);
    if (n == 0) return 0;
    if (n > 4) return bad(why, "too many words");
    if (!strcmp(w[0], "wait")) return parse_wait(w, n, st, why);
    if (!strcmp(w[0], "resize")) return parse_resize(w, n, st, why);
    if (!strcmp(w[0], "key")) {
        st->op = RC_SCRIPT_KEY;
        if (n != 2) return bad(why, "expected 'key NAME' (e.g. 'key Tab', 'key Shift+Tab')");
        if (rc_key_parse(w[1], &st->a, &st->b) == 0) return 0;
        *arg = w[1];
        return bad(why, "unknown key");
    }
    if (!strcmp(w[0], "drag")) {
        st->op = RC_SCRIPT_DRAG;
        if (n == 3 && parse_int(w[1], -100000, 100000, &st->a) == 0 &&
            parse_int(w[2], -100000, 100000, &st->b) == 0)
            return 0;
        return bad(why, "expected 'drag DX DY' (integers, pixels)");
    }
    if (!strcmp(w[0], "screenshot")) {
        st->op = RC_SCRIPT_SCREENSHOT;
        size_t len = n == 2 ? strlen(w[1]) : 0;
        if (len < 5 || strcmp(w[1] + len - 4, ".png") != 0)
            return bad(why, "expected 'screenshot FILE.png'");
        st->path = strdup(w[1]);
        return st->path ? 0 : bad(why, "out of memory");
    }
    if (!strcmp(w[0], "memory")) {
        st->op = RC_SCRIPT_MEMORY;
        return n == 1 ? 0 : bad(why, "'memory' takes no arguments");
    }
    if (!strcmp(w[0], "quit")) {
        st->op = RC_SCRIPT_QUIT;
        return n == 1 ? 0 : bad(why, "'quit' takes no arguments");
    }
    *arg = w[0];
    return bad(why, unknown_command);
}

static int add_line(rc_script *s, const char *path, int lineno, char *line, rc_error *err) {
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    if (strspn(line, " \t\r") == strlen(line)) return 0;
    if (rc_grow((void **)&s->steps, &s->cap, s->n + 1, sizeof *s->steps) != 0)
        return rc_fail(err, "%s: out of memory", path);
    rc_script_step *st = &s->steps[s->n];
    memset(st, 0, sizeof *st);
    st->line = lineno;
    const char *why = NULL, *arg = NULL;
    if (parse_line(line, st, &why, &arg) != 0) {
        if (why == unknown_command)
            return rc_fail(err,
                           "%s:%d: unknown command '%s' (valid: wait, key, drag, resize, "
                           "screenshot, memory, quit)",
                           path, lineno, arg);
        if (arg) return rc_fail(err, "%s:%d: %s '%s'", path, lineno, why, arg);
        return rc_fail(err, "%s:%d: %s", path, lineno, why);
    }
    s->n++;
    return 0;
}

int rc_script_load(const char *path, rc_script *s, rc_error *err) {
    memset(s, 0, sizeof *s);
    s->path = path;
    char *text;
    size_t len;
    if (rc_read_file(path, RC_SCRIPT_MAX_BYTES, &text, &len, err) != 0) return -1;
    int lineno = 1, rc = 0;
    for (char *line = text; line && rc == 0; lineno++) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        rc = add_line(s, path, lineno, line, err);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    if (rc != 0) rc_script_free(s);
    return rc;
}

void rc_script_free(rc_script *s) {
    for (size_t i = 0; i < s->n; i++) free(s->steps[i].path);
    free(s->steps);
    memset(s, 0, sizeof *s);
}
