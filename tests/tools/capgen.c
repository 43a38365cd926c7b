/*
 * tests/tools/capgen.c - a deterministic generator of realistic usbmon
 * traffic, for the samples, the golden tests and the benchmarks.
 *
 *	capgen SCENARIO [-n RECORDS] [-F pcap|pcapng|usbmon]
 *	    [-L 220|249|288|293-295] [--big-endian] -w OUT
 *
 * -L 249 writes the URBs as USBPcap (LINKTYPE_USBPCAP) packets instead of
 * usbmon ones; the usbpcap scenario is USBPcap's own, the darwin one
 * macOS's (LINKTYPE_USB_DARWIN, 266), the usbll one a
 * bus-level capture (LINKTYPE_USB_2_0_FULL_SPEED, or -L 288).
 *
 * Every record goes through the capture sinks (capture/capture.h), so the
 * pcap, pcapng and usbmon text files all come from one model of the
 * traffic.  The model imitates what Linux 6.1 puts into usbmon: the hub
 * driver's port requests, the enumeration sequence of hub_port_init and
 * usb_new_device in drivers/usb/core/hub.c (device 0 until and including
 * SET_ADDRESS), usbhid, usb-storage's bulk-only transport,
 * snd-usb-audio's isochronous URBs and class requests (UAC 1 and 2, USB
 * MIDI) and uvcvideo's controls, probe/commit and isochronous video, with
 * the URB ids, transfer flags and lengths those drivers use.  The reference is the real capture in
 * tests/data/linux61/usbmon-0u.txt.  The usbmon event rules (which event
 * carries data, len_urb, flags) are those of mon_bin_event in
 * drivers/usb/mon/mon_bin.c.
 *
 * Output is a pure function of the arguments: a fixed seed, and a virtual
 * clock in whole microseconds (usbmon has no finer time: ts_usec of
 * struct mon_bin_hdr) that starts at GEN_EPOCH.
 */

#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "decode/decode.h"

/* Virtual clock start, 2023-11-14 22:13:20 UTC, and its units, in ns. */
#define GEN_EPOCH	(1700000000ULL * 1000000000ULL)
#define US		1000ULL
#define MS		(1000 * US)

#define GEN_SEED	0x5eed0f00d15ea5e5ULL
#define GEN_BUFSZ	(128 * 1024)	/* payloads: 64 KiB + slack */
#define GEN_ISO_MAX	8		/* frames per ISO URB here */
#define GEN_BLOCK	512		/* disk block size */

/* Linux errno values (asm-generic/errno*.h) as usbmon reports them. */
enum {
	ST_ENOENT = -2,
	ST_EXDEV = -18,
	ST_ENODEV = -19,
	ST_EPIPE = -32,
	ST_ESHUTDOWN = -108,
	ST_EREMOTEIO = -121,
};

/* urb->transfer_flags (include/linux/usb.h), usbmon's xfer_flags. */
#define UF_SHORT_NOT_OK	0x0001
#define UF_ISO_ASAP	0x0002
#define UF_NO_DMA_MAP	0x0004		/* URB_NO_TRANSFER_DMA_MAP */
#define UF_DIR_IN	0x0200

/* bmRequestType: direction | type | recipient (USB 2.0 9.3.1). */
#define RT_DEV_IN	0x80
#define RT_DEV_OUT	0x00
#define RT_INTF_IN	0x81
#define RT_INTF_OUT	0x01
#define RT_EP_OUT	0x02
#define RT_HUB_IN	0xa0		/* class, device: the hub itself */
#define RT_PORT_IN	0xa3		/* class, other: a hub port */
#define RT_PORT_OUT	0x23
#define RT_CLS_INTF_IN	0xa1
#define RT_CLS_INTF_OUT	0x21
#define RT_CLS_EP_IN	0xa2
#define RT_CLS_EP_OUT	0x22

/* Standard feature selector ENDPOINT_HALT (USB 2.0 table 9-6). */
#define FEAT_EP_HALT	0

/* Hub port features, status and change bits (USB 2.0 11.24.2). */
#define PF_RESET	4		/* table 11-17 */
#define PF_POWER	8
#define PF_C_CONNECTION	16
#define PF_C_ENABLE	17
#define PF_C_RESET	20
#define PS_CONNECTION	0x0001		/* table 11-21 */
#define PS_ENABLE	0x0002
#define PS_POWER	0x0100
#define PS_HIGH_SPEED	0x0400
#define PC_CONNECTION	0x0001		/* table 11-22 */
#define PC_ENABLE	0x0002
#define PC_RESET	0x0010

/* Class requests: HID 1.11 7.2, BOT 1.0 3.2, UAC 1.0 5.2.1. */
#define HID_SET_REPORT	0x09
#define HID_SET_IDLE	0x0a
#define HID_RT_OUTPUT	0x02		/* report type: wValue 15:8 */
#define BOT_GET_MAX_LUN	0xfe
#define UAC_SET_CUR	0x01
#define UAC_GET_CUR	0x81
#define UAC_SAMPLING_FREQ 0x01		/* endpoint control selector */

/* Bulk-only transport wrappers (BOT 1.0 5.1, 5.2). */
#define CBW_LEN		31
#define CSW_LEN		13
#define CBW_IN		0x80		/* bmCBWFlags: data-in */

/* SCSI operation codes (SPC-4, SBC-3). */
#define SCSI_TUR	0x00
#define SCSI_REQ_SENSE	0x03
#define SCSI_INQUIRY	0x12
#define SCSI_MODE_SENSE6 0x1a
#define SCSI_READ_CAP10	0x25
#define SCSI_READ10	0x28
#define SCSI_WRITE10	0x2a

/* Linux's SCSI_SENSE_BUFFERSIZE: the REQUEST SENSE allocation length
 * usb-storage uses for devices with sane sense (the real capture). */
#define SENSE_ALLOC	96

/* ------------------------------------------------------------------------
 * Descriptors.  Root hubs are copied from the real capture (Linux 6.1
 * under QEMU); devices use pid.codes test ids 1209:0001-0004.
 */

static const uint8_t ehci_rh_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0x09, 0x00, 0x00, 64,
	0x6b, 0x1d, 0x02, 0x00, 0x01, 0x06, 3, 2, 1, 1
};
static const uint8_t ehci_rh_cfg[] = {
	9, USB_DT_CONFIG, 25, 0, 1, 1, 0, 0xe0, 0,
	9, USB_DT_INTERFACE, 0, 0, 1, 0x09, 0, 0, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x03, 4, 0, 0x0c
};
/* The EHCI root hub answers with the whole 15-byte struct (real capture). */
static const uint8_t ehci_rh_hubdesc[15] = {
	9, USB_DT_HUB, 6, 0x0a, 0x00, 0x0a, 0, 0x00, 0xff
};

static const uint8_t uhci_rh_dev[18] = {
	18, USB_DT_DEVICE, 0x10, 0x01, 0x09, 0x00, 0x00, 64,
	0x6b, 0x1d, 0x01, 0x00, 0x01, 0x06, 3, 2, 1, 1
};
static const uint8_t uhci_rh_cfg[] = {
	9, USB_DT_CONFIG, 25, 0, 1, 1, 0, 0xe0, 0,
	9, USB_DT_INTERFACE, 0, 0, 1, 0x09, 0, 0, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x03, 2, 0, 0xff
};
static const uint8_t uhci_rh_hubdesc[9] = {
	9, USB_DT_HUB, 2, 0x0a, 0x00, 0x01, 0, 0x00, 0xff
};

/* HID boot keyboard, high speed, interrupt IN 0x81 every 2^(7-1) uframes. */
static const uint8_t kbd_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0x00, 0x00, 0x00, 64,
	0x09, 0x12, 0x01, 0x00, 0x00, 0x01, 1, 2, 3, 1
};
static const uint8_t kbd_cfg[] = {
	9, USB_DT_CONFIG, 34, 0, 1, 1, 0, 0xa0, 50,
	9, USB_DT_INTERFACE, 0, 0, 1, 0x03, 0x01, 0x01, 0,
	9, USB_DT_HID, 0x11, 0x01, 0, 1, USB_DT_HID_REPORT, 63, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x03, 8, 0, 7
};
/* The boot keyboard report descriptor of HID 1.11 appendix E.6. */
static const uint8_t kbd_report[63] = {
	0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x75, 0x01, 0x95, 0x08,
	0x05, 0x07, 0x19, 0xe0, 0x29, 0xe7, 0x15, 0x00, 0x25, 0x01,
	0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x05,
	0x75, 0x01, 0x05, 0x08, 0x19, 0x01, 0x29, 0x05, 0x91, 0x02,
	0x95, 0x01, 0x75, 0x03, 0x91, 0x01, 0x95, 0x06, 0x75, 0x08,
	0x15, 0x00, 0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65,
	0x81, 0x00, 0xc0
};

/* BOT disk, high speed: class 8/6/0x50, bulk IN 0x81, OUT 0x02, 512 B. */
static const uint8_t disk_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0x00, 0x00, 0x00, 64,
	0x09, 0x12, 0x02, 0x00, 0x00, 0x01, 1, 2, 3, 1
};
static const uint8_t disk_cfg[] = {
	9, USB_DT_CONFIG, 32, 0, 1, 1, 0, 0x80, 250,
	9, USB_DT_INTERFACE, 0, 0, 2, 0x08, 0x06, 0x50, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x02, 0x00, 0x02, 0,
	7, USB_DT_ENDPOINT, 0x02, 0x02, 0x00, 0x02, 0
};

/* The same disk as a full-speed flash drive: 64-byte bulk packets. */
static const uint8_t flash_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0x00, 0x00, 0x00, 64,
	0x09, 0x12, 0x03, 0x00, 0x00, 0x01, 1, 2, 3, 1
};
static const uint8_t flash_cfg[] = {
	9, USB_DT_CONFIG, 32, 0, 1, 1, 0, 0x80, 50,
	9, USB_DT_INTERFACE, 0, 0, 2, 0x08, 0x06, 0x50, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x02, 64, 0, 0,
	7, USB_DT_ENDPOINT, 0x02, 0x02, 64, 0, 0
};

/*
 * USB Audio 1.0 device, high speed: a stereo 48 kHz 16-bit microphone
 * (interface 1, ISO IN 0x81, asynchronous) and speaker (interface 2, ISO
 * OUT 0x02, adaptive), each with a zero-bandwidth alt setting 0 and the
 * streaming alt setting 1 (UAC 1.0 4.3-4.6, frmts 2.2.5).  bInterval 4:
 * one packet every 2^3 microframes.
 */
static const uint8_t audio_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0x00, 0x00, 0x00, 64,
	0x09, 0x12, 0x04, 0x00, 0x00, 0x01, 1, 2, 3, 1
};
#define AUDIO_MAXP	200		/* 48 kHz * 4 B per ms + margin */
#define AUDIO_FRAME	192		/* bytes per ms, 48 kHz stereo */
static const uint8_t audio_cfg[] = {
	9, USB_DT_CONFIG, 174, 0, 3, 1, 0, 0x80, 50,
	/* interface 0: AudioControl, header + 2 input + 2 output terms */
	9, USB_DT_INTERFACE, 0, 0, 0, 0x01, 0x01, 0x00, 0,
	10, USB_DT_CS_INTERFACE, 0x01, 0x00, 0x01, 52, 0, 2, 1, 2,
	12, USB_DT_CS_INTERFACE, 0x02, 1, 0x01, 0x02, 0, 2, 0x03, 0x00, 0, 0,
	9, USB_DT_CS_INTERFACE, 0x03, 2, 0x01, 0x01, 0, 1, 0,
	12, USB_DT_CS_INTERFACE, 0x02, 3, 0x01, 0x01, 0, 2, 0x03, 0x00, 0, 0,
	9, USB_DT_CS_INTERFACE, 0x03, 4, 0x01, 0x03, 0, 3, 0,
	/* interface 1: capture stream */
	9, USB_DT_INTERFACE, 1, 0, 0, 0x01, 0x02, 0x00, 0,
	9, USB_DT_INTERFACE, 1, 1, 1, 0x01, 0x02, 0x00, 0,
	7, USB_DT_CS_INTERFACE, 0x01, 2, 1, 0x01, 0x00,
	11, USB_DT_CS_INTERFACE, 0x02, 1, 2, 2, 16, 1, 0x80, 0xbb, 0x00,
	9, USB_DT_ENDPOINT, 0x81, 0x05, AUDIO_MAXP, 0, 4, 0, 0,
	7, USB_DT_CS_ENDPOINT, 0x01, 0x01, 0, 0, 0,
	/* interface 2: playback stream */
	9, USB_DT_INTERFACE, 2, 0, 0, 0x01, 0x02, 0x00, 0,
	9, USB_DT_INTERFACE, 2, 1, 1, 0x01, 0x02, 0x00, 0,
	7, USB_DT_CS_INTERFACE, 0x01, 3, 1, 0x01, 0x00,
	11, USB_DT_CS_INTERFACE, 0x02, 1, 2, 2, 16, 1, 0x80, 0xbb, 0x00,
	9, USB_DT_ENDPOINT, 0x02, 0x09, AUDIO_MAXP, 0, 4, 0, 0,
	7, USB_DT_CS_ENDPOINT, 0x01, 0x01, 0, 0, 0
};


/*
 * USB Video Class 1.1 webcam, high speed (UVC 1.1 3.7, 3.9, the MJPEG and
 * uncompressed payload specifications): an interface association of the
 * video control interface 0 (header, camera terminal 1, processing unit
 * 2, extension unit 3, output terminal 4, a status interrupt endpoint
 * 0x83) and the video streaming interface 1 (input header, MJPEG format 1
 * with a 640x480 frame of two discrete intervals and a 1280x720 frame of
 * continuous ones, uncompressed YUY2 format 2 with a 640x480 frame, color
 * matching; alt 1 has isochronous IN 0x81, 1024 bytes, 1 per
 * microframe).
 */
static const uint8_t uvc_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0xef, 0x02, 0x01, 64,
	0x09, 0x12, 0x05, 0x00, 0x00, 0x01, 1, 2, 3, 1
};
#define UVC_MAXP	1024
#define UVC_CS_INTERFACE 0x24
#define UVC_CS_ENDPOINT	0x25
static const uint8_t uvc_cfg[] = {
	9, USB_DT_CONFIG, 0x33, 0x01, 2, 1, 0, 0x80, 250,
	8, USB_DT_INTERFACE_ASSOCIATION, 0, 2, 0x0e, 0x03, 0x00, 2,
	/* interface 0: video control */
	9, USB_DT_INTERFACE, 0, 0, 1, 0x0e, 0x01, 0x00, 2,
	13, UVC_CS_INTERFACE, 0x01, 0x10, 0x01, 79, 0,
	0x00, 0x6c, 0xdc, 0x02, 1, 1,			/* 48 MHz */
	18, UVC_CS_INTERFACE, 0x02, 1, 0x01, 0x02, 0, 0, 0, 0, 0, 0, 0, 0,
	3, 0x0a, 0x00, 0x02,			/* AE, exposure, autofocus */
	12, UVC_CS_INTERFACE, 0x05, 2, 1, 0x00, 0x40, 2, 0x7f, 0x15, 0,
	0x00,
	27, UVC_CS_INTERFACE, 0x06, 3,
	0xdd, 0x88, 0x0f, 0x8a, 0x1c, 0xba, 0x49, 0x54,	/* guidExtensionCode */
	0x8a, 0x25, 0xf7, 0x87, 0x59, 0xf6, 0x17, 0x5c,
	4, 1, 2, 2, 0x0f, 0x00, 0,
	9, UVC_CS_INTERFACE, 0x03, 4, 0x01, 0x01, 0, 3, 0,
	7, USB_DT_ENDPOINT, 0x83, 0x03, 16, 0, 6,
	5, UVC_CS_ENDPOINT, 0x03, 16, 0,
	/* interface 1: video streaming */
	9, USB_DT_INTERFACE, 1, 0, 0, 0x0e, 0x02, 0x00, 0,
	15, UVC_CS_INTERFACE, 0x01, 2, 165, 0, 0x81, 0x00, 4, 2, 1, 0, 1,
	0x00, 0x00,
	11, UVC_CS_INTERFACE, 0x06, 1, 2, 0x01, 1, 0, 0, 0x00, 0,
	34, UVC_CS_INTERFACE, 0x07, 1, 0x00, 0x80, 0x02, 0xe0, 0x01,
	0x00, 0x00, 0x77, 0x01, 0x00, 0x00, 0xca, 0x08,	/* bit rates */
	0x00, 0x60, 0x09, 0x00, 0x15, 0x16, 0x05, 0x00,	/* buffer, 30 fps */
	2, 0x15, 0x16, 0x05, 0x00, 0x2a, 0x2c, 0x0a, 0x00,
	38, UVC_CS_INTERFACE, 0x07, 2, 0x00, 0x00, 0x05, 0xd0, 0x02,
	0x00, 0x00, 0x65, 0x04, 0x00, 0x00, 0xca, 0x08,
	0x00, 0x20, 0x1c, 0x00, 0x15, 0x16, 0x05, 0x00,
	0, 0x15, 0x16, 0x05, 0x00, 0x80, 0x96, 0x98, 0x00,
	0x15, 0x16, 0x05, 0x00,
	27, UVC_CS_INTERFACE, 0x04, 2, 1,
	0x59, 0x55, 0x59, 0x32, 0x00, 0x00, 0x10, 0x00,	/* YUY2 */
	0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
	16, 1, 0, 0, 0x00, 0,
	34, UVC_CS_INTERFACE, 0x05, 1, 0x00, 0x80, 0x02, 0xe0, 0x01,
	0x00, 0x00, 0x65, 0x04, 0x00, 0x00, 0xca, 0x08,
	0x00, 0x60, 0x09, 0x00, 0x2a, 0x2c, 0x0a, 0x00,
	2, 0x2a, 0x2c, 0x0a, 0x00, 0x40, 0x42, 0x0f, 0x00,
	6, UVC_CS_INTERFACE, 0x0d, 1, 1, 4,
	9, USB_DT_INTERFACE, 1, 1, 1, 0x0e, 0x02, 0x00, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x05, UVC_MAXP & 0xff, UVC_MAXP >> 8, 1
};

/*
 * USB Audio Class 2.0 headset, high speed (UAC 2.0 4.7-4.10): an
 * interface association of the audio control interface 0 (header,
 * internal programmable clock source 16, clock selector 17, USB streaming
 * input terminal 1, stereo feature unit 2 with mute and volume, extension
 * unit 5, headphones output terminal 3), the streaming interface 1 (alt
 * 1: 24-bit PCM in 32-bit slots, isochronous OUT 0x01) and a MIDI
 * streaming interface 2 (USB MIDI 1.0: two jacks, bulk OUT 0x02).
 */
static const uint8_t uac2_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0xef, 0x02, 0x01, 64,
	0x09, 0x12, 0x06, 0x00, 0x00, 0x01, 1, 2, 3, 1
};
static const uint8_t uac2_cfg[] = {
	9, USB_DT_CONFIG, 0xd6, 0x00, 3, 1, 0, 0x80, 50,
	8, USB_DT_INTERFACE_ASSOCIATION, 0, 2, 0x01, 0x00, 0x20, 0,
	/* interface 0: audio control, UAC 2 */
	9, USB_DT_INTERFACE, 0, 0, 0, 0x01, 0x01, 0x20, 0,
	9, UVC_CS_INTERFACE, 0x01, 0x00, 0x02, 0x04, 88, 0, 0x00,
	8, UVC_CS_INTERFACE, 0x0a, 16, 0x03, 0x07, 0, 0,
	8, UVC_CS_INTERFACE, 0x0b, 17, 1, 16, 0x03, 0,
	17, UVC_CS_INTERFACE, 0x02, 1, 0x01, 0x01, 0, 17, 2,
	0x03, 0x00, 0x00, 0x00, 0, 0x00, 0x00, 0,
	18, UVC_CS_INTERFACE, 0x06, 2, 1,
	0x0f, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00,
	0x0c, 0x00, 0x00, 0x00, 0,
	16, UVC_CS_INTERFACE, 0x09, 5, 0x34, 0x12, 1, 2, 2,
	0x03, 0x00, 0x00, 0x00, 0, 0x00, 0,
	12, UVC_CS_INTERFACE, 0x03, 3, 0x02, 0x03, 0, 5, 17, 0x00, 0x00,
	0,
	/* interface 1: audio streaming */
	9, USB_DT_INTERFACE, 1, 0, 0, 0x01, 0x02, 0x20, 0,
	9, USB_DT_INTERFACE, 1, 1, 1, 0x01, 0x02, 0x20, 0,
	16, UVC_CS_INTERFACE, 0x01, 1, 0x05, 0x01, 0x01, 0x00, 0x00, 0x00,
	2, 0x03, 0x00, 0x00, 0x00, 0,
	6, UVC_CS_INTERFACE, 0x02, 0x01, 4, 24,
	7, USB_DT_ENDPOINT, 0x01, 0x0d, 0x88, 0x01, 4,
	8, UVC_CS_ENDPOINT, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* interface 2: MIDI streaming */
	9, USB_DT_INTERFACE, 2, 0, 1, 0x01, 0x03, 0x00, 0,
	7, UVC_CS_INTERFACE, 0x01, 0x00, 0x01, 36, 0,
	6, UVC_CS_INTERFACE, 0x02, 0x01, 1, 0,
	9, UVC_CS_INTERFACE, 0x03, 0x02, 2, 1, 1, 1, 0,
	9, USB_DT_ENDPOINT, 0x02, 0x02, 0x00, 0x02, 0, 0, 0,
	5, UVC_CS_ENDPOINT, 0x01, 1, 1
};

struct gdesc {
	const uint8_t	*dev;		/* device descriptor (18) */
	const uint8_t	*cfg;		/* configuration hierarchy */
	size_t		 cfglen;
	const char	*str[4];	/* strings by index 1..3 */
};

static const struct gdesc ehci_rh = {
	ehci_rh_dev, ehci_rh_cfg, sizeof ehci_rh_cfg,
	{ NULL, "0000:00:03.0", "EHCI Host Controller",
	  "Linux 6.1.0-57-amd64 ehci_hcd" }
};
static const struct gdesc uhci_rh = {
	uhci_rh_dev, uhci_rh_cfg, sizeof uhci_rh_cfg,
	{ NULL, "0000:00:04.0", "UHCI Host Controller",
	  "Linux 6.1.0-57-amd64 uhci_hcd" }
};
static const struct gdesc kbd = {
	kbd_dev, kbd_cfg, sizeof kbd_cfg,
	{ NULL, "urbscope", "Synthetic Boot Keyboard", "KBD0001" }
};
static const struct gdesc disk = {
	disk_dev, disk_cfg, sizeof disk_cfg,
	{ NULL, "urbscope", "Synthetic USB Disk", "DSK000000000002" }
};
static const struct gdesc flash = {
	flash_dev, flash_cfg, sizeof flash_cfg,
	{ NULL, "urbscope", "Synthetic Flash Drive", "FLS000000000003" }
};
static const struct gdesc audio = {
	audio_dev, audio_cfg, sizeof audio_cfg,
	{ NULL, "urbscope", "Synthetic USB Audio", "AUD0004" }
};
static const struct gdesc uvc = {
	uvc_dev, uvc_cfg, sizeof uvc_cfg,
	{ NULL, "urbscope", "Synthetic UVC Webcam", "CAM0005" }
};
static const struct gdesc uac2 = {
	uac2_dev, uac2_cfg, sizeof uac2_cfg,
	{ NULL, "urbscope", "Synthetic UAC2 Headset", "HDS0006" }
};

/* ------------------------------------------------------------------------
 * The generator: clock, random numbers, record output.
 */

struct gen {
	struct cap_sink	*sink;
	uint64_t	 now;		/* virtual clock, ns, whole us */
	uint64_t	 nrec;		/* records written */
	uint64_t	 limit;		/* stop after this many, or 0 */
	int		 full;		/* limit reached */
	uint64_t	 rng;		/* xorshift64* state */
	uint32_t	 nid;		/* URB ids handed out */
	uint8_t		*buf;		/* payloads, GEN_BUFSZ */

	/*
	 * Background activity (a keyboard typing while a disk works).  bg
	 * emits exactly one record at g->now == bg_next and sets bg_next;
	 * gen_emit runs it before any record stamped at or after bg_next,
	 * so time never goes backwards.
	 */
	void		(*bg)(struct gen *, void *);
	void		*bg_arg;
	uint64_t	 bg_next;
	int		 in_bg;
};

static uint64_t
rnd(struct gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [lo, hi]. */
static uint64_t
rnd_in(struct gen *g, uint64_t lo, uint64_t hi)
{
	return lo + (rnd(g) >> 11) % (hi - lo + 1);
}

/* Advance the clock by lo..hi microseconds. */
static void
gen_wait(struct gen *g, uint64_t lo_us, uint64_t hi_us)
{
	g->now += rnd_in(g, lo_us, hi_us) * US;
}

/*
 * A new URB address.  Linux URBs are kmalloc-192 objects: 0xc0 apart in
 * 4 KiB slab pages of a direct-mapped kernel address (real capture).  The
 * page index is a permutation of the count, so ids never collide.
 */
static uint64_t
gen_urbid(struct gen *g)
{
	uint32_t	n = g->nid++;

	return 0xffff8e1402e00000ULL + (uint64_t)((n * 37) % 512) * 0x1000 +
	    (uint64_t)((n * 11) % 21) * 0xc0;
}

static void
gen_stamp(struct gen *g, struct urb_rec *r)
{
	r->ts_ns = (int64_t)g->now;
	r->ts_sec = (int64_t)(g->now / (1000 * MS));
	r->ts_usec = (int32_t)(g->now % (1000 * MS) / US);
	r->recno = ++g->nrec;
	if (cap_sink_write(g->sink, r) < 0)
		errx(1, "%s", g->sink->err);
	if (g->limit != 0 && g->nrec >= g->limit)
		g->full = 1;
}

static void
gen_emit(struct gen *g, struct urb_rec *r)
{
	uint64_t	now = g->now;

	if (g->full)
		return;
	if (g->bg != NULL && !g->in_bg) {
		while (g->bg_next <= now && !g->full) {
			g->in_bg = 1;
			g->now = g->bg_next;
			g->bg(g, g->bg_arg);
			g->in_bg = 0;
		}
		g->now = now;
		if (g->full)
			return;
	}
	gen_stamp(g, r);
}

/* ------------------------------------------------------------------------
 * URBs and their usbmon events (drivers/usb/mon/mon_bin.c mon_bin_event).
 */

struct gframe {
	uint32_t	 off;		/* offset in the transfer buffer */
	uint32_t	 len;		/* requested */
	uint32_t	 actual;
	int32_t		 status;
};

struct gurb {
	uint64_t	 id;
	uint16_t	 bus;
	uint8_t		 dev;
	uint8_t		 ep;		/* bit 7 = IN (the URB) */
	uint8_t		 xfer;		/* XFER_* (usbmon) */
	uint32_t	 flags;		/* transfer_flags */
	int32_t		 interval;	/* INT/ISO, in (micro)frames */
	int32_t		 start_frame;	/* ISO: as the HCD set it */
	uint32_t	 len;		/* transfer_buffer_length */
	uint8_t		 setup[8];	/* control only */
	uint32_t	 nframes;	/* ISO */
	struct gframe	 fr[GEN_ISO_MAX];
};

static void
rec_init(struct urb_rec *r, const struct gurb *u, uint8_t type)
{
	memset(r, 0, sizeof *r);
	r->id = u->id;
	r->type = type;
	r->xfer_type = u->xfer;
	r->epnum = u->ep;
	r->devnum = u->dev;
	r->busnum = u->bus;
	r->flag_setup = '-';
	r->xfer_flags = u->flags;
	if (u->xfer == XFER_INT || u->xfer == XFER_ISO)
		r->interval = u->interval;
	if (u->xfer == XFER_ISO) {
		r->start_frame = u->start_frame;
		r->iso_numdesc = (int32_t)u->nframes;
	}
}

/* Bytes an ISO IN completion carries: up to the furthest non-empty frame. */
static uint32_t
iso_collated(const struct gurb *u)
{
	uint32_t	i, end = 0;

	for (i = 0; i < u->nframes; i++) {
		if (u->fr[i].actual == 0)
			continue;
		if (u->fr[i].off + u->fr[i].actual > end)
			end = u->fr[i].off + u->fr[i].actual;
	}
	return end;
}

/*
 * The S event.  data is what an OUT URB sends (u->len bytes); IN URBs
 * carry nothing yet (flag '<').
 */
static void
urb_submit(struct gen *g, struct gurb *u, const uint8_t *data)
{
	struct urb_rec	r;
	struct urb_iso	iso[GEN_ISO_MAX];
	uint32_t	i;

	rec_init(&r, u, 'S');
	r.status = URB_EINPROGRESS;
	r.len_urb = u->len;
	if (u->xfer == XFER_CTRL) {
		r.flag_setup = 0;
		memcpy(r.setup, u->setup, sizeof r.setup);
	}
	if (u->xfer == XFER_ISO) {
		/*
		 * usb_submit_urb() sets every frame's status to -EXDEV
		 * before the HCD and usbmon see the URB
		 * (drivers/usb/core/urb.c); the length is the requested one.
		 */
		for (i = 0; i < u->nframes; i++) {
			iso[i].status = ST_EXDEV;
			iso[i].off = u->fr[i].off;
			iso[i].len = u->fr[i].len;
		}
		r.iso = iso;
		r.niso = r.ndesc = u->nframes;
	}
	if (u->ep & 0x80)
		r.flag_data = '<';
	else if (u->len != 0) {
		r.data = data;
		r.data_len = u->len;
	}
	r.len_cap = 16 * r.niso + r.data_len;
	gen_emit(g, &r);
}

/*
 * The C event: status and actual length; data is what an IN URB received
 * (for ISO, the whole buffer, frames at their offsets).  OUT completions
 * carry no data (flag '>').
 */
static void
urb_give(struct gen *g, struct gurb *u, int32_t status, uint32_t actual,
    const uint8_t *data)
{
	struct urb_rec	r;
	struct urb_iso	iso[GEN_ISO_MAX];
	uint32_t	i;

	rec_init(&r, u, 'C');
	r.status = status;
	r.len_urb = actual;
	if (u->xfer == XFER_ISO) {
		r.len_urb = 0;
		for (i = 0; i < u->nframes; i++) {
			iso[i].status = u->fr[i].status;
			iso[i].off = u->fr[i].off;
			iso[i].len = u->fr[i].actual;
			r.len_urb += u->fr[i].actual;
			if (u->fr[i].status != 0)
				r.iso_error_count++;
		}
		r.iso = iso;
		r.niso = r.ndesc = u->nframes;
	}
	if (u->ep & 0x80) {
		r.data = data;
		r.data_len = u->xfer == XFER_ISO ? iso_collated(u) : actual;
	} else
		r.flag_data = '>';
	r.len_cap = 16 * r.niso + r.data_len;
	gen_emit(g, &r);
}

/* The E event: the HCD refused the URB (mon_bin.c mon_bin_error). */
static void
urb_error(struct gen *g, struct gurb *u, int32_t error)
{
	struct urb_rec	r;

	rec_init(&r, u, 'E');
	r.status = error;
	r.flag_data = 'E';
	r.xfer_flags = 0;		/* mon_bin_error leaves them 0 */
	r.interval = 0;
	r.start_frame = 0;
	r.iso_numdesc = 0;
	gen_emit(g, &r);
}

/* ------------------------------------------------------------------------
 * Devices and control transfers.
 */

struct gdev {
	uint16_t	 bus;
	uint8_t		 devnum;
	uint8_t		 fs;		/* full speed: slower */
	uint64_t	 ctl_id;	/* the URB usb_control_msg() gets */
	const struct gdesc *desc;
};

struct greq {
	uint8_t		 bm;
	uint8_t		 req;
	uint16_t	 val;
	uint16_t	 idx;
	uint16_t	 len;
};

/* Time a transfer of n bytes takes on the bus, in us. */
static void
gen_xfer_time(struct gen *g, const struct gdev *d, uint32_t n)
{
	if (d->fs) {
		/* 1 ms frames, about 1 MB/s of bulk (USB 2.0 5.8.4) */
		g->now += (uint64_t)n * US + rnd_in(g, 900, 2400) * US;
	} else {
		/* about 40 MB/s of useful bulk bandwidth at high speed */
		g->now += (uint64_t)n * US / 40 + rnd_in(g, 120, 380) * US;
	}
}

/*
 * One control transfer on d's endpoint 0 with URB id, transfer flags
 * xflags: S with the SETUP packet (and for OUT the data, wLength bytes),
 * C with status and for IN the answer (data, dlen bytes, cut to
 * wLength).  A control IN with wLength 0 is an OUT URB (usb_submit_urb).
 */
static void
ctrl_id(struct gen *g, const struct gdev *d, uint64_t id, uint32_t xflags,
    const struct greq *q, const uint8_t *data, uint32_t dlen, int32_t status)
{
	struct gurb	u;
	int		in = (q->bm & 0x80) && q->len != 0;
	uint32_t	actual;

	memset(&u, 0, sizeof u);
	u.id = id;
	u.bus = d->bus;
	u.dev = d->devnum;
	u.ep = in ? 0x80 : 0x00;
	u.xfer = XFER_CTRL;
	u.flags = xflags | (in ? UF_DIR_IN : 0);
	u.len = q->len;
	u.setup[0] = q->bm;
	u.setup[1] = q->req;
	put_le16(u.setup + 2, q->val);
	put_le16(u.setup + 4, q->idx);
	put_le16(u.setup + 6, q->len);

	urb_submit(g, &u, in ? NULL : data);
	if (in)
		actual = status == 0 ? (dlen < q->len ? dlen : q->len) : 0;
	else
		actual = status == 0 ? q->len : 0;
	gen_xfer_time(g, d, actual);
	urb_give(g, &u, status, actual, in ? data : NULL);
	gen_wait(g, 100, 600);
}

/* A usb_control_msg(): the device's current control URB, no flags. */
static void
ctrl(struct gen *g, const struct gdev *d, const struct greq *q,
    const uint8_t *data, uint32_t dlen)
{
	ctrl_id(g, d, d->ctl_id, 0, q, data, dlen, 0);
}

/* A string descriptor (USB 2.0 9.6.7) of ASCII s; returns its length. */
static uint32_t
str_desc(const char *s, uint8_t *out)
{
	uint32_t	n = 2;

	for (; *s != '\0' && n + 2 <= 254; s++) {
		out[n++] = (uint8_t)*s;
		out[n++] = 0;
	}
	out[0] = (uint8_t)n;
	out[1] = USB_DT_STRING;
	return n;
}

/* GET_DESCRIPTOR(STRING, i, 0x0409, 255), as usb_string() asks. */
static void
get_string(struct gen *g, const struct gdev *d, uint8_t i)
{
	static const uint8_t langids[4] = { 4, USB_DT_STRING, 0x09, 0x04 };
	uint8_t		 s[256];
	uint32_t	 n;

	if (i == 0) {
		ctrl(g, d, &(struct greq){ RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
		    USB_DT_STRING << 8, 0, 255 }, langids, sizeof langids);
		return;
	}
	n = str_desc(d->desc->str[i], s);
	ctrl(g, d, &(struct greq){ RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_STRING << 8 | i, 0x0409, 255 }, s, n);
}

/*
 * What usb_new_device() reads once the device has its address
 * (drivers/usb/core/hub.c): device descriptor, for a full-speed device
 * with a high-speed controller on the system the device qualifier
 * (check_highspeed(), usb_get_descriptor's three tries, each STALLed),
 * the configuration in two reads, the strings, SET_CONFIGURATION 1.
 */
static void
dev_describe(struct gen *g, struct gdev *d)
{
	const struct gdesc *dd = d->desc;
	int		 i;

	ctrl(g, d, &(struct greq){ RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 18 }, dd->dev, 18);
	if (d->fs) {
		for (i = 0; i < 3; i++) {
			ctrl_id(g, d, d->ctl_id, 0, &(struct greq){ RT_DEV_IN,
			    USB_REQ_GET_DESCRIPTOR,
			    USB_DT_DEVICE_QUALIFIER << 8, 0, 10 }, NULL, 0,
			    ST_EPIPE);
		}
	}
	ctrl(g, d, &(struct greq){ RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_CONFIG << 8, 0, 9 }, dd->cfg, 9);
	ctrl(g, d, &(struct greq){ RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_CONFIG << 8, 0, (uint16_t)dd->cfglen }, dd->cfg,
	    (uint32_t)dd->cfglen);
	get_string(g, d, 0);
	get_string(g, d, dd->dev[15]);		/* iProduct */
	get_string(g, d, dd->dev[14]);		/* iManufacturer */
	get_string(g, d, dd->dev[16]);		/* iSerialNumber */
	gen_wait(g, 1000, 2500);
	ctrl(g, d, &(struct greq){ RT_DEV_OUT, USB_REQ_SET_CONFIGURATION,
	    1, 0, 0 }, NULL, 0);
}

/* ------------------------------------------------------------------------
 * Root hubs and the hub driver (USB 2.0 chapter 11, Linux hub.c).
 */

struct ghub {
	struct gdev	 rh;		/* the root hub, device 1 */
	struct gurb	 irq;		/* hub->urb, status change */
	uint64_t	 wq_id;		/* hub_wq's control URB */
	int		 nports;
	int		 fs;		/* UHCI: full-speed devices */
	uint16_t	 speed;		/* PS_HIGH_SPEED on EHCI ports */
	uint8_t		 last_addr;	/* last devnum given */
	int		 xhci;		/* addresses come from the controller
					   (xHCI Address Device): no
					   SET_ADDRESS in usbmon */
	const uint8_t	*hubdesc;
	uint16_t	 hubdesc_len;
};

static void
port_status(struct gen *g, struct ghub *h, int port, uint16_t st,
    uint16_t ch)
{
	uint8_t		b[4];

	put_le16(b, st);
	put_le16(b + 2, ch);
	ctrl_id(g, &h->rh, h->wq_id, 0, &(struct greq){ RT_PORT_IN,
	    USB_REQ_GET_STATUS, 0, (uint16_t)port, 4 }, b, 4, 0);
}

static void
port_feature(struct gen *g, struct ghub *h, uint8_t req, uint16_t feat,
    int port)
{
	ctrl_id(g, &h->rh, h->wq_id, 0, &(struct greq){ RT_PORT_OUT, req,
	    feat, (uint16_t)port, 0 }, NULL, 0, 0);
}

/*
 * The status-change URB completes with the port bitmap (bit n = port n,
 * USB 2.0 11.12.4) and hub_irq() resubmits it.
 */
static void
hub_irq(struct gen *g, struct ghub *h, int port)
{
	uint8_t		map = (uint8_t)(1 << port);

	urb_give(g, &h->irq, 0, 1, &map);
	gen_wait(g, 40, 120);
	urb_submit(g, &h->irq, NULL);
	gen_wait(g, 300, 900);
}

/*
 * Root hub bring-up as in the real capture: usb_new_device() on the root
 * hub (no SET_ADDRESS), hub_configure() and hub_activate(): hub
 * descriptor, status, power on every port, read every port, then submit
 * the status-change URB.
 */
static void
hub_init(struct ghub *h, uint16_t bus, int ehci)
{
	memset(h, 0, sizeof *h);
	h->rh.bus = bus;
	h->rh.devnum = 1;
	h->fs = !ehci;		/* the root hub itself is virtual: fast */
	h->rh.desc = ehci ? &ehci_rh : &uhci_rh;
	h->rh.ctl_id = 0xffff8e141fced600ULL - (uint64_t)(bus - 1) * 0x3c0;
	h->nports = ehci ? 6 : 2;
	h->speed = ehci ? PS_HIGH_SPEED : 0;
	h->last_addr = 1;
	h->hubdesc = ehci ? ehci_rh_hubdesc : uhci_rh_hubdesc;
	h->hubdesc_len = ehci ? sizeof ehci_rh_hubdesc :
	    sizeof uhci_rh_hubdesc;
}

/* The hub driver polls the root hub's status change endpoint. */
static void
hub_poll(struct gen *g, struct ghub *h, int ehci)
{
	memset(&h->irq, 0, sizeof h->irq);
	h->irq.id = h->rh.ctl_id;	/* the freed control URB, reused */
	h->irq.bus = h->rh.bus;
	h->irq.dev = 1;
	h->irq.ep = 0x81;
	h->irq.xfer = XFER_INT;
	h->irq.flags = UF_DIR_IN;
	/* root hub bInterval: EHCI 2^(12-1) uframes, UHCI 255 -> 128 ms */
	h->irq.interval = ehci ? 2048 : 128;
	h->irq.len = ehci ? 4 : 2;	/* wMaxPacketSize */
	gen_wait(g, 80000, 120000);
	urb_submit(g, &h->irq, NULL);
	h->rh.ctl_id = gen_urbid(g);
}

static void
hub_start(struct gen *g, struct ghub *h, uint16_t bus, int ehci)
{
	static const uint8_t dev_status[2] = { 0x01, 0x00 }; /* self powered */
	static const uint8_t hub_status[4];
	int		 p;

	hub_init(h, bus, ehci);
	dev_describe(g, &h->rh);
	ctrl(g, &h->rh, &(struct greq){ RT_HUB_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_HUB << 8, 0, 15 }, h->hubdesc, h->hubdesc_len);
	ctrl(g, &h->rh, &(struct greq){ RT_DEV_IN, USB_REQ_GET_STATUS, 0, 0,
	    2 }, dev_status, 2);
	ctrl(g, &h->rh, &(struct greq){ RT_HUB_IN, USB_REQ_GET_STATUS, 0, 0,
	    4 }, hub_status, 4);

	h->wq_id = gen_urbid(g);
	for (p = 1; p <= h->nports; p++)
		port_feature(g, h, USB_REQ_SET_FEATURE, PF_POWER, p);
	gen_wait(g, 20000, 22000);	/* bPwrOn2PwrGood and hub's delay */
	h->wq_id = gen_urbid(g);
	for (p = 1; p <= h->nports; p++)
		port_status(g, h, p, PS_POWER, 0);
	hub_poll(g, h, ehci);
}

/* One port reset: SET_FEATURE(PORT_RESET), wait, status, clear. */
static void
port_reset(struct gen *g, struct ghub *h, int port)
{
	uint16_t	st = PS_CONNECTION | PS_POWER | h->speed;

	port_feature(g, h, USB_REQ_SET_FEATURE, PF_RESET, port);
	gen_wait(g, 55000, 68000);	/* root port reset 50 ms (8.5) */
	port_status(g, h, port, st | PS_ENABLE, PC_RESET);
	port_feature(g, h, USB_REQ_CLEAR_FEATURE, PF_C_RESET, port);
}

/*
 * A device is plugged into port: the hub's connect handling, debounce,
 * reset, the "new scheme" GET_DESCRIPTOR(DEVICE, 64) to device 0, the
 * second reset, SET_ADDRESS (still labelled device 0), then
 * dev_describe() (hub.c hub_port_init, usb_new_device).  Fills d.
 */
static void
hub_connect(struct gen *g, struct ghub *h, int port, const struct gdesc *dd,
    struct gdev *d)
{
	struct gdev	 d0;
	uint16_t	 st = PS_CONNECTION | PS_POWER | h->speed;
	int		 i;

	hub_irq(g, h, port);
	port_status(g, h, port, st, PC_CONNECTION);
	port_feature(g, h, USB_REQ_CLEAR_FEATURE, PF_C_CONNECTION, port);
	port_status(g, h, port, st, 0);
	/* hub_port_debounce: every 25 ms until stable for 100 ms */
	for (i = 0; i < 4; i++) {
		gen_wait(g, 25000, 37000);
		port_status(g, h, port, st, 0);
	}
	port_reset(g, h, port);
	gen_wait(g, 50000, 62000);

	memset(&d0, 0, sizeof d0);
	d0.bus = h->rh.bus;
	d0.devnum = 0;
	d0.fs = (uint8_t)h->fs;
	d0.ctl_id = h->wq_id;
	d0.desc = dd;
	ctrl(g, &d0, &(struct greq){ RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 64 }, dd->dev, 18);
	h->last_addr = h->last_addr >= 127 ? 2 : h->last_addr + 1;
	if (h->xhci) {
		/* hub_port_init's new scheme on xHCI: the 64-byte read at
		 * the default address (Address Device with BSR set), then
		 * the address from the controller's Address Device command,
		 * not a SET_ADDRESS request (drivers/usb/core/hub.c
		 * hub_set_address, xhci_address_device) */
		gen_wait(g, 2000, 4000);
	} else {
		port_reset(g, h, port);
		gen_wait(g, 50000, 60000);
		ctrl(g, &d0, &(struct greq){ RT_DEV_OUT,
		    USB_REQ_SET_ADDRESS, h->last_addr, 0, 0 }, NULL, 0);
		gen_wait(g, 10000, 28000);	/* SET_ADDRESS recovery */
	}

	memset(d, 0, sizeof *d);
	d->bus = h->rh.bus;
	d->devnum = h->last_addr;
	d->fs = (uint8_t)h->fs;
	d->ctl_id = gen_urbid(g);
	d->desc = dd;
	dev_describe(g, d);
}

/* The device is pulled: status change, port status, clear the changes. */
static void
hub_disconnect(struct gen *g, struct ghub *h, int port)
{
	hub_irq(g, h, port);
	port_status(g, h, port, PS_POWER, PC_CONNECTION | PC_ENABLE);
	port_feature(g, h, USB_REQ_CLEAR_FEATURE, PF_C_CONNECTION, port);
	port_feature(g, h, USB_REQ_CLEAR_FEATURE, PF_C_ENABLE, port);
}

/* ------------------------------------------------------------------------
 * HID boot keyboard (usbhid).
 */

struct gkbd {
	struct gdev	 d;
	struct gurb	 in;		/* usbhid->urbin, ep 0x81 */
	uint64_t	 ctrl_id;	/* usbhid->urbctrl */
	uint8_t		 leds;
	/* background typing */
	const char	*text;
	size_t		 pos;
	int		 state;
};

/* HID usage IDs of the characters typed (HID usage tables 1.12, 10). */
static const struct {
	char		 c;
	uint8_t		 usage;
} kbd_keys[] = {
	{ ' ', 0x2c }, { '\n', 0x28 }, { '.', 0x37 }, { '0', 0x27 },
	{ '\0', 0 }
};

/* HID usage ID of an ASCII character, 0 if none. */
static uint8_t
kbd_usage(char c)
{
	size_t	i;

	if (c >= 'a' && c <= 'z')
		return (uint8_t)(0x04 + (c - 'a'));
	if (c >= '1' && c <= '9')
		return (uint8_t)(0x1e + (c - '1'));
	for (i = 0; kbd_keys[i].c != '\0'; i++) {
		if (kbd_keys[i].c == c)
			return kbd_keys[i].usage;
	}
	return 0;
}

/* usbhid's output report path: SET_REPORT(Output) on its control URB. */
static void
kbd_leds(struct gen *g, struct gkbd *k, uint8_t leds)
{
	k->leds = leds;
	ctrl_id(g, &k->d, k->ctrl_id, UF_NO_DMA_MAP, &(struct greq){
	    RT_CLS_INTF_OUT, HID_SET_REPORT, HID_RT_OUTPUT << 8, 0, 1 },
	    &k->leds, 1, 0);
}

/*
 * usbhid_probe/hid_connect after SET_CONFIGURATION (real capture): the
 * serial number again (hid->uniq), SET_IDLE(0), the report descriptor,
 * the LEDs off, then the interrupt URB is submitted.
 */
static void
kbd_start(struct gen *g, struct gkbd *k)
{
	struct gdev	*d = &k->d;

	get_string(g, d, d->desc->dev[16]);
	ctrl(g, d, &(struct greq){ RT_CLS_INTF_OUT, HID_SET_IDLE, 0, 0, 0 },
	    NULL, 0);
	ctrl(g, d, &(struct greq){ RT_INTF_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_HID_REPORT << 8, 0, sizeof kbd_report }, kbd_report,
	    sizeof kbd_report);

	memset(&k->in, 0, sizeof k->in);
	k->in.id = d->ctl_id;		/* the freed control URB, reused */
	k->in.bus = d->bus;
	k->in.dev = d->devnum;
	k->in.ep = 0x81;
	k->in.xfer = XFER_INT;
	k->in.flags = UF_NO_DMA_MAP | UF_DIR_IN;
	k->in.interval = 1 << (kbd_cfg[33] - 1);	/* 2^(bInterval-1) */
	k->in.len = 8;
	d->ctl_id = gen_urbid(g);
	k->ctrl_id = gen_urbid(g);

	kbd_leds(g, k, 0);
	urb_submit(g, &k->in, NULL);
}

/* One boot report: modifiers, reserved, up to six keys. */
static void
kbd_report_give(struct gen *g, struct gkbd *k, uint8_t mod, uint8_t key)
{
	uint8_t		rep[8] = { mod, 0, key, 0, 0, 0, 0, 0 };

	urb_give(g, &k->in, 0, sizeof rep, rep);
}

/* Press and release one key, the URB resubmitted after each report. */
static void
kbd_type_key(struct gen *g, struct gkbd *k, uint8_t usage)
{
	kbd_report_give(g, k, 0, usage);
	gen_wait(g, 200, 600);
	urb_submit(g, &k->in, NULL);
	gen_wait(g, 70000, 120000);
	kbd_report_give(g, k, 0, 0);
	gen_wait(g, 200, 600);
	urb_submit(g, &k->in, NULL);
	gen_wait(g, 150000, 320000);
}

/* Background typing: one record per call (see struct gen). */
static void
kbd_bg(struct gen *g, void *arg)
{
	struct gkbd	*k = arg;
	uint8_t		 usage;

	switch (k->state) {
	case 0:
		usage = kbd_usage(k->text[k->pos]);
		if (k->text[++k->pos] == '\0')
			k->pos = 0;
		kbd_report_give(g, k, 0, usage);
		g->bg_next = g->now + rnd_in(g, 150, 600) * US;
		break;
	case 1:
	case 3:
		urb_submit(g, &k->in, NULL);
		if (k->state == 1)
			g->bg_next = g->now + rnd_in(g, 60000, 110000) * US;
		else
			g->bg_next = g->now + rnd_in(g, 40000, 250000) * US;
		break;
	case 2:
		kbd_report_give(g, k, 0, 0);
		g->bg_next = g->now + rnd_in(g, 150, 600) * US;
		break;
	}
	k->state = (k->state + 1) % 4;
}

/* ------------------------------------------------------------------------
 * Bulk-only mass storage (usb-storage, BOT 1.0) with a small SCSI disk.
 */

#define DISK_BLOCKS	2097152U	/* 1 GiB of 512-byte blocks */

struct gbot {
	struct gdev	 d;
	uint64_t	 cur_id;	/* us->current_urb: CBW, CSW, ctrl */
	uint64_t	 sg_id[3];	/* usb_sg_init()'s URBs, recycled */
	unsigned	 sg_next;
	uint32_t	 tag;
	uint8_t		 ep_in;
	uint8_t		 ep_out;
	uint8_t		 cbw[CBW_LEN];
	uint8_t		 csw[CSW_LEN];
};

static void
bot_init(struct gen *g, struct gbot *b)
{
	unsigned	i;

	b->cur_id = gen_urbid(g);
	for (i = 0; i < 3; i++)
		b->sg_id[i] = gen_urbid(g);
	b->tag = 0;
	b->ep_in = 0x81;
	b->ep_out = 0x02;
}

static void
bot_bulk(struct gbot *b, struct gurb *u, uint64_t id, uint8_t ep,
    uint32_t len, uint32_t flags)
{
	memset(u, 0, sizeof *u);
	u->id = id;
	u->bus = b->d.bus;
	u->dev = b->d.devnum;
	u->ep = ep;
	u->xfer = XFER_BULK;
	u->len = len;
	u->flags = flags | ((ep & 0x80) ? UF_DIR_IN : 0);
}

/* usb_stor_clear_halt(): CLEAR_FEATURE(ENDPOINT_HALT) on current_urb. */
static void
bot_clear_halt(struct gen *g, struct gbot *b, uint8_t ep)
{
	ctrl_id(g, &b->d, b->cur_id, 0, &(struct greq){ RT_EP_OUT,
	    USB_REQ_CLEAR_FEATURE, FEAT_EP_HALT, ep, 0 }, NULL, 0, 0);
}

/* What one command does on the bus. */
struct gcmd {
	const uint8_t	*cdb;
	uint8_t		 cdblen;
	uint8_t		 in;		/* data stage direction */
	uint32_t	 xfer;		/* dCBWDataTransferLength */
	const uint8_t	*data;		/* IN: answer, OUT: sent */
	uint32_t	 dlen;		/* bytes moved (<= xfer) */
	uint8_t		 status;	/* bCSWStatus */
	int		 stall;		/* data stage STALLs */
	int		 unplug;	/* gone in the data stage */
	struct ghub	*hub;		/* for unplug */
	int		 port;
};

/*
 * One SCSI command over BOT (usb_stor_Bulk_transport): CBW on bulk OUT
 * through current_urb (iobuf, so URB_NO_TRANSFER_DMA_MAP), data through a
 * scatter-gather URB (URB_SHORT_NOT_OK on IN: a short read completes with
 * -EREMOTEIO), CSW on bulk IN.  A data-stage STALL is followed by
 * CLEAR_FEATURE(ENDPOINT_HALT) before the CSW (BOT 6.7.2).
 */
static void
bot_cmd(struct gen *g, struct gbot *b, const struct gcmd *c)
{
	struct gurb	u;
	int32_t		st;
	uint32_t	flags;

	memset(b->cbw, 0, sizeof b->cbw);
	memcpy(b->cbw, "USBC", 4);
	put_le32(b->cbw + 4, ++b->tag);
	put_le32(b->cbw + 8, c->xfer);
	b->cbw[12] = c->in && c->xfer != 0 ? CBW_IN : 0;
	b->cbw[13] = 0;				/* LUN */
	b->cbw[14] = c->cdblen;
	memcpy(b->cbw + 15, c->cdb, c->cdblen);

	bot_bulk(b, &u, b->cur_id, b->ep_out, CBW_LEN, UF_NO_DMA_MAP);
	urb_submit(g, &u, b->cbw);
	gen_xfer_time(g, &b->d, CBW_LEN);
	urb_give(g, &u, 0, CBW_LEN, NULL);
	gen_wait(g, 20, 120);

	if (c->xfer != 0) {
		flags = c->in ? UF_SHORT_NOT_OK : 0;
		bot_bulk(b, &u, b->sg_id[b->sg_next++ % 3],
		    c->in ? b->ep_in : b->ep_out, c->xfer, flags);
		urb_submit(g, &u, c->in ? NULL : c->data);
		if (c->unplug) {
			gen_wait(g, 400000, 900000);
			hub_disconnect(g, c->hub, c->port);
			/* usb_disable_device() flushes the endpoints */
			urb_give(g, &u, ST_ESHUTDOWN, 0, NULL);
			gen_wait(g, 50, 200);
			/* the transport's last try: the CSW read */
			bot_bulk(b, &u, b->cur_id, b->ep_in, CSW_LEN,
			    UF_NO_DMA_MAP);
			urb_submit(g, &u, NULL);
			gen_wait(g, 5, 30);
			urb_error(g, &u, ST_ENODEV);
			return;
		}
		gen_xfer_time(g, &b->d, c->dlen);
		if (c->stall)
			st = ST_EPIPE;
		else if (c->in && c->dlen < c->xfer)
			st = ST_EREMOTEIO;
		else
			st = 0;
		urb_give(g, &u, st, c->dlen, c->in ? c->data : NULL);
		gen_wait(g, 20, 120);
		if (c->stall)
			bot_clear_halt(g, b, b->ep_in);
	}

	memcpy(b->csw, "USBS", 4);
	put_le32(b->csw + 4, b->tag);
	put_le32(b->csw + 8, c->xfer - c->dlen);	/* dCSWDataResidue */
	b->csw[12] = c->status;
	bot_bulk(b, &u, b->cur_id, b->ep_in, CSW_LEN, UF_NO_DMA_MAP);
	urb_submit(g, &u, NULL);
	gen_xfer_time(g, &b->d, CSW_LEN);
	urb_give(g, &u, 0, CSW_LEN, b->csw);
	gen_wait(g, 30, 400);
}

/*
 * Recognisable block contents: a text line naming the operation and the
 * block, then a byte pattern that depends on the block number.
 */
static void
disk_fill(uint8_t *p, uint32_t lba, uint32_t n, int written)
{
	static const char	hex[] = "0123456789abcdef";
	uint32_t		i, j, v;
	uint8_t			*q;

	for (i = 0; i < n; i++) {
		q = p + (size_t)i * GEN_BLOCK;
		v = lba + i;
		memcpy(q, written ? "urbscope WRITE lba 0x" :
		    "urbscope READ  lba 0x", 21);
		for (j = 0; j < 8; j++)
			q[21 + j] = (uint8_t)hex[(v >> (28 - 4 * j)) & 0xf];
		q[29] = '\n';
		for (j = 30; j < GEN_BLOCK; j++)
			q[j] = (uint8_t)(v + j);
	}
}

static void
cdb_rw10(uint8_t *cdb, uint8_t op, uint32_t lba, uint16_t n)
{
	memset(cdb, 0, 10);
	cdb[0] = op;
	cdb[2] = (uint8_t)(lba >> 24);
	cdb[3] = (uint8_t)(lba >> 16);
	cdb[4] = (uint8_t)(lba >> 8);
	cdb[5] = (uint8_t)lba;
	cdb[7] = (uint8_t)(n >> 8);
	cdb[8] = (uint8_t)n;
}

/*
 * READ(10) or WRITE(10) of n blocks at lba.  With stall, the first try of
 * a READ STALLs and is retried after the auto-sense, as the SCSI layer
 * does for ABORTED COMMAND.
 */
static void
disk_rw(struct gen *g, struct gbot *b, int write, uint32_t lba, uint16_t n,
    int stall)
{
	/* fixed-format sense: ABORTED COMMAND, ASC 0x4b DATA PHASE ERROR */
	static const uint8_t sense[18] = { 0x70, 0, 0x0b, 0, 0, 0, 0, 10,
	    0, 0, 0, 0, 0x4b, 0x00 };
	static const uint8_t rs_cdb[6] = { SCSI_REQ_SENSE, 0, 0, 0,
	    SENSE_ALLOC, 0 };
	uint8_t		 cdb[10];
	uint32_t	 len = (uint32_t)n * GEN_BLOCK;

	cdb_rw10(cdb, write ? SCSI_WRITE10 : SCSI_READ10, lba, n);
	disk_fill(g->buf, lba, n, write);
	if (stall && !write) {
		/* two packets arrive, then the STALL; the CSW says failed */
		bot_cmd(g, b, &(struct gcmd){ .cdb = cdb, .cdblen = 10,
		    .in = 1, .xfer = len, .data = g->buf,
		    .dlen = len > 1024 ? 1024 : 0, .status = 1, .stall = 1 });
		bot_cmd(g, b, &(struct gcmd){ .cdb = rs_cdb, .cdblen = 6,
		    .in = 1, .xfer = SENSE_ALLOC, .data = sense,
		    .dlen = sizeof sense });
	}
	bot_cmd(g, b, &(struct gcmd){ .cdb = cdb, .cdblen = 10, .in = !write,
	    .xfer = len, .data = g->buf, .dlen = len });
}

/*
 * usb-storage probe and the SCSI scan of sd (real capture): GET_MAX_LUN,
 * INQUIRY, TEST UNIT READY failing once with UNIT ATTENTION and its
 * auto-sense, TEST UNIT READY, READ CAPACITY(10), MODE SENSE(6) of all
 * pages, then the partition table read.
 */
static void
disk_start(struct gen *g, struct gbot *b, uint32_t blocks)
{
	static const uint8_t maxlun[1] = { 0 };
	static const uint8_t inq_cdb[6] = { SCSI_INQUIRY, 0, 0, 0, 36, 0 };
	static const uint8_t tur_cdb[6] = { SCSI_TUR, 0, 0, 0, 0, 0 };
	static const uint8_t rs_cdb[6] = { SCSI_REQ_SENSE, 0, 0, 0,
	    SENSE_ALLOC, 0 };
	static const uint8_t ms_cdb[6] = { SCSI_MODE_SENSE6, 0, 0x3f, 0,
	    0xc0, 0 };
	static const uint8_t rc_cdb[10] = { SCSI_READ_CAP10 };
	/* INQUIRY: direct access, removable, SPC-3, format 2 (SPC-4 6.4) */
	static const uint8_t inquiry[36] = { 0x00, 0x80, 0x05, 0x02, 31, 0,
	    0, 0, 'u', 'r', 'b', 's', 'c', 'o', 'p', 'e',
	    'S', 'y', 'n', 't', 'h', 'e', 't', 'i', 'c', ' ', 'D', 'i', 's',
	    'k', ' ', ' ', '1', '.', '0', '0' };
	/* UNIT ATTENTION, ASC 0x28: not ready to ready change */
	static const uint8_t sense_ua[18] = { 0x70, 0, 0x06, 0, 0, 0, 0, 10,
	    0, 0, 0, 0, 0x28, 0x00 };
	/* MODE SENSE(6): header, no block descriptor, caching page (SBC-3
	 * 6.4.5) with WCE set; shorter than asked, so -EREMOTEIO */
	static const uint8_t modes[24] = { 23, 0x00, 0x00, 0, 0x08, 18, 0x04 };
	uint8_t		 cap[8];

	ctrl_id(g, &b->d, b->cur_id, UF_NO_DMA_MAP, &(struct greq){
	    RT_CLS_INTF_IN, BOT_GET_MAX_LUN, 0, 0, 1 }, maxlun, 1, 0);
	gen_wait(g, 10000, 16000);
	bot_cmd(g, b, &(struct gcmd){ .cdb = inq_cdb, .cdblen = 6, .in = 1,
	    .xfer = 36, .data = inquiry, .dlen = 36 });
	bot_cmd(g, b, &(struct gcmd){ .cdb = tur_cdb, .cdblen = 6,
	    .status = 1 });
	bot_cmd(g, b, &(struct gcmd){ .cdb = rs_cdb, .cdblen = 6, .in = 1,
	    .xfer = SENSE_ALLOC, .data = sense_ua, .dlen = sizeof sense_ua });
	bot_cmd(g, b, &(struct gcmd){ .cdb = tur_cdb, .cdblen = 6 });
	cap[0] = (uint8_t)((blocks - 1) >> 24);
	cap[1] = (uint8_t)((blocks - 1) >> 16);
	cap[2] = (uint8_t)((blocks - 1) >> 8);
	cap[3] = (uint8_t)(blocks - 1);
	cap[4] = 0;
	cap[5] = 0;
	cap[6] = GEN_BLOCK >> 8;
	cap[7] = GEN_BLOCK & 0xff;
	bot_cmd(g, b, &(struct gcmd){ .cdb = rc_cdb, .cdblen = 10, .in = 1,
	    .xfer = 8, .data = cap, .dlen = 8 });
	bot_cmd(g, b, &(struct gcmd){ .cdb = ms_cdb, .cdblen = 6, .in = 1,
	    .xfer = 0xc0, .data = modes, .dlen = sizeof modes });
	disk_rw(g, b, 0, 0, 8, 0);
}

/* ------------------------------------------------------------------------
 * Isochronous audio (snd-usb-audio): two URBs in flight per direction,
 * 8 packets of one 1 ms interval each.
 */

#define AUDIO_PACKS	8
#define AUDIO_IVAL	8		/* 2^(bInterval-1) uframes */

struct gaudio {
	struct gdev	 d;
	struct gurb	 in[2];
	struct gurb	 out[2];
	uint64_t	 due_in[2];
	uint64_t	 due_out[2];
	uint32_t	 phase;		/* waveform position */
	uint32_t	 nin;		/* IN completions so far */
};

static void
audio_urb(struct gaudio *a, struct gurb *u, uint8_t ep)
{
	uint32_t	i, step = (ep & 0x80) ? AUDIO_MAXP : AUDIO_FRAME;

	memset(u, 0, sizeof *u);
	u->id = 0;
	u->bus = a->d.bus;
	u->dev = a->d.devnum;
	u->ep = ep;
	u->xfer = XFER_ISO;
	u->flags = UF_ISO_ASAP | UF_NO_DMA_MAP | ((ep & 0x80) ? UF_DIR_IN : 0);
	u->interval = AUDIO_IVAL;
	u->nframes = AUDIO_PACKS;
	u->len = AUDIO_PACKS * step;
	for (i = 0; i < AUDIO_PACKS; i++) {
		u->fr[i].off = i * step;
		u->fr[i].len = step;
	}
}

/* Stereo 16-bit little-endian triangle waves into frame slots. */
static void
audio_samples(struct gaudio *a, uint8_t *p, uint32_t n)
{
	uint32_t	i, t;
	int16_t		l, r;

	for (i = 0; i + 4 <= n; i += 4) {
		t = a->phase++ % 96;		/* 500 Hz at 48 kHz */
		l = (int16_t)((t < 48 ? (int)t : 96 - (int)t) * 600 - 14400);
		r = (int16_t)-l;
		put_le16(p + i, (uint16_t)l);
		put_le16(p + i + 2, (uint16_t)r);
	}
}

/*
 * The microframe the URB's first packet went out in: EHCI reports it
 * modulo its periodic schedule, 1024 frames of 8 microframes (ehci-sched.c).
 */
static int32_t
audio_start_frame(struct gen *g)
{
	uint64_t	uf = g->now / (125 * US);

	return (int32_t)((uf - AUDIO_PACKS * AUDIO_IVAL) % 8192);
}

/* An IN URB completes: 192 bytes per frame (196 every 7th: the device's
 * clock runs fast), one URB with a frame lost (-EXDEV). */
static void
audio_in_done(struct gen *g, struct gaudio *a, struct gurb *u, int32_t st)
{
	uint32_t	i;

	memset(g->buf, 0, u->len);
	u->start_frame = audio_start_frame(g);
	for (i = 0; i < u->nframes; i++) {
		if (st != 0) {
			u->fr[i].actual = 0;
			u->fr[i].status = ST_EXDEV;
			continue;
		}
		u->fr[i].status = 0;
		u->fr[i].actual = (a->phase / 48) % 7 == 6 ? 196 : AUDIO_FRAME;
		if (a->nin == 3 && i == 5) {
			u->fr[i].status = ST_EXDEV;
			u->fr[i].actual = 0;
			continue;
		}
		audio_samples(a, g->buf + u->fr[i].off, u->fr[i].actual);
	}
	if (st == 0)
		a->nin++;
	urb_give(g, u, st, 0, g->buf);
}

static void
audio_out_done(struct gen *g, struct gurb *u, int32_t st)
{
	uint32_t	i;

	u->start_frame = audio_start_frame(g);
	for (i = 0; i < u->nframes; i++) {
		u->fr[i].status = st == 0 ? 0 : ST_EXDEV;
		u->fr[i].actual = st == 0 ? u->fr[i].len : 0;
	}
	urb_give(g, u, st, 0, NULL);
}

static void
audio_out_submit(struct gen *g, struct gaudio *a, struct gurb *u)
{
	audio_samples(a, g->buf, u->len);
	urb_submit(g, u, g->buf);
}

/* SET_INTERFACE(alt) and, for alt 1, the sampling rate on the endpoint
 * (UAC 1.0 5.2.3.2.3.1): SET_CUR then GET_CUR, 3 bytes, 48000. */
static void
audio_alt(struct gen *g, struct gaudio *a, uint16_t intf, uint16_t alt,
    uint8_t ep)
{
	static const uint8_t rate[3] = { 0x80, 0xbb, 0x00 };

	ctrl(g, &a->d, &(struct greq){ RT_INTF_OUT, USB_REQ_SET_INTERFACE,
	    alt, intf, 0 }, NULL, 0);
	if (alt == 0)
		return;
	ctrl(g, &a->d, &(struct greq){ RT_CLS_EP_OUT, UAC_SET_CUR,
	    UAC_SAMPLING_FREQ << 8, ep, 3 }, rate, 3);
	ctrl(g, &a->d, &(struct greq){ RT_CLS_EP_IN, UAC_GET_CUR,
	    UAC_SAMPLING_FREQ << 8, ep, 3 }, rate, 3);
}

/*
 * Stream until the given time: run the URBs in order of completion; each
 * completion is followed by its resubmission (snd_complete_urb).
 */
static void
audio_run(struct gen *g, struct gaudio *a, int in, int out, uint64_t until)
{
	uint64_t	 t, best;
	struct gurb	*u;
	int		 i, pick;

	for (;;) {
		best = UINT64_MAX;
		pick = -1;
		for (i = 0; i < 4; i++) {
			if (i < 2 && !in)
				continue;
			if (i >= 2 && !out)
				continue;
			t = i < 2 ? a->due_in[i] : a->due_out[i - 2];
			if (t < best) {
				best = t;
				pick = i;
			}
		}
		if (pick < 0 || best > until || g->full)
			return;
		if (best > g->now)
			g->now = best;
		if (pick < 2) {
			u = &a->in[pick];
			audio_in_done(g, a, u, 0);
			gen_wait(g, 15, 60);
			urb_submit(g, u, NULL);
			a->due_in[pick] = best + 2 * AUDIO_PACKS * MS;
		} else {
			u = &a->out[pick - 2];
			audio_out_done(g, u, 0);
			gen_wait(g, 15, 60);
			audio_out_submit(g, a, u);
			a->due_out[pick - 2] = best + 2 * AUDIO_PACKS * MS;
		}
	}
}

/* ------------------------------------------------------------------------
 * Scenarios.
 */

static void
hub_start_quiet(struct gen *g, struct ghub *h, uint16_t bus, int ehci)
{
	hub_start(g, h, bus, ehci);
	gen_wait(g, 800000, 1500000);
}

static void
scn_hid_keyboard(struct gen *g)
{
	struct ghub	 h;
	struct gkbd	 k;
	const char	*s;

	memset(&k, 0, sizeof k);
	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &kbd, &k.d);
	kbd_start(g, &k);
	gen_wait(g, 1200000, 1600000);
	for (s = "hello"; *s != '\0'; s++)
		kbd_type_key(g, &k, kbd_usage(*s));

	/* Caps Lock: the report, then the LED output report */
	kbd_report_give(g, &k, 0, 0x39);
	gen_wait(g, 200, 600);
	urb_submit(g, &k.in, NULL);
	gen_wait(g, 900, 1800);
	kbd_leds(g, &k, 0x02);			/* bit 1: Caps Lock */
	gen_wait(g, 70000, 120000);
	kbd_report_give(g, &k, 0, 0);
	gen_wait(g, 200, 600);
	urb_submit(g, &k.in, NULL);		/* never completes */
}

/*
 * An xHCI bus (usbmon of xhci_hcd): the capture starts with the root hub
 * configured and polled long before; a keyboard is plugged in, read at
 * the default address once and then at the address the controller gave
 * it, with no SET_ADDRESS; it types "hi".
 */
static void
scn_xhci(struct gen *g)
{
	struct ghub	 h;
	struct gkbd	 k;
	const char	*s;

	memset(&k, 0, sizeof k);
	hub_init(&h, 2, 1);
	h.xhci = 1;
	h.rh.ctl_id = gen_urbid(g);
	h.wq_id = gen_urbid(g);
	hub_poll(g, &h, 1);
	gen_wait(g, 100000, 200000);
	/* lsusb -v reads the root hub's descriptors through usbfs; its
	 * configuration was set before the capture */
	ctrl(g, &h.rh, &(struct greq){ RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_DEVICE << 8, 0, 18 }, h.rh.desc->dev, 18);
	ctrl(g, &h.rh, &(struct greq){ RT_DEV_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_CONFIG << 8, 0, (uint16_t)h.rh.desc->cfglen },
	    h.rh.desc->cfg, (uint32_t)h.rh.desc->cfglen);
	gen_wait(g, 200000, 300000);
	hub_connect(g, &h, 1, &kbd, &k.d);
	kbd_start(g, &k);
	gen_wait(g, 400000, 600000);
	for (s = "hi"; *s != '\0'; s++)
		kbd_type_key(g, &k, kbd_usage(*s));
}

/*
 * HID without the enumeration, as the keyboard and mouse captures of CTF
 * tasks are: the capture starts after it, so only the interrupt IN URBs
 * of device 1.5 are in it (usbhid's resubmitted urbin: one URB id).
 */
static void
hid_give(struct gen *g, struct gurb *u, const uint8_t *rep, uint32_t n)
{
	urb_give(g, u, 0, n, rep);
	gen_wait(g, 200, 600);
	urb_submit(g, u, NULL);
	gen_wait(g, 30000, 140000);
}

static void
hid_bare_urb(struct gen *g, struct gurb *u, uint8_t ep, uint32_t len)
{
	memset(u, 0, sizeof *u);
	u->id = gen_urbid(g);
	u->bus = 1;
	u->dev = 5;
	u->ep = ep;
	u->xfer = XFER_INT;
	u->flags = UF_NO_DMA_MAP | UF_DIR_IN;
	u->interval = 8;
	u->len = len;
	urb_submit(g, u, NULL);
	gen_wait(g, 200000, 400000);
}

/*
 * A keyboard typing "flag{usb_kyes}", mending it with Left, Delete,
 * Right and End into "flag{usb_keys}", Enter, then "tset", three
 * Backspaces and "est"; between them a multimedia key's report of
 * another layout (report ID 3, Volume Up: 3 bytes), which no boot
 * report reader can take.
 */
static void
scn_hid_ctf(struct gen *g)
{
	static const uint8_t keys[][2] = {	/* modifiers, usage */
		{ 0, 0x09 }, { 0, 0x0f }, { 0, 0x04 }, { 0, 0x0a },
		{ 0x02, 0x2f }, { 0, 0x18 }, { 0, 0x16 }, { 0, 0x05 },
		{ 0x20, 0x2d }, { 0, 0x0e }, { 0, 0x1c }, { 0, 0x08 },
		{ 0, 0x16 }, { 0x02, 0x30 },
		{ 0, 0x50 }, { 0, 0x50 }, { 0, 0x50 }, { 0, 0x50 },
		{ 0, 0x4c }, { 0, 0x4f }, { 0, 0x1c }, { 0, 0x4d },
		{ 0, 0x28 },
		{ 0, 0x17 }, { 0, 0x16 }, { 0, 0x08 }, { 0, 0x17 },
		{ 0, 0x2a }, { 0, 0x2a }, { 0, 0x2a },
		{ 0, 0x08 }, { 0, 0x16 }, { 0, 0x17 }, { 0, 0x28 },
	};
	static const uint8_t vol_up[3] = { 0x03, 0xe9, 0x00 };
	static const uint8_t vol_off[3] = { 0x03, 0x00, 0x00 };
	struct gurb	 u;
	uint8_t		 rep[8];
	size_t		 i;

	hid_bare_urb(g, &u, 0x81, 8);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		memset(rep, 0, sizeof rep);
		rep[0] = keys[i][0];
		rep[2] = keys[i][1];
		hid_give(g, &u, rep, sizeof rep);
		rep[2] = 0;
		/* a modifier let go after its key, as people type */
		if (rep[0] != 0)
			hid_give(g, &u, rep, sizeof rep);
		memset(rep, 0, sizeof rep);
		hid_give(g, &u, rep, sizeof rep);
		if (i == 22) {
			hid_give(g, &u, vol_up, sizeof vol_up);
			hid_give(g, &u, vol_off, sizeof vol_off);
		}
	}
}

/* A mouse (4-byte reports: buttons, X, Y, wheel) drawing, button 1 held
 * on the way, then the wheel. */
static void
scn_hid_mouse(struct gen *g)
{
	struct gurb	 u;
	uint8_t		 rep[4];
	int		 i;

	hid_bare_urb(g, &u, 0x81, 4);
	for (i = 0; i < 24; i++) {
		rep[0] = i >= 6 && i < 18 ? 0x01 : 0x00;
		rep[1] = (uint8_t)(int8_t)(i < 12 ? 3 + i % 3 : -(2 + i % 4));
		rep[2] = (uint8_t)(int8_t)(i % 5 - 2);
		rep[3] = i == 21 ? 0x01 : i == 22 ? 0xff : 0x00;
		hid_give(g, &u, rep, sizeof rep);
	}
}

/*
 * A composite keyboard (1209:0008), enumerated: interface 0 a boot
 * keyboard (3/1/1, interrupt IN 0x81), interface 1 consumer controls
 * (3/0/0, 0x82: one 16-bit usage), interface 2 a mouse of the boot
 * subclass whose reports are not the boot layout (3/1/2, 0x83: report
 * ID 1, five buttons, 16-bit X and Y, a wheel).  usbhid reads the three
 * report descriptors one after the other (wIndex 0, 1, 2), then the
 * keyboard types "hi", Left, "o" and Enter between a Volume Up and
 * Mute, and the mouse moves.
 */
static const uint8_t comp_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0x00, 0x00, 0x00, 64,
	0x09, 0x12, 0x08, 0x00, 0x00, 0x01, 1, 2, 3, 1
};
static const uint8_t cc_report[23] = {
	0x05, 0x0c, 0x09, 0x01, 0xa1, 0x01, 0x15, 0x00, 0x26, 0xff, 0x03,
	0x19, 0x00, 0x2a, 0xff, 0x03, 0x75, 0x10, 0x95, 0x01, 0x81, 0x00,
	0xc0
};
static const uint8_t ms_report[66] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x01, 0x09, 0x01,
	0xa1, 0x00, 0x05, 0x09, 0x19, 0x01, 0x29, 0x05, 0x15, 0x00,
	0x25, 0x01, 0x95, 0x05, 0x75, 0x01, 0x81, 0x02, 0x95, 0x01,
	0x75, 0x03, 0x81, 0x01, 0x05, 0x01, 0x09, 0x30, 0x09, 0x31,
	0x16, 0x01, 0x80, 0x26, 0xff, 0x7f, 0x75, 0x10, 0x95, 0x02,
	0x81, 0x06, 0x09, 0x38, 0x15, 0x81, 0x25, 0x7f, 0x75, 0x08,
	0x95, 0x01, 0x81, 0x06, 0xc0, 0xc0
};
static const uint8_t comp_cfg[] = {
	9, USB_DT_CONFIG, 84, 0, 3, 1, 0, 0xa0, 50,
	9, USB_DT_INTERFACE, 0, 0, 1, 0x03, 0x01, 0x01, 0,
	9, USB_DT_HID, 0x11, 0x01, 0, 1, USB_DT_HID_REPORT, 63, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x03, 8, 0, 7,
	9, USB_DT_INTERFACE, 1, 0, 1, 0x03, 0x00, 0x00, 0,
	9, USB_DT_HID, 0x11, 0x01, 0, 1, USB_DT_HID_REPORT, 23, 0,
	7, USB_DT_ENDPOINT, 0x82, 0x03, 2, 0, 7,
	9, USB_DT_INTERFACE, 2, 0, 1, 0x03, 0x01, 0x02, 0,
	9, USB_DT_HID, 0x11, 0x01, 0, 1, USB_DT_HID_REPORT, 66, 0,
	7, USB_DT_ENDPOINT, 0x83, 0x03, 8, 0, 7
};
static const struct gdesc comp = {
	comp_dev, comp_cfg, sizeof comp_cfg,
	{ NULL, "urbscope", "Synthetic Composite Keyboard", "CMP0008" }
};

/* usbhid_probe of interface intf: SET_IDLE, its report descriptor. */
static void
comp_probe(struct gen *g, struct gdev *d, uint16_t intf, const uint8_t *rd,
    uint16_t n)
{
	ctrl(g, d, &(struct greq){ RT_CLS_INTF_OUT, HID_SET_IDLE, 0, intf, 0 },
	    NULL, 0);
	ctrl(g, d, &(struct greq){ RT_INTF_IN, USB_REQ_GET_DESCRIPTOR,
	    USB_DT_HID_REPORT << 8, intf, n }, rd, n);
}

static void
comp_urb(struct gen *g, struct gdev *d, struct gurb *u, uint8_t ep,
    uint32_t len)
{
	memset(u, 0, sizeof *u);
	u->id = gen_urbid(g);
	u->bus = d->bus;
	u->dev = d->devnum;
	u->ep = ep;
	u->xfer = XFER_INT;
	u->flags = UF_NO_DMA_MAP | UF_DIR_IN;
	u->interval = 64;
	u->len = len;
	urb_submit(g, u, NULL);
	gen_wait(g, 300, 900);
}

static void
scn_hid_composite(struct gen *g)
{
	static const uint8_t text[] = { 0x0b, 0x0c, 0x50, 0x12, 0x28 };
	struct ghub	 h;
	struct gdev	 d;
	struct gurb	 kb, cc, ms;
	uint8_t		 rep[8];
	size_t		 i;

	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &comp, &d);
	comp_probe(g, &d, 0, kbd_report, sizeof kbd_report);
	comp_probe(g, &d, 1, cc_report, sizeof cc_report);
	comp_probe(g, &d, 2, ms_report, sizeof ms_report);
	comp_urb(g, &d, &kb, 0x81, 8);
	comp_urb(g, &d, &cc, 0x82, 2);
	comp_urb(g, &d, &ms, 0x83, 8);
	gen_wait(g, 500000, 800000);

	rep[0] = 0xe9;				/* Volume Up */
	rep[1] = 0x00;
	hid_give(g, &cc, rep, 2);
	rep[0] = 0;
	hid_give(g, &cc, rep, 2);
	for (i = 0; i < sizeof text; i++) {
		memset(rep, 0, sizeof rep);
		rep[2] = text[i];
		hid_give(g, &kb, rep, 8);
		rep[2] = 0;
		hid_give(g, &kb, rep, 8);
	}
	rep[0] = 0xe2;				/* Mute */
	rep[1] = 0x00;
	hid_give(g, &cc, rep, 2);
	rep[0] = 0;
	hid_give(g, &cc, rep, 2);
	for (i = 0; i < 6; i++) {
		rep[0] = 0x01;			/* report ID */
		rep[1] = i >= 2 && i < 4 ? 0x01 : 0x00;
		put_le16(rep + 2, (uint16_t)(int16_t)(i < 3 ? 300 : -260));
		put_le16(rep + 4, (uint16_t)(int16_t)(i % 2 ? 5 : -7));
		rep[6] = i == 5 ? 0xff : 0;
		hid_give(g, &ms, rep, 7);
	}
}

static void
scn_mass_storage(struct gen *g)
{
	struct ghub	h;
	struct gbot	b;

	memset(&b, 0, sizeof b);
	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &disk, &b.d);
	bot_init(g, &b);
	disk_start(g, &b, DISK_BLOCKS);
	disk_rw(g, &b, 0, 2048, 8, 0);
	disk_rw(g, &b, 0, 4096, 32, 0);
	disk_rw(g, &b, 1, 8192, 16, 0);
	disk_rw(g, &b, 0, 8192, 16, 0);
	disk_rw(g, &b, 1, 100, 1, 0);
	disk_rw(g, &b, 0, 100, 1, 0);
}

static void
scn_stall(struct gen *g)
{
	static const uint8_t tur_cdb[6] = { SCSI_TUR };
	struct ghub	h;
	struct gbot	b;
	uint8_t		cdb[10];

	memset(&b, 0, sizeof b);
	hub_start_quiet(g, &h, 2, 0);
	hub_connect(g, &h, 1, &flash, &b.d);
	bot_init(g, &b);
	disk_start(g, &b, 262144);		/* 128 MiB */
	gen_wait(g, 20000, 40000);
	disk_rw(g, &b, 0, 64, 8, 1);		/* STALL, clear, retry */
	gen_wait(g, 200000, 400000);
	bot_cmd(g, &b, &(struct gcmd){ .cdb = tur_cdb, .cdblen = 6 });

	/* unplugged in the middle of a READ(10) */
	cdb_rw10(cdb, SCSI_READ10, 1024, 64);
	bot_cmd(g, &b, &(struct gcmd){ .cdb = cdb, .cdblen = 10, .in = 1,
	    .xfer = 64 * GEN_BLOCK, .unplug = 1, .hub = &h, .port = 1 });
	gen_wait(g, 20000, 30000);
	port_status(g, &h, 1, PS_POWER, 0);	/* debounce the disconnect */
}

static void
scn_iso(struct gen *g)
{
	struct ghub	 h;
	struct gaudio	 a;
	int		 i;

	memset(&a, 0, sizeof a);
	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &audio, &a.d);
	/* snd-usb-audio probe: both streaming interfaces to alt 0 */
	audio_alt(g, &a, 1, 0, 0);
	audio_alt(g, &a, 2, 0, 0);
	gen_wait(g, 300000, 500000);

	/* capture: alt 1, rate, two URBs in flight */
	audio_alt(g, &a, 1, 1, 0x81);
	for (i = 0; i < 2; i++) {
		audio_urb(&a, &a.in[i], 0x81);
		a.in[i].id = gen_urbid(g);
		urb_submit(g, &a.in[i], NULL);
		gen_wait(g, 10, 40);
		a.due_in[i] = g->now + (uint64_t)(i + 1) * AUDIO_PACKS * MS;
	}
	audio_run(g, &a, 1, 0, g->now + 40 * MS);
	gen_wait(g, 100, 300);

	/* playback joins */
	audio_alt(g, &a, 2, 1, 0x02);
	for (i = 0; i < 2; i++) {
		audio_urb(&a, &a.out[i], 0x02);
		a.out[i].id = gen_urbid(g);
		audio_out_submit(g, &a, &a.out[i]);
		gen_wait(g, 10, 40);
		a.due_out[i] = g->now + (uint64_t)(i + 1) * AUDIO_PACKS * MS;
	}
	audio_run(g, &a, 1, 1, g->now + 40 * MS);
	gen_wait(g, 100, 300);

	/* stop: usb_kill_urb() gives the URBs back with -ENOENT */
	gen_wait(g, 500, 1500);
	for (i = 0; i < 2; i++) {
		audio_in_done(g, &a, &a.in[i], ST_ENOENT);
		gen_wait(g, 30, 90);
	}
	audio_alt(g, &a, 1, 0, 0);
	for (i = 0; i < 2; i++) {
		audio_out_done(g, &a.out[i], ST_ENOENT);
		gen_wait(g, 30, 90);
	}
	audio_alt(g, &a, 2, 0, 0);
}

/* ------------------------------------------------------------------------
 * A UVC webcam (uvcvideo) and a UAC 2 headset with MIDI (snd-usb-audio).
 */

/* A descriptor set's wTotalLength is its size, or the model is wrong. */
static void
cfg_check(const struct gdesc *dd)
{
	if (dd->cfglen != (size_t)(dd->cfg[2] | dd->cfg[3] << 8))
		errx(1, "capgen: configuration is %zu bytes, wTotalLength "
		    "says %u", dd->cfglen, dd->cfg[2] | dd->cfg[3] << 8);
}

/* An interrupt or bulk URB of d on ep, len bytes. */
static void
gen_urb(struct gen *g, const struct gdev *d, struct gurb *u, uint8_t ep,
    uint8_t xfer, uint32_t len, int32_t interval)
{
	memset(u, 0, sizeof *u);
	u->id = gen_urbid(g);
	u->bus = d->bus;
	u->dev = d->devnum;
	u->ep = ep;
	u->xfer = xfer;
	u->flags = UF_NO_DMA_MAP | ((ep & 0x80) ? UF_DIR_IN : 0);
	u->interval = interval;
	u->len = len;
}

/* A class request to entity id of interface intf (UAC 2.0 5.2.2, UVC 1.5
 * 4.2.1): the IN ones answered with ans[0..alen). */
static void
cls_req(struct gen *g, const struct gdev *d, uint8_t bm, uint8_t req,
    uint8_t cs, uint8_t cn, uint8_t id, uint8_t intf, uint16_t len,
    const uint8_t *ans, uint32_t alen)
{
	ctrl(g, d, &(struct greq){ bm, req, (uint16_t)(cs << 8 | cn),
	    (uint16_t)(id << 8 | intf), len }, ans, alen);
}

#define UVC_SET_CUR	0x01
#define UVC_GET_CUR	0x81
#define UVC_GET_MIN	0x82
#define UVC_GET_MAX	0x83
#define UVC_GET_RES	0x84
#define UVC_GET_LEN	0x85
#define UVC_GET_INFO	0x86
#define UVC_GET_DEF	0x87
#define UVC_PACKS	8
#define UVC_HDR		12		/* header with PTS and SCR */

/* The probe and commit control of UVC 1.1 (4.3.1.1), 34 bytes: format 1
 * (MJPEG) frame 1 (640x480) at 30 fps; the device fills in the rest. */
static void
uvc_probe(uint8_t p[34], int dev)
{
	memset(p, 0, 34);
	put_le16(p, 0x0001);			/* bmHint: frame interval */
	p[2] = 1;
	p[3] = 1;
	put_le32(p + 4, 333333);
	if (!dev)
		return;
	put_le16(p + 16, 32);			/* wDelay, ms */
	put_le32(p + 18, 614400);
	put_le32(p + 22, UVC_MAXP);
	put_le32(p + 26, 48000000);
	p[30] = 0x03;				/* FID, EOF */
	p[31] = 1;
	p[32] = 1;
	p[33] = 1;
}

/* One ISO IN completion of the stream: packets of a 12-byte header
 * (UVC 1.5 2.4.3.3: EOH, SCR, PTS, FID) and MJPEG data; the frame ends
 * (EOF) in packet end, or not when end is past the packets; an empty
 * header-only packet after it. */
static void
uvc_iso_done(struct gen *g, struct gurb *u, uint8_t fid, uint32_t pts,
    uint32_t end, uint8_t err)
{
	uint8_t		*p;
	uint32_t	 i, n;

	memset(g->buf, 0, u->len);
	u->start_frame = (int32_t)((g->now / (125 * US)) % 8192);
	for (i = 0; i < u->nframes; i++) {
		p = g->buf + u->fr[i].off;
		n = i < end ? UVC_MAXP : i == end ? 300 : UVC_HDR;
		p[0] = UVC_HDR;
		p[1] = (uint8_t)(0x80 | 0x08 | 0x04 | fid |
		    (i == end ? 0x02 : 0) | (i == 0 ? err : 0));
		put_le32(p + 2, pts);
		put_le32(p + 6, pts + 1500 + i * 6000);
		put_le16(p + 10, (uint16_t)((g->now / MS + i) & 0x7ff));
		if (i == 0 && n > UVC_HDR + 2) {
			p[UVC_HDR] = 0xff;		/* SOI */
			p[UVC_HDR + 1] = 0xd8;
		} else if (i == end) {
			p[n - 2] = 0xff;		/* EOI */
			p[n - 1] = 0xd9;
		}
		u->fr[i].actual = n;
		u->fr[i].status = 0;
	}
	urb_give(g, u, 0, 0, g->buf);
}

static void
scn_uvc(struct gen *g)
{
	static const uint8_t info3[1] = { 0x03 }, b128[2] = { 128, 0 },
	    b0[2] = { 0, 0 }, b255[2] = { 255, 0 }, b1[2] = { 1, 0 },
	    len4[2] = { 4, 0 }, ae_mode[1] = { 0x08 }, err6[1] = { 0x06 },
	    xu_cur[4] = { 0x01, 0x00, 0x10, 0x00 };
	static const uint8_t vc_change[6] = { 0x01, 2, 0x00, 0x02, 0x00, 140 };
	static const uint8_t button[4] = { 0x02, 1, 0x00, 0x01 };
	struct ghub	 h;
	struct gdev	 d;
	struct gurb	 st, u[2];
	uint8_t		 probe[34], ans[34];
	uint32_t	 i, k;

	cfg_check(&uvc);
	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &uvc, &d);
	/* uvc_probe: the streaming interface idle, the status URB */
	ctrl(g, &d, &(struct greq){ RT_INTF_OUT, USB_REQ_SET_INTERFACE, 0, 1,
	    0 }, NULL, 0);
	gen_urb(g, &d, &st, 0x83, XFER_INT, 16, 32);
	urb_submit(g, &st, NULL);
	gen_wait(g, 2000, 4000);

	/* uvc_ctrl_init: the processing unit's brightness (selector 2),
	 * the camera's auto-exposure mode (2), an extension unit control */
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_INFO, 0x02, 0, 2, 0, 1, info3, 1);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_DEF, 0x02, 0, 2, 0, 2, b128, 2);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_MIN, 0x02, 0, 2, 0, 2, b0, 2);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_MAX, 0x02, 0, 2, 0, 2, b255, 2);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_RES, 0x02, 0, 2, 0, 2, b1, 2);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_CUR, 0x02, 0, 2, 0, 2, b128, 2);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_INFO, 0x02, 0, 1, 0, 1, info3, 1);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_RES, 0x02, 0, 1, 0, 1, ae_mode,
	    1);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_LEN, 0x01, 0, 3, 0, 2, len4, 2);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_CUR, 0x01, 0, 3, 0, 4, xu_cur,
	    4);
	/* a control the device refuses, and why (4.2.1.2) */
	ctrl_id(g, &d, d.ctl_id, 0, &(struct greq){ RT_CLS_INTF_IN,
	    UVC_GET_CUR, 0x05 << 8, 3 << 8, 4 }, NULL, 0, ST_EPIPE);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_CUR, 0x02, 0, 0, 0, 1, err6, 1);
	/* brightness up */
	cls_req(g, &d, RT_CLS_INTF_OUT, UVC_SET_CUR, 0x02, 0, 2, 0, 2, b255, 2);

	/* uvc_video_init and uvc_probe_video: probe, then commit */
	uvc_probe(ans, 1);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_CUR, 0x01, 0, 0, 1, 34, ans, 34);
	uvc_probe(probe, 0);
	cls_req(g, &d, RT_CLS_INTF_OUT, UVC_SET_CUR, 0x01, 0, 0, 1, 34, probe,
	    34);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_CUR, 0x01, 0, 0, 1, 34, ans, 34);
	cls_req(g, &d, RT_CLS_INTF_IN, UVC_GET_MAX, 0x01, 0, 0, 1, 34, ans, 34);
	cls_req(g, &d, RT_CLS_INTF_OUT, UVC_SET_CUR, 0x02, 0, 0, 1, 34, ans,
	    34);
	gen_wait(g, 5000, 9000);

	/* streaming: alt 1, two ISO URBs of 8 packets in flight */
	ctrl(g, &d, &(struct greq){ RT_INTF_OUT, USB_REQ_SET_INTERFACE, 1, 1,
	    0 }, NULL, 0);
	for (i = 0; i < 2; i++) {
		memset(&u[i], 0, sizeof u[i]);
		u[i].id = gen_urbid(g);
		u[i].bus = d.bus;
		u[i].dev = d.devnum;
		u[i].ep = 0x81;
		u[i].xfer = XFER_ISO;
		u[i].flags = UF_ISO_ASAP | UF_NO_DMA_MAP | UF_DIR_IN;
		u[i].interval = 1;
		u[i].nframes = UVC_PACKS;
		u[i].len = UVC_PACKS * UVC_MAXP;
		for (k = 0; k < UVC_PACKS; k++) {
			u[i].fr[k].off = k * UVC_MAXP;
			u[i].fr[k].len = UVC_MAXP;
		}
		urb_submit(g, &u[i], NULL);
		gen_wait(g, 10, 40);
	}
	/* frame 1 over two URBs, frame 2 in one with an error flag */
	for (k = 0; k < 4; k++) {
		g->now += UVC_PACKS * 125 * US;
		uvc_iso_done(g, &u[k % 2], (uint8_t)(k / 2 % 2),
		    90000 + 3000 * (k / 2), k % 2 == 0 ? UVC_PACKS : 5,
		    k == 2 ? 0x40 : 0);
		gen_wait(g, 15, 60);
		if (k == 1) {
			/* the user turned brightness; then pressed a button */
			urb_give(g, &st, 0, sizeof vc_change, vc_change);
			gen_wait(g, 20, 50);
			urb_submit(g, &st, NULL);
		}
		urb_submit(g, &u[k % 2], NULL);
	}
	urb_give(g, &st, 0, sizeof button, button);
	gen_wait(g, 20, 50);
	urb_submit(g, &st, NULL);

	/* stop: the URBs killed, the interface idle */
	gen_wait(g, 500, 1500);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < UVC_PACKS; k++) {
			u[i].fr[k].actual = 0;
			u[i].fr[k].status = ST_EXDEV;
		}
		urb_give(g, &u[i], ST_ENOENT, 0, g->buf);
		gen_wait(g, 30, 90);
	}
	ctrl(g, &d, &(struct greq){ RT_INTF_OUT, USB_REQ_SET_INTERFACE, 0, 1,
	    0 }, NULL, 0);
}

#define UAC2_CUR	0x01
#define UAC2_RANGE	0x02
#define UAC2_PACKS	8
#define UAC2_FRAME	384		/* 48 kHz, 2 ch, 4-byte slots, 1 ms */

static void
scn_uac2(struct gen *g)
{
	static const uint8_t valid[1] = { 1 }, sel[1] = { 1 }, mute[1] = { 0 },
	    nranges[2] = { 2, 0 },
	    rate_ranges[26] = {
		2, 0,
		0x44, 0xac, 0, 0, 0x44, 0xac, 0, 0, 0, 0, 0, 0,	/* 44100 */
		0x80, 0xbb, 0, 0, 0x80, 0xbb, 0, 0, 0, 0, 0, 0	/* 48000 */
	    },
	    rate[4] = { 0x80, 0xbb, 0, 0 },
	    vol_range[8] = { 1, 0, 0x00, 0xc0, 0x00, 0x00, 0x80, 0x00 },
	    vol[2] = { 0x00, 0xf6 }, vol_set[2] = { 0x00, 0xf0 };
	static const uint8_t midi1[8] = {
		0x09, 0x90, 0x3c, 0x64, 0x09, 0x90, 0x40, 0x64	/* note on */
	}, midi2[12] = {
		0x08, 0x80, 0x3c, 0x00, 0x0c, 0xc0, 0x05, 0x00,	/* off, prog */
		0x0f, 0xf8, 0x00, 0x00				/* clock */
	};
	struct ghub	 h;
	struct gdev	 d;
	struct gurb	 u[2], m;
	uint32_t	 i, k;

	cfg_check(&uac2);
	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &uac2, &d);
	ctrl(g, &d, &(struct greq){ RT_INTF_OUT, USB_REQ_SET_INTERFACE, 0, 1,
	    0 }, NULL, 0);
	/* snd-usb-audio: the clock (clock.c), its rates (format.c) */
	cls_req(g, &d, RT_CLS_INTF_IN, UAC2_CUR, 0x01, 0, 17, 0, 1, sel, 1);
	cls_req(g, &d, RT_CLS_INTF_IN, UAC2_CUR, 0x02, 0, 16, 0, 1, valid, 1);
	cls_req(g, &d, RT_CLS_INTF_IN, UAC2_RANGE, 0x01, 0, 16, 0, 2, nranges,
	    2);
	cls_req(g, &d, RT_CLS_INTF_IN, UAC2_RANGE, 0x01, 0, 16, 0, 26,
	    rate_ranges, 26);
	/* the mixer (mixer.c): mute, then volume of each channel */
	cls_req(g, &d, RT_CLS_INTF_IN, UAC2_CUR, 0x01, 0, 2, 0, 1, mute, 1);
	for (i = 1; i <= 2; i++) {
		cls_req(g, &d, RT_CLS_INTF_IN, UAC2_RANGE, 0x02, (uint8_t)i, 2,
		    0, 8, vol_range, 8);
		cls_req(g, &d, RT_CLS_INTF_IN, UAC2_CUR, 0x02, (uint8_t)i, 2, 0,
		    2, vol, 2);
	}
	cls_req(g, &d, RT_CLS_INTF_OUT, UAC2_CUR, 0x02, 1, 2, 0, 2, vol_set,
	    2);
	gen_wait(g, 200000, 300000);

	/* playback: alt 1, the rate, ISO OUT URBs */
	ctrl(g, &d, &(struct greq){ RT_INTF_OUT, USB_REQ_SET_INTERFACE, 1, 1,
	    0 }, NULL, 0);
	cls_req(g, &d, RT_CLS_INTF_OUT, UAC2_CUR, 0x01, 0, 16, 0, 4, rate, 4);
	cls_req(g, &d, RT_CLS_INTF_IN, UAC2_CUR, 0x01, 0, 16, 0, 4, rate, 4);
	for (i = 0; i < 2; i++) {
		memset(&u[i], 0, sizeof u[i]);
		u[i].id = gen_urbid(g);
		u[i].bus = d.bus;
		u[i].dev = d.devnum;
		u[i].ep = 0x01;
		u[i].xfer = XFER_ISO;
		u[i].flags = UF_ISO_ASAP | UF_NO_DMA_MAP;
		u[i].interval = 8;
		u[i].nframes = UAC2_PACKS;
		u[i].len = UAC2_PACKS * UAC2_FRAME;
		for (k = 0; k < UAC2_PACKS; k++) {
			u[i].fr[k].off = k * UAC2_FRAME;
			u[i].fr[k].len = UAC2_FRAME;
		}
		for (k = 0; k < u[i].len; k++)
			g->buf[k] = (uint8_t)(k * 7 + i);
		urb_submit(g, &u[i], g->buf);
		gen_wait(g, 10, 40);
	}
	for (k = 0; k < 4; k++) {
		g->now += UAC2_PACKS * MS;
		for (i = 0; i < UAC2_PACKS; i++) {
			u[k % 2].fr[i].actual = UAC2_FRAME;
			u[k % 2].fr[i].status = 0;
		}
		urb_give(g, &u[k % 2], 0, 0, NULL);
		gen_wait(g, 15, 60);
		urb_submit(g, &u[k % 2], g->buf);
		if (k == 1) {
			/* a MIDI keyboard plays on the MIDI interface */
			gen_urb(g, &d, &m, 0x02, XFER_BULK, sizeof midi1, 0);
			urb_submit(g, &m, midi1);
			gen_wait(g, 100, 200);
			urb_give(g, &m, 0, sizeof midi1, NULL);
			gen_urb(g, &d, &m, 0x02, XFER_BULK, sizeof midi2, 0);
			urb_submit(g, &m, midi2);
			gen_wait(g, 100, 200);
			urb_give(g, &m, 0, sizeof midi2, NULL);
		}
	}
	gen_wait(g, 500, 1500);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < UAC2_PACKS; k++) {
			u[i].fr[k].actual = 0;
			u[i].fr[k].status = ST_EXDEV;
		}
		urb_give(g, &u[i], ST_ENOENT, 0, NULL);
		gen_wait(g, 30, 90);
	}
	ctrl(g, &d, &(struct greq){ RT_INTF_OUT, USB_REQ_SET_INTERFACE, 0, 1,
	    0 }, NULL, 0);
}

/*
 * The benchmark capture: keyboard and disk on one EHCI bus, the keyboard
 * typing in the background while the disk runs READ/WRITE(10) of 512 B
 * to 64 KiB, with a rare STALL, until the record limit.
 */
static void
scn_mixed(struct gen *g)
{
	static const char text[] = "the quick brown fox jumps over the lazy "
	    "dog 0123456789. usbmon sees every urb.\n";
	struct ghub	 h;
	struct gkbd	 k;
	struct gbot	 b;
	uint32_t	 lba_r = 4096, lba_w = 1048576, lba;
	uint64_t	 r, ncmd = 0;
	uint16_t	 n;
	int		 write, stall;

	memset(&k, 0, sizeof k);
	memset(&b, 0, sizeof b);
	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &kbd, &k.d);
	kbd_start(g, &k);
	gen_wait(g, 300000, 600000);
	hub_connect(g, &h, 2, &disk, &b.d);
	bot_init(g, &b);
	disk_start(g, &b, DISK_BLOCKS);

	k.text = text;
	k.pos = 0;
	k.state = 0;
	g->bg = kbd_bg;
	g->bg_arg = &k;
	g->bg_next = g->now + 200 * MS;

	while (!g->full) {
		r = rnd_in(g, 0, 9999);
		/* 92% one block, 6% 4 KiB, 1.6% 16 KiB, 0.4% 64 KiB */
		if (r < 9200)
			n = 1;
		else if (r < 9800)
			n = 8;
		else if (r < 9960)
			n = 32;
		else
			n = 128;
		write = rnd_in(g, 0, 99) < 45;
		if (write) {
			lba = lba_w;
			lba_w = (lba_w + n) % DISK_BLOCKS;
		} else {
			lba = lba_r;
			lba_r = (lba_r + n) % DISK_BLOCKS;
		}
		if (lba + n > DISK_BLOCKS)
			lba = 0;
		stall = !write && ++ncmd % 4096 == 0;
		disk_rw(g, &b, write, lba, n, stall);
		gen_wait(g, 10, 150);
	}
}

/* ------------------------------------------------------------------------
 * A Windows capture: USBPcap's packets (LINKTYPE_USBPCAP), built byte by
 * byte from its published format (https://desowin.org/usbpcap/
 * captureformat.html) and read back through capture/cap-usbpcap.c, so
 * the sink writes the same bytes.  A full-speed HID keyboard and a vendor
 * device with bulk and isochronous endpoints, on root hub 1.
 */

#define WIN_IRP0	0xffffc60a1b2e4010ULL	/* IRP addresses, 0x10 aligned */

struct wpkt {
	uint64_t	 irp;
	uint32_t	 status;	/* USBD_STATUS */
	uint16_t	 func;		/* URB_FUNCTION_* */
	uint8_t		 info;		/* 1 = PDO to FDO (completion) */
	uint16_t	 dev;
	uint8_t		 ep;
	uint8_t		 xfer;
	int		 stage;		/* control stage, -1 = none */
	uint32_t	 nframes;	/* ISO */
	const struct gframe *fr;
};

static void
win_emit(struct gen *g, const struct wpkt *w, const uint8_t *data,
    uint32_t len)
{
	static uint8_t	 pkt[USBPCAP_HDR_ISO + 12 * GEN_ISO_MAX + 4096];
	struct urb_iso	 iso[URB_ISO_MAX];
	struct urb_rec	 r;
	const char	*why;
	uint32_t	 i, h = USBPCAP_HDR;

	if (w->stage >= 0)
		h = USBPCAP_HDR_CTRL;
	else if (w->xfer == XFER_ISO)
		h = USBPCAP_HDR_ISO + 12 * w->nframes;
	if (h + len > sizeof pkt)
		errx(1, "usbpcap: packet too long");
	put_le16(pkt, (uint16_t)h);
	put_le64(pkt + 2, w->irp);
	put_le32(pkt + 10, w->status);
	put_le16(pkt + 14, w->func);
	pkt[16] = w->info;
	put_le16(pkt + 17, 1);
	put_le16(pkt + 19, w->dev);
	pkt[21] = w->ep;
	pkt[22] = w->xfer;
	put_le32(pkt + 23, len);
	if (w->stage >= 0)
		pkt[27] = (uint8_t)w->stage;
	else if (w->xfer == XFER_ISO) {
		put_le32(pkt + 27, 0x2a51);	/* start frame */
		put_le32(pkt + 31, w->nframes);
		put_le32(pkt + 35, 0);
		for (i = 0; i < w->nframes; i++) {
			put_le32(pkt + 39 + 12 * i, w->fr[i].off);
			put_le32(pkt + 39 + 12 * i + 4, w->info ?
			    w->fr[i].actual : w->fr[i].len);
			put_le32(pkt + 39 + 12 * i + 8, w->info ?
			    (uint32_t)w->fr[i].status : 0);
			if (w->info && w->fr[i].status != 0)
				put_le32(pkt + 35, get_le32(pkt + 35) + 1);
		}
	}
	if (len > 0)
		memcpy(pkt + h, data, len);
	if (cap_usbpcap_packet(pkt, h + len, h + len, iso, &r, &why) < 0)
		errx(1, "usbpcap: %s", why);
	gen_emit(g, &r);
}

/* A control transfer as USBPcap 1.5 shows it: the setup stage with its
 * OUT data (old style, split = 0) or setup, data and status stages. */
static void
win_control(struct gen *g, uint64_t irp, uint16_t dev, uint16_t func,
    const uint8_t setup[8], const uint8_t *data, uint32_t n, int split,
    uint32_t status)
{
	struct wpkt	 w = { irp, 0, func, 0, dev, 0, XFER_CTRL, 0, 0, NULL };
	uint8_t		 b[8 + 512];
	int		 in = (setup[0] & 0x80) != 0;

	w.ep = in ? 0x80 : 0x00;
	memcpy(b, setup, 8);
	if (!in && !split && n > 0)
		memcpy(b + 8, data, n);
	win_emit(g, &w, b, 8 + (!in && !split ? n : 0));
	gen_wait(g, 20, 60);
	w.func = 0x0008;		/* CONTROL_TRANSFER on the way back */
	if (split && !in && n > 0) {
		w.stage = USBPCAP_STAGE_DATA;
		w.func = func;
		win_emit(g, &w, data, n);
		gen_wait(g, 100, 300);
		w.func = 0x0008;
	}
	w.info = 1;
	w.status = status;
	if (split) {
		if (in) {
			w.stage = USBPCAP_STAGE_DATA;
			win_emit(g, &w, data, status == 0 ? n : 0);
			gen_wait(g, 1, 5);
		}
		w.stage = USBPCAP_STAGE_STATUS;
		win_emit(g, &w, NULL, 0);
	} else {
		w.stage = USBPCAP_STAGE_COMPLETE;
		win_emit(g, &w, data, in && status == 0 ? n : 0);
	}
	gen_wait(g, 100, 400);
}

static void
win_xfer(struct gen *g, uint64_t irp, uint16_t dev, uint8_t ep, uint8_t xfer,
    const uint8_t *data, uint32_t n, uint32_t status)
{
	struct wpkt	 w = { irp, 0, 0x0009, 0, dev, ep, xfer, -1, 0, NULL };
	int		 in = (ep & 0x80) != 0;

	win_emit(g, &w, data, in ? 0 : n);
	gen_wait(g, 200, 4000);
	w.info = 1;
	w.status = status;
	win_emit(g, &w, data, in && status == 0 ? n : 0);
	gen_wait(g, 30, 90);
}

/* ABORT_PIPE, SYNC_RESET_PIPE_AND_CLEAR_STALL: IRPs with no transfer. */
static void
win_irp(struct gen *g, uint64_t irp, uint16_t dev, uint8_t ep, uint16_t func)
{
	struct wpkt	 w = { irp, 0, func, 0, dev, ep, USBPCAP_XFER_IRP, -1, 0,
			     NULL };

	win_emit(g, &w, NULL, 0);
	gen_wait(g, 50, 200);
	w.info = 1;
	win_emit(g, &w, NULL, 0);
	gen_wait(g, 50, 200);
}

static void
scn_usbpcap(struct gen *g)
{
	static const uint8_t ddesc[18] = {
		/* pid.codes' test VID:PID 1209:0001 */
		18, 1, 0x10, 0x01, 0, 0, 0, 64, 0x09, 0x12, 0x01, 0x00,
		0x00, 0x01, 0, 0, 0, 1
	};
	static const uint8_t cdesc[] = {
		9, 2, 64, 0, 2, 1, 0, 0xa0, 50,
		/* interface 0: HID boot keyboard, interrupt IN 0x81 */
		9, 4, 0, 0, 1, 3, 1, 1, 0,
		9, 0x21, 0x11, 0x01, 0, 1, 0x22, 63, 0,
		7, 5, 0x81, 3, 8, 0, 10,
		/* interface 1: vendor, bulk 0x02 and 0x83, ISO IN 0x84 */
		9, 4, 1, 0, 3, 0xff, 0, 0, 0,
		7, 5, 0x02, 2, 64, 0, 0,
		7, 5, 0x83, 2, 64, 0, 0,
		7, 5, 0x84, 1, 0xc0, 0, 1
	};
	static const uint8_t get_dev[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
	static const uint8_t get_cfg[8] = { 0x80, 6, 0, 2, 0, 0, 64, 0 };
	static const uint8_t set_cfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	static const uint8_t set_idle[8] = { 0x21, 0x0a, 0, 0, 0, 0, 0, 0 };
	static const uint8_t set_rep[8] = { 0x21, 0x09, 0, 2, 0, 0, 1, 0 };
	static const uint8_t vend_in[8] = { 0xc0, 0x01, 0, 0, 1, 0, 4, 0 };
	static const uint8_t vend_out[8] = { 0x40, 0x02, 0x34, 0x12, 1, 0, 16,
					     0 };
	static const char text[] = "usb";
	struct gframe	 fr[4];
	struct wpkt	 iso;
	uint8_t		 rep[8], b[512];
	uint64_t	 irp = WIN_IRP0;
	uint32_t	 i, k, n;

	/* what USBPcap writes first: the descriptors of connected devices,
	 * as GET_DESCRIPTOR_FROM_DEVICE requests with IRP id 0 */
	for (k = 0; k < 2; k++) {
		win_control(g, 0, 3, 0x000b, k == 0 ? get_dev : get_cfg,
		    k == 0 ? ddesc : cdesc, k == 0 ? 18 : sizeof cdesc, 0, 0);
	}
	win_control(g, 0, 3, 0x0000, set_cfg, NULL, 0, 0, 0);

	/* usbhid: SET_IDLE, the LED report, then key presses */
	win_control(g, irp += 0x10, 3, 0x001b, set_idle, NULL, 0, 1, 0);
	b[0] = 0x02;
	win_control(g, irp += 0x10, 3, 0x001b, set_rep, b, 1, 1, 0);
	for (i = 0; i < sizeof text - 1; i++) {
		memset(rep, 0, sizeof rep);
		rep[2] = (uint8_t)(text[i] - 'a' + 4);
		win_xfer(g, WIN_IRP0 + 0x1000 + (i % 2) * 0x10, 3, 0x81,
		    XFER_INT, rep, 8, 0);
		memset(rep, 0, sizeof rep);
		win_xfer(g, WIN_IRP0 + 0x1000 + ((i + 1) % 2) * 0x10, 3, 0x81,
		    XFER_INT, rep, 8, 0);
	}

	/* the vendor device: requests both ways, one of them stalled */
	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(0xa0 + i);
	win_control(g, irp += 0x10, 3, 0x0018, vend_out, b, 16, 1, 0);
	win_control(g, irp += 0x10, 3, 0x0018, vend_out, b, 16, 0, 0);
	win_control(g, irp += 0x10, 3, 0x0018, vend_in, b, 4, 1, 0);
	win_control(g, irp += 0x10, 3, 0x0018, vend_in, b, 4, 0,
	    0xc0000004);			/* STALL_PID */

	/* bulk: a command out, an answer in, a stall, its reset */
	for (i = 0; i < 64; i++)
		b[i] = (uint8_t)(i * 7);
	for (k = 0; k < 3; k++) {
		win_xfer(g, irp += 0x10, 3, 0x02, XFER_BULK, b, 31, 0);
		win_xfer(g, irp += 0x10, 3, 0x83, XFER_BULK, b, 64, 0);
	}
	win_xfer(g, irp += 0x10, 3, 0x83, XFER_BULK, b, 64, 0xc0000004);
	win_irp(g, irp += 0x10, 3, 0x83, 0x001e);
	win_xfer(g, irp += 0x10, 3, 0x83, XFER_BULK, b, 13, 0);

	/* isochronous IN: four packets of 192 bytes, one late */
	for (k = 0; k < 3; k++) {
		for (i = 0; i < 4; i++) {
			fr[i].off = 192 * i;
			fr[i].len = 192;
			fr[i].actual = k == 1 && i == 2 ? 0 : 192;
			fr[i].status = k == 1 && i == 2 ?
			    (int32_t)0xc0020000 : 0;	/* ISO_NOT_ACCESSED_BY_HW */
		}
		memset(&iso, 0, sizeof iso);
		iso.irp = irp += 0x10;
		iso.func = 0x000a;
		iso.dev = 3;
		iso.ep = 0x84;
		iso.xfer = XFER_ISO;
		iso.stage = -1;
		iso.nframes = 4;
		iso.fr = fr;
		win_emit(g, &iso, NULL, 0);
		gen_wait(g, 4000, 4000);
		iso.info = 1;
		for (n = 0; n < 4 * 192; n++)
			g->buf[n] = (uint8_t)(n + k);
		win_emit(g, &iso, g->buf, 4 * 192);
		gen_wait(g, 10, 30);
	}

	/* the driver stops: interrupt IN cancelled, pipes aborted */
	win_xfer(g, WIN_IRP0 + 0x1000, 3, 0x81, XFER_INT, rep, 8,
	    0xc0010000);			/* CANCELED */
	win_irp(g, irp += 0x10, 3, 0x81, 0x0002);
	win_irp(g, irp += 0x10, 3, 0x84, 0x0002);
	win_xfer(g, irp += 0x10, 3, 0x83, XFER_BULK, b, 64,
	    0xc0007000);			/* DEVICE_GONE */
}

/* ------------------------------------------------------------------------
 * A hardware sniffer's capture: bus-level packets (LINKTYPE_USB_2_0_FULL_
 * SPEED, 294, or -L 288: speed not said), built from the packet formats
 * of USB 2.0 chapter 8 (PID and check bits, address, endpoint, CRC5, CRC16) and the
 * transaction rules of 8.5, and read back through capture/cap-usbll.c so
 * the sink writes the same bytes.  A CDC-ACM serial adapter at full
 * speed: SOFs, its enumeration (a NAK, a multi-packet configuration, a
 * STALLed request), the line coding, bulk data both ways with NAKs and a
 * STALL, interrupt polls, a split token, a packet with a bad CRC and one
 * with a bad PID.
 */

struct llgen {
	struct cap_usbll *st;
	uint16_t	 mps0;		/* endpoint 0's packets, 0: 64 */
	uint8_t		 addr;
	uint16_t	 frame;
	uint8_t		 toggle[2][16];	/* [in][ep] next DATA0/1 */
};

static struct llgen llg;

static void
ll_emit(struct gen *g, const uint8_t *p, uint32_t n, uint64_t gap_ns)
{
	struct urb_rec	 r;

	(void)cap_usbll_packet(llg.st, p, n, &r);
	gen_emit(g, &r);
	g->now += gap_ns;
}

static void
ll_token(struct gen *g, uint8_t pid, uint8_t addr, uint8_t ep)
{
	uint8_t		 p[3];

	ll_emit(g, p, (uint32_t)enc_usbll_token(p, pid, addr, ep), 2500);
}

static void
ll_sof(struct gen *g)
{
	uint8_t		 p[3];
	uint32_t	 v = llg.frame++ & 0x7ff;

	g->now = (g->now / MS + 1) * MS;	/* one a millisecond */
	ll_emit(g, p, (uint32_t)enc_usbll_token(p, USBLL_PID_SOF,
	    (uint8_t)(v & 0x7f), (uint8_t)(v >> 7)), 3000);
}

static void
ll_data(struct gen *g, uint8_t pid, const uint8_t *d, uint32_t n)
{
	uint8_t		 p[3 + 512];

	ll_emit(g, p, (uint32_t)enc_usbll_data(p, pid, d, n),
	    3000 + 670 * (uint64_t)n);
}

static void
ll_hs(struct gen *g, uint8_t pid)
{
	ll_emit(g, &pid, 1, 4000);
}

/* One data transaction on ep: a token, NAKed naks times, then the data
 * and its handshake (hs: ACK, STALL). */
static void
ll_txn(struct gen *g, uint8_t addr, uint8_t ep, int in, const uint8_t *d,
    uint32_t n, int naks, uint8_t hs)
{
	uint8_t		*t = &llg.toggle[in][ep];

	for (; naks > 0; naks--) {
		ll_token(g, in ? USBLL_PID_IN : USBLL_PID_OUT, addr, ep);
		if (!in)
			ll_data(g, *t ? USBLL_PID_DATA1 : USBLL_PID_DATA0, d,
			    n);
		ll_hs(g, USBLL_PID_NAK);
		g->now += 20000;
	}
	ll_token(g, in ? USBLL_PID_IN : USBLL_PID_OUT, addr, ep);
	if (in && hs == USBLL_PID_STALL) {
		ll_hs(g, hs);
		return;
	}
	ll_data(g, *t ? USBLL_PID_DATA1 : USBLL_PID_DATA0, d, n);
	ll_hs(g, hs);
	if (hs == USBLL_PID_ACK)
		*t ^= 1;
}

/* A control transfer: setup, data in packets of 64 bytes, status; stall
 * ends it at the first data (or status) transaction. */
static void
ll_control(struct gen *g, uint8_t addr, const uint8_t setup[8],
    const uint8_t *d, uint32_t n, int naks, int stall)
{
	int		 in = (setup[0] & 0x80) != 0;
	uint32_t	 off = 0, k, mps = llg.mps0 ? llg.mps0 : 64;
	uint8_t		 tog = 1;

	ll_token(g, USBLL_PID_SETUP, addr, 0);
	ll_data(g, USBLL_PID_DATA0, setup, 8);
	ll_hs(g, USBLL_PID_ACK);
	if (stall) {
		ll_token(g, in || n == 0 ? USBLL_PID_IN : USBLL_PID_OUT,
		    addr, 0);
		ll_hs(g, USBLL_PID_STALL);
		g->now += 100000;
		return;
	}
	for (; n > 0 && (off < n || off == 0);) {
		k = n - off > mps ? mps : n - off;
		for (; in && naks > 0; naks--) {
			ll_token(g, USBLL_PID_IN, addr, 0);
			ll_hs(g, USBLL_PID_NAK);
			g->now += 20000;
		}
		ll_token(g, in ? USBLL_PID_IN : USBLL_PID_OUT, addr, 0);
		ll_data(g, tog ? USBLL_PID_DATA1 : USBLL_PID_DATA0, d + off,
		    k);
		ll_hs(g, USBLL_PID_ACK);
		tog ^= 1;
		off += k;
		if (k < mps)
			break;
	}
	/* the status stage, the other way, always DATA1 */
	ll_token(g, in && n > 0 ? USBLL_PID_OUT : USBLL_PID_IN, addr, 0);
	ll_data(g, USBLL_PID_DATA1, NULL, 0);
	ll_hs(g, USBLL_PID_ACK);
	g->now += 100000;
}

static void
scn_usbll(struct gen *g)
{
	static const uint8_t ddesc[18] = {
		/* pid.codes' test VID:PID 1209:0001, CDC */
		18, 1, 0x00, 0x02, 2, 0, 0, 64, 0x09, 0x12, 0x01, 0x00,
		0x00, 0x01, 1, 2, 0, 1
	};
	static const uint8_t cdesc[75] = {
		9, 2, 75, 0, 2, 1, 0, 0x80, 50,
		8, 0x0b, 0, 2, 2, 2, 1, 0,	/* interface association */
		9, 4, 0, 0, 1, 2, 2, 1, 0,	/* CDC ACM control */
		5, 0x24, 0x00, 0x10, 0x01,	/* header */
		5, 0x24, 0x01, 0x00, 1,		/* call management */
		4, 0x24, 0x02, 0x02,		/* ACM */
		5, 0x24, 0x06, 0, 1,		/* union */
		7, 5, 0x82, 3, 8, 0, 16,	/* notifications */
		9, 4, 1, 0, 2, 0x0a, 0, 0, 0,	/* CDC data */
		7, 5, 0x81, 2, 64, 0, 0,
		7, 5, 0x01, 2, 64, 0, 0,
	};
	static const uint8_t lang[4] = { 4, 3, 0x09, 0x04 };
	static const uint8_t prod[16] = { 16, 3, 'u', 0, 'r', 0, 'b', 0, 'A',
	    0, 'C', 0, 'M', 0, '0', 0 };
	static const uint8_t get_dev64[8] = { 0x80, 6, 0, 1, 0, 0, 64, 0 };
	static const uint8_t set_addr[8] = { 0x00, 5, 5, 0, 0, 0, 0, 0 };
	static const uint8_t get_dev[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
	static const uint8_t get_qual[8] = { 0x80, 6, 0, 6, 0, 0, 10, 0 };
	static const uint8_t get_cfg9[8] = { 0x80, 6, 0, 2, 0, 0, 9, 0 };
	static const uint8_t get_cfg[8] = { 0x80, 6, 0, 2, 0, 0, 75, 0 };
	static const uint8_t get_str0[8] = { 0x80, 6, 0, 3, 0, 0, 255, 0 };
	static const uint8_t get_str2[8] = { 0x80, 6, 2, 3, 9, 4, 255, 0 };
	static const uint8_t set_cfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	static const uint8_t set_line[8] = { 0x21, 0x20, 0, 0, 0, 0, 7, 0 };
	static const uint8_t line[7] = { 0x00, 0xc2, 0x01, 0x00, 0, 0, 8 };
	static const uint8_t set_ctl[8] = { 0x21, 0x22, 3, 0, 0, 0, 0, 0 };
	static const char text[] = "The quick brown fox jumps over the "
	    "lazy dog, again and again, for a 74-byte answer.";
	uint8_t		 b[64], bad[11], split[4];
	uint32_t	 i, v;

	if ((llg.st = cap_usbll_new(g->sink->opts.linktype)) == NULL)
		err(1, "cap_usbll_new");
	llg.frame = 1000;
	for (i = 0; i < 3; i++)
		ll_sof(g);
	ll_control(g, 0, get_dev64, ddesc, 18, 1, 0);
	ll_control(g, 0, set_addr, NULL, 0, 0, 0);
	ll_sof(g);
	ll_control(g, 5, get_dev, ddesc, 18, 0, 0);
	ll_control(g, 5, get_qual, NULL, 10, 0, 1);
	ll_control(g, 5, get_cfg9, cdesc, 9, 0, 0);
	ll_control(g, 5, get_cfg, cdesc, sizeof cdesc, 0, 0);
	ll_control(g, 5, get_str0, lang, sizeof lang, 0, 0);
	ll_control(g, 5, get_str2, prod, sizeof prod, 2, 0);
	ll_sof(g);
	ll_control(g, 5, set_cfg, NULL, 0, 0, 0);
	ll_control(g, 5, set_line, line, sizeof line, 0, 0);
	ll_control(g, 5, set_ctl, NULL, 0, 0, 0);
	/* the notification endpoint polled and NAKed */
	for (i = 0; i < 4; i++) {
		ll_sof(g);
		ll_token(g, USBLL_PID_IN, 5, 2);
		ll_hs(g, USBLL_PID_NAK);
	}
	/* bulk OUT, NAKed once; bulk IN, two packets */
	ll_txn(g, 5, 1, 0, (const uint8_t *)text, 32, 1, USBLL_PID_ACK);
	ll_txn(g, 5, 1, 1, (const uint8_t *)text, 64, 2, USBLL_PID_ACK);
	ll_txn(g, 5, 1, 1, (const uint8_t *)text + 64, 10, 0, USBLL_PID_ACK);
	ll_sof(g);
	/* a damaged packet (CRC16), a bad PID, a split token */
	ll_token(g, USBLL_PID_OUT, 5, 1);
	bad[0] = USBLL_PID_DATA1;
	memcpy(bad + 1, text, 8);
	v = dec_usbll_crc16(bad + 1, 8) ^ 0x0101;
	put_le16(bad + 9, (uint16_t)v);
	ll_emit(g, bad, 11, 3000);
	b[0] = 0x2e;			/* check bits wrong */
	ll_emit(g, b, 1, 3000);
	/* SSPLIT to hub 3 port 2, bulk (11.15; meaningful on a high-speed
	 * bus, decoded anywhere) */
	v = 3 | 2 << 8 | 2 << 17;
	v |= (uint32_t)dec_usbll_crc5(v, 19) << 19;
	split[0] = USBLL_PID_SPLIT;
	split[1] = (uint8_t)v;
	split[2] = (uint8_t)(v >> 8);
	split[3] = (uint8_t)(v >> 16);
	ll_emit(g, split, 4, 3000);
	ll_sof(g);
	/* the device STALLs the bulk OUT endpoint */
	ll_txn(g, 5, 1, 0, (const uint8_t *)text, 16, 0, USBLL_PID_STALL);
	ll_sof(g);
	cap_usbll_free(llg.st);
	llg.st = NULL;
}

/*
 * A sniffer's bus event, as ataradov/usb-sniffer's software/capture.c
 * words it (capture_info): written on the events' interface, and told to
 * the generator's own transaction state as a reader tells it.
 */
static void
ll_bus(struct gen *g, const char *msg, uint64_t gap_ns)
{
	struct drv_event ev;

	if (g->full)
		return;
	memset(&ev, 0, sizeof ev);
	ev.kind = DRV_BUS;
	ev.intf = ev.minor = -1;
	ev.syslog_level = ev.syslog_facility = -1;
	ev.text = msg;
	ev.bus_ev = (uint8_t)dec_bus_ev(msg, &ev.bus_speed);
	ev.ts_ns = (int64_t)g->now;
	ev.recno = ++g->nrec;
	cap_usbll_bus(llg.st, ev.bus_ev, ev.bus_speed);
	if (cap_sink_write_event(g->sink, &ev) < 0)
		errx(1, "%s", g->sink->err);
	if (g->limit != 0 && g->nrec >= g->limit)
		g->full = 1;
	g->now += gap_ns;
}

/*
 * A hardware sniffer's capture with its bus events (-L 288 by default:
 * the link type does not say the speed, the events do): a low-speed
 * device (8-byte packets on endpoint 0) plugged in, reset, enumerated at
 * address 3 and polled; unplugged; a full-speed one plugged in at the
 * same address, whose bulk IN transfer is cut by a bus reset after a
 * full packet, re-enumerated, and read again.
 */
static void
scn_sniffer(struct gen *g)
{
	static const uint8_t ls_ddesc[18] = {
		/* pid.codes' test VID:PID 1209:0001, HID mouse */
		18, 1, 0x10, 0x01, 0, 0, 0, 8, 0x09, 0x12, 0x01, 0x00,
		0x00, 0x01, 0, 0, 0, 1
	};
	static const uint8_t ls_cdesc[25] = {
		9, 2, 25, 0, 1, 1, 0, 0xa0, 50,
		9, 4, 0, 0, 1, 3, 1, 2, 0,	/* HID boot mouse */
		7, 5, 0x81, 3, 8, 0, 10,
	};
	static const uint8_t fs_ddesc[18] = {
		18, 1, 0x00, 0x02, 0xff, 0, 0, 64, 0x09, 0x12, 0x02, 0x00,
		0x00, 0x01, 0, 0, 0, 1
	};
	static const uint8_t fs_cdesc[32] = {
		9, 2, 32, 0, 1, 1, 0, 0x80, 50,
		9, 4, 0, 0, 2, 0xff, 0, 0, 0,	/* vendor, two bulk */
		7, 5, 0x81, 2, 64, 0, 0,
		7, 5, 0x01, 2, 64, 0, 0,
	};
	static const uint8_t get_dev64[8] = { 0x80, 6, 0, 1, 0, 0, 64, 0 };
	static const uint8_t set_addr[8] = { 0x00, 5, 3, 0, 0, 0, 0, 0 };
	static const uint8_t get_dev[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
	static const uint8_t get_lcfg[8] = { 0x80, 6, 0, 2, 0, 0, 25, 0 };
	static const uint8_t get_fcfg[8] = { 0x80, 6, 0, 2, 0, 0, 32, 0 };
	static const uint8_t set_cfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	static const uint8_t move[4] = { 0x01, 0x05, 0xfb, 0x00 };
	static const char text[] = "A full packet of 64 bytes, then the bus "
	    "is reset before the rest; then: ten bytes.";
	uint32_t	 i;

	if ((llg.st = cap_usbll_new(g->sink->opts.linktype)) == NULL)
		err(1, "cap_usbll_new");
	memset(llg.toggle, 0, sizeof llg.toggle);
	llg.frame = 100;
	ll_bus(g, "Starting capture", 0);
	ll_bus(g, "VBUS ON", 2 * MS);
	ll_bus(g, "Line state: SE0", 10 * MS);
	ll_bus(g, "--- Bus Reset ---", 10 * MS);
	ll_bus(g, "Line state: K", 0);
	ll_bus(g, "Detected speed: Low-Speed", 1 * MS);
	llg.mps0 = 8;
	ll_control(g, 0, get_dev64, ls_ddesc, 18, 0, 0);
	ll_bus(g, "--- Bus Reset ---", 10 * MS);
	ll_bus(g, "Detected speed: Low-Speed", 1 * MS);
	ll_control(g, 0, set_addr, NULL, 0, 0, 0);
	ll_control(g, 3, get_dev, ls_ddesc, 18, 0, 0);
	ll_control(g, 3, get_lcfg, ls_cdesc, sizeof ls_cdesc, 0, 0);
	ll_control(g, 3, set_cfg, NULL, 0, 0, 0);
	for (i = 0; i < 3; i++) {
		ll_bus(g, "Keep-alive", 10 * MS);
		ll_txn(g, 3, 1, 1, move, sizeof move, 1, USBLL_PID_ACK);
	}
	ll_bus(g, "VBUS OFF", 100 * MS);
	ll_bus(g, "Periodic update", 100 * MS);

	memset(llg.toggle, 0, sizeof llg.toggle);
	ll_bus(g, "VBUS ON", 10 * MS);
	ll_bus(g, "--- Bus Reset ---", 10 * MS);
	ll_bus(g, "Detected speed: Full-Speed", 1 * MS);
	llg.mps0 = 64;
	ll_sof(g);
	ll_control(g, 0, get_dev64, fs_ddesc, 18, 0, 0);
	ll_control(g, 0, set_addr, NULL, 0, 0, 0);
	ll_sof(g);
	ll_control(g, 3, get_dev, fs_ddesc, 18, 0, 0);
	ll_control(g, 3, get_fcfg, fs_cdesc, sizeof fs_cdesc, 0, 0);
	ll_control(g, 3, set_cfg, NULL, 0, 0, 0);
	ll_sof(g);
	/* a full packet: the transfer goes on ... until the bus reset */
	ll_txn(g, 3, 1, 1, (const uint8_t *)text, 64, 0, USBLL_PID_ACK);
	ll_bus(g, "Folded 12 empty frames", 0);
	ll_bus(g, "--- Bus Reset ---", 10 * MS);
	ll_bus(g, "Detected speed: Full-Speed", 1 * MS);
	memset(llg.toggle, 0, sizeof llg.toggle);
	ll_sof(g);
	ll_control(g, 0, set_addr, NULL, 0, 0, 0);
	ll_control(g, 3, get_dev, fs_ddesc, 18, 0, 0);
	ll_control(g, 3, set_cfg, NULL, 0, 0, 0);
	ll_sof(g);
	/* a transfer of its own: one short packet */
	ll_txn(g, 3, 1, 1, (const uint8_t *)text + 64, 10, 0, USBLL_PID_ACK);
	ll_sof(g);
	ll_bus(g, "Capture limit reached", 0);
	cap_usbll_free(llg.st);
	llg.st = NULL;
}

/* ------------------------------------------------------------------------
 * A macOS capture: the XHC20 interface's records (LINKTYPE_USB_DARWIN,
 * 266), built from the pseudo-header Wireshark reads
 * (epan/dissectors/packet-usb.c dissect_darwin_buffer_packet_header) and
 * read back through capture/cap-darwin.c, so the sink writes the same
 * bytes.  A full-speed composite device at location 0x14200000 (bus 20,
 * address 5): its enumeration, a STALLed request, a HID keyboard typing,
 * bulk data, isochronous IN frames, and an aborted interrupt transfer.
 */

#define MAC_ID0		0x0000000100a3c000ULL

static void
mac_emit(struct gen *g, uint64_t id, int complete, uint8_t ep, uint8_t type,
    uint32_t io_len, uint32_t status, const uint8_t *data, uint32_t n,
    uint32_t frames)
{
	static uint8_t	 pkt[DARWIN_HDR + 4096];
	struct urb_iso	 iso[URB_ISO_MAX];
	struct urb_rec	 r;
	const char	*why;

	if (DARWIN_HDR + n > sizeof pkt)
		errx(1, "darwin: packet too long");
	memset(pkt, 0, DARWIN_HDR);
	put_le16(pkt, 0x0100);
	pkt[2] = DARWIN_HDR;
	pkt[3] = (uint8_t)complete;
	put_le32(pkt + 4, io_len);
	put_le32(pkt + 8, status);
	put_le32(pkt + 12, frames);
	put_le64(pkt + 16, id);
	put_le32(pkt + 24, 0x14200000);
	pkt[28] = 1;			/* full speed */
	pkt[29] = 5;
	pkt[30] = ep;
	pkt[31] = type;
	if (n > 0)
		memcpy(pkt + DARWIN_HDR, data, n);
	if (cap_darwin_packet(pkt, DARWIN_HDR + n, DARWIN_HDR + n, iso, &r,
	    &why) < 0)
		errx(1, "darwin: %s", why);
	gen_emit(g, &r);
}

/* A control transfer: the submit carries the setup (and OUT data). */
static void
mac_control(struct gen *g, uint64_t id, const uint8_t setup[8],
    const uint8_t *data, uint32_t n, uint32_t status)
{
	uint8_t		 b[8 + 256];
	int		 in = (setup[0] & 0x80) != 0;

	memcpy(b, setup, 8);
	if (!in && n > 0)
		memcpy(b + 8, data, n);
	mac_emit(g, id, 0, in ? 0x80 : 0x00, 0, get_le16(setup + 6), 0, b,
	    8 + (in ? 0 : n), 0);
	gen_wait(g, 100, 400);
	mac_emit(g, id, 1, in ? 0x80 : 0x00, 0, status == 0 ? n : 0, status,
	    data, in && status == 0 ? n : 0, 0);
	gen_wait(g, 100, 400);
}

/* The enumeration of the darwin scenarios' device, *id on. */
static void
mac_enum(struct gen *g, uint64_t *id)
{
	static const uint8_t ddesc[18] = {
		/* pid.codes' test VID:PID 1209:0001 */
		18, 1, 0x00, 0x02, 0, 0, 0, 64, 0x09, 0x12, 0x01, 0x00,
		0x00, 0x01, 0, 0, 0, 1
	};
	static const uint8_t cdesc[64] = {
		9, 2, 64, 0, 2, 1, 0, 0xa0, 50,
		/* interface 0: HID boot keyboard, interrupt IN 0x81 */
		9, 4, 0, 0, 1, 3, 1, 1, 0,
		9, 0x21, 0x11, 0x01, 0, 1, 0x22, 63, 0,
		7, 5, 0x81, 3, 8, 0, 10,
		/* interface 1: vendor, bulk 0x02 and 0x83, ISO IN 0x84 */
		9, 4, 1, 0, 3, 0xff, 0, 0, 0,
		7, 5, 0x02, 2, 64, 0, 0,
		7, 5, 0x83, 2, 64, 0, 0,
		7, 5, 0x84, 1, 48, 0, 1,
	};
	static const uint8_t get_dev[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
	static const uint8_t get_cfg[8] = { 0x80, 6, 0, 2, 0, 0, 64, 0 };
	static const uint8_t get_qual[8] = { 0x80, 6, 0, 6, 0, 0, 10, 0 };
	static const uint8_t set_cfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };

	mac_control(g, *id += 0x100, get_dev, ddesc, 18, 0);
	mac_control(g, *id += 0x100, get_qual, NULL, 0, 0xe000404f);
	mac_control(g, *id += 0x100, get_cfg, cdesc, sizeof cdesc, 0);
	mac_control(g, *id += 0x100, set_cfg, NULL, 0, 0);
}

/*
 * macOS's bulk OUT as the XHC interfaces capture it: the submit without
 * data, the completion carrying what was sent.  "testusb" one byte at a
 * time, then "ok" three times.
 */
static void
scn_darwin_out(struct gen *g)
{
	static const char text[] = "testusb";
	uint64_t	 id = MAC_ID0;
	uint32_t	 i;

	mac_enum(g, &id);
	for (i = 0; i < sizeof text - 1 + 3; i++) {
		mac_emit(g, id += 0x100, 0, 0x02, 2, i < 7 ? 1 : 2, 0, NULL,
		    0, 0);
		gen_wait(g, 200, 900);
		mac_emit(g, id, 1, 0x02, 2, i < 7 ? 1 : 2, 0, (const uint8_t *)
		    (i < 7 ? text + i : "ok"), i < 7 ? 1 : 2, 0);
		gen_wait(g, 50, 90);
	}
}

/* AT commands to a modem and its answers on macOS, the OUT data on the
 * completions as macOS captures carry it. */
static void
scn_darwin_modem(struct gen *g)
{
	static const char *const talk[] = {
		"AT+CSQ\r", "\r\n+CSQ: 20,99\r\n\r\nOK\r\n",
		"AT+CMEE=1;+COPS?\r", "\r\n+COPS: 0,0,\"net\",7\r\n",
		"ATI\r", "\r\n+CME ERROR: 3\r\n"
	};
	uint64_t	 id = MAC_ID0;
	uint32_t	 i, n;

	mac_enum(g, &id);
	for (i = 0; i < sizeof talk / sizeof talk[0]; i++) {
		n = (uint32_t)strlen(talk[i]);
		if (i % 2 == 0) {
			mac_emit(g, id += 0x100, 0, 0x02, 2, n, 0, NULL, 0, 0);
			gen_wait(g, 200, 900);
			mac_emit(g, id, 1, 0x02, 2, n, 0,
			    (const uint8_t *)talk[i], n, 0);
		} else {
			mac_emit(g, id += 0x100, 0, 0x82, 2, 512, 0, NULL, 0,
			    0);
			gen_wait(g, 200, 900);
			mac_emit(g, id, 1, 0x82, 2, n, 0,
			    (const uint8_t *)talk[i], n, 0);
		}
		gen_wait(g, 50, 90);
	}
}

static void
scn_darwin(struct gen *g)
{
	static const uint8_t vend_out[8] = { 0x40, 0x02, 0x34, 0x12, 1, 0, 4,
					     0 };
	static const char text[] = "mac";
	uint8_t		 rep[8], b[512], *q;
	uint64_t	 id = MAC_ID0;
	uint32_t	 i, k, n, off;

	mac_enum(g, &id);
	memcpy(b, "\x01\x02\x03\x04", 4);
	mac_control(g, id += 0x100, vend_out, b, 4, 0);
	/* the keyboard */
	for (i = 0; i < sizeof text - 1; i++) {
		for (k = 0; k < 2; k++) {
			memset(rep, 0, sizeof rep);
			if (k == 0)
				rep[2] = (uint8_t)(text[i] - 'a' + 4);
			mac_emit(g, id + 0x10, 0, 0x81, 3, 8, 0, NULL, 0, 0);
			gen_wait(g, 8000, 40000);
			mac_emit(g, id + 0x10, 1, 0x81, 3, 8, 0, rep, 8, 0);
			gen_wait(g, 10, 30);
		}
	}
	/* bulk OUT and IN */
	for (n = 0; n < 64; n++)
		b[n] = (uint8_t)(n * 3);
	mac_emit(g, id += 0x100, 0, 0x02, 2, 64, 0, b, 64, 0);
	gen_wait(g, 200, 900);
	mac_emit(g, id, 1, 0x02, 2, 64, 0, NULL, 0, 0);
	gen_wait(g, 50, 90);
	mac_emit(g, id += 0x100, 0, 0x83, 2, 512, 0, NULL, 0, 0);
	gen_wait(g, 200, 900);
	mac_emit(g, id, 1, 0x83, 2, 40, 0, b, 40, 0);
	gen_wait(g, 50, 90);
	/* isochronous IN: 3 frames, the second one short */
	q = b;
	for (k = 0; k < 3; k++) {
		memset(q, 0, 20);
		put_le32(q, 20);
		put_le32(q + 4, 48);
		put_le64(q + 12, 0x2a51 + k);
		q += 20;
	}
	mac_emit(g, id += 0x100, 0, 0x84, 1, 144, 0, b, (uint32_t)(q - b), 3);
	gen_wait(g, 3000, 3000);
	for (k = 0, off = 0; k < 3; k++) {
		n = k == 1 ? 30 : 48;
		memset(b + off, 0, 28);
		put_le32(b + off, 28);
		put_le32(b + off + 4, n);
		put_le64(b + off + 12, 0x2a51 + k);
		put_le64(b + off + 20, 0x0000001234560000ULL + k * 1000);
		off += 28;
		for (i = 0; i < n; i++)
			b[off + i] = (uint8_t)(k * 16 + i);
		off += n;
		while (off % 4)
			b[off++] = 0;
	}
	mac_emit(g, id, 1, 0x84, 1, 126, 0, b, off, 3);
	gen_wait(g, 50, 90);
	/* the driver stops: the interrupt IN aborted */
	mac_emit(g, id + 0x10, 0, 0x81, 3, 8, 0, NULL, 0, 0);
	gen_wait(g, 2000, 4000);
	mac_emit(g, id + 0x10, 1, 0x81, 3, 0, 0xe00002eb, NULL, 0, 0);
}


/* ------------------------------------------------------------------------
 * Device firmware upgrade (USB DFU 1.1), as dfu-util drives it.
 */

#define DFU_DETACH	0
#define DFU_DNLOAD	1
#define DFU_UPLOAD	2
#define DFU_GETSTATUS	3
#define DFU_CLRSTATUS	4
#define DFU_GETSTATE	5
#define DFU_ABORT	6

/*
 * In run-time mode: a vendor interface 0 and the DFU run-time interface 1
 * (class 0xfe, subclass 1, protocol 1; DFU 1.1 4.1.2) with a DFU 1.0
 * functional descriptor of 7 bytes (no bcdDFUVersion): will detach, can
 * download and upload, 1000 ms detach timeout, 256-byte blocks.
 */
static const uint8_t dfurt_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0xef, 0x02, 0x01, 64,
	0x50, 0x1d, 0x18, 0x60, 0x00, 0x01, 1, 2, 3, 1
};
static const uint8_t dfurt_cfg[] = {
	9, USB_DT_CONFIG, 41, 0, 2, 1, 0, 0x80, 50,
	9, USB_DT_INTERFACE, 0, 0, 1, 0xff, 0x00, 0x00, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x03, 8, 0, 8,
	9, USB_DT_INTERFACE, 1, 0, 0, 0xfe, 0x01, 0x01, 0,
	7, 0x21, 0x0b, 0xe8, 0x03, 0x00, 0x01
};
static const struct gdesc dfurt = {
	dfurt_dev, dfurt_cfg, sizeof dfurt_cfg,
	{ NULL, "urbscope", "Synthetic DFU Device", "DFU0009" }
};

/*
 * After DFU_DETACH, in DFU mode (DFU 1.1 4.2): interface 0, protocol 2,
 * alternate settings 0 (flash) and 1 (option bytes), each followed by a
 * DFU 1.1 functional descriptor of 9 bytes: will detach, manifestation
 * tolerant, can upload and download, 255 ms, 64-byte blocks, version 1.1a
 * (as an STM32 boot loader says).  The IDs are the Black Magic Debug
 * Probe's, application 1d50:6018 and DFU mode 1d50:6017: Wireshark's
 * packet-usb-dfu.c takes the class requests of the DFU mode one by its
 * "usb.product" entry.
 */
static const uint8_t dfu_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0x00, 0x00, 0x00, 64,
	0x50, 0x1d, 0x17, 0x60, 0x00, 0x02, 1, 2, 3, 1
};
static const uint8_t dfu_cfg[] = {
	9, USB_DT_CONFIG, 45, 0, 1, 1, 0, 0x80, 50,
	9, USB_DT_INTERFACE, 0, 0, 0, 0xfe, 0x01, 0x02, 0,
	9, 0x21, 0x0f, 0xff, 0x00, 0x40, 0x00, 0x1a, 0x01,
	9, USB_DT_INTERFACE, 0, 1, 0, 0xfe, 0x01, 0x02, 0,
	9, 0x21, 0x0f, 0xff, 0x00, 0x40, 0x00, 0x1a, 0x01
};
static const struct gdesc dfumode = {
	dfu_dev, dfu_cfg, sizeof dfu_cfg,
	{ NULL, "urbscope", "Synthetic DFU Boot Loader", "DFU0009" }
};

/* DFU_GETSTATUS (DFU 1.1 6.1.2): bStatus, bwPollTimeout, bState, iString */
static void
dfu_status(struct gen *g, const struct gdev *d, uint16_t intf,
    uint8_t status, uint32_t poll, uint8_t state)
{
	uint8_t		b[6];

	b[0] = status;
	b[1] = (uint8_t)poll;
	b[2] = (uint8_t)(poll >> 8);
	b[3] = (uint8_t)(poll >> 16);
	b[4] = state;
	b[5] = 0;
	ctrl(g, d, &(struct greq){ RT_CLS_INTF_IN, DFU_GETSTATUS, 0, intf, 6 },
	    b, 6);
}

static void
dfu_req(struct gen *g, const struct gdev *d, uint8_t bm, uint8_t req,
    uint16_t val, uint16_t len, const uint8_t *data, uint32_t dlen)
{
	ctrl(g, d, &(struct greq){ bm, req, val, 0, len }, data, dlen);
}

/*
 * dfu-util -D then -U: the run-time device is asked its status and
 * detached, comes back in DFU mode, takes two blocks and the empty one
 * that ends the download, manifests, reports an error that is cleared,
 * is read back in two blocks (the short one ends the upload), aborts and
 * is detached again.
 */
static void
scn_dfu(struct gen *g)
{
	static const uint8_t state_idle = 2;
	struct ghub	 h;
	struct gdev	 d;
	uint8_t		 blk[64];
	size_t		 i;

	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &dfurt, &d);
	gen_wait(g, 200000, 300000);
	ctrl(g, &d, &(struct greq){ RT_CLS_INTF_IN, DFU_GETSTATUS, 0, 1, 6 },
	    (const uint8_t[6]){ 0, 0, 0, 0, 0, 0 }, 6);
	ctrl(g, &d, &(struct greq){ RT_CLS_INTF_OUT, DFU_DETACH, 1000, 1, 0 },
	    NULL, 0);
	gen_wait(g, 20000, 40000);
	hub_disconnect(g, &h, 1);		/* bmAttributes: will detach */
	gen_wait(g, 300000, 400000);
	hub_connect(g, &h, 1, &dfumode, &d);
	gen_wait(g, 100000, 200000);

	ctrl(g, &d, &(struct greq){ RT_INTF_OUT, USB_REQ_SET_INTERFACE, 0, 0,
	    0 }, NULL, 0);
	dfu_status(g, &d, 0, 0x00, 0, 2);
	dfu_req(g, &d, RT_CLS_INTF_IN, DFU_GETSTATE, 0, 1, &state_idle, 1);
	for (i = 0; i < sizeof blk; i++)
		blk[i] = (uint8_t)(i * 7 + 3);
	dfu_req(g, &d, RT_CLS_INTF_OUT, DFU_DNLOAD, 0, 64, blk, 64);
	dfu_status(g, &d, 0, 0x00, 25, 4);	/* dfuDNBUSY */
	gen_wait(g, 25000, 27000);
	dfu_status(g, &d, 0, 0x00, 0, 5);	/* dfuDNLOAD-IDLE */
	blk[0] ^= 0xff;
	dfu_req(g, &d, RT_CLS_INTF_OUT, DFU_DNLOAD, 1, 64, blk, 64);
	dfu_status(g, &d, 0, 0x00, 0, 5);
	dfu_req(g, &d, RT_CLS_INTF_OUT, DFU_DNLOAD, 2, 0, NULL, 0);
	dfu_status(g, &d, 0, 0x00, 120, 7);	/* dfuMANIFEST */
	gen_wait(g, 120000, 130000);
	dfu_status(g, &d, 0, 0x07, 0, 10);	/* errVERIFY, dfuERROR */
	dfu_req(g, &d, RT_CLS_INTF_OUT, DFU_CLRSTATUS, 0, 0, NULL, 0);
	dfu_req(g, &d, RT_CLS_INTF_IN, DFU_GETSTATE, 0, 1, &state_idle, 1);
	dfu_req(g, &d, RT_CLS_INTF_IN, DFU_UPLOAD, 0, 64, blk, 64);
	dfu_req(g, &d, RT_CLS_INTF_IN, DFU_UPLOAD, 1, 64, blk + 8, 20);
	dfu_req(g, &d, RT_CLS_INTF_OUT, DFU_ABORT, 0, 0, NULL, 0);
	dfu_status(g, &d, 0, 0x00, 0, 2);
	/* dfu-util -R: a device that will detach leaves DFU mode so */
	dfu_req(g, &d, RT_CLS_INTF_OUT, DFU_DETACH, 1000, 0, NULL, 0);
	gen_wait(g, 20000, 40000);
	hub_disconnect(g, &h, 1);
}


/* ------------------------------------------------------------------------
 * A CDC ACM modem (cdc-acm) answering AT commands (ITU-T V.250).
 */

/* Communication interface 0 (class 2, ACM, protocol 1: AT commands V.250)
 * with header, call management, ACM and union functional descriptors
 * (CDC 1.2 5.2.3, PSTN 1.2 5.3), interrupt IN 0x83; data interface 1
 * (class 0x0a) with bulk IN 0x81 and OUT 0x02. */
static const uint8_t modem_dev[18] = {
	18, USB_DT_DEVICE, 0x00, 0x02, 0x02, 0x00, 0x00, 64,
	0x09, 0x12, 0x0b, 0x00, 0x00, 0x01, 1, 2, 3, 1
};
static const uint8_t modem_cfg[] = {
	9, USB_DT_CONFIG, 67, 0, 2, 1, 0, 0x80, 50,
	9, USB_DT_INTERFACE, 0, 0, 1, 0x02, 0x02, 0x01, 0,
	5, USB_DT_CS_INTERFACE, 0x00, 0x10, 0x01,
	5, USB_DT_CS_INTERFACE, 0x01, 0x00, 1,
	4, USB_DT_CS_INTERFACE, 0x02, 0x02,
	5, USB_DT_CS_INTERFACE, 0x06, 0, 1,
	7, USB_DT_ENDPOINT, 0x83, 0x03, 16, 0, 9,
	9, USB_DT_INTERFACE, 1, 0, 2, 0x0a, 0x00, 0x00, 0,
	7, USB_DT_ENDPOINT, 0x81, 0x02, 0x00, 0x02, 0,
	7, USB_DT_ENDPOINT, 0x02, 0x02, 0x00, 0x02, 0
};
static const struct gdesc modem = {
	modem_dev, modem_cfg, sizeof modem_cfg,
	{ NULL, "urbscope", "Synthetic AT Modem", "MDM0010" }
};

/* One write of the tty to the modem's bulk OUT, n bytes of s. */
static void
modem_out(struct gen *g, const struct gdev *d, const char *s, size_t n)
{
	struct gurb	 u;

	gen_urb(g, d, &u, 0x02, XFER_BULK, (uint32_t)n, 0);
	urb_submit(g, &u, (const uint8_t *)s);
	gen_xfer_time(g, d, (uint32_t)n);
	urb_give(g, &u, 0, (uint32_t)n, NULL);
	gen_wait(g, 300, 900);
}

/* The read URB completes with n bytes of s and is resubmitted. */
static void
modem_in(struct gen *g, struct gurb *rd, const char *s, size_t n)
{
	urb_give(g, rd, 0, (uint32_t)n, (const uint8_t *)s);
	gen_wait(g, 20, 60);
	urb_submit(g, rd, NULL);
	gen_wait(g, 2000, 6000);
}

#define MODEM_STR(s)	(s), sizeof (s) - 1

/*
 * Commands of 3GPP TS 27.007 and their answers, of each type (set '=',
 * read '?', test "=?", action), several on a line, with quoted and
 * bracketed parameters, the ones Wireshark's AT dissector decodes and
 * some it does not know; then the corners of its parser: more or fewer
 * parameters than a command has, a response where a command is due,
 * blanks, no CR, unbalanced brackets, out-of-range indicators, an SMS
 * PDU on the line after +CMGL and +CMGR; NULL: no answer.
 */
static const struct {
	const char	*out;
	const char	*in;
} modem_talk[] = {
	{ "AT+CMEE=1\r", "\r\nOK\r\n" },
	{ "AT+CMEE?\r", "\r\n+CMEE: 1\r\n\r\nOK\r\n" },
	{ "AT+CMEE=?\r", "\r\n+CMEE: (0-2)\r\n\r\nOK\r\n" },
	{ "AT+CSQ=?\r", "\r\n+CSQ: (0-31,99),(0-7,99)\r\n\r\nOK\r\n" },
	{ "AT+csq\r", "\r\n+CSQ: 31,0\r\n\r\nOK\r\n" },
	{ "AT+CFUN=1,0\r", "\r\nOK\r\n" },
	{ "AT+CFUN?\r", "\r\n+CFUN: 1\r\n\r\nOK\r\n" },
	{ "AT+CPIN=\"1234\"\r",
	  "\r\n+CME ERROR: SIM PIN not needed\r\n" },
	{ "AT+CPIN=\"12345678\",\"4321\"\r", "\r\n+CME ERROR: 3\r\n" },
	{ "AT+CSCS=\"UTF-8\"\r", "\r\nOK\r\n" },
	{ "AT+CSCS?\r", "\r\n+CSCS: \"UTF-8\"\r\n\r\nOK\r\n" },
	{ "AT+COPS=0,2\r", "\r\nOK\r\n" },
	{ "AT+COPS?\r",
	  "\r\n+COPS: 0,0,\"urbscope net, 5G\",7\r\n\r\nOK\r\n" },
	{ "AT+CGMI;+CGMM;+CGMR\r",
	  "\r\n+CGMI: urbscope\r\n\r\n+CGMM: Synthetic AT Modem\r\n"
	  "\r\n+CGMR: 1.0,2026\r\n\r\nOK\r\n" },
	{ "AT+GMI\r", "\r\n+GMI: urbscope\r\n\r\nOK\r\n" },
	{ "AT+CPMS=\"SM\",\"SM\",\"ME\"\r",
	  "\r\n+CPMS: 3,30,3,30,0,100\r\n\r\nOK\r\n" },
	{ "AT+CMER=3,0,0,1\r", "\r\nOK\r\n" },
	{ "AT+CIND?\r", "\r\n+CIND: 1,5,0\r\n\r\nOK\r\n" },
	{ "AT+CLIP=1\r", "\r\nOK\r\n" },
	{ "AT+CCWA=1,1,1\r", "\r\nOK\r\n" },
	{ "AT+CNUM\r",
	  "\r\n+CNUM: \"Me\",\"+15550000\",145,,4\r\n\r\nOK\r\n" },
	{ "AT+CLCC\r",
	  "\r\n+CLCC: 1,1,4,0,0,\"+15551234\",145,\"Alice\"\r\n\r\nOK\r\n" },
	{ "ATA\r", "\r\nOK\r\n" },
	{ "AT+VTS=5;+VTS=\"12\",300\r", "\r\nOK\r\n" },
	{ "AT+CHUP\r", "\r\nOK\r\n" },
	{ "\r\nATE1 Q0\r", "\r\nOK\r\n" },	/* text before "AT" */
	{ "AT+CREG=2\r", "\r\nOK\r\n" },	/* not in the table */
	{ "AT+CREG?\r",
	  "\r\n+CREG: 2,1,\"00C3\",\"0A2B\"\r\n\r\nOK\r\n" },
	{ "AT+ZPAS?\r",
	  "\r\n+ZPAS: \"LTE\",\"PS_ONLY\"\r\n\r\nOK\r\n" },
	{ "AT+CSQ=1\r", "\r\nERROR\r\n" },	/* no such parameter */
	{ "AT+CMER=3,0,0,1,0,9\r", NULL },
	{ "AT+CGDCONT=1,\"IP\",\"internet\",\"10.0.0.1\",0,1,7\r",
	  "\r\n+CGDCONT: 1,\"IP\",\"internet\",\"\",0,0\r\n\r\nOK\r\n" },
	{ "AT+CGDCONT=2,\"IP\",\"a\",\"\",0,0,1,2\r",
	  "\r\n+CGDCONT: 1,\"IP\",\"a\",\"\",0,0,0,1\r\n\r\nOK\r\n" },
	{ "AT+CGDCONT: 1,2\r", "\r\n+CGDCONT=3\r\n" },
	{ "AT+CGDCONT?\r",
	  "\r\n+CGDCONT: 1,\"IPV6\",\"web\"\r\n\r\nOK\r\n" },
	{ "AT+CSUPI=1\r", "\r\n+CSUPI: 1\r\n\r\nOK\r\n" },
	{ "AT+CHLD=2\r", "\r\n+CHLD: (0,1,1x,2,2x,3,4)\r\n\r\nOK\r\n" },
	{ "AT+CHLD=1x\r", "\r\n+CIMI: 001010123456789\r\n\r\nOK\r\n" },
	{ "AT+CMUX=0,0,5,31\r", "\r\n+CMUX: 0,,5,31\r\n\r\nOK\r\n" },
	{ "AT+CSIM=10,\"A0A4000002\"\r",
	  "\r\n+CSIM: 4,\"9F1A\"\r\n\r\nOK\r\n" },
	{ "AT+CHLD=2x;+CHLD=5x;+CHLD=?\r",
	  "\r\n+CIEV: 25,1\r\n\r\n+CIEV: 0,1\r\n" },
	{ "AT+CHLD=2x\r", "\r\n^CIMI: 001010123456789\r\n\r\nOK\r\n" },
	{ "AT+CMUX=1,0,5,31,10,3,30,10,2,7\r",
	  "\r\n+CMUX: (0,1),(0),(1-5),(10-100),(1-255),(0-100),(2-255),(1"
	  "-255),(1-7)\r\n\r\nOK\r\n" },
	{ "AT+CMUX=?;+CLIP?;+CLIP=?\r",
	  "\r\n+CLIP: 1,2\r\n\r\nOK\r\n" },
	{ "AT+CMGL=\"ALL\"\r",
	  "\r\n+CMGL: 1,\"REC READ\",\"Alice\",24\r\n07911326040000F0040B"
	  "911346610089F60000208062917314080CC8F71D14969741F977FD07\r\n+C"
	  "MGL: 2,\"STO UNSENT\",,3\r\nABC\r\n\r\nOK\r\n" },
	{ "AT+CXYZ=\"a;b\",(1,2),3;+CSQ\r",
	  "\r\n+CXYZ: 1),2,\"x,y\"\r\n\r\nOK\r\n" },
	{ "\r\nat+cmee=2\r",
	  "\r\n+CPIN: SIM PIN\r\n\r\n+CME ERROR: 3 \r\n" },
	{ "AT+CSQ", "\r\n+CSQ: 5,5" },
	{ "AT+CSQ\r\n",
	  "\r\n+CSQ:\t7 ,  3\r\nANSWERED\r\n+CME ERROR:\r\n" },
	{ "AT+CGSN;+GSN;+CLAC;E1\r",
	  "\r\n+CGSN: 12345\r\n\r\n+GMM: x,y,z\r\n\r\n+GMR: 1\r\n" },
	{ "AT+CIND=?\r",
	  "\r\n+CIND: (\"call\",(0,1)),(\"signal\",(0-5))\r\n\r\nRING\r\n" },
	{ "AT+ZUSIM=?\r",
	  "\r\n+ZUSIM: 1\r\n\r\n+ZPAS: \"GSM\",\"CS_PS\",9\r\n" },
	{ "AT+CCWA=1,1,1,9\r",
	  "\r\n+CLCC: 1,0,0,0,0,\"+1\",129,\"A\",1,9\r\n\r\n+CNUM: ,\"+1"
	  "\",129,4,0,1,9\r\n" },
	{ "AT+CFUN=5,2,1\r",
	  "\r\n+CCWA: \"+1\",145,1,\"B\",0,\"sub\",128,1,9\r\n" },
	{ "AT+CPMS=\"SM\",\"SM\",\"SM\",\"X\"\r",
	  "\r\n+CPMS: 1,2,3,4,5,6,7\r\n\r\n+COPS: 1,2,\"op\",3,4\r\n" },
	{ "AT+VTS=1,2,3\r",
	  "\r\n+CSCS: \"GSM\",1\r\n\r\n+CPIN: READY,1\r\n" },
	{ "AT+CMER=1;+CSQ=1,2\r",
	  "\r\n+CSIM: 4,\"9000\",1\r\n\r\n+CMUX: 0,1,5\r\n" },
	{ "AT+CMGR=1,1,2\r", "\r\n+CMGR: 1,\"+1\",5,1,2\r\n\r\n" },
	{ "AT+CSQ=99999999999\r", "\r\n+CSQ: 99999999999,-1\r\n" },
	{ "AT+CMGR=1\r",
	  "\r\n+CMGR: 0,,24\r\n07911326040000F0040B911346610089F600002080"
	  "62917314080CC8F71D14969741F977FD07\r\n\r\nOK\r\n" },
};

/*
 * cdc-acm probes the modem and opens the tty (SET_LINE_CODING, DTR and
 * RTS); a program sends commands and reads the answers, some of which
 * Wireshark's AT heuristic takes and some not: lower-case "at", a
 * command padded with NULs, binary PPP after CONNECT.
 */
static void
scn_modem(struct gen *g)
{
	static const uint8_t coding[7] = { 0x00, 0xc2, 0x01, 0x00, 0, 0, 8 };
	static const char ppp[] = { 0x7e, (char)0xff, 0x03, (char)0xc0, 0x21,
	    0x01, 0x01, 0x00, 0x04, 0x7e };
	struct ghub	 h;
	struct gdev	 d;
	struct gurb	 rd;
	size_t		 i;

	hub_start_quiet(g, &h, 1, 1);
	hub_connect(g, &h, 1, &modem, &d);
	gen_wait(g, 100000, 200000);
	ctrl(g, &d, &(struct greq){ RT_CLS_INTF_OUT, 0x20, 0, 0, 7 }, coding,
	    7);
	ctrl(g, &d, &(struct greq){ RT_CLS_INTF_OUT, 0x22, 0x03, 0, 0 }, NULL,
	    0);
	gen_urb(g, &d, &rd, 0x81, XFER_BULK, 512, 0);
	urb_submit(g, &rd, NULL);
	gen_wait(g, 1000, 3000);

	modem_out(g, &d, MODEM_STR("AT\r"));
	modem_in(g, &rd, MODEM_STR("\r\nOK\r\n"));
	modem_out(g, &d, MODEM_STR("ATE0\r"));
	modem_in(g, &rd, MODEM_STR("\r\nOK\r\n"));
	modem_out(g, &d, MODEM_STR("ATI\r"));
	modem_in(g, &rd, MODEM_STR("\r\nSynthetic AT Modem\r\n\r\nOK\r\n"));
	modem_out(g, &d, MODEM_STR("AT+CSQ\r"));
	modem_in(g, &rd, MODEM_STR("\r\n+CSQ: 20,99\r\n\r\nOK\r\n"));
	modem_out(g, &d, MODEM_STR("at+cgmi\r"));	/* not "AT" */
	modem_in(g, &rd, MODEM_STR("\r\nurbscope\r\n\r\nOK\r\n"));
	modem_out(g, &d, "AT+CPIN?\r\0\0\0", 12);	/* NUL padded */
	modem_in(g, &rd, MODEM_STR("\r\r\n+CPIN: READY\r\n\r\nOK\r\n"));
	modem_out(g, &d, MODEM_STR("AT+COPS=?\r"));
	modem_in(g, &rd, MODEM_STR("\r\n+CME ERROR: 30\r\n"));
	for (i = 0; i < sizeof modem_talk / sizeof modem_talk[0]; i++) {
		modem_out(g, &d, modem_talk[i].out, strlen(modem_talk[i].out));
		if (modem_talk[i].in != NULL)
			modem_in(g, &rd, modem_talk[i].in,
			    strlen(modem_talk[i].in));
	}
	/* the same over the control pipe (CDC 1.2 6.2.1, 6.2.2): Wireshark
	 * looks for AT in the answer to a class or vendor request, not in
	 * a request's data (it reads the setup bytes first) */
	ctrl(g, &d, &(struct greq){ RT_CLS_INTF_OUT, 0x00, 0, 0, 8 },
	    (const uint8_t *)"AT+CSQ\r\n", 8);
	ctrl(g, &d, &(struct greq){ RT_CLS_INTF_IN, 0x01, 0, 0, 64 },
	    (const uint8_t *)"\r\n+CSQ: 20,99\r\n\r\nOK\r\n", 21);
	ctrl(g, &d, &(struct greq){ 0xc1, 0x01, 0, 0, 64 },
	    (const uint8_t *)"AT+CGMI\r\0\0", 10);
	ctrl(g, &d, &(struct greq){ RT_CLS_INTF_IN, 0x01, 0, 0, 64 },
	    (const uint8_t *)"\r\n\x01", 3);
	/* unsolicited: an incoming call, a waiting one, an indicator */
	modem_in(g, &rd, MODEM_STR("\r\nRING\r\n\r\n+CLIP: \"+15551234\","
	    "145,,,\"Alice\",0\r\n"));
	modem_in(g, &rd, MODEM_STR("\r\n+CCWA: \"+15555678\",145,1,\"Bob\""
	    "\r\n\r\n+CIEV: 2,1\r\n"));
	modem_out(g, &d, MODEM_STR("ATD*99#\r"));
	modem_in(g, &rd, MODEM_STR("\r\nCONNECT 115200\r\n"));
	modem_out(g, &d, ppp, sizeof ppp);
	modem_in(g, &rd, ppp, sizeof ppp);
}

static const struct scenario {
	const char	*name;
	void		(*run)(struct gen *);
	uint64_t	 limit;		/* default -n; 0 = all of it */
	const char	*if_name;	/* pcapng interface name */
	const char	*desc;
	uint32_t	 linktype;	/* 0: usbmon, 249: USBPcap */
} scenarios[] = {
	{ "hid-keyboard", scn_hid_keyboard, 0, "usbmon1",
	  "root hub, enumeration of a HID boot keyboard, typing \"hello\"", 0 },
	{ "xhci", scn_xhci, 0, "usbmon2",
	  "xHCI bus: root hub set up before, a keyboard, no SET_ADDRESS", 0 },
	{ "hid-ctf", scn_hid_ctf, 0, "usbmon1",
	  "a keyboard's interrupt IN only (no enumeration): text, arrows, "
	  "Delete, Backspace", 0 },
	{ "hid-mouse", scn_hid_mouse, 0, "usbmon1",
	  "a mouse's interrupt IN only (no enumeration): 4-byte reports", 0 },
	{ "hid-composite", scn_hid_composite, 0, "usbmon1",
	  "keyboard, consumer control and mouse interfaces: three report "
	  "descriptors", 0 },
	{ "mass-storage", scn_mass_storage, 0, "usbmon1",
	  "enumeration of a BOT disk, SCSI scan, READ(10)/WRITE(10)", 0 },
	{ "stall", scn_stall, 0, "usbmon2",
	  "full-speed flash drive: STALLs, CLEAR_FEATURE, -ENODEV, unplug", 0 },
	{ "iso", scn_iso, 0, "usbmon1",
	  "USB audio device: SET_INTERFACE, ISO IN and OUT URBs", 0 },
	{ "uvc", scn_uvc, 0, "usbmon1",
	  "UVC 1.1 webcam: descriptors, controls, probe/commit, ISO frames",
	  0 },
	{ "uac2", scn_uac2, 0, "usbmon1",
	  "UAC 2 headset with MIDI: clock, ranges, volume, ISO OUT, MIDI",
	  0 },
	{ "mixed", scn_mixed, 1000000, "usbmon1",
	  "keyboard and disk interleaved, for benchmarks (default 1M)", 0 },
	{ "usbpcap", scn_usbpcap, 0, "\\\\.\\USBPcap1",
	  "Windows USBPcap: keyboard, vendor bulk/ISO, stages, IRPs", 249 },
	{ "usbll", scn_usbll, 0, "usb",
	  "bus-level packets of a full-speed CDC-ACM device (a sniffer)",
	  294 },
	{ "sniffer", scn_sniffer, 0, "usb",
	  "a sniffer's packets and bus events: speeds, resets, unplug",
	  288 },
	{ "dfu", scn_dfu, 0, "usbmon1",
	  "DFU: run-time device detached, download, upload, error, abort",
	  0 },
	{ "modem", scn_modem, 0, "usbmon1",
	  "CDC ACM modem: AT commands and answers, then PPP", 0 },
	{ "darwin", scn_darwin, 0, "XHC20",
	  "macOS XHC20: enumeration, a STALL, keyboard, bulk, ISO frames",
	  266 },
	{ "darwin-out", scn_darwin_out, 0, "XHC20",
	  "macOS XHC20: bulk OUT data on the completions (\"testusb\")",
	  266 },
	{ "darwin-modem", scn_darwin_modem, 0, "XHC20",
	  "macOS XHC20: AT commands (on the OUT completions) and answers",
	  266 },
	{ NULL, NULL, 0, NULL, NULL, 0 }
};

static void __attribute__((noreturn))
usage(void)
{
	const struct scenario	*s;

	fprintf(stderr, "usage: capgen SCENARIO [-n RECORDS] "
	    "[-F pcap|pcapng|usbmon] [-L 220|249|288|293-295] [--big-endian] "
	    "-w OUT\n"
	    "scenarios:\n");
	for (s = scenarios; s->name != NULL; s++)
		fprintf(stderr, "  %-13s %s\n", s->name, s->desc);
	exit(2);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "big-endian", no_argument, NULL, 'B' },
		{ "linktype", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct scenario	*s;
	struct cap_sink_opts	 opts;
	struct gen		 g;
	const char		*out = NULL, *fmt = NULL;
	char			 errbuf[512], *end;
	unsigned long long	 n;
	unsigned long		 linktype = 0;
	int			 ch, big = 0, have_n = 0;

	memset(&g, 0, sizeof g);
	while ((ch = getopt_long(argc, argv, "n:F:L:w:h", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'n':
			n = strtoull(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || n == 0)
				errx(2, "-n: not a positive count: %s", optarg);
			g.limit = n;
			have_n = 1;
			break;
		case 'F':
			fmt = optarg;
			break;
		case 'w':
			out = optarg;
			break;
		case 'B':
			big = 1;
			break;
		case 'L':
			linktype = strtoul(optarg, &end, 10);
			if (*end != '\0' || (linktype != 220 && linktype != 249 &&
			    !cap_usbll_linktype(linktype)))
				errx(2, "-L: link type 220, 249, 288 or 293-295: "
				    "%s", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || out == NULL)
		usage();
	for (s = scenarios; s->name != NULL; s++) {
		if (strcmp(s->name, argv[0]) == 0)
			break;
	}
	if (s->name == NULL) {
		warnx("unknown scenario: %s", argv[0]);
		usage();
	}
	if (!have_n)
		g.limit = s->limit;

	memset(&opts, 0, sizeof opts);
	opts.swap = big ? host_is_le() : 0;
	opts.tsresol = 6;		/* usbmon has microseconds only */
	opts.if_name = s->if_name;
	opts.linktype = linktype ? linktype : s->linktype;
	if (cap_usbll_linktype(s->linktype)) {
		/* a full-speed device: its packet sizes are not those of
		 * low or high speed (the sniffer's devices: both) */
		if (linktype != 0 && linktype != 288 && (linktype != 294 ||
		    s->run == scn_sniffer))
			errx(2, "-L: %s is a full-speed bus: 288 or 294",
			    s->name);
		opts.tsresol = 9;	/* bus-level packets: ns apart */
	} else if (cap_usbll_linktype(linktype))
		errx(2, "-L %lu: only the usbll scenario is bus-level",
		    linktype);
	if (cap_sink_open(out, fmt, &opts, &g.sink, errbuf,
	    sizeof errbuf) < 0)
		errx(1, "%s", errbuf);
	if ((g.buf = calloc(1, GEN_BUFSZ)) == NULL)
		err(1, "calloc");
	g.rng = GEN_SEED;
	g.now = GEN_EPOCH;

	s->run(&g);

	if (cap_sink_close(g.sink, errbuf, sizeof errbuf) < 0)
		errx(1, "%s", errbuf);
	free(g.buf);
	return 0;
}
