/*
 * cmd/cmd-sim.c - `urbscope sim SCENARIO [-w FILE] [-F FORMAT] [read
 * options]`: run a scenario on the simulated machine.  With -w the capture
 * is written (as `convert sim:SCENARIO`, -Y choosing what), else decoded
 * to standard output (as `read sim:SCENARIO`).  SCENARIO is a built-in
 * name or a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hcd/machine.h"
#include "print.h"
#include "cmd.h"

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
	    "  -w FILE       write the capture (- = standard output); with\n"
	    "                -Y only what the filter shows, driver events\n"
	    "                included\n"
	    "  -F FORMAT     its format: pcap, pcapng or usbmon\n"
	    "  -b FILE       also write the bus-level packets (pcap, or\n"
	    "                pcapng by default; link type 295)\n"
	    "  -c N          stop after N records\n%s", print_usage);
}

static int
sim_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	struct printer	 pr;
	const char	*outpath = args_get(a, 'w');
	const char	*format = args_get(a, 'F');
	const char	*expr;
	char		*src;
	uint64_t	 limit = 0;
	int		 rc;

	(void)ce;
	print_init(&pr);
	if (print_args(&pr, a) != 0 || args_count(a, 'c', &limit) != 0)
		return EXIT_USAGE;
	if (outpath == NULL && format != NULL) {
		cmd_warnx("sim: -F is the format of -w FILE");
		return EXIT_USAGE;
	}
	expr = pr.expr;
	pr.expr = NULL;
	if (outpath != NULL && print_chosen(&pr)) {
		cmd_warnx("sim: -w writes the capture (-Y FILTER: only what it "
		    "shows); -V, -T, -e, -t, --collapse, --transfers, --tree "
		    "and --decode-as are for printing it");
		return EXIT_USAGE;
	}
	pr.expr = expr;
	if (args_get(a, 'b') != NULL && sim_bus_log(args_get(a, 'b')) != 0) {
		cmd_warnx("out of memory");
		return EXIT_INPUT;
	}
	if ((src = malloc(strlen(a->argv[0]) + 5)) == NULL) {
		cmd_warnx("out of memory");
		return EXIT_INPUT;
	}
	sprintf(src, "sim:%s", a->argv[0]);
	rc = outpath != NULL ? convert_run(src, outpath, format, limit,
	    expr) : read_run(src, &pr, limit);
	free(src);
	(void)sim_bus_log(NULL);
	return rc;
}

static const struct option sim_longopts[] = {
	PRINT_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_sim_entry = {
	.name = "sim",
	.usage = "SCENARIO [-w OUT [-F FORMAT]] [-b BUSLOG] [-c N] "
	    "[-Y FILTER] [-V] [-T ...]",
	.help = "run a scenario on the simulated EHCI machine, in virtual "
	    "time",
	.template = "b:c:F:w:" PRINT_OPTS,
	.longopts = sim_longopts,
	.lower = 1,
	.upper = 1,
	.missing = "which scenario?",
	.extra = "one scenario at a time",
	.usage_fn = sim_usage,
	.exec = sim_exec,
};
