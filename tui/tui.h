/*
 * tui/tui.h - the front ends: the command line (urbscope.c and its
 * subcommands cmd-*.c) and, later, the ncurses TUI.
 */
#ifndef TUI_H
#define TUI_H

#include <stdint.h>

/* A subcommand: argv[0] is its name.  Returns the exit status. */
struct tui_cmd {
	const char	*name;
	const char	*usage;		/* one line: arguments */
	const char	*help;		/* one line: what it does */
	int		 (*run)(int argc, char **argv);
};

int	tui_cmd_read(int argc, char **argv);
int	tui_cmd_convert(int argc, char **argv);
int	tui_cmd_sim(int argc, char **argv);
int	tui_cmd_capture(int argc, char **argv);
int	tui_cmd_devices(int argc, char **argv);
int	tui_cmd_tui(int argc, char **argv);

/*
 * The bodies of read and convert, which sim shares: name is what cap_open
 * takes (a file, "-", "sim:SCENARIO"), limit the -c count (0 = all).
 * Return the exit status.
 */
struct printer;
int	read_run(const char *name, struct printer *pr, uint64_t limit);
int	convert_run(const char *name, const char *outpath, const char *format,
	    uint64_t limit);

/* A positive count for option opt into *out; says what is wrong and
 * returns -1 otherwise. */
int	tui_parse_count(const char *opt, const char *arg, uint64_t *out);

struct sbuf;

/* Write b to standard output and empty it; -1 on a write error (errno). */
int	tui_write_out(struct sbuf *b);

/* Print "urbscope: " + message to stderr. */
void	tui_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exit statuses, as tshark: 0 ok, 1 bad input or I/O, 2 usage. */
#define EXIT_INPUT	1
#define EXIT_USAGE	2

#endif /* TUI_H */
