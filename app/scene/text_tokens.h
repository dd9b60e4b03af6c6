/* text_tokens.h: the tokens of a line of a text format (OBJ, MTL): whitespace-separated words
 * as (start, length) pairs into the line, never copied, never read past the line's end; and a
 * token echoed for a one-line message. Internal to the readers of app/scene/. */
#ifndef RC_TEXT_TOKENS_H
#define RC_TEXT_TOKENS_H

#include "echo.h"

#include <string.h>

typedef struct rc_token {
    const char *s;
    size_t n;
} rc_token;

static inline int rc_tok_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next whitespace-separated token of [*pos, end) into *t, *pos after it; 0 when none is
 * left. */
static inline int rc_tok_next(const char **pos, const char *end, rc_token *t) {
    const char *s = *pos;
    while (s < end && rc_tok_space(*s)) s++;
    if (s == end) return 0;
    const char *e = s;
    while (e < end && !rc_tok_space(*e)) e++;
    t->s = s;
    t->n = (size_t)(e - s);
    *pos = e;
    return 1;
}

/* The rest of the line, spaces trimmed at both ends (names and file names may hold spaces). */
static inline rc_token rc_tok_rest(const char *pos, const char *end) {
    while (pos < end && rc_tok_space(*pos)) pos++;
    while (end > pos && rc_tok_space(end[-1])) end--;
    rc_token t = {pos, (size_t)(end - pos)};
    return t;
}

static inline int rc_tok_is(rc_token t, const char *word) {
    return strlen(word) == t.n && memcmp(t.s, word, t.n) == 0;
}

/* The token as a short printable string for messages: the escaping both tools use for echoed
 * input (echo.h), cut short with "..." when long. */
static inline const char *rc_tok_show(rc_token t, char *buf, size_t cap) {
    return echo_escape_n(buf, cap, t.s, t.n);
}

/* Each line of text[0 .. len) in turn, *line counting them from 1: fn(ctx, start, end, nul)
 * with the line without its newline, nul set when it holds a NUL byte. Stops at the first
 * call that returns non-zero and returns that. */
static inline int rc_text_lines(const char *text, size_t len, size_t *line,
                                int (*fn)(void *ctx, const char *s, const char *e, int nul),
                                void *ctx) {
    const char *s = text, *end = text + len;
    int rc = 0;
    while (s < end && rc == 0) {
        ++*line;
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        rc = fn(ctx, s, le, memchr(s, '\0', (size_t)(le - s)) != NULL);
        s = nl ? nl + 1 : end;
    }
    return rc;
}

#endif /* RC_TEXT_TOKENS_H */
