/*
 * samples/samples.c - the catalog of the device models and drivers that
 * ship with urbscope: scenarios plug and load them by name (there are no
 * modules to insmod).  The library below never names them.
 */
#include <stddef.h>

#include "samples/devices/devices.h"
#include "samples/drivers/drivers.h"
#include "samples/samples.h"

static const struct usb_devmodel_ops *const sample_models[] = {
	&dm_loopback_ops,
	&dm_keyboard_ops,
	&dm_disk_ops,
	NULL
};

static const struct sim_driver sample_drivers[] = {
	{ "usb-skeleton", &skel_driver,
	    "usb-skeleton 1.1 (2.6.0) for the loopback fff0:fff0" },
	{ "keyboard", &kbd_driver,
	    "HID boot keyboard (interface 3/1/1), logs the keys typed" },
	{ "buggy", &buggy_driver,
	    "loopback driver making the classic mistakes on purpose" },
	{ NULL, NULL, NULL }
};

const struct sim_catalog sample_catalog = {
	sample_models,
	sample_drivers,
};
