/* echo.h: input echoed in a message, made safe to print: one helper for both command-line
 * tools (`compact` and the app's `raycompact`, which compiles echo.c into its own tool), so that
 * no error message spans lines or carries terminal escape sequences, whatever the input was. */
#ifndef SC_ECHO_H
#define SC_ECHO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Lets the compiler check a printf-like function's arguments against its format (argument
 * FMT is the format, ARGS the first argument). */
#if defined(__GNUC__)
#define ECHO_PRINTF(FMT, ARGS) __attribute__((format(printf, FMT, ARGS)))
#else
#define ECHO_PRINTF(FMT, ARGS)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Copy the NUL-terminated `s` into out (capacity cap > 0, always NUL-terminated), writing each
 * byte outside printable ASCII (0x20..0x7e: control characters, DEL, and every byte of a
 * non-ASCII character) as \xNN. Cut short with "..." when it does not fit. Returns out. */
char *echo_escape(char *out, size_t cap, const char *s);
/* The same for n bytes at s (NUL bytes included). */
char *echo_escape_n(char *out, size_t cap, const char *s, size_t n);
/* vsnprintf, then the result escaped in place as echo_escape does (cap > 0). */
void echo_vformat(char *out, size_t cap, const char *fmt, va_list ap);
/* `text` folded at its spaces into pieces of at most `width` columns (a longer word is cut), one
 * a line; the lines after the first start with `indent` spaces (the caller wrote what precedes
 * the first). */
void echo_wrapped(FILE *f, const char *text, int width, int indent);
/* One line on f: the message, escaped, then a newline. */
void echo_line(FILE *f, const char *fmt, ...) ECHO_PRINTF(2, 3);

#ifdef __cplusplus
}
#endif
#endif /* SC_ECHO_H */
