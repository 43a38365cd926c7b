/*
 * capture/cap-registry.c - the tables of sources and sinks, and the calls
 * that go through them: cap_open asks every source whether the input is
 * its own (by name, or by the first bytes of the file) and the highest
 * score wins; cap_sink_open picks a sink by format name or file extension.
 * Errors name the input and say what urbscope can read instead.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"

#ifndef nitems
#endif

extern const struct cap_source_ops cap_pcap_source;
extern const struct cap_source_ops cap_pcapng_source;
extern const struct cap_source_ops cap_usbmon_source;
extern const struct cap_source_ops cap_text_source;
extern const struct cap_source_ops cap_live_source;

extern const struct cap_sink_ops cap_pcap_sink;
extern const struct cap_sink_ops cap_pcapng_sink;
extern const struct cap_sink_ops cap_text_sink;

const struct cap_source_ops *const cap_sources[] = {
	&cap_pcap_source,
	&cap_pcapng_source,
	&cap_usbmon_source,
	&cap_text_source,
	&cap_live_source,
	NULL
};

/* What the layers above registered. */
static const struct cap_source_ops *cap_extra[CAP_MAX_EXTRA_SOURCES];

int
cap_source_register(const struct cap_source_ops *ops)
{
	size_t	 i;

	for (i = 0; i < CAP_MAX_EXTRA_SOURCES; i++) {
		if (cap_extra[i] == ops)
			return 0;
		if (cap_extra[i] == NULL) {
			cap_extra[i] = ops;
			return 0;
		}
	}
	return -UE_FULL;
}

const struct cap_sink_ops *const cap_sinks[] = {
	&cap_pcapng_sink,	/* first: the default */
	&cap_pcap_sink,
	&cap_text_sink,
	NULL
};

/* File extensions besides each sink's own ext. */
static const struct {
	const char	*ext;
	const char	*format;
} cap_sink_exts[] = {
	{ ".mon", "usbmon" },
	{ ".usbmon", "usbmon" },
	{ ".cap", "pcap" },
	{ ".ntar", "pcapng" },
	{ NULL, NULL }
};

/* Bytes the probes see: a pcapng SHB, the first usbmon events or line. */
#define CAP_PROBE_BYTES	512

/* Private data follows the common struct at this alignment. */
#define CAP_PRIV_ALIGN	16
#define CAP_ROUND(n)	\
	(((n) + CAP_PRIV_ALIGN - 1) & ~(size_t)(CAP_PRIV_ALIGN - 1))

static const char cap_formats_known[] =
    "it reads pcap, pcapng, usbmon binary and usbmon text";

int
cap_error(struct cap_source *src, int code, uint64_t recno, uint64_t offset,
    const char *fmt, ...)
{
	char		 what[384];
	va_list		 ap;
	size_t		 k = 0;

	/* A cut file says so first, whichever reader found the cut. */
	if (code == UE_TRUNCATED || code == -UE_TRUNCATED)
		k = (size_t)snprintf(what, sizeof what, "truncated: ");
	va_start(ap, fmt);
	vsnprintf(what + k, sizeof what - k, fmt, ap);
	va_end(ap);
	if (recno != 0)
		snprintf(src->err, sizeof src->err,
		    "%s: record %" PRIu64 " at offset %" PRIu64 ": %s",
		    src->name, recno, offset, what);
	else
		snprintf(src->err, sizeof src->err,
		    "%s: at offset %" PRIu64 ": %s", src->name, offset, what);
	return code > 0 ? -code : code;
}

static const struct cap_source_ops *
cap_probe(const char *name, const uint8_t *head, size_t n)
{
	const struct cap_source_ops	*best = NULL, *ops;
	size_t				 i;
	int				 score, top = 0;

	/* the built-in sources, then the registered ones */
	for (i = 0; i < nitems(cap_sources) - 1 + CAP_MAX_EXTRA_SOURCES;
	    i++) {
		ops = i < nitems(cap_sources) - 1 ? cap_sources[i] :
		    cap_extra[i - (nitems(cap_sources) - 1)];
		if (ops == NULL)
			break;
		score = ops->probe(name, head, n);
		if (score > top) {
			top = score;
			best = ops;
		}
	}
	return best;
}

int
cap_open(const char *name, struct cap_source **out, char *err, size_t errlen)
{
	const struct cap_source_ops	*ops;
	struct cap_source		*src;
	struct cap_in			 in;
	const uint8_t			*head = NULL;
	size_t				 hdr, i, nlen;
	long				 n;
	char				 hex[3 * 8 + 1];
	int				 rc, saved;

	*out = NULL;
	/*
	 * A live name is never opened as a file here: reading a probe's
	 * worth from /dev/usbmonN would block and eat events.
	 */
	if (cap_live_name(name) >= 0) {
		rc = -UE_OPEN;
		errno = ENOENT;
	} else
		rc = cap_in_open(&in, name);
	if (rc == -UE_NOMEM) {
		snprintf(err, errlen, "%s: %s", name, ue_strerror(rc));
		return rc;
	}
	if (rc != 0) {
		/* Not a file: maybe a name a backend claims ("sim:x"). */
		saved = errno;
		if ((ops = cap_probe(name, NULL, 0)) == NULL) {
			snprintf(err, errlen, "%s: %s", name, strerror(saved));
			return -UE_OPEN;
		}
	} else {
		n = cap_in_peek(&in, CAP_PROBE_BYTES, &head);
		if (n < 0) {
			snprintf(err, errlen, "%s: read error: %s", name,
			    in.err ? strerror(in.err) : ue_strerror((int)n));
			cap_in_close(&in);
			return (int)n;
		}
		if ((ops = cap_probe(name, head, (size_t)n)) == NULL) {
			if (n == 0 && in.gz != NULL)
				snprintf(err, errlen, "%s: the compressed data "
				    "ends before any of it could be "
				    "decompressed (a cut file?)", name);
			else if (n == 0)
				snprintf(err, errlen, "%s: the file is empty; "
				    "%s", name, cap_formats_known);
			else {
				hex[0] = '\0';
				for (i = 0; i < 4 && i < (size_t)n; i++)
					snprintf(hex + strlen(hex), 4, "%s%02x",
					    i ? " " : "", head[i]);
				snprintf(err, errlen, "%s: %s (first bytes "
				    "%s); %s", name, ue_strerror(UE_MAGIC),
				    hex, cap_formats_known);
			}
			cap_in_close(&in);
			return -UE_MAGIC;
		}
	}

	hdr = CAP_ROUND(sizeof *src);
	nlen = strlen(name) + 1;
	if ((src = calloc(1, hdr + CAP_ROUND(ops->priv_size) + nlen)) ==
	    NULL) {
		if (rc == 0)
			cap_in_close(&in);
		snprintf(err, errlen, "%s: %s", name, ue_strerror(UE_NOMEM));
		return -UE_NOMEM;
	}
	src->ops = ops;
	src->priv = ops->priv_size ? (uint8_t *)src + hdr : NULL;
	memcpy((char *)src + hdr + CAP_ROUND(ops->priv_size), name, nlen);
	src->name = (char *)src + hdr + CAP_ROUND(ops->priv_size);
	if (rc == 0)
		src->in = in;
	else {
		memset(&src->in, 0, sizeof src->in);
		src->in.fd = -1;
	}
	if ((rc = ops->open(src)) < 0) {
		if (src->err[0] != '\0')
			snprintf(err, errlen, "%s", src->err);
		else
			snprintf(err, errlen, "%s: %s", name,
			    ue_strerror(rc));
		cap_close(src);
		return rc;
	}
	*out = src;
	return 0;
}

int
cap_next(struct cap_source *src, struct urb_rec *r, struct drv_event *ev)
{
	int	 rc;

	r->wire_len = r->cap_len = 0;	/* the sources of packets set them */
	src->gap = 0;
	rc = src->ops->next(src, r, ev);
	if (rc == CAP_URB) {
		r->recno = ++src->recno;
		r->frame = r->recno + src->skipped;
		/* synthetic records say so by their id in every format (no
		 * kernel pointer starts with "sysfs") */
		if ((r->id & ~0xffffffULL) == CAP_SYNTH_ID_BASE)
			r->flags |= REC_F_SYNTHETIC;
	}
	else if (rc == CAP_EVENT) {
		ev->recno = ++src->recno;
		ev->frame = ev->recno + src->skipped;
	} else if (rc < 0 && src->err[0] == '\0')
		cap_error(src, rc, src->recno + 1, cap_in_offset(&src->in),
		    "%s", ue_strerror(rc));
	return rc;
}

void
cap_skip(struct cap_source *src, int64_t ts_ns)
{
	src->skipped++;
	if (src->gap++ == 0)
		src->gap_first_ns = ts_ns;
	src->gap_last_ns = ts_ns;
}

void
cap_stats(struct cap_source *src, struct cap_stats *st)
{
	memset(st, 0, sizeof *st);
	if (src->ops->stats != NULL)
		src->ops->stats(src, st);
	else
		st->received = src->recno;
}

void
cap_close(struct cap_source *src)
{
	if (src == NULL)
		return;
	if (src->ops->close != NULL)
		src->ops->close(src);
	cap_in_close(&src->in);
	free(src);
}

/* ------------------------------------------------------------------------
 * Sinks.
 */

static const struct cap_sink_ops *
cap_sink_by_name(const char *format)
{
	int	 i;

	for (i = 0; cap_sinks[i] != NULL; i++) {
		if (strcmp(cap_sinks[i]->name, format) == 0)
			return cap_sinks[i];
	}
	return NULL;
}

static const struct cap_sink_ops *
cap_sink_by_ext(const char *path)
{
	const char	*dot, *slash;
	int		 i;

	dot = strrchr(path, '.');
	slash = strrchr(path, '/');
	if (dot == NULL || (slash != NULL && dot < slash))
		return NULL;
	for (i = 0; cap_sinks[i] != NULL; i++) {
		if (cap_sinks[i]->ext != NULL &&
		    strcasecmp(cap_sinks[i]->ext, dot) == 0)
			return cap_sinks[i];
	}
	for (i = 0; cap_sink_exts[i].ext != NULL; i++) {
		if (strcasecmp(cap_sink_exts[i].ext, dot) == 0)
			return cap_sink_by_name(cap_sink_exts[i].format);
	}
	return NULL;
}

/* Say why a sink failed, once: its own message or the output's errno. */
static int
cap_sink_fail(struct cap_sink *sink, int rc)
{
	if (sink->err[0] != '\0')
		return rc;
	if (sink->out.err != 0)
		snprintf(sink->err, sizeof sink->err,
		    "%s: write failed after %" PRIu64 " records: %s",
		    sink->path, sink->count, strerror(sink->out.err));
	else
		snprintf(sink->err, sizeof sink->err, "%s: %s", sink->path,
		    ue_strerror(rc));
	return rc;
}

uint32_t
cap_linktype_of(const struct urb_rec *r)
{
	switch (r->origin) {
	case URB_ORIGIN_USBPCAP:
		return 249;
	case URB_ORIGIN_DARWIN:
		return 266;
	case URB_ORIGIN_USBLL:
		/* 293 low .. 295 high, 288 when the link type said none */
		return r->ll.speed == USBLL_SPEED_ANY ? 288 :
		    292 + r->ll.speed;
	}
	return 0;
}

int
cap_sink_open(const char *path, const char *format,
    const struct cap_sink_opts *opts, struct cap_sink **out, char *err,
    size_t errlen)
{
	const struct cap_sink_ops	*ops;
	struct cap_sink			*sink;
	size_t				 hdr, plen;
	int				 i, rc, off;

	*out = NULL;
	if (format != NULL) {
		if ((ops = cap_sink_by_name(format)) == NULL) {
			off = snprintf(err, errlen, "unknown output format "
			    "\"%s\"; urbscope writes", format);
			for (i = 0; cap_sinks[i] != NULL && off > 0 &&
			    (size_t)off < errlen; i++)
				off += snprintf(err + off, errlen - off,
				    "%s %s", i ? "," : "", cap_sinks[i]->name);
			return -UE_USAGE;
		}
	} else if ((ops = cap_sink_by_ext(path)) == NULL)
		ops = cap_sinks[0];

	hdr = CAP_ROUND(sizeof *sink);
	plen = strlen(path) + 1;
	if ((sink = calloc(1, hdr + CAP_ROUND(ops->priv_size) + plen)) ==
	    NULL) {
		snprintf(err, errlen, "%s: %s", path, ue_strerror(UE_NOMEM));
		return -UE_NOMEM;
	}
	sink->ops = ops;
	cap_usbmon_init(&sink->as_usbmon);
	sink->priv = ops->priv_size ? (uint8_t *)sink + hdr : NULL;
	memcpy((char *)sink + hdr + CAP_ROUND(ops->priv_size), path, plen);
	sink->path = (char *)sink + hdr + CAP_ROUND(ops->priv_size);
	if (opts != NULL)
		sink->opts = *opts;
	/* usbmon text has one link type: its own */
	if (strcmp(ops->name, "pcap") != 0 && strcmp(ops->name, "pcapng") != 0)
		sink->opts.linktype = 0;

	if ((rc = cap_out_open(&sink->out, path)) != 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path,
		    strerror(errno));
		free(sink);
		return rc;
	}
	if ((rc = ops->open(sink)) < 0) {
		cap_sink_fail(sink, rc);
		snprintf(err, errlen, "%s", sink->err);
		cap_sink_abort(sink);
		return rc;
	}
	*out = sink;
	return 0;
}

uint32_t
cap_packet_layout(uint32_t lt, const struct urb_rec *r, int swap,
    uint8_t *pre, const uint8_t **data, uint64_t *total, uint64_t *orig)
{
	uint64_t	 exp;
	uint32_t	 npre;

	if (cap_usbll_linktype(lt)) {
		*data = r->ll.raw;
		*total = *orig = r->ll.raw_len;
		return 0;
	}
	npre = lt == 249 ? (uint32_t)enc_usbpcap_prefix(r, pre) :
	    lt == 266 ? (uint32_t)enc_darwin_prefix(r, pre) :
	    (uint32_t)enc_usbmon_prefix(r, swap, pre);
	*data = r->data;
	exp = urb_data_expected(r);
	*total = (uint64_t)npre + r->data_len;
	*orig = (uint64_t)npre + (exp > r->data_len ? exp : r->data_len);
	return npre;
}

int
cap_sink_write(struct cap_sink *sink, const struct urb_rec *r)
{
	int	 rc;

	if (cap_usbll_linktype(sink->opts.linktype) ?
	    r->origin != URB_ORIGIN_USBLL :
	    sink->opts.linktype == 266 ? r->origin != URB_ORIGIN_DARWIN :
	    sink->opts.linktype == 249 ? !cap_usbpcap_expressible(r) :
	    cap_usbmon_skip(&sink->as_usbmon, r)) {
		if (sink->opts.linktype == 249 && r->type == 'P')
			sink->as_usbmon.drop_packet++;
		sink->dropped++;
		return 0;
	}
	if ((rc = sink->ops->write(sink, r)) < 0)
		return cap_sink_fail(sink, rc);
	sink->count++;
	return 0;
}

void
cap_sink_abort(struct cap_sink *sink)
{
	struct stat	 sb;

	if (sink == NULL)
		return;
	/* what the format holds freed; no statistics to add */
	sink->have_stats = 0;
	if (sink->ops->close != NULL)
		(void)sink->ops->close(sink);
	(void)cap_out_close(&sink->out);
	/* a file we wrote, never a FIFO, a device or /dev/stdout */
	if (strcmp(sink->path, "-") != 0 && lstat(sink->path, &sb) == 0 &&
	    S_ISREG(sb.st_mode))
		(void)unlink(sink->path);
	free(sink);
}

int
cap_sink_write_event(struct cap_sink *sink, const struct drv_event *ev)
{
	int	 rc;

	if (sink->ops->write_event == NULL)
		return 0;
	if ((rc = sink->ops->write_event(sink, ev)) < 0)
		return cap_sink_fail(sink, rc);
	return 0;
}

void
cap_sink_set_stats(struct cap_sink *sink, const struct cap_stats *st,
    int64_t start_ns, int64_t end_ns)
{
	sink->stats = *st;
	sink->stats_start_ns = start_ns;
	sink->stats_end_ns = end_ns;
	sink->have_stats = 1;
}

int
cap_sink_close(struct cap_sink *sink, char *err, size_t errlen)
{
	int	 rc = 0, rc2;

	if (sink == NULL)
		return 0;
	if (sink->ops->close != NULL)
		rc = sink->ops->close(sink);
	rc2 = cap_out_close(&sink->out);
	if (rc == 0)
		rc = rc2;
	if (rc < 0) {
		cap_sink_fail(sink, rc);
		if (err != NULL)
			snprintf(err, errlen, "%s", sink->err);
	}
	free(sink);
	return rc;
}

int
cap_mark(struct cap_source *src, struct cap_mark *m)
{
	struct stat	 st;
	int		 err = 0;

	memset(m, 0, sizeof *m);
	if (src->live || src->ops->seek == NULL || src->in.fd == -1 ||
	    src->in.gz != NULL || fstat(src->in.fd, &st) != 0 ||
	    !S_ISREG(st.st_mode))
		return -UE_NOTSUP;
	m->offset = cap_in_offset(&src->in);
	m->recno = src->recno;
	m->skipped = src->skipped;
	m->ops = src->ops;
	if (src->ops->mark != NULL &&
	    (m->state = src->ops->mark(src, &err)) == NULL && err != 0)
		return err;
	return 0;
}

int
cap_seek(struct cap_source *src, const struct cap_mark *m)
{
	int	 rc;

	if (m->ops != src->ops || src->ops->seek == NULL || src->recno != 0)
		return cap_error(src, UE_USAGE, m->recno + 1, m->offset,
		    "cannot come back here");
	if (cap_in_seek(&src->in, m->offset) != 0)
		return cap_error(src, UE_IO, m->recno + 1, m->offset,
		    "seek: %s", strerror(errno));
	if ((rc = src->ops->seek(src, m->state)) < 0)
		return rc;
	src->recno = m->recno;
	src->skipped = m->skipped;
	return 0;
}

void
cap_mark_free(struct cap_mark *m)
{
	if (m->state != NULL && m->ops != NULL && m->ops->mark_free != NULL)
		m->ops->mark_free(m->state);
	memset(m, 0, sizeof *m);
}
