/*
 * tui/tui-save.c - the TUI's "save what is shown" ('w'): the records the
 * view's filter passes (in the transfers view both halves of every URB
 * and each poll of a folded run), URB records and driver events, re-read from the
 * store in order and written through a capture sink, as `urbscope convert
 * -Y FILTER` writes what read -Y shows.  No curses here: the screen only
 * asks for the file name and says the result.
 */
#include <stdio.h>
#include <string.h>

#include "tui-model.h"

/* The link type of the first URB record shown, 0 if none. */
static uint32_t
save_linktype(struct tui_model *m, tui_fetch_fn fetch)
{
	const struct dec_rec *rec;
	uint32_t	 i;
	size_t		 k;

	for (k = 0; tui_model_record_next(m, &k, &i); ) {
		if ((rec = fetch(m->fetch_arg, tui_recno(i))) != NULL &&
		    rec->kind == CAP_URB)
			return cap_linktype_of(&rec->r);
	}
	return 0;
}

int
tui_model_save(struct tui_model *m, const char *path, uint64_t *nsaved,
    uint64_t *ndropped, char *err, size_t errlen)
{
	const struct dec_rec *rec;
	struct cap_sink_opts opts;
	struct cap_sink	*sink = NULL;
	tui_fetch_fn	 fetch = m->scan != NULL ? m->scan : m->fetch;
	uint64_t	 n = 0;
	uint32_t	 i;
	size_t		 k;
	int		 rc;

	*nsaved = *ndropped = 0;
	/* what is shown is what the whole index passes, not the part the
	 * filter has reached between keys */
	while ((rc = tui_model_filter_step(m, 65536)) > 0)
		;
	if (rc < 0) {
		snprintf(err, errlen, "%s", ue_strerror(UE_NOMEM));
		return -UE_NOMEM;
	}
	if (m->nvis == 0) {
		snprintf(err, errlen, "nothing to save: no record is shown");
		return -UE_USAGE;
	}
	for (k = 0; tui_model_record_next(m, &k, &i); ) {
		if ((rec = fetch(m->fetch_arg, tui_recno(i))) == NULL) {
			snprintf(err, errlen, "%s: record %llu cannot be "
			    "read again", path, TUI_FRAME(m, i));
			rc = -UE_IO;
			goto fail;
		}
		if (sink == NULL) {
			/* the first record's link type, as convert keeps it
			 * (a sniffer's file starts with bus events) */
			memset(&opts, 0, sizeof opts);
			opts.linktype = save_linktype(m, fetch);
			if ((rc = cap_sink_open(path, NULL, &opts, &sink, err,
			    errlen)) < 0)
				return rc;
		}
		n++;
		if (rec->kind == CAP_URB)
			rc = cap_sink_write(sink, &rec->r);
		else if (sink->ops->write_event == NULL) {
			(*ndropped)++;
			continue;
		} else
			rc = cap_sink_write_event(sink, &rec->ev);
		if (rc < 0) {
			snprintf(err, errlen, "%s", sink->err);
			goto fail;
		}
	}
	/* the sink counts the records it could not hold (a pcap has no
	 * place for events either): the rest of the view is in the file */
	*ndropped += sink->dropped;
	*nsaved = n - *ndropped;
	return cap_sink_close(sink, err, errlen);

fail:
	cap_sink_abort(sink);
	return rc;
}
