/*
 * decode/dec-copy.c - a record kept beyond the source's next one: the
 * URB record or driver event with every byte it points to (payload, ISO
 * descriptors, a bus-level packet, pcapng comments, the event's
 * strings), and the class state of its interface (and the configuration
 * a class reads) as the analysis had it after this record, so that it
 * formats later (the TUI's pages) as it would have at once.
 */
#include <stdlib.h>
#include <string.h>

#include "decode.h"

static size_t
align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t
strsz(const char *s)
{
	return s != NULL ? strlen(s) + 1 : 0;
}

static const char *
putstr(uint8_t *buf, size_t *off, const char *s)
{
	char	*d;
	size_t	 n;

	if (s == NULL)
		return NULL;
	n = strlen(s) + 1;
	d = (char *)buf + *off;
	memcpy(d, s, n);
	*off += n;
	return d;
}

static void
dec_rec_release(struct dec_rec *rec)
{
	/* not reading the old copy unless it holds something: it went
	 * cold in the cache long ago */
	if (rec->shares)
		dec_cls_state_free((struct dec_cls_state *)(void *)
		    rec->info.st);
	rec->shares = 0;
	rec->info.st = NULL;
}

/* The pcapng comments: NUL-terminated strings, one after another. */
static size_t
comments_size(const struct urb_rec *r)
{
	size_t	 n = 0;
	uint32_t k;

	for (k = 0; r->comments != NULL && k < r->ncomments; k++)
		n += strlen(r->comments + n) + 1;
	return n;
}

static size_t
dec_rec_size(const struct urb_rec *r, const struct dec_info *info,
    const struct drv_event *ev)
{
	size_t	 niso;

	if (r == NULL)
		return align8(strsz(ev->driver) + strsz(ev->func) +
		    strsz(ev->rule) + strsz(ev->text));
	niso = r->niso > URB_ISO_MAX ? URB_ISO_MAX : r->niso;
	return (info != NULL && info->st != NULL ?
	    align8(sizeof(struct dec_cls_state)) : 0) +
	    align8(niso * sizeof *r->iso) + align8(r->data_len) +
	    align8(r->ll.raw_len) + align8(comments_size(r)) +
	    (info != NULL && info->cfg != NULL ? align8(info->cfg_len) : 0);
}

static void
dec_rec_put(struct dec_rec *rec, int kind, const struct urb_rec *r,
    const struct dec_info *info, const struct drv_event *ev, uint8_t *buf)
{
	struct dec_cls_state *st;
	size_t	 off = 0, niso, ncmt;

	rec->kind = kind;
	rec->shares = 0;
	if (r == NULL) {
		rec->ev = *ev;
		rec->ev.driver = putstr(buf, &off, ev->driver);
		rec->ev.func = putstr(buf, &off, ev->func);
		rec->ev.rule = putstr(buf, &off, ev->rule);
		rec->ev.text = putstr(buf, &off, ev->text);
		memset(&rec->info, 0, sizeof rec->info);
		return;
	}
	rec->r = *r;
	if (info != NULL)
		rec->info = *info;
	else
		memset(&rec->info, 0, sizeof rec->info);
	/* in buf, not in *rec: a record moved by value keeps it */
	if (info != NULL && info->st != NULL) {
		st = (struct dec_cls_state *)(void *)buf;
		dec_cls_state_copy(st, info->st);
		rec->info.st = st;
		rec->shares = dec_cls_state_held(st);
		off = align8(sizeof *st);
	}
	if (info != NULL && info->cfg != NULL) {
		memcpy(buf + off, info->cfg, info->cfg_len);
		rec->info.cfg = buf + off;
		off += align8(info->cfg_len);
	}
	niso = r->niso > URB_ISO_MAX ? URB_ISO_MAX : r->niso;
	if (niso > 0) {
		memcpy(buf + off, r->iso, niso * sizeof *r->iso);
		rec->r.iso = (const struct urb_iso *)(void *)(buf + off);
		rec->r.niso = (uint32_t)niso;
		off += align8(niso * sizeof *r->iso);
	} else
		rec->r.iso = NULL;
	if (r->data_len > 0) {
		memcpy(buf + off, r->data, r->data_len);
		rec->r.data = buf + off;
		off += align8(r->data_len);
	} else
		rec->r.data = NULL;
	/* a bus-level record's packet */
	if (r->ll.raw_len > 0) {
		memcpy(buf + off, r->ll.raw, r->ll.raw_len);
		rec->r.ll.raw = buf + off;
		off += align8(r->ll.raw_len);
	} else
		rec->r.ll.raw = NULL;
	if ((ncmt = comments_size(r)) > 0) {
		memcpy(buf + off, r->comments, ncmt);
		rec->r.comments = (const char *)buf + off;
	} else {
		rec->r.comments = NULL;
		rec->r.ncomments = 0;
	}
	/* the interface name lives in the source until its next record */
	rec->r.ifname = NULL;
}

int
dec_rec_copy(struct dec_rec *rec, int kind, const struct urb_rec *r,
    const struct dec_info *info, const struct drv_event *ev)
{
	size_t	 need;
	uint8_t	*nb;

	dec_rec_release(rec);
	need = dec_rec_size(r, info, ev);
	if (need > rec->bufsize) {
		if ((nb = realloc(rec->buf, need)) == NULL)
			return -UE_NOMEM;
		rec->buf = nb;
		rec->bufsize = need;
	}
	dec_rec_put(rec, kind, r, info, ev, rec->buf);
	return 0;
}

void
dec_rec_free(struct dec_rec *rec)
{
	dec_rec_release(rec);
	free(rec->buf);
	memset(rec, 0, sizeof *rec);
}
