/*
 * decode/dec-filter.c - the display filter language of the TUI and of
 * read -Y: a recursive descent parser into a caller-given node array
 * and an evaluator over struct dec_fvals.  Pure: no allocation, no I/O.
 *
 *	expr	= and { "||" and }
 *	and	= unary { "&&" unary }
 *	unary	= "!" unary | "(" expr ")" | cmp
 *	cmp	= FIELD OP VALUE
 *
 * Values: numbers (decimal, 0x hex, negative), latency with a unit (ns,
 * us, ms, s; a bare number is microseconds), status names with or without
 * the minus (EPIPE, -EPIPE), transfer types, directions, event letters,
 * driver names (letters, digits, - _ . :) or "quoted".  Errors carry the
 * 1-based column of the token at fault.
 */
#include <stdarg.h>
#include <stdio.h>
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
} ops[] = {		/* two-character operators first */
	{ "==", DFC_EQ }, { "!=", DFC_NE }, { "<=", DFC_LE }, { ">=", DFC_GE },
	{ "<", DFC_LT }, { ">", DFC_GT }, { "=", DFC_EQ },
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

static int
parse_cmp(struct parser *p)
{
	struct dec_fnode *nd;
	const char *s = p->s;
	size_t	 start, n, k, len, vcol;
	uint32_t v;
	int	 idx;

	skip_ws(p);
	start = p->pos;
	while (is_word((unsigned char)s[p->pos]) && s[p->pos] != '-' &&
	    s[p->pos] != '.' && s[p->pos] != ':' && s[p->pos] != '+')
		p->pos++;
	n = p->pos - start;
	if (n == 0) {
		if (s[start] == '\0')
			return perr(p, start, "expected a field at the end");
		return perr(p, start, "expected a field, not '%c'", s[start]);
	}
	if (name_lookup(fields, s + start, n, &v) != 0)
		return perr(p, start, "unknown field '%.*s'", (int)n,
		    s + start);
	if ((idx = new_node(p, DFO_CMP)) < 0)
		return -1;
	nd = &p->f->node[idx];
	nd->field = (uint8_t)v;

	skip_ws(p);
	for (k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		len = strlen(ops[k].s);
		if (strncmp(s + p->pos, ops[k].s, len) == 0)
			break;
	}
	if (k == sizeof ops / sizeof ops[0])
		return perr(p, p->pos, "expected an operator (== != < <= > "
		    ">=) after '%.*s'", (int)n, s + start);
	nd->cmp = ops[k].cmp;
	if ((nd->field == DF_TYPE || nd->field == DF_DIR ||
	    nd->field == DF_EV || nd->field == DF_DRIVER ||
	    nd->field == DF_EVENT) && nd->cmp != DFC_EQ && nd->cmp != DFC_NE)
		return perr(p, p->pos, "'%.*s' compares with == or != only",
		    (int)n, s + start);
	p->pos += strlen(ops[k].s);

	skip_ws(p);
	vcol = p->pos;
	if (s[p->pos] == '"') {
		start = ++p->pos;
		while (s[p->pos] != '"' && s[p->pos] != '\0')
			p->pos++;
		if (s[p->pos] != '"')
			return perr(p, vcol, "unterminated string");
		n = p->pos++ - start;
		if (nd->field != DF_DRIVER)
			return perr(p, vcol, "a quoted string is only for "
			    "driver");
	} else {
		start = p->pos;
		while (is_word((unsigned char)s[p->pos]))
			p->pos++;
		n = p->pos - start;
		if (n == 0)
			return perr(p, vcol, s[vcol] == '\0' ? "expected a "
			    "value at the end" : "expected a value, not '%c'",
			    s[vcol]);
	}
	if (parse_value(p, nd, s + start, n, vcol) != 0)
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
	if (p->s[p->pos] == '!' && p->s[p->pos + 1] != '=') {
		p->pos++;
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
	const char *tok = is_or ? "||" : "&&";
	int	 l, r, idx;

	l = is_or ? parse_binary(p, 0) : parse_unary(p);
	for (;;) {
		if (l < 0)
			return -1;
		skip_ws(p);
		if (strncmp(p->s + p->pos, tok, 2) != 0)
			return l;
		p->pos += 2;
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

int
dec_filter_compile(struct dec_filter *f, const char *expr)
{
	struct parser p = { .f = f, .s = expr };
	int	 root;

	f->n = 0;
	f->col = 0;
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
	f->n = 0;
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
		return c != 0;
	case DFC_LT:
		return c < 0;
	case DFC_LE:
		return c <= 0;
	case DFC_GT:
		return c > 0;
	default:
		return c >= 0;
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
	memset(v, 0, sizeof *v);
	v->busnum = r->busnum;
	v->devnum = r->devnum;
	v->ep = r->epnum;
	v->xfer = r->xfer_type;
	v->ev = r->type;
	v->status = r->status;
	v->len = r->len_urb;
	v->latency_ns = info != NULL && (info->flags & DI_PAIRED) ?
	    info->latency_ns : -1;
	v->urb = r->id;
	v->has_urb = 1;
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
}
