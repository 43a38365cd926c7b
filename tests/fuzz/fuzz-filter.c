/*
 * tests/fuzz/fuzz-filter.c - the filter language of -Y and the TUI: the
 * input up to its first NUL is the expression, the bytes after it the
 * values of a record or event it is evaluated on, and what is left the
 * record's setup and data (its decoded tree is what Wireshark's names
 * test).
 */
#include <stdlib.h>

#include "decode/decode.h"
#include "tests/fuzz/fuzz.h"

static uint64_t
take(const uint8_t **p, size_t *n, size_t k)
{
	uint64_t v = 0;

	while (k-- > 0 && *n > 0) {
		v = v << 8 | **p;
		(*p)++;
		(*n)--;
	}
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const drivers[] = { NULL, "skeleton", "usbhid",
	    "" };
	static struct dec_node tnodes[DEC_TREE_NODES];
	static char	 arena[DEC_TREE_ARENA];
	struct dec_fnode nodes[64];
	struct dec_filter f = { .node = nodes, .max = 64 };
	struct dec_fvals v;
	struct dec_frame fr;
	struct urb_rec	 r;
	struct dec_info	 info;
	struct drv_event ev;
	struct dec_tree	 t;
	const uint8_t	*p, *nul;
	char		 expr[512];
	size_t		 len, n;

	nul = memchr(data, 0, size);
	len = nul != NULL ? (size_t)(nul - data) : size;
	if (len >= sizeof expr)
		return 0;
	memcpy(expr, data, len);
	expr[len] = '\0';
	if (dec_filter_compile(&f, expr) != 0) {
		if (f.col < 0 || (size_t)f.col > len + 1 || f.err[0] == '\0' ||
		    f.n != 0)
			abort();
		return 0;
	}
	p = data + len + (nul != NULL);
	n = size - len - (nul != NULL);
	memset(&v, 0, sizeof v);
	v.is_event = (int)(take(&p, &n, 1) & 1);
	v.busnum = (uint16_t)take(&p, &n, 2);
	v.devnum = (uint8_t)take(&p, &n, 1);
	v.ep = (uint8_t)take(&p, &n, 1);
	v.xfer = (uint8_t)(take(&p, &n, 1) & 3);
	v.ev = "SCE"[take(&p, &n, 1) % 3];
	v.status = (int32_t)take(&p, &n, 4);
	v.len = (uint32_t)take(&p, &n, 4);
	v.latency_ns = (int64_t)take(&p, &n, 8);
	v.driver = drivers[take(&p, &n, 1) % 4];
	v.event = (int)take(&p, &n, 1);
	v.urb = take(&p, &n, 8);
	v.has_urb = (int)(take(&p, &n, 1) & 1);
	memset(&fr, 0, sizeof fr);
	fr.number = take(&p, &n, 2);
	fr.ts_ns = (int64_t)take(&p, &n, 8);
	fr.t0_ns = (int64_t)take(&p, &n, 1);
	fr.prev_ns = DEC_TS_BAD;
	fr.len = (uint32_t)take(&p, &n, 2);
	fr.cap_len = (uint32_t)take(&p, &n, 2);
	v.frame = &fr;
	(void)dec_filter_match(&f, &v);

	/* the same values as a record (its tree) or an event */
	memset(&r, 0, sizeof r);
	memset(&info, 0, sizeof info);
	info.intf = -1;
	info.latency_ns = -1;
	r.type = v.ev;
	r.xfer_type = v.xfer;
	r.epnum = v.ep;
	r.devnum = v.devnum;
	r.busnum = v.busnum;
	r.status = v.status;
	r.flag_setup = v.xfer == XFER_CTRL && v.ev == 'S' ? 0 : '-';
	memcpy(r.setup, p, n < 8 ? n : 8);
	if (r.flag_setup == 0) {
		dec_setup(r.setup, &info.setup);
		info.flags |= DI_SETUP;
	}
	r.data = p;
	r.data_len = (uint32_t)n;
	r.len_urb = (uint32_t)n;
	r.len_cap = (uint32_t)n;
	dec_tree_init(&t, tnodes, DEC_TREE_NODES, arena, DEC_TREE_ARENA);
	t.all_bits = 1;
	dec_record_tree(&r, &info, &t);
	if (v.is_event) {
		memset(&ev, 0, sizeof ev);
		ev.kind = (enum drv_kind)(v.event % 20);
		ev.busnum = v.busnum;
		ev.devnum = v.devnum;
		ev.driver = v.driver;
		ev.rule = v.driver;
		ev.intf = -1;
		ev.minor = -1;
		v.evp = &ev;
	} else {
		v.r = &r;
		v.tree = &t;
	}
	(void)dec_filter_match(&f, &v);
	dec_filter_free(&f);	/* a matches' regular expression */
	return 0;
}
