/*
 * decode/dec-event.c - driver events as text: the "urbscope-event" line
 * the pcapng writer stores (and its parser, a pure function that never
 * reads past its input), and the formatters read uses: one line, JSON and
 * -V.  Every field is a row in ev_fields; every kind a row in ev_kinds
 * saying which fields it always shows.  Grammar: decode/decode.h.
 */
#include <stddef.h>
#include <stdint.h>

#include "decode.h"

/* enum drv_kind, in the core's words. */
const struct dec_name dec_drv_kinds[] = {
	{ DRV_REGISTER, "register" },
	{ DRV_DEREGISTER, "deregister" },
	{ DRV_MATCH, "match" },
	{ DRV_PROBE, "probe" },
	{ DRV_DISCONNECT, "disconnect" },
	{ DRV_REGISTER_DEV, "register_dev" },
	{ DRV_DEREGISTER_DEV, "deregister_dev" },
	{ DRV_SET_INTFDATA, "set_intfdata" },
	{ DRV_GET_INTFDATA, "get_intfdata" },
	{ DRV_OPEN, "open" },
	{ DRV_RELEASE, "release" },
	{ DRV_SUBMIT, "submit" },
	{ DRV_GIVEBACK, "giveback" },
	{ DRV_UNLINK, "unlink" },
	{ DRV_KILL, "kill" },
	{ DRV_RULE, "rule" },
	{ DRV_LOG, "log" },
	{ DRV_BUS, "bus" },
	{ 0, NULL }
};

/* mem_flags values of core/usb.h (gfp_t). */
const struct dec_name dec_gfp_flags[] = {
	{ 0x10, "GFP_NOIO" },
	{ 0x20, "GFP_ATOMIC" },
	{ 0x50, "GFP_NOFS" },
	{ 0xd0, "GFP_KERNEL" },
	{ 0, NULL }
};

/* context: enum sim_ctx of core/sim.h. */
const struct dec_name dec_drv_contexts[] = {
	{ 0, "task" },
	{ 1, "irq" },
	{ 2, "timer" },
	{ 3, "atomic" },
	{ 0, NULL }
};

enum ev_type {
	EV_UINT,		/* decimal */
	EV_INT,			/* signed decimal */
	EV_HEX,			/* 0x, digits as the value needs */
	EV_HEX2,		/* 0x and two digits */
	EV_STR,
	EV_NAMED,		/* a name from names, else 0x hex */
};

struct ev_field {
	const char	*key;		/* in the line */
	const char	*json;		/* JSON member */
	const char	*label;		/* in the summary; NULL: not there */
	enum ev_type	 type;
	size_t		 off;
	size_t		 size;		/* of a number */
	int64_t		 def;		/* not written when equal */
	const struct dec_name *names;
	int		 only;		/* kind K: only K's; -K: all but K's */
};

#define EVK(k, j, l, t, m, d, n, o)					\
	{ k, j, l, t, offsetof(struct drv_event, m),			\
	    sizeof(((struct drv_event *)0)->m), d, n, o }
#define EVF(k, j, l, t, m, d, n)	EVK(k, j, l, t, m, d, n, 0)

static const struct ev_field ev_fields[] = {
	EVF("driver", "driver", NULL, EV_STR, driver, 0, NULL),
	EVF("func", "function", NULL, EV_STR, func, 0, NULL),
	EVF("bus", "usb.bus_id", NULL, EV_UINT, busnum, 0, NULL),
	EVF("dev", "usb.device_address", NULL, EV_UINT, devnum, 0, NULL),
	EVF("intf", "intf", "intf", EV_INT, intf, -1, NULL),
	EVF("urb", "usb.urb_id", "urb", EV_HEX, urb_id, 0, NULL),
	EVF("ep", "usb.endpoint_address", "ep", EV_HEX2, ep, 0, NULL),
	EVF("len", "length", "len", EV_UINT, length, 0, NULL),
	/* the text says "entry N" already */
	EVF("entry", "entry", NULL, EV_UINT, entry, 0, NULL),
	EVF("mem", "mem_flags", "", EV_NAMED, mem_flags, 0, dec_gfp_flags),
	EVF("ctx", "context", "", EV_NAMED, context, 0, dec_drv_contexts),
	EVF("ptr", "ptr", "ptr", EV_HEX, ptr, 0, NULL),
	EVF("minor", "minor", "minor", EV_INT, minor, -1, NULL),
	EVF("result", "result", NULL, EV_INT, result, 0, NULL),
	EVF("rule", "rule", NULL, EV_STR, rule, 0, NULL),
	EVK("text", "text", NULL, EV_STR, text, 0, NULL, -DRV_BUS),
	/* a bus event's: its message is tshark's syslog.msg */
	EVK("text", "syslog.msg", NULL, EV_STR, text, 0, NULL, DRV_BUS),
	EVK("level", "syslog.level", NULL, EV_INT, syslog_level, -1, NULL,
	    DRV_BUS),
	EVK("facility", "syslog.facility", NULL, EV_INT, syslog_facility, -1,
	    NULL, DRV_BUS),
	EVK("bus_ev", "bus_event", NULL, EV_NAMED, bus_ev, 0, dec_bus_evs,
	    DRV_BUS),
	EVK("speed", "bus_speed", NULL, EV_NAMED, bus_speed, 0,
	    dec_bus_speeds, DRV_BUS),
};
#define EV_NFIELDS	(sizeof ev_fields / sizeof ev_fields[0])

/* Bits of ev_fields rows, for ev_kinds. */
#define B_INTF		(1U << 4)
#define B_URB		(1U << 5)
#define B_EP		(1U << 6)
#define B_LEN		(1U << 7)
#define B_ENTRY		(1U << 8)
#define B_MEM		(1U << 9)
#define B_CTX		(1U << 10)
#define B_PTR		(1U << 11)
#define B_MINOR		(1U << 12)
#define B_RESULT	(1U << 13)
#define B_ALWAYS	0x0fU		/* driver func bus dev */

/*
 * Fields each kind shows even at their defaults; whether its summary ends
 * with the text (the core's text of URB events repeats their fields).
 */
static const struct {
	enum drv_kind	 kind;
	uint32_t	 show;
	int		 text;
} ev_kinds[] = {
	{ DRV_REGISTER, B_RESULT, 1 },
	{ DRV_DEREGISTER, 0, 1 },
	{ DRV_MATCH, B_INTF | B_ENTRY | B_RESULT, 1 },
	{ DRV_PROBE, B_INTF | B_RESULT, 1 },
	{ DRV_DISCONNECT, B_INTF, 1 },
	{ DRV_REGISTER_DEV, B_INTF | B_MINOR | B_RESULT, 1 },
	{ DRV_DEREGISTER_DEV, B_MINOR, 1 },
	{ DRV_SET_INTFDATA, B_INTF | B_PTR, 1 },
	{ DRV_GET_INTFDATA, B_INTF | B_PTR, 1 },
	{ DRV_OPEN, B_MINOR | B_RESULT, 1 },
	{ DRV_RELEASE, B_MINOR, 1 },
	{ DRV_SUBMIT, B_URB | B_EP | B_LEN | B_MEM | B_CTX | B_RESULT, 0 },
	{ DRV_GIVEBACK, B_URB | B_EP | B_LEN | B_RESULT, 0 },
	{ DRV_UNLINK, B_URB | B_RESULT, 0 },
	{ DRV_KILL, B_URB, 0 },
	{ DRV_RULE, B_CTX, 1 },
	{ DRV_LOG, 0, 1 },
	{ DRV_BUS, 0, 1 },
};

/* Does the summary of kind end with the text? */
static int
ev_text(enum drv_kind kind)
{
	size_t	 i;

	for (i = 0; i < sizeof ev_kinds / sizeof ev_kinds[0]; i++) {
		if (ev_kinds[i].kind == kind)
			return ev_kinds[i].text;
	}
	return 1;
}

static uint32_t
ev_show(enum drv_kind kind)
{
	size_t	 i;

	/* a bus event names no bus number or device: the sniffer sees
	 * one link */
	if (kind == DRV_BUS)
		return 0;
	for (i = 0; i < sizeof ev_kinds / sizeof ev_kinds[0]; i++) {
		if (ev_kinds[i].kind == kind)
			return ev_kinds[i].show | B_ALWAYS;
	}
	return B_ALWAYS;
}

/* A numeric field, sign-extended for EV_INT. */
static int64_t
ev_get(const struct drv_event *ev, const struct ev_field *f)
{
	const uint8_t	*p = (const uint8_t *)ev + f->off;
	uint8_t		 u8;
	uint16_t	 u16;
	uint32_t	 u32;
	uint64_t	 u64;
	int		 sgn = f->type == EV_INT;

	switch (f->size) {
	case 1:
		memcpy(&u8, p, 1);
		return sgn ? (int64_t)(int8_t)u8 : (int64_t)u8;
	case 2:
		memcpy(&u16, p, 2);
		return sgn ? (int64_t)(int16_t)u16 : (int64_t)u16;
	case 4:
		memcpy(&u32, p, 4);
		return sgn ? (int64_t)(int32_t)u32 : (int64_t)u32;
	default:
		memcpy(&u64, p, 8);
		return (int64_t)u64;
	}
}

/* Store v; 0, or -UE_RANGE when it does not fit the field. */
static int
ev_set(struct drv_event *ev, const struct ev_field *f, uint64_t v, int neg)
{
	uint8_t		*p = (uint8_t *)ev + f->off;
	uint64_t	 max;
	uint8_t		 u8;
	uint16_t	 u16;
	uint32_t	 u32;
	int64_t		 s;

	if (f->size < 8) {
		if (f->type == EV_INT) {
			max = (1ULL << (8 * f->size - 1)) - 1;
			if (neg ? v > max + 1 : v > max)
				return -UE_RANGE;
		} else {
			max = (1ULL << (8 * f->size)) - 1;
			if (neg || v > max)
				return -UE_RANGE;
		}
	} else if (neg)
		return -UE_RANGE;
	s = neg ? (int64_t)(0 - v) : (int64_t)v;
	switch (f->size) {
	case 1:
		u8 = (uint8_t)s;
		memcpy(p, &u8, 1);
		break;
	case 2:
		u16 = (uint16_t)s;
		memcpy(p, &u16, 2);
		break;
	case 4:
		u32 = (uint32_t)s;
		memcpy(p, &u32, 4);
		break;
	default:
		memcpy(p, &v, 8);
		break;
	}
	return 0;
}

static const char *
ev_str(const struct drv_event *ev, const struct ev_field *f)
{
	const char	*s;

	memcpy(&s, (const uint8_t *)ev + f->off, sizeof s);
	return s;
}

/* Is field i written for ev? */
static int
ev_present(const struct drv_event *ev, size_t i, uint32_t show)
{
	const struct ev_field *f = &ev_fields[i];

	if (f->only != 0 && (f->only > 0 ? (int)ev->kind != f->only :
	    (int)ev->kind == -f->only))
		return 0;
	if (f->type == EV_STR)
		return ev_str(ev, f) != NULL;
	return (show & (1U << i)) != 0 || ev_get(ev, f) != f->def;
}

/* A numeric value as the line writes it. */
static void
ev_put_num(const struct drv_event *ev, const struct ev_field *f,
    struct sbuf *b)
{
	int64_t		 v = ev_get(ev, f);
	const char	*name;

	switch (f->type) {
	case EV_INT:
		sb_i64(b, v);
		break;
	case EV_HEX:
	case EV_HEX2:
		sb_hex0x(b, (uint64_t)v, f->type == EV_HEX2 ? 2 : 1);
		break;
	case EV_NAMED:
		if ((name = dec_name_find(f->names, (uint32_t)v)) != NULL)
			sb_puts(b, name);
		else
			sb_hex0x(b, (uint64_t)v, 1);
		break;
	default:
		sb_u64(b, (uint64_t)v);
		break;
	}
}

static void
ev_put_str(const char *s, struct sbuf *b)
{
	static const char hx[] = "0123456789abcdef";
	const unsigned char *p;
	int	 quote = *s == '\0';

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p <= 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			quote = 1;
	}
	if (!quote) {
		sb_puts(b, s);
		return;
	}
	sb_putc(b, '"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\') {
			sb_putc(b, '\\');
			sb_putc(b, (char)*p);
		} else if (*p == '\n')
			sb_puts(b, "\\n");
		else if (*p == '\t')
			sb_puts(b, "\\t");
		else if (*p < 0x20 || *p >= 0x7f) {
			sb_puts(b, "\\x");
			sb_putc(b, hx[*p >> 4]);
			sb_putc(b, hx[*p & 15]);
		} else
			sb_putc(b, (char)*p);
	}
	sb_putc(b, '"');
}

void
dec_event_encode(const struct drv_event *ev, struct sbuf *b)
{
	const char	*name;
	uint32_t	 show = ev_show(ev->kind);
	size_t		 i;

	sb_puts(b, DEC_EVENT_PREFIX " ");
	if ((name = dec_name_find(dec_drv_kinds, ev->kind)) != NULL)
		sb_puts(b, name);
	else
		sb_u64(b, (uint32_t)ev->kind);
	for (i = 0; i < EV_NFIELDS; i++) {
		if (!ev_present(ev, i, show))
			continue;
		sb_putc(b, ' ');
		sb_puts(b, ev_fields[i].key);
		sb_putc(b, '=');
		if (ev_fields[i].type == EV_STR)
			ev_put_str(ev_str(ev, &ev_fields[i]), b);
		else
			ev_put_num(ev, &ev_fields[i], b);
	}
}

/* ------------------------------------------------------------------------
 * Parser.
 */
struct ev_cur {
	const char	*s;
	size_t		 n;
	size_t		 i;
};

/* A number token [-]digits or 0xhex; 0 or -UE_SYNTAX / -UE_RANGE. */
static int
ev_num(const char *t, size_t n, uint64_t *v, int *neg)
{
	size_t	 i = 0;
	int	 d, base = 10;

	*v = 0;
	*neg = 0;
	if (i < n && t[i] == '-') {
		*neg = 1;
		i++;
	}
	if (n - i > 2 && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i == n)
		return -UE_SYNTAX;
	for (; i < n; i++) {
		if ((d = dec_hexval((unsigned char)t[i])) < 0 || d >= base)
			return -UE_SYNTAX;
		if (*v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -UE_RANGE;
		*v = *v * (uint64_t)base + (uint64_t)d;
	}
	return 0;
}

/*
 * A value at c->i: quoted or up to the next space.  Unescaped into
 * store[*used..] with a NUL when str; the raw token in *t, *tn otherwise.
 */
static int
ev_value(struct ev_cur *c, int str, char *store, size_t size, size_t *used,
    const char **t, size_t *tn)
{
	size_t	 start = c->i;
	int	 h, l;
	char	 ch;

	if (c->i < c->n && c->s[c->i] == '"') {
		if (!str)
			return -UE_SYNTAX;
		c->i++;
		*t = store + *used;
		for (;;) {
			if (c->i >= c->n)
				return -UE_SYNTAX;	/* no closing quote */
			ch = c->s[c->i++];
			if (ch == '"')
				break;
			if (ch == '\0')
				return -UE_SYNTAX;
			if (ch == '\\') {
				if (c->i >= c->n)
					return -UE_SYNTAX;
				ch = c->s[c->i++];
				switch (ch) {
				case 'n':
					ch = '\n';
					break;
				case 't':
					ch = '\t';
					break;
				case 'x':
					if (c->n - c->i < 2 ||
					    (h = dec_hexval((unsigned char)
					    c->s[c->i])) < 0 ||
					    (l = dec_hexval((unsigned char)
					    c->s[c->i + 1])) < 0 ||
					    (h == 0 && l == 0))
						return -UE_SYNTAX;
					ch = (char)(h << 4 | l);
					c->i += 2;
					break;
				case '"':
				case '\\':
					break;
				default:
					return -UE_SYNTAX;
				}
			}
			if (*used + 1 >= size)
				return -UE_FULL;
			store[(*used)++] = ch;
		}
		store[(*used)++] = '\0';
		if (c->i < c->n && c->s[c->i] != ' ')
			return -UE_SYNTAX;
		return 0;
	}
	while (c->i < c->n && c->s[c->i] != ' ') {
		if (c->s[c->i] == '\0')
			return -UE_SYNTAX;
		c->i++;
	}
	*t = c->s + start;
	*tn = c->i - start;
	if (!str)
		return *tn > 0 ? 0 : -UE_SYNTAX;
	if (*tn == 0 || *used + *tn + 1 > size)
		return *tn == 0 ? -UE_SYNTAX : -UE_FULL;
	memcpy(store + *used, *t, *tn);
	*t = store + *used;
	*used += *tn;
	store[(*used)++] = '\0';
	return 0;
}

int
dec_event_parse(const char *line, size_t n, struct drv_event *ev,
    char *store, size_t size, size_t *col)
{
	static const char pfx[] = DEC_EVENT_PREFIX " ";
	const struct ev_field *f;
	struct ev_cur	 c = { line, n, 0 };
	const char	*t;
	uint64_t	 v = 0;
	size_t		 tn = 0, k, start, used = 0;
	int		 rc, neg = 0, found;
	uint32_t	 i;

	memset(ev, 0, sizeof *ev);
	ev->intf = -1;
	ev->minor = -1;
	ev->syslog_level = ev->syslog_facility = -1;
	*col = 0;
	if (n < sizeof pfx - 1 || memcmp(line, pfx, sizeof pfx - 1) != 0)
		return -UE_SYNTAX;
	c.i = sizeof pfx - 1;

	/* the kind: a name or a number */
	start = c.i;
	while (c.i < n && line[c.i] != ' ')
		c.i++;
	tn = c.i - start;
	for (found = 0, i = 0; dec_drv_kinds[i].name != NULL; i++) {
		if (strlen(dec_drv_kinds[i].name) == tn &&
		    memcmp(dec_drv_kinds[i].name, line + start, tn) == 0) {
			ev->kind = (enum drv_kind)dec_drv_kinds[i].value;
			found = 1;
		}
	}
	if (!found) {
		if ((rc = ev_num(line + start, tn, &v, &neg)) < 0 || neg ||
		    v > INT32_MAX) {
			*col = start;
			return rc < 0 ? rc : -UE_RANGE;
		}
		ev->kind = (enum drv_kind)v;
	}

	while (c.i < n) {
		if (line[c.i] != ' ' || c.i + 1 == n) {
			*col = c.i;
			return -UE_SYNTAX;
		}
		start = ++c.i;
		while (c.i < n && line[c.i] != '=' && line[c.i] != ' ')
			c.i++;
		if (c.i == n || line[c.i] != '=' || c.i == start) {
			*col = start;
			return -UE_SYNTAX;
		}
		tn = c.i - start;
		c.i++;
		for (f = NULL, k = 0; k < EV_NFIELDS; k++) {
			if (strlen(ev_fields[k].key) == tn &&
			    memcmp(ev_fields[k].key, line + start, tn) == 0)
				f = &ev_fields[k];
		}
		start = c.i;
		/* unknown keys: their values are skipped, strings or not */
		if ((rc = ev_value(&c, f == NULL || f->type == EV_STR, store,
		    size, &used, &t, &tn)) < 0) {
			*col = start;
			return rc;
		}
		if (f == NULL)
			continue;
		if (f->type == EV_STR) {
			memcpy((uint8_t *)ev + f->off, &t, sizeof t);
			continue;
		}
		rc = -UE_SYNTAX;
		if (f->type == EV_NAMED) {
			for (i = 0; f->names[i].name != NULL; i++) {
				if (strlen(f->names[i].name) == tn &&
				    memcmp(f->names[i].name, t, tn) == 0) {
					v = f->names[i].value;
					neg = 0;
					rc = 0;
				}
			}
		}
		if (rc < 0 && (rc = ev_num(t, tn, &v, &neg)) == 0)
			rc = ev_set(ev, f, v, neg);
		else if (rc == 0)
			rc = ev_set(ev, f, v, neg);
		if (rc < 0) {
			*col = start;
			return rc;
		}
	}
	/* files of urbscope 0.1.0 put a match's entry in len: no match
	 * has a length */
	if (ev->kind == DRV_MATCH && ev->entry == 0 && ev->length != 0) {
		ev->entry = ev->length;
		ev->length = 0;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Formatters.
 */

/*
 * A string as tshark's -T fields writes one (tab, newline and carriage
 * return as \t \n \r); on a line (!fields) any other control character
 * as '.', so that a file cannot drive the terminal.
 */
static void
ev_put_text(const char *s, int fields, struct sbuf *b)
{
	const char	*p, *run;

	for (p = run = s; *p != '\0'; p++) {
		if ((unsigned char)*p >= 0x20 && *p != 0x7f)
			continue;
		if (fields && *p != '\t' && *p != '\n' && *p != '\r')
			continue;
		sb_putn(b, run, (size_t)(p - run));
		run = p + 1;
		if (*p == '\t')
			sb_puts(b, "\\t");
		else if (*p == '\n')
			sb_puts(b, "\\n");
		else if (*p == '\r')
			sb_puts(b, "\\r");
		else
			sb_putc(b, '.');
	}
	sb_putn(b, run, (size_t)(p - run));
}

static void
ev_result(int32_t v, struct sbuf *b)
{
	const char	*name;

	sb_puts(b, " -> ");
	if ((name = dec_status_name(v)) != NULL)
		sb_puts(b, name);
	else
		sb_i64(b, v);
}

void
dec_fmt_event_summary(const struct drv_event *ev, struct sbuf *b)
{
	const struct ev_field *f;
	const char	*name;
	uint32_t	 show = ev_show(ev->kind);
	size_t		 i;

	if (ev->kind == DRV_LOG) {
		sb_puts(b, ev->text != NULL ? ev->text : "log");
		return;
	}
	if (ev->kind == DRV_BUS) {
		ev_put_text(ev->text != NULL ? ev->text : "bus event", 0, b);
		return;
	}
	if (ev->kind == DRV_RULE) {
		sb_puts(b, "RULE ");
		sb_puts(b, ev->rule != NULL ? ev->rule : "?");
		sb_puts(b, ": ");
		sb_puts(b, ev->text != NULL ? ev->text : "");
		return;
	}
	if ((name = dec_name_find(dec_drv_kinds, ev->kind)) != NULL)
		sb_puts(b, name);
	else {
		sb_puts(b, "event ");
		sb_u64(b, (uint32_t)ev->kind);
	}
	for (i = 0; i < EV_NFIELDS; i++) {
		f = &ev_fields[i];
		if (f->label == NULL || !ev_present(ev, i, show))
			continue;
		sb_putc(b, ' ');
		if (*f->label != '\0') {
			sb_puts(b, f->label);
			sb_putc(b, ' ');
		}
		ev_put_num(ev, f, b);
	}
	if (ev->rule != NULL) {
		sb_puts(b, " rule ");
		sb_puts(b, ev->rule);
	}
	if (ev->text != NULL && *ev->text != '\0' && ev_text(ev->kind)) {
		sb_putc(b, ' ');
		sb_puts(b, ev->text);
	}
	if ((show & B_RESULT) || ev->result != 0)
		ev_result(ev->result, b);
}

void
dec_fmt_event_line(struct dec_fmt *f, const struct drv_event *ev,
    struct sbuf *b)
{
	size_t	 start;

	sb_u64w(b, ev_frame(ev), 7);
	sb_putc(b, ' ');
	dec_fmt_time(f, ev->ts_ns, 0, b);
	sb_putc(b, ' ');
	start = b->len;
	if (ev->busnum == 0 && ev->devnum == 0)
		sb_putc(b, '-');	/* no device (usb_register): as the TUI */
	else {
		sb_u64(b, ev->busnum);
		sb_putc(b, '.');
		sb_u64(b, ev->devnum);
	}
	while (b->len - start < 9 && !b->oom)
		sb_putc(b, ' ');
	if (ev->kind == DRV_BUS) {
		/* a sniffer's: no driver, no function */
		sb_puts(b, " bus   ");
		dec_fmt_event_summary(ev, b);
		sb_putc(b, '\n');
		return;
	}
	sb_puts(b, " drv   ");
	sb_puts(b, ev->driver != NULL ? ev->driver : "-");
	if (ev->func != NULL) {
		sb_putc(b, ' ');
		sb_puts(b, ev->func);
	}
	sb_puts(b, ": ");
	dec_fmt_event_summary(ev, b);
	sb_putc(b, '\n');
}

void
dec_fmt_event_json(struct dec_fmt *f, const struct drv_event *ev,
    struct sbuf *b)
{
	const struct ev_field *fl;
	struct sbuf	 s = { 0 };
	const char	*name, *str;
	uint32_t	 show = ev_show(ev->kind);
	size_t		 i;
	char		 tmp[24];

	(void)f;
	sb_puts(b, "{\"frame.number\":");
	sb_u64(b, ev_frame(ev));
	sb_puts(b, ",\"frame.time_epoch\":\"");
	sb_secs(b, ev->ts_ns, 9);
	sb_puts(b, "\",\"event\":");
	name = dec_name_or(dec_drv_kinds, ev->kind, tmp);
	sb_json_str(b, name, strlen(name));
	for (i = 0; i < EV_NFIELDS; i++) {
		fl = &ev_fields[i];
		if (!ev_present(ev, i, show))
			continue;
		sb_puts(b, ",\"");
		sb_puts(b, fl->json);
		sb_puts(b, "\":");
		if (fl->type == EV_STR) {
			str = ev_str(ev, fl);
			sb_json_str(b, str, strlen(str));
		} else if (fl->type == EV_INT || fl->type == EV_UINT)
			ev_put_num(ev, fl, b);
		else {
			ev_put_num(ev, fl, &s);
			sb_json_str(b, s.s != NULL ? s.s : "", s.len);
			s.len = 0;
		}
	}
	dec_fmt_event_summary(ev, &s);
	sb_puts(b, ",\"summary\":");
	sb_json_str(b, s.s != NULL ? s.s : "", s.len);
	sb_free(&s);
	sb_puts(b, "}\n");
}

void
dec_fmt_event_verbose(struct dec_fmt *f, const struct drv_event *ev,
    struct sbuf *b)
{
	const struct ev_field *fl;
	uint32_t	 show = ev_show(ev->kind);
	size_t		 i;

	sb_puts(b, ev->kind == DRV_BUS ? "Bus event " : "Driver event ");
	sb_u64(b, ev_frame(ev));
	sb_puts(b, ", time ");
	dec_fmt_time(f, ev->ts_ns, 0, b);
	sb_puts(b, ": ");
	dec_fmt_event_summary(ev, b);
	sb_putc(b, '\n');
	for (i = 0; i < EV_NFIELDS; i++) {
		fl = &ev_fields[i];
		if (!ev_present(ev, i, show))
			continue;
		sb_puts(b, "    ");
		/* a bus event's fields by the names filters take */
		sb_puts(b, ev->kind == DRV_BUS ? fl->json : fl->key);
		sb_puts(b, ": ");
		if (fl->type == EV_STR)
			ev_put_text(ev_str(ev, fl), 0, b);
		else
			ev_put_num(ev, fl, b);
		sb_putc(b, '\n');
	}
	sb_putc(b, '\n');
}

/* ------------------------------------------------------------------------
 * The fields by their JSON names, for -T fields and the filter.
 */
int
dec_event_field(const char *name, size_t n)
{
	size_t	 i;

	for (i = 0; i < EV_NFIELDS; i++) {
		if (strlen(ev_fields[i].json) == n &&
		    memcmp(ev_fields[i].json, name, n) == 0)
			return (int)i;
	}
	return -1;
}

int
dec_event_proto(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < EV_NFIELDS; i++) {
		if (ev_fields[i].only > 0 &&
		    strncmp(ev_fields[i].json, s, n) == 0 &&
		    ev_fields[i].json[n] == '.')
			return (int)i;
	}
	return -1;
}

int
dec_event_proto_is(const struct drv_event *ev, const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < EV_NFIELDS; i++) {
		if (ev_fields[i].only == (int)ev->kind &&
		    strncmp(ev_fields[i].json, s, n) == 0 &&
		    ev_fields[i].json[n] == '.')
			return 1;
	}
	return 0;
}

const char *
dec_event_field_name(int i, int *is_str)
{
	if (i < 0 || (size_t)i >= EV_NFIELDS)
		return NULL;
	if (is_str != NULL)
		*is_str = ev_fields[i].type == EV_STR;
	return ev_fields[i].json;
}

int
dec_event_value(const struct drv_event *ev, int i, int64_t *num,
    const char **str)
{
	const struct ev_field *f;

	if (i < 0 || (size_t)i >= EV_NFIELDS ||
	    !ev_present(ev, (size_t)i, ev_show(ev->kind)))
		return 0;
	f = &ev_fields[i];
	if (f->type == EV_STR) {
		*str = ev_str(ev, f);
		return 2;
	}
	*num = ev_get(ev, f);
	return 1;
}

int
dec_event_value_named(int i, const char *s, size_t n, int64_t *v)
{
	const struct dec_name *t;

	if (i < 0 || (size_t)i >= EV_NFIELDS || ev_fields[i].type != EV_NAMED)
		return -1;
	for (t = ev_fields[i].names; t->name != NULL; t++) {
		if (strlen(t->name) == n && memcmp(t->name, s, n) == 0) {
			*v = t->value;
			return 0;
		}
	}
	return -1;
}

void
dec_event_value_text(const struct drv_event *ev, int i, struct sbuf *b)
{
	int64_t		 num;
	const char	*str;

	switch (dec_event_value(ev, i, &num, &str)) {
	case 1:
		ev_put_num(ev, &ev_fields[i], b);
		break;
	case 2:
		ev_put_text(str, 1, b);
		break;
	}
}
