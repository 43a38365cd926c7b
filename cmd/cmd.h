/*
 * cmd/cmd.h - the command line: each command an entry of one table (as
 * tmux's struct cmd_entry: name, usage, getopt letters, the function),
 * one parser for all of them (cmd.c), and the helpers they share.
 *
 * The parser takes the options the entry's template names, answers -h
 * and --help with the entry's usage, and checks the number of operands,
 * so that a command's function only reads what it was given.
 */
#ifndef CMD_H
#define CMD_H

#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#define CMD_MAX_OPTS	128	/* options on one command line */
#define CAP_SNAPLEN_MAX	262144	/* capture -s, as tcpdump's largest */
#define CMD_MAX_LONG	24	/* long options an entry has beside --help */

/* One option as given: its letter (or a long option's val) and value. */
struct cmd_opt {
	int		 ch;
	const char	*arg;		/* NULL for a flag */
};

/* What the parser found, in the order given. */
struct cmd_args {
	struct cmd_opt	 opt[CMD_MAX_OPTS];
	size_t		 nopt;
	int		 argc;		/* the operands */
	char		**argv;
};

struct cmd_entry {
	const char	*name;
	const char	*usage;		/* the arguments, one line */
	const char	*help;		/* what it does, one line */
	const char	*template;	/* getopt letters; -h is added */
	const struct option *longopts;	/* beside --help; NULL-terminated */
	int		 lower;		/* operands: at least */
	int		 upper;		/* at most, -1 = any */
	const char	*missing;	/* said when there are fewer */
	const char	*extra;		/* why, when there are more */
	void		 (*usage_fn)(FILE *);	/* --help */
	int		 (*exec)(const struct cmd_entry *, struct cmd_args *);
};

extern const struct cmd_entry cmd_read_entry;
extern const struct cmd_entry cmd_stats_entry;
extern const struct cmd_entry cmd_convert_entry;
extern const struct cmd_entry cmd_extract_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_replay_entry;
extern const struct cmd_entry cmd_sim_entry;
extern const struct cmd_entry cmd_serve_entry;
extern const struct cmd_entry cmd_capture_entry;
extern const struct cmd_entry cmd_devices_entry;
extern const struct cmd_entry cmd_tui_entry;
extern const struct cmd_entry cmd_extcap_entry;

/* All of them, NULL-terminated, in the order --help lists them. */
extern const struct cmd_entry *const cmd_table[];

/* The entry called name, or NULL. */
const struct cmd_entry *cmd_find(const char *name);
/* Parse argv (argv[0] the command's name) and run it: the exit status. */
int	 cmd_run(const struct cmd_entry *ce, int argc, char **argv);

/* How many times option ch was given. */
int	 args_has(const struct cmd_args *a, int ch);
/* The value of its last occurrence, or NULL. */
const char *args_get(const struct cmd_args *a, int ch);
/* Option ch as a positive count into *out (untouched when absent): 0, or
 * -1 after saying what is wrong. */
int	 args_count(const struct cmd_args *a, int ch, uint64_t *out);

/*
 * The bodies of read and convert, which sim shares: name is what cap_open
 * takes (a file, "-", "sim:SCENARIO"), limit the -c count (0 = all),
 * filter convert's -Y (NULL: every record and event is written).
 * Return the exit status.
 */
struct printer;
int	read_run(const char *name, struct printer *pr, uint64_t limit);
int	convert_run(const char *name, const char *outpath, const char *format,
	    uint64_t limit, const char *filter);
/* The same, the output in link type linktype (0: the input's). */
int	convert_run_lt(const char *name, const char *outpath,
	    const char *format, uint64_t limit, uint32_t linktype,
	    const char *filter);

/* convert_run's, all of them: with pace, each record written no sooner
 * than its time after the first's (a simulation at its own pace).  With
 * stop (a live reader's), the conversion ends cleanly once *stop is set,
 * and a reader that goes away (EPIPE) ends it with status 0. */
struct convert_opts {
	uint64_t	 limit;
	uint32_t	 linktype;
	const char	*filter;
	int		 pace;
	volatile sig_atomic_t *stop;
};
int	convert_run_opts(const char *name, const char *outpath,
	    const char *format, const struct convert_opts *o);

/* cap_pipe_open(name, analyse) and, when filter is given, its -Y filter:
 * 0, or the exit status after saying why not (the pipe then closed). */
struct cap_pipe;
int	cmd_pipe_open(struct cap_pipe *p, const char *name, int analyse,
	    const char *filter);

/* The records of capture name (those filter shows) into x, with the
 * summary of each (cmd-export.c; export's and replay's): 0, or the exit
 * status after saying why not.  *bad is set when a record could not be
 * read: the records before it are in x. */
struct dec_export;
int	cmd_export_read(struct dec_export *x, const char *name,
	    const char *filter, int *bad);

/* A positive count for option opt into *out; says what is wrong and
 * returns -1 otherwise. */
int	cmd_parse_count(const char *opt, const char *arg, uint64_t *out);

struct sbuf;

/* Write b to standard output and empty it; -1 on a write error (errno). */
int	cmd_write_out(struct sbuf *b);

/* Does the locale (LC_CTYPE, set by main) use UTF-8?  Asked once a
 * command, never a record. */
int	cmd_utf8(void);

/* What fn prints (a usage), its lines longer than CMD_HELP_WIDTH columns
 * wrapped at blanks (sb_wrap), to f. */
#define CMD_HELP_WIDTH	80
void	cmd_print_wrapped(FILE *f, void (*fn)(FILE *));

/* The version --version says (the Makefile's VERSION). */
const char *cmd_version(void);

/* Print "urbscope: " + message to stderr. */
void	cmd_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exit statuses, as tshark: 0 ok, 1 bad input or I/O, 2 usage. */
#define EXIT_INPUT	1
#define EXIT_USAGE	2

#endif /* CMD_H */
