/*
 * cmd/cmd.c - the table of commands, the option parser they share, and
 * small helpers of the command line.
 */
#include <errno.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "decode/decode.h"
#include "cmd.h"

const struct cmd_entry *const cmd_table[] = {
	&cmd_read_entry,
	&cmd_stats_entry,
	&cmd_convert_entry,
	&cmd_extract_entry,
	&cmd_export_entry,
	&cmd_replay_entry,
	&cmd_sim_entry,
	&cmd_serve_entry,
	&cmd_capture_entry,
	&cmd_devices_entry,
	&cmd_tui_entry,
	&cmd_extcap_entry,
	NULL
};

const struct cmd_entry *
cmd_find(const char *name)
{
	const struct cmd_entry *const *ce;

	for (ce = cmd_table; *ce != NULL; ce++) {
		if (strcmp((*ce)->name, name) == 0)
			return *ce;
	}
	return NULL;
}

/*
 * getopt_long over the entry's template and long options, every option
 * kept in order.  0, or an exit status: 0 after --help too (*done set).
 */
static int
cmd_parse(const struct cmd_entry *ce, int argc, char **argv,
    struct cmd_args *a, int *done)
{
	struct option	 lo[CMD_MAX_LONG + 2];
	char		 tmpl[64];
	size_t		 n = 0;
	int		 ch;

	if (ce->longopts != NULL) {
		while (ce->longopts[n].name != NULL && n < CMD_MAX_LONG) {
			lo[n] = ce->longopts[n];
			n++;
		}
	}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	snprintf(tmpl, sizeof tmpl, "h%s", ce->template);

	memset(a, 0, sizeof *a);
	*done = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, tmpl, lo, NULL)) != -1) {
		if (ch == 'h') {
			cmd_print_wrapped(stdout, ce->usage_fn);
			*done = 1;
			return 0;
		}
		if (ch == '?' || ch == ':') {
			/* getopt said what: "read: invalid option -- 'x'" */
			cmd_print_wrapped(stderr, ce->usage_fn);
			return EXIT_USAGE;
		}
		if (a->nopt == CMD_MAX_OPTS) {
			cmd_warnx("%s: more than %d options", ce->name,
			    CMD_MAX_OPTS);
			return EXIT_USAGE;
		}
		a->opt[a->nopt].ch = ch;
		a->opt[a->nopt].arg = optarg;
		a->nopt++;
	}
	a->argc = argc - optind;
	a->argv = argv + optind;
	if (a->argc < ce->lower) {
		cmd_warnx("%s: %s", ce->name, ce->missing != NULL ?
		    ce->missing : "too few arguments");
		cmd_print_wrapped(stderr, ce->usage_fn);
		return EXIT_USAGE;
	}
	if (ce->upper >= 0 && a->argc > ce->upper) {
		cmd_warnx("%s: unexpected argument '%s'%s%s%s", ce->name,
		    a->argv[ce->upper], ce->extra != NULL ? " (" : "",
		    ce->extra != NULL ? ce->extra : "",
		    ce->extra != NULL ? ")" : "");
		cmd_print_wrapped(stderr, ce->usage_fn);
		return EXIT_USAGE;
	}
	return 0;
}

int
cmd_run(const struct cmd_entry *ce, int argc, char **argv)
{
	struct cmd_args	*a;
	int		 rc, done;

	/* a few KiB: not on the stack of every command */
	if ((a = malloc(sizeof *a)) == NULL) {
		cmd_warnx("out of memory");
		return EXIT_INPUT;
	}
	rc = cmd_parse(ce, argc, argv, a, &done);
	if (rc == 0 && !done)
		rc = ce->exec(ce, a);
	free(a);
	return rc;
}

int
args_has(const struct cmd_args *a, int ch)
{
	size_t	 i;
	int	 n = 0;

	for (i = 0; i < a->nopt; i++)
		n += a->opt[i].ch == ch;
	return n;
}

const char *
args_get(const struct cmd_args *a, int ch)
{
	size_t	 i;

	for (i = a->nopt; i-- > 0; ) {
		if (a->opt[i].ch == ch)
			return a->opt[i].arg;
	}
	return NULL;
}

int
args_count(const struct cmd_args *a, int ch, uint64_t *out)
{
	const char	*v = args_get(a, ch);
	char		 opt[3] = { '-', (char)ch, '\0' };

	if (v == NULL)
		return 0;
	return cmd_parse_count(opt, v, out);
}

int
cmd_parse_count(const char *opt, const char *arg, uint64_t *out)
{
	char	*end;

	errno = 0;
	*out = strtoull(arg, &end, 10);
	if (*arg == '\0' || *arg == '-' || *end != '\0' || *out == 0 ||
	    errno == ERANGE) {
		cmd_warnx("%s wants a positive number, not '%s'", opt, arg);
		return -1;
	}
	return 0;
}

int
cmd_utf8(void)
{
	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

void
cmd_print_wrapped(FILE *f, void (*fn)(FILE *))
{
	struct sbuf	 b = { 0 };
	FILE		*mf;
	char		*text = NULL;
	size_t		 n = 0;

	if ((mf = open_memstream(&text, &n)) == NULL) {
		fn(f);
		return;
	}
	fn(mf);
	if (fclose(mf) != 0 || text == NULL) {
		free(text);
		fn(f);
		return;
	}
	sb_wrap(&b, text, CMD_HELP_WIDTH);
	if (b.s != NULL && !b.oom)
		fputs(b.s, f);
	else
		fputs(text, f);
	sb_free(&b);
	free(text);
}

int
cmd_write_out(struct sbuf *b)
{
	size_t	 off = 0;
	ssize_t	 n;

	while (off < b->len) {
		n = write(STDOUT_FILENO, b->s + off, b->len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += (size_t)n;
	}
	b->len = 0;
	return 0;
}

void
cmd_warnx(const char *fmt, ...)
{
	va_list	 ap;

	fflush(stdout);
	fputs("urbscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
cmd_pipe_open(struct cap_pipe *p, const char *name, int analyse,
    const char *filter)
{
	char	 err[600];

	if (cap_pipe_open(p, name, analyse, err, sizeof err) < 0) {
		cmd_warnx("%s", err);
		return EXIT_INPUT;
	}
	if (filter != NULL && cap_pipe_filter(p, filter, err, sizeof err) < 0) {
		cmd_warnx("-Y %s", err);
		cap_pipe_close(p);
		return EXIT_USAGE;
	}
	return 0;
}
