/*
 * samples/drivers/drivers.h - the sample drivers built into urbscope:
 * usb-skeleton (the 2.5/2.6.0 usb-skeleton 1.1, for the loopback device),
 * keyboard (a HID boot keyboard driver), buggy (a loopback driver that
 * breaks the rules on purpose), and the class drivers of the gamepad,
 * serial, speaker and bluetooth models: gamepad (HID with report IDs),
 * cdc-acm, uac2 (USB Audio 2.0 playback) and btusb (Bluetooth HCI).  Scenarios load them by name
 * ("load usb-skeleton", which calls usb_register on the driver) from the
 * catalog of samples/samples.c.
 */
#ifndef SAMPLES_DRIVERS_H
#define SAMPLES_DRIVERS_H

#include "core/usb.h"

extern struct usb_driver skel_driver;
extern struct usb_driver kbd_driver;
extern struct usb_driver buggy_driver;
extern struct usb_driver gamepad_driver;
extern struct usb_driver acm_driver;
extern struct usb_driver uac2_driver;
extern struct usb_driver btusb_driver;

#endif /* SAMPLES_DRIVERS_H */
