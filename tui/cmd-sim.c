/*
 * tui/cmd-sim.c - `urbscope sim SCENARIO [-w FILE] [-F FORMAT] [read
 * options]`: run a scenario on the simulated machine.  With -w the capture
 * is written (as `convert sim:SCENARIO`), else decoded to standard output
 * (as `read sim:SCENARIO`).  SCENARIO is a built-in name or a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
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
	fprintf(f, "; or a scenario file (see README).\n");
}

int
tui_cmd_sim(int argc, char **argv)
{
	static char	 convert[] = "convert", read[] = "read";
	char	**nargv, *src = NULL;
	int	 i, n = 0, write = 0, rc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			sim_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "-w") == 0)
			write = 1;
	}
	if ((nargv = calloc((size_t)argc + 2, sizeof *nargv)) == NULL)
		return EXIT_INPUT;
	nargv[n++] = write ? convert : read;
	for (i = 1; i < argc; i++) {
		/* the first word that is not an option or its value */
		if (src == NULL && argv[i][0] != '-' && (i == 1 ||
		    argv[i - 1][0] != '-' || strlen(argv[i - 1]) != 2 ||
		    strchr("cwFTetY", argv[i - 1][1]) == NULL)) {
			if ((src = malloc(strlen(argv[i]) + 5)) == NULL)
				return EXIT_INPUT;
			sprintf(src, "sim:%s", argv[i]);
			nargv[n++] = src;
			continue;
		}
		nargv[n++] = argv[i];
	}
	if (src == NULL) {
		tui_warnx("sim: which scenario?");
		sim_usage(stderr);
		free(nargv);
		return EXIT_USAGE;
	}
	rc = write ? tui_cmd_convert(n, nargv) : tui_cmd_read(n, nargv);
	free(src);
	free(nargv);
	return rc;
}
