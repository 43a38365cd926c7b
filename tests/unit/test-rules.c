/*
 * tests/unit/test-rules.c - the rules checked on driver events alone
 * (decode/dec-rules.c), for a real kernel's traced events, against the
 * simulator, which checks the same rules from inside its USB core: every
 * built-in scenario's events (its own rule events taken out) through
 * dec_rules_check must give the rules the simulator gave, of those the
 * events can tell; and short sequences a traced kernel gives (-EBUSY
 * from usb_submit_urb, a resubmit from a completion handler after a
 * kill, a task resubmitting a killed URB, a rebind after disconnect, a
 * clean unbind as a traced kernel shows it; halts from usbmon records).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "capture/capture.h"
#include "samples/samples.h"

/* The rules dec-rules.c checks. */
static const char *const checked[] = {
	"gfp-kernel-in-atomic", "submit-active-urb", "submit-after-disconnect",
	"resubmit-on-shutdown", "intfdata-after-disconnect", "minor-leak",
	"urbs-in-flight-after-disconnect", "halt-not-cleared",
};

static int
is_checked(const struct drv_event *ev)
{
	size_t	 i;

	/* of the allocations, the events show only usb_submit_urb's */
	if (strcmp(ev->rule, "gfp-kernel-in-atomic") == 0)
		return ev->text != NULL &&
		    strncmp(ev->text, "usb_submit_urb ", 15) == 0;
	for (i = 0; i < sizeof checked / sizeof checked[0]; i++) {
		if (strcmp(ev->rule, checked[i]) == 0)
			return 1;
	}
	return 0;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The simulator's rules and the engine's, each sorted, for scenario. */
static void
compare(const char *scenario, size_t *nrules)
{
	struct cap_source *src;
	struct dec_rules *rules;
	struct drv_event ev, out[4];
	struct urb_rec	 r;
	const char	*sim[64], *got[64];
	size_t		 nsim = 0, ngot = 0, i, k;
	char		 name[64], err[512];
	int		 rc;

	snprintf(name, sizeof name, "sim:%s", scenario);
	assert_int_equal(cap_open(name, &src, err, sizeof err), 0);
	assert_non_null(rules = dec_rules_new());
	while ((rc = cap_next(src, &r, &ev)) > 0) {
		if (rc == CAP_URB)
			dec_rules_record(rules, &r);
		if (rc != CAP_EVENT)
			continue;
		if (ev.kind == DRV_RULE) {
			if (is_checked(&ev) && nsim < 64)
				sim[nsim++] = strdup(ev.rule);
			continue;
		}
		k = dec_rules_check(rules, &ev, out, 4);
		for (i = 0; i < k && ngot < 64; i++) {
			assert_int_equal(out[i].kind, DRV_RULE);
			assert_non_null(out[i].text);
			got[ngot++] = strdup(out[i].rule);
		}
	}
	assert_true(rc == 0 || rc == CAP_END);
	cap_close(src);
	dec_rules_free(rules);
	qsort(sim, nsim, sizeof *sim, cmpstr);
	qsort(got, ngot, sizeof *got, cmpstr);
	for (i = 0; i < nsim || i < ngot; i++) {
		if (i >= nsim || i >= ngot || strcmp(sim[i], got[i]) != 0)
			fail_msg("%s: rule %zu: the simulator's %s, from the "
			    "events %s", scenario, i, i < nsim ? sim[i] : "none",
			    i < ngot ? got[i] : "none");
	}
	for (i = 0; i < nsim; i++)
		free((void *)sim[i]);
	for (i = 0; i < ngot; i++)
		free((void *)got[i]);
	*nrules += nsim;
}

static void
test_scenarios(void **state)
{
	static const char *const scenarios[] = { "enumerate", "storage",
	    "faults", "loopback", "skeleton", "keyboard", "buggy", "demo" };
	size_t	 i, n = 0, before;

	(void)state;
	for (i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
		before = n;
		compare(scenarios[i], &n);
		if (strcmp(scenarios[i], "buggy") == 0)
			assert_true(n - before >= 7);	/* each kind once */
	}
	assert_true(n > 0);
}

/* One event of a traced kernel. */
static struct drv_event
event(enum drv_kind kind, uint64_t urb, int32_t result, uint32_t ctx)
{
	struct drv_event ev;

	memset(&ev, 0, sizeof ev);
	ev.kind = kind;
	ev.busnum = 1;
	ev.devnum = 2;
	ev.intf = 0;
	ev.minor = -1;
	ev.driver = "my_skel";
	ev.func = "skel_write";
	ev.urb_id = urb;
	ev.result = result;
	ev.context = ctx;
	ev.mem_flags = 0x20;		/* GFP_ATOMIC */
	return ev;
}

/* The usbmon record of a traced kernel: type 'S', 'C' or 'E'. */
static void
record(struct dec_rules *r, int type, uint64_t id, int xfer, uint8_t ep,
    int32_t status, const char *setup)
{
	struct urb_rec	 rec;

	memset(&rec, 0, sizeof rec);
	rec.type = (uint8_t)type;
	rec.id = id;
	rec.xfer_type = (uint8_t)xfer;
	rec.epnum = ep;
	rec.busnum = 1;
	rec.devnum = 2;
	rec.status = status;
	rec.flag_setup = setup != NULL ? 0 : '-';
	if (setup != NULL)
		memcpy(rec.setup, setup, 8);
	dec_rules_record(r, &rec);
}

/* The URB's C record: given back. */
static void
done(struct dec_rules *r, uint64_t id)
{
	record(r, 'C', id, XFER_BULK, 0x81, 0, NULL);
}

/* The rule ids ev gives, comma-separated, into buf. */
static const char *
check(struct dec_rules *r, struct drv_event ev, char *buf, size_t size)
{
	struct drv_event out[4];
	size_t	 i, n;

	buf[0] = '\0';
	n = dec_rules_check(r, &ev, out, 4);
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
		    i ? "," : "", out[i].rule);
	return buf;
}

static void
test_sequences(void **state)
{
	struct dec_rules *r, *r2;
	struct drv_event ev, out[4];
	struct cap_gfp	 g;
	size_t		 n;
	char	 b[200];

	(void)state;
	assert_non_null(r = dec_rules_new());
	ev = event(DRV_PROBE, 0, 0, 0);
	assert_string_equal(check(r, ev, b, sizeof b), "");
	/* a submit, then the same URB again: the kernel said -EBUSY */
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xa000, 0, 0), b,
	    sizeof b), "");
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xa000, -16, 0), b,
	    sizeof b), "submit-active-urb");
	/* given back with no giveback event (a kprobe pair missed it): its
	 * usbmon C record says so, and the next submit is no rule */
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xa100, 0, 0), b,
	    sizeof b), "");
	done(r, 0xa100);
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xa100, 0, 0), b,
	    sizeof b), "");
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xa100, 0, 0), b,
	    sizeof b), "submit-active-urb");
	done(r, 0xa100);
	done(r, 0xdead);	/* an URB never submitted */
	/* killed; its completion handler resubmits it (interrupt) */
	assert_string_equal(check(r, event(DRV_GIVEBACK, 0xa000, -2, 1), b,
	    sizeof b), "");
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xa000, 0, 1), b,
	    sizeof b), "resubmit-on-shutdown");
	/* said once an URB */
	assert_string_equal(check(r, event(DRV_GIVEBACK, 0xa000, -2, 1), b,
	    sizeof b), "");
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xa000, 0, 1), b,
	    sizeof b), "");
	/* GFP_KERNEL from a completion handler */
	assert_string_equal(check(r, event(DRV_GIVEBACK, 0xa000, 0, 1), b,
	    sizeof b), "");
	ev = event(DRV_SUBMIT, 0xb000, 0, 1);
	ev.mem_flags = 0xd0;
	assert_string_equal(check(r, ev, b, sizeof b),
	    "gfp-kernel-in-atomic");
	/* a kernel's GFP_NOFS | __GFP_NOWARN (0x2c40) may sleep too: said,
	 * by its name; its GFP_NOWAIT (0x2800) may not */
	cap_gfp_init(&g);
	assert_non_null(r2 = dec_rules_new());
	ev = event(DRV_SUBMIT, 0xb100, 0, 1);
	ev.mem_flags = cap_gfp_to_sim(&g, 0x2c40);
	n = dec_rules_check(r2, &ev, out, 4);
	assert_int_equal(n, 1);
	assert_string_equal(out[0].rule, "gfp-kernel-in-atomic");
	assert_non_null(strstr(out[0].text, "with GFP_NOFS in interrupt"));
	ev = event(DRV_SUBMIT, 0xb200, 0, 1);
	ev.mem_flags = cap_gfp_to_sim(&g, 0x2800);
	assert_string_equal(check(r2, ev, b, sizeof b), "");
	dec_rules_free(r2);
	/* and from a task, fine */
	ev = event(DRV_SUBMIT, 0xc000, 0, 0);
	ev.mem_flags = 0xd0;
	assert_string_equal(check(r, ev, b, sizeof b), "");
	/* a minor, intfdata; disconnect with both left and URBs queued */
	ev = event(DRV_REGISTER_DEV, 0, 0, 0);
	ev.minor = 192;
	assert_string_equal(check(r, ev, b, sizeof b), "");
	ev = event(DRV_DISCONNECT, 0, 0, 0);
	ev.ptr = 0xffff888012345000ULL;
	assert_string_equal(check(r, ev, b, sizeof b),
	    "intfdata-after-disconnect,minor-leak,"
	    "urbs-in-flight-after-disconnect");
	/* the driver's URB given back, then resubmitted: after disconnect */
	assert_string_equal(check(r, event(DRV_GIVEBACK, 0xb000, -108, 1), b,
	    sizeof b), "");
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xb000, 0, 1), b,
	    sizeof b), "submit-after-disconnect,resubmit-on-shutdown");
	/* bound again: its submits are fine again */
	assert_string_equal(check(r, event(DRV_GIVEBACK, 0xb000, 0, 1), b,
	    sizeof b), "");
	assert_string_equal(check(r, event(DRV_PROBE, 0, 0, 0), b, sizeof b),
	    "");
	assert_string_equal(check(r, event(DRV_SUBMIT, 0xd000, 0, 0), b,
	    sizeof b), "");
	/* a clean disconnect: URBs given back, minor and intfdata gone */
	assert_string_equal(check(r, event(DRV_GIVEBACK, 0xd000, -2, 1), b,
	    sizeof b), "");
	assert_string_equal(check(r, event(DRV_GIVEBACK, 0xc000, -2, 1), b,
	    sizeof b), "");
	assert_string_equal(check(r, event(DRV_DISCONNECT, 0, 0, 0), b,
	    sizeof b), "");
	/* as capture --drivers traces urbskel: probe with its driver_data,
	 * a minor, usb_deregister_dev in disconnect, driver_data cleared */
	ev = event(DRV_PROBE, 0, 0, 0);
	ev.ptr = 0xffff888012346000ULL;
	assert_string_equal(check(r, ev, b, sizeof b), "");
	ev = event(DRV_REGISTER_DEV, 0, 0, 0);
	ev.minor = 0;
	assert_string_equal(check(r, ev, b, sizeof b), "");
	ev = event(DRV_DEREGISTER_DEV, 0, 0, 0);
	ev.minor = 0;
	assert_string_equal(check(r, ev, b, sizeof b), "");
	assert_string_equal(check(r, event(DRV_DISCONNECT, 0, 0, 0), b,
	    sizeof b), "");
	dec_rules_free(r);
}

/* The submit event of URB id on endpoint ep. */
static struct drv_event
submit_ep(uint64_t id, uint8_t ep, uint32_t ctx)
{
	struct drv_event ev = event(DRV_SUBMIT, id, 0, ctx);

	ev.ep = ep;
	return ev;
}

/*
 * halt-not-cleared: a STALL on bulk IN 0x81 (its usbmon C record,
 * -EPIPE), then a submit there with no CLEAR_FEATURE(ENDPOINT_HALT)
 * between, as usb-storage's or usbhid's recovery would send (its S
 * record); SET_CONFIGURATION and SET_INTERFACE clear halts too; ep0's
 * STALL lasts one request; an OUT endpoint's halt is its own.
 */
static void
test_halts(void **state)
{
	static const char clear81[8] = { 0x02, 0x01, 0, 0, (char)0x81, 0,
	    0, 0 };
	static const char clear02[8] = { 0x02, 0x01, 0, 0, 0x02, 0, 0, 0 };
	static const char setcfg[8] = { 0x00, 0x09, 1, 0, 0, 0, 0, 0 };
	static const char getdesc[8] = { (char)0x80, 0x06, 0, 1, 0, 0, 18,
	    0 };
	struct dec_rules *r;
	struct drv_event ev;
	char	 b[200];

	(void)state;
	assert_non_null(r = dec_rules_new());
	assert_string_equal(check(r, submit_ep(0xe000, 0x81, 0), b, sizeof b),
	    "");
	record(r, 'S', 0xe000, XFER_BULK, 0x81, -115, NULL);
	record(r, 'C', 0xe000, XFER_BULK, 0x81, -32, NULL);
	assert_string_equal(check(r, event(DRV_GIVEBACK, 0xe000, -32, 1), b,
	    sizeof b), "");
	/* resubmitted from its completion: still halted */
	assert_string_equal(check(r, submit_ep(0xe000, 0x81, 1), b, sizeof b),
	    "halt-not-cleared");
	record(r, 'C', 0xe000, XFER_BULK, 0x81, -32, NULL);
	/* refused (-EBUSY: that URB in flight): it went nowhere */
	ev = submit_ep(0xe000, 0x81, 0);
	ev.result = -16;
	assert_string_equal(check(r, ev, b, sizeof b), "submit-active-urb");
	/* the other endpoint, another device, a control request: no */
	assert_string_equal(check(r, submit_ep(0xe100, 0x02, 0), b, sizeof b),
	    "");
	assert_string_equal(check(r, submit_ep(0xe200, 0x00, 0), b, sizeof b),
	    "");
	/* a request that clears nothing, then the clear of 0x02: no */
	record(r, 'S', 0xe300, XFER_CTRL, 0x80, -115, getdesc);
	record(r, 'S', 0xe300, XFER_CTRL, 0x00, -115, clear02);
	assert_string_equal(check(r, submit_ep(0xe010, 0x81, 0), b, sizeof b),
	    "halt-not-cleared");
	/* usb_clear_halt of 0x81: the next submit is fine */
	record(r, 'S', 0xe300, XFER_CTRL, 0x00, -115, clear81);
	record(r, 'C', 0xe300, XFER_CTRL, 0x00, 0, NULL);
	assert_string_equal(check(r, submit_ep(0xe000, 0x81, 0), b, sizeof b),
	    "");
	/* ep0's STALL halts nothing; an interrupt endpoint's does, until
	 * SET_CONFIGURATION */
	record(r, 'C', 0xe300, XFER_CTRL, 0x80, -32, NULL);
	assert_string_equal(check(r, submit_ep(0xe300, 0x80, 0), b, sizeof b),
	    "");
	record(r, 'C', 0xe400, XFER_INT, 0x83, -32, NULL);
	assert_string_equal(check(r, submit_ep(0xe400, 0x83, 1), b, sizeof b),
	    "halt-not-cleared");
	record(r, 'C', 0xe400, XFER_INT, 0x83, -32, NULL);
	record(r, 'S', 0xe300, XFER_CTRL, 0x00, -115, setcfg);
	assert_string_equal(check(r, submit_ep(0xe400, 0x83, 1), b, sizeof b),
	    "");
	/* an isochronous URB's -EPIPE is no halt */
	record(r, 'C', 0xe500, XFER_ISO, 0x84, -32, NULL);
	assert_string_equal(check(r, submit_ep(0xe500, 0x84, 1), b, sizeof b),
	    "");
	dec_rules_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scenarios),
		cmocka_unit_test(test_sequences),
		cmocka_unit_test(test_halts),
	};

	sim_register(&sample_catalog);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
