/*
 * cmd/print.c - what `read`, `capture` and `sim` print, one way for
 * all three: the -Y -V -T -e -t options (PRINT_OPTS) and each record of a
 * pipe in the form chosen: one line, the -V tree, JSON, usbmon text or
 * tshark-style fields.  Driver events print among the records in text,
 * -V and JSON; usbmon text and -T fields have no form for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "cmd.h"

#define FLUSH_AT	(256 * 1024)

const char print_usage[] =
    "  -Y FILTER     show only what matches: Wireshark's display\n"
    "                filters, e.g. 'usb.src == \"1.3.1\"',\n"
    "                'usb.capdata contains 55:53:42:43',\n"
    "                'usb.device_address == 3 and not usb.capdata', the\n"
    "                names of -T fields (urbscope -G fields lists them);\n"
    "                and short names: dev bus ep type dir ev status len\n"
    "                latency driver event urb, e.g. 'latency>2ms',\n"
    "                'dev==3 || event==rule'; all failed transfers:\n"
    "                'status!=0 || usb.iso.error_count>0' (status is a\n"
    "                completion's); == != < <= > >= ~= contains\n"
    "                matches, in {a, b, 1..5}, slices usb.capdata[0:2],\n"
    "                protocols alone (usb, usbms, scsi), value names\n"
    "                (usb.transfer_type == URB_BULK), && || ! and or\n"
    "                not ( )\n"
    "  -V            the full decoded tree with hex and ASCII\n"
    "  -T text       one line per record (default)\n"
    "  -T json       one JSON object per line, Wireshark field names\n"
    "  -T usbmon     the kernel's usbmon text format\n"
    "  -T fields     the fields named with -e, tab-separated\n"
    "  -T keys       the text each HID keyboard typed (US layout),\n"
    "                keys that type no character as <Left>, <Delete>\n"
    "  --keys names|edit\n"
    "                -T keys with those keys by name (names, the\n"
    "                default) or applied to the text as an editor\n"
    "                would (edit: Backspace, Delete, arrows, Home, End)\n"
    "  -e FIELD      a field for -T fields (usb.urb_id, usb.idVendor,\n"
    "                frame.number, frame.time_relative, event, rule,\n"
    "                ...: what -T json prints), repeatable\n"
    "  -E OPT=VALUE  -T fields as tshark's: header=y|n,\n"
    "                separator=/t|/s|C, quote=d|s|n,\n"
    "                occurrence=f|l|a, aggregator=,|/s|C\n"
    "  -t r|a|d|dd|e time: relative (default), absolute, delta\n"
    "                since the previous record read, shown or not\n"
    "                (d, tshark's frame.time_delta) or since the\n"
    "                previous one shown (dd, time_delta_displayed), epoch\n"
    "  --transfers   each URB one row at its end (text, -T json):\n"
    "                submit and end frames, status, asked/got\n"
    "                lengths, the request and its latency; runs of\n"
    "                identical rows (polls) one row with a count\n"
    "  --tree        --transfers grouped by device, then endpoint,\n"
    "                written at the end (text; driver events left out)\n"
    "  --decode-as TARGET=CLASS\n"
    "                decode an interface as a class, as Wireshark's\n"
    "                Decode As: TARGET BUS.DEV[.INTF] or\n"
    "                VID:PID[.INTF], CLASS hid, msc, cdc, ... or\n"
    "                CLASS[.SUB[.PROTO]] in hex (repeatable)\n";

static const struct {
	const char	*name;
	enum print_mode	 mode;
} print_modes[] = {
	{ "text", PM_TEXT },
	{ "json", PM_JSON },
	{ "usbmon", PM_USBMON },
	{ "fields", PM_FIELDS },
	{ "keys", PM_KEYS },
};

static const struct {
	const char	*name;
	enum dec_time_mode mode;
} time_modes[] = {
	{ "r", DT_RELATIVE },
	{ "a", DT_ABSOLUTE },
	{ "ad", DT_ABSOLUTE },
	{ "d", DT_DELTA },
	{ "dd", DT_DELTA_SHOWN },
	{ "e", DT_EPOCH },
};

/* A one-character -E value: /t a tab, /s a blank, else its first. */
static int
fields_char(const char *v, char *c)
{
	if (strcmp(v, "/t") == 0)
		*c = '\t';
	else if (strcmp(v, "/s") == 0)
		*c = ' ';
	else if (v[0] != '\0')
		*c = v[0];
	else
		return -1;
	return 0;
}

/* -E OPT=VALUE: 0, or -1 (said). */
static int
fields_option(struct printer *pr, const char *arg)
{
	struct dec_fields_opts *o = &pr->fopts;
	const char *v = strchr(arg, '=');
	int	 ok = 0;

	if (v++ == NULL)
		;
	else if (strncmp(arg, "header=", 7) == 0) {
		ok = strcmp(v, "y") == 0 || strcmp(v, "n") == 0;
		pr->fheader = v[0] == 'y';
	} else if (strncmp(arg, "separator=", 10) == 0)
		ok = fields_char(v, &o->sep) == 0;
	else if (strncmp(arg, "aggregator=", 11) == 0)
		ok = fields_char(v, &o->agg) == 0;
	else if (strncmp(arg, "quote=", 6) == 0) {
		ok = v[0] != '\0' && v[1] == '\0' && strchr("dsn", v[0]);
		o->quote = v[0] == 'd' ? '"' : v[0] == 's' ? '\'' : 0;
	} else if (strncmp(arg, "occurrence=", 11) == 0) {
		ok = 1;
		if (strcmp(v, "f") == 0)
			o->occurrence = 1;
		else if (strcmp(v, "l") == 0)
			o->occurrence = -1;
		else if (strcmp(v, "a") == 0)
			o->occurrence = 0;
		else
			ok = 0;		/* tshark 4.0 takes no number */
	}
	if (!ok) {
		cmd_warnx("-E %s: -E takes header=y|n, separator=/t|/s|C, "
		    "quote=d|s|n, occurrence=f|l|a, aggregator=,|/s|C",
		    arg);
		return -1;
	}
	pr->fopts_given = 1;
	return 0;
}

void
print_init(struct printer *pr)
{
	memset(pr, 0, sizeof *pr);
	pr->fopts.sep = '\t';
	pr->fopts.agg = ',';
	pr->mode = PM_TEXT;
	pr->fmt.time_mode = DT_RELATIVE;
	pr->fmt.ascii = !cmd_utf8();
	pr->open_mark = "never completed";
	cap_usbmon_init(&pr->as_usbmon);
}

/* Option ch of PRINT_OPTS: 1 taken, 0 not one of them, -1 bad (said). */
static int
print_option(struct printer *pr, int ch, const char *arg)
{
	size_t	 i;

	switch (ch) {
	case 'Y':
		pr->expr = arg;
		return 1;
	case 'e':
		if (pr->nfields == PRINT_MAX_FIELDS) {
			cmd_warnx("at most %d fields", PRINT_MAX_FIELDS);
			return -1;
		}
		pr->fields[pr->nfields++] = arg;
		return 1;
	case 'E':
		return fields_option(pr, arg) == 0 ? 1 : -1;
	case 'T':
		for (i = 0; i < sizeof print_modes / sizeof print_modes[0];
		    i++) {
			if (strcmp(arg, print_modes[i].name) == 0) {
				pr->mode = print_modes[i].mode;
				return 1;
			}
		}
		cmd_warnx("-T wants text, json, usbmon, fields or keys, not "
		    "'%s'", arg);
		return -1;
	case 't':
		for (i = 0; i < sizeof time_modes / sizeof time_modes[0];
		    i++) {
			if (strcmp(arg, time_modes[i].name) == 0) {
				pr->fmt.time_mode = time_modes[i].mode;
				return 1;
			}
		}
		cmd_warnx("-t wants r, a, d, dd or e, not '%s'", arg);
		return -1;
	case 'V':
		pr->verbose = 1;
		return 1;
	case PRINT_OPT_COLLAPSE:
		pr->collapse = 1;
		return 1;
	case PRINT_OPT_TRANSFERS:
		pr->transfers = 1;
		return 1;
	case PRINT_OPT_TREE:
		pr->transfers = pr->tree = 1;
		return 1;
	case PRINT_OPT_KEYS:
		if (strcmp(arg, "names") == 0)
			pr->keys_mode = DEC_KEYS_NAMES;
		else if (strcmp(arg, "edit") == 0)
			pr->keys_mode = DEC_KEYS_EDIT;
		else {
			cmd_warnx("--keys wants names or edit, not '%s'", arg);
			return -1;
		}
		pr->keys_opt = 1;
		return 1;
	case PRINT_OPT_DECODE_AS:
		if (pr->ndecode_as == PRINT_MAX_DECODE_AS) {
			cmd_warnx("at most %d --decode-as",
			    PRINT_MAX_DECODE_AS);
			return -1;
		}
		pr->decode_as[pr->ndecode_as++] = arg;
		return 1;
	}
	return 0;
}

int
print_args(struct printer *pr, const struct cmd_args *a)
{
	size_t	 i;

	for (i = 0; i < a->nopt; i++) {
		if (print_option(pr, a->opt[i].ch, a->opt[i].arg) < 0)
			return -1;
	}
	return 0;
}

int
print_chosen(const struct printer *pr)
{
	return pr->expr != NULL || pr->nfields > 0 || pr->verbose ||
	    pr->collapse || pr->transfers || pr->ndecode_as > 0 ||
	    pr->mode != PM_TEXT || pr->fmt.time_mode != DT_RELATIVE;
}

int
print_begin(struct printer *pr, struct cap_pipe *pipe)
{
	char	 err[200];
	size_t	 i;

	if (pr->keys_opt && pr->mode == PM_TEXT && !pr->verbose)
		pr->mode = PM_KEYS;	/* --keys alone: -T keys */
	if (pr->keys_opt && pr->mode != PM_KEYS) {
		cmd_warnx("--keys is a form of -T keys");
		return -EXIT_USAGE;
	}
	if (pr->verbose && pr->mode == PM_TEXT)
		pr->mode = PM_VERBOSE;
	if (pr->collapse && pr->mode != PM_TEXT) {
		cmd_warnx("--collapse folds the text lines; -V, -T json, "
		    "-T usbmon and -T fields keep every packet");
		return -EXIT_USAGE;
	}
	if (pr->transfers && ((pr->mode != PM_TEXT && pr->mode != PM_JSON) ||
	    pr->collapse)) {
		cmd_warnx("--transfers has a text and a JSON form (no -V, "
		    "-T usbmon, fields or keys), and leaves out the bus "
		    "packets --collapse folds");
		return -EXIT_USAGE;
	}
	if (pr->tree && pr->mode != PM_TEXT) {
		cmd_warnx("--tree is a text form");
		return -EXIT_USAGE;
	}
	dec_fold_init(&pr->fold);
	dec_xfer_init(&pr->xfer, pr->mode == PM_JSON, pr->tree);
	pr->notime_note = (pr->mode == PM_TEXT || pr->mode == PM_VERBOSE) &&
	    (pr->fmt.time_mode == DT_ABSOLUTE || pr->fmt.time_mode == DT_EPOCH);
	if (pr->mode == PM_FIELDS && pr->nfields == 0) {
		cmd_warnx("-T fields needs at least one -e FIELD");
		return -EXIT_USAGE;
	}
	if (pr->mode != PM_FIELDS && (pr->nfields > 0 || pr->fopts_given)) {
		cmd_warnx("%s names what -T fields prints, and -T fields "
		    "was not given", pr->nfields > 0 ? "-e" : "-E");
		return -EXIT_USAGE;
	}
	for (i = 0; i < pr->nfields; i++) {
		if (dec_fref_resolve(pr->fields[i], strlen(pr->fields[i]),
		    &pr->frefs[i]) != 0) {
			cmd_warnx("-e %s: urbscope knows no such field (the "
			    "names are those -T json prints; urbscope -G "
			    "fields lists them)", pr->fields[i]);
			return -EXIT_USAGE;
		}
		if (pr->frefs[i].kind == FR_PROTO ||
		    pr->frefs[i].kind == FR_FRAME) {
			cmd_warnx("-e %s: a protocol has no value to print "
			    "(its fields have)", pr->fields[i]);
			return -EXIT_USAGE;
		}
		if (pr->frefs[i].kind == FR_KIND ||
		    pr->frefs[i].kind == FR_EVENT)
			pr->event_fields = 1;
		if (pr->frefs[i].kind == FR_FRAME_REL ||
		    pr->frefs[i].kind == FR_FRAME_DELTA)
			cap_pipe_times(pipe);
	}
	for (i = 0; i < pr->ndecode_as && pipe->ctx != NULL; i++) {
		if (dec_ctx_decode_as(pipe->ctx, pr->decode_as[i], err,
		    sizeof err) < 0) {
			cmd_warnx("--decode-as %s", err);
			return -EXIT_USAGE;
		}
	}
	if (pr->expr != NULL &&
	    cap_pipe_filter(pipe, pr->expr, err, sizeof err) < 0) {
		cmd_warnx("-Y %s", err);
		return -EXIT_USAGE;
	}
	/* -T fields prints events when asked about them, by -e or -Y */
	if (pr->expr != NULL && pipe->filter.on_events)
		pr->event_fields = 1;
	/* -E header=y: the names, as tshark writes them (no quotes) */
	for (i = 0; pr->mode == PM_FIELDS && pr->fheader &&
	    i < pr->nfields; i++) {
		if (i > 0)
			sb_putc(&pr->out, pr->fopts.sep);
		sb_puts(&pr->out, pr->fields[i]);
		if (i + 1 == pr->nfields)
			sb_putc(&pr->out, '\n');
	}
	if (pr->mode == PM_VERBOSE || pr->mode == PM_JSON) {
		pr->nodes = calloc(DEC_TREE_NODES, sizeof *pr->nodes);
		pr->arena = malloc(DEC_TREE_ARENA);
		if (pr->nodes == NULL || pr->arena == NULL) {
			cmd_warnx("out of memory");
			return -EXIT_INPUT;
		}
	}
	return 0;
}

/* -T keys: a keyboard's input report adds what it typed to its text. */
static void
print_keys(struct printer *pr, struct cap_pipe *pipe)
{
	const struct urb_rec *r = &pipe->r;
	struct print_kbd *k;
	uint8_t		 cur[8];
	size_t		 i;
	int		 got;

	if ((got = dec_hid_keyboard(r, &pipe->info, cur)) == 0)
		return;
	for (i = 0; i < pr->nkbd; i++) {
		k = &pr->kbd[i];
		if (k->busnum == r->busnum && k->devnum == r->devnum &&
		    k->intf == pipe->info.intf)
			break;
	}
	if (i == pr->nkbd) {
		if (pr->nkbd == PRINT_MAX_KEYBOARDS)
			return;
		k = &pr->kbd[pr->nkbd++];
		memset(k, 0, sizeof *k);
		k->busnum = r->busnum;
		k->devnum = r->devnum;
		k->intf = pipe->info.intf;
		k->keys.mode = pr->keys_mode;
	}
	if (got < 0) {
		if (k->unread++ == 0)
			k->first_unread = cap_pipe_frame(pipe, CAP_URB)->number;
		return;
	}
	(void)dec_keys_report(&k->keys, cur);
	k->reports++;
}

/* -T keys at the end: each keyboard's address, then its text; on stderr
 * the reports of a keyboard that did not read. */
static void
print_keys_end(struct printer *pr)
{
	struct print_kbd *k;
	struct sbuf	*t;
	size_t		 i;

	if (pr->nkbd == 0)
		cmd_warnx("-T keys: no HID keyboard's input reports in the "
		    "capture");
	for (i = 0; i < pr->nkbd; i++) {
		k = &pr->kbd[i];
		t = &k->keys.text;
		sb_printf(&pr->out, "%u.%u interface %d, %llu reports:\n",
		    k->busnum, k->devnum, k->intf,
		    (unsigned long long)k->reports);
		if (t->len > 0) {
			sb_putn(&pr->out, t->s, t->len);
			if (t->s[t->len - 1] != '\n')
				sb_putc(&pr->out, '\n');
		}
		if (k->unread > 0)
			cmd_warnx("-T keys: keyboard %u.%u interface %d sent "
			    "%llu report%s not read (first: frame %llu): "
			    "not its report descriptor's, or not 8 bytes "
			    "without one", k->busnum, k->devnum, k->intf,
			    (unsigned long long)k->unread,
			    k->unread == 1 ? "" : "s",
			    (unsigned long long)k->first_unread);
		sb_free(t);
	}
	pr->nkbd = 0;
}

/* An URB record the filter passed. */
static void
print_urb(struct printer *pr, struct cap_pipe *pipe)
{
	struct dec_tree	 tree;
	char		 line[300];

	switch (pr->mode) {
	case PM_KEYS:
		print_keys(pr, pipe);
		break;
	case PM_TEXT:
		if (pr->collapse && dec_fold_record(&pr->fold, &pr->fmt,
		    &pipe->r, &pipe->info, &pr->out))
			break;
		dec_fmt_line(&pr->fmt, &pipe->r, &pipe->info, &pr->out);
		break;
	case PM_USBMON:
		/* what convert -F usbmon writes of a USBPcap capture */
		if (cap_usbmon_skip(&pr->as_usbmon, &pipe->r))
			break;
		if (dec_fmt_usbmon(&pipe->r, line, sizeof line) >= 0) {
			sb_puts(&pr->out, line);
			sb_putc(&pr->out, '\n');
		}
		break;
	case PM_FIELDS:
		/* the tree the filter built, or a new one */
		dec_fmt_fields(&pr->fmt, &pr->fopts,
		    cap_pipe_frame(pipe, CAP_URB),
		    &pipe->r, &pipe->info, cap_pipe_tree(pipe), pr->frefs,
		    pr->nfields, &pr->out);
		break;
	default:
		dec_tree_init(&tree, pr->nodes, DEC_TREE_NODES, pr->arena,
		    DEC_TREE_ARENA);
		dec_record_tree(&pipe->r, &pipe->info, &tree);
		if (pr->mode == PM_VERBOSE)
			dec_fmt_verbose(&pr->fmt, &pipe->r, &pipe->info, &tree,
			    &pr->out);
		else
			dec_fmt_json(&pr->fmt, &pipe->r, &pipe->info, &tree,
			    &pr->out);
		break;
	}
}

int
print_record(struct printer *pr, struct cap_pipe *pipe, int kind)
{
	int	 shown;

	if (kind != CAP_URB && kind != CAP_EVENT)
		return 0;
	/* times count from the first frame of the file, read or skipped,
	 * shown or not; -t d from the previous one, as tshark's
	 * (frame.time_relative, frame.time_delta) */
	if (pipe->src->gap > 0) {
		dec_fmt_skip(&pr->fmt, pipe->src->gap_first_ns);
		dec_fmt_skip(&pr->fmt, pipe->src->gap_last_ns);
	}
	dec_fmt_start(&pr->fmt, kind == CAP_URB ? pipe->r.ts_ns :
	    pipe->ev.ts_ns);
	if (pr->transfers && kind == CAP_URB) {
		/* a row at the URB's end: every record counts, shown or
		 * not (a completion ends its submit's row) */
		shown = !pipe->has_filter || cap_pipe_shown(pipe, kind);
		if (!shown || pipe->r.type == 'P')
			dec_fmt_skip(&pr->fmt, pipe->r.ts_ns);
		dec_xfer_record(&pr->xfer, &pr->fmt, &pipe->r, &pipe->info,
		    shown, &pr->out);
		goto out;
	}
	if (pipe->has_filter && !cap_pipe_shown(pipe, kind)) {
		dec_fmt_skip(&pr->fmt, kind == CAP_URB ? pipe->r.ts_ns :
		    pipe->ev.ts_ns);
		return 0;
	}
	if (pr->notime_note && kind == CAP_URB &&
	    (pipe->r.flags & REC_F_NOTIME)) {
		/* usbmon text: microseconds of a monotonic clock, modulo
		 * 4096 s; no date to show (dec_fmt_time) */
		cmd_warnx("%s: this format has no absolute time (usbmon text "
		    "stamps are a monotonic clock modulo 4096 s): -t %s "
		    "shows seconds since the first record", pipe->src->name,
		    pr->fmt.time_mode == DT_EPOCH ? "e" : "a");
		pr->notime_note = 0;
	}
	if (pr->tree)
		goto out;	/* the tree has URBs only */
	if (pr->transfers)
		dec_xfer_flush(&pr->xfer, &pr->out);
	if (kind == CAP_URB)
		print_urb(pr, pipe);
	else if (pr->mode == PM_TEXT) {
		if (pr->collapse)
			dec_fold_end(&pr->fold, &pr->fmt, &pr->out);
		dec_fmt_event_line(&pr->fmt, &pipe->ev, &pr->out);
	}
	else if (pr->mode == PM_VERBOSE)
		dec_fmt_event_verbose(&pr->fmt, &pipe->ev, &pr->out);
	else if (pr->mode == PM_JSON)
		dec_fmt_event_json(&pr->fmt, &pipe->ev, &pr->out);
	else if (pr->mode == PM_FIELDS && (pr->event_fields ||
	    pipe->ev.kind == DRV_BUS))
		/* a sniffer's bus events are frames of the file, a line
		 * each, as tshark's (driver events: when asked about) */
		dec_fmt_event_fields(&pr->fopts,
		    cap_pipe_frame(pipe, CAP_EVENT),
		    &pipe->ev, pr->frefs, pr->nfields, &pr->out);
out:
	if (pr->out.oom) {
		cmd_warnx("out of memory");
		return -1;
	}
	if (pr->out.len >= FLUSH_AT)
		return print_flush(pr);
	return 0;
}

void
print_last(struct printer *pr)
{
	if (pr->collapse)
		dec_fold_end(&pr->fold, &pr->fmt, &pr->out);
	if (pr->transfers)
		dec_xfer_end(&pr->xfer, pr->open_mark, &pr->out);
	if (pr->mode == PM_KEYS)
		print_keys_end(pr);
}

int
print_flush(struct printer *pr)
{
	if (pr->out.len > 0 && cmd_write_out(&pr->out) < 0)
		return -1;
	return 0;
}

#define PENDING_LISTED	5	/* frames the note names */

void
print_pending(const struct printer *pr, const struct cap_pipe *pipe)
{
	uint64_t pend[PENDING_LISTED];
	size_t	 i, n;

	if (pr->quiet)
		return;
	/* what the source skipped goes to stderr in every form */
	if (pipe->src->note[0] != '\0')
		fprintf(stderr, "urbscope: %s\n", pipe->src->note);
	/* the machine-readable forms stay clean; the rows of --transfers
	 * (and --tree) say it themselves */
	if (pipe->ctx == NULL || pr->transfers ||
	    (pr->mode != PM_TEXT && pr->mode != PM_VERBOSE))
		return;
	if ((n = dec_ctx_pending(pipe->ctx, pend, PENDING_LISTED)) == 0)
		return;
	/* one line, with the frame numbers read and tshark show */
	fprintf(stderr, "urbscope: %zu URB%s not completed by the end "
	    "(frame%s", n, n == 1 ? "" : "s", n == 1 ? "" : "s");
	for (i = 0; i < n && i < PENDING_LISTED; i++)
		fprintf(stderr, "%s %llu", i ? "," : "",
		    (unsigned long long)pend[i]);
	fprintf(stderr, "%s)\n", n > PENDING_LISTED ? ", ..." : "");
}

void
print_end(struct printer *pr)
{
	size_t	 i;

	for (i = 0; i < pr->nkbd; i++)
		sb_free(&pr->kbd[i].keys.text);
	pr->nkbd = 0;
	sb_free(&pr->out);
	dec_xfer_free(&pr->xfer);
	free(pr->nodes);
	free(pr->arena);
	pr->nodes = NULL;
	pr->arena = NULL;
}

static void
field_line(void *arg, const char *name, const char *type, const char *desc)
{
	fprintf(arg, "%s\t%s\t%s\n", name, type, desc);
}

void
print_field_list(FILE *f)
{
	dec_fields_each(field_line, f);
}
