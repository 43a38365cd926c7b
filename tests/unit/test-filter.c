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
	int	 rc = dec_filter_compile(&f, expr);

	if (rc != 0)
		fail_msg("'%s' does not compile: %s", expr, f.err);
	return dec_filter_match(&f, v);
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
	assert_string_equal(bad("devv==3", 1), "col 1: unknown field 'devv'");
	assert_string_equal(bad("len>1 && devv==1", 10),
	    "col 10: unknown field 'devv'");
	bad("dev", 4);
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

/* Random strings from the filter's own alphabet and from all bytes. */
static void
test_garbage(void **state)
{
	static const char alpha[] = "devbusptyirlnaciuk=!<>&|() \"0x1-9SCEms";
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
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
