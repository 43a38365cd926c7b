/*
 * cmd/urbscope.c - main: the command named by the first argument (the
 * table is in cmd.c), --help and --version.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "samples/samples.h"
#include "cmd.h"
#include "print.h"

#ifndef URBSCOPE_VERSION
#error "URBSCOPE_VERSION comes from the Makefile's VERSION"
#endif

const char *
cmd_version(void)
{
	return URBSCOPE_VERSION;
}

/*
 * Each command's usage, then its help two columns further in.  Three
 * blanks at least after the longest name: cmd_print_wrapped continues a
 * wrapped line under the text that follows a run of three blanks (sb_wrap),
 * so a usage too long for one line goes on under its own first column.
 */
static void
usage(FILE *f)
{
	const struct cmd_entry *const *ce;
	int	 w = 0, n;

	for (ce = cmd_table; *ce != NULL; ce++)
		if ((n = (int)strlen((*ce)->name)) > w)
			w = n;
	fprintf(f, "usage: urbscope COMMAND [ARGS]\n\n"
	    "urbscope is a USB protocol analyzer and driver debugger.\n\n"
	    "commands:\n");
	for (ce = cmd_table; *ce != NULL; ce++)
		fprintf(f, "  %-*s   %s\n  %-*s     %s\n", w, (*ce)->name,
		    (*ce)->usage, w, "", (*ce)->help);
	fprintf(f, "\n'urbscope COMMAND --help' says more; 'urbscope -G "
	    "fields' lists the field names of -T fields and -Y; see also "
	    "urbscope(1).\n");
}

int
main(int argc, char **argv)
{
	const struct cmd_entry *ce;

	/* the one place that builds simulated machines: hand it what they
	 * can hold */
	sim_register(&sample_catalog);
	/* a mapped input cut short under us is an error, not a core */
	cap_in_sigbus();
	/* the character set only (cmd_utf8): numbers keep their '.' */
	setlocale(LC_CTYPE, "");
	if (argc < 2) {
		/* on a terminal: the viewer on the built-in demo */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			return cmd_run(&cmd_tui_entry, 1, argv);
		/* a script or a pipe: say what would have run */
		cmd_warnx("the viewer (the demo, with no command) needs a "
		    "terminal; 'urbscope sim demo' prints the demo as text");
		cmd_print_wrapped(stderr, usage);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		cmd_print_wrapped(stdout, usage);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-v") == 0) {
		printf("urbscope %s\n", URBSCOPE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "-G") == 0) {
		/* as tshark -G fields: the names -T fields and -Y know */
		if (argc > 3 || (argc == 3 && strcmp(argv[2], "fields") != 0)) {
			cmd_warnx("-G lists fields only: urbscope -G fields");
			return EXIT_USAGE;
		}
		print_field_list(stdout);
		return 0;
	}
	/* run from Wireshark's extcap folder: its arguments first */
	if (strncmp(argv[1], "--extcap-", 9) == 0 ||
	    strcmp(argv[1], "--capture") == 0)
		return cmd_run(&cmd_extcap_entry, argc, argv);
	if ((ce = cmd_find(argv[1])) != NULL)
		return cmd_run(ce, argc - 1, argv + 1);
	cmd_warnx("unknown command '%s'", argv[1]);
	cmd_print_wrapped(stderr, usage);
	return EXIT_USAGE;
}
