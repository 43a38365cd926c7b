/*
 * cmd/cmd-stats.c - `urbscope stats FILE`: statistics of a capture (per
 * device and endpoint: URBs, bytes, throughput, errors, latency and its
 * histogram, activity over time; classes; driver events), tshark's
 * -z conv,usb, -z endpoints,usb and -z io,stat tables, as text, JSON or
 * SVG charts.  The counting and printing are decode/dec-stats.c's; this
 * reads the records through the pipe and says what the options mean.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "decode/stats.h"
#include "cmd.h"

#define STATS_OPT_SVG	0x100

static void
stats_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope stats FILE [options]\n"
	    "Statistics of a USB capture: per device and endpoint the URBs,\n"
	    "bytes each way (completions' actual length), throughput, errors\n"
	    "by status (deliberate unlinks and kills, -ENOENT and\n"
	    "-ECONNRESET, counted apart as cancelled; isochronous frames in\n"
	    "error counted), latency from submit to completion (min, median,\n"
	    "p99, max: nearest rank) with a histogram, and the activity over\n"
	    "the capture as a strip; the classes the traffic belongs to; per\n"
	    "mass storage LUN the commands, blocks and bytes read and\n"
	    "written, LBA ranges, failures and sense keys; the driver events\n"
	    "and rule violations.\n\n"
	    "  -Y FILTER     count only the records and events it passes\n"
	    "  -c N          stop after N records\n"
	    "  -z WHAT       print only these (repeatable):\n"
	    "                  urbs      totals and the endpoint table\n"
	    "                  latency   latency histograms\n"
	    "                  errors    errors by endpoint and status\n"
	    "                  classes   records and bytes by class\n"
	    "                  msc       mass storage LUNs: commands, blocks\n"
	    "                            and bytes read and written, LBAs,\n"
	    "                            failures, sense keys\n"
	    "                  events    driver events and rules\n"
	    "                  conv,usb  tshark's conversations (frames,\n"
	    "                            frame.len bytes)\n"
	    "                  endpoints,usb  tshark's endpoints\n"
	    "                  io,stat[,INTERVAL]  frames and bytes each\n"
	    "                            INTERVAL seconds (default 1)\n"
	    "  -T text|json  the form (json: one object, exact numbers)\n"
	    "  --svg OUT     also write throughput and latency charts as SVG\n"
	    "                (- for standard output, instead of the text)\n");
}

/* frame.len of r as Wireshark counts it: the packet's original length in
 * the file, or for a source without packets (usbmon text, the simulator)
 * its link type's header, the ISO descriptors and the data it had. */
static uint32_t
frame_len(const struct urb_rec *r, uint32_t lt)
{
	static uint8_t	 pre[URB_HDR64 + 16 * URB_ISO_MAX];
	const uint8_t	*data;
	uint64_t	 total, orig;

	if (r->wire_len != 0)
		return r->wire_len;
	if (r->origin == URB_ORIGIN_USBPCAP)
		lt = 249;
	else if (r->origin == URB_ORIGIN_DARWIN)
		lt = 266;
	else if (r->origin == URB_ORIGIN_USBMON && lt != 189)
		lt = 220;
	cap_packet_layout(lt, r, 0, pre, &data, &total, &orig);
	return orig > UINT32_MAX ? UINT32_MAX : (uint32_t)orig;
}

static int
stats_z(const char *arg, struct dec_stats_opts *o)
{
	static const struct {
		const char	*name;
		unsigned	 bits;
	} z[] = {
		{ "urbs", DS_OVERVIEW | DS_ENDPOINTS },
		{ "latency", DS_LATENCY },
		{ "errors", DS_ERRORS },
		{ "classes", DS_CLASSES },
		{ "msc", DS_MSC },
		{ "events", DS_EVENTS },
		{ "conv,usb", DS_CONV },
		{ "endpoints,usb", DS_ADDRS },
		{ "io,stat", DS_IO },
	};
	char	*end;
	double	 iv;
	size_t	 i;

	if (strncmp(arg, "io,stat,", 8) == 0) {
		errno = 0;
		iv = strtod(arg + 8, &end);
		if (errno != 0 || end == arg + 8 || *end != '\0' ||
		    !(iv >= 1e-6 && iv <= 1e9)) {
			cmd_warnx("stats: -z io,stat,INTERVAL: INTERVAL in "
			    "seconds, from 0.000001: '%s'", arg + 8);
			return -1;
		}
		o->io_ns = (int64_t)(iv * 1e9 + 0.5);
		o->what |= DS_IO;
		return 0;
	}
	for (i = 0; i < sizeof z / sizeof z[0]; i++) {
		if (strcmp(arg, z[i].name) == 0) {
			o->what |= z[i].bits;
			return 0;
		}
	}
	cmd_warnx("stats: -z %s: unknown; one of urbs, latency, errors, "
	    "classes, msc, events, conv,usb, endpoints,usb, io,stat[,INTERVAL]",
	    arg);
	return -1;
}

static int
stats_write(const char *path, struct sbuf *b)
{
	FILE	*f;
	int	 bad;

	if (strcmp(path, "-") == 0)
		return cmd_write_out(b);
	if ((f = fopen(path, "w")) == NULL) {
		cmd_warnx("%s: %s", path, strerror(errno));
		return -1;
	}
	bad = fwrite(b->s, 1, b->len, f) != b->len;
	if (fclose(f) != 0 || bad) {
		cmd_warnx("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The shortest interval of 1, 2 or 5 times a power of ten that cuts a
 * span of ns into DEC_STATS_IO_MAX intervals at most. */
static double
io_least(int64_t ns)
{
	double	 p, need = (double)ns / 1e9 / DEC_STATS_IO_MAX;
	int	 i;
	static const double m[] = { 1, 2, 5 };

	for (p = 1e-6; p < 1e10; p *= 10) {
		for (i = 0; i < 3; i++) {
			if (m[i] * p > need)
				return m[i] * p;
		}
	}
	return 1e9;
}

/* Seconds as a decimal without trailing zeros: "0.00002", "3". */
static const char *
io_secs(char *buf, size_t len, double sec)
{
	size_t	 n;

	snprintf(buf, len, "%.9f", sec);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

static int
stats_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	struct dec_stats_opts o;
	struct dec_stats s;
	struct cap_pipe	 pipe;
	struct sbuf	 b;
	const char	*form = "text", *svg = NULL, *expr = NULL;
	uint64_t	 limit = 0, n;
	char		 err[600], iv[32], least[32];
	size_t		 i;
	int		 rc, status = 0;

	(void)ce;
	memset(&o, 0, sizeof o);
	for (i = 0; i < a->nopt; i++) {
		const struct cmd_opt *op = &a->opt[i];

		switch (op->ch) {
		case 'z':
			if (stats_z(op->arg, &o) != 0)
				return EXIT_USAGE;
			break;
		case 'T':
			if (strcmp(op->arg, "text") != 0 &&
			    strcmp(op->arg, "json") != 0) {
				cmd_warnx("stats: -T %s: text or json",
				    op->arg);
				return EXIT_USAGE;
			}
			form = op->arg;
			break;
		case 'Y':
			expr = op->arg;
			break;
		case STATS_OPT_SVG:
			svg = op->arg;
			break;
		}
	}
	if (args_count(a, 'c', &limit) != 0)
		return EXIT_USAGE;
	if (o.what == 0)
		o.what = DS_REPORT;
	o.utf8 = cmd_utf8();

	if (cap_pipe_open(&pipe, a->argv[0], 1, err, sizeof err) < 0) {
		cmd_warnx("%s", err);
		return EXIT_INPUT;
	}
	if (expr != NULL && cap_pipe_filter(&pipe, expr, err,
	    sizeof err) < 0) {
		cmd_warnx("-Y %s", err);
		cap_pipe_close(&pipe);
		return EXIT_USAGE;
	}
	dec_stats_init(&s);
	while (limit == 0 || pipe.count < limit) {
		rc = cap_pipe_next(&pipe);
		/* times count from the file's first frame to its last,
		 * skipped or hidden, as tshark's do */
		if (pipe.src->gap > 0) {
			dec_stats_time(&s, pipe.src->gap_first_ns);
			dec_stats_time(&s, pipe.src->gap_last_ns);
		}
		if (rc == CAP_END)
			break;
		if (rc < 0) {
			/* what was read before the problem is counted */
			cmd_warnx("%s", pipe.src->err);
			status = EXIT_INPUT;
			break;
		}
		if (rc != CAP_URB && rc != CAP_EVENT)
			continue;
		if (pipe.has_filter && !cap_pipe_shown(&pipe, rc)) {
			dec_stats_time(&s, rc == CAP_URB ? pipe.r.ts_ns :
			    pipe.ev.ts_ns);
			continue;
		}
		if (rc == CAP_URB)
			dec_stats_add(&s, &pipe.r, &pipe.info,
			    frame_len(&pipe.r, pipe.src->linktype));
		else
			dec_stats_event(&s, &pipe.ev);
	}
	if (pipe.src->note[0] != '\0')
		cmd_warnx("%s", pipe.src->note);
	cap_pipe_close(&pipe);

	/* asked for io,stat: too many intervals is a usage error */
	if ((o.what & DS_IO) && (n = dec_stats_io_count(&s, o.io_ns)) >
	    DEC_STATS_IO_MAX) {
		cmd_warnx("stats: -z io,stat,%s: %" PRIu64 " intervals in "
		    "the capture's %.6f s, more than %d: choose an interval "
		    "of %s s or longer", io_secs(iv, sizeof iv,
		    (double)o.io_ns / 1e9), n, (double)(s.t1 - s.t0) / 1e9,
		    DEC_STATS_IO_MAX, io_secs(least, sizeof least,
		    io_least(s.t1 - s.t0)));
		dec_stats_free(&s);
		return EXIT_USAGE;
	}
	memset(&b, 0, sizeof b);
	if (svg != NULL) {
		dec_stats_svg(&s, &o, &b);
		if (b.oom || stats_write(svg, &b) != 0)
			status = EXIT_INPUT;
		b.len = 0;
		if (strcmp(svg, "-") == 0)
			goto out;
	}
	if (strcmp(form, "json") == 0)
		dec_stats_json(&s, &o, &b);
	else
		dec_stats_text(&s, &o, &b);
	if (b.oom) {
		cmd_warnx("stats: out of memory");
		status = EXIT_INPUT;
	} else if (cmd_write_out(&b) != 0) {
		cmd_warnx("writing the output: %s", strerror(errno));
		status = EXIT_INPUT;
	}
out:
	sb_free(&b);
	dec_stats_free(&s);
	return status;
}

static const struct option stats_longopts[] = {
	{ "svg", required_argument, NULL, STATS_OPT_SVG },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_stats_entry = {
	.name = "stats",
	.usage = "FILE [-Y FILTER] [-c N] [-z WHAT]... [-T text|json] "
	    "[--svg OUT]",
	.help = "statistics: per endpoint URBs, bytes, throughput, errors, "
	    "latency; tshark's -z tables",
	.template = "c:T:Y:z:",
	.longopts = stats_longopts,
	.lower = 1,
	.upper = 1,
	.missing = "which file? (- for standard input)",
	.extra = "one file at a time",
	.usage_fn = stats_usage,
	.exec = stats_exec,
};
