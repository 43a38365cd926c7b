/*
 * cmd/cmd-convert.c - `urbscope convert IN -w OUT [-F FORMAT]`: rewrite a
 * capture as pcap, pcapng or usbmon text.  Progress goes to stderr when
 * it is a terminal.  On bad input everything read before the problem is
 * written and the output file is complete and valid; the exit status is 1
 * (an input bad from its first record, or a failed write, leaves no file).
 * Driver events go only to pcapng; for the other formats their number is
 * said once on stderr.  -Y FILTER writes only the records and events it
 * shows, as tshark -Y with -w does, after the same analysis read makes
 * (pairing, latency, classes).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "cmd.h"

static void
convert_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope convert IN -w OUT [-F pcap|pcapng|usbmon] "
	    "[-y 220|249]\n"
	    "                        [-c N] [-Y FILTER]\n"
	    "Convert a USB capture.  IN is any format 'urbscope read' "
	    "takes;\n"
	    "OUT '-' is standard output.  Without -F the format follows\n"
	    "OUT's extension (.pcap, .pcapng, .txt/.mon for usbmon text),\n"
	    "else pcapng.  A Windows (USBPcap, link type 249) capture stays\n"
	    "USBPcap unless -y 220 asks for usbmon; -y 249 writes a Linux\n"
	    "capture as USBPcap; a macOS capture (266) stays macOS unless\n"
	    "-y asks.  A bus-level capture (288, 293-295) stays\n"
	    "one; -y 220 or 249 keeps its transfers and drops the packets.\n"
	    "Records the other link type cannot hold are counted and named\n"
	    "on stderr.  -Y FILTER writes only what 'urbscope read -Y\n"
	    "FILTER' shows, driver events included (pcapng keeps them).\n"
	    "-c N stops after N records and events read, written or not.\n");
}

/* -y: a link type by number or name; 0 if neither 220 nor 249. */
static uint32_t
convert_linktype(const char *s)
{
	if (strcmp(s, "220") == 0 || strcasecmp(s, "USB_LINUX_MMAPPED") == 0)
		return 220;
	if (strcmp(s, "249") == 0 || strcasecmp(s, "USBPCAP") == 0)
		return 249;
	return 0;
}

/* Say what the output's link type could not hold. */
static void
convert_dropped(const struct cap_sink *sink)
{
	const struct cap_as_usbmon *u = &sink->as_usbmon;
	const char	*fn;

	if (sink->dropped == 0)
		return;
	if (u->drop_packet > 0)
		cmd_warnx("%llu bus-level packet%s (SOF, tokens, handshakes, "
		    "data that ends no transfer) not written: link type %u "
		    "holds the transfers only", (unsigned long long)
		    u->drop_packet, u->drop_packet == 1 ? "" : "s",
		    sink->opts.linktype ? sink->opts.linktype : 220);
	if (sink->opts.linktype == 249) {
		if (sink->dropped > u->drop_packet)
			cmd_warnx("%llu record%s not written: USBPcap (249) "
			    "has no place for transfers of no USB transfer "
			    "type", (unsigned long long)(sink->dropped -
			    u->drop_packet), sink->dropped - u->drop_packet ==
			    1 ? "" : "s");
		return;
	}
	if (cap_usbll_linktype(sink->opts.linktype) ||
	    sink->opts.linktype == 266) {
		cmd_warnx("%llu record%s not written: link type %u holds "
		    "%s only", (unsigned long long)sink->dropped,
		    sink->dropped == 1 ? "" : "s", sink->opts.linktype,
		    sink->opts.linktype == 266 ? "macOS records" :
		    "bus-level packets");
		return;
	}
	if (u->drop_irp > 0) {
		fn = dec_urb_function_name(u->drop_function);
		cmd_warnx("%llu USBPcap IRP%s with no transfer (such as %s) "
		    "not written: usbmon has no event for them",
		    (unsigned long long)u->drop_irp,
		    u->drop_irp == 1 ? "" : "s",
		    fn != NULL ? fn : "an unknown URB function");
	}
	if (u->drop_stage > 0)
		cmd_warnx("%llu USBPcap control data stage%s not written: "
		    "usbmon carries OUT data in the submit, which is written "
		    "without it", (unsigned long long)u->drop_stage,
		    u->drop_stage == 1 ? "" : "s");
	if (u->drop_status > 0)
		cmd_warnx("%llu USBPcap status stage%s not written: the data "
		    "stage before completed the URB",
		    (unsigned long long)u->drop_status,
		    u->drop_status == 1 ? "" : "s");
}

/*
 * The output is opened at the first record, in the link type that record
 * came in (unless -y says): a USBPcap capture is written as USBPcap.  An
 * input that fails before any record leaves no output file; one that
 * fails later leaves the records before the failure, complete; a failed
 * write removes the file, which would be cut anywhere.
 */
int
convert_run(const char *name, const char *outpath, const char *format,
    uint64_t limit, const char *filter)
{
	return convert_run_lt(name, outpath, format, limit, 0, filter);
}

int
convert_run_lt(const char *name, const char *outpath, const char *format,
    uint64_t limit, uint32_t linktype, const char *filter)
{
	struct convert_opts o;

	memset(&o, 0, sizeof o);
	o.limit = limit;
	o.linktype = linktype;
	o.filter = filter;
	return convert_run_opts(name, outpath, format, &o);
}

/*
 * o->pace: each record written no sooner than its time stamp after the
 * first's, on the wall clock, what was written flushed before each wait
 * (a FIFO's reader sees the records as they come); waits of at most
 * 100 ms, so that *o->stop is seen.
 */
static void
convert_pace(const struct convert_opts *o, struct cap_sink *sink,
    int64_t ts, int64_t *t0, double *wall0)
{
	struct timespec	 d;
	double		 due, now;

	if (*wall0 == 0) {
		*t0 = ts;
		*wall0 = cap_clock_s();
		return;
	}
	due = *wall0 + (double)(ts - *t0) / 1e9;
	for (now = cap_clock_s(); due > now && !*o->stop;
	    now = cap_clock_s()) {
		(void)cap_out_flush(&sink->out);
		d.tv_sec = 0;
		d.tv_nsec = (long)((due - now > 0.1 ? 0.1 : due - now) * 1e9);
		nanosleep(&d, NULL);
	}
}

int
convert_run_opts(const char *name, const char *outpath, const char *format,
    const struct convert_opts *o)
{
	static volatile sig_atomic_t never;
	struct convert_opts po = *o;
	const char	*filter = o->filter;
	uint64_t	 limit = o->limit;
	uint32_t	 linktype = o->linktype;
	int64_t		 t0 = 0;
	double		 wall0 = 0;
	struct cap_pipe	 pipe;
	struct cap_sink_opts opts;
	struct cap_sink	*sink = NULL;
	char		 err[600], ifname[64];
	uint64_t	 dropped = 0, dropped_bus = 0;
	double		 last = 0, t;
	int		 rc, status = 0, progress, kind = CAP_END;

	/* no analysis unless the filter needs it: records go to the sink
	 * as they are */
	if ((rc = cmd_pipe_open(&pipe, name, filter != NULL, filter)) != 0)
		return rc;
	/* the first record, to know its link type */
	while ((kind = cap_pipe_next(&pipe)) == CAP_AGAIN)
		;
	if (kind < 0) {
		cmd_warnx("%s (no output written)", pipe.src->err);
		cap_pipe_close(&pipe);
		return EXIT_INPUT;
	}
	memset(&opts, 0, sizeof opts);
	opts.linktype = linktype;
	if (linktype == 0 && kind == CAP_URB)
		opts.linktype = cap_linktype_of(&pipe.r);
	else if (linktype == 0 && kind == CAP_EVENT &&
	    (pipe.src->linktype == 249 || pipe.src->linktype == 266 ||
	    cap_usbll_linktype(pipe.src->linktype)))
		/* events first (a sniffer's): the file's USB link type */
		opts.linktype = pipe.src->linktype;
	/* the first interface keeps its name (pcapng), as the others do */
	if (kind == CAP_URB && pipe.r.ifname != NULL) {
		snprintf(ifname, sizeof ifname, "%s", pipe.r.ifname);
		opts.if_name = ifname;
	}
	if ((rc = cap_sink_open(outpath, format, &opts, &sink, err,
	    sizeof err)) < 0) {
		cmd_warnx("%s", err);
		cap_pipe_close(&pipe);
		return rc == -UE_USAGE ? EXIT_USAGE : EXIT_INPUT;
	}
	progress = isatty(STDERR_FILENO) && strcmp(outpath, "-") != 0;
	if (po.stop == NULL)
		po.stop = &never;
	for (rc = kind; rc != CAP_END && !*po.stop;
	    rc = cap_pipe_next(&pipe)) {
		if (rc < 0) {
			cmd_warnx("%s", pipe.src->err);
			cmd_warnx("%s: the %llu records before it are written",
			    outpath, (unsigned long long)sink->count);
			status = EXIT_INPUT;
			break;
		}
		if (rc != CAP_URB && rc != CAP_EVENT)
			continue;
		if (limit != 0 && pipe.count > limit)
			break;
		if (pipe.has_filter && !cap_pipe_shown(&pipe, rc))
			continue;
		if (rc == CAP_EVENT && sink->ops->write_event == NULL) {
			if (pipe.ev.kind == DRV_BUS)
				dropped_bus++;
			else
				dropped++;
		}
		if (po.pace)
			convert_pace(&po, sink, rc == CAP_URB ? pipe.r.ts_ns :
			    pipe.ev.ts_ns, &t0, &wall0);
		rc = rc == CAP_URB ? cap_sink_write(sink, &pipe.r) :
		    cap_sink_write_event(sink, &pipe.ev);
		if (rc < 0 && o->stop != NULL && sink->out.err == EPIPE) {
			/* a live reader (Wireshark) that went away: the end */
			cap_sink_abort(sink);
			cap_pipe_close(&pipe);
			return 0;
		}
		if (rc < 0) {
			cmd_warnx("%s", sink->err);
			cap_sink_abort(sink);
			sink = NULL;
			status = EXIT_INPUT;
			break;
		}
		if (progress && (pipe.count & 0xffff) == 0 &&
		    (t = cap_clock_s()) - last > 0.5) {
			fprintf(stderr, "\rurbscope: %llu records, %.1f MB "
			    "read", (unsigned long long)pipe.count,
			    cap_in_offset(&pipe.src->in) / 1e6);
			last = t;
		}
	}
	if (progress && last > 0)
		fputc('\n', stderr);
	if (sink == NULL) {
		cmd_warnx("%s: removed, the write failed", outpath);
		cap_pipe_close(&pipe);
		return status;
	}
	if (dropped > 0)
		cmd_warnx("%llu driver event%s not written: %s cannot hold "
		    "them; use pcapng", (unsigned long long)dropped,
		    dropped == 1 ? "" : "s", sink->ops->name);
	if (dropped_bus > 0)
		cmd_warnx("%llu bus event%s not written: %s cannot hold "
		    "them; use pcapng", (unsigned long long)dropped_bus,
		    dropped_bus == 1 ? "" : "s", sink->ops->name);
	convert_dropped(sink);
	if (pipe.src->note[0] != '\0')
		cmd_warnx("%s", pipe.src->note);
	if (o->stop != NULL && (sink->out.err == EPIPE ||
	    (cap_out_flush(&sink->out) < 0 && sink->out.err == EPIPE))) {
		/* the live reader went away after the last record */
		cap_sink_abort(sink);
		cap_pipe_close(&pipe);
		return status;
	}
	if (cap_sink_close(sink, err, sizeof err) < 0) {
		cmd_warnx("%s", err);
		status = EXIT_INPUT;
	}
	cap_pipe_close(&pipe);
	return status;
}

static int
convert_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	const char	*outpath = args_get(a, 'w'), *lt;
	uint64_t	 limit = 0;
	uint32_t	 linktype = 0;

	(void)ce;
	if (args_count(a, 'c', &limit) != 0)
		return EXIT_USAGE;
	if (outpath == NULL) {
		cmd_warnx("convert: -w OUT is required");
		convert_usage(stderr);
		return EXIT_USAGE;
	}
	if ((lt = args_get(a, 'y')) != NULL &&
	    (linktype = convert_linktype(lt)) == 0) {
		cmd_warnx("convert: -y %s: urbscope writes link types 220 "
		    "(USB_LINUX_MMAPPED) and 249 (USBPCAP)", lt);
		return EXIT_USAGE;
	}
	return convert_run_lt(a->argv[0], outpath, args_get(a, 'F'), limit,
	    linktype, args_get(a, 'Y'));
}

static const struct option convert_longopts[] = {
	{ "linktype", required_argument, NULL, 'y' },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_convert_entry = {
	.name = "convert",
	.usage = "IN -w OUT [-F pcap|pcapng|usbmon] [-y 220|249] [-c N] "
	    "[-Y FILTER]",
	.help = "convert a capture to pcap, pcapng or usbmon text",
	.template = "c:F:w:y:Y:",
	.longopts = convert_longopts,
	.lower = 1,
	.upper = 1,
	.missing = "which input file? (- for standard input)",
	.extra = "one input file",
	.usage_fn = convert_usage,
	.exec = convert_exec,
};
