/*
 * decode/usbclass.h - class request codes, control selectors and
 * descriptor subtypes that both sides of a sample use: the drivers
 * (samples/drivers/) send them, the device models (samples/devices/)
 * answer them, so the two cannot disagree.  Names as Linux's
 * include/linux/hid.h, include/uapi/linux/usb/cdc.h and
 * include/linux/usb/audio-v2.h have them.
 */
#ifndef DECODE_USBCLASS_H
#define DECODE_USBCLASS_H

/* HID 1.11 7.2: class requests; wValue's high byte the report type */
#define HID_REQ_GET_REPORT		0x01
#define HID_REQ_GET_IDLE		0x02
#define HID_REQ_GET_PROTOCOL		0x03
#define HID_REQ_SET_REPORT		0x09
#define HID_REQ_SET_IDLE		0x0a
#define HID_REQ_SET_PROTOCOL		0x0b
#define HID_RT_INPUT			1
#define HID_RT_OUTPUT			2
#define HID_RT_FEATURE			3

/* CDC 1.2 6.2 and PSTN 1.2 6.3: requests, the control line state's and
 * the serial state's bits (PSTN tables 18 and 31) */
#define USB_CDC_REQ_SET_LINE_CODING		0x20
#define USB_CDC_REQ_GET_LINE_CODING		0x21
#define USB_CDC_REQ_SET_CONTROL_LINE_STATE	0x22
#define USB_CDC_REQ_SEND_BREAK			0x23
#define USB_CDC_NOTIFY_SERIAL_STATE		0x20
#define USB_CDC_CTRL_DTR			0x01
#define USB_CDC_CTRL_RTS			0x02
#define USB_CDC_SERIAL_STATE_DCD		0x01	/* bRxCarrier */
#define USB_CDC_SERIAL_STATE_DSR		0x02	/* bTxCarrier */
#define USB_CDC_SERIAL_STATE_BREAK		0x04
#define USB_CDC_UNION_TYPE			0x06	/* CDC 1.2 table 13 */

/* UAC 2.0 A.9 (subtypes), A.14 (requests), A.17.1 and A.17.7 (control
 * selectors of a clock source and a feature unit) */
#define UAC_FEATURE_UNIT		0x06
#define UAC2_CLOCK_SOURCE		0x0a
#define UAC2_CS_CUR			0x01
#define UAC2_CS_RANGE			0x02
#define UAC2_CS_CONTROL_SAM_FREQ	0x01
#define UAC2_CS_CONTROL_CLOCK_VALID	0x02
#define UAC_FU_MUTE			0x01
#define UAC_FU_VOLUME			0x02

#endif /* DECODE_USBCLASS_H */
