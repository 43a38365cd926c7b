/*
 * tui/cmd-sim.c - `urbscope sim SCENARIO [-w FILE] [-F FORMAT] [read
 * options]`: run a scenario on the simulated machine.  With -w the capture
 * is written (as `convert sim:SCENARIO`), else decoded to standard output
 * (as `read sim:SCENARIO`).  SCENARIO is a built-in name or a file.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hcd/machine.h"
#include "cmd-print.h"
#include "tui.h"

static void
sim_usage(FILE *f)
{
	const char *const *n;

	fprintf(f, "usage: urbscope sim SCENARIO [-w FILE [-F pcap|pcapng|"
	    "usbmon]] [read options]\n"
	    "Run a scenario on the simulated machine (EHCI driver, emulated\n"
	    "controller, device models) in virtual time.  Without -w the\n"
	    "records are decoded as by 'urbscope read'.  Built-in "
	    "scenarios:");
	for (n = sim_scenario_names; *n != NULL; n++)
		fprintf(f, " %s", *n);
	fprintf(f, "; or a scenario file (see README).\n\n"
	    "  -w FILE       write the capture (- = standard output)\n"
	    "  -F FORMAT     its format: pcap, pcapng or usbmon\n"
	    "  -c N          stop after N records\n%s", print_usage);
}

int
tui_cmd_sim(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct printer	 pr;
	const char	*outpath = NULL, *format = NULL;
	char		*src;
	uint64_t	 limit = 0;
	int		 ch, rc;

	print_init(&pr);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:F:hw:" PRINT_OPTS, longopts,
	    NULL)) != -1) {
		if ((rc = print_option(&pr, ch, optarg)) < 0)
			return EXIT_USAGE;
		if (rc > 0)
			continue;
		switch (ch) {
		case 'c':
			if (tui_parse_count("-c", optarg, &limit) != 0)
				return EXIT_USAGE;
			break;
		case 'F':
			format = optarg;
			break;
		case 'w':
			outpath = optarg;
			break;
		case 'h':
			sim_usage(stdout);
			return 0;
		default:
			sim_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		tui_warnx(optind == argc ? "sim: which scenario?" :
		    "sim: one scenario at a time");
		sim_usage(stderr);
		return EXIT_USAGE;
	}
	if (outpath == NULL && format != NULL) {
		tui_warnx("sim: -F is the format of -w FILE");
		return EXIT_USAGE;
	}
	if (outpath != NULL && print_chosen(&pr)) {
		tui_warnx("sim: -w writes the capture; -Y, -V, -T, -e and -t "
		    "are for printing it");
		return EXIT_USAGE;
	}
	if ((src = malloc(strlen(argv[optind]) + 5)) == NULL) {
		tui_warnx("out of memory");
		return EXIT_INPUT;
	}
	sprintf(src, "sim:%s", argv[optind]);
	rc = outpath != NULL ? convert_run(src, outpath, format, limit) :
	    read_run(src, &pr, limit);
	free(src);
	return rc;
}
