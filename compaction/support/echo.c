/* echo.c: input echoed in messages, escaped (echo.h). */
#include "echo.h"

#include <stdlib.h>
#include <string.h>

char *echo_escape_n(char *out, size_t cap, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t need = c >= 0x20 && c < 0x7f ? 1 : 4;
        /* Room for this byte, and for "..." and the NUL should more follow. */
        if (j + need + (i + 1 < n ? 3 : 0) >= cap) {
            if (j + 3 < cap) {
                memcpy(out + j, "...", 3);
                j += 3;
            }
            break;
        }
        if (need == 1) {
            out[j++] = (char)c;
        } else {
            out[j++] = '\\';
            out[j++] = 'x';
            out[j++] = hex[c >> 4];
            out[j++] = hex[c & 15];
        }
    }
    out[j] = '\0';
    return out;
}

char *echo_escape(char *out, size_t cap, const char *s) {
    return echo_escape_n(out, cap, s, strlen(s));
}

void echo_vformat(char *out, size_t cap, const char *fmt, va_list ap) {
    char raw[1024];
    vsnprintf(raw, sizeof raw, fmt, ap);
    echo_escape(out, cap, raw);
}

void echo_line(FILE *f, const char *fmt, ...) {
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    echo_vformat(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(f, "%s\n", line);
}

void echo_wrapped(FILE *f, const char *text, int width, int indent) {
    while (*text) {
        int n = (int)strlen(text);
        if (n > width) {
            n = width;
            while (n > 0 && text[n] != ' ') n--;
            if (n == 0) n = width;
        }
        fprintf(f, "%.*s\n", n, text);
        text += n;
        while (*text == ' ') text++;
        if (*text) fprintf(f, "%*s", indent, "");
    }
}
