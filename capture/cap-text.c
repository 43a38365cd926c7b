/*
 * capture/cap-text.c - the usbmon text interface as a file, both ways.
 * The source reads what was saved from /sys/kernel/debug/usb/usbmon/Nu
 * (or the old Nt): one event a line, parsed by dec_usbmon_text; blank
 * lines are skipped, CRLF is accepted, and the stamp, microseconds modulo
 * 4096 s of a monotonic clock, is unwrapped into a timeline that starts
 * where the file starts (REC_F_NOTIME: not a wall-clock time).  The sink
 * prints records as the kernel would.
 *
 * Facts: Linux's Documentation/usb/usbmon.rst (the 'u' format) and
 * drivers/usb/mon/mon_text.c (mon_text_read_u; DATA_MAX 32 data bytes,
 * ISODESC_MAX 5 descriptors, the stamp of mon_get_timestamp).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#define TEXT_LINE_MAX	65536
#define TEXT_WRAP_US	4096000000ULL	/* the stamp wraps every 4096 s */
#define TEXT_FMT_MAX	512

struct text_rd {
	uint64_t	 lineno;	/* lines consumed */
	struct cap_unwrap unwrap;
	uint8_t		 data[32];
	struct urb_iso	 iso[5];
};

static int
text_blank(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	}
	return 1;
}

static int
text_probe(const char *name, const uint8_t *head, size_t n)
{
	struct urb_rec	 r;
	struct urb_iso	 iso[5];
	uint8_t		 data[32];
	const char	*s = (const char *)head, *nl;
	size_t		 len, col;
	int		 tries;

	(void)name;
	for (tries = 0; tries < 8 && n > 0; tries++) {
		nl = memchr(s, '\n', n);
		len = nl ? (size_t)(nl - s) : n;
		if (!text_blank(s, len))
			return dec_usbmon_text(s, len, &r, data, iso, &col) ==
			    0 ? 50 : 0;
		if (nl == NULL)
			break;
		n -= len + 1;
		s += len + 1;
	}
	return 0;
}

static int
text_open(struct cap_source *src)
{
	(void)src;
	return 0;
}

/*
 * The next line at *line, len bytes without the newline, adv bytes to
 * consume: 1, 0 at the end of the input, or a negative error.
 */
static int
text_line(struct cap_source *src, const char **line, size_t *len,
    size_t *adv)
{
	struct text_rd	*rd = src->priv;
	const uint8_t	*p, *nl;
	size_t		 want = 256, avail;
	long		 n;

	for (;;) {
		if ((n = cap_in_peek(&src->in, want, &p)) < 0)
			return cap_error(src, (int)n, src->recno + 1,
			    cap_in_offset(&src->in), "read error: %s",
			    cap_in_strerror(&src->in));
		avail = src->in.end - src->in.pos;
		if (avail == 0)
			return 0;
		if ((nl = memchr(p, '\n', avail)) != NULL) {
			*len = (size_t)(nl - p);
			*adv = *len + 1;
			break;
		}
		if (avail < want) {
			/* the last line has no newline */
			*len = *adv = avail;
			break;
		}
		if (avail > TEXT_LINE_MAX)
			return cap_error(src, UE_SYNTAX, src->recno + 1,
			    cap_in_offset(&src->in), "line %" PRIu64 " is "
			    "longer than %d bytes: not usbmon text",
			    rd->lineno + 1, TEXT_LINE_MAX);
		want = avail * 2;
	}
	*line = (const char *)p;
	return 1;
}

uint64_t
cap_text_unwrap(struct cap_unwrap *u, uint32_t stamp)
{
	uint64_t	 wraps = u->wraps;

	if (u->have_prev) {
		if (stamp + TEXT_WRAP_US / 2 < u->prev) {
			wraps = ++u->wraps;
			u->prev = stamp;
		} else if (stamp > u->prev + TEXT_WRAP_US / 2 && wraps > 0)
			wraps--;
		else
			u->prev = stamp;
	} else {
		u->prev = stamp;
		u->have_prev = 1;
	}
	return wraps * TEXT_WRAP_US + stamp;
}

static int
text_next(struct cap_source *src, struct urb_rec *r, struct drv_event *ev)
{
	struct text_rd	*rd = src->priv;
	const char	*line = NULL;
	char		 ex[64];
	uint64_t	 off, us;
	size_t		 len = 0, adv = 0, col, i;
	int		 rc;

	(void)ev;
	for (;;) {
		off = cap_in_offset(&src->in);
		if ((rc = text_line(src, &line, &len, &adv)) <= 0)
			return rc == 0 ? CAP_END : rc;
		rd->lineno++;
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if (!text_blank(line, len))
			break;
		cap_in_skip(&src->in, adv);
	}

	if (dec_usbmon_text(line, len, r, rd->data, rd->iso, &col) != 0) {
		for (i = 0; i < len && i < sizeof ex - 4; i++)
			ex[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] :
			    '?';
		if (i < len) {
			memcpy(ex + i, "...", 3);
			i += 3;
		}
		ex[i] = '\0';
		snprintf(src->err, sizeof src->err, "%s: line %" PRIu64
		    " (record %" PRIu64 ") at offset %" PRIu64 ", column %zu: "
		    "not a usbmon text line: \"%s\"", src->name, rd->lineno,
		    src->recno + 1, off, col + 1, ex);
		return -UE_SYNTAX;
	}

	us = cap_text_unwrap(&rd->unwrap, (uint32_t)(r->ts_sec * 1000000 +
	    r->ts_usec));
	r->ts_sec = (int64_t)(us / 1000000);
	r->ts_usec = (int32_t)(us % 1000000);
	r->ts_ns = (int64_t)(us * 1000);
	r->flags |= REC_F_NOTIME;
	r->offset = off;
	cap_in_skip(&src->in, adv);
	return CAP_URB;
}

/* A place in the text: the line count and the stamp unwrapping so far. */
struct text_mark {
	uint64_t	 lineno;
	struct cap_unwrap unwrap;
};

static void *
text_mark(struct cap_source *src, int *err)
{
	struct text_rd	*rd = src->priv;
	struct text_mark *m;

	if ((m = malloc(sizeof *m)) == NULL) {
		*err = -UE_NOMEM;
		return NULL;
	}
	m->lineno = rd->lineno;
	m->unwrap = rd->unwrap;
	return m;
}

static int
text_seek(struct cap_source *src, const void *state)
{
	struct text_rd	*rd = src->priv;
	const struct text_mark *m = state;

	rd->lineno = m->lineno;
	rd->unwrap = m->unwrap;
	return 0;
}

const struct cap_source_ops cap_text_source = {
	.name = "usbmon-text",
	.desc = "usbmon text ('u' or old 't' format, from debugfs)",
	.probe = text_probe,
	.priv_size = sizeof(struct text_rd),
	.open = text_open,
	.next = text_next,
	.close = NULL,
	.mark = text_mark,
	.seek = text_seek,
	.mark_free = free,
};

/* ------------------------------------------------------------------------
 * Sink: one kernel 'u' line per record.
 */
static int
text_wopen(struct cap_sink *sink)
{
	(void)sink;
	return 0;
}

static int
text_write(struct cap_sink *sink, const struct urb_rec *r)
{
	char	 b[TEXT_FMT_MAX + 1];
	int	 n;

	if ((n = dec_fmt_usbmon(r, b, TEXT_FMT_MAX)) < 0)
		return n;
	b[n] = '\n';
	return cap_out_write(&sink->out, b, (size_t)n + 1);
}

const struct cap_sink_ops cap_text_sink = {
	.name = "usbmon",
	.ext = ".txt",
	.desc = "usbmon text, the kernel's 'u' format (<=32 data bytes)",
	.priv_size = 0,
	.open = text_wopen,
	.write = text_write,
	.write_event = NULL,
	.close = NULL,
};
