/*
 * cmd/cmd-tui.c - `urbscope tui [--fast] [FILE | sim:SCENARIO]`, `urbscope
 * tui -i usbmonN [--drivers]`: start the ncurses viewer (tui/tui.c).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tui/tui.h"
#include "cmd.h"

#define TUI_OPT_DRIVERS	0x110

static void
tui_usage(FILE *f)
{
	fprintf(f, "usage: urbscope tui [--fast] [FILE | sim:SCENARIO]\n"
	    "       urbscope tui -i usbmonN [--drivers]\n"
	    "The interactive viewer: a timeline of URB records and driver\n"
	    "events, the selected record decoded and in hex, filters and\n"
	    "search.  Press ? inside for the keys.  Without an input it\n"
	    "shows the demo (sim:demo); - reads a capture piped in (copied\n"
	    "to a temporary file, keys from the terminal).  Files open at\n"
	    "once and are indexed as you look; -i follows a live bus; a\n"
	    "sim: scenario (or a\n"
	    "scenario file: .scn, or its first command one) runs in\n"
	    "real time, or as fast as it can with --fast.\n"
	    "  --drivers     with -i, trace the USB core with eBPF too, as\n"
	    "                capture --drivers does (root, a kernel with "
	    "BTF); the\n"
	    "                Devices pane then says which driver's probe "
	    "failed\n"
	    "                on an interface left without one\n");
}

static int
tui_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	const char	*name = args_get(a, 'i');
	char		 err[600];

	(void)ce;
	if (name != NULL && a->argc > 0) {
		cmd_warnx("tui: a file or -i usbmonN, not both");
		cmd_print_wrapped(stderr, tui_usage);
		return EXIT_USAGE;
	}
	if (args_has(a, TUI_OPT_DRIVERS) && args_get(a, 'i') == NULL) {
		cmd_warnx("tui: --drivers goes with -i usbmonN");
		cmd_print_wrapped(stderr, tui_usage);
		return EXIT_USAGE;
	}
	if (name == NULL)
		name = a->argc > 0 ? a->argv[0] : "sim:demo";
	/* `tui -` reads the capture from standard input, the keys from
	 * the terminal */
	if ((!isatty(STDIN_FILENO) && strcmp(name, "-") != 0) ||
	    !isatty(STDOUT_FILENO)) {
		cmd_warnx("tui: needs a terminal (use 'urbscope read' in "
		    "pipes)");
		return EXIT_USAGE;
	}
	if (tui_main(name, args_has(a, 'f'), args_get(a, 'i') != NULL,
	    args_has(a, TUI_OPT_DRIVERS), err, sizeof err) != 0) {
		cmd_warnx("tui: %s", err);
		return EXIT_INPUT;
	}
	return 0;
}

static const struct option tui_longopts[] = {
	{ "fast", no_argument, NULL, 'f' },
	{ "drivers", no_argument, NULL, TUI_OPT_DRIVERS },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_tui_entry = {
	.name = "tui",
	.usage = "[--fast] [FILE | sim:SCENARIO] | -i usbmonN [--drivers]",
	.help = "the interactive viewer",
	.template = "i:",
	.longopts = tui_longopts,
	.lower = 0,
	.upper = 1,
	.extra = "one input at a time",
	.usage_fn = tui_usage,
	.exec = tui_exec,
};
