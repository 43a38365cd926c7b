/*
 * cmd/ring.c - capture's output files: names as tcpdump gives them for
 * -C and -W, a new file when one is full, the synthetic records at the
 * start of each, and cutting a file back after a failed write.
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "ring.h"

/* The name of file number n: tcpdump's names for -C and -W. */
static void
ring_name(struct ring *rg, unsigned n)
{
	unsigned	 width = 1, v;

	if (rg->file_size == 0 || strcmp(rg->outpath, "-") == 0)
		snprintf(rg->path, sizeof rg->path, "%s", rg->outpath);
	else if (rg->nfiles == 0) {
		if (n == 0)
			snprintf(rg->path, sizeof rg->path, "%s", rg->outpath);
		else
			snprintf(rg->path, sizeof rg->path, "%s%u",
			    rg->outpath, n);
	} else {
		for (v = rg->nfiles - 1; v >= 10; v /= 10)
			width++;
		snprintf(rg->path, sizeof rg->path, "%s%0*u", rg->outpath,
		    (int)width, n);
	}
}

static void
ring_bound(struct ring *rg)
{
	struct cap_out	*o = &rg->sink->out;

	rg->bounds[rg->nbounds++ % RING_BOUNDS] = o->written + o->used;
}

int
ring_open(struct ring *rg)
{
	struct cap_sink_opts	 opts;
	const char		*format = rg->format;
	char			 err[600];
	size_t			 i;

	memset(&opts, 0, sizeof opts);
	opts.snaplen = rg->snaplen;
	opts.if_name = rg->ifname;
	if (format == NULL && strcmp(rg->outpath, "-") == 0)
		format = "pcap";
	ring_name(rg, rg->fileno);
	if (cap_sink_open(rg->path, format, &opts, &rg->sink, err,
	    sizeof err) < 0) {
		cmd_warnx("%s", err);
		return -1;
	}
	rg->nbounds = 0;
	ring_bound(rg);
	/* every file of a ring decodes on its own */
	for (i = 0; i < rg->nsynth; i++) {
		if (cap_sink_write(rg->sink, &rg->synth[i]) < 0) {
			cmd_warnx("%s", rg->sink->err);
			return -1;
		}
		ring_bound(rg);
	}
	return 0;
}

int
ring_keep_synth(struct ring *rg, const struct urb_rec *r)
{
	struct urb_rec	*nr;
	uint8_t		*d = NULL;

	nr = realloc(rg->synth, (rg->nsynth + 1) * sizeof *nr);
	if (nr == NULL)
		return -1;
	rg->synth = nr;
	if (r->data_len > 0) {
		if ((d = malloc(r->data_len)) == NULL)
			return -1;
		memcpy(d, r->data, r->data_len);
	}
	nr[rg->nsynth] = *r;
	nr[rg->nsynth].data = d;
	rg->nsynth++;
	return 0;
}

enum ring_status
ring_write(struct ring *rg, const struct urb_rec *r)
{
	struct cap_out	*o = &rg->sink->out;

	if (cap_sink_write(rg->sink, r) < 0)
		return RING_EWRITE;
	ring_bound(rg);
	if (rg->file_size == 0 || o->written + o->used < rg->file_size)
		return RING_OK;
	if (ring_close(rg, 0) < 0)
		return RING_EFILE;
	rg->fileno++;
	if (rg->nfiles > 0 && rg->fileno == rg->nfiles)
		rg->fileno = 0;
	return ring_open(rg) < 0 ? RING_EFILE : RING_OK;
}

enum ring_status
ring_write_event(struct ring *rg, const struct drv_event *ev)
{
	if (cap_sink_write_event(rg->sink, ev) < 0)
		return RING_EWRITE;
	ring_bound(rg);
	return RING_OK;
}

enum ring_status
ring_flush(struct ring *rg)
{
	if (rg->sink == NULL || rg->sink->out.used == 0)
		return RING_OK;
	return cap_out_flush(&rg->sink->out) < 0 ? RING_EWRITE : RING_OK;
}

int
ring_errno(const struct ring *rg)
{
	return rg->sink != NULL && rg->sink->out.err != 0 ?
	    rg->sink->out.err : EIO;
}

const char *
ring_error(const struct ring *rg)
{
	if (rg->sink != NULL && rg->sink->err[0] != '\0')
		return rg->sink->err;
	return strerror(ring_errno(rg));
}

int64_t
ring_cut_back(struct ring *rg)
{
	struct cap_out	*o = &rg->sink->out;
	struct stat	 sb;
	uint64_t	 keep = 0, b, after = 0;
	size_t		 i, n;

	if (o->fd == -1 || fstat(o->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		return -1;
	n = rg->nbounds < RING_BOUNDS ? rg->nbounds : RING_BOUNDS;
	for (i = 0; i < n; i++) {
		b = rg->bounds[i];
		if (b <= o->written && b > keep)
			keep = b;
	}
	for (i = 0; i < n; i++) {
		if (rg->bounds[i] > keep)
			after++;
	}
	if (keep > 0 && ftruncate(o->fd, (off_t)keep) != 0) {
		cmd_warnx("%s: cannot cut back to %" PRIu64 " bytes: %s",
		    rg->path, keep, strerror(errno));
		return -1;
	}
	/* the first bound is the end of the file header */
	return (int64_t)(rg->nbounds - 1 - after);
}

int
ring_close(struct ring *rg, int broken)
{
	struct cap_stats st;
	char		 err[600];
	int		 rc;

	if (rg->sink == NULL)
		return 0;
	if (broken) {
		/* no trailer: what is there stays whole */
		if (rg->sink->out.err == 0)
			rg->sink->out.err = EIO;
		(void)cap_sink_close(rg->sink, NULL, 0);
		rg->sink = NULL;
		return 0;
	}
	cap_stats(rg->src, &st);
	cap_sink_set_stats(rg->sink, &st, rg->start_ns,
	    cap_clock_ns(CLOCK_REALTIME));
	rc = cap_sink_close(rg->sink, err, sizeof err);
	rg->sink = NULL;
	if (rc < 0) {
		cmd_warnx("%s", err);
		return -1;
	}
	return 0;
}

void
ring_free(struct ring *rg)
{
	size_t	 i;

	if (rg->sink != NULL)
		(void)cap_sink_close(rg->sink, NULL, 0);
	rg->sink = NULL;
	for (i = 0; i < rg->nsynth; i++)
		free((void *)(uintptr_t)rg->synth[i].data);
	free(rg->synth);
	rg->synth = NULL;
	rg->nsynth = 0;
}
