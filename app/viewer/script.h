/* script.h: scripted input for the viewer (--script FILE), one command a line:
 *
 *     # a comment
 *     wait 20 frames        let 20 frames be drawn
 *     wait 8 spp            until the film holds 8 samples per pixel or more (a frame adds
 *                           several), or accumulation stopped
 *     wait 2 s              let 2 seconds of wall-clock time pass (also `wait 500 ms`)
 *     key Tab               press a key, as a hotkey: a letter, a character, or a name (Tab,
 *     key Shift+Tab         Escape, Space, Return, F1..F12, Left, Right, Up, Down, Comma,
 *     key .                 Period), after Shift+, Ctrl+ or Alt+; `key ,` and `key .` (or
 *                           `key Comma`, `key Period`) halve and double the frame budget
 *     drag 40 -10           a mouse drag of (dx, dy) pixels (turns the camera)
 *     resize 960 540        resize the window to W x H (64..16384 each), as a user would: the
 *                           image size follows (the renderer and the film are made anew)
 *     screenshot a.png      save the next frame as drawn (image and overlay)
 *     memory                print the viewer's memory on stdout, one line: "raycompact view:
 *                           memory: heap N KiB in use, resident N KiB (anonymous N KiB)" (the
 *                           heap as glibc's mallinfo2 counts it, n/a elsewhere; VmRSS and
 *                           RssAnon of /proc/self/status)
 *     quit                  exit 0
 *
 * Errors name the line: "FILE:LINE: what is wrong". */
#ifndef RC_VIEW_SCRIPT_H
#define RC_VIEW_SCRIPT_H

#include "rc_error.h"

#include <stddef.h>
#include <stdint.h>

/* The window sizes `resize` and --window take, in pixels (each side). */
#define RC_VIEW_WINDOW_MIN 64
#define RC_VIEW_WINDOW_MAX 16384

typedef enum rc_script_op {
    RC_SCRIPT_WAIT_FRAMES,
    RC_SCRIPT_WAIT_SPP,
    RC_SCRIPT_WAIT_MS,
    RC_SCRIPT_KEY,
    RC_SCRIPT_DRAG,
    RC_SCRIPT_RESIZE,
    RC_SCRIPT_SCREENSHOT,
    RC_SCRIPT_MEMORY,
    RC_SCRIPT_QUIT
} rc_script_op;

typedef struct rc_script_step {
    rc_script_op op;
    int line;
    int32_t a, b; /* frames, spp or ms; key code (SDL_Keycode) and modifiers; drag dx, dy;
                     window width, height */
    char *path;   /* screenshot */
} rc_script_step;

typedef struct rc_script {
    const char *path; /* for messages */
    rc_script_step *steps;
    size_t n, cap;
    size_t next;     /* the step to run next */
    uint32_t waited; /* frames drawn since the current wait began */
    double until_ms; /* when the current `wait N s` ends (timing_now_ms); 0 while none runs */
} rc_script;

/* Read and check the whole file, so a mistake stops the viewer before its window opens. */
int rc_script_load(const char *path, rc_script *s, rc_error *err);
void rc_script_free(rc_script *s);
/* A key name as `key` takes it: *key an SDL_Keycode, *mod SDL_Keymod bits. 0 or -1. */
int rc_key_parse(const char *name, int32_t *key, int32_t *mod);

#endif /* RC_VIEW_SCRIPT_H */
