/*
 * tests/unit/test-drivers.c - the sample drivers (samples/drivers/) on
 * the simulated machine: usb-skeleton binds the loopback device, gets
 * minor 192 and /dev/usb/skel0, loops data back through it and lets go
 * cleanly; the keyboard driver logs what the keyboard model types; the
 * buggy driver sets off every rule check while the other two set off
 * none; and every DRV_SUBMIT event names the URB of its usbmon 'S'
 * record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "machine.h"
#include "core/vfs.h"
#include "samples/drivers/drivers.h"

/* ------------------------------------------------------------------------
 * What the sink saw, beyond machine.h's records: the rule ids, the
 * submits, the disconnects.
 */
#define MAX_RULES	64
#define MAX_SUBMITS	4096

struct seen {
	char		 rules[MAX_RULES][48];
	int		 nrules;
	struct {
		uint64_t	 urb_id;
		uint64_t	 seq;
	}		 submit[MAX_SUBMITS];
	int		 nsubmit;
	int		 disconnects;	/* DRV_DISCONNECT, not the hub's */
	uint64_t	 seq;
	/* for the sim_machine runs, which have no struct machine */
	struct {
		uint64_t	 id;
		uint64_t	 seq;
	}		 srec[MAX_SUBMITS];
	int		 nsrec;
	char		 logs[65536];
};

static struct seen	 seen;
static struct machine	*cur;

static void
seen_event(const struct drv_event *ev, uint64_t seq)
{
	int	 i;

	if (ev->kind == DRV_RULE && ev->rule != NULL) {
		for (i = 0; i < seen.nrules; i++) {
			if (strcmp(seen.rules[i], ev->rule) == 0)
				break;
		}
		if (i == seen.nrules && seen.nrules < MAX_RULES)
			snprintf(seen.rules[seen.nrules++],
			    sizeof seen.rules[0], "%s", ev->rule);
	} else if (ev->kind == DRV_SUBMIT && ev->result == 0 &&
	    seen.nsubmit < MAX_SUBMITS) {
		seen.submit[seen.nsubmit].urb_id = ev->urb_id;
		seen.submit[seen.nsubmit++].seq = seq;
	} else if (ev->kind == DRV_DISCONNECT && ev->driver != NULL &&
	    strcmp(ev->driver, "hub") != 0)
		seen.disconnects++;
	else if (ev->kind == DRV_LOG && ev->text != NULL &&
	    strlen(seen.logs) + strlen(ev->text) + 2 < sizeof seen.logs) {
		strcat(seen.logs, ev->text);
		strcat(seen.logs, "\n");
	}
}

/* Wraps machine_event (machine.h) for struct machine runs. */
static void
test_event(void *arg, const struct drv_event *ev)
{
	seen_event(ev, cur->seq);
	machine_event(arg, ev);
}

static int
seen_rule(const char *rule)
{
	int	 i;

	for (i = 0; i < seen.nrules; i++) {
		if (strcmp(seen.rules[i], rule) == 0)
			return 1;
	}
	return 0;
}

static int
setup(void **state)
{
	(void)state;
	memset(&seen, 0, sizeof seen);
	cur = machine_new();
	assert_non_null(cur);
	cur->sim->sink.event = test_event;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	machine_free(cur);
	cur = NULL;
	return 0;
}

static int
plug_args(struct machine *m, int port, const char *model, const char *args)
{
	return sim_machine_plug(m->sm, 1, port, model, args);
}

static struct usb_interface *
intf0(struct machine *m, int port)
{
	struct usb_device *udev = machine_device(m, port);

	if (udev == NULL || udev->actconfig == NULL)
		return NULL;
	return udev->actconfig->interface[0];
}

/*
 * Each successful DRV_SUBMIT event and the 'S' record nearest to it (in
 * the order the sink saw them) carry the same URB id.
 */
static void
check_submit_ids(uint64_t (*nearest)(uint64_t seq))
{
	int	 i;

	assert_true(seen.nsubmit > 0);
	for (i = 0; i < seen.nsubmit; i++)
		assert_int_equal(nearest(seen.submit[i].seq),
		    seen.submit[i].urb_id);
}

static uint64_t
machine_nearest_s(uint64_t seq)
{
	uint64_t	 best = 0, d, bestd = UINT64_MAX;
	size_t		 i;

	for (i = 0; i < cur->nrec; i++) {
		if (cur->rec[i].type != 'S')
			continue;
		d = cur->rec[i].seq > seq ? cur->rec[i].seq - seq :
		    seq - cur->rec[i].seq;
		if (d < bestd) {
			bestd = d;
			best = cur->rec[i].id;
		}
	}
	return best;
}

/* ------------------------------------------------------------------------
 * usb-skeleton.
 */
static void
test_skeleton(void **state)
{
	struct usb_interface *intf;
	char		 buf[512];
	int		 fd, fd2;

	(void)state;
	assert_int_equal(machine_plug(cur, 1, "loopback"), 0);
	machine_run(cur, 500);
	assert_int_equal(usb_register(&skel_driver), 0);
	machine_run(cur, 10);

	intf = intf0(cur, 1);
	assert_non_null(intf);
	assert_ptr_equal(intf->driver, &skel_driver);
	assert_non_null(intf->intfdata);
	assert_int_equal(intf->minor, 192);
	assert_true(machine_logged(cur, "now attached to USBSkel-192") > 0);

	fd = vfs_open(cur->sim, "/dev/usb/skel0");
	assert_true(fd >= 0);
	assert_int_equal(vfs_write(fd, "hello", 5), 5);
	memset(buf, 0, sizeof buf);
	assert_int_equal(vfs_read(fd, buf, sizeof buf), 5);
	assert_memory_equal(buf, "hello", 5);
	/* a second writer and reader on the same device */
	fd2 = vfs_open(cur->sim, "/dev/usb/skel0");
	assert_true(fd2 >= 0);
	assert_int_equal(vfs_write(fd2, "0123456789", 10), 10);
	assert_int_equal(vfs_read(fd, buf, sizeof buf), 10);
	assert_memory_equal(buf, "0123456789", 10);
	assert_int_equal(vfs_close(fd2), 0);

	/* unplug with fd still open: disconnect runs, the minor goes */
	machine_unplug(cur, 1);
	machine_run(cur, 300);
	assert_int_equal(seen.disconnects, 1);
	assert_true(machine_logged(cur, "USB Skeleton #192 now "
	    "disconnected") > 0);
	assert_int_equal(vfs_read(fd, buf, sizeof buf), -ENODEV);
	assert_int_equal(vfs_write(fd, "x", 1), -ENODEV);
	assert_int_equal(vfs_close(fd), 0);	/* frees the state */
	fd = vfs_open(cur->sim, "/dev/usb/skel0");
	assert_true(fd == -ENODEV || fd == -ENOENT);

	/* the minor is free again: a new loopback gets 192 back */
	assert_int_equal(machine_plug(cur, 2, "loopback"), 0);
	machine_run(cur, 500);
	intf = intf0(cur, 2);
	assert_non_null(intf);
	assert_int_equal(intf->minor, 192);
	usb_deregister(&skel_driver);
	assert_int_equal(intf->minor, -1);
	assert_null(intf->intfdata);

	assert_int_equal(seen.nrules, 0);
	check_submit_ids(machine_nearest_s);
}

/* ------------------------------------------------------------------------
 * The keyboard driver.
 */
static void
test_keyboard(void **state)
{
	struct usb_interface *intf;
	uint64_t	 h, e, l, o;
	char		 buf[64];
	int		 fd;

	(void)state;
	assert_int_equal(usb_register(&kbd_driver), 0);
	assert_int_equal(plug_args(cur, 1, "keyboard", "hello"), 0);
	machine_run(cur, 800);

	intf = intf0(cur, 1);
	assert_non_null(intf);
	assert_ptr_equal(intf->driver, &kbd_driver);
	assert_int_equal(intf->minor, 96);
	h = machine_logged(cur, "key down: h");
	e = machine_logged(cur, "key down: e");
	l = machine_logged(cur, "key down: l");
	o = machine_logged(cur, "key down: o");
	assert_true(h > 0 && h < e && e < l && l < o);
	assert_true(machine_logged(cur, "key up: o") > o);

	fd = vfs_open(cur->sim, "/dev/usb/kbd0");
	assert_true(fd >= 0);
	memset(buf, 0, sizeof buf);
	assert_int_equal(vfs_read(fd, buf, sizeof buf), 5);
	assert_string_equal(buf, "hello");
	assert_int_equal(vfs_close(fd), 0);

	machine_unplug(cur, 1);
	machine_run(cur, 300);
	assert_int_equal(seen.disconnects, 1);
	assert_true(vfs_open(cur->sim, "/dev/usb/kbd0") < 0);
	usb_deregister(&kbd_driver);

	assert_int_equal(seen.nrules, 0);
	check_submit_ids(machine_nearest_s);
}

/* ------------------------------------------------------------------------
 * Built-in scenarios on a sim_machine.
 */
static void
scn_urb(void *arg, const struct urb_rec *r)
{
	(void)arg;
	if (r->type == 'S' && seen.nsrec < MAX_SUBMITS) {
		seen.srec[seen.nsrec].id = r->id;
		seen.srec[seen.nsrec++].seq = seen.seq;
	}
	seen.seq++;
}

static void
scn_event(void *arg, const struct drv_event *ev)
{
	(void)arg;
	seen_event(ev, seen.seq);
	seen.seq++;
}

static uint64_t
scn_nearest_s(uint64_t seq)
{
	uint64_t	 best = 0, d, bestd = UINT64_MAX;
	int		 i;

	for (i = 0; i < seen.nsrec; i++) {
		d = seen.srec[i].seq > seq ? seen.srec[i].seq - seq :
		    seq - seen.srec[i].seq;
		if (d < bestd) {
			bestd = d;
			best = seen.srec[i].id;
		}
	}
	return best;
}

/* Runs a scenario's text; its error (NULL if none) into err. */
static void
run_text(const char *text, const char *name, char *err, size_t errlen)
{
	struct sim_sink	 sink = { scn_urb, scn_event, NULL };
	struct sim_scenario *sc;
	struct sim_machine *m;
	struct sim	*s;

	memset(&seen, 0, sizeof seen);
	assert_int_equal(sim_scenario_parse(text, name, &sc, err, errlen), 0);
	s = sim_new(MACHINE_EPOCH, &sink);
	assert_non_null(s);
	m = sim_machine_new(s, 1);
	assert_non_null(m);
	sim_scenario_start(sc, m);
	sim_run(s, 0);
	snprintf(err, errlen, "%s", sim_scenario_error(sc) != NULL ?
	    sim_scenario_error(sc) : "");
	sim_machine_free(m);
	sim_scenario_free(sc);
	usb_core_free(s);
	sim_free(s);
}

static void
run_scenario(const char *name)
{
	char	 err[256];

	assert_non_null(sim_scenario_builtin(name));
	run_text(sim_scenario_builtin(name), name, err, sizeof err);
	if (*err != '\0')
		fail_msg("%s", err);
}

static void
test_scenario_skeleton(void **state)
{
	(void)state;
	run_scenario("skeleton");
	assert_int_equal(seen.nrules, 0);
	assert_int_equal(seen.disconnects, 1);
	check_submit_ids(scn_nearest_s);
}

static void
test_scenario_keyboard(void **state)
{
	(void)state;
	run_scenario("keyboard");
	assert_int_equal(seen.nrules, 0);
	assert_non_null(strstr(seen.logs, "key down: h"));
	assert_non_null(strstr(seen.logs, "key down: o"));
	check_submit_ids(scn_nearest_s);
}

static void
test_scenario_buggy(void **state)
{
	static const char *const rules[] = {
		"submit-active-urb",
		"probe-error-leftovers",
		"gfp-kernel-in-atomic",
		"sleep-in-atomic",
		"spin-lock-recursion",
		"spin-unlock-unlocked",
		"intfdata-after-disconnect",
		"minor-leak",
		"urbs-in-flight-after-disconnect",
		"intfdata-read-after-disconnect",
		"submit-after-disconnect",
		"resubmit-on-shutdown",
	};
	size_t	 i;

	(void)state;
	run_scenario("buggy");
	for (i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		if (!seen_rule(rules[i]))
			fail_msg("rule %s did not fire", rules[i]);
	}
	/* the keyboard the buggy driver refused went to the keyboard
	 * driver, which got its keys */
	assert_non_null(strstr(seen.logs, "key down: h"));
	check_submit_ids(scn_nearest_s);
}

/*
 * A STALL on the loopback's bulk IN: the 2.6.0 usb-skeleton's read gives
 * the error back (usb_bulk_msg's -EPIPE) and clears nothing, so the next
 * read submits to the halted endpoint and STALLs again: halt-not-cleared
 * (the scenario's error is that second read's).
 * A device plugged in its place starts with no halt: the same reads
 * then break no rule.
 */
static void
test_halt_not_cleared(void **state)
{
	static const char stalled[] =
	    "load usb-skeleton\nplug 1 loopback\nsettle 1\n"
	    "open /dev/usb/skel0\nwrite /dev/usb/skel0 hello\n"
	    "inject 1 stall 0x81\nread /dev/usb/skel0 5\n";
	char	 text[512], err[256];

	(void)state;
	snprintf(text, sizeof text, "%sread /dev/usb/skel0 5\n", stalled);
	run_text(text, "t", err, sizeof err);
	assert_true(seen_rule("halt-not-cleared"));
	assert_int_equal(seen.nrules, 1);
	assert_non_null(strstr(err, "Broken pipe"));
	/* one read only: no submit after the STALL, no rule (the
	 * scenario excuses the error of the step an injected fault hit) */
	run_text(stalled, "t", err, sizeof err);
	assert_int_equal(seen.nrules, 0);
	assert_string_equal(err, "");
	snprintf(text, sizeof text, "%sclose /dev/usb/skel0\nunplug 1\n"
	    "wait 200\nplug 1 loopback\nsettle 1\nopen /dev/usb/skel0\n"
	    "write /dev/usb/skel0 hello\nread /dev/usb/skel0 5 hello\n",
	    stalled);
	run_text(text, "t", err, sizeof err);
	assert_int_equal(seen.nrules, 0);
	assert_string_equal(err, "");
}

/* Scenario syntax of the driver commands, with line numbers. */
static void
test_scenario_parse(void **state)
{
	static const struct {
		const char	*text;
		const char	*err;
	} bad[] = {
		{ "load nosuch\n", "t:1: no driver 'nosuch' (usb-skeleton, "
		    "keyboard, buggy, gamepad, cdc-acm, uac2, btusb)" },
		{ "wait 1\nprofile 2.4\n", "t:2: no profile '2.4' (2.6.0, "
		    "modern)" },
		{ "open skel0\n", "t:1: 'skel0' is not a device node "
		    "(/dev/...)" },
		{ "read /dev/usb/skel0 x\n", "t:1: read wants a byte count "
		    "(1-4096), not 'x'" },
		{ "write /dev/usb/skel0\n", "t:1: usage: write NODE TEXT" },
		{ "unload\n", "t:1: usage: unload DRIVER" },
	};
	struct sim_scenario *sc;
	char		 err[256];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(sim_scenario_parse(bad[i].text, "t", &sc,
		    err, sizeof err), -EINVAL);
		assert_string_equal(err, bad[i].err);
	}
	assert_int_equal(sim_scenario_parse("profile 2.6.0\nload buggy\n"
	    "open /dev/usb/buggy0\nwrite /dev/usb/buggy0 two words\n"
	    "read /dev/usb/buggy0 9 two words\nclose /dev/usb/buggy0\n"
	    "unload buggy\n", "t", &sc, err, sizeof err), 0);
	sim_scenario_free(sc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_skeleton, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_keyboard, setup,
		    teardown),
		cmocka_unit_test(test_scenario_skeleton),
		cmocka_unit_test(test_scenario_keyboard),
		cmocka_unit_test(test_scenario_buggy),
		cmocka_unit_test(test_halt_not_cleared),
		cmocka_unit_test(test_scenario_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
