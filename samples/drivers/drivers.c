/*
 * samples/drivers/drivers.c - the table of built-in sample drivers, so
 * that scenarios can load them by name (there are no modules to insmod).
 */
#include <string.h>

#include "samples/drivers/drivers.h"

const struct sample_driver sample_drivers[] = {
	{ "usb-skeleton", &skel_driver,
	    "usb-skeleton 1.1 (2.6.0) for the loopback fff0:fff0" },
	{ "keyboard", &kbd_driver,
	    "HID boot keyboard (interface 3/1/1), logs the keys typed" },
	{ "buggy", &buggy_driver,
	    "loopback driver making the classic mistakes on purpose" },
	{ NULL, NULL, NULL }
};

const struct sample_driver *
sample_driver_find(const char *name)
{
	const struct sample_driver *d;

	for (d = sample_drivers; d->name != NULL; d++) {
		if (strcmp(d->name, name) == 0)
			return d;
	}
	return NULL;
}
