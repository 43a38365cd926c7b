/*
 * tests/unit/test-sysfs.c - capture/cap-sysfs.c against fake sysfs trees
 * built by the test in a mkdtemp directory, laid out as the kernel lays
 * them out: device directories under devices/, symlinks to them in
 * bus/usb/devices/, "driver" symlinks into bus/usb/drivers/.  The
 * attributes and descriptors bytes are those of the Linux 6.1 guest of
 * tests/fixtures/sysfs (sysfs-usb-initial.txt): the EHCI root
 * hub, the BOT disk on port 1 and the keyboard on port 2.
 */
#include <sys/stat.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "capture/sysfs.h"
#include "decode/decode.h"

/* The keyboard (1-2): device + configuration descriptors, 52 bytes. */
static const uint8_t kbd_desc[] = {
	0x12, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40, 0x27, 0x06, 0x01,
	0x00, 0x00, 0x00, 0x01, 0x04, 0x0b, 0x01,
	0x09, 0x02, 0x22, 0x00, 0x01, 0x01, 0x08, 0xa0, 0x32,
	0x09, 0x04, 0x00, 0x00, 0x01, 0x03, 0x01, 0x01, 0x00,
	0x09, 0x21, 0x11, 0x01, 0x00, 0x01, 0x22, 0x3f, 0x00,
	0x07, 0x05, 0x81, 0x03, 0x08, 0x00, 0x07,
};

/* The BOT disk (1-1), 50 bytes. */
static const uint8_t disk_desc[] = {
	0x12, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40, 0xf4, 0x46, 0x01,
	0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x01,
	0x09, 0x02, 0x20, 0x00, 0x01, 0x01, 0x05, 0xc0, 0x00,
	0x09, 0x04, 0x00, 0x00, 0x02, 0x08, 0x06, 0x50, 0x00,
	0x07, 0x05, 0x81, 0x02, 0x00, 0x02, 0x00,
	0x07, 0x05, 0x02, 0x02, 0x00, 0x02, 0x00,
};

struct tree {
	char	 root[64];
};

static void
put(const char *root, const char *rel, const void *p, size_t n)
{
	char	 path[512];
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void
puts_attr(const char *root, const char *dir, const char *name,
    const char *val)
{
	char	 rel[256];

	snprintf(rel, sizeof rel, "%s/%s", dir, name);
	put(root, rel, val, strlen(val));
}

static void
mkdirs(const char *root, const char *rel)
{
	char	 path[512], *p;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void
link_at(const char *root, const char *target, const char *rel)
{
	char	 path[512];

	snprintf(path, sizeof path, "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* A device directory under devices/ with its bus/usb/devices link. */
static void
entry(const char *root, const char *devdir, const char *name,
    const char *driver)
{
	char	 rel[256], target[256];

	mkdirs(root, devdir);
	snprintf(rel, sizeof rel, "bus/usb/devices/%s", name);
	snprintf(target, sizeof target, "../../../%s", devdir);
	link_at(root, target, rel);
	if (driver != NULL) {
		snprintf(rel, sizeof rel, "bus/usb/drivers/%s", driver);
		mkdirs(root, rel);
		snprintf(rel, sizeof rel, "%s/driver", devdir);
		/* Relative, as the kernel makes them; only the name counts. */
		snprintf(target, sizeof target,
		    "../../../../../bus/usb/drivers/%s", driver);
		link_at(root, target, rel);
	}
}

static void
usbdev(const char *root, const char *dir, const char *bus, const char *dev,
    const char *devpath, const char *speed, const char *vid,
    const char *pid, const char *product, const uint8_t *desc, size_t n)
{
	char	 rel[256];

	puts_attr(root, dir, "busnum", bus);
	puts_attr(root, dir, "devnum", dev);
	puts_attr(root, dir, "devpath", devpath);
	puts_attr(root, dir, "speed", speed);
	puts_attr(root, dir, "idVendor", vid);
	puts_attr(root, dir, "idProduct", pid);
	puts_attr(root, dir, "bConfigurationValue", "1\n");
	puts_attr(root, dir, "manufacturer", "QEMU\n");
	puts_attr(root, dir, "product", product);
	snprintf(rel, sizeof rel, "%s/descriptors", dir);
	put(root, rel, desc, n);
}

static void
usbintf(const char *root, const char *dir, const char *num, const char *alt,
    const char *cls, const char *sub, const char *proto)
{
	puts_attr(root, dir, "bInterfaceNumber", num);
	puts_attr(root, dir, "bAlternateSetting", alt);
	puts_attr(root, dir, "bInterfaceClass", cls);
	puts_attr(root, dir, "bInterfaceSubClass", sub);
	puts_attr(root, dir, "bInterfaceProtocol", proto);
}

#define PCI	"devices/pci0000:00/0000:00:03.0"

static int
setup(void **state)
{
	struct tree *t;
	uint8_t	 hub_desc[43];
	char	*r;

	t = calloc(1, sizeof *t);
	snprintf(t->root, sizeof t->root, "/tmp/sysfs-test.XXXXXX");
	if (mkdtemp(t->root) == NULL)
		return -1;
	r = t->root;
	mkdirs(r, "bus/usb/devices");

	/* Made out of order: the scan sorts. */
	entry(r, PCI "/usb1/1-2", "1-2", "usb");
	usbdev(r, PCI "/usb1/1-2", "1\n", "3\n", "2\n", "480\n", "0627\n",
	    "0001\n", "QEMU USB Keyboard\n", kbd_desc, sizeof kbd_desc);
	puts_attr(r, PCI "/usb1/1-2", "serial", "68284-0000:00:03.0-2\n");
	entry(r, PCI "/usb1/1-2/1-2:1.0", "1-2:1.0", "usbhid");
	/* bAlternateSetting is "%2d": a leading space. */
	usbintf(r, PCI "/usb1/1-2/1-2:1.0", "00\n", " 0\n", "03\n", "01\n",
	    "01\n");
	puts_attr(r, PCI "/usb1/1-2/1-2:1.0", "modalias",
	    "usb:v0627p0001d0000dc00dsc00dp00ic03isc01ip01in00\n");
	puts_attr(r, PCI "/usb1/1-2/1-2:1.0", "authorized", "0\n");
	puts_attr(r, PCI "/usb1/1-2", "authorized", "1\n");
	/* driver_override_show writes "(null)" when none is set. */
	puts_attr(r, PCI "/usb1/1-2/1-2:1.0", "driver_override", "(null)\n");

	entry(r, PCI "/usb1/1-1", "1-1", "usb");
	usbdev(r, PCI "/usb1/1-1", "1\n", "2\n", "1\n", "480\n", "46f4\n",
	    "0001\n", "QEMU USB HARDDRIVE\n", disk_desc, sizeof disk_desc);
	entry(r, PCI "/usb1/1-1/1-1:1.0", "1-1:1.0", "usb-storage");
	usbintf(r, PCI "/usb1/1-1/1-1:1.0", "00\n", " 0\n", "08\n", "06\n",
	    "50\n");
	puts_attr(r, PCI "/usb1/1-1/1-1:1.0", "driver_override", "uas\n");

	memset(hub_desc, 0, sizeof hub_desc);
	memcpy(hub_desc, "\x12\x01\x00\x02\x09\x00\x00\x40\x6b\x1d\x02\x00"
	    "\x01\x06\x03\x02\x01\x01", 18);
	entry(r, PCI "/usb1", "usb1", "usb");
	usbdev(r, PCI "/usb1", "1\n", "1\n", "0\n", "480\n", "1d6b\n",
	    "0002\n", "EHCI Host Controller\n", hub_desc, sizeof hub_desc);
	entry(r, PCI "/usb1/1-0:1.0", "1-0:1.0", "hub");
	usbintf(r, PCI "/usb1/1-0:1.0", "00\n", " 0\n", "09\n", "00\n",
	    "00\n");

	*state = t;
	return 0;
}

static int
teardown(void **state)
{
	struct tree *t = *state;
	char	 cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

static void
test_scan(void **state)
{
	struct tree		*t = *state;
	struct sysfs_usb_dev	*d;
	size_t			 n;
	char			 err[256];

	assert_int_equal(sysfs_usb_scan(t->root, &d, &n, err, sizeof err), 0);
	assert_int_equal(n, 3);

	/* The root hub: named by its bus, devpath 0, its hub interface. */
	assert_string_equal(d[0].name, "usb1");
	assert_int_equal(d[0].busnum, 1);
	assert_int_equal(d[0].devnum, 1);
	assert_string_equal(d[0].devpath, "0");
	assert_int_equal(d[0].vid, 0x1d6b);
	assert_int_equal(d[0].pid, 0x0002);
	assert_string_equal(d[0].driver, "usb");
	assert_int_equal(d[0].desclen, 43);
	assert_int_equal(d[0].nintf, 1);
	assert_string_equal(d[0].intf[0].name, "1-0:1.0");
	assert_int_equal(d[0].intf[0].cls, 0x09);
	assert_string_equal(d[0].intf[0].driver, "hub");

	/* The disk. */
	assert_string_equal(d[1].name, "1-1");
	assert_int_equal(d[1].devnum, 2);
	assert_string_equal(d[1].devpath, "1");
	assert_int_equal(d[1].vid, 0x46f4);
	assert_string_equal(d[1].product, "QEMU USB HARDDRIVE");
	assert_int_equal(d[1].desclen, sizeof disk_desc);
	assert_memory_equal(d[1].desc, disk_desc, sizeof disk_desc);
	assert_int_equal(d[1].nintf, 1);
	assert_int_equal(d[1].intf[0].cls, 0x08);
	assert_int_equal(d[1].intf[0].subcls, 0x06);
	assert_int_equal(d[1].intf[0].proto, 0x50);
	assert_string_equal(d[1].intf[0].driver, "usb-storage");
	assert_string_equal(d[1].intf[0].driver_override, "uas");
	/* no authorized or modalias files: unknown, empty */
	assert_int_equal(d[1].authorized, -1);
	assert_int_equal(d[1].intf[0].authorized, -1);
	assert_string_equal(d[1].intf[0].modalias, "");
	assert_string_equal(d[1].serial, "");	/* no such file */

	/* The keyboard. */
	assert_string_equal(d[2].name, "1-2");
	assert_int_equal(d[2].busnum, 1);
	assert_int_equal(d[2].devnum, 3);
	assert_string_equal(d[2].devpath, "2");
	assert_int_equal(d[2].speed, 480);
	assert_string_equal(d[2].speed_str, "480");
	assert_int_equal(d[2].vid, 0x0627);
	assert_int_equal(d[2].pid, 0x0001);
	assert_int_equal(d[2].config, 1);
	assert_string_equal(d[2].driver, "usb");
	assert_string_equal(d[2].manufacturer, "QEMU");
	assert_string_equal(d[2].product, "QEMU USB Keyboard");
	assert_string_equal(d[2].serial, "68284-0000:00:03.0-2");
	assert_int_equal(d[2].desclen, sizeof kbd_desc);
	assert_memory_equal(d[2].desc, kbd_desc, sizeof kbd_desc);
	assert_int_equal(d[2].nintf, 1);
	assert_string_equal(d[2].intf[0].name, "1-2:1.0");
	assert_int_equal(d[2].intf[0].num, 0);
	assert_int_equal(d[2].intf[0].alt, 0);
	assert_int_equal(d[2].intf[0].cls, 0x03);
	assert_int_equal(d[2].intf[0].subcls, 0x01);
	assert_int_equal(d[2].intf[0].proto, 0x01);
	assert_string_equal(d[2].intf[0].driver, "usbhid");
	assert_string_equal(d[2].intf[0].modalias,
	    "usb:v0627p0001d0000dc00dsc00dp00ic03isc01ip01in00");
	assert_int_equal(d[2].authorized, 1);
	assert_int_equal(d[2].intf[0].authorized, 0);
	assert_string_equal(d[2].intf[0].driver_override, "");
	sysfs_usb_free(d, n);
}

/* Sparse, odd and vanishing entries: defaults, never a crash. */
static void
test_robust(void **state)
{
	struct tree		*t = *state;
	struct sysfs_usb_dev	*d;
	size_t			 i, n;
	char			 err[256], name[32], dir[64];
	const char		*r = t->root;

	/* A device with nothing but its numbers, speed 1.5, unconfigured. */
	entry(r, "devices/usb3/3-1", "3-1", NULL);
	puts_attr(r, "devices/usb3/3-1", "busnum", "3\n");
	puts_attr(r, "devices/usb3/3-1", "devnum", "7\n");
	puts_attr(r, "devices/usb3/3-1", "speed", "1.5\n");
	puts_attr(r, "devices/usb3/3-1", "bConfigurationValue", "\n");
	puts_attr(r, "devices/usb3/3-1", "idVendor", "zzzz\n");
	/* A device unplugged between readdir and open: a dangling link. */
	link_at(r, "../../../devices/gone/2-9", "bus/usb/devices/2-9");
	/* An interface whose device is not there. */
	entry(r, "devices/usb4/4-1:1.0", "4-1:1.0", "usbhid");
	/* A root hub named by its bus only (busnum absent). */
	entry(r, "devices/usb9", "usb9", NULL);
	/* More interfaces than the array holds: the rest is dropped. */
	entry(r, "devices/usb3/3-2", "3-2", NULL);
	puts_attr(r, "devices/usb3/3-2", "busnum", "3\n");
	puts_attr(r, "devices/usb3/3-2", "devnum", "8\n");
	for (i = 0; i < SYSFS_USB_MAXINTF + 4; i++) {
		snprintf(name, sizeof name, "3-2:1.%zu", i);
		snprintf(dir, sizeof dir, "devices/usb3/3-2/%s", name);
		entry(r, dir, name, NULL);
		snprintf(name, sizeof name, "%02zx\n", i);
		puts_attr(r, dir, "bInterfaceNumber", name);
	}

	assert_int_equal(sysfs_usb_scan(t->root, &d, &n, err, sizeof err), 0);
	assert_int_equal(n, 6);
	assert_int_equal(d[3].busnum, 3);
	assert_int_equal(d[3].devnum, 7);
	assert_int_equal(d[3].speed, 1);
	assert_string_equal(d[3].speed_str, "1.5");
	assert_int_equal(d[3].config, 0);
	assert_int_equal(d[3].vid, 0);
	assert_string_equal(d[3].driver, "");
	assert_string_equal(d[3].devpath, "");
	assert_null(d[3].desc);
	assert_int_equal(d[3].desclen, 0);
	assert_int_equal(d[3].nintf, 0);
	assert_int_equal(d[4].devnum, 8);
	assert_int_equal(d[4].nintf, SYSFS_USB_MAXINTF);
	for (i = 1; i < d[4].nintf; i++)
		assert_true(d[4].intf[i - 1].num < d[4].intf[i].num);
	assert_string_equal(d[5].name, "usb9");
	assert_int_equal(d[5].busnum, 9);
	assert_string_equal(d[5].devpath, "0");
	sysfs_usb_free(d, n);
}

static void
test_missing(void **state)
{
	struct tree		*t = *state;
	struct sysfs_usb_dev	*d = (void *)1;
	size_t			 n = 99;
	char			 err[256], root[128];

	snprintf(root, sizeof root, "%s/nonexistent", t->root);
	assert_int_equal(sysfs_usb_scan(root, &d, &n, err, sizeof err), -1);
	assert_null(d);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err, "/nonexistent/bus/usb/devices: no such "
	    "directory (is sysfs mounted?)"));
	sysfs_usb_free(NULL, 0);
}

static void
test_empty(void **state)
{
	struct tree		*t = *state;
	struct sysfs_usb_dev	*d;
	size_t			 n;
	char			 err[256], root[128];

	snprintf(root, sizeof root, "%s/empty", t->root);
	assert_int_equal(mkdir(root, 0755), 0);
	mkdirs(root, "bus/usb/devices");
	assert_int_equal(sysfs_usb_scan(root, &d, &n, err, sizeof err), 0);
	assert_int_equal(n, 0);
	sysfs_usb_free(d, n);
}

/*
 * why_device with the probes a tracer saw fail (the TUI's Devices pane
 * with tui -i --drivers): an interface with no driver names the driver
 * whose probe failed there, and its error by name, before the module
 * reasons; a failure on another interface is not its.
 */
static void
test_why_probe(void **state)
{
	struct sysfs_usb_dev	 d;
	struct sysfs_usb_intf	*in;
	struct why_modules	 m;
	struct why_probe	 p[2] = {
		{ "1-1:1.1", "urbskel", -22 },
		{ "1-1:1.0", "urbbuggy", -19 },
	};
	struct sbuf		 b = { 0 };

	(void)state;
	setenv("URBSCOPE_USB_IDS", "/nonexistent", 1);
	memset(&d, 0, sizeof d);
	memset(&m, 0, sizeof m);
	snprintf(d.name, sizeof d.name, "1-1");
	d.authorized = 1;
	d.nintf = 1;
	in = &d.intf[0];
	snprintf(in->name, sizeof in->name, "1-1:1.0");
	in->cls = 0xff;
	in->authorized = 1;
	why_device(&d, NULL, "/nonexistent", &m, p, 2, &b);
	assert_non_null(b.s);
	assert_non_null(strstr(b.s, "\n  driver      (none)\n"));
	assert_non_null(strstr(b.s, "\n  why         driver urbbuggy was "
	    "tried and its probe returned -ENODEV\n"));
	assert_null(strstr(b.s, "urbskel"));
	/* without the tracer's probes: the module reasons */
	b.len = 0;
	why_device(&d, NULL, "/nonexistent", &m, NULL, 0, &b);
	assert_non_null(strstr(b.s, "\n  why         no modalias: module "
	    "matches not known\n"));
	/* a number the status names lack stays a number */
	p[1].ret = -4095;
	b.len = 0;
	why_device(&d, NULL, "/nonexistent", &m, p, 2, &b);
	assert_non_null(strstr(b.s, "its probe returned -4095\n"));
	sb_free(&b);
}

/*
 * Module aliases matched as modprobe does (fnmatch, a module once, in
 * the files' order), and kept per modalias: asked again (the TUI's
 * Devices pane, at each rebuild) the answer is the same without a new
 * match, and a second interface with the same modalias shares it.
 */
static void
test_why_alias_cache(void **state)
{
	static const char *const al[][2] = {
		{ "usb:v*p*d*dc*dsc*dp*ic03isc*ip*in*", "usbhid" },
		{ "usb:v1234p*d*dc*dsc*dp*ic*isc*ip*in*", "foo_drv" },
		{ "usb:v*p*d*dc*dsc*dp*ic03isc01ip01in*", "usbhid" },
		{ "usb:v*p*d*dc*dsc*dp*ic08isc*ip*in*", "usb-storage" },
	};
	struct sysfs_usb_dev	 d;
	struct why_modules	 m;
	struct sbuf		 b = { 0 }, b2 = { 0 };
	size_t			 i;

	(void)state;
	setenv("URBSCOPE_USB_IDS", "/nonexistent", 1);
	memset(&m, 0, sizeof m);
	m.alias = calloc(nitems(al), sizeof *m.alias);
	assert_non_null(m.alias);
	for (i = 0; i < nitems(al); i++) {
		m.alias[i].pattern = strdup(al[i][0]);
		m.alias[i].module = strdup(al[i][1]);
	}
	m.nalias = nitems(al);
	m.have_alias = 1;
	memset(&d, 0, sizeof d);
	snprintf(d.name, sizeof d.name, "1-1");
	d.authorized = 1;
	d.nintf = 3;
	for (i = 0; i < 3; i++) {
		snprintf(d.intf[i].name, sizeof d.intf[i].name, "1-1:1.%zu", i);
		d.intf[i].authorized = 1;
		d.intf[i].cls = i < 2 ? 0x03 : 0x08;
		d.intf[i].subcls = 1;
		d.intf[i].proto = 1;
		snprintf(d.intf[i].modalias, sizeof d.intf[i].modalias,
		    "usb:v1234p5678d0100dc00dsc00dp00ic%02Xisc01ip01in%02zX",
		    d.intf[i].cls, i < 2 ? (size_t)0 : i);
	}
	why_device(&d, NULL, "/nonexistent", &m, NULL, 0, &b);
	assert_non_null(b.s);
	/* usbhid once (two of its aliases match), foo_drv, not usb-storage */
	assert_non_null(strstr(b.s, "1-1:1.0  ic 03/01/01"));
	assert_non_null(strstr(b.s, "  module      usbhid (not loaded) alias "
	    "usb:v*p*d*dc*dsc*dp*ic03isc*ip*in*\n  module      foo_drv "
	    "(not loaded) alias usb:v1234p*"));
	assert_null(strstr(b.s, "alias usb:v*p*d*dc*dsc*dp*ic03isc01ip01in*"));
	assert_non_null(strstr(b.s, "  module      usb-storage (not loaded)"));
	/* two modaliases asked, each matched once and kept */
	assert_int_equal(m.nseen, 2);
	assert_int_equal(m.seen[0].n, 3);
	assert_int_equal(m.seen[1].n, 2);
	why_device(&d, NULL, "/nonexistent", &m, NULL, 0, &b2);
	assert_int_equal(m.nseen, 2);
	assert_string_equal(b.s, b2.s);
	sb_free(&b);
	sb_free(&b2);
	why_modules_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_robust, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test(test_why_probe),
		cmocka_unit_test(test_why_alias_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
