/*
 * samples/devices/devices.h - the device models shipped with urbscope and
 * what they share.  samples/samples.c lists them in urbscope's catalog;
 * each is a const ops table (hcd/devmodel.h struct usb_devmodel_ops) with
 * its descriptors as wire bytes.
 *
 * Conventions of the framework the models rely on:
 *   - data_in/data_out get the endpoint ADDRESS (0x81, 0x02), not its
 *     number, so IN 1 and OUT 1 can be told apart;
 *   - data_in's max is the room the host offers (the endpoint's max
 *     packet size); returning fewer bytes is a short packet;
 *   - returning DM_STALL from data_in/data_out halts the endpoint until
 *     CLEAR_FEATURE(ENDPOINT_HALT) (or the model's own dm_halt call);
 *   - tick is called once per virtual millisecond while the device is
 *     connected to a powered port.
 */
#ifndef SAMPLES_DEVICES_H
#define SAMPLES_DEVICES_H

#include <stddef.h>
#include <stdint.h>

#include "hcd/devmodel.h"

/* The models, in the catalog's order. */
extern const struct usb_devmodel_ops dm_loopback_ops;	/* "loopback" */
extern const struct usb_devmodel_ops dm_keyboard_ops;	/* "keyboard" */
extern const struct usb_devmodel_ops dm_disk_ops;	/* "disk" */
extern const struct usb_devmodel_ops dm_gamepad_ops;	/* "gamepad" */
extern const struct usb_devmodel_ops dm_serial_ops;	/* "serial" */
extern const struct usb_devmodel_ops dm_speaker_ops;	/* "speaker" */
extern const struct usb_devmodel_ops dm_bluetooth_ops;	/* "bluetooth" */
extern const struct usb_devmodel_ops dm_replay_ops;	/* "replay" */

/* Vendor and product IDs (pid.codes test VID for our own models). */
#define DM_VID_TEST		0x1209
#define DM_PID_KEYBOARD		0x0001
#define DM_PID_DISK		0x0002
#define DM_PID_GAMEPAD		0x0007
#define DM_PID_SERIAL		0x0008
#define DM_PID_SPEAKER		0x0009
#define DM_PID_BLUETOOTH	0x000e
#define DM_VID_LOOPBACK		0xfff0
#define DM_PID_LOOPBACK		0xfff0

/* dm_halt and dm_parse_size, which the models use: hcd/devmodel.h */

#endif /* SAMPLES_DEVICES_H */
