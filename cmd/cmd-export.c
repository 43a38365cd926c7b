/*
 * cmd/cmd-export.c - `urbscope export --format c|python|syzkaller FILE
 * [-s BUS.DEV] [-Y FILTER] [-o OUT]`: a capture turned back into a
 * program that does what the host did to one device and checks what the
 * device answers, or (syzkaller) one that emulates the device for
 * syzkaller's USB fuzzing (the generator is decode/dec-export.c).  -Y chooses the records
 * exported; -s the device (default: the first that is no hub).  Each
 * transfer's comment is its submission's summary as `urbscope read`
 * gives it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "cmd.h"

#define EXPORT_OPT_FORMAT	0x120

static void
export_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope export --format c|python|syzkaller FILE "
	    "[-s BUS.DEV] [-Y FILTER]\n              [-o OUT]\n"
	    "A capture turned back into a program: what the host did to "
	    "one device, in\nthe order its transfers completed, each "
	    "answer checked against the\nrecording (status, length, bytes),"
	    " each transfer commented with its\ndecoded request.  c: one "
	    "file on libusb-1.0 (cc -Wall -Wextra -Werror -o\nreplay "
	    "replay.c $(pkg-config --cflags --libs libusb-1.0)); python: "
	    "pyusb\n(python3-usb).  The program opens the device by its "
	    "VID:PID, claims the\ninterfaces its transfers use (detaching "
	    "their kernel drivers) and exits 0\nwhen the device answered as "
	    "recorded.  The enumeration (SET_ADDRESS, the\nstandard "
	    "requests before SET_CONFIGURATION), cancelled URBs and\n"
	    "isochronous ones are left out, and counted in its header.\n"
	    "syzkaller: the device's side instead, a syzkaller program that "
	    "emulates it\n(sys/linux/vusb.txt): syz_usb_connect with its "
	    "descriptors, then a\nsyz_usb_control_io with the recorded answer "
	    "of each control request after\nSET_CONFIGURATION, "
	    "syz_usb_ep_write and syz_usb_ep_read for bulk and\ninterrupt "
	    "data.\n\n"
	    "  --format LANG  c, python or syzkaller\n"
	    "  -s BUS.DEV     the device (default: the first that answered\n"
	    "                 GET_DESCRIPTOR(DEVICE) and is no hub)\n"
	    "  -Y FILTER      only the records FILTER shows\n"
	    "  -o OUT         write to OUT (default: standard output)\n");
}

int
cmd_export_read(struct dec_export *x, const char *name, const char *filter,
    int *bad)
{
	struct cap_pipe	 pipe;
	struct dec_fmt	 fmt;
	struct sbuf	 sum;
	int		 rc, status = 0;

	*bad = 0;
	if ((rc = cmd_pipe_open(&pipe, name, 1, filter)) != 0)
		return rc;
	memset(&fmt, 0, sizeof fmt);
	fmt.ascii = 1;
	memset(&sum, 0, sizeof sum);
	while ((rc = cap_pipe_next(&pipe)) != CAP_END) {
		if (rc < 0) {
			/* what came before is worth having */
			cmd_warnx("%s (the records before it are used)",
			    pipe.src->err);
			*bad = 1;
			break;
		}
		if (rc != CAP_URB ||
		    (pipe.has_filter && !cap_pipe_shown(&pipe, rc)))
			continue;
		sum.len = 0;
		dec_fmt_summary(&fmt, &pipe.r, &pipe.info, &sum);
		if (dec_export_record(x, &pipe.r, sum.len > 0 ? sum.s : "",
		    pipe.info.pair_recno) < 0) {
			cmd_warnx("out of memory");
			status = EXIT_INPUT;
			break;
		}
	}
	cap_pipe_close(&pipe);
	sb_free(&sum);
	return status;
}

static int
export_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	const char	*format = args_get(a, EXPORT_OPT_FORMAT);
	const char	*dev = args_get(a, 's');
	const char	*filter = args_get(a, 'Y');
	const char	*out = args_get(a, 'o');
	struct dec_export *x;
	struct sbuf	 prog;
	char		 err[600], c;
	int		 lang, bus = 0, devnum = 0, bad, status;
	FILE		*f;

	(void)ce;
	if (format == NULL || (strcmp(format, "c") != 0 &&
	    strcmp(format, "python") != 0 &&
	    strcmp(format, "syzkaller") != 0)) {
		cmd_warnx("export: --format c, python or syzkaller%s%s",
		    format != NULL ? ", not " : " is required",
		    format != NULL ? format : "");
		return EXIT_USAGE;
	}
	lang = strcmp(format, "c") == 0 ? DEC_EXPORT_C :
	    strcmp(format, "python") == 0 ? DEC_EXPORT_PYTHON : DEC_EXPORT_SYZ;
	if (dev != NULL && (sscanf(dev, "%d.%d%c", &bus, &devnum, &c) != 2 ||
	    bus < 1 || bus > 65535 || devnum < 1 || devnum > 127)) {
		cmd_warnx("export: -s wants BUS.DEV (1.3), not %s", dev);
		return EXIT_USAGE;
	}
	if ((x = dec_export_new(lang, a->argv[0])) == NULL) {
		cmd_warnx("out of memory");
		return EXIT_INPUT;
	}
	if (devnum != 0)
		dec_export_device(x, bus, devnum);
	memset(&prog, 0, sizeof prog);
	status = cmd_export_read(x, a->argv[0], filter, &bad);
	if (status == 0 && dec_export_finish(x, &prog, err, sizeof err) < 0) {
		cmd_warnx("export: %s", err);
		status = EXIT_INPUT;
	}
	if (status == 0) {
		f = out != NULL ? fopen(out, "w") : stdout;
		if (f == NULL || fwrite(prog.s, 1, prog.len, f) != prog.len ||
		    (f != stdout ? fclose(f) : fflush(f)) != 0) {
			cmd_warnx("export: writing %s failed", out != NULL ?
			    out : "the standard output");
			status = EXIT_INPUT;
		}
	}
	sb_free(&prog);
	dec_export_free(x);
	return status != 0 ? status : bad ? EXIT_INPUT : 0;
}

static const struct option export_longopts[] = {
	{ "format", required_argument, NULL, EXPORT_OPT_FORMAT },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.usage = "--format c|python|syzkaller FILE [-s BUS.DEV] [-Y FILTER] "
	    "[-o OUT]",
	.help = "a capture as a program that does what the host did and "
	    "checks the answers (libusb C, pyusb), or as a syzkaller program "
	    "that emulates the device",
	.template = "o:s:Y:",
	.longopts = export_longopts,
	.lower = 1,
	.upper = 1,
	.missing = "export needs the capture to export",
	.extra = "one capture",
	.usage_fn = export_usage,
	.exec = export_exec,
};
