/*
 * decode/ch9.h - USB 2.0 chapter 9 request and descriptor codes (tables
 * 9-4 and 9-5, plus class descriptor types), the kernel's names.  Shared
 * by the decoders (decode.h) and the driver API (core/usb.h), so the two
 * cannot disagree.
 */
#ifndef DECODE_CH9_H
#define DECODE_CH9_H

#define USB_REQ_GET_STATUS		0x00
#define USB_REQ_CLEAR_FEATURE		0x01
#define USB_REQ_SET_FEATURE		0x03
#define USB_REQ_SET_ADDRESS		0x05
#define USB_REQ_GET_DESCRIPTOR		0x06
#define USB_REQ_SET_DESCRIPTOR		0x07
#define USB_REQ_GET_CONFIGURATION	0x08
#define USB_REQ_SET_CONFIGURATION	0x09
#define USB_REQ_GET_INTERFACE		0x0a
#define USB_REQ_SET_INTERFACE		0x0b
#define USB_REQ_SYNCH_FRAME		0x0c
#define USB_DT_DEVICE			0x01
#define USB_DT_CONFIG			0x02
#define USB_DT_STRING			0x03
#define USB_DT_INTERFACE		0x04
#define USB_DT_ENDPOINT			0x05
#define USB_DT_DEVICE_QUALIFIER		0x06
#define USB_DT_OTHER_SPEED_CONFIG	0x07
#define USB_DT_INTERFACE_POWER		0x08
#define USB_DT_OTG			0x09
#define USB_DT_DEBUG			0x0a
#define USB_DT_INTERFACE_ASSOCIATION	0x0b
#define USB_DT_BOS			0x0f
#define USB_DT_DEVICE_CAPABILITY	0x10
#define USB_DT_HID			0x21
#define USB_DT_HID_REPORT		0x22
#define USB_DT_CS_INTERFACE		0x24
#define USB_DT_CS_ENDPOINT		0x25
#define USB_DT_HUB			0x29
#define USB_DT_SS_ENDPOINT_COMP		0x30

/* bLength of the standard descriptors (USB 2.0 tables 9-8, 9-10, 9-12, 9-13) */
#define USB_DT_DEVICE_SIZE		18
#define USB_DT_CONFIG_SIZE		9
#define USB_DT_INTERFACE_SIZE		9
#define USB_DT_ENDPOINT_SIZE		7

#endif /* DECODE_CH9_H */
