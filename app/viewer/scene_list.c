/* scene_list.c: the scenes key N steps through: the scene files (.json) and model files (.gltf,
 * .glb, .obj: scene_import.h) in the directory of the scene on screen, in name order (byte order of
 * the names), wrapping around. Listed anew at every press, so a scene added to the directory shows
 * up and one alone is simply reloaded. */
#include "viewer.h"
#include "grow.h"
#include "../scene/scene_import.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_json(const char *name) {
    size_t len = strlen(name);
    return (len > 5 && strcmp(name + len - 5, ".json") == 0) ||
           rc_scene_model_kind(name) != RC_MODEL_NONE;
}

/* The .json names in `dir`, sorted; *names is NULL when there are none. */
static int list_json(const char *dir, char ***names, size_t *n, rc_error *err) {
    *names = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return rc_fail(err, "%s: cannot list the scenes: %s", dir, strerror(errno));
    size_t cap = 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (!is_json(e->d_name)) continue;
        if (rc_grow((void **)names, &cap, *n + 1, sizeof **names) != 0 ||
            !((*names)[*n] = strdup(e->d_name)))
            rc = rc_fail(err, "%s: out of memory listing the scenes", dir);
        else
            (*n)++;
    }
    closedir(d);
    if (*n) qsort(*names, *n, sizeof **names, by_name);
    return rc;
}

int rc_scene_list_step(const char *current, int step, char *out, size_t cap, rc_error *err) {
    const char *slash = strrchr(current, '/'), *base = slash ? slash + 1 : current;
    char dir[4096] = ".";
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", slash == current ? 1 : (int)(slash - current), current);
    char **names;
    size_t n;
    int rc = list_json(dir, &names, &n, err);
    if (rc == 0 && n == 0) rc = rc_fail(err, "%s: no scene or model files to switch to", dir);
    if (rc == 0) {
        /* A scene no longer listed counts as sitting just before the first (after the last,
         * stepping back). */
        long at = step > 0 ? (long)n - 1 : 0;
        for (size_t i = 0; i < n; i++)
            if (strcmp(names[i], base) == 0) at = (long)i;
        long k = ((at + step) % (long)n + (long)n) % (long)n;
        int len = slash ? snprintf(out, cap, "%.*s%s", (int)(base - current), current, names[k])
                        : snprintf(out, cap, "%s", names[k]);
        if (len < 0 || (size_t)len >= cap) rc = rc_fail(err, "%s: the path is too long", names[k]);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return rc;
}
