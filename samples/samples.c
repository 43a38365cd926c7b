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
	&dm_gamepad_ops,
	&dm_serial_ops,
	&dm_speaker_ops,
	&dm_bluetooth_ops,
	&dm_replay_ops,
	NULL
};

static const struct sim_driver sample_drivers[] = {
	{ "usb-skeleton", &skel_driver,
	    "usb-skeleton 1.1 (2.6.0) for the loopback fff0:fff0" },
	{ "keyboard", &kbd_driver,
	    "HID boot keyboard (interface 3/1/1), logs the keys typed" },
	{ "buggy", &buggy_driver,
	    "loopback driver making the classic mistakes on purpose" },
	{ "gamepad", &gamepad_driver,
	    "HID without boot protocol (3/0/0), reports with IDs logged" },
	{ "cdc-acm", &acm_driver,
	    "CDC-ACM serial (2/2/1), /dev/usb/ttyACM0 reads what came back" },
	{ "uac2", &uac2_driver,
	    "USB Audio 2.0 playback (1/1/0x20), /dev/usb/pcm0 plays" },
	{ "btusb", &btusb_driver,
	    "Bluetooth HCI (0xe0/1/1): init, LE scan, ACL, L2CAP, SCO" },
	{ NULL, NULL, NULL }
};

const struct sim_catalog sample_catalog = {
	sample_models,
	sample_drivers,
};
