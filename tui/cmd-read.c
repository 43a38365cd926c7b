/*
 * tui/cmd-read.c - `urbscope read FILE`: decode a capture and print one
 * line per record (or -V trees, JSON lines, usbmon text, tshark-style
 * fields).  Driver events (pcapng interfaces of link type 252, the
 * simulator) are printed among the records in text, -V and JSON, and
 * skipped by -T usbmon and -T fields.  Streams: memory does not grow with
 * the file.  On bad input
 * everything decoded before the problem is printed, then the error with
 * file, record number and offset, and the exit status is 1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "tui.h"

enum out_mode {
	OUT_TEXT,
	OUT_VERBOSE,
	OUT_JSON,
	OUT_USBMON,
	OUT_FIELDS,
};

static const struct {
	const char	*name;
	enum out_mode	 mode;
} out_modes[] = {
	{ "text", OUT_TEXT },
	{ "json", OUT_JSON },
	{ "usbmon", OUT_USBMON },
	{ "fields", OUT_FIELDS },
};

static const struct {
	const char	*name;
	enum dec_time_mode mode;
} time_modes[] = {
	{ "r", DT_RELATIVE },
	{ "a", DT_ABSOLUTE },
	{ "ad", DT_ABSOLUTE },
	{ "d", DT_DELTA },
	{ "e", DT_EPOCH },
};

#define MAX_FIELDS	64
#define FILTER_NODES	64
#define FLUSH_AT	(256 * 1024)

static void
read_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope read FILE [options]\n"
	    "Decode a USB capture: pcap or pcapng (link types 189, 220),\n"
	    "usbmon text (the kernel's 'u' or old 't' format) or the raw\n"
	    "usbmon binary stream.  FILE '-' reads standard input.  Driver\n"
	    "events in pcapng (link type 252) print among the records.\n\n"
	    "  -c N          stop after N records (read, shown or not)\n"
	    "  -Y FILTER     show only what matches, e.g. 'type==bulk &&\n"
	    "                status!=0', 'latency>2ms', 'dev==3 || event==rule'\n"
	    "                (fields dev bus ep type dir ev status len latency\n"
	    "                driver event urb; == != < <= > >= && || ! ( ))\n"
	    "  -V            the full decoded tree with hex and ASCII\n"
	    "  -T text       one line per record (default)\n"
	    "  -T json       one JSON object per line, Wireshark field names\n"
	    "  -T usbmon     the kernel's usbmon text format\n"
	    "  -T fields     the fields named with -e, tab-separated\n"
	    "  -e FIELD      a field for -T fields (usb.urb_id, usb.idVendor,\n"
	    "                frame.number, ...), repeatable\n"
	    "  -t r|a|d|e    time: relative (default), absolute, delta,\n"
	    "                epoch\n");
}

int
tui_cmd_read(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cap_source *src = NULL;
	struct dec_ctx	*ctx = NULL;
	struct dec_fmt	 fmt = { .time_mode = DT_RELATIVE };
	struct dec_node	*nodes = NULL;
	char		*arena = NULL;
	struct dec_tree	 tree;
	struct sbuf	 out = { 0 };
	struct urb_rec	 r;
	struct drv_event ev;
	struct dec_info	 info;
	const char	*fields[MAX_FIELDS];
	char		 err[600], line[300];
	uint64_t	 count = 0, limit = 0, pend[8];
	enum out_mode	 mode = OUT_TEXT;
	struct dec_fnode fnodes[FILTER_NODES];
	struct dec_filter filter = { fnodes, FILTER_NODES, 0, 0, 0, "" };
	struct dec_fvals fv;
	const char	*expr = NULL;
	size_t		 nfields = 0, i, npend;
	int		 ch, rc, status = 0, verbose = 0, ok;

	while ((ch = getopt_long(argc, argv, "c:e:hT:t:VY:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'Y':
			expr = optarg;
			if (dec_filter_compile(&filter, expr) != 0) {
				tui_warnx("-Y \"%s\": %s", expr, filter.err);
				return EXIT_USAGE;
			}
			break;
		case 'c':
			if (tui_parse_count("-c", optarg, &limit) != 0)
				return EXIT_USAGE;
			break;
		case 'e':
			if (nfields == MAX_FIELDS) {
				tui_warnx("at most %d fields", MAX_FIELDS);
				return EXIT_USAGE;
			}
			fields[nfields++] = optarg;
			break;
		case 'T':
			for (ok = 0, i = 0; i < sizeof out_modes /
			    sizeof out_modes[0]; i++) {
				if (strcmp(optarg, out_modes[i].name) == 0) {
					mode = out_modes[i].mode;
					ok = 1;
				}
			}
			if (!ok) {
				tui_warnx("-T wants text, json, usbmon or "
				    "fields, not '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 't':
			for (ok = 0, i = 0; i < sizeof time_modes /
			    sizeof time_modes[0]; i++) {
				if (strcmp(optarg, time_modes[i].name) == 0) {
					fmt.time_mode = time_modes[i].mode;
					ok = 1;
				}
			}
			if (!ok) {
				tui_warnx("-t wants r, a, d or e, not '%s'",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case 'V':
			verbose = 1;
			break;
		case 'h':
			read_usage(stdout);
			return 0;
		default:
			read_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		tui_warnx(optind == argc ? "read: which file? (- for standard "
		    "input)" : "read: one file at a time");
		read_usage(stderr);
		return EXIT_USAGE;
	}
	if (verbose && mode == OUT_TEXT)
		mode = OUT_VERBOSE;
	if (mode == OUT_FIELDS && nfields == 0) {
		tui_warnx("-T fields needs at least one -e FIELD");
		return EXIT_USAGE;
	}

	if (cap_open(argv[optind], &src, err, sizeof err) < 0) {
		tui_warnx("%s", err);
		return EXIT_INPUT;
	}
	if ((ctx = dec_ctx_new()) == NULL)
		goto out_nomem;
	if (mode == OUT_VERBOSE || mode == OUT_JSON || mode == OUT_FIELDS) {
		nodes = calloc(DEC_TREE_NODES, sizeof *nodes);
		arena = malloc(DEC_TREE_ARENA);
		if (nodes == NULL || arena == NULL)
			goto out_nomem;
	}

	while (limit == 0 || count < limit) {
		rc = cap_next(src, &r, &ev);
		if (rc == CAP_END)
			break;
		if (rc < 0) {
			if (tui_write_out(&out) < 0)
				goto out_write;
			tui_warnx("%s", src->err);
			status = EXIT_INPUT;
			break;
		}
		/* times are relative to the first record read, shown or not */
		if (rc == CAP_URB || rc == CAP_EVENT)
			dec_fmt_start(&fmt, rc == CAP_URB ? r.ts_ns : ev.ts_ns);
		if (rc == CAP_EVENT) {
			count++;
			if (expr != NULL) {
				dec_fvals_event(&ev, &fv);
				if (!dec_filter_match(&filter, &fv))
					continue;
			}
			if (mode == OUT_TEXT)
				dec_fmt_event_line(&fmt, &ev, &out);
			else if (mode == OUT_VERBOSE)
				dec_fmt_event_verbose(&fmt, &ev, &out);
			else if (mode == OUT_JSON)
				dec_fmt_event_json(&fmt, &ev, &out);
			/* usbmon text and -T fields have no form for them */
			if (out.oom)
				goto out_nomem;
			if (out.len >= FLUSH_AT && tui_write_out(&out) < 0)
				goto out_write;
			continue;
		}
		if (rc != CAP_URB)
			continue;
		count++;
		if (dec_analyze(ctx, &r, &info) < 0)
			goto out_nomem;
		if (expr != NULL) {
			/* every record feeds the analysis; few are shown */
			dec_fvals_urb(&r, &info, &fv);
			if (!dec_filter_match(&filter, &fv))
				continue;
		}
		switch (mode) {
		case OUT_TEXT:
			dec_fmt_line(&fmt, &r, &info, &out);
			break;
		case OUT_USBMON:
			if (dec_fmt_usbmon(&r, line, sizeof line) >= 0) {
				sb_puts(&out, line);
				sb_putc(&out, '\n');
			}
			break;
		default:
			dec_tree_init(&tree, nodes, DEC_TREE_NODES, arena,
			    DEC_TREE_ARENA);
			dec_record_tree(&r, &info, &tree);
			if (mode == OUT_VERBOSE)
				dec_fmt_verbose(&fmt, &r, &info, &tree, &out);
			else if (mode == OUT_JSON)
				dec_fmt_json(&fmt, &r, &info, &tree, &out);
			else
				dec_fmt_fields(&r, &tree, fields, nfields,
				    &out);
			break;
		}
		if (out.oom)
			goto out_nomem;
		if (out.len >= FLUSH_AT && tui_write_out(&out) < 0)
			goto out_write;
	}
	if (tui_write_out(&out) < 0)
		goto out_write;

	npend = dec_ctx_pending(ctx, pend, 8);
	if (npend > 0 && (limit == 0 || count < limit) && mode != OUT_USBMON &&
	    mode != OUT_FIELDS && mode != OUT_JSON) {
		fprintf(stderr, "urbscope: %zu URB%s submitted but not "
		    "completed by the end of the capture (record", npend,
		    npend == 1 ? "" : "s");
		for (i = 0; i < npend && i < 8; i++)
			fprintf(stderr, "%s %llu", i ? "," : npend > 1 ? "s" :
			    "", (unsigned long long)pend[i]);
		fprintf(stderr, "%s)\n", npend > 8 ? ", ..." : "");
	}
	goto out;

out_write:
	tui_warnx("writing the output: %s", strerror(errno));
	status = EXIT_INPUT;
	goto out;
out_nomem:
	tui_warnx("out of memory");
	status = EXIT_INPUT;
out:
	sb_free(&out);
	free(nodes);
	free(arena);
	dec_ctx_free(ctx);
	cap_close(src);
	return status;
}
