/*
 * tui/urbscope.c - main: the table of subcommands, --help and --version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "samples/samples.h"
#include "tui.h"

#ifndef URBSCOPE_VERSION
#error "URBSCOPE_VERSION comes from the Makefile's VERSION"
#endif

static const struct tui_cmd cmds[] = {
	{ "read", "FILE [-Y FILTER] [-c N] [-V] [-T text|json|usbmon|fields [-e FIELD]...]"
	    " [-t r|a|d|e]",
	    "decode a capture (pcap, pcapng, usbmon text or binary; - = stdin)",
	    tui_cmd_read },
	{ "convert", "IN -w OUT [-F pcap|pcapng|usbmon] [-c N]",
	    "convert a capture to pcap, pcapng or usbmon text",
	    tui_cmd_convert },
	{ "sim", "SCENARIO [-w OUT [-F FORMAT]] [-c N] [-Y FILTER] [-V] [-T ...]",
	    "run a scenario on the simulated EHCI machine, in virtual time",
	    tui_cmd_sim },
	{ "capture", "-i usbmonN [-w FILE] [-c N] [-s SNAPLEN] [-C MB -W N]"
	    " [-Z USER] [-Y FILTER] [-V] [-T ...] | -D",
	    "capture live USB traffic from the kernel's usbmon",
	    tui_cmd_capture },
	{ "devices", "[-v] [-s [[bus]:][devnum]] [-d vendor:[product]]",
	    "list the attached USB devices (-v: descriptors, as lsusb -v)",
	    tui_cmd_devices },
	{ "tui", "[--fast] [FILE | sim:SCENARIO] | -i usbmonN", "the interactive viewer",
	    tui_cmd_tui },
};
#define NCMDS	(sizeof cmds / sizeof cmds[0])

static void
usage(FILE *f)
{
	size_t	 i;

	fprintf(f, "usage: urbscope COMMAND [ARGS]\n\n"
	    "urbscope is a USB protocol analyzer and driver debugger.\n\n"
	    "commands:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %-8s %s\n  %-8s   %s\n", cmds[i].name,
		    cmds[i].usage, "", cmds[i].help);
	fprintf(f, "\n'urbscope COMMAND --help' says more; see also "
	    "urbscope(1).\n");
}

int
main(int argc, char **argv)
{
	size_t	 i;

	/* the one place that builds simulated machines: hand it what they
	 * can hold */
	sim_register(&sample_catalog);
	if (argc < 2) {
		/* on a terminal: the viewer on the built-in demo */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			return tui_cmd_tui(1, argv);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-v") == 0) {
		printf("urbscope %s\n", URBSCOPE_VERSION);
		return 0;
	}
	for (i = 0; i < NCMDS; i++) {
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].run(argc - 1, argv + 1);
	}
	tui_warnx("unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
