/*
 * tests/unit/test-usbids.c - decode/dec-usbids.c: a small usb.ids written
 * by the test (comments, interface lines, CRLF, vendors out of order, the
 * class section that ends the ids and names the classes), no database,
 * and real lookups in the installed database (Debian's usb.ids or hwdata
 * package; skipped when neither is there) with the load time said.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "decode/usbids.h"

/* Where Debian's hwdata and usb.ids packages put it, as the search in
 * dec-usbids.c looks. */
static const char *const real_ids[] = {
	"/usr/share/hwdata/usb.ids",
	"/usr/share/misc/usb.ids",
	"/var/lib/usbutils/usb.ids",
};

static const char fixture[] =
    "#\n"
    "# List of USB ID's\n"
    "# Version: 2023.01.16\n"
    "\n"
    "# Vendors, devices and interfaces. Please keep sorted.\n"
    "0001  Fry's Electronics\n"
    "\t7778  Counterfeit flash drive [Kingston]\n"
    "0627  Adomax Technology Co., Ltd\n"
    "\t0001  QEMU Tablet\n"
    "1d6b  Linux Foundation\n"
    "\t0003  3.0 root hub\n"
    "\t0001  1.1 root hub\n"
    "\t0002  2.0 root hub\n"
    "\t\t00  an interface line, not a product\n"
    "046d  Logitech, Inc.\r\n"
    "\tc52b  Unifying Receiver\r\n"
    "\n"
    "# List of known device classes, subclasses and protocols\n"
    "C 00  (Defined at Interface level)\n"
    "C 03  Human Interface Device\n"
    "\t01  Boot Interface Subclass\n"
    "\t\t01  Keyboard\n"
    "ffff  after the vendor section: not a vendor\n";

static char	 path[64];

static int
setup(void **state)
{
	FILE	*f;
	int	 fd;

	(void)state;
	snprintf(path, sizeof path, "/tmp/usbids-test.XXXXXX");
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL)
		return -1;
	fputs(fixture, f);
	fclose(f);
	usbids_set_path(path);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	usbids_set_path(NULL);
	unlink(path);
	return 0;
}

static void
test_fixture(void **state)
{
	(void)state;
	assert_string_equal(usbids_vendor(0x0001), "Fry's Electronics");
	assert_string_equal(usbids_product(0x0001, 0x7778),
	    "Counterfeit flash drive [Kingston]");
	assert_string_equal(usbids_vendor(0x0627),
	    "Adomax Technology Co., Ltd");
	assert_string_equal(usbids_product(0x0627, 0x0001), "QEMU Tablet");
	assert_string_equal(usbids_vendor(0x1d6b), "Linux Foundation");
	/* Products out of order in the file are still found. */
	assert_string_equal(usbids_product(0x1d6b, 0x0001), "1.1 root hub");
	assert_string_equal(usbids_product(0x1d6b, 0x0002), "2.0 root hub");
	assert_string_equal(usbids_product(0x1d6b, 0x0003), "3.0 root hub");
	/* So is a vendor out of order, and CRLF is not part of a name. */
	assert_string_equal(usbids_vendor(0x046d), "Logitech, Inc.");
	assert_string_equal(usbids_product(0x046d, 0xc52b),
	    "Unifying Receiver");
	/* Class names, as lsusb -t prints them; subclass lines are not. */
	assert_string_equal(usbids_class(0x00), "(Defined at Interface level)");
	assert_string_equal(usbids_class(0x03), "Human Interface Device");
	assert_null(usbids_class(0x01));
	assert_null(usbids_class(0xff));
}

static void
test_unknown(void **state)
{
	(void)state;
	assert_null(usbids_vendor(0x0000));
	assert_null(usbids_vendor(0x0002));
	assert_null(usbids_product(0x0627, 0x0002));
	assert_null(usbids_product(0x9999, 0x0001));
	/* Interface lines are no products; the class section no vendors. */
	assert_null(usbids_product(0x1d6b, 0x0000));
	assert_null(usbids_vendor(0xffff));
	assert_null(usbids_product(0x046d, 0x0001));
}

static void
test_no_database(void **state)
{
	(void)state;
	usbids_set_path(NULL);
	assert_null(usbids_vendor(0x1d6b));
	assert_null(usbids_product(0x1d6b, 0x0002));
	assert_null(usbids_class(0x03));
	usbids_set_path("/nonexistent/usb.ids");
	assert_null(usbids_vendor(0x1d6b));
	/* A directory or an empty file: no names, no crash. */
	usbids_set_path("/tmp");
	assert_null(usbids_vendor(0x1d6b));
	usbids_set_path("/dev/null");
	assert_null(usbids_vendor(0x1d6b));
	/* Back to the fixture: the new path is read on the next lookup. */
	usbids_set_path(path);
	assert_string_equal(usbids_vendor(0x1d6b), "Linux Foundation");
}

static void
test_real(void **state)
{
	struct timespec	 t0, t1;
	const char	*real = NULL;
	double		 ms;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof real_ids / sizeof real_ids[0]; i++) {
		if (access(real_ids[i], R_OK) == 0) {
			real = real_ids[i];
			break;
		}
	}
	if (real == NULL) {
		print_message("skip: no usb.ids (install usb.ids or hwdata)\n");
		skip();
	}
	usbids_set_path(real);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_string_equal(usbids_vendor(0x1d6b), "Linux Foundation");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	/* said, not asserted: the machines that run this are shared */
	print_message("%s loaded in %.1f ms (sanitizers on)\n", real, ms);
	assert_string_equal(usbids_product(0x1d6b, 0x0002), "2.0 root hub");
	assert_string_equal(usbids_vendor(0x0627),
	    "Adomax Technology Co., Ltd");
	assert_string_equal(usbids_vendor(0x46f4), "QEMU");
	/* The last vendor before the class section, and the first. */
	assert_non_null(usbids_vendor(0x0001));
	assert_null(usbids_product(0x1d6b, 0xfffe));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixture, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_database, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_real, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
