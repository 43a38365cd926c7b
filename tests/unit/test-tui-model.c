/*
 * tests/unit/test-tui-model.c - the TUI's view model without curses:
 * navigation, paging, follow, filter narrowing and its count, search
 * next/prev for text, bytes (payload and setup) and filter expressions,
 * the pairing jump, going to a record (or the nearest shown), the jump
 * history, the time reference, driver events, the transfers view and
 * its runs of identical polls; and the record store on a sample
 * capture (re-reading, bytes per index item); incremental
 * indexing and filtering, follow while items arrive, a paced simulation
 * spooled and replayed, where mouse clicks land, and saving what is
 * shown.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "decode/decode.h"
#include "tui/tui-model.h"
#include "tui/tui-view.h"
#include "samples/samples.h"

#define NREC	200

/* A fake source: the records themselves, fetched by recno. */
struct fake {
	struct dec_rec	 rec[NREC + 8];
	size_t		 n;
	unsigned	 fetches;
};

static const struct dec_rec *
fake_fetch(void *arg, uint64_t recno)
{
	struct fake *f = arg;

	f->fetches++;
	return recno >= 1 && recno <= f->n ? &f->rec[recno - 1] : NULL;
}

static const uint8_t get_dev_desc[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };

/*
 * 100 transfers, S then C: bulk IN on devices 1..5 (ep 0x81), except
 * transfer 60, a GET_DESCRIPTOR on device 2, and transfer 70, which
 * stalls (-EPIPE).
 */
static void
build(struct tui_model *m, struct fake *f)
{
	struct dec_ctx	*ctx = dec_ctx_new();
	struct urb_rec	 r;
	struct dec_info	 info;
	int		 k, half;

	assert_non_null(ctx);
	memset(f, 0, sizeof *f);
	tui_model_init(m, fake_fetch, f);
	for (k = 0; k < NREC / 2; k++) {
		for (half = 0; half < 2; half++) {
			memset(&r, 0, sizeof r);
			r.id = 0xffff888000000000ULL + (uint64_t)k * 0x100;
			r.type = half ? 'C' : 'S';
			r.busnum = 1;
			r.devnum = (uint8_t)(1 + k % 5);
			r.epnum = 0x81;
			r.xfer_type = XFER_BULK;
			r.flag_setup = '-';
			r.flag_data = half ? 0 : '<';
			r.status = half ? 0 : URB_EINPROGRESS;
			r.len_urb = half ? 13 : 512;
			if (k == 60) {
				r.devnum = 2;
				r.epnum = 0x80;
				r.xfer_type = XFER_CTRL;
				if (!half) {
					r.flag_setup = 0;
					memcpy(r.setup, get_dev_desc, 8);
				}
			}
			if (k == 70 && half)
				r.status = -32;
			r.ts_ns = 1000000000LL + k * 1000000LL + half * 250000;
			r.recno = (uint64_t)f->n + 1;
			assert_int_equal(dec_analyze(ctx, &r, &info), 0);
			assert_int_equal(dec_rec_copy(&f->rec[f->n], CAP_URB,
			    &r, &info, NULL), 0);
			f->n++;
			assert_int_equal(tui_model_add_urb(m, &r, &info), 0);
		}
	}
	dec_ctx_free(ctx);
	tui_model_set_rows(m, 10);
}

static void
unbuild(struct tui_model *m, struct fake *f)
{
	size_t	 i;

	for (i = 0; i < f->n; i++)
		dec_rec_free(&f->rec[i]);
	tui_model_free(m);
}

static void
test_index(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);

	(void)state;
	assert_int_equal(sizeof(struct tui_item), 28);
	build(&m, f);
	assert_int_equal(m.n, NREC);
	assert_int_equal(m.nvis, NREC);
	assert_int_equal(m.nurb, NREC / 2);	/* S and C: one URB */
	assert_int_equal(m.nerror, 1);
	/* pairs both ways, latency from the index */
	assert_int_equal(m.item[0].pair, 1);
	assert_int_equal(m.item[1].pair, 0);
	assert_int_equal(tui_model_latency(&m, 1), 250000);
	assert_int_equal(tui_model_latency(&m, 0), -1);
	assert_int_equal(tui_model_urb_id(&m, 3), 0xffff888000000100ULL);
	/* 100 distinct ids: items + ids + hash + view, under 64 B/item */
	assert_true(tui_model_bytes(&m) / m.n < 64);
	/* no record was re-read to build or filter */
	assert_int_equal(f->fetches, 0);
	unbuild(&m, f);
	free(f);
}

static void
test_navigation(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);

	(void)state;
	build(&m, f);
	assert_int_equal(m.sel, 0);
	assert_int_equal(tui_model_selected(&m), 0);
	tui_model_move(&m, -1);
	assert_int_equal(m.sel, 0);
	tui_model_move(&m, 1);
	tui_model_move(&m, 1);
	assert_int_equal(m.sel, 2);
	assert_int_equal(m.top, 0);
	tui_model_move(&m, 10);
	assert_int_equal(m.sel, 12);
	assert_int_equal(m.top, 3);		/* sel on the last row */
	tui_model_page(&m, 1);
	assert_int_equal(m.sel, 21);
	assert_int_equal(m.top, 12);
	tui_model_page(&m, 0);
	assert_int_equal(m.sel, 12);
	assert_int_equal(m.top, 3);
	tui_model_end(&m);
	assert_int_equal(m.sel, NREC - 1);
	assert_int_equal(m.top, NREC - 10);
	tui_model_page(&m, 1);
	assert_int_equal(m.sel, NREC - 1);
	tui_model_move(&m, 1000);
	assert_int_equal(m.sel, NREC - 1);
	tui_model_home(&m);
	assert_int_equal(m.sel, 0);
	assert_int_equal(m.top, 0);
	tui_model_page(&m, 0);
	assert_int_equal(m.sel, 0);
	tui_model_move(&m, -1000);
	assert_int_equal(m.sel, 0);
	/* a smaller list keeps the selection visible */
	tui_model_move(&m, 9);
	tui_model_set_rows(&m, 4);
	assert_true(m.sel >= m.top && m.sel < m.top + 4);
	unbuild(&m, f);
	free(f);
}

static void
test_follow(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	struct urb_rec	 r;

	(void)state;
	build(&m, f);
	tui_model_set_follow(&m, 1);
	assert_int_equal(m.sel, NREC - 1);
	memset(&r, 0, sizeof r);
	r.type = 'S';
	r.id = 1;
	r.recno = NREC + 1;
	r.ts_ns = 2000000000LL;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
	assert_int_equal(m.sel, NREC);		/* followed the new one */
	assert_true(m.sel < m.top + m.rows);
	tui_model_move(&m, -1);
	assert_false(m.follow);			/* moving away stops it */
	r.recno++;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
	assert_int_equal(m.sel, NREC - 1);
	tui_model_set_follow(&m, 1);
	assert_int_equal(m.sel, NREC + 1);
	tui_model_home(&m);
	assert_false(m.follow);
	unbuild(&m, f);
	free(f);
}

static void
test_filter(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);

	(void)state;
	build(&m, f);
	tui_model_move(&m, 41);			/* item 41: C of transfer 20 */
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	assert_int_equal(m.nvis, NREC / 2);
	assert_int_equal(tui_model_selected(&m), 41);	/* stays on it */
	assert_string_equal(m.ftext, "ev==C");
	assert_int_equal(tui_model_set_filter(&m, "dev==2"), 0);
	assert_int_equal(m.nvis, 42);		/* 21 transfers, S and C */
	assert_int_equal(tui_model_selected(&m), 42);	/* the next one */
	assert_int_equal(tui_model_set_filter(&m, "status==EPIPE"), 0);
	assert_int_equal(m.nvis, 1);
	assert_int_equal(tui_model_selected(&m), 141);
	assert_int_equal(tui_model_set_filter(&m,
	    "type==ctrl || latency>1s"), 0);
	assert_int_equal(m.nvis, 2);
	assert_int_equal(tui_model_set_filter(&m, "dev==9"), 0);
	assert_int_equal(m.nvis, 0);
	assert_int_equal(tui_model_selected(&m), TI_NONE);
	tui_model_move(&m, 1);
	tui_model_page(&m, 1);
	tui_model_end(&m);
	assert_int_equal(tui_model_pair(&m), -1);
	assert_int_equal(tui_model_search(&m, "x", 1), -1);
	/* a bad filter leaves the old one in force */
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	assert_int_equal(tui_model_set_filter(&m, "ev==C && devv==1"),
	    -UE_SYNTAX);
	assert_string_equal(m.filter.err, "col 10: unknown field 'devv', "
	    "did you mean dev? (urbscope -G fields lists them)");
	assert_int_equal(m.nvis, NREC / 2);
	assert_string_equal(m.ftext, "ev==C");
	assert_int_equal(tui_model_set_filter(&m, "len==13"), 0);
	assert_int_equal(m.nvis, NREC / 2);	/* the old nodes still work */
	assert_int_equal(tui_model_set_filter(&m, ""), 0);
	assert_int_equal(m.nvis, NREC);
	assert_int_equal(f->fetches, 0);	/* filters need no re-read */
	/* Wireshark's names: the same language, records re-read */
	assert_int_equal(tui_model_set_filter(&m,
	    "usb.setup.bRequest == 6 || usb.urb_status == -32"), 0);
	assert_int_equal(m.nvis, 2);		/* the request, the stall */
	assert_int_equal(tui_model_vis(&m, 0), 120);
	assert_int_equal(tui_model_vis(&m, 1), 141);
	assert_true(f->fetches >= NREC);
	assert_int_equal(tui_model_set_filter(&m, "usb.src == \"1.2.1\" && "
	    "frame.number > 150"), 0);
	assert_int_equal(m.nvis, 5);		/* C of transfers 76 ... 96 */
	assert_int_equal(tui_model_set_filter(&m, "status != 0"), 0);
	assert_int_equal(m.nvis, 1);		/* completions only */
	assert_int_equal(tui_model_search(&m, "usb.urb_status==-32", 1), 0);
	unbuild(&m, f);
	free(f);
}

static void
test_search(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);

	(void)state;
	build(&m, f);
	assert_int_equal(tui_model_search(&m, "get_descriptor", 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	assert_true(m.sel >= m.top && m.sel < m.top + m.rows);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 121);	/* its completion */
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);	/* wrapped */
	assert_int_equal(tui_model_search(&m, NULL, -1), 0);
	assert_int_equal(tui_model_selected(&m), 121);	/* wrapped back */
	assert_int_equal(tui_model_search(&m, NULL, -1), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	/* smart case: a capital makes it exact */
	assert_int_equal(tui_model_search(&m, "Get_Descriptor", 1), -1);
	assert_int_equal(tui_model_selected(&m), 120);
	assert_int_equal(tui_model_search(&m, "-EPIPE", 1), 0);
	assert_int_equal(tui_model_selected(&m), 141);
	/* search stays inside the filter */
	assert_int_equal(tui_model_set_filter(&m, "ev==S"), 0);
	assert_int_equal(tui_model_search(&m, "GET_DESCRIPTOR", 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	assert_int_equal(tui_model_search(&m, "nowhere at all", -1), -1);
	/* in steps, as the TUI runs it on a big view */
	assert_int_equal(tui_model_set_filter(&m, ""), 0);
	tui_model_home(&m);
	assert_int_equal(tui_model_search_start(&m, "-EPIPE", 1), 0);
	assert_int_equal(tui_model_search_step(&m, 100), 1);
	assert_int_equal(m.sel, 0);			/* not yet */
	assert_int_equal(m.sdone, 100);
	assert_int_equal(tui_model_search_step(&m, 100), 0);
	assert_int_equal(tui_model_selected(&m), 141);
	assert_int_equal(m.sdir, 0);
	assert_int_equal(tui_model_search_start(&m, "nowhere", -1), 0);
	assert_int_equal(tui_model_search_step(&m, NREC / 2), 1);
	assert_int_equal(tui_model_search_step(&m, NREC), -1);
	assert_int_equal(m.sdir, 0);
	assert_int_equal(tui_model_selected(&m), 141);	/* stays */
	/* a new filter stops a search */
	assert_int_equal(tui_model_search_start(&m, "-EPIPE", 1), 0);
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	assert_int_equal(m.sdir, 0);
	assert_int_equal(tui_model_search_step(&m, 10), -1);
	unbuild(&m, f);
	free(f);
}

/* What tui_search_hex makes of text: 1 and the bytes, or 0. */
static int
hex_of(const char *text, const char *want, int want_also)
{
	uint8_t	 b[TUI_SEARCH_MAXBYTES];
	char	 got[3 * TUI_SEARCH_MAXBYTES + 1] = "";
	size_t	 n = 0, k;
	int	 also = -1;

	if (!tui_search_hex(text, b, &n, &also))
		return 0;
	for (k = 0; k < n; k++)
		snprintf(got + strlen(got), sizeof got - strlen(got),
		    k ? " %02x" : "%02x", b[k]);
	assert_string_equal(got, want);
	assert_int_equal(also, want_also);
	return 1;
}

static void
test_search_kind(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	static const struct {
		const char	*text;
		int		 kind;
		const char	*name;
	} t[] = {
		{ "55 53 42 43", TUI_SEARCH_BYTES, "bytes" },
		{ "dead beef", TUI_SEARCH_BYTES, "bytes" },
		{ "0x55534243", TUI_SEARCH_BYTES, "bytes or text" },
		{ "x:55", TUI_SEARCH_BYTES, "bytes" },
		{ "ab", TUI_SEARCH_TEXT, "text" },
		{ "0x81", TUI_SEARCH_TEXT, "text" },
		{ "dev==3", TUI_SEARCH_FILTER, "filter" },
		{ "dev == 3", TUI_SEARCH_FILTER, "filter" },
		{ "status!=0 && type==bulk", TUI_SEARCH_FILTER, "filter" },
		{ "!(ep==0x81)", TUI_SEARCH_FILTER, "filter" },
		{ "hello world", TUI_SEARCH_TEXT, "text" },
		{ "dev==3x", TUI_SEARCH_TEXT,
		    "text, not a filter: col 6: '3x' is not a number" },
		{ "idVendor=1d6b", TUI_SEARCH_TEXT,
		    "text, not a filter: col 1: unknown field 'idVendor' "
		    "(urbscope -G fields lists them)" },
		{ "usb.idVendor==0x1d6b", TUI_SEARCH_FILTER, "filter" },
		{ "usb.capdata contains 55:53", TUI_SEARCH_FILTER,
		    "filter" },
		{ "status", TUI_SEARCH_TEXT, "text" },
		{ "usb.capdata", TUI_SEARCH_TEXT, "text" },
	};
	size_t	 i;

	(void)state;
	/* byte strings: groups of even length, two bytes at least */
	assert_true(hex_of("55 53 42 43", "55 53 42 43", 0));
	assert_true(hex_of("55:53:42:43", "55 53 42 43", 0));
	assert_true(hex_of(" 55  53:42 ", "55 53 42", 0));
	assert_true(hex_of("dead beef", "de ad be ef", 0));
	assert_true(hex_of("DEAD BEEF", "de ad be ef", 0));
	assert_true(hex_of("5553 4243", "55 53 42 43", 0));
	assert_true(hex_of("ab cd", "ab cd", 0));
	assert_true(hex_of("0x55534243", "55 53 42 43", 1));
	assert_true(hex_of("0X5553", "55 53", 1));
	assert_true(hex_of("x:55534243", "55 53 42 43", 0));
	assert_true(hex_of("x:55", "55", 0));
	assert_true(hex_of("x:55 53:42", "55 53 42", 0));
	assert_false(hex_of("ab", "", 0));		/* one pair: a word */
	assert_false(hex_of("dead", "", 0));
	assert_false(hex_of("0x81", "", 0));		/* an address */
	assert_false(hex_of("0x123", "", 0));		/* odd */
	assert_false(hex_of("0x5553 4243", "", 0));	/* 0x: one run */
	assert_false(hex_of("0x55:53", "", 0));
	assert_false(hex_of("1d6b:0002", "", 0));	/* VID:PID, text */
	assert_false(hex_of("abc def", "", 0));
	assert_false(hex_of("55 5", "", 0));
	assert_false(hex_of("55 53 zz", "", 0));
	assert_false(hex_of("55,53", "", 0));
	assert_false(hex_of("x:", "", 0));
	assert_false(hex_of("0x", "", 0));
	assert_false(hex_of("", "", 0));
	assert_false(hex_of("hello world", "", 0));
	/* more bytes than a search holds is text */
	assert_false(hex_of("x:000102030405060708090a0b0c0d0e0f"
	    "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f"
	    "303132333435363738393a3b3c3d3e3f40", "", 0));

	build(&m, f);
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		tui_model_search_start(&m, t[i].text, 1);
		if (m.skind != t[i].kind)
			fail_msg("'%s': kind %d, want %d", t[i].text, m.skind,
			    t[i].kind);
		assert_string_equal(tui_model_search_kind(&m), t[i].name);
	}
	/* filter-like text that does not compile says why */
	tui_model_search_start(&m, "dev==3x", 1);
	assert_string_equal(m.serr, "col 6: '3x' is not a number");
	tui_model_search_start(&m, "hello world", 1);
	assert_string_equal(m.serr, "");
	tui_model_search_start(&m, "dev==3", 1);
	assert_string_equal(m.serr, "");
	/* n/N keep the kind */
	m.sdir = 0;
	tui_model_search_start(&m, NULL, -1);
	assert_int_equal(m.skind, TUI_SEARCH_FILTER);
	unbuild(&m, f);
	free(f);
}

static void
test_search_bytes(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	static const uint8_t cbw[] = { 0x55, 0x53, 0x42, 0x43, 1, 0, 0, 0 };
	static const uint8_t mid[] = { 0, 0, 0x55, 0x53, 0x42, 0x43, 0 };
	static const uint8_t near[] = { 0x55, 0x53, 0x42, 0x44 };

	(void)state;
	build(&m, f);
	/* payloads: at the start of item 50, inside item 150, and item 20
	 * has all but the last byte */
	f->rec[50].r.data = cbw;
	f->rec[50].r.data_len = sizeof cbw;
	f->rec[150].r.data = mid;
	f->rec[150].r.data_len = sizeof mid;
	f->rec[20].r.data = near;
	f->rec[20].r.data_len = sizeof near;

	assert_int_equal(tui_model_search(&m, "55 53 42 43", 1), 0);
	assert_int_equal(m.skind, TUI_SEARCH_BYTES);
	assert_int_equal(tui_model_selected(&m), 50);
	assert_true(m.sel >= m.top && m.sel < m.top + m.rows);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 150);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 50);	/* wrapped */
	assert_int_equal(tui_model_search(&m, NULL, -1), 0);
	assert_int_equal(tui_model_selected(&m), 150);	/* wrapped back */
	assert_int_equal(tui_model_search(&m, NULL, -1), 0);
	assert_int_equal(tui_model_selected(&m), 50);
	/* N from the start goes round to the last one */
	tui_model_home(&m);
	assert_int_equal(tui_model_search(&m, "55:53:42:43", -1), 0);
	assert_int_equal(tui_model_selected(&m), 150);
	/* 0x: the bytes (or the number in the text) */
	tui_model_home(&m);
	assert_int_equal(tui_model_search(&m, "0x55534243", 1), 0);
	assert_int_equal(tui_model_selected(&m), 50);
	assert_int_equal(tui_model_search(&m, "0x4243", 1), 0);
	assert_int_equal(tui_model_selected(&m), 150);
	assert_int_equal(tui_model_search(&m, "x:55534244", 1), 0);
	assert_int_equal(tui_model_selected(&m), 20);
	/* the setup of the GET_DESCRIPTOR (item 120) */
	assert_int_equal(tui_model_search(&m, "06 00 01", 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);	/* only there */
	assert_int_equal(tui_model_search(&m, "80 06 00 01 00 00 12 00", -1),
	    0);
	assert_int_equal(tui_model_selected(&m), 120);
	/* nowhere, and not longer than the setup */
	assert_int_equal(tui_model_search(&m, "80 06 00 01 00 00 12 00 00",
	    1), -1);
	assert_int_equal(tui_model_search(&m, "de ad be ef", 1), -1);
	assert_int_equal(tui_model_selected(&m), 120);
	/* bytes are not text: the summary of item 120 has no "06 00" */
	assert_int_equal(tui_model_search(&m, "12 00", 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	/* inside a filter; in steps */
	assert_int_equal(tui_model_set_filter(&m, "ev==S"), 0);
	tui_model_home(&m);
	assert_int_equal(tui_model_search(&m, "55 53 42 43", 1), 0);
	assert_int_equal(tui_model_selected(&m), 50);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 150);
	tui_model_home(&m);
	assert_int_equal(tui_model_search_start(&m, "55 53 42 43", 1), 0);
	assert_int_equal(tui_model_search_step(&m, 10), 1);
	assert_int_equal(m.sel, 0);
	assert_int_equal(tui_model_search_step(&m, 100), 0);
	assert_int_equal(tui_model_selected(&m), 50);
	f->rec[50].r.data = f->rec[150].r.data = f->rec[20].r.data = NULL;
	unbuild(&m, f);
	free(f);
}

static void
test_search_filter(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);

	(void)state;
	build(&m, f);
	/* dev 3: transfers 2, 7, 12, ... (items 4 5, 14 15, ...) */
	assert_int_equal(tui_model_search(&m, "dev==3", 1), 0);
	assert_int_equal(m.skind, TUI_SEARCH_FILTER);
	assert_int_equal(tui_model_selected(&m), 4);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 5);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 14);
	assert_int_equal(tui_model_search(&m, NULL, -1), 0);
	assert_int_equal(tui_model_selected(&m), 5);
	assert_int_equal(tui_model_search(&m, "dev == 3 && ev==C", -1), 0);
	assert_int_equal(tui_model_selected(&m), 195);	/* wrapped back */
	assert_int_equal(tui_model_search(&m, "status!=0 && ev==C", 1), 0);
	assert_int_equal(tui_model_selected(&m), 141);
	assert_int_equal(tui_model_search(&m, NULL, 1), 0);
	assert_int_equal(tui_model_selected(&m), 141);	/* the only one */
	assert_int_equal(tui_model_search(&m, "type==ctrl", 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	assert_int_equal(tui_model_search(&m, "dev==9", 1), -1);
	assert_int_equal(tui_model_selected(&m), 120);
	/* searched over the view the filter leaves */
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	tui_model_home(&m);
	assert_int_equal(tui_model_search(&m, "dev==3", 1), 0);
	assert_int_equal(tui_model_selected(&m), 5);
	/* in steps, and from the index alone */
	tui_model_home(&m);
	assert_int_equal(tui_model_search_start(&m, "type==ctrl", 1), 0);
	assert_int_equal(tui_model_search_step(&m, 20), 1);
	assert_int_equal(tui_model_search_step(&m, 100), 0);
	assert_int_equal(tui_model_selected(&m), 121);
	/* text that looks like a filter but is not one is searched as text */
	assert_int_equal(tui_model_search(&m, "dev==3x", 1), -1);
	assert_int_equal(m.skind, TUI_SEARCH_TEXT);
	assert_int_equal(f->fetches, 200 / 2);		/* that one read */
	unbuild(&m, f);
	free(f);
}

static void
test_pair(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);

	(void)state;
	build(&m, f);
	tui_model_move(&m, 121);
	assert_int_equal(tui_model_pair(&m), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	assert_int_equal(tui_model_pair(&m), 0);
	assert_int_equal(tui_model_selected(&m), 121);
	tui_model_end(&m);
	assert_int_equal(tui_model_pair(&m), 0);
	assert_int_equal(tui_model_selected(&m), NREC - 2);
	assert_true(m.sel >= m.top && m.sel < m.top + m.rows);
	/* the pair hidden by a filter */
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	assert_int_equal(tui_model_pair(&m), -2);
	unbuild(&m, f);
	free(f);
}

static void
test_goto(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);

	(void)state;
	build(&m, f);
	assert_int_equal(tui_model_goto(&m, 0), -1);
	assert_int_equal(tui_model_goto(&m, NREC + 1), -1);
	assert_int_equal(tui_model_selected(&m), 0);
	assert_int_equal(tui_model_goto(&m, 50), 0);
	assert_int_equal(tui_model_selected(&m), 49);
	assert_true(m.sel >= m.top && m.sel < m.top + m.rows);
	assert_int_equal(tui_model_goto(&m, NREC), 0);
	assert_int_equal(tui_model_selected(&m), NREC - 1);
	/* completions only: the odd items */
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	assert_int_equal(tui_model_goto(&m, 50), 0);
	assert_int_equal(tui_model_selected(&m), 49);
	/* 49 and 51 are as near to 50: the later */
	assert_int_equal(tui_model_goto(&m, 51), 1);
	assert_int_equal(tui_model_selected(&m), 51);
	assert_int_equal(tui_model_goto(&m, 1), 1);
	assert_int_equal(tui_model_selected(&m), 1);
	/* one record shown (the stall): it is the nearest to any */
	assert_int_equal(tui_model_set_filter(&m, "status!=0 && ev==C"), 0);
	assert_int_equal(tui_model_goto(&m, NREC), 1);
	assert_int_equal(tui_model_selected(&m), 141);
	assert_int_equal(tui_model_goto(&m, 1), 1);
	assert_int_equal(tui_model_selected(&m), 141);
	assert_int_equal(tui_model_set_filter(&m, "dev==99"), 0);
	assert_int_equal(tui_model_goto(&m, 5), -2);
	assert_int_equal(tui_model_select_near(&m, 5), -1);
	/* a filter still running: the selection waits for the record */
	m.fsync = 20;
	assert_int_equal(tui_model_set_filter(&m, "ev==S"), 0);
	assert_int_equal(m.fpos, 20);
	assert_int_equal(tui_model_goto(&m, 101), 2);
	assert_int_equal(tui_model_selected(&m), 18);
	assert_int_equal(tui_model_filter_step(&m, SIZE_MAX), 0);
	assert_int_equal(tui_model_selected(&m), 100);
	assert_int_equal(tui_model_goto(&m, 102), 1);
	assert_int_equal(tui_model_selected(&m), 102);
	unbuild(&m, f);
	free(f);
}

static void
test_history(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	int		 k;

	(void)state;
	build(&m, f);
	assert_int_equal(tui_model_hist_go(&m, -1), -1);
	assert_int_equal(tui_model_hist_go(&m, 1), -1);
	assert_int_equal(tui_model_goto(&m, 11), 0);
	tui_model_move(&m, 3);
	assert_int_equal(tui_model_selected(&m), 13);
	assert_int_equal(tui_model_pair(&m), 0);
	assert_int_equal(tui_model_selected(&m), 12);
	/* back to where the pair jump started, not where goto went */
	assert_int_equal(tui_model_hist_go(&m, -1), 0);
	assert_int_equal(tui_model_selected(&m), 13);
	assert_int_equal(tui_model_hist_go(&m, -1), 0);
	assert_int_equal(tui_model_selected(&m), 0);
	assert_int_equal(tui_model_hist_go(&m, -1), -1);
	assert_int_equal(tui_model_selected(&m), 0);
	assert_int_equal(tui_model_hist_go(&m, 1), 0);
	assert_int_equal(tui_model_selected(&m), 13);
	assert_int_equal(tui_model_hist_go(&m, 1), 0);
	assert_int_equal(tui_model_selected(&m), 12);
	assert_int_equal(tui_model_hist_go(&m, 1), -1);
	/* a jump after going back drops what was ahead */
	assert_int_equal(tui_model_hist_go(&m, -1), 0);
	assert_int_equal(tui_model_goto(&m, 101), 0);
	assert_int_equal(tui_model_hist_go(&m, 1), -1);
	assert_int_equal(m.nhist, 3);
	/* a search hit is a jump; a goto to where one is is none */
	assert_int_equal(tui_model_search(&m, "GET_DESCRIPTOR", 1), 0);
	assert_int_equal(tui_model_selected(&m), 120);
	assert_int_equal(tui_model_goto(&m, 121), 0);
	assert_int_equal(m.nhist, 4);
	assert_int_equal(tui_model_hist_go(&m, -1), 0);
	assert_int_equal(tui_model_selected(&m), 100);
	assert_int_equal(tui_model_hist_go(&m, 1), 0);
	/* a position the filter hides: the nearest shown */
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	assert_int_equal(tui_model_selected(&m), 121);
	assert_int_equal(tui_model_hist_go(&m, -1), 1);
	assert_int_equal(tui_model_selected(&m), 101);
	assert_int_equal(tui_model_set_filter(&m, "dev==99"), 0);
	assert_int_equal(tui_model_hist_go(&m, 1), -2);
	assert_int_equal(tui_model_set_filter(&m, ""), 0);
	/* the oldest positions go */
	for (k = 0; k < 2 * TUI_HIST_MAX; k++)
		assert_true(tui_model_goto(&m, (uint64_t)(k % 2 ? 1 : 3 +
		    k)) >= 0);
	assert_int_equal(m.nhist, TUI_HIST_MAX);
	assert_int_equal(m.hpos, TUI_HIST_MAX - 1);
	for (k = 0; k < TUI_HIST_MAX - 1; k++)
		assert_int_equal(tui_model_hist_go(&m, -1), 0);
	assert_int_equal(tui_model_hist_go(&m, -1), -1);
	unbuild(&m, f);
	free(f);
}

/*
 * Frames the input skipped (an Ethernet interface beside the USB one):
 * frame 1 at 0 s, then records as frames 2 (1.000 s) and 3 (1.010 s),
 * skipped frames 4 and 5 (1.020, 1.050 s), records as frames 6 (1.100 s)
 * and 7 (1.300 s).  Frame numbers, :N, the time column and the frame.*
 * filters count the skipped frames, as Wireshark's do.
 */
static void
test_frames(void **state)
{
	static const int64_t ms[] = { 1000, 1010, 1100, 1300 };
	static const uint64_t frame[] = { 2, 3, 6, 7 };
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	struct tui_cols	 c;
	struct urb_rec	 r;
	size_t		 k;

	(void)state;
	assert_non_null(f);
	memset(f, 0, sizeof *f);
	tui_model_init(&m, fake_fetch, f);
	tui_model_set_rows(&m, 10);
	for (k = 0; k < 4; k++) {
		if (k == 0)
			assert_int_equal(tui_model_skipped(&m, 1, 0, 0), 0);
		if (k == 2)
			assert_int_equal(tui_model_skipped(&m, 3,
			    1020000000LL, 1050000000LL), 0);
		memset(&r, 0, sizeof r);
		r.id = 0xffff888000000000ULL + k;
		r.type = 'S';
		r.busnum = 1;
		r.devnum = 2;
		r.epnum = 0x81;
		r.xfer_type = XFER_BULK;
		r.ts_ns = ms[k] * 1000000LL;
		r.recno = k + 1;
		r.frame = frame[k];
		assert_int_equal(dec_rec_copy(&f->rec[f->n++], CAP_URB, &r,
		    NULL, NULL), 0);
		assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
	}
	for (k = 0; k < 4; k++)
		assert_int_equal(tui_model_frame(&m, (uint32_t)k), frame[k]);
	tui_model_cols(&m, 0, &c);
	assert_string_equal(c.no, "2");
	assert_string_equal(c.time, "1.000000");
	tui_model_cols(&m, 2, &c);
	assert_string_equal(c.no, "6");
	assert_int_equal(tui_model_prev_ns(&m, 2), 1050000000LL);
	assert_int_equal(tui_model_prev_ns(&m, 1), 1000000000LL);
	assert_int_equal(tui_model_frame_item(&m, 4), 2);
	assert_int_equal(tui_model_frame_item(&m, 8), TI_NONE);
	/* :N goes to the frame; a skipped one to the record after it */
	assert_int_equal(tui_model_goto(&m, 6), 0);
	assert_int_equal(tui_model_selected(&m), 2);
	assert_int_equal(tui_model_goto(&m, 1), 3);
	assert_int_equal(tui_model_selected(&m), 0);
	assert_int_equal(tui_model_goto(&m, 5), 3);
	assert_int_equal(tui_model_selected(&m), 2);
	assert_int_equal(tui_model_goto(&m, 7), 0);
	assert_int_equal(tui_model_goto(&m, 8), -1);
	/* frame.* filters */
	assert_int_equal(tui_model_set_filter(&m, "frame.number == 6"), 0);
	assert_int_equal(m.nvis, 1);
	assert_int_equal(tui_model_vis(&m, 0), 2);
	assert_int_equal(tui_model_set_filter(&m,
	    "frame.time_relative < 1.005"), 0);
	assert_int_equal(m.nvis, 1);
	assert_int_equal(tui_model_set_filter(&m,
	    "frame.time_delta < 0.06"), 0);
	assert_int_equal(m.nvis, 2);
	assert_int_equal(tui_model_vis(&m, 1), 2);
	for (k = 0; k < f->n; k++)
		dec_rec_free(&f->rec[k]);
	tui_model_free(&m);
	free(f);
}

static void
test_time_ref(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	struct tui_cols	 c;

	(void)state;
	build(&m, f);
	tui_model_cols(&m, 3, &c);
	assert_string_equal(c.time, "0.001250");
	tui_model_move(&m, 2);
	assert_int_equal(tui_model_time_ref(&m), 1);
	assert_int_equal(m.tref, 2);
	tui_model_cols(&m, 2, &c);
	assert_string_equal(c.time, "*REF*");
	tui_model_cols(&m, 3, &c);
	assert_string_equal(c.time, "0.000250");
	tui_model_cols(&m, 0, &c);
	assert_string_equal(c.time, "-0.001000");
	/* another record moves it; the same one clears it */
	tui_model_move(&m, 1);
	assert_int_equal(tui_model_time_ref(&m), 1);
	assert_int_equal(m.tref, 3);
	tui_model_cols(&m, 2, &c);
	assert_string_equal(c.time, "-0.000250");
	assert_int_equal(tui_model_time_ref(&m), 0);
	assert_int_equal(m.tref, TI_NONE);
	tui_model_cols(&m, 3, &c);
	assert_string_equal(c.time, "0.001250");
	/* a bad time stamp is no reference */
	m.item[5].ts_ns = DEC_TS_BAD;
	tui_model_move(&m, 2);
	assert_int_equal(tui_model_time_ref(&m), -2);
	assert_int_equal(m.tref, TI_NONE);
	assert_int_equal(tui_model_set_filter(&m, "dev==99"), 0);
	assert_int_equal(tui_model_time_ref(&m), -1);
	unbuild(&m, f);
	free(f);
}

static void
test_events(void **state)
{
	struct tui_model m;
	struct drv_event ev;
	struct urb_rec	 r;
	struct sbuf	 b = { 0 };
	struct tui_cols	 c;

	(void)state;
	tui_model_init(&m, NULL, NULL);
	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_PROBE;
	ev.driver = "usb-skeleton";
	ev.devnum = 2;
	ev.busnum = 1;
	ev.recno = 1;
	assert_int_equal(tui_model_add_event(&m, &ev), 0);
	ev.kind = DRV_SUBMIT;
	ev.urb_id = 0xffff888000001000ULL;
	ev.recno = 3;
	memset(&r, 0, sizeof r);
	r.type = 'S';
	r.id = ev.urb_id;
	r.recno = 2;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
	assert_int_equal(tui_model_add_event(&m, &ev), 0);
	ev.kind = DRV_RULE;
	ev.driver = "usb-skeleton";
	ev.recno = 4;
	assert_int_equal(tui_model_add_event(&m, &ev), 0);
	assert_int_equal(m.nevent, 3);
	assert_int_equal(m.nerror, 1);
	assert_int_equal(m.ndrivers, 1);
	assert_string_equal(tui_model_driver(&m, 0), "usb-skeleton");
	assert_null(tui_model_driver(&m, 1));
	tui_model_cols(&m, 3, &c);
	assert_string_equal(c.ev, "drv");
	assert_string_equal(c.type, "RULE");
	assert_int_equal(tui_model_set_filter(&m, "event==probe"), 0);
	assert_int_equal(m.nvis, 1);
	assert_int_equal(tui_model_set_filter(&m, "driver==usb-skeleton"), 0);
	assert_int_equal(m.nvis, 3);
	assert_int_equal(tui_model_set_filter(&m,
	    "urb==0xffff888000001000"), 0);
	assert_int_equal(m.nvis, 3);		/* the URB, submit and rule */
	assert_int_equal(tui_model_summary(&m, 0, &b), -1);	/* no fetch */
	sb_free(&b);
	tui_model_free(&m);
}

/*
 * The latency column is the summary's latency, in the same words: a
 * completion 16333.185 s after its submit keeps its unit (it was cut to
 * "16333.185m"), and one of 0.251 ms reads as in `read`.
 */
static void
test_latency_column(void **state)
{
	static const int64_t lat[2] = { 16333185000000LL, 251000 };
	static const char *const want[2] = { "16333.185 s", "0.251 ms" };
	struct dec_ctx	*ctx = dec_ctx_new();
	struct tui_model m;
	struct fake	*f = calloc(1, sizeof *f);
	struct urb_rec	 r;
	struct dec_info	 info;
	struct tui_cols	 c;
	struct sbuf	 b = { 0 };
	int		 k, half;

	(void)state;
	assert_non_null(ctx);
	assert_non_null(f);
	tui_model_init(&m, fake_fetch, f);
	for (k = 0; k < 2; k++) {
		for (half = 0; half < 2; half++) {
			memset(&r, 0, sizeof r);
			r.id = 0xffff888000000100ULL + (uint64_t)k;
			r.type = half ? 'C' : 'S';
			r.busnum = 1;
			r.devnum = 2;
			r.epnum = 0x81;
			r.xfer_type = XFER_BULK;
			r.flag_setup = '-';
			r.flag_data = half ? 0 : '<';
			r.status = half ? 0 : URB_EINPROGRESS;
			r.len_urb = 4;
			r.ts_ns = 1000000000LL + half * lat[k];
			r.recno = (uint64_t)f->n + 1;
			assert_int_equal(dec_analyze(ctx, &r, &info), 0);
			assert_int_equal(dec_rec_copy(&f->rec[f->n], CAP_URB,
			    &r, &info, NULL), 0);
			f->n++;
			assert_int_equal(tui_model_add_urb(&m, &r, &info), 0);
		}
		tui_model_cols(&m, (uint32_t)(2 * k + 1), &c);
		assert_string_equal(c.lat, want[k]);
		b.len = 0;
		assert_int_equal(tui_model_summary(&m, (uint32_t)(2 * k + 1),
		    &b), 0);
		assert_non_null(strstr(b.s, c.lat));
	}
	sb_free(&b);
	dec_ctx_free(ctx);
	unbuild(&m, f);
	free(f);
}

/*
 * The status bar's counts: a URB is a transfer (its S, or a completion
 * whose submit is missing), not a record; an error is a failed transfer
 * (an E, an error status, an ISO frame in error), not a deliberate unlink
 * (-ENOENT from usb_kill_urb, -ECONNRESET from usb_unlink_urb).
 */
static void
test_counts(void **state)
{
	static const struct {
		uint8_t		 xfer;
		int32_t		 status;	/* of the completion */
		char		 end;		/* 'C', 'E'; 0: no submit */
		int32_t		 frame;		/* ISO: frame 1's status */
	} t[] = {
		{ XFER_BULK, 0, 'C', 0 },
		{ XFER_BULK, URB_ENOENT, 'C', 0 },
		{ XFER_INT, URB_ECONNRESET, 'C', 0 },
		{ XFER_BULK, -32, 'C', 0 },		/* -EPIPE */
		{ XFER_BULK, -19, 'E', 0 },		/* -ENODEV */
		{ XFER_ISO, 0, 'C', -71 },		/* -EPROTO */
		{ XFER_ISO, 0, 'C', 0 },
		{ XFER_BULK, 0, 0, 0 },		/* submit not captured */
	};
	struct dec_ctx	*ctx = dec_ctx_new();
	struct tui_model m;
	struct urb_rec	 r;
	struct dec_info	 info;
	struct urb_iso	 iso[2];
	size_t		 k;
	int		 half;

	(void)state;
	assert_non_null(ctx);
	tui_model_init(&m, NULL, NULL);
	for (k = 0; k < sizeof t / sizeof t[0]; k++) {
		for (half = t[k].end == 0; half < 2; half++) {
			memset(&r, 0, sizeof r);
			memset(iso, 0, sizeof iso);
			r.id = 0xffff888000000200ULL + k;
			r.type = half ? (t[k].end ? t[k].end : 'C') : 'S';
			r.busnum = 1;
			r.devnum = 3;
			r.epnum = 0x82;
			r.xfer_type = t[k].xfer;
			r.flag_setup = '-';
			r.status = half ? t[k].status : URB_EINPROGRESS;
			if (t[k].xfer == XFER_ISO) {
				iso[1].status = half ? t[k].frame :
				    URB_EINPROGRESS;
				r.iso = iso;
				r.niso = 2;
			}
			r.ts_ns = 1000000LL * (int64_t)(2 * k + half);
			r.recno = m.n + 1;
			assert_int_equal(dec_analyze(ctx, &r, &info), 0);
			assert_int_equal(tui_model_add_urb(&m, &r, &info), 0);
		}
	}
	assert_int_equal(m.nurb, sizeof t / sizeof t[0]);
	assert_int_equal(m.nerror, 3);		/* -EPIPE, E, the frame */
	tui_model_free(&m);
	dec_ctx_free(ctx);
}

/*
 * The live rate's window: a burst shows at once (it said 0/s right after
 * 186 records), a pause brings it to 0 (it said 117/s when nothing had
 * changed), a steady flow reads as itself.
 */
static void
test_rate(void **state)
{
	const int64_t	 s = 1000000000LL, t0 = 1000 * s;
	struct tui_rate	 r;
	uint64_t	 total = 0;
	int64_t		 t;

	(void)state;
	tui_rate_init(&r, t0, 0);
	assert_true(tui_rate_get(&r, t0) == 0);
	tui_rate_update(&r, t0 + s / 10, 186);
	assert_true(tui_rate_get(&r, t0 + s / 10) == 186);
	/* nothing new: the burst leaves the 2 s window */
	assert_true(tui_rate_get(&r, t0 + 3 * s) == 0);
	tui_rate_update(&r, t0 + 3 * s, 186);
	assert_true(tui_rate_get(&r, t0 + 3 * s) == 0);
	/* 50 records every 100 ms for 5 s: 500/s */
	total = 186;
	for (t = t0 + 3 * s; t < t0 + 8 * s; t += s / 10) {
		total += 50;
		tui_rate_update(&r, t, total);
	}
	assert_true(fabs(tui_rate_get(&r, t) - 500) < 30);
	/* a long pause (an hour): 0, and counting goes on after it */
	assert_true(tui_rate_get(&r, t + 3600 * s) == 0);
	tui_rate_update(&r, t + 3600 * s, total + 10);
	/* 10 in the window, which spans 1.75 s there */
	assert_true(fabs(tui_rate_get(&r, t + 3600 * s) - 10 / 1.75) < 0.01);
}

/* A URB's submit event: found for its S and, through the pair, its C;
 * not for a later life of the same URB id. */
static void
test_submitter(void **state)
{
	struct tui_model m;
	struct drv_event ev;
	struct urb_rec	 r;
	struct dec_info	 info;

	(void)state;
	tui_model_init(&m, NULL, NULL);
	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_SUBMIT;
	ev.driver = "usb-skeleton";
	ev.urb_id = 0x5e0000000100ULL;
	ev.recno = 1;
	assert_int_equal(tui_model_add_event(&m, &ev), 0);	/* 0 */
	memset(&r, 0, sizeof r);
	memset(&info, 0, sizeof info);
	r.type = 'S';
	r.id = ev.urb_id;
	r.recno = 2;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);	/* 1 */
	r.type = 'C';
	r.recno = 3;
	info.flags = DI_PAIRED;
	info.pair_recno = 2;
	assert_int_equal(tui_model_add_urb(&m, &r, &info), 0);	/* 2 */
	r.type = 'S';				/* resubmitted by the core */
	r.recno = 4;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);	/* 3 */
	assert_int_equal(tui_model_submitter(&m, 1), 0);
	assert_int_equal(tui_model_submitter(&m, 2), 0);
	assert_int_equal(tui_model_submitter(&m, 3), TI_NONE);
	assert_int_equal(tui_model_submitter(&m, 0), TI_NONE);	/* an event */
	tui_model_free(&m);
}

/* A failed submit is the call behind an 'S' only when the HCD refused
 * the URB after recording it ('S' then 'E', usbmon_urb_submit_error):
 * refused before (-EBUSY) it made no 'S', and the next 'S' of that id is
 * another call's, or another URB's at the freed address. */
static void
test_submitter_failed(void **state)
{
	struct tui_model m;
	struct drv_event ev;
	struct urb_rec	 r;
	struct dec_info	 info;

	(void)state;
	tui_model_init(&m, NULL, NULL);
	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_SUBMIT;
	ev.driver = "buggy";
	ev.urb_id = 0x5e0000000100ULL;
	ev.result = -16;			/* -EBUSY: no 'S' */
	ev.recno = 1;
	assert_int_equal(tui_model_add_event(&m, &ev), 0);	/* 0 */
	memset(&r, 0, sizeof r);
	memset(&info, 0, sizeof info);
	r.type = 'S';				/* the hub's, same address */
	r.id = ev.urb_id;
	r.recno = 2;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);	/* 1 */
	r.type = 'C';
	r.recno = 3;
	info.flags = DI_PAIRED;
	info.pair_recno = 2;
	assert_int_equal(tui_model_add_urb(&m, &r, &info), 0);	/* 2 */
	assert_int_equal(tui_model_submitter(&m, 1), TI_NONE);
	assert_int_equal(tui_model_submitter(&m, 2), TI_NONE);

	ev.result = -19;			/* -ENODEV from the HCD */
	ev.recno = 4;
	assert_int_equal(tui_model_add_event(&m, &ev), 0);	/* 3 */
	r.type = 'S';
	r.recno = 5;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);	/* 4 */
	r.type = 'E';
	r.recno = 6;
	info.pair_recno = 5;
	assert_int_equal(tui_model_add_urb(&m, &r, &info), 0);	/* 5 */
	assert_int_equal(tui_model_submitter(&m, 4), 3);
	assert_int_equal(tui_model_submitter(&m, 5), 3);
	tui_model_free(&m);
}

/*
 * Add record recno of an interrupt IN poll on 1.1.ep: URB id's submit
 * ('S'), or its completion ('C', of the submit of record pair) with
 * status and one byte of data.
 */
static void
add_poll(struct tui_model *m, int type, uint64_t id, uint64_t recno,
    uint64_t pair, uint8_t ep, int status, uint8_t byte)
{
	static uint8_t	 data[256];
	struct urb_rec	 r;
	struct dec_info	 info;

	memset(&r, 0, sizeof r);
	memset(&info, 0, sizeof info);
	r.type = (char)type;
	r.id = id;
	r.recno = recno;
	r.busnum = 1;
	r.devnum = 1;
	r.epnum = ep;
	r.xfer_type = XFER_INT;
	if (type == 'S') {
		r.status = URB_EINPROGRESS;
		r.len_urb = 8;
	} else {
		data[byte] = byte;
		r.status = status;
		r.len_urb = 1;
		r.data = &data[byte];
		r.data_len = 1;
		info.flags = DI_PAIRED;
		info.pair_recno = pair;
		info.pair_len = 8;
	}
	assert_int_equal(tui_model_add_urb(m, &r, &info), 0);
}

/* The transfers view: a submit with its completion in is hidden, one
 * still waiting shows until its completion comes, the filter applies as
 * well, and off shows every item again. */
/* How many records tui_model_record_next gives. */
static size_t
count_records(struct tui_model *m)
{
	size_t	 k = 0, n = 0;
	uint32_t i;

	while (tui_model_record_next(m, &k, &i))
		n++;
	return n;
}

static void
test_transfers(void **state)
{
	struct tui_model m;

	(void)state;
	tui_model_init(&m, NULL, NULL);
	add_poll(&m, 'S', 1, 1, 0, 0x81, 0, 0);		/* item 0 */
	add_poll(&m, 'S', 2, 2, 0, 0x81, 0, 0);		/* 1 */
	add_poll(&m, 'C', 1, 3, 1, 0x81, 0, 1);		/* 2 */
	assert_int_equal(tui_model_set_transfers(&m, 1), 0);
	assert_int_equal(m.nvis, 2);
	assert_int_equal(tui_model_vis(&m, 0), 1);
	assert_int_equal(tui_model_vis(&m, 1), 2);
	assert_int_equal(tui_model_select_item(&m, 1), 0);
	/* the waiting submit completes: its row goes, the selection moves
	 * on to the next shown */
	add_poll(&m, 'C', 2, 4, 2, 0x81, 0, 2);		/* 3 */
	assert_int_equal(m.nvis, 2);
	assert_int_equal(tui_model_vis(&m, 0), 2);
	assert_int_equal(tui_model_vis(&m, 1), 3);
	assert_int_equal(tui_model_selected(&m), 2);
	assert_int_equal(tui_model_pair(&m), -2);	/* hidden */
	assert_int_equal(tui_model_set_filter(&m, "urb==2"), 0);
	assert_int_equal(m.nvis, 1);
	assert_int_equal(tui_model_vis(&m, 0), 3);
	assert_int_equal(tui_model_set_filter(&m, ""), 0);
	assert_int_equal(m.nvis, 2);
	/* two rows stand for the four records: save and statistics take
	 * them all, and what a filter passes of them */
	assert_int_equal(count_records(&m), 4);
	assert_int_equal(tui_model_set_filter(&m, "urb==2"), 0);
	assert_int_equal(count_records(&m), 2);
	assert_int_equal(tui_model_set_filter(&m, ""), 0);
	assert_int_equal(tui_model_set_transfers(&m, 0), 0);
	assert_int_equal(m.nvis, 4);
	assert_true(m.all);
	assert_int_equal(count_records(&m), 4);
	tui_model_free(&m);
}

/* Poll k (from 1) on ep with status and data: records 2k-1 and 2k, items
 * 2k-2 (the submit) and 2k-1. */
static void
poll_once(struct tui_model *m, uint64_t k, uint8_t ep, int status,
    uint8_t byte)
{
	add_poll(m, 'S', k, 2 * k - 1, 0, ep, 0, 0);
	add_poll(m, 'C', k, 2 * k, 2 * k - 1, ep, status, byte);
}

/*
 * Polls 1-3 answer 1, 4-5 answer 2, poll 6 is on another endpoint,
 * poll 7 answers 2 again and poll 8 fails: the completions are items 1,
 * 3, ... 15.
 */
static void
polls(struct tui_model *m)
{
	poll_once(m, 1, 0x81, 0, 1);
	poll_once(m, 2, 0x81, 0, 1);
	poll_once(m, 3, 0x81, 0, 1);
	poll_once(m, 4, 0x81, 0, 2);
	poll_once(m, 5, 0x81, 0, 2);
	poll_once(m, 6, 0x82, 0, 2);
	poll_once(m, 7, 0x81, 0, 2);
	poll_once(m, 8, 0x81, -32, 2);
}

/* The rows shown and the runs they stand for, as "item*run ...". */
static void
assert_rows(const struct tui_model *m, const char *want)
{
	char	 got[256];
	size_t	 k, len = 0;

	got[0] = '\0';
	for (k = 0; k < m->nvis && len < sizeof got; k++)
		len += (size_t)snprintf(got + len, sizeof got - len, "%s%u*%u",
		    k ? " " : "", tui_model_vis(m, k), tui_model_run(m, k));
	assert_string_equal(got, want);
}

/* Go to record recno: rc, and item sel selected. */
static void
assert_goto(struct tui_model *m, uint64_t recno, int rc, uint32_t sel)
{
	assert_int_equal(tui_model_goto(m, recno), rc);
	assert_int_equal(tui_model_selected(m), sel);
}

/* A model with the transfers view on from the start, items to come. */
static void
live_model(struct tui_model *m)
{
	tui_model_init(m, NULL, NULL);
	assert_int_equal(tui_model_set_transfers(m, 1), 0);
}

/*
 * The transfers view folds a run of identical completions on one
 * endpoint into its first row with the count; other data, another
 * endpoint or status breaks the run; the filter folds among what it
 * shows; going to a folded record selects its run's row; off shows
 * every item again.
 */
static void
test_transfers_fold(void **state)
{
	struct tui_model m;

	(void)state;
	tui_model_init(&m, NULL, NULL);
	polls(&m);
	assert_int_equal(tui_model_set_transfers(&m, 1), 0);
	assert_rows(&m, "1*3 7*2 11*1 13*1 15*1");
	tui_model_set_rows(&m, 10);
	/* a folded record is hidden as the filter hides: :N goes to the
	 * run's row */
	assert_goto(&m, 6, 1, 1);	/* item 5: poll 3 */
	assert_goto(&m, 10, 1, 7);	/* poll 5 */
	assert_int_equal(tui_model_select_item(&m, 9), -1);
	tui_model_home(&m);
	tui_model_move(&m, 1);
	assert_int_equal(tui_model_selected(&m), 7);
	tui_model_move(&m, 1);
	assert_int_equal(tui_model_selected(&m), 11);
	assert_int_equal(tui_model_pair(&m), -2);	/* its submit */
	/* without poll 6's endpoint poll 7 joins polls 4 and 5 */
	assert_int_equal(tui_model_set_filter(&m, "urb!=6"), 0);
	assert_rows(&m, "1*3 7*3 15*1");
	assert_goto(&m, 14, 1, 7);	/* poll 7 */
	assert_int_equal(tui_model_set_filter(&m, "urb>=2"), 0);
	assert_rows(&m, "3*2 7*2 11*1 13*1 15*1");
	assert_int_equal(tui_model_set_filter(&m, ""), 0);
	assert_rows(&m, "1*3 7*2 11*1 13*1 15*1");
	assert_true(tui_model_bytes(&m) >= 16 * (28 + 8) + 5 * 8);
	assert_int_equal(tui_model_set_transfers(&m, 0), 0);
	assert_true(m.all);
	assert_int_equal(m.nvis, 16);
	assert_int_equal(tui_model_run(&m, 1), 1);
	assert_goto(&m, 6, 0, 5);
	tui_model_free(&m);
}

/*
 * Folding while items come: the same rows as all at once, and a poll
 * whose next URB was submitted before it completed (the submit shown
 * between two completions) joins the run once that submit completes.
 */
static void
test_transfers_fold_live(void **state)
{
	struct tui_model m;

	(void)state;
	live_model(&m);
	tui_model_set_follow(&m, 1);
	polls(&m);
	assert_rows(&m, "1*3 7*2 11*1 13*1 15*1");
	assert_int_equal(tui_model_selected(&m), 15);
	tui_model_free(&m);

	live_model(&m);
	add_poll(&m, 'S', 1, 1, 0, 0x81, 0, 0);		/* item 0 */
	add_poll(&m, 'S', 2, 2, 0, 0x81, 0, 0);		/* 1 */
	add_poll(&m, 'C', 1, 3, 1, 0x81, 0, 1);		/* 2 */
	add_poll(&m, 'S', 3, 4, 0, 0x81, 0, 0);		/* 3 */
	add_poll(&m, 'C', 2, 5, 2, 0x81, 0, 1);		/* 4 */
	assert_rows(&m, "2*1 3*1 4*1");
	assert_int_equal(tui_model_select_item(&m, 4), 0);
	add_poll(&m, 'S', 4, 6, 0, 0x81, 0, 0);		/* 5 */
	add_poll(&m, 'C', 3, 7, 4, 0x81, 0, 1);		/* 6 */
	assert_rows(&m, "2*2 5*1 6*1");
	assert_int_equal(tui_model_selected(&m), 2);	/* 4's run */
	add_poll(&m, 'C', 4, 8, 6, 0x81, 0, 1);		/* 7 */
	assert_rows(&m, "2*4");
	assert_goto(&m, 7, 1, 2);
	tui_model_free(&m);
}

/* The real store: a sample read once, then records read again. */
static void
test_store(void **state)
{
	struct tui_model m;
	struct tui_store *st;
	const struct dec_rec *rec;
	struct sbuf	 b = { 0 }, want = { 0 };
	char		 err[600];
	FILE		*fp;
	char		 line[1024];
	int		 saved, fd, rc;

	(void)state;
	assert_int_equal(tui_store_open("samples/mass-storage.pcapng", &st,
	    err, sizeof err), 0);
	tui_model_init(&m, tui_store_fetch, st);
	assert_int_equal(tui_store_load(st, &m, NULL, NULL, err, sizeof err),
	    0);
	assert_true(m.n > 100);
	print_message("# %zu items, index %zu bytes (%.1f per item), store "
	    "%zu bytes\n", m.n, tui_model_bytes(&m),
	    (double)tui_model_bytes(&m) / (double)m.n, tui_store_bytes(st));
	/* the summary of the last record equals what read prints */
	tui_model_end(&m);
	assert_int_equal(tui_model_summary(&m, (uint32_t)m.n - 1, &b), 0);
	fp = popen("build/asan/urbscope read samples/mass-storage.pcapng "
	    "2>/dev/null | tail -n 1", "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof line, fp));
	pclose(fp);
	line[strcspn(line, "\n")] = '\0';
	assert_non_null(strstr(line, b.s));
	/* back to the start, then forward again: same record */
	rec = tui_store_fetch(st, 1);
	assert_non_null(rec);
	assert_int_equal(rec->r.recno, 1);
	dec_fmt_summary(&m.fmt, &rec->r, &rec->info, &want);
	rec = tui_store_fetch(st, m.n);
	assert_non_null(rec);
	assert_int_equal(rec->r.recno, m.n);
	rec = tui_store_fetch(st, 1);
	assert_non_null(rec);
	b.len = 0;
	dec_fmt_summary(&m.fmt, &rec->r, &rec->info, &b);
	assert_string_equal(b.s, want.s);
	assert_null(tui_store_fetch(st, m.n + 1));
	assert_null(tui_store_fetch(st, 0));
	sb_free(&b);
	sb_free(&want);
	tui_model_free(&m);
	tui_store_free(st);
	/* "-": standard input, copied to a file the store can read again
	 * (whatever the test's own standard input is) */
	saved = dup(STDIN_FILENO);
	assert_true(saved >= 0);
	fd = open("samples/stall.pcap", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	rc = tui_store_open("-", &st, err, sizeof err);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	assert_int_equal(rc, 0);
	tui_store_free(st);
}

/* Write a capture of n bulk records (odd S, even C with 64 bytes). */
static void
write_capture_as(const char *path, uint64_t n, const char *format)
{
	struct cap_sink	*sink;
	struct urb_rec	 r;
	uint8_t		 data[64];
	char		 err[600];
	uint64_t	 i;

	assert_int_equal(cap_sink_open(path, format, NULL, &sink, err,
	    sizeof err), 0);
	for (i = 1; i <= n; i++) {
		memset(&r, 0, sizeof r);
		r.id = 0xffff888000000000ULL + ((i + 1) / 2) * 0x40;
		r.type = i % 2 ? 'S' : 'C';
		r.xfer_type = XFER_BULK;
		r.epnum = 0x81;
		r.devnum = 2;
		r.busnum = 1;
		r.flag_setup = '-';
		r.flag_data = i % 2 ? '<' : 0;
		r.status = i % 2 ? URB_EINPROGRESS : 0;
		r.len_urb = 64;
		r.ts_sec = 1700000000 + (int64_t)(i / 1000);
		r.ts_usec = (int32_t)(i % 1000) * 1000;
		r.ts_ns = r.ts_sec * 1000000000LL + r.ts_usec * 1000LL;
		if (!(i % 2)) {
			memset(data, (int)(i & 0xff), sizeof data);
			r.data = data;
			r.data_len = sizeof data;
			r.len_cap = sizeof data;
		}
		assert_int_equal(cap_sink_write(sink, &r), 0);
	}
	assert_int_equal(cap_sink_close(sink, err, sizeof err), 0);
}

static void
write_capture(const char *path, uint64_t n)
{
	write_capture_as(path, n, "pcap");
}

/*
 * The store's window on a file bigger than it: forward moves continue the
 * replay, going back replays from the start, every record comes back as
 * it was written.
 */
static void
test_store_window(void **state)
{
	struct tui_store *st;
	struct tui_model m;
	const struct dec_rec *rec;
	char		 path[] = "/tmp/urbscope-tui-XXXXXX", err[600];
	uint64_t	 n = 10000, i, replays;
	int		 fd;

	(void)state;
	assert_true((fd = mkstemp(path)) >= 0);
	close(fd);
	write_capture(path, n);

	assert_int_equal(tui_store_open(path, &st, err, sizeof err), 0);
	tui_model_init(&m, tui_store_fetch, st);
	assert_int_equal(tui_store_load(st, &m, NULL, NULL, err, sizeof err),
	    0);
	assert_int_equal(m.n, n);
	assert_int_equal(m.item[1].pair, 0);
	replays = tui_store_replays(st);
	/* the first screen comes from the load, no replay */
	assert_non_null(rec = tui_store_fetch(st, 2));
	assert_int_equal(rec->r.data[0], 2);
	assert_int_equal(tui_store_replays(st), replays);
	/* far forward: one replay, then neighbours and onwards are free */
	assert_non_null(rec = tui_store_fetch(st, 8000));
	assert_int_equal(rec->r.recno, 8000);
	assert_int_equal(rec->r.data[0], 8000 & 0xff);
	assert_int_equal(rec->info.flags & DI_PAIRED, DI_PAIRED);
	assert_int_equal(rec->info.pair_recno, 7999);
	assert_int_equal(tui_store_replays(st), replays + 1);
	for (i = 7990; i <= n; i++) {
		assert_non_null(rec = tui_store_fetch(st, i));
		assert_int_equal(rec->r.recno, i);
	}
	assert_int_equal(tui_store_replays(st), replays + 1);
	/* back: a replay from the start, the window mostly before it */
	assert_non_null(rec = tui_store_fetch(st, 3000));
	assert_int_equal(rec->r.recno, 3000);
	assert_int_equal(tui_store_replays(st), replays + 2);
	for (i = 3000; i > 2000; i--)
		assert_int_equal(tui_store_fetch(st, i)->r.recno, i);
	assert_int_equal(tui_store_replays(st), replays + 2);
	/* search through everything costs at most a few replays */
	tui_model_set_rows(&m, 20);
	assert_int_equal(tui_model_search(&m, "no such text", 1), -1);
	assert_true(tui_store_replays(st) <= replays + 4);
	/* with a cursor of its own, a search leaves the view's window */
	m.scan = tui_store_scan;
	assert_non_null(tui_store_fetch(st, 5000));
	replays = tui_store_replays(st);
	assert_int_equal(tui_model_search(&m, "no such text", 1), -1);
	assert_true(tui_store_replays(st) <= replays + 2);
	replays = tui_store_replays(st);
	assert_int_equal(tui_store_fetch(st, 5000)->r.recno, 5000);
	assert_int_equal(tui_store_replays(st), replays);
	print_message("# %llu items: index %.1f bytes per item\n",
	    (unsigned long long)n, (double)tui_model_bytes(&m) / (double)n);
	/*
	 * The worst case: every URB its own id (8 bytes and a hash slot a
	 * pair on top of 32 + 4).  Real captures reuse a few URBs: 36.0.
	 */
	assert_true(tui_model_bytes(&m) / n <= 48);
	tui_model_free(&m);
	tui_store_free(st);
	unlink(path);
}

/*
 * Checkpoints: on a file of 100k records, reaching a record far from the
 * window replays from the checkpoint before it (at most 4096 records and
 * a window away), going back too, and what comes back is exactly what a
 * replay from record 1 gives: the record, its pairing, its latency.
 */
static void
test_store_checkpoints(void **state)
{
	static const uint64_t at[] = { 90001, 90002, 20002, 99999, 3, 65537,
	    65536, 50000 };
	struct tui_store *st;
	struct tui_model m;
	const struct dec_rec *rec;
	char		 path[] = "/tmp/urbscope-tui-XXXXXX", err[600];
	static const char *const formats[] = { "pcap", "pcapng", "usbmon" };
	uint64_t	 n = 100000, before;
	size_t		 k, f;
	int		 fd;

	(void)state;
	for (f = 0; f < sizeof formats / sizeof formats[0]; f++) {
		assert_true((fd = mkstemp(path)) >= 0);
		close(fd);
		write_capture_as(path, n, formats[f]);
		assert_int_equal(tui_store_open(path, &st, err, sizeof err), 0);
		tui_model_init(&m, tui_store_fetch, st);
		assert_int_equal(tui_store_load(st, &m, NULL, NULL, err,
		    sizeof err), 0);
		assert_int_equal(m.n, n);
		for (k = 0; k < sizeof at / sizeof at[0]; k++) {
			before = tui_store_replayed(st);
			assert_non_null(rec = tui_store_fetch(st, at[k]));
			assert_int_equal(rec->r.recno, at[k]);
			if (at[k] % 2 == 0) {
				assert_int_equal(rec->r.data[0], at[k] & 0xff);
				assert_int_equal(rec->info.flags & DI_PAIRED,
				    DI_PAIRED);
				assert_int_equal(rec->info.pair_recno,
				    at[k] - 1);
				assert_int_equal(rec->info.latency_ns,
				    tui_model_latency(&m,
				    (uint32_t)(at[k] - 1)));
			}
			/* a checkpoint every 4096, a window of 2048 */
			assert_true(tui_store_replayed(st) - before <=
			    4096 + 2048);
	}
	tui_model_free(&m);
	tui_store_free(st);
	unlink(path);
	memcpy(path + strlen(path) - 6, "XXXXXX", 6);
	}
}

/*
 * A filter over a big index runs in steps: the first fsync items at
 * once, the rest as the loop calls it; items added meanwhile wait their
 * turn; the selection lands on the item it was on (or the next passing).
 */
static void
test_filter_incremental(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	struct urb_rec	 r;

	(void)state;
	build(&m, f);
	tui_model_set_rows(&m, 10);
	assert_int_equal(tui_model_select_item(&m, 120), 0);	/* an S */
	m.fsync = 50;
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	assert_int_equal(m.fpos, 50);
	assert_int_equal(m.nvis, 25);
	assert_int_equal(tui_model_filter_step(&m, 60), 1);
	assert_int_equal(m.fpos, 110);
	assert_int_equal(m.nvis, 55);
	/* an item indexed while the filter runs waits for it */
	memset(&r, 0, sizeof r);
	r.type = 'C';
	r.id = 7;
	r.recno = NREC + 1;
	r.ts_ns = 2000000000LL;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
	assert_int_equal(m.nvis, 55);
	assert_int_equal(tui_model_filter_step(&m, 1000), 0);
	assert_int_equal(m.fpos, m.n);
	assert_int_equal(m.nvis, NREC / 2 + 1);
	assert_int_equal(tui_model_selected(&m), 121);
	assert_true(m.sel >= m.top && m.sel < m.top + m.rows);
	/* caught up: new items are filtered as they come */
	r.recno++;
	r.type = 'S';
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
	r.recno++;
	r.type = 'C';
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
	assert_int_equal(m.nvis, NREC / 2 + 2);
	/* moving while a filter runs keeps the user's choice */
	assert_int_equal(tui_model_set_filter(&m, "ev==S"), 0);
	tui_model_home(&m);
	assert_int_equal(tui_model_filter_step(&m, 1000), 0);
	assert_int_equal(m.sel, 0);
	unbuild(&m, f);
	free(f);
}

/*
 * Saving what is shown ('w'): a filter still running is finished first,
 * the file holds the items the view passes, in order, and an empty view
 * or a name that cannot be created writes nothing.
 */
static void
test_save(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	struct cap_pipe	 pipe;
	char		 path[64], bad[128], err[600];
	uint64_t	 n, dropped, got = 0;
	int		 fd, rc;

	(void)state;
	snprintf(path, sizeof path, "/tmp/urbscope-save.XXXXXX");
	assert_true((fd = mkstemp(path)) >= 0);
	close(fd);
	build(&m, f);
	m.fsync = 10;			/* the rest is left for steps */
	assert_int_equal(tui_model_set_filter(&m, "dev==2 && ev==C"), 0);
	assert_true(m.fpos < m.n);
	assert_int_equal(tui_model_save(&m, path, &n, &dropped, err,
	    sizeof err), 0);
	assert_int_equal(m.fpos, m.n);
	assert_int_equal(n, m.nvis);
	assert_int_equal(dropped, 0);
	/* transfers 1, 6, ... 96 and 60: 21 completions */
	assert_int_equal(n, 21);
	assert_int_equal(cap_pipe_open(&pipe, path, 0, err, sizeof err), 0);
	while ((rc = cap_pipe_next(&pipe)) == CAP_URB) {
		assert_int_equal(pipe.r.devnum, 2);
		assert_int_equal(pipe.r.type, 'C');
		got++;
	}
	assert_int_equal(rc, CAP_END);
	assert_int_equal(got, 21);
	cap_pipe_close(&pipe);
	unlink(path);
	/* nothing shown, nothing written */
	assert_int_equal(tui_model_set_filter(&m, "dev==9"), 0);
	assert_int_equal(tui_model_save(&m, path, &n, &dropped, err,
	    sizeof err), -UE_USAGE);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(tui_model_set_filter(&m, ""), 0);
	snprintf(bad, sizeof bad, "%s/no/such/dir.pcapng", path);
	assert_true(tui_model_save(&m, bad, &n, &dropped, err,
	    sizeof err) < 0);
	assert_non_null(strstr(err, "cannot create"));
	unbuild(&m, f);
	free(f);
}

/* Follow keeps the newest item selected as items and filter steps come. */
static void
test_follow_incremental(void **state)
{
	struct tui_model m;
	struct fake	*f = malloc(sizeof *f);
	struct urb_rec	 r;
	int		 k;

	(void)state;
	build(&m, f);
	tui_model_set_rows(&m, 10);
	tui_model_set_follow(&m, 1);
	m.fsync = 30;
	assert_int_equal(tui_model_set_filter(&m, "ev==C"), 0);
	assert_int_equal(m.sel, m.nvis - 1);
	while (tui_model_filter_step(&m, 7) > 0)
		assert_int_equal(m.sel, m.nvis - 1);
	assert_int_equal(tui_model_selected(&m), NREC - 1);
	memset(&r, 0, sizeof r);
	r.id = 9;
	r.ts_ns = 2000000000LL;
	for (k = 0; k < 40; k++) {
		r.type = k % 2 ? 'C' : 'S';
		r.recno = NREC + 1 + (uint64_t)k;
		assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
		assert_int_equal(m.sel, m.nvis - 1);
		assert_true(m.sel >= m.top && m.sel < m.top + m.rows);
	}
	/* scrolling up stops following; new items leave the view alone */
	tui_model_page(&m, 0);
	assert_false(m.follow);
	k = (int)m.sel;
	r.recno++;
	assert_int_equal(tui_model_add_urb(&m, &r, NULL), 0);
	assert_int_equal(m.sel, (size_t)k);
	/* a click on a row selects it, and on the last keeps following */
	assert_int_equal(tui_model_select_row(&m, 2), 0);
	assert_int_equal(m.sel, m.top + 2);
	assert_int_equal(tui_model_select_row(&m, 100), -1);
	tui_model_set_follow(&m, 1);
	assert_int_equal(m.sel, m.nvis - 1);
	unbuild(&m, f);
	free(f);
}

/* Where a click lands: the pane and the row inside it. */
static void
test_layout_hit(void **state)
{
	struct tui_layout l;
	int	 row = -1, p;

	(void)state;
	tui_layout(24, 80, &l);
	/* timeline rows 0..8 (header on 0), rule, details, rule, hex,
	 * status and prompt rows 22 and 23 */
	assert_int_equal(tui_layout_hit(&l, 0, 5, &row), 0);
	assert_int_equal(row, 0);
	assert_int_equal(tui_layout_hit(&l, 3, 79, &row), 0);
	assert_int_equal(row, 3);
	assert_int_equal(tui_layout_hit(&l, l.rule[1], 3, &row), -1);
	p = tui_layout_hit(&l, l.rule[1] + 1, 3, &row);
	assert_int_equal(p, 1);
	assert_int_equal(row, 0);
	assert_int_equal(tui_layout_hit(&l, l.pane[2].y + 1, 0, &row), 2);
	assert_int_equal(row, 1);
	assert_int_equal(tui_layout_hit(&l, 22, 0, &row), -1);
	assert_int_equal(tui_layout_hit(&l, 23, 0, &row), -1);
	assert_int_equal(tui_layout_hit(&l, 3, 80, &row), -1);
	assert_int_equal(l.status.y, 22);
	assert_true(l.pane[2].y + l.pane[2].h <= l.status.y);
}

/*
 * Indexing in slices: a slice with no time left still indexes a batch,
 * the progress is in bytes of the file, records already indexed can be
 * read while the rest is not, and the end says so.
 */
static void
test_store_incremental(void **state)
{
	struct tui_store *st;
	struct tui_model m;
	const struct dec_rec *rec;
	char		 path[] = "/tmp/urbscope-tui-XXXXXX", err[600];
	uint64_t	 n = 20000, done, total, last = 0;
	int		 fd, rc, slices = 0;

	(void)state;
	assert_true((fd = mkstemp(path)) >= 0);
	close(fd);
	write_capture(path, n);
	assert_int_equal(tui_store_open(path, &st, err, sizeof err), 0);
	assert_int_equal(tui_store_live(st), 0);
	tui_model_init(&m, tui_store_fetch, st);
	assert_int_equal(tui_store_index(st, &m, 0, 0, err, sizeof err),
	    TUI_LOAD_MORE);
	assert_true(m.n >= 256 && m.n < n);
	assert_int_equal(tui_store_progress(st, &done, &total), 1);
	assert_true(done > 0 && done < total);
	/* the first records and the newest indexed, mid-way */
	assert_non_null(rec = tui_store_fetch(st, 2));
	assert_int_equal(rec->r.data[0], 2);
	assert_non_null(rec = tui_store_fetch(st, m.n));
	assert_int_equal(rec->r.recno, m.n);
	while ((rc = tui_store_index(st, &m, 0, 0, err, sizeof err)) ==
	    TUI_LOAD_MORE) {
		assert_true(m.n > last);
		last = m.n;
		slices++;
	}
	assert_int_equal(rc, TUI_LOAD_DONE);
	assert_int_equal(m.n, n);
	assert_true(slices > 10);
	assert_int_equal(tui_store_progress(st, &done, &total), 0);
	assert_int_equal(tui_store_index(st, &m, 0, 0, err, sizeof err),
	    TUI_LOAD_DONE);
	assert_non_null(rec = tui_store_fetch(st, n));
	assert_int_equal(rec->r.data[0], n & 0xff);
	tui_model_free(&m);
	tui_store_free(st);
	unlink(path);
}

/*
 * A paced simulation is live: records come as the wall clock reaches
 * their virtual time (CAP_AGAIN in between), are spooled to a temporary
 * file, read back from it like a file's, and the spool goes at the end.
 */
static void
test_store_paced(void **state)
{
	struct tui_store *st;
	struct tui_model m;
	const struct dec_rec *rec;
	struct cap_stats cs;
	struct timespec	 t0, t1;
	struct sbuf	 a = { 0 };
	char		 err[600];
	int		 rc, again = 0;
	uint64_t	 i;
	double		 secs, span;
	FILE		*fp;
	char		 line[1024];

	(void)state;
	assert_int_equal(tui_store_open("sim:skeleton", &st, err,
	    sizeof err), 0);
	assert_int_equal(tui_store_live(st), 0);
	assert_int_equal(tui_store_pace(st, err, sizeof err), 0);
	assert_int_equal(tui_store_live(st), 1);
	tui_model_init(&m, tui_store_fetch, st);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((rc = tui_store_index(st, &m, 5000000, 0, err, sizeof err)) >
	    0) {
		if (rc == TUI_LOAD_AGAIN)
			again++;
		/* what is indexed is there to read, mid-way too */
		if (m.n > 0 && again == 3) {
			assert_non_null(rec = tui_store_fetch(st, m.n));
			assert_int_equal(rec->kind == CAP_URB ?
			    rec->r.recno : rec->ev.recno, m.n);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(rc, TUI_LOAD_DONE);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	span = (double)(m.item[m.n - 1].ts_ns - m.item[0].ts_ns) / 1e9;
	print_message("# paced: %zu items over %.3f s virtual in %.3f s, "
	    "%d waits\n", m.n, span, secs, again);
	assert_true(again > 0);
	assert_true(secs >= span * 0.9);
	tui_store_stats(st, &cs);
	assert_int_equal(cs.received, m.n);
	assert_int_equal(cs.dropped, 0);
	/* the spool reads back every record as `read` prints it */
	fp = popen("build/asan/urbscope read sim:skeleton 2>/dev/null | "
	    "tail -n 1", "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof line, fp));
	pclose(fp);
	assert_int_equal(tui_model_line(&m, (uint32_t)m.n - 1, &a), 0);
	line[strcspn(line, "\n")] = '\0';
	assert_non_null(strstr(line, a.s + strcspn(a.s, "[")));
	for (i = 1; i <= m.n; i++)
		assert_non_null(tui_store_fetch(st, i));
	sb_free(&a);
	tui_model_free(&m);
	tui_store_free(st);
	/* an unpaced simulation, and a file, are not live */
	assert_int_equal(tui_store_open("samples/stall.pcap", &st, err,
	    sizeof err), 0);
	assert_int_equal(tui_store_pace(st, err, sizeof err), 1);
	assert_int_equal(tui_store_live(st), 0);
	tui_store_free(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_navigation),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_search_kind),
		cmocka_unit_test(test_search_bytes),
		cmocka_unit_test(test_search_filter),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_goto),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_transfers_fold),
		cmocka_unit_test(test_transfers_fold_live),
		cmocka_unit_test(test_time_ref),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_submitter),
		cmocka_unit_test(test_latency_column),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_submitter_failed),
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_store_window),
		cmocka_unit_test(test_store_checkpoints),
		cmocka_unit_test(test_filter_incremental),
		cmocka_unit_test(test_save),
		cmocka_unit_test(test_transfers),
		cmocka_unit_test(test_follow_incremental),
		cmocka_unit_test(test_layout_hit),
		cmocka_unit_test(test_store_incremental),
		cmocka_unit_test(test_store_paced),
	};

	sim_register(&sample_catalog);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
