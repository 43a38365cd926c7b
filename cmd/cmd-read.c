/*
 * cmd/cmd-read.c - `urbscope read FILE`: decode a capture and print one
 * line per record (or -V trees, JSON lines, usbmon text, tshark-style
 * fields).  Driver events (pcapng interfaces of link type 252, the
 * simulator) are printed among the records in text, -V and JSON, and
 * skipped by -T usbmon and -T fields.  Streams: memory does not grow with
 * the file.  On bad input
 * everything decoded before the problem is printed, then the error with
 * file, record number and offset, and the exit status is 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "cmd.h"

static void
read_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope read FILE [options]\n"
	    "Decode a USB capture: pcap or pcapng of link type 189 or 220\n"
	    "(Linux usbmon), 249 (Windows USBPcap), 266 (macOS XHC), 288\n"
	    "or 293-295 (a hardware sniffer's bus-level packets); usbmon\n"
	    "text (the kernel's 'u' or old 't' format) or the raw usbmon\n"
	    "binary stream.  FILE '-' reads standard input.  Driver events\n"
	    "in pcapng (link type 252) print among the records.\n\n"
	    "  -c N          stop after N records (read, shown or not)\n"
	    "  -q            no notes on standard error (the packets\n"
	    "                skipped, the URBs not completed), errors only\n"
	    "  --collapse    bus-level captures: a run of NAKed polls is one\n"
	    "                line (\"IN 5.2 polled 40 times, NAKed\"), so is\n"
	    "                a run of SOFs (text form)\n"
	    "%s", print_usage);
}

int
read_run(const char *name, struct printer *pr, uint64_t limit)
{
	struct cap_pipe	 pipe;
	char		 err[600];
	int		 rc, status = 0;

	if (cap_pipe_open(&pipe, name, 1, err, sizeof err) < 0) {
		cmd_warnx("%s", err);
		return EXIT_INPUT;
	}
	if ((rc = print_begin(pr, &pipe)) < 0) {
		cap_pipe_close(&pipe);
		return -rc;
	}
	while (limit == 0 || pipe.count < limit) {
		if ((rc = cap_pipe_next(&pipe)) == CAP_END)
			break;
		if (rc < 0) {
			print_last(pr);
			if (print_flush(pr) < 0)
				goto write_failed;
			cmd_warnx("%s", pipe.src->err);
			status = EXIT_INPUT;
			goto out;
		}
		if (print_record(pr, &pipe, rc) < 0) {
			if (pr->out.oom) {
				status = EXIT_INPUT;
				goto out;
			}
			goto write_failed;
		}
	}
	if (limit != 0 && pipe.count >= limit)
		pr->open_mark = "not completed in the records read (-c)";
	print_last(pr);
	if (print_flush(pr) < 0)
		goto write_failed;
	if (limit == 0 || pipe.count < limit)
		print_pending(pr, &pipe);
	goto out;

write_failed:
	cmd_warnx("writing the output: %s", strerror(errno));
	status = EXIT_INPUT;
out:
	print_end(pr);
	cap_pipe_close(&pipe);
	return status;
}

static int
read_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	struct printer	 pr;
	uint64_t	 limit = 0;

	(void)ce;
	print_init(&pr);
	if (print_args(&pr, a) != 0 || args_count(a, 'c', &limit) != 0)
		return EXIT_USAGE;
	pr.quiet = args_has(a, 'q');
	return read_run(a->argv[0], &pr, limit);
}

static const struct option read_longopts[] = {
	PRINT_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_read_entry = {
	.name = "read",
	.usage = "FILE [-Y FILTER] [-c N] [-q] [-V] "
	    "[-T text|json|usbmon|fields|keys [-e FIELD]...] [-t r|a|d|dd|e] "
	    "[--collapse] [--transfers] [--tree] "
	    "[--decode-as TARGET=CLASS]...",
	.help = "decode a capture (pcap, pcapng, usbmon text or binary; "
	    "- = stdin)",
	.template = "c:q" PRINT_OPTS,
	.longopts = read_longopts,
	.lower = 1,
	.upper = 1,
	.missing = "which file? (- for standard input)",
	.extra = "one file at a time",
	.usage_fn = read_usage,
	.exec = read_exec,
};
