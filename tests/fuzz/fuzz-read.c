/*
 * tests/fuzz/fuzz-read.c - any input, opened through the source registry
 * as `urbscope read` opens a file (the format recognised by content), and
 * every record read through the record pipeline (cap_pipe: analysis and
 * filter) and printed by every formatter: the one-line form, -V, JSON,
 * -T fields, usbmon text, the transfers view (text, JSON, the tree);
 * and counted by `urbscope stats`, printed in every form it has; every
 * driver event through the rules a traced kernel's events get; and every
 * record into the programs `urbscope export` writes (C, Python and
 * syzkaller) and the transfers `urbscope replay` makes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capture/capture.h"
#include "decode/stats.h"
#include "tests/fuzz/fuzz.h"


static const char *const fields[] = {
	"frame.time_epoch", "usb.urb_id", "usb.setup.bRequest", "usb.idVendor",
	"usb.bInterfaceClass", "usb.time", "usb.capdata", "frame.number",
	"frame.time_relative", "frame.time_delta", "summary", "data",
	"event", "driver", "rule", "usb.device_address",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dec_node nodes[DEC_TREE_NODES];
	static char	 arena[DEC_TREE_ARENA];
	static int	 fd = -1;
	struct dec_fmt	 fmt[4] = { { .time_mode = DT_RELATIVE },
	    { .time_mode = DT_ABSOLUTE }, { .time_mode = DT_DELTA },
	    { .time_mode = DT_EPOCH } };
	static struct dec_fref refs[sizeof fields / sizeof fields[0]];
	static int	 resolved;
	struct cap_pipe	 pipe;
	struct dec_tree	 tree;
	struct dec_stats st;
	struct dec_stats_opts so = { .what = ~0u, .io_ns = 1000000,
	    .utf8 = 1 };
	struct dec_xfer	 xf[3];
	struct dec_rules *rules;
	struct dec_export *ex[3];
	struct dec_replay rp;
	struct drv_event broken[4];
	size_t		 i;
	struct sbuf	 out = { 0 };
	char		 name[64], err[512], line[512];
	int		 rc, k, shown;

	/* the bytes as a file the registry can open, read and probe */
	if (fd == -1 && (fd = memfd_create("fuzz-read", 0)) == -1)
		abort();
	if (ftruncate(fd, 0) != 0 ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
	/* through the pipeline every command reads with, filter and all */
	if (cap_pipe_open(&pipe, name, 1, err, sizeof err) < 0)
		return 0;
	/* once: resolving names is fuzz-filter's (it cost 13% here) */
	for (i = 0; !resolved && i < sizeof fields / sizeof fields[0]; i++) {
		if (dec_fref_resolve(fields[i], strlen(fields[i]),
		    &refs[i]) != 0)
			abort();
	}
	resolved = 1;
	/* short names and Wireshark's: the tree is built for the filter */
	if (cap_pipe_filter(&pipe, "type==bulk && (status==EPIPE || "
	    "latency>2ms) || event==rule || len>=64 || usb.capdata "
	    "contains 55:53:42:43 || usb.idVendor == 0x46d || "
	    "frame.time_relative > 1.5 || usb.src == \"1.2.1\"", err,
	    sizeof err) != 0)
		abort();
	dec_stats_init(&st);
	if ((rules = dec_rules_new()) == NULL)
		abort();
	for (k = 0; k < 3; k++)
		dec_xfer_init(&xf[k], k == 1, k == 2);
	for (k = 0; k < 3; k++)
		if ((ex[k] = dec_export_new(k == 0 ? DEC_EXPORT_C : k == 1 ?
		    DEC_EXPORT_PYTHON : DEC_EXPORT_SYZ, name)) == NULL)
			abort();
	while ((rc = cap_pipe_next(&pipe)) > 0) {
		out.len = 0;
		if (rc == CAP_EVENT) {
			dec_stats_event(&st, &pipe.ev);
			for (k = (int)dec_rules_check(rules, &pipe.ev, broken,
			    4); k > 0; k--)
				dec_fmt_event_line(&fmt[0], &broken[k - 1],
				    &out);
		}
		else if (rc == CAP_URB) {
			dec_stats_add(&st, &pipe.r, &pipe.info,
			    pipe.r.wire_len);
			dec_rules_record(rules, &pipe.r);
		}
		if (rc == CAP_EVENT) {
			dec_fmt_start(&fmt[0], pipe.ev.ts_ns);
			dec_fmt_event_line(&fmt[0], &pipe.ev, &out);
			dec_fmt_event_verbose(&fmt[1], &pipe.ev, &out);
			dec_fmt_event_json(&fmt[2], &pipe.ev, &out);
			dec_fmt_event_fields(NULL, cap_pipe_frame(&pipe, rc),
			    &pipe.ev, refs, sizeof refs / sizeof refs[0], &out);
			(void)cap_pipe_shown(&pipe, rc);
			for (k = 0; k < 3; k++)
				dec_xfer_flush(&xf[k], &out);
			continue;
		}
		if (rc != CAP_URB)
			continue;
		dec_fmt_start(&fmt[0], pipe.r.ts_ns);
		for (k = 0; k < 4; k++)
			dec_fmt_line(&fmt[k], &pipe.r, &pipe.info, &out);
		out.len = 0;
		dec_fmt_summary(&fmt[0], &pipe.r, &pipe.info, &out);
		for (k = 0; k < 3; k++)
			(void)dec_export_record(ex[k], &pipe.r, out.len > 0 ?
			    out.s : "", pipe.info.pair_recno);
		dec_tree_init(&tree, nodes, DEC_TREE_NODES, arena,
		    DEC_TREE_ARENA);
		dec_record_tree(&pipe.r, &pipe.info, &tree);
		dec_fmt_verbose(&fmt[0], &pipe.r, &pipe.info, &tree, &out);
		dec_fmt_json(&fmt[1], &pipe.r, &pipe.info, &tree, &out);
		(void)dec_fmt_usbmon(&pipe.r, line, sizeof line);
		shown = cap_pipe_shown(&pipe, rc);
		for (k = 0; k < 3; k++)
			dec_xfer_record(&xf[k], &fmt[k], &pipe.r, &pipe.info,
			    k == 0 || shown, &out);
		dec_fmt_fields(&fmt[0], NULL, cap_pipe_frame(&pipe, rc),
		    &pipe.r, &pipe.info, cap_pipe_tree(&pipe), refs,
		    sizeof refs / sizeof refs[0], &out);
	}
	for (k = 0; k < 3; k++) {
		out.len = 0;
		dec_xfer_end(&xf[k], "never completed", &out);
		dec_xfer_free(&xf[k]);
	}
	if (dec_export_replay(ex[0], &rp, err, sizeof err) == 0)
		dec_replay_free(&rp);
	for (k = 0; k < 3; k++) {
		out.len = 0;
		(void)dec_export_finish(ex[k], &out, err, sizeof err);
		dec_export_free(ex[k]);
	}
	out.len = 0;
	dec_stats_text(&st, &so, &out);
	out.len = 0;
	dec_stats_json(&st, &so, &out);
	out.len = 0;
	dec_stats_svg(&st, &so, &out);
	dec_stats_free(&st);
	dec_rules_free(rules);
	sb_free(&out);
	cap_pipe_close(&pipe);
	return 0;
}
