/*
 * tests/fuzz/fuzz-read.c - any input, opened through the source registry
 * as `urbscope read` opens a file (the format recognised by content), and
 * every record analysed and printed by every formatter: the one-line form,
 * -V, JSON, -T fields, usbmon text, and the filter's view of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capture/capture.h"
#include "tests/fuzz/fuzz.h"


static const char *const fields[] = {
	"frame.time_epoch", "usb.urb_id", "usb.setup.bRequest", "usb.idVendor",
	"usb.bInterfaceClass", "usb.time", "usb.capdata",
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
	struct dec_fnode fnodes[64];
	struct dec_filter filter = { fnodes, 64, 0, 0, 0, "" };
	struct cap_source *src;
	struct dec_ctx	*ctx;
	struct dec_tree	 tree;
	struct dec_fvals fv;
	struct dec_info	 info;
	struct urb_rec	 r;
	struct drv_event ev;
	struct sbuf	 out = { 0 };
	char		 name[64], err[512], line[512];
	int		 rc, k;

	/* the bytes as a file the registry can open, read and probe */
	if (fd == -1 && (fd = memfd_create("fuzz-read", 0)) == -1)
		abort();
	if (ftruncate(fd, 0) != 0 ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
	if (dec_filter_compile(&filter, "type==bulk && (status==EPIPE || "
	    "latency>2ms) || event==rule || len>=64") != 0)
		abort();
	if (cap_open(name, &src, err, sizeof err) < 0)
		return 0;
	if ((ctx = dec_ctx_new()) == NULL)
		abort();
	while ((rc = cap_next(src, &r, &ev)) > 0) {
		out.len = 0;
		if (rc == CAP_EVENT) {
			dec_fmt_start(&fmt[0], ev.ts_ns);
			dec_fmt_event_line(&fmt[0], &ev, &out);
			dec_fmt_event_verbose(&fmt[1], &ev, &out);
			dec_fmt_event_json(&fmt[2], &ev, &out);
			dec_fvals_event(&ev, &fv);
			(void)dec_filter_match(&filter, &fv);
			continue;
		}
		if (rc != CAP_URB)
			continue;
		dec_fmt_start(&fmt[0], r.ts_ns);
		if (dec_analyze(ctx, &r, &info) < 0)
			break;
		for (k = 0; k < 4; k++)
			dec_fmt_line(&fmt[k], &r, &info, &out);
		dec_tree_init(&tree, nodes, DEC_TREE_NODES, arena, DEC_TREE_ARENA);
		dec_record_tree(&r, &info, &tree);
		dec_fmt_verbose(&fmt[0], &r, &info, &tree, &out);
		dec_fmt_json(&fmt[1], &r, &info, &tree, &out);
		dec_fmt_fields(&r, &tree, fields, sizeof fields /
		    sizeof fields[0], &out);
		(void)dec_fmt_usbmon(&r, line, sizeof line);
		dec_fvals_urb(&r, &info, &fv);
		(void)dec_filter_match(&filter, &fv);
	}
	sb_free(&out);
	dec_ctx_free(ctx);
	cap_close(src);
	return 0;
}
