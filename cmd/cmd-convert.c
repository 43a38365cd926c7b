/*
 * cmd/cmd-convert.c - `urbscope convert IN -w OUT [-F FORMAT]`: rewrite a
 * capture as pcap, pcapng or usbmon text.  Progress goes to stderr when
 * it is a terminal.  On bad input everything read before the problem is
 * written and the output file is complete and valid; the exit status is 1.
 * Driver events go only to pcapng; for the other formats their number is
 * said once on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "cmd.h"

static void
convert_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope convert IN -w OUT [-F pcap|pcapng|usbmon] "
	    "[-c N]\n"
	    "Convert a USB capture.  IN is any format 'urbscope read' "
	    "takes;\n"
	    "OUT '-' is standard output.  Without -F the format follows\n"
	    "OUT's extension (.pcap, .pcapng, .txt/.mon for usbmon text),\n"
	    "else pcapng.\n");
}

int
convert_run(const char *name, const char *outpath, const char *format,
    uint64_t limit)
{
	struct cap_pipe	 pipe;
	struct cap_sink	*sink = NULL;
	char		 err[600];
	uint64_t	 dropped = 0;
	double		 last = 0, t;
	int		 rc, status = 0, progress;

	/* no analysis: records go to the sink as they are */
	if (cap_pipe_open(&pipe, name, 0, err, sizeof err) < 0) {
		cmd_warnx("%s", err);
		return EXIT_INPUT;
	}
	if ((rc = cap_sink_open(outpath, format, NULL, &sink, err,
	    sizeof err)) < 0) {
		cmd_warnx("%s", err);
		cap_pipe_close(&pipe);
		return rc == -UE_USAGE ? EXIT_USAGE : EXIT_INPUT;
	}
	progress = isatty(STDERR_FILENO) && strcmp(outpath, "-") != 0;
	while (limit == 0 || pipe.count < limit) {
		if ((rc = cap_pipe_next(&pipe)) == CAP_END)
			break;
		if (rc < 0) {
			cmd_warnx("%s", pipe.src->err);
			status = EXIT_INPUT;
			break;
		}
		if (rc != CAP_URB && rc != CAP_EVENT)
			continue;
		if (rc == CAP_EVENT && sink->ops->write_event == NULL)
			dropped++;
		rc = rc == CAP_URB ? cap_sink_write(sink, &pipe.r) :
		    cap_sink_write_event(sink, &pipe.ev);
		if (rc < 0) {
			cmd_warnx("%s", sink->err);
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
	if (dropped > 0)
		cmd_warnx("%llu driver event%s not written: %s cannot hold "
		    "them; use pcapng", (unsigned long long)dropped,
		    dropped == 1 ? "" : "s", sink->ops->name);
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
	const char	*outpath = args_get(a, 'w');
	uint64_t	 limit = 0;

	(void)ce;
	if (args_count(a, 'c', &limit) != 0)
		return EXIT_USAGE;
	if (outpath == NULL) {
		cmd_warnx("convert: -w OUT is required");
		convert_usage(stderr);
		return EXIT_USAGE;
	}
	return convert_run(a->argv[0], outpath, args_get(a, 'F'), limit);
}

const struct cmd_entry cmd_convert_entry = {
	.name = "convert",
	.usage = "IN -w OUT [-F pcap|pcapng|usbmon] [-c N]",
	.help = "convert a capture to pcap, pcapng or usbmon text",
	.template = "c:F:w:",
	.lower = 1,
	.upper = 1,
	.missing = "which input file? (- for standard input)",
	.extra = "one input file",
	.usage_fn = convert_usage,
	.exec = convert_exec,
};
