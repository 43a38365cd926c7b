/*
 * decode/dec-fields.c - the field names urbscope knows: those of the
 * decoded trees (every DEC_FIELD, found in the linker section dec_fields,
 * so there is no second list to keep in step), the frame.* fields, a
 * driver event's fields as JSON names them, and JSON's own members.
 * -T fields prints them, the filter tests them, -G fields lists them.
 * A name is resolved once into a struct dec_fref; a record then costs
 * pointer compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

/* The bounds ld gives the dec_fields section (DEC_FIELD). */
extern const struct dec_field __start_dec_fields[];
extern const struct dec_field __stop_dec_fields[];

/* Names that are no tree's: tshark's frame fields, JSON's members. */
static const struct {
	const char	*name;
	uint8_t		 kind;		/* FR_* */
	const char	*type;
	const char	*desc;
} others[] = {
	{ "frame.number", FR_FRAME_NUMBER, "uint64",
	    "Frame number (the record's number in the file)" },
	{ "frame.time_epoch", FR_FRAME_EPOCH, "time, seconds",
	    "Epoch arrival time" },
	{ "frame.time_relative", FR_FRAME_REL, "time, seconds",
	    "Time since the first frame" },
	{ "frame.time_delta", FR_FRAME_DELTA, "time, seconds",
	    "Time since the previous frame" },
	{ "frame.offset", FR_FRAME_OFFSET, "uint64",
	    "Byte offset of the record in the file (urbscope)" },
	{ "frame.len", FR_FRAME_LEN, "uint32",
	    "Frame length on the wire (the packet's length in the file)" },
	{ "frame.cap_len", FR_FRAME_CAPLEN, "uint32",
	    "Frame length stored into the capture file" },
	{ "event", FR_KIND, "string",
	    "Driver or bus event: its kind (probe, submit, rule, bus, ...)" },
	{ "summary", FR_SUMMARY, "string",
	    "The one-line summary (-T fields and JSON only)" },
	{ "data", FR_DATA, "bytes", "The record's payload" },
	{ "synthetic", FR_SYNTHETIC, "boolean",
	    "Made by urbscope, not seen on the bus" },
};

/* The filter's short names (dec-filter.c), for -G fields. */
static const struct {
	const char	*name;
	const char	*type;
	const char	*desc;
} shorts[] = {
	{ "dev", "uint8", "Device address (usb.device_address)" },
	{ "bus", "uint16", "Bus number (usb.bus_id)" },
	{ "ep", "uint8, hex", "Endpoint: 1 either direction, 0x81 the "
	    "address (usb.endpoint_address)" },
	{ "type", "name", "Transfer type: ctrl bulk int iso irp packet "
	    "(usb.transfer_type)" },
	{ "dir", "name", "Direction: in or out" },
	{ "ev", "char", "Event: S C E or P (usb.urb_type)" },
	{ "status", "int32", "A completion's status: 0, -32, EPIPE "
	    "(usb.urb_status; a submit has none)" },
	{ "len", "uint32", "URB length, an event's length (usb.urb_len)" },
	{ "latency", "time, us", "Completion time minus submit time: "
	    "250us, 2ms (usb.time)" },
	{ "driver", "string", "Driver event: the driver's name" },
	{ "urb", "uint64, hex", "URB id (usb.urb_id)" },
};

static const char *
kind_type(const struct dec_field *f, char *buf, size_t size)
{
	unsigned bits = f->width != 0 ? 8U * f->width : 0;

	switch (f->kind) {
	case DK_LABEL:
		return "label";
	case DK_HEX:
		snprintf(buf, size, "uint%u, hex", bits ? bits : 8);
		return buf;
	case DK_BCD:
		return "uint16, bcd";
	case DK_INT:
		snprintf(buf, size, "int%u", bits ? bits : 32);
		return buf;
	case DK_BYTES:
		return "bytes";
	case DK_STRING:
		return "string";
	case DK_BOOL:
		return "boolean";
	case DK_CHAR:
		return "char";
	case DK_TIME:
		return "time, seconds";
	case DK_MSEC:
		return "double, milliseconds";
	default:
		snprintf(buf, size, "uint%u", bits ? bits : 32);
		return buf;
	}
}

static int
same(const char *a, const char *s, size_t n)
{
	return strncmp(a, s, n) == 0 && a[n] == '\0';
}

/* a (NUL-terminated) against s (n bytes, no NUL): <0, 0 or >0 */
static int
cmpn(const char *a, const char *s, size_t n)
{
	int	 c;

	if ((c = strncmp(a, s, n)) != 0)
		return c;
	return a[n] != '\0';
}

static int
byname(const void *x, const void *y)
{
	const struct dec_field *a = *(const struct dec_field *const *)x;
	const struct dec_field *b = *(const struct dec_field *const *)y;
	int	 c;

	if ((c = strcmp(a->abbrev, b->abbrev)) != 0)
		return c;
	return a < b ? -1 : a > b;	/* the section's order among equals */
}

/*
 * The tree fields with a name, sorted by it (once, at the first lookup):
 * a name is found by bisection instead of a walk over every field.  NULL
 * without memory (then the walk).
 */
static const struct dec_field **
fields_sorted(size_t *np)
{
	static const struct dec_field **idx;
	static size_t	 n;
	const struct dec_field *f;

	if (idx == NULL &&
	    (idx = malloc(sizeof *idx * (size_t)(__stop_dec_fields -
	    __start_dec_fields) + 1)) != NULL) {
		for (f = __start_dec_fields; f < __stop_dec_fields; f++) {
			if (f->abbrev != NULL)
				idx[n++] = f;
		}
		qsort(idx, n, sizeof *idx, byname);
	}
	*np = n;
	return idx;
}

/* Adds f to fr's tree fields. */
static void
fref_add(struct dec_fref *fr, const struct dec_field *f)
{
	if (fr->kind == 0) {
		fr->kind = FR_TREE;
		fr->name = f->abbrev;
	}
	if (fr->nref < DEC_FREF_MAX)
		fr->ref[fr->nref] = f;
	fr->nref++;
}

/*
 * s[0..n) as a protocol's name: the part before the first dot of some
 * field's name (a decoder's fields name their protocol, so a new
 * decoder's protocol is known with its first field), or frame.
 */
static void
proto_resolve(const char *s, size_t n, struct dec_fref *fr)
{
	const struct dec_field *f;

	if (n == 0 || n > UINT8_MAX || memchr(s, '.', n) != NULL)
		return;
	if (same("frame", s, n)) {
		fr->kind = FR_FRAME;
		fr->name = "frame";
		return;
	}
	for (f = __start_dec_fields; f < __stop_dec_fields; f++) {
		if (f->abbrev != NULL && strncmp(f->abbrev, s, n) == 0 &&
		    f->abbrev[n] == '.') {
			fr->kind = FR_PROTO;
			fr->name = f->abbrev;
			fr->plen = (uint8_t)n;
			return;
		}
	}
	/* a class decoder's protocol without fields of its own yet */
	if ((fr->name = dec_class_proto_find(s, n)) != NULL) {
		fr->kind = FR_PROTO;
		fr->plen = (uint8_t)n;
		return;
	}
	/* events' own (syslog: a bus event's) */
	if ((fr->evf = (int8_t)dec_event_proto(s, n)) >= 0) {
		fr->kind = FR_PROTO;
		fr->name = dec_event_field_name(fr->evf, NULL);
		fr->plen = (uint8_t)n;
	}
}

int
dec_fref_resolve(const char *s, size_t n, struct dec_fref *fr)
{
	const struct dec_field *f, **idx;
	size_t	 i, lo, hi, mid, nidx;

	memset(fr, 0, sizeof *fr);
	fr->evf = -1;
	for (i = 0; i < nitems(others); i++) {
		if (same(others[i].name, s, n)) {
			fr->kind = others[i].kind;
			fr->name = others[i].name;
			return 0;
		}
	}
	if ((idx = fields_sorted(&nidx)) != NULL) {
		lo = 0;
		hi = nidx;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (cmpn(idx[mid]->abbrev, s, n) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (i = lo; i < nidx && cmpn(idx[i]->abbrev, s, n) == 0; i++)
			fref_add(fr, idx[i]);
	} else {
		for (f = __start_dec_fields; f < __stop_dec_fields; f++) {
			if (f->abbrev != NULL && same(f->abbrev, s, n))
				fref_add(fr, f);
		}
	}
	if (fr->nref > DEC_FREF_MAX)
		fr->nref = 0;		/* dec_fref_is goes by name */
	fr->evf = (int8_t)dec_event_field(s, n);
	if (fr->kind == 0 && fr->evf >= 0) {
		fr->kind = FR_EVENT;
		fr->name = dec_event_field_name(fr->evf, NULL);
	}
	if (fr->kind == 0)
		proto_resolve(s, n, fr);
	return fr->kind != 0 ? 0 : -1;
}

int
dec_fref_type(const struct dec_fref *fr)
{
	const struct dec_field *f;
	int	 is_str = 0;

	switch (fr->kind) {
	case FR_TREE:
		if (fr->nref > 0)
			return fr->ref[0]->kind;
		for (f = __start_dec_fields; f < __stop_dec_fields; f++) {
			if (f->abbrev != NULL && strcmp(f->abbrev,
			    fr->name) == 0)
				return f->kind;
		}
		return DK_LABEL;
	case FR_EVENT:
		(void)dec_event_field_name(fr->evf, &is_str);
		return is_str ? DK_STRING : DK_INT;
	case FR_KIND:
	case FR_SUMMARY:
		return DK_STRING;
	case FR_FRAME_EPOCH:
	case FR_FRAME_REL:
	case FR_FRAME_DELTA:
		return DK_TIME;
	case FR_DATA:
		return DK_BYTES;
	case FR_SYNTHETIC:
		return DK_BOOL;
	case FR_PROTO:
	case FR_FRAME:
		return DK_LABEL;
	default:
		return DK_UINT;
	}
}

/* Wireshark's value names where urbscope's tables say others (its
 * packet-usb.c usb_transfer_type_vals). */
static const struct {
	const char	*abbrev;
	uint32_t	 value;
	const char	*name;
} ws_names[] = {
	{ "usb.transfer_type", 0, "URB_ISOCHRONOUS" },
	{ "usb.transfer_type", 1, "URB_INTERRUPT" },
	{ "usb.transfer_type", 2, "URB_CONTROL" },
	{ "usb.transfer_type", 3, "URB_BULK" },
	{ "usb.urb_status", 0, "Success" },
};

/* a (NUL-terminated) and s[0..n) without case, ' ' the same as '_' */
static int
name_like(const char *a, const char *s, size_t n)
{
	size_t	 i;
	int	 x, y;

	for (i = 0; i < n; i++) {
		x = (unsigned char)a[i];
		y = (unsigned char)s[i];
		if (x == '\0')
			return 0;
		x = x == ' ' ? '_' : x >= 'A' && x <= 'Z' ? x + 32 : x;
		y = y == ' ' ? '_' : y >= 'A' && y <= 'Z' ? y + 32 : y;
		if (x != y)
			return 0;
	}
	return a[n] == '\0';
}

/* Wireshark's name of an URB status: "Broken pipe (-EPIPE)", or its
 * part in parentheses alone. */
static int
status_value(const char *s, size_t n, int64_t *v)
{
	const char *p, *name;
	int32_t	 st;

	if (n > 2 && s[n - 1] == ')' &&
	    (p = memchr(s, '(', n)) != NULL) {
		n = (size_t)(s + n - 1 - (p + 1));
		s = p + 1;
	}
	for (st = -1; st >= -4095; st--) {
		if ((name = dec_status_name(st)) != NULL &&
		    name_like(name, s, n)) {
			*v = st;
			return 0;
		}
	}
	return -1;
}

int
dec_fref_value(const struct dec_fref *fr, const char *s, size_t n,
    int64_t *v, int *named)
{
	const struct dec_field *f;
	const struct dec_name *t;
	size_t	 i;

	*named = 0;
	if (fr->kind != FR_TREE)
		return -1;
	for (i = 0; i < nitems(ws_names); i++) {
		if (strcmp(ws_names[i].abbrev, fr->name) == 0) {
			*named = 1;
			if (name_like(ws_names[i].name, s, n)) {
				*v = ws_names[i].value;
				return 0;
			}
		}
	}
	if (strcmp(fr->name, "usb.urb_status") == 0) {
		*named = 1;
		return status_value(s, n, v);
	}
	for (f = __start_dec_fields; f < __stop_dec_fields; f++) {
		if (f->abbrev == NULL || f->names == NULL ||
		    strcmp(f->abbrev, fr->name) != 0)
			continue;
		*named = 1;
		for (t = f->names; t->name != NULL; t++) {
			if (name_like(t->name, s, n)) {
				*v = t->value;
				return 0;
			}
		}
	}
	return -1;
}

/* Levenshtein distance of a and s[0..n), both cut at 63 bytes. */
static size_t
edit_distance(const char *a, const char *s, size_t n)
{
	size_t	 row[64], i, j, m, diag, up;

	m = strlen(a);
	if (m > 63)
		m = 63;
	if (n > 63)
		n = 63;
	for (j = 0; j <= n; j++)
		row[j] = j;
	for (i = 1; i <= m; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= n; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != s[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[n];
}

struct nearest {
	const char	*s;
	size_t		 n;
	size_t		 best;
	char		*buf;
	size_t		 size;
};

/* name, if nearer than the nearest so far; names whose lengths differ
 * by more than the distance allowed are not measured */
static void
nearest_one(struct nearest *nr, const char *name)
{
	size_t	 d, m = strlen(name);

	if ((m > nr->n ? m - nr->n : nr->n - m) > nr->best ||
	    (d = edit_distance(name, nr->s, nr->n)) >= nr->best)
		return;
	nr->best = d;
	snprintf(nr->buf, nr->size, "%s", name);
}

const char *
dec_field_nearest(const char *s, size_t n, char *buf, size_t size)
{
	/* near: a third of the name's letters at most, one at least */
	struct nearest nr = { s, n, (n / 3 > 0 ? n / 3 : 1) + 1, buf, size };
	const struct dec_field *f;
	const char *name;
	size_t	 i;
	int	 k;

	if (size == 0)
		return NULL;
	buf[0] = '\0';
	for (i = 0; i < nitems(others); i++)
		nearest_one(&nr, others[i].name);
	for (i = 0; i < nitems(shorts); i++)
		nearest_one(&nr, shorts[i].name);
	for (k = 0; (name = dec_event_field_name(k, NULL)) != NULL; k++)
		nearest_one(&nr, name);
	for (f = __start_dec_fields; f < __stop_dec_fields; f++) {
		if (f->abbrev != NULL)
			nearest_one(&nr, f->abbrev);
	}
	return nr.best > 0 && buf[0] != '\0' ? buf : NULL;
}

int
dec_field_known(const char *abbrev)
{
	struct dec_fref fr;

	return dec_fref_resolve(abbrev, strlen(abbrev), &fr) == 0;
}

void
dec_fields_each(void (*fn)(void *, const char *, const char *,
    const char *), void *arg)
{
	const struct dec_field *f, *g;
	const char	*name;
	char		 buf[32];
	size_t		 i;
	int		 k, is_str;

	for (i = 0; i < nitems(others); i++)
		fn(arg, others[i].name, others[i].type, others[i].desc);
	for (i = 0; i < nitems(shorts); i++)
		fn(arg, shorts[i].name, shorts[i].type, shorts[i].desc);
	for (k = 0; (name = dec_event_field_name(k, &is_str)) != NULL; k++) {
		if (strncmp(name, "usb.", 4) == 0 ||
		    strcmp(name, "driver") == 0)
			continue;	/* listed with the tree, the shorts */
		fn(arg, name, is_str ? "string" : "int64",
		    strncmp(name, "syslog.", 7) == 0 ||
		    strncmp(name, "bus_", 4) == 0 ? "Bus event field (a "
		    "sniffer's syslog message)" : "Driver event field");
	}
	for (f = __start_dec_fields; f < __stop_dec_fields; f++) {
		if (f->abbrev == NULL)
			continue;
		for (g = __start_dec_fields; g < f; g++) {
			if (g->abbrev != NULL &&
			    strcmp(g->abbrev, f->abbrev) == 0)
				break;
		}
		if (g == f)
			fn(arg, f->abbrev, kind_type(f, buf, sizeof buf),
			    f->name);
	}
}
