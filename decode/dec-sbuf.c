/*
 * decode/dec-sbuf.c - a growable text buffer with fast number formatting,
 * the output side of every formatter.  printf is avoided on the hot path:
 * `urbscope read` prints a million lines in a fraction of a second.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

uint8_t *
dec_memdup(const uint8_t *p, size_t n)
{
	uint8_t	*q = malloc(n > 0 ? n : 1);

	if (q != NULL && n > 0)
		memcpy(q, p, n);
	return q;
}

int
dec_grow(void *pp, size_t n, size_t *cap, size_t sz)
{
	void	**p = pp;
	void	 *np;
	size_t	  ncap;

	if (n < *cap)
		return 0;
	ncap = *cap == 0 ? 16 : *cap * 2;
	if ((np = reallocarray(*p, ncap, sz)) == NULL)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

const char *
dec_strs_add(struct dec_strs *p, const char *s, size_t n)
{
	size_t	 k;
	char	*copy;

	if (s == NULL)
		return NULL;
	for (k = 0; k < p->n; k++) {
		if (strncmp(p->s[k], s, n) == 0 && p->s[k][n] == '\0')
			return p->s[k];
	}
	if (dec_grow(&p->s, p->n, &p->cap, sizeof *p->s) < 0 ||
	    (copy = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(copy, s, n);
	copy[n] = '\0';
	p->s[p->n++] = copy;
	return copy;
}

void
dec_strs_free(struct dec_strs *p)
{
	size_t	 k;

	for (k = 0; k < p->n; k++)
		free(p->s[k]);
	free(p->s);
	memset(p, 0, sizeof *p);
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

/* v in hex, at least digits of them, after the prefix of plen bytes. */
static inline void
hex_put(struct sbuf *b, uint64_t v, int digits, const char *prefix,
    size_t plen)
{
	char	*d;
	int	 n;

	/* the digits v needs: its highest set bit, not a loop */
	n = v == 0 ? 1 : (64 - __builtin_clzll(v) + 3) / 4;
	if (digits > 32)
		digits = 32;
	if (n < digits)
		n = digits;
	if (!sb_reserve(b, plen + (size_t)n))
		return;
	memcpy(b->s + b->len, prefix, plen);
	b->len += plen;
	/* the digits from the last, straight into place, a byte at a time */
	d = b->s + b->len + n;
	b->len += (size_t)n;
	*d = '\0';
	for (; n >= 2; n -= 2) {
		d -= 2;
		memcpy(d, sb_hexpairs + 2 * (v & 0xff), 2);
		v >>= 8;
	}
	if (n == 1)
		d[-1] = sb_hexpairs[2 * (v & 15) + 1];
}

void
sb_hex(struct sbuf *b, uint64_t v, int digits)
{
	hex_put(b, v, digits, "", 0);
}

void
sb_hex0x(struct sbuf *b, uint64_t v, int digits)
{
	hex_put(b, v, digits, "0x", 2);
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

/* The two decimal digits of 0 to 99, at 2 * value. */
const char sb_decpairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The two lowercase hex digits of every byte value, at 2 * value. */
const char sb_hexpairs[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* p[0..n) as 2n lowercase hex digits, no separators. */
#if defined(__SSE2__)
/* Sixteen nibbles (0 to 15) as their lowercase hex digits. */
static inline __m128i
hex_digits(__m128i x)
{
	__m128i	 past9;

	past9 = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8(9)),
	    _mm_set1_epi8('a' - '0' - 10));
	return _mm_add_epi8(_mm_add_epi8(x, _mm_set1_epi8('0')), past9);
}
#endif

void
sb_hexbytes(struct sbuf *b, const uint8_t *p, size_t n)
{
	char	*d;
	size_t	 i;

	if (!sb_reserve(b, 2 * n))
		return;
	d = b->s + b->len;
	i = 0;
#if defined(__SSE2__)
	/* sixteen bytes a step: each nibble plus '0', plus 39 more past 9 */
	for (; i + 16 <= n; i += 16) {
		__m128i	 v, lo, hi, nib = _mm_set1_epi8(0x0f);

		v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		hi = _mm_and_si128(_mm_srli_epi16(v, 4), nib);
		lo = _mm_and_si128(v, nib);
		_mm_storeu_si128((__m128i *)(void *)(d + 2 * i),
		    hex_digits(_mm_unpacklo_epi8(hi, lo)));
		_mm_storeu_si128((__m128i *)(void *)(d + 2 * i + 16),
		    hex_digits(_mm_unpackhi_epi8(hi, lo)));
	}
#endif
	/* four bytes a store where the host's order allows */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 4 <= n; i += 4) {
		uint16_t	 h[4];
		uint64_t	 w;

		memcpy(&h[0], sb_hexpairs + 2 * p[i], 2);
		memcpy(&h[1], sb_hexpairs + 2 * p[i + 1], 2);
		memcpy(&h[2], sb_hexpairs + 2 * p[i + 2], 2);
		memcpy(&h[3], sb_hexpairs + 2 * p[i + 3], 2);
		w = (uint64_t)h[0] | (uint64_t)h[1] << 16 |
		    (uint64_t)h[2] << 32 | (uint64_t)h[3] << 48;
		memcpy(d + 2 * i, &w, 8);
	}
#endif
	for (; i < n; i++)
		memcpy(d + 2 * i, sb_hexpairs + 2 * p[i], 2);
	b->len += 2 * n;
	b->s[b->len] = '\0';
}

/*
 * The text from b->s[start] on becomes a JSON string literal, in place:
 * quotes around it, '"' and '\\' escaped, control characters as \u00XX.
 * Written back to front, so nothing is copied twice and nothing allocated
 * beyond the growth.
 */
/* SWAR (as in "Bit Twiddling Hacks"): does any byte of w need a JSON
 * escape: '"', '\\', a control character or DEL? */
#define ONES8	0x0101010101010101ULL
#define HIGH8	0x8080808080808080ULL
static inline int
json_special8(uint64_t w)
{
	uint64_t	 q = w ^ (ONES8 * '"');
	uint64_t	 bs = w ^ (ONES8 * '\\');
	uint64_t	 del = w ^ (ONES8 * 0x7f);

	/* a zero byte in q, bs or del, or a byte below 0x20 (a high byte
	 * is never below: it has its top bit, which ~w masks out) */
	return ((((q - ONES8) & ~q) | ((bs - ONES8) & ~bs) |
	    ((del - ONES8) & ~del) | ((w - ONES8 * 0x20) & ~w)) & HIGH8) != 0;
}

void
sb_json_from(struct sbuf *b, size_t start)
{
	static const char hx[] = "0123456789abcdef";
	size_t	 extra = 2, i, j;
	uint64_t w;
	unsigned char c;
	char	*s;

	if (b->oom || start > b->len)
		return;
	/* eight bytes a step while none needs escaping */
	for (i = start; i + 8 <= b->len; i += 8) {
		memcpy(&w, b->s + i, 8);
		if (!json_special8(w))
			continue;
		for (j = i; j < i + 8; j++) {
			c = (unsigned char)b->s[j];
			if (c == '"' || c == '\\')
				extra++;
			else if (c < 0x20 || c == 0x7f)
				extra += 5;
		}
	}
	for (; i < b->len; i++) {
		c = (unsigned char)b->s[i];
		if (c == '"' || c == '\\')
			extra++;
		else if (c < 0x20 || c == 0x7f)
			extra += 5;
	}
	if (!sb_reserve(b, extra))
		return;
	s = b->s;
	if (extra == 2) {
		/* the common case: only the quotes */
		memmove(s + start + 1, s + start, b->len - start);
		s[start] = '"';
		s[b->len + 1] = '"';
		b->len += 2;
		s[b->len] = '\0';
		return;
	}
	i = b->len;
	j = b->len + extra;
	s[j] = '\0';
	s[--j] = '"';
	while (i > start) {
		c = (unsigned char)s[--i];
		if (c == '"' || c == '\\') {
			s[--j] = (char)c;
			s[--j] = '\\';
		} else if (c < 0x20 || c == 0x7f) {
			s[--j] = hx[c & 15];
			s[--j] = hx[c >> 4];
			s[--j] = '0';
			s[--j] = '0';
			s[--j] = 'u';
			s[--j] = '\\';
		} else
			s[--j] = (char)c;
	}
	s[--j] = '"';
	b->len += extra;
}

void
sb_json_str(struct sbuf *b, const char *s, size_t n)
{
	size_t	 start = b->len;

	sb_putn(b, s, n);
	sb_json_from(b, start);
}

/*
 * The continuation indent of a line: a line that starts with blanks is a
 * row of a table ("  -w FILE       write ...", "  Enter  p          jump
 * ..."): its text goes on under the column after the first run of three
 * or more blanks (keys may hold two); other lines, and rows without such
 * a run, go on at their own indent.
 */
static size_t
wrap_indent(const char *s, size_t n, size_t width)
{
	size_t	 i = 0, lead, run;

	while (i < n && s[i] == ' ')
		i++;
	if ((lead = i) == 0)
		return 0;
	for (run = 0; i < n; i++) {
		if (s[i] != ' ') {
			/* a column too far right leaves too little room */
			if (run >= 3)
				return i <= width / 2 ? i : lead;
			run = 0;
		} else
			run++;
	}
	return lead;
}

void
sb_wrap(struct sbuf *b, const char *s, size_t width)
{
	const char	*end;
	size_t		 n, ind, room, cut, min, i;

	if (width < 8)
		width = 8;
	for (;;) {
		end = strchr(s, '\n');
		n = end != NULL ? (size_t)(end - s) : strlen(s);
		while (n > 0 && s[n - 1] == ' ')
			n--;
		ind = wrap_indent(s, n, width);
		room = width;
		min = ind;
		while (n > room) {
			/* the last blank that fits, past the first column,
			 * before a usage's "[" if one is in the second half;
			 * else (one long word) a hard cut */
			for (cut = room; cut > room / 2 && !(s[cut] == ' ' &&
			    s[cut + 1] == '['); cut--)
				;
			if (cut <= room / 2)
				for (cut = room; cut > min && s[cut] != ' ';
				    cut--)
					;
			while (cut > min && s[cut - 1] == ' ')
				cut--;
			if (cut <= min)
				cut = room;
			sb_putn(b, s, cut);
			sb_putc(b, '\n');
			for (s += cut, n -= cut; *s == ' '; s++, n--)
				;
			for (i = 0; i < ind; i++)
				sb_putc(b, ' ');
			room = width - ind;
			min = 0;
		}
		sb_putn(b, s, n);
		if (end == NULL)
			break;
		sb_putc(b, '\n');
		s = end + 1;
	}
}
