/*
 * decode/dec-filter.c - the display filter language of the TUI and of
 * read -Y: a recursive descent parser into a caller-given node array
 * and an evaluator over struct dec_fvals.  Pure: no I/O, and no
 * allocation but a matches' regular expression when compiled
 * (dec_filter_free gives it back).  The language is Wireshark's display
 * filters (its field and protocol names, resolved once by
 * dec_fref_resolve) with urbscope's short names besides.
 *
 *	expr	= and { ("||" | "or") and }
 *	and	= unary { ("&&" | "and") unary }
 *	unary	= ("!" | "not") unary | "(" expr ")" | test
 *	test	= FIELD [ SLICE ] [ OP VALUE | "in" "{" SET "}" ]
 *	SLICE	= "[" range { "," range } "]"	range: i:n i-j i :n i:
 *	SET	= elem { [","] elem }		elem: VALUE | VALUE ".." VALUE
 *
 * A protocol's name (usb, usbms, scsi ...: a field name's part before
 * its first dot) alone is true for a record with a field of it.  A
 * number of a field with value names takes the name too, Wireshark's
 * or urbscope's, in any case (URB_BULK, IN, "Read(10)").  matches takes
 * a POSIX extended regular expression (glibc's, with its \w \s \b),
 * and of PCRE (tshark's) a leading (?i) and \d \D.
 *
 * Values of the short names: numbers (decimal, 0x hex, negative), latency
 * with a unit (ns, us, ms, s; a bare number is microseconds), status
 * names with or without the minus (EPIPE, -EPIPE), transfer types,
 * directions, event letters, driver names (letters, digits, - _ . :) or
 * "quoted".  Of Wireshark's names: numbers, 'c', "strings" (\\ \" \xHH),
 * byte strings (55:53:42:43, 55-53, 5553), seconds for times, true and
 * false.  Errors carry the 1-based column of the token at fault.
 */
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

#define MAX_DEPTH	64

struct parser {
	struct dec_filter *f;
	const char	*s;
	size_t		 pos;
	int		 depth;
};

static const struct dec_name fields[] = {
	{ DF_DEV, "dev" },
	{ DF_BUS, "bus" },
	{ DF_EP, "ep" },
	{ DF_TYPE, "type" },
	{ DF_DIR, "dir" },
	{ DF_EV, "ev" },
	{ DF_STATUS, "status" },
	{ DF_LEN, "len" },
	{ DF_LATENCY, "latency" },
	{ DF_DRIVER, "driver" },
	{ DF_EVENT, "event" },
	{ DF_URB, "urb" },
	{ 0, NULL }
};

static const struct dec_name xfer_names[] = {
	{ XFER_CTRL, "ctrl" },
	{ XFER_CTRL, "control" },
	{ XFER_BULK, "bulk" },
	{ XFER_INT, "int" },
	{ XFER_INT, "interrupt" },
	{ XFER_ISO, "iso" },
	{ XFER_ISO, "isochronous" },
	{ USBPCAP_XFER_IRP, "irp" },	/* USBPcap: ABORT_PIPE ... */
	{ USBLL_XFER_PACKET, "packet" },	/* bus level: SOF, NAK ... */
	{ 0, NULL }
};

static const struct {
	const char	*s;
	uint8_t		 cmp;
	uint8_t		 word;		/* a word: must end there */
} ops[] = {		/* two-character operators first */
	{ "==", DFC_EQ, 0 }, { "!=", DFC_NE, 0 }, { "<=", DFC_LE, 0 },
	{ ">=", DFC_GE, 0 }, { "~=", DFC_ANY_NE, 0 }, { "<", DFC_LT, 0 },
	{ ">", DFC_GT, 0 }, { "=", DFC_EQ, 0 },
	{ "eq", DFC_EQ, 1 }, { "ne", DFC_NE, 1 }, { "lt", DFC_LT, 1 },
	{ "le", DFC_LE, 1 }, { "gt", DFC_GT, 1 }, { "ge", DFC_GE, 1 },
	{ "any_eq", DFC_EQ, 1 }, { "all_ne", DFC_NE, 1 },
	{ "any_ne", DFC_ANY_NE, 1 }, { "contains", DFC_CONTAINS, 1 },
	{ "matches", DFC_MATCHES, 1 }, { "~", DFC_MATCHES, 0 },
};

static const struct {
	const char	*unit;
	int64_t		 mult;
} units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

const char *
dec_drv_kind_name(int kind)
{
	return kind > 0 ? dec_name_find(dec_drv_kinds, (uint32_t)kind) : NULL;
}

static int
perr(struct parser *p, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
perr(struct parser *p, size_t col, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (p->f->col != 0)
		return -UE_SYNTAX;	/* keep the first error */
	p->f->col = (int)col + 1;
	n = snprintf(p->f->err, sizeof p->f->err, "col %d: ", p->f->col);
	if (n < 0 || (size_t)n >= sizeof p->f->err)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(p->f->err + n, sizeof p->f->err - (size_t)n, fmt, ap);
	va_end(ap);
	return -UE_SYNTAX;
}

static void
skip_ws(struct parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

static int
is_word(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	    c == ':' || c == '+';
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A new node; returns its index or -1 (error set). */
static int
new_node(struct parser *p, uint8_t op)
{
	struct dec_fnode *n;

	if (p->f->n >= p->f->max || p->f->n >= UINT16_MAX)
		return perr(p, p->pos, "filter too long"), -1;
	n = &p->f->node[p->f->n];
	memset(n, 0, sizeof *n);
	n->op = op;
	return (int)p->f->n++;
}

static int	parse_or(struct parser *);
static int	parse_regex(struct parser *, struct dec_fnode *, int, int,
		    size_t);

/* Case-insensitive equality of s[0..n) and the NUL-terminated w. */
static int
word_eq(const char *s, size_t n, const char *w)
{
	size_t	 i;
	char	 a, b;

	for (i = 0; i < n; i++) {
		a = s[i];
		b = w[i];
		if (b == '\0')
			return 0;
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return 0;
	}
	return w[n] == '\0';
}

static int
name_lookup(const struct dec_name *t, const char *s, size_t n, uint32_t *v)
{
	for (; t->name != NULL; t++) {
		if (word_eq(s, n, t->name)) {
			*v = t->value;
			return 0;
		}
	}
	return -1;
}

/*
 * A number at s[0..n): decimal, 0x hex, optional '-' or '+'; *rest is
 * set to what follows the digits.  Returns 0, or -1 when no digits or an
 * overflow.
 */
static int
parse_num(const char *s, size_t n, int64_t *out, size_t *rest)
{
	uint64_t v = 0, lim;
	size_t	 i = 0, d0;
	int	 neg = 0, base = 10, dig;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	lim = base == 16 && !neg ? UINT64_MAX : (uint64_t)INT64_MAX;
	for (d0 = i; i < n; i++) {
		if ((dig = dec_hexval(s[i])) < 0 || dig >= base)
			break;
		if (v > (lim - (uint64_t)dig) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)dig;
	}
	if (i == d0)
		return -1;
	/* hex URB ids above INT64_MAX wrap; urb compares them as u64 */
	*out = neg ? -(int64_t)v : (int64_t)v;
	*rest = i;
	return 0;
}

/* The value of a comparison, token s[0..n) at column col. */
static int
parse_value(struct parser *p, struct dec_fnode *nd, const char *s, size_t n,
    size_t col)
{
	uint32_t v;
	int64_t	 num, mult;
	size_t	 rest, i, k;
	int	 st;
	const char *name;

	switch (nd->field) {
	case DF_TYPE:
		if (name_lookup(xfer_names, s, n, &v) != 0)
			return perr(p, col, "unknown transfer type '%.*s' "
			    "(ctrl, bulk, int, iso, irp)", (int)n, s);
		nd->value = v;
		return 0;
	case DF_DIR:
		if (word_eq(s, n, "in"))
			nd->value = 1;
		else if (word_eq(s, n, "out"))
			nd->value = 0;
		else
			return perr(p, col, "dir is in or out, not '%.*s'",
			    (int)n, s);
		return 0;
	case DF_EV:
		if (n != 1 || strchr("SCEPscep", s[0]) == NULL)
			return perr(p, col, "ev is S, C, E or P (a bus packet), "
			    "not '%.*s'", (int)n, s);
		nd->value = s[0] & ~0x20;
		return 0;
	case DF_EVENT:
		if (name_lookup(dec_drv_kinds, s, n, &v) != 0)
			return perr(p, col, "unknown event '%.*s' (probe, "
			    "submit, giveback, rule, ...)", (int)n, s);
		nd->value = v;
		return 0;
	case DF_DRIVER:
		if (n >= DEC_FILTER_STR)
			return perr(p, col, "driver name too long");
		memcpy(nd->str, s, n);
		nd->str[n] = '\0';
		return 0;
	case DF_STATUS:
		if (parse_num(s, n, &num, &rest) == 0 && rest == n) {
			nd->value = num;
			return 0;
		}
		i = s[0] == '-' ? 1 : 0;
		for (st = -1; st >= -4095; st--) {
			if ((name = dec_status_name(st)) != NULL &&
			    word_eq(s + i, n - i, name + 1)) {
				nd->value = st;
				return 0;
			}
		}
		return perr(p, col, "unknown status '%.*s' (a number or a "
		    "name like EPIPE)", (int)n, s);
	case DF_LATENCY:
		if (parse_num(s, n, &num, &rest) != 0 || num < 0)
			return perr(p, col, "latency wants a duration like "
			    "250us or 2ms, not '%.*s'", (int)n, s);
		/* a bare number is microseconds */
		mult = rest == n ? 1000 : 0;
		for (k = 0; mult == 0 && k < sizeof units / sizeof units[0];
		    k++) {
			if (word_eq(s + rest, n - rest, units[k].unit))
				mult = units[k].mult;
		}
		if (mult == 0)
			return perr(p, col + rest, "unknown unit '%.*s' (ns, "
			    "us, ms, s)", (int)(n - rest), s + rest);
		if (num > INT64_MAX / mult)
			return perr(p, col, "latency too large");
		nd->value = num * mult;
		return 0;
	default:
		if (parse_num(s, n, &num, &rest) != 0 || rest != n)
			return perr(p, col, "'%.*s' is not a number", (int)n,
			    s);
		nd->value = num;
		return 0;
	}
}

/* Is s[pos..) the word w, not the start of a longer word? */
static int
at_word(const char *s, size_t pos, const char *w)
{
	size_t	 n = strlen(w);

	return strncmp(s + pos, w, n) == 0 &&
	    !is_word((unsigned char)s[pos + n]);
}

/* A decimal number of seconds ("1.5", "-0.25", "3") in ns; 0 or -1. */
static int
parse_secs(const char *s, size_t n, int64_t *out)
{
	int64_t	 sec, frac = 0, scale = 100000000;
	size_t	 rest, i;
	int	 neg = n > 0 && s[0] == '-';

	if (n > 0 && s[0] == '.') {
		sec = 0;
		rest = 0;
	} else if (parse_num(s, n, &sec, &rest) != 0 ||
	    (rest < n && s[rest] != '.'))
		return -1;
	if (rest < n) {
		for (i = rest + 1; i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -1;
			frac += (s[i] - '0') * scale;
			scale /= 10;
		}
	}
	if (sec > INT64_MAX / 1000000000 || sec < -(INT64_MAX / 1000000000))
		return -1;
	*out = sec * 1000000000 + (neg ? -frac : frac);
	return 0;
}

/* Byte string s[0..n): hex pairs, optionally split by : - or '.'. */
static int
parse_bytes(struct dec_fnode *nd, const char *s, size_t n)
{
	size_t	 i = 0, k = 0;
	int	 hi, lo;
	char	 sep = 0;

	while (i < n) {
		if (k > 0 && (s[i] == ':' || s[i] == '-' || s[i] == '.')) {
			if ((sep != 0 && s[i] != sep) || ++i == n)
				return -1;
			sep = s[i - 1];
		} else if (k > 0 && sep != 0)
			return -1;
		if (i + 1 >= n || (hi = dec_hexval(s[i])) < 0 ||
		    (lo = dec_hexval(s[i + 1])) < 0)
			return -1;
		if (k == sizeof nd->str)
			return -1;
		nd->str[k++] = (char)(hi << 4 | lo);
		i += 2;
	}
	nd->len = (uint16_t)k;
	return k > 0 ? 0 : -1;
}

/* A quoted string's bytes into nd->str (escapes \\ \" \xHH \n \t). */
static int
unquote(struct parser *p, struct dec_fnode *nd, const char *s, size_t n,
    size_t col)
{
	size_t	 i, k = 0;
	int	 hi, lo;
	char	 c;

	for (i = 0; i < n; i++) {
		c = s[i];
		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c == 'x' && i + 2 < n &&
			    (hi = dec_hexval(s[i + 1])) >= 0 &&
			    (lo = dec_hexval(s[i + 2])) >= 0) {
				c = (char)(hi << 4 | lo);
				i += 2;
			}
		}
		if (k == sizeof nd->str)
			return perr(p, col, "string longer than %zu bytes",
			    sizeof nd->str);
		nd->str[k++] = c;
	}
	nd->len = (uint16_t)k;
	return 0;
}

/*
 * The value of a Wireshark name's comparison: s[0..n) at column col,
 * quoted (the quote character q) or not (q 0).
 */
static int
parse_ref_value(struct parser *p, struct dec_fnode *nd, const char *s,
    size_t n, int q, size_t col)
{
	int64_t	 num;
	size_t	 rest;
	int	 vt = dec_fref_type(&nd->fref), named = 0;

	if (nd->nslice > 0) {
		if (vt != DK_BYTES && vt != DK_STRING)
			return perr(p, col, "%s is a number: a slice is of "
			    "strings and bytes", nd->fref.name);
		vt = DK_BYTES;		/* a slice is bytes */
	}
	nd->vtype = (uint8_t)vt;
	nd->neg = 0;
	if (nd->cmp == DFC_MATCHES) {
		if (q == '"' && unquote(p, nd, s, n, col) != 0)
			return -1;
		return parse_regex(p, nd, vt, q, col);
	}
	switch (vt) {
	case DK_LABEL:
		return perr(p, col, "%s has no value: test it alone, as "
		    "'%s'", nd->fref.name, nd->fref.name);
	case DK_STRING:
		if (q == '"')
			return unquote(p, nd, s, n, col);
		if (n > sizeof nd->str)
			return perr(p, col, "string too long");
		memcpy(nd->str, s, n);
		nd->len = (uint16_t)n;
		return 0;
	case DK_BYTES:
		if (q == '"')
			return unquote(p, nd, s, n, col);
		if (q == 0 && parse_bytes(nd, s, n) == 0)
			return 0;
		return perr(p, col, "%s wants bytes like 55:53:42:43 or "
		    "\"text\", not '%.*s'", nd->fref.name, (int)n, s);
	case DK_TIME:
		if (q == 0 && parse_secs(s, n, &nd->value) == 0)
			return 0;
		return perr(p, col, "%s wants seconds like 1.5, not '%.*s'",
		    nd->fref.name, (int)n, s);
	case DK_MSEC:
		/* milliseconds: as many seconds, a thousandth of it */
		if (q == 0 && parse_secs(s, n, &nd->value) == 0) {
			nd->value = (uint64_t)((int64_t)nd->value / 1000);
			return 0;
		}
		return perr(p, col, "%s wants milliseconds like 1.5, not "
		    "'%.*s'", nd->fref.name, (int)n, s);
	default:
		break;
	}
	if (nd->cmp == DFC_CONTAINS)
		return perr(p, col, "contains is for strings and bytes, and "
		    "%s is a number", nd->fref.name);
	if (q == '\'' && n == 1) {
		nd->value = (unsigned char)s[0];
		return 0;
	}
	if (q == 0 && word_eq(s, n, "true")) {
		nd->value = 1;
		return 0;
	}
	if (q == 0 && word_eq(s, n, "false")) {
		nd->value = 0;
		return 0;
	}
	if (q == 0 && parse_num(s, n, &num, &rest) == 0 && rest == n) {
		nd->value = num;
		nd->neg = s[0] == '-';
		return 0;
	}
	/* a driver or bus event's value by its name (bus_event == reset) */
	if (nd->fref.kind == FR_EVENT &&
	    dec_event_value_named(nd->fref.evf, s, n, &nd->value) == 0)
		return 0;
	/* a value's name: URB_BULK, "Read(10)" */
	if (q != '\'' && dec_fref_value(&nd->fref, s, n, &num, &named) == 0) {
		nd->value = num;
		nd->neg = num < 0;
		return 0;
	}
	if (named)
		return perr(p, col, "\"%.*s\" cannot be found among the "
		    "possible values for %s", (int)n, s, nd->fref.name);
	return perr(p, col, "%s wants a number, not '%.*s'", nd->fref.name,
	    (int)n, s);
}

/*
 * matches' pattern: PCRE's (tshark's) leading (?i) and \d \D become
 * what POSIX extended expressions say; the rest glibc reads as it is.
 */
static int
parse_regex(struct parser *p, struct dec_fnode *nd, int vt, int q,
    size_t col)
{
	char	 pat[3 * DEC_FILTER_STR + 1];
	size_t	 i = 0, k = 0;
	int	 flags = REG_EXTENDED | REG_NOSUB, inset = 0, rc;
	regex_t	*re;

	if (vt != DK_STRING && vt != DK_BYTES)
		return perr(p, col, "matches is for strings and bytes, and "
		    "%s is a number", nd->fref.name);
	if (q != '"')
		return perr(p, col, "matches wants a \"quoted\" pattern");
	if (nd->len >= 4 && memcmp(nd->str, "(?i)", 4) == 0) {
		flags |= REG_ICASE;
		i = 4;
	}
	for (; i < nd->len; i++) {
		if (nd->str[i] == '\0')
			return perr(p, col, "a pattern has no NUL byte");
		if (nd->str[i] == '\\' && i + 1 < nd->len &&
		    (nd->str[i + 1] == 'd' || nd->str[i + 1] == 'D')) {
			k += (size_t)snprintf(pat + k, sizeof pat - k, "%s",
			    inset ? "0-9" : nd->str[i + 1] == 'd' ? "[0-9]" :
			    "[^0-9]");
			i++;
			continue;
		}
		if (nd->str[i] == '\\' && i + 1 < nd->len) {
			pat[k++] = nd->str[i++];
		} else if (nd->str[i] == '[' && !inset) {
			inset = 1;
			pat[k++] = nd->str[i];
			/* a ] or ^] first is one of the set */
			if (i + 1 < nd->len && nd->str[i + 1] == '^')
				pat[k++] = nd->str[++i];
			if (i + 1 < nd->len && nd->str[i + 1] == ']')
				pat[k++] = nd->str[++i];
			continue;
		} else if (nd->str[i] == ']')
			inset = 0;
		pat[k++] = nd->str[i];
	}
	pat[k] = '\0';
	if ((re = malloc(sizeof *re)) == NULL)
		return perr(p, col, "out of memory");
	if ((rc = regcomp(re, pat, flags)) != 0) {
		regerror(rc, re, pat, sizeof pat);
		free(re);
		return perr(p, col, "matches: %s", pat);
	}
	nd->re = re;
	return 0;
}

/* A slice's range at s[pos..): i:n i-j i :n i: (i negative: from the
 * end); 0 or -1. */
static int
parse_range(const char *s, size_t *pos, struct dec_slice *sl)
{
	int64_t	 a = 0, b;
	size_t	 rest, i = *pos, n;

	for (n = 0; s[i + n] != '\0' && s[i + n] != ',' && s[i + n] != ']';
	    n++)
		;
	if (n > 0 && s[i] != ':') {
		if (parse_num(s + i, n, &a, &rest) != 0 || a < INT32_MIN ||
		    a > INT32_MAX)
			return -1;
		i += rest;
		n -= rest;
	}
	sl->from = (int32_t)a;
	if (n == 0) {
		if (i == *pos)
			return -1;
		sl->count = 1;
	} else if (s[i] == ':' && n == 1)
		sl->count = INT32_MAX;
	else if (s[i] == ':' || s[i] == '-') {
		if (parse_num(s + i + 1, n - 1, &b, &rest) != 0 ||
		    rest != n - 1 || b < 0 || b > INT32_MAX)
			return -1;
		if (s[i] == ':')
			sl->count = (int32_t)b;
		else if (b < a || a < 0)
			return -1;
		else
			sl->count = b - a + 1 >= INT32_MAX ? INT32_MAX :
			    (int32_t)(b - a + 1);
	} else
		return -1;
	*pos = i + n;
	return 0;
}

/* [range,...] after a field's name, at s[pos] == '['. */
static int
parse_slice(struct parser *p, struct dec_fnode *nd)
{
	size_t	 open = p->pos;

	do {
		p->pos++;
		skip_ws(p);
		if (nd->nslice == DEC_SLICE_MAX)
			return perr(p, p->pos, "at most %d ranges in a slice",
			    DEC_SLICE_MAX);
		if (parse_range(p->s, &p->pos, &nd->slice[nd->nslice]) != 0)
			return perr(p, p->pos, "a slice is [i:n], [i-j], "
			    "[i], [:n] or [i:]");
		nd->nslice++;
		skip_ws(p);
	} while (p->s[p->pos] == ',');
	if (p->s[p->pos] != ']')
		return perr(p, open, "unclosed '['");
	p->pos++;
	return 0;
}

/*
 * A value at p->pos: quoted ("..." '...': *q the quote) or a word;
 * *s, *n its text.  stop: a word ends before "..", a set's range.
 */
static int
scan_value(struct parser *p, const char **s, size_t *n, int *q, int stop)
{
	const char *t = p->s;
	size_t	 vcol, start;

	skip_ws(p);
	vcol = p->pos;
	*q = 0;
	if (t[p->pos] == '"' || t[p->pos] == '\'') {
		*q = t[p->pos];
		start = ++p->pos;
		while (t[p->pos] != *q && t[p->pos] != '\0') {
			if (t[p->pos] == '\\' && t[p->pos + 1] != '\0')
				p->pos++;
			p->pos++;
		}
		if (t[p->pos] != *q)
			return perr(p, vcol, "unterminated string");
		*n = p->pos++ - start;
	} else {
		start = p->pos;
		while (is_word((unsigned char)t[p->pos]) && !(stop &&
		    t[p->pos] == '.' && t[p->pos + 1] == '.'))
			p->pos++;
		*n = p->pos - start;
		if (*n == 0)
			return perr(p, vcol, t[vcol] == '\0' ? "expected a "
			    "value at the end" : "expected a value, not '%c'",
			    t[vcol]);
	}
	*s = t + start;
	return 0;
}

/* The value of node nd (its field and cmp set) at p->pos. */
static int
parse_operand(struct parser *p, struct dec_fnode *nd, int stop)
{
	const char *s;
	size_t	 n, vcol;
	int	 q;

	skip_ws(p);
	vcol = p->pos;
	if (scan_value(p, &s, &n, &q, stop) != 0)
		return -1;
	if (q != 0 && nd->field != DF_DRIVER && nd->field != DF_REF)
		return perr(p, vcol, "a quoted string is only for driver and "
		    "Wireshark's names");
	if (nd->field == DF_REF)
		return parse_ref_value(p, nd, s, n, q, vcol);
	return parse_value(p, nd, s, n, vcol);
}

/*
 * "in" { a b c }, { a, b }, { 1..5 }: one test of the field per member
 * (a copy of the test proto), joined by ||.  A range of a tree field is
 * one test (DFC_RANGE: the same occurrence in both bounds); of another,
 * >= and <=.  Returns the root's index.
 */
static int
parse_set(struct parser *p, int proto)
{
	struct dec_fnode *nd, *lo;
	size_t	 open;
	int	 idx, root = -1, alt, range;

	skip_ws(p);
	if (p->s[p->pos] != '{')
		return perr(p, p->pos, "'in' wants a set: {a b c}");
	open = p->pos++;
	for (;;) {
		skip_ws(p);
		if (p->s[p->pos] == '}' && root >= 0)
			break;
		if (p->s[p->pos] == '\0')
			return perr(p, open, "unclosed '{'");
		if (root < 0)
			idx = proto;
		else if ((idx = new_node(p, DFO_CMP)) < 0)
			return -1;
		nd = &p->f->node[idx];
		if (idx != proto)
			*nd = p->f->node[proto];
		nd->cmp = DFC_EQ;
		if (parse_operand(p, nd, 1) != 0)
			return -1;
		skip_ws(p);
		if ((range = strncmp(p->s + p->pos, "..", 2) == 0)) {
			p->pos += 2;
			lo = nd;
			if ((alt = new_node(p, DFO_CMP)) < 0)
				return -1;
			nd = &p->f->node[alt];
			*nd = *lo;
			if (parse_operand(p, nd, 1) != 0)
				return -1;
			if (lo->field == DF_REF && lo->fref.kind == FR_TREE &&
			    lo->vtype != DK_STRING && lo->vtype != DK_BYTES) {
				lo->cmp = DFC_RANGE;
				lo->value2 = nd->value;
				p->f->n--;	/* alt was the last */
			} else {
				lo->cmp = DFC_GE;
				nd->cmp = DFC_LE;
				if ((range = new_node(p, DFO_AND)) < 0)
					return -1;
				p->f->node[range].a = (uint16_t)idx;
				p->f->node[range].b = (uint16_t)alt;
				idx = range;
			}
		}
		if (root < 0)
			root = idx;
		else {
			if ((alt = new_node(p, DFO_OR)) < 0)
				return -1;
			p->f->node[alt].a = (uint16_t)root;
			p->f->node[alt].b = (uint16_t)idx;
			root = alt;
		}
		skip_ws(p);
		if (p->s[p->pos] == ',')
			p->pos++;
	}
	p->pos++;
	return root;
}

/* An unknown name's error, with the known name nearest to it. */
static int
unknown_field(struct parser *p, const char *s, size_t n, size_t col)
{
	char	 near[80];

	if (dec_field_nearest(s, n, near, sizeof near) != NULL)
		return perr(p, col, "unknown field '%.*s', did you mean %s? "
		    "(urbscope -G fields lists them)", (int)n, s, near);
	return perr(p, col, "unknown field '%.*s' (urbscope -G fields "
	    "lists them)", (int)n, s);
}

/* The field's name at p->pos into node nd: a short name or a dec_fref. */
static int
parse_field(struct parser *p, struct dec_fnode *nd)
{
	const char *s = p->s;
	size_t	 start, n;
	uint32_t v;

	skip_ws(p);
	start = p->pos;
	/* letters, digits, _ and . (a - between letters: ftdi-ft.bRequest) */
	while ((is_word((unsigned char)s[p->pos]) && s[p->pos] != '-' &&
	    s[p->pos] != ':' && s[p->pos] != '+') || (s[p->pos] == '-' &&
	    p->pos > start && is_alpha(s[p->pos - 1]) &&
	    is_alpha(s[p->pos + 1])))
		p->pos++;
	n = p->pos - start;
	if (n == 0) {
		if (s[start] == '\0')
			return perr(p, start, "expected a field at the end");
		return perr(p, start, "expected a field, not '%c'", s[start]);
	}
	if (name_lookup(fields, s + start, n, &v) == 0) {
		nd->field = (uint8_t)v;
		if (v == DF_EVENT || v == DF_DRIVER)
			p->f->on_events = 1;
		return 0;
	}
	if (dec_fref_resolve(s + start, n, &nd->fref) != 0)
		return unknown_field(p, s + start, n, start);
	nd->field = DF_REF;
	switch (nd->fref.kind) {
	case FR_SUMMARY:
		return perr(p, start, "summary is for -T fields, not for "
		    "filters");
	case FR_EVENT:
		p->f->on_events = 1;
		p->f->need_rec = 1;
		break;
	case FR_PROTO:
		/* a class protocol's item goes by the record alone */
		if (dec_class_proto_find(nd->fref.name, nd->fref.plen) ==
		    NULL)
			p->f->need_tree = 1;
		if (nd->fref.evf >= 0)
			p->f->on_events = 1;
		p->f->need_rec = 1;
		break;
	case FR_TREE:
		p->f->need_tree = 1;
		/* FALLTHROUGH */
	case FR_DATA:
	case FR_SYNTHETIC:
		p->f->need_rec = 1;
		break;
	case FR_FRAME:
		break;
	case FR_FRAME_LEN:
	case FR_FRAME_CAPLEN:
		p->f->need_rec = 1;
		/* FALLTHROUGH */
	default:
		p->f->need_frame = 1;
		break;
	}
	return 0;
}

static int
parse_cmp(struct parser *p)
{
	struct dec_fnode *nd;
	const char *s = p->s;
	size_t	 k, len, fstart, fn;
	int	 idx;

	if ((idx = new_node(p, DFO_CMP)) < 0)
		return -1;
	nd = &p->f->node[idx];
	skip_ws(p);
	fstart = p->pos;
	if (parse_field(p, nd) != 0)
		return -1;
	fn = p->pos - fstart;
	if (s[p->pos] == '[') {
		if (nd->field != DF_REF || (nd->fref.kind != FR_TREE &&
		    nd->fref.kind != FR_DATA && nd->fref.kind != FR_EVENT))
			return perr(p, p->pos, "'%.*s' cannot be sliced",
			    (int)fn, s + fstart);
		if (parse_slice(p, nd) != 0)
			return -1;
	}

	skip_ws(p);
	for (k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		len = strlen(ops[k].s);
		if (ops[k].word ? at_word(s, p->pos, ops[k].s) :
		    strncmp(s + p->pos, ops[k].s, len) == 0)
			break;
	}
	if (k == sizeof ops / sizeof ops[0] && !at_word(s, p->pos, "in")) {
		/* a bare name: is it there? */
		nd->cmp = DFC_HAS;
		if (nd->field != DF_REF) {
			nd->value = nd->field;
			nd->field = DF_HAS;
		}
		return idx;
	}
	if (nd->field == DF_REF && (nd->fref.kind == FR_PROTO ||
	    nd->fref.kind == FR_FRAME))
		return perr(p, p->pos, "'%.*s' is a protocol: test it alone, "
		    "as '%.*s'", (int)fn, s + fstart, (int)fn, s + fstart);
	if (k == sizeof ops / sizeof ops[0]) {
		p->pos += 2;
		nd->cmp = DFC_EQ;
		return parse_set(p, idx);
	}
	nd->cmp = ops[k].cmp;
	if (nd->field != DF_REF && (nd->cmp == DFC_CONTAINS ||
	    nd->cmp == DFC_ANY_NE || nd->cmp == DFC_MATCHES))
		return perr(p, p->pos, "'%s' is for Wireshark's names, not "
		    "'%.*s'", ops[k].s, (int)fn, s + fstart);
	if ((nd->field == DF_TYPE || nd->field == DF_DIR ||
	    nd->field == DF_EV || nd->field == DF_DRIVER ||
	    nd->field == DF_EVENT) && nd->cmp != DFC_EQ && nd->cmp != DFC_NE)
		return perr(p, p->pos, "'%.*s' compares with == or != only",
		    (int)fn, s + fstart);
	p->pos += strlen(ops[k].s);
	if (parse_operand(p, nd, 0) != 0)
		return -1;
	return idx;
}

static int
parse_unary(struct parser *p)
{
	size_t	 open;
	int	 idx, a;

	if (++p->depth > MAX_DEPTH)
		return perr(p, p->pos, "nested too deeply"), -1;
	skip_ws(p);
	if ((p->s[p->pos] == '!' && p->s[p->pos + 1] != '=') ||
	    at_word(p->s, p->pos, "not")) {
		p->pos += p->s[p->pos] == '!' ? 1 : 3;
		if ((a = parse_unary(p)) < 0)
			return -1;
		if ((idx = new_node(p, DFO_NOT)) < 0)
			return -1;
		p->f->node[idx].a = (uint16_t)a;
	} else if (p->s[p->pos] == '(') {
		open = p->pos++;
		if ((idx = parse_or(p)) < 0)
			return -1;
		skip_ws(p);
		if (p->s[p->pos] != ')')
			return perr(p, p->s[p->pos] == '\0' ? open : p->pos,
			    p->s[p->pos] == '\0' ? "unclosed '('" :
			    "expected ')'"), -1;
		p->pos++;
	} else
		idx = parse_cmp(p);
	p->depth--;
	return idx;
}

static int
parse_binary(struct parser *p, int is_or)
{
	const char *tok = is_or ? "||" : "&&", *word = is_or ? "or" : "and";
	int	 l, r, idx;

	l = is_or ? parse_binary(p, 0) : parse_unary(p);
	for (;;) {
		if (l < 0)
			return -1;
		skip_ws(p);
		if (strncmp(p->s + p->pos, tok, 2) == 0)
			p->pos += 2;
		else if (at_word(p->s, p->pos, word))
			p->pos += strlen(word);
		else
			return l;
		if ((r = is_or ? parse_binary(p, 0) : parse_unary(p)) < 0)
			return -1;
		if ((idx = new_node(p, is_or ? DFO_OR : DFO_AND)) < 0)
			return -1;
		p->f->node[idx].a = (uint16_t)l;
		p->f->node[idx].b = (uint16_t)r;
		l = idx;
	}
}

static int
parse_or(struct parser *p)
{
	return parse_binary(p, 1);
}

void
dec_filter_free(struct dec_filter *f)
{
	size_t	 i;

	for (i = 0; i < f->n && i < f->max; i++) {
		if (f->node[i].op == DFO_CMP && f->node[i].re != NULL) {
			regfree(f->node[i].re);
			free(f->node[i].re);
			f->node[i].re = NULL;
		}
	}
	f->n = 0;
}

int
dec_filter_compile(struct dec_filter *f, const char *expr)
{
	struct parser p = { .f = f, .s = expr };
	int	 root;

	f->n = 0;
	f->col = 0;
	f->need_tree = f->need_rec = f->need_frame = f->on_events = 0;
	f->err[0] = '\0';
	skip_ws(&p);
	if (expr[p.pos] == '\0') {
		if ((root = new_node(&p, DFO_TRUE)) < 0)
			return -UE_SYNTAX;
		f->root = (uint16_t)root;
		return 0;
	}
	if ((root = parse_or(&p)) < 0)
		goto fail;
	skip_ws(&p);
	if (expr[p.pos] != '\0') {
		if (expr[p.pos] == ')')
			perr(&p, p.pos, "')' without '('");
		else
			perr(&p, p.pos, "expected && or || before '%.10s'",
			    expr + p.pos);
		goto fail;
	}
	f->root = (uint16_t)root;
	return 0;
fail:
	if (f->col == 0)
		perr(&p, p.pos, "syntax error");
	dec_filter_free(f);
	f->need_tree = f->need_rec = f->need_frame = f->on_events = 0;
	return -UE_SYNTAX;
}

/* Apply comparison cmp to an ordering: c < 0, 0 or > 0 as a <, ==, > b. */
static int
cmp_order(int c, uint8_t cmp)
{
	switch (cmp) {
	case DFC_EQ:
		return c == 0;
	case DFC_NE:
	case DFC_ANY_NE:
		return c != 0;
	case DFC_LT:
		return c < 0;
	case DFC_LE:
		return c <= 0;
	case DFC_GT:
		return c > 0;
	case DFC_GE:
		return c >= 0;
	default:
		return 0;
	}
}

static int
cmp_i64(int64_t a, uint8_t cmp, int64_t b)
{
	return cmp_order((a > b) - (a < b), cmp);
}

static int
cmp_u64(uint64_t a, uint8_t cmp, uint64_t b)
{
	return cmp_order((a > b) - (a < b), cmp);
}

/* The short name field's presence (a bare name). */
static int
has_short(int64_t field, const struct dec_fvals *v)
{
	switch (field) {
	case DF_TYPE:
	case DF_DIR:
	case DF_EV:
		return !v->is_event;
	case DF_STATUS:
		return !v->is_event && (v->ev == 'C' || v->ev == 'E');
	case DF_LATENCY:
		return v->latency_ns >= 0;
	case DF_DRIVER:
		return v->driver != NULL;
	case DF_EVENT:
		return v->is_event;
	case DF_URB:
		return v->has_urb;
	default:
		return 1;
	}
}

/* Out of line: the short names' switch stays small. */
static int	match_ref(const struct dec_fnode *, const struct dec_fvals *)
		    __attribute__((noinline));

/* A comparison: a short name's inline, Wireshark's in match_ref. */
static int
match_cmp(const struct dec_fnode *nd, const struct dec_fvals *v)
{
	int	 eq;

	switch (nd->field) {
	case DF_DEV:
		return cmp_i64(v->devnum, nd->cmp, nd->value);
	case DF_BUS:
		return cmp_i64(v->busnum, nd->cmp, nd->value);
	case DF_EP:
		/* ep==1 is endpoint 1 either way; ep==0x81 the address */
		if (nd->value >= 0x80)
			return cmp_i64(v->ep, nd->cmp, nd->value);
		return cmp_i64(v->ep & 0x7f, nd->cmp, nd->value);
	case DF_LEN:
		return cmp_i64(v->len, nd->cmp, nd->value);
	case DF_URB:
		return v->has_urb && cmp_u64(v->urb, nd->cmp,
		    (uint64_t)nd->value);
	case DF_TYPE:
	case DF_DIR:
	case DF_EV:
	case DF_STATUS:
		if (v->is_event)
			return 0;
		if (nd->field == DF_TYPE)
			return cmp_i64(v->xfer, nd->cmp, nd->value);
		if (nd->field == DF_DIR)
			return cmp_i64((v->ep & 0x80) != 0, nd->cmp,
			    nd->value);
		if (nd->field == DF_EV)
			return cmp_i64(v->ev, nd->cmp, nd->value);
		/* a submit has no status yet (usbmon's -EINPROGRESS) */
		if (v->ev != 'C' && v->ev != 'E')
			return 0;
		return cmp_i64(v->status, nd->cmp, nd->value);
	case DF_LATENCY:
		return v->latency_ns >= 0 &&
		    cmp_i64(v->latency_ns, nd->cmp, nd->value);
	case DF_DRIVER:
		if (v->driver == NULL)
			return 0;
		eq = word_eq(v->driver, strlen(v->driver), nd->str);
		return nd->cmp == DFC_EQ ? eq : !eq;
	case DF_EVENT:
		if (!v->is_event)
			return 0;
		return cmp_i64(v->event, nd->cmp, nd->value);
	case DF_HAS:
		return has_short(nd->value, v);
	case DF_REF:
		return match_ref(nd, v);
	}
	return 0;
}

/*
 * Does a[0..an) match nd's regular expression?  glibc's REG_STARTEND
 * bounds the subject, NULs and all; the copy ends it with a NUL for
 * what reads it as a string (ASan's regexec).
 */
static int
match_re(const struct dec_fnode *nd, const void *a, size_t an)
{
	regmatch_t m[1];
	char	 buf[4096], *s = buf;
	int	 rc;

	if (nd->re == NULL || an > INT32_MAX)
		return 0;
	if (an >= sizeof buf && (s = malloc(an + 1)) == NULL)
		return 0;
	memcpy(s, a, an);
	s[an] = '\0';
	m[0].rm_so = 0;
	m[0].rm_eo = (regoff_t)an;
	rc = regexec(nd->re, s, 1, m, REG_STARTEND);
	if (s != buf)
		free(s);
	return rc == 0;
}

/* Compare bytes a[0..an) with the node's, by cmp (contains too). */
static int
cmp_mem(const struct dec_fnode *nd, uint8_t cmp, const void *a, size_t an)
{
	size_t	 k;
	int	 c;

	if (cmp == DFC_MATCHES)
		return match_re(nd, a, an);
	if (cmp == DFC_CONTAINS)
		return nd->len == 0 || (an >= nd->len &&
		    memmem(a, an, nd->str, nd->len) != NULL);
	k = an < nd->len ? an : nd->len;
	c = k > 0 ? memcmp(a, nd->str, k) : 0;
	if (c == 0)
		c = (an > nd->len) - (an < nd->len);
	return cmp_order(c, cmp);
}

/* Range sl of n bytes: its start into *off, its length returned. */
static size_t
slice_range(const struct dec_slice *sl, size_t n, size_t *off)
{
	int64_t	 from = sl->from;

	if (from < 0 && (from += (int64_t)n) < 0)
		from = 0;
	if ((uint64_t)from >= n) {
		*off = n;
		return 0;
	}
	*off = (size_t)from;
	n -= (size_t)from;
	return sl->count != INT32_MAX && (size_t)sl->count < n ?
	    (size_t)sl->count : n;
}

/* cmp_mem of a value's bytes, sliced as the node says first. */
static int
test_mem(const struct dec_fnode *nd, uint8_t cmp, const uint8_t *a,
    size_t an)
{
	uint8_t	 buf[1024];
	size_t	 i, off, k, total = 0;

	if (nd->nslice == 1) {
		k = slice_range(&nd->slice[0], an, &off);
		return cmp_mem(nd, cmp, a + off, k);
	}
	for (i = 0; i < nd->nslice; i++) {
		k = slice_range(&nd->slice[i], an, &off);
		if (k > sizeof buf - total)
			return 0;	/* longer than any value typed */
		memcpy(buf + total, a + off, k);
		total += k;
	}
	return nd->nslice == 0 ? cmp_mem(nd, cmp, a, an) :
	    cmp_mem(nd, cmp, buf, total);
}

/* A number of a field of unsigned values with the node's constant (hex
 * above INT64_MAX wraps in value: neg tells). */
static int
cmp_uv(uint64_t a, uint8_t cmp, const struct dec_fnode *nd)
{
	if (cmp == DFC_RANGE)
		return cmp_uv(a, DFC_GE, nd) && (nd->value2 < 0 ? 0 :
		    a <= (uint64_t)nd->value2);
	if (nd->neg && nd->value < 0)
		return cmp_order(1, cmp);
	return cmp_u64(a, cmp, (uint64_t)nd->value);
}

/* A signed number with the node's constant (its range too). */
static int
cmp_sv(int64_t a, uint8_t cmp, const struct dec_fnode *nd)
{
	if (cmp == DFC_RANGE)
		return a >= nd->value && a <= nd->value2;
	return cmp_i64(a, cmp, nd->value);
}

/* Node n of the tree against the constant of nd (its base comparison:
 * equality for != and ~=). */
static int
test_node(const struct dec_fnode *nd, const struct urb_rec *r,
    const struct dec_node *n, uint8_t cmp)
{
	const uint8_t	*p;
	int64_t		 sv;
	uint64_t	 mask;
	int		 is_mem = nd->vtype == DK_STRING || nd->vtype == DK_BYTES;

	switch (n->f->kind) {
	case DK_LABEL:
		return 0;
	case DK_STRING:
		if (!is_mem || (nd->vtype == DK_BYTES && nd->nslice == 0))
			return 0;
		p = (const uint8_t *)(n->str != NULL ? n->str : "");
		return test_mem(nd, cmp, p, strlen((const char *)p));
	case DK_BYTES:
		if (nd->vtype != DK_BYTES || r == NULL ||
		    (p = dec_node_bytes(r, n)) == NULL)
			return 0;
		return test_mem(nd, cmp, p, n->len);
	case DK_INT:
	case DK_TIME:
	case DK_MSEC:
		if (is_mem)
			return 0;
		sv = (int64_t)n->value;
		if (n->f->kind == DK_INT && n->f->width > 0 &&
		    n->f->width < 8) {
			/* sign-extend from the field's width */
			mask = 1ULL << (8 * n->f->width - 1);
			sv = (int64_t)(((n->value & ((mask << 1) - 1)) ^ mask) -
			    mask);
		}
		return cmp_sv(sv, cmp, nd);
	default:
		if (is_mem)
			return 0;
		/* as tshark shows it: 0xffff in a u8 is 0xff */
		mask = n->f->width > 0 && n->f->width < 8 ?
		    (1ULL << (8 * n->f->width)) - 1 : UINT64_MAX;
		return cmp_uv(n->value & mask, cmp, nd);
	}
}

/*
 * A protocol's name, as tshark tests it: is the protocol's item in the
 * frame's tree?  A class decoder's protocol says when Wireshark 4.0 adds
 * it (the class's fields alone, as in a configuration descriptor, are
 * not it); another's is there with a field of it; a bus event's syslog
 * with its syslog.* fields.
 */
static int
match_proto(const struct dec_fnode *nd, const struct dec_fvals *v)
{
	const struct dec_tree *t = v->tree;
	size_t		 i;
	int		 rc;

	if (v->is_event)
		return v->evp != NULL && nd->fref.evf >= 0 &&
		    dec_event_proto_is(v->evp, nd->fref.name, nd->fref.plen);
	if (v->r != NULL && v->info != NULL && (rc = dec_class_proto_item(
	    v->r, v->info, nd->fref.name, nd->fref.plen)) >= 0)
		return rc;
	for (i = 0; t != NULL && i < t->n; i++) {
		if (dec_fref_proto_is(&nd->fref, &t->node[i]))
			return 1;
	}
	return 0;
}

/*
 * A Wireshark name over every occurrence in the tree: any occurrence for
 * == < > contains ~=; != holds when some occurrence is there and none is
 * equal; a bare name when one is there.
 */
static int
match_tree(const struct dec_fnode *nd, const struct dec_fvals *v)
{
	const struct dec_tree *t = v->tree;
	const struct dec_node *n;
	size_t	 i;
	int	 seen = 0;

	if (t == NULL)
		return 0;
	for (i = 0; i < t->n; i++) {
		n = &t->node[i];
		if (!dec_fref_is(&nd->fref, n))
			continue;
		if (nd->cmp == DFC_HAS)
			return 1;
		seen = 1;
		if (nd->cmp == DFC_NE) {
			if (test_node(nd, v->r, n, DFC_EQ))
				return 0;
		} else if (test_node(nd, v->r, n, nd->cmp))
			return 1;
	}
	return nd->cmp == DFC_NE && seen;
}

/* A driver event's field. */
static int
match_event(const struct dec_fnode *nd, const struct dec_fvals *v)
{
	int64_t		 num;
	const char	*str = NULL;
	uint8_t		 cmp = nd->cmp == DFC_ANY_NE ? DFC_NE : nd->cmp;

	switch (dec_event_value(v->evp, nd->fref.evf, &num, &str)) {
	case 1:
		if (cmp == DFC_HAS)
			return 1;
		if (nd->vtype == DK_STRING || nd->vtype == DK_BYTES)
			return 0;
		return cmp_sv(num, cmp, nd);
	case 2:
		if (cmp == DFC_HAS)
			return 1;
		if (nd->vtype != DK_STRING && nd->vtype != DK_BYTES)
			return 0;
		return test_mem(nd, cmp, (const uint8_t *)str, strlen(str));
	default:
		return 0;
	}
}

/* A time stamp difference (frame.time_*), absent when either is bad. */
static int
match_time(const struct dec_fnode *nd, int64_t a, int64_t b)
{
	if (a == DEC_TS_BAD || b == DEC_TS_BAD)
		return 0;
	return nd->cmp == DFC_HAS ||
	    cmp_i64(dec_ts_sub(a, b), nd->cmp, nd->value);
}

static int
match_ref(const struct dec_fnode *nd, const struct dec_fvals *v)
{
	const struct dec_frame *fr = v->frame;
	uint8_t	 cmp = nd->cmp == DFC_ANY_NE ? DFC_NE : nd->cmp;
	int	 syn;

	switch (nd->fref.kind) {
	case FR_TREE:
		if (v->is_event)
			return v->evp != NULL && nd->fref.evf >= 0 &&
			    match_event(nd, v);
		return match_tree(nd, v);
	case FR_PROTO:
		return match_proto(nd, v);
	case FR_FRAME:
		return 1;
	case FR_EVENT:
		return v->is_event && v->evp != NULL && match_event(nd, v);
	case FR_KIND:
		/* compiled as the short name event */
		return 0;
	case FR_DATA:
		if (v->is_event || v->r == NULL)
			return 0;
		return cmp == DFC_HAS ? v->r->data_len > 0 :
		    v->r->data_len > 0 && test_mem(nd, cmp, v->r->data,
		    v->r->data_len);
	case FR_SYNTHETIC:
		syn = !v->is_event && v->r != NULL &&
		    (v->r->flags & REC_F_SYNTHETIC) != 0;
		return cmp == DFC_HAS ? syn : cmp_i64(syn, cmp, nd->value);
	}
	if (fr == NULL)
		return 0;
	switch (nd->fref.kind) {
	case FR_FRAME_NUMBER:
		return cmp == DFC_HAS || cmp_uv(fr->number, cmp, nd);
	case FR_FRAME_OFFSET:
		return cmp == DFC_HAS || cmp_uv(fr->offset, cmp, nd);
	case FR_FRAME_LEN:
		return fr->len != 0 && (cmp == DFC_HAS ||
		    cmp_uv(fr->len, cmp, nd));
	case FR_FRAME_CAPLEN:
		return fr->len != 0 && (cmp == DFC_HAS ||
		    cmp_uv(fr->cap_len, cmp, nd));
	case FR_FRAME_EPOCH:
		return match_time(nd, fr->ts_ns, 0);
	case FR_FRAME_REL:
		return match_time(nd, fr->ts_ns, fr->t0_ns);
	case FR_FRAME_DELTA:
		return match_time(nd, fr->ts_ns, fr->prev_ns);
	}
	return 0;
}

static int
match_node(const struct dec_filter *f, uint16_t i, const struct dec_fvals *v)
{
	const struct dec_fnode *nd = &f->node[i];

	switch (nd->op) {
	case DFO_AND:
		return match_node(f, nd->a, v) && match_node(f, nd->b, v);
	case DFO_OR:
		return match_node(f, nd->a, v) || match_node(f, nd->b, v);
	case DFO_NOT:
		return !match_node(f, nd->a, v);
	case DFO_CMP:
		return match_cmp(nd, v);
	default:
		return 1;
	}
}

int
dec_filter_match(const struct dec_filter *f, const struct dec_fvals *v)
{
	if (f->n == 0)
		return 1;
	return match_node(f, f->root, v);
}

void
dec_fvals_urb(const struct urb_rec *r, const struct dec_info *info,
    struct dec_fvals *v)
{
	/* every member set, no memset: this runs for every record */
	v->is_event = 0;
	v->busnum = r->busnum;
	v->devnum = r->devnum;
	v->ep = r->epnum;
	v->xfer = r->xfer_type;
	v->ev = r->type;
	v->status = r->status;
	v->len = r->len_urb;
	v->latency_ns = info != NULL && (info->flags & DI_PAIRED) ?
	    info->latency_ns : -1;
	v->driver = NULL;
	v->event = 0;
	v->urb = r->id;
	v->has_urb = 1;
	v->frame = NULL;
	v->r = r;
	v->info = info;
	v->tree = NULL;
	v->evp = NULL;
}

void
dec_fvals_event(const struct drv_event *ev, struct dec_fvals *v)
{
	memset(v, 0, sizeof *v);
	v->is_event = 1;
	v->busnum = ev->busnum;
	v->devnum = ev->devnum;
	v->ep = ev->ep;
	v->len = ev->length;
	v->latency_ns = -1;
	v->driver = ev->driver;
	v->event = (int)ev->kind;
	v->urb = ev->urb_id;
	v->has_urb = ev->urb_id != 0;
	v->evp = ev;
}
