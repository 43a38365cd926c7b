/*
 * tests/unit/test-filter.c - the display filter language: grammar,
 * precedence, every field and operator, error columns, and random garbage
 * that must never crash or overrun the node array.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "decode/decode.h"

static struct dec_fnode nodes[64];

static struct dec_fvals
urb(uint8_t ev, uint8_t xfer, uint8_t ep, int32_t status, uint32_t len,
    int64_t lat_ns)
{
	struct dec_fvals v;

	memset(&v, 0, sizeof v);
	v.busnum = 1;
	v.devnum = 3;
	v.ep = ep;
	v.xfer = xfer;
	v.ev = ev;
	v.status = status;
	v.len = len;
	v.latency_ns = lat_ns;
	v.urb = 0xffff888012345600ULL;
	v.has_urb = 1;
	return v;
}

static struct dec_fvals
event(int kind, const char *driver)
{
	struct dec_fvals v;

	memset(&v, 0, sizeof v);
	v.is_event = 1;
	v.busnum = 1;
	v.devnum = 3;
	v.event = kind;
	v.driver = driver;
	v.latency_ns = -1;
	v.urb = 0xffff888012345600ULL;
	v.has_urb = 1;
	return v;
}

/* Compile expr (must succeed) and match v. */
static int
m(const char *expr, const struct dec_fvals *v)
{
	struct dec_filter f = { .node = nodes, .max = 64 };
	int	 rc = dec_filter_compile(&f, expr), yes;

	if (rc != 0)
		fail_msg("'%s' does not compile: %s", expr, f.err);
	yes = dec_filter_match(&f, v);
	dec_filter_free(&f);
	return yes;
}

/* in {...}: a test of the field per member, a range per pair */
static void
test_sets(void **state)
{
	struct dec_fvals v = urb('C', XFER_BULK, 0x81, 0, 13, 1000);

	(void)state;
	assert_true(m("dev in {1 3}", &v));
	assert_true(m("dev in {1, 3}", &v));
	assert_false(m("dev in {1, 2, 4}", &v));
	assert_true(m("dev in {1..3}", &v));
	assert_false(m("dev in {4..9, 1}", &v));
	assert_true(m("len in {1..5, 13}", &v));
	assert_true(m("!(bus in {2..9}) && type in {bulk int}", &v));
	assert_true(m("frame", &v));
}

/* Compile expr (must fail) and return the error. */
static const char *
bad(const char *expr, int col)
{
	static struct dec_filter f;

	f.node = nodes;
	f.max = 64;
	assert_int_equal(dec_filter_compile(&f, expr), -UE_SYNTAX);
	if (f.col != col)
		fail_msg("'%s': column %d, want %d (%s)", expr, f.col, col,
		    f.err);
	return f.err;
}

static void
test_fields(void **state)
{
	struct dec_fvals s = urb('S', XFER_BULK, 0x81, -115, 512, -1);
	struct dec_fvals c = urb('C', XFER_BULK, 0x81, -32, 13, 250000);
	struct dec_fvals o = urb('C', XFER_CTRL, 0x00, 0, 0, 2000000);
	struct dec_fvals e = event(DRV_PROBE, "usb-storage");

	(void)state;
	assert_true(m("dev==3", &s));
	assert_false(m("dev!=3", &s));
	assert_true(m("bus==1", &s));
	assert_true(m("ep==1", &s));
	assert_true(m("ep==0x81", &s));
	assert_true(m("ep==0x01", &s));	/* a number: either direction */
	assert_false(m("ep==0x02", &s));
	assert_false(m("ep==0x01 && dir==out", &s));
	assert_true(m("type==bulk", &s));
	assert_true(m("type==ctrl", &o));
	assert_true(m("type == control", &o));
	assert_false(m("type==iso", &o));
	assert_true(m("type!=int", &o));
	assert_true(m("dir==in", &s));
	assert_true(m("dir==out", &o));
	assert_true(m("ev==S", &s));
	assert_true(m("ev==c", &c));
	assert_false(m("ev==E", &c));
	assert_true(m("status==-32", &c));
	assert_true(m("status==EPIPE", &c));
	assert_true(m("status==-EPIPE", &c));
	assert_true(m("status!=0", &c));
	assert_true(m("status==0", &o));
	assert_true(m("status<0", &c));
	assert_true(m("len>=512", &s));
	assert_true(m("len<14", &c));
	assert_true(m("len<=13", &c));
	assert_false(m("len>13", &c));
	assert_true(m("latency>200us", &c));
	assert_true(m("latency<1ms", &c));
	assert_true(m("latency==250", &c));	/* bare: microseconds */
	assert_true(m("latency>=2ms", &o));
	assert_true(m("latency<1s", &o));
	assert_true(m("latency==2000000ns", &o));
	assert_false(m("latency>0", &s));	/* submits have none */
	assert_false(m("latency<1000s", &s));
	assert_true(m("urb==0xffff888012345600", &s));
	assert_false(m("urb!=0xffff888012345600", &s));
	assert_true(m("driver==usb-storage", &e));
	assert_true(m("driver==\"usb-storage\"", &e));
	assert_false(m("driver==usbhid", &e));
	assert_true(m("driver!=usbhid", &e));
	assert_false(m("driver==usbhid", &s));	/* URBs have no driver */
	assert_false(m("driver!=usbhid", &s));
	assert_true(m("event==probe", &e));
	assert_false(m("event==submit", &e));
	assert_false(m("event==probe", &s));
	assert_false(m("type==bulk", &e));	/* events have no type */
	assert_true(m("urb==0xffff888012345600", &e));
	assert_true(m("", &s));
	assert_true(m("   ", &e));
}

static void
test_precedence(void **state)
{
	struct dec_fvals c = urb('C', XFER_BULK, 0x81, -32, 13, 250000);

	(void)state;
	/* && binds tighter than || */
	assert_true(m("dev==9 && len==1 || type==bulk", &c));
	assert_true(m("type==bulk || dev==9 && len==1", &c));
	assert_false(m("(type==bulk || dev==9) && len==1", &c));
	assert_false(m("!type==bulk", &c));
	assert_true(m("!(type==ctrl)", &c));
	assert_true(m("!!type==bulk", &c));
	assert_true(m("!(dev==9 || len==1) && status==EPIPE", &c));
	assert_true(m("((((type==bulk))))", &c));
	assert_true(m("type==bulk&&dir==in&&ev==C&&status!=0", &c));
	assert_true(m("dev==1||dev==2||dev==3", &c));
}

static void
test_errors(void **state)
{
	(void)state;
	assert_string_equal(bad("devv==3", 1), "col 1: unknown field 'devv', "
	    "did you mean dev? (urbscope -G fields lists them)");
	assert_string_equal(bad("len>1 && devv==1", 10),
	    "col 10: unknown field 'devv', did you mean dev? (urbscope -G "
	    "fields lists them)");
	assert_string_equal(bad("qqqqqqq", 1), "col 1: unknown field "
	    "'qqqqqqq' (urbscope -G fields lists them)");
	assert_non_null(strstr(bad("usb.scr == 1", 1), "did you mean usb.src?"));
	/* sets, slices, protocols, value names */
	bad("dev in {1 2", 8);
	bad("dev in 1", 8);
	bad("usb.capdata[0:2 == 01", 13);
	bad("usb.idVendor[0] == 01", 20);
	bad("usb == 1", 5);
	bad("usb.transfer_type == URB_NONE", 22);
	bad("usb.idVendor matches \"1\"", 22);
	bad("usb.foo == 1", 1);
	bad("ftdi-ftx.bRequest == 1", 1);	/* a - inside a name */
	bad("usb.idVendorr", 1);
	bad("dev 3", 5);
	bad("dev==", 6);
	bad("dev==x", 6);
	bad("type==foo", 7);
	bad("type<bulk", 5);
	bad("dir==up", 6);
	bad("ev==X", 5);
	bad("status==EWHAT", 9);
	bad("latency>3parsecs", 10);
	bad("latency>fast", 9);
	bad("event==explode", 8);
	bad("(dev==1", 1);
	bad("dev==1)", 7);
	bad("dev==1 dev==2", 8);
	bad("dev==1 &&", 10);
	bad("&& dev==1", 1);
	bad("driver==\"abc", 9);
	bad("len==\"3\"", 6);
	bad("len==99999999999999999999999", 6);
	/* microseconds that do not fit in int64 ns (found by fuzz-filter) */
	assert_string_equal(bad("latency==527712452901787827", 10),
	    "col 10: latency too large");
	bad("latency>9223372037s", 9);
	bad("!", 2);
	bad("()", 2);
	assert_non_null(strstr(bad("dev==1 || type==bluk", 17), "bluk"));
}

static void
test_limits(void **state)
{
	struct dec_filter f = { .node = nodes, .max = 4 };
	char	 deep[400];
	size_t	 i;

	(void)state;
	/* too many nodes for the array: an error, not an overrun */
	assert_int_equal(dec_filter_compile(&f,
	    "dev==1 || dev==2 || dev==3 || dev==4"), -UE_SYNTAX);
	assert_true(f.col > 0);
	f.max = 64;
	for (i = 0; i < 150; i++)
		deep[i] = '(';
	strcpy(deep + 150, "dev==1");
	assert_int_equal(dec_filter_compile(&f, deep), -UE_SYNTAX);
	assert_non_null(strstr(f.err, "deeply"));
	for (i = 0; i < 300; i++)
		deep[i] = '!';
	strcpy(deep + 300, "dev==1");
	assert_int_equal(dec_filter_compile(&f, deep), -UE_SYNTAX);
}

static struct dec_node tnodes[DEC_TREE_NODES];
static char tarena[DEC_TREE_ARENA];
static struct dec_tree tree;
static struct urb_rec rec;
static struct dec_frame frame;

/* A BOT CBW (bulk OUT submit to 1.3.2, frame 7, 1.5 s in) as the
 * filter sees it: its values, its tree and its frame. */
static struct dec_fvals
cbw(uint8_t type, int32_t status)
{
	static const uint8_t data[31] = { 0x55, 0x53, 0x42, 0x43, 1, 0, 0, 0,
	    0x24, 0, 0, 0, 0x80, 0, 6, 0x12 };
	struct dec_info	 info;
	struct dec_fvals v;

	memset(&rec, 0, sizeof rec);
	memset(&info, 0, sizeof info);
	info.intf = -1;
	info.latency_ns = -1;
	rec.id = 0xffff888012345600ULL;
	rec.type = type;
	rec.xfer_type = XFER_BULK;
	rec.epnum = 0x02;
	rec.devnum = 3;
	rec.busnum = 1;
	rec.flag_setup = '-';
	rec.status = status;
	rec.len_urb = rec.len_cap = rec.data_len = sizeof data;
	rec.data = data;
	rec.frame = 7;
	rec.ts_ns = 11500000000LL;
	frame.number = 7;
	frame.ts_ns = rec.ts_ns;
	frame.t0_ns = 10000000000LL;
	frame.prev_ns = 11499750000LL;
	dec_tree_init(&tree, tnodes, DEC_TREE_NODES, tarena, DEC_TREE_ARENA);
	tree.all_bits = 1;
	dec_record_tree(&rec, &info, &tree);
	dec_fvals_urb(&rec, &info, &v);
	v.tree = &tree;
	v.frame = &frame;
	return v;
}

static void
test_wireshark(void **state)
{
	struct dec_fvals s = cbw('S', -115);
	struct dec_fvals c;
	struct dec_fvals e = event(DRV_RULE, "skeleton");
	struct drv_event ev;

	(void)state;
	/* a bare name: present */
	assert_true(m("usb.capdata", &s));
	assert_true(m("usb.urb_id", &s));
	assert_false(m("usb.setup.bRequest", &s));
	assert_false(m("usb.idVendor", &s));
	assert_true(m("!usb.idVendor", &s));
	assert_true(m("not usb.idVendor", &s));
	/* numbers, hex and decimal; absent is false whatever the operator */
	assert_true(m("usb.device_address == 3", &s));
	assert_true(m("usb.device_address eq 0x3", &s));
	assert_true(m("usb.bus_id == 1 and usb.endpoint_address == 0x02", &s));
	assert_true(m("usb.endpoint_address.direction == 0", &s));
	assert_true(m("usb.transfer_type == 3", &s));
	assert_true(m("usb.urb_status == -115", &s));
	assert_true(m("usb.urb_status < 0", &s));
	assert_true(m("usb.urb_id == 0xffff888012345600", &s));
	assert_true(m("usb.urb_len >= 31 && usb.urb_len le 31", &s));
	assert_false(m("usb.idVendor != 1", &s));
	assert_false(m("usb.idVendor == 1", &s));
	assert_true(m("usb.urb_type == 'S'", &s));
	assert_true(m("usb.urb_type == 83", &s));
	assert_false(m("usb.urb_type == 'C'", &s));
	/* strings; usb.addr occurs twice: == any, != none, ~= any not */
	assert_true(m("usb.src == \"host\"", &s));
	assert_true(m("usb.dst == \"1.3.2\"", &s));
	assert_true(m("usb.dst == 1.3.2", &s));
	assert_true(m("usb.addr == \"1.3.2\"", &s));
	assert_true(m("usb.addr == \"host\"", &s));
	assert_false(m("usb.addr != \"host\"", &s));
	assert_true(m("usb.addr ~= \"host\"", &s));
	assert_true(m("usb.addr != \"1.3.1\"", &s));
	assert_true(m("usb.dst contains \".3.\"", &s));
	assert_false(m("usb.dst contains \"host\"", &s));
	assert_true(m("usb.dst > \"1.3.1\" && usb.dst < \"1.3.3\"", &s));
	/* bytes: byte strings or text */
	assert_true(m("usb.capdata contains 55:53:42:43", &s));
	assert_true(m("usb.capdata contains 55-53-42", &s));
	assert_true(m("usb.capdata contains 5553", &s));
	assert_true(m("usb.capdata contains \"USBC\"", &s));
	assert_true(m("usb.capdata contains 24", &s));
	assert_false(m("usb.capdata contains 55:53:42:44", &s));
	assert_false(m("usb.capdata == 55:53:42:43", &s));	/* longer */
	assert_true(m("usb.capdata > 55:53:42:43", &s));
	assert_true(m("data contains \"USBC\"", &s));
	/* frame fields: numbers and seconds */
	assert_true(m("frame.number == 7", &s));
	assert_true(m("frame.time_relative == 1.5", &s));
	assert_true(m("frame.time_relative > 1.25 && frame.time_relative < 2",
	    &s));
	assert_true(m("frame.time_delta == 0.00025", &s));
	assert_true(m("frame.time_epoch > 11", &s));
	/* grammar: words and symbols, parentheses, precedence */
	assert_true(m("(usb.device_address == 9 or usb.capdata) and "
	    "not usb.idVendor", &s));
	assert_true(m("usb.device_address == 9 || dev == 3 && len == 31", &s));
	assert_false(m("ftdi-ft.bRequest == 1", &s));
	assert_false(m("!(usb.capdata)", &s));
	/* status: a submit has none (bug 2: status!=0 found every submit) */
	assert_false(m("status!=0", &s));
	assert_false(m("status==-115", &s));
	assert_false(m("status", &s));
	c = cbw('C', -32);
	assert_true(m("status!=0", &c));
	assert_true(m("status", &c));
	assert_true(m("status == EPIPE && usb.urb_status == -32", &c));
	assert_true(m("usb.src == \"1.3.2\"", &c));
	/* a driver event: its own fields and the usb.* names JSON gives it */
	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_RULE;
	ev.busnum = 1;
	ev.devnum = 3;
	ev.intf = -1;
	ev.minor = -1;
	ev.driver = "skeleton";
	ev.rule = "gfp-kernel-in-atomic";
	e.evp = &ev;
	assert_true(m("rule == \"gfp-kernel-in-atomic\"", &e));
	assert_true(m("rule contains \"atomic\"", &e));
	assert_true(m("rule", &e));
	assert_false(m("rule", &s));
	assert_true(m("usb.device_address == 3", &e));
	assert_false(m("usb.capdata", &e));
	assert_true(m("event == rule && driver == skeleton", &e));
	assert_false(m("text", &e));
}

static void
test_wireshark_errors(void **state)
{
	(void)state;
	assert_non_null(strstr(bad("usb.capdata contains 5", 22), "bytes"));
	assert_non_null(strstr(bad("usb.device_address contains 3", 29),
	    "contains"));
	assert_non_null(strstr(bad("usb.device_address == \"x\"", 23),
	    "number"));
	assert_non_null(strstr(bad("frame.time_relative > 1s", 23),
	    "seconds"));
	assert_non_null(strstr(bad("dev contains 3", 5), "Wireshark"));
	assert_non_null(strstr(bad("summary contains \"x\"", 1), "-T fields"));
	bad("usb.src == \"host", 12);
	bad("usb.capdata contains 55::53", 22);
	bad("usb.capdata contains 55:5", 22);
	bad("not", 4);
	bad("usb.src and", 12);
}

/* Random strings from the filter's own alphabet and from all bytes. */
static void
test_garbage(void **state)
{
	static const char alpha[] = "devbusptyirlnaciuk=!<>&|() \"0x1-9SCEms"
	    ".:'~";
	struct dec_filter f = { .node = nodes, .max = 64 };
	struct dec_fvals v = urb('C', XFER_BULK, 0x81, -32, 13, 250000);
	char	 s[80];
	uint32_t x = 12345;
	int	 i, j, n, ok = 0;

	(void)state;
	for (i = 0; i < 200000; i++) {
		x = x * 1103515245 + 12345;
		n = (int)(x >> 16) % 60;
		for (j = 0; j < n; j++) {
			x = x * 1103515245 + 12345;
			s[j] = i & 1 ? alpha[(x >> 16) % (sizeof alpha - 1)] :
			    (char)((x >> 16) % 255 + 1);
		}
		s[n] = '\0';
		if (dec_filter_compile(&f, s) == 0) {
			ok++;
			assert_true(f.n <= f.max);
			(void)dec_filter_match(&f, &v);
		} else {
			assert_true(f.col >= 1 && f.col <= n + 1);
			assert_true(strncmp(f.err, "col ", 4) == 0);
		}
	}
	assert_true(ok > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_wireshark),
		cmocka_unit_test(test_wireshark_errors),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
