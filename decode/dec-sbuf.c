/*
 * decode/dec-sbuf.c - a growable text buffer with fast number formatting,
 * the output side of every formatter.  printf is avoided on the hot path:
 * `urbscope read` prints a million lines in a fraction of a second.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "decode.h"

void
sb_grow(struct sbuf *b, size_t n)
{
	size_t	 cap;
	char	*s;

	if (b->oom || b->len + n + 1 <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	if ((s = realloc(b->s, cap)) == NULL) {
		b->oom = 1;
		return;
	}
	b->s = s;
	b->cap = cap;
}

void
sb_free(struct sbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

void
sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (!sb_reserve(b, 128))
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		if (!sb_reserve(b, (size_t)n))
			return;
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void
sb_i64(struct sbuf *b, int64_t v)
{
	if (v < 0) {
		sb_putc(b, '-');
		sb_u64(b, (uint64_t)0 - (uint64_t)v);
	} else
		sb_u64(b, (uint64_t)v);
}

void
sb_u64w(struct sbuf *b, uint64_t v, int width)
{
	char	 tmp[40], *e = tmp + sizeof tmp, *p = e;

	if (width > 20)
		width = 20;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (e - p < width)
		*--p = ' ';
	sb_putn(b, p, (size_t)(e - p));
}

void
sb_hex(struct sbuf *b, uint64_t v, int digits)
{
	static const char hx[] = "0123456789abcdef";
	char	 tmp[32];
	int	 i = 32;

	do {
		tmp[--i] = hx[v & 15];
		v >>= 4;
	} while ((v != 0 || 32 - i < digits) && i > 0);
	sb_putn(b, tmp + i, (size_t)(32 - i));
}

void
sb_secs(struct sbuf *b, int64_t ns, int decimals)
{
	static const uint32_t pow10[10] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
		100000000, 1000000000
	};
	char		 tmp[40], *e = tmp + sizeof tmp, *p = e;
	uint64_t	 u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t	 sec = u / 1000000000;
	uint32_t	 frac = (uint32_t)(u % 1000000000);
	int		 i;

	if (decimals > 9)
		decimals = 9;
	if (decimals > 0) {
		frac /= pow10[9 - decimals];
		for (i = 0; i < decimals; i++) {
			*--p = (char)('0' + frac % 10);
			frac /= 10;
		}
		*--p = '.';
	}
	do {
		*--p = (char)('0' + sec % 10);
		sec /= 10;
	} while (sec != 0);
	if (ns < 0)
		*--p = '-';
	sb_putn(b, p, (size_t)(e - p));
}

void
sb_json_str(struct sbuf *b, const char *s, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	size_t	 i;
	unsigned char c;

	sb_putc(b, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			sb_putc(b, '\\');
			sb_putc(b, (char)c);
		} else if (c < 0x20 || c == 0x7f) {
			sb_puts(b, "\\u00");
			sb_putc(b, hx[c >> 4]);
			sb_putc(b, hx[c & 15]);
		} else
			sb_putc(b, (char)c);
	}
	sb_putc(b, '"');
}
