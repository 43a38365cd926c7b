/*
 * samples/devices/keyboard.c - "keyboard", a high-speed HID boot keyboard
 * (interface 3/1/1, interrupt IN 0x81, 8-byte reports every 8 ms at most)
 * that types the text given as args: each character is a press report and
 * then a release report, KB_STEP_MS apart, starting KB_START_MS after the
 * host configures it (args "@MS:text": MS milliseconds after, so that a
 * real host served over USB/IP has its reader ready).  Class requests: GET_REPORT, GET_IDLE,
 * GET_PROTOCOL, SET_REPORT (the LED output report), SET_IDLE,
 * SET_PROTOCOL (HID 1.11 7.2).  With a non-zero idle rate the current
 * report repeats every idle * 4 ms; with 0 (what Linux sets) it is sent
 * only when it changes.  No report to send: NAK.
 */
#include <string.h>

#include "decode/usbclass.h"
#include "samples/devices/devices.h"

#define KB_START_MS	20	/* after SET_CONFIGURATION */
#define KB_STEP_MS	8	/* between reports */
#define KB_SCRIPT_MAX	256	/* characters typed */

#define MOD_LSHIFT		0x02	/* HID 1.11 8.3 modifier byte */

struct keyboard {
	char		 script[KB_SCRIPT_MAX + 1];
	size_t		 pos;		/* next character */
	int		 pressed;	/* the report now is a key press */
	uint8_t		 report[8];	/* current report (HID 1.11 B.1) */
	int		 pending;	/* report not yet sent */
	uint64_t	 now_ns;	/* the last tick */
	uint64_t	 next_ns;	/* next report change, 0 = idle */
	uint64_t	 start_ms;	/* typing starts after configuration */
	uint64_t	 repeat_ns;	/* next idle repeat, 0 = none */
	uint8_t		 idle;		/* 4 ms units, 0 = only on change */
	uint8_t		 protocol;	/* 0 boot, 1 report */
	uint8_t		 leds;		/* the output report */
};

/* USB 2.0 9.6.1 */
static const uint8_t kb_device[USB_DT_DEVICE_SIZE] = {
	18, USB_DT_DEVICE, 0x00, 0x02,	/* bcdUSB 2.00 */
	0x00, 0x00, 0x00, 64,		/* per interface, ep0 64 */
	0x09, 0x12, 0x01, 0x00,		/* 1209:0001 */
	0x00, 0x01, 1, 2, 3, 1		/* bcdDevice 1.00, strings, 1 cfg */
};

/* USB 2.0 9.6.2 */
static const uint8_t kb_qualifier[10] = {
	10, USB_DT_DEVICE_QUALIFIER, 0x00, 0x02, 0x00, 0x00, 0x00, 64, 1, 0
};

/* USB 2.0 9.6.3, 9.6.5, HID 1.11 6.2.1, USB 2.0 9.6.6 */
static const uint8_t kb_config[] = {
	9, USB_DT_CONFIG, 34, 0, 1, 1, 0, 0x80, 50,
	9, USB_DT_INTERFACE, 0, 0, 1, USB_CLASS_HID, 1, 1, 0,	/* boot kbd */
	9, 0x21, 0x11, 0x01, 0, 1, 0x22, 63, 0,	/* HID 1.11, 1 report desc */
	/* interrupt IN, 8 bytes, bInterval 7: 2^6 uframes = 8 ms */
	7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_INT, 8, 0, 7,
};

/* HID 1.11 appendix E.6: the boot keyboard report descriptor. */
static const uint8_t kb_report_desc[63] = {
	0x05, 0x01,		/* Usage Page (Generic Desktop) */
	0x09, 0x06,		/* Usage (Keyboard) */
	0xa1, 0x01,		/* Collection (Application) */
	0x05, 0x07,		/*   Usage Page (Key Codes) */
	0x19, 0xe0,		/*   Usage Minimum (224) */
	0x29, 0xe7,		/*   Usage Maximum (231) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x25, 0x01,		/*   Logical Maximum (1) */
	0x75, 0x01,		/*   Report Size (1) */
	0x95, 0x08,		/*   Report Count (8) */
	0x81, 0x02,		/*   Input (Data, Variable, Absolute) */
	0x95, 0x01,		/*   Report Count (1) */
	0x75, 0x08,		/*   Report Size (8) */
	0x81, 0x01,		/*   Input (Constant): reserved byte */
	0x95, 0x05,		/*   Report Count (5) */
	0x75, 0x01,		/*   Report Size (1) */
	0x05, 0x08,		/*   Usage Page (LEDs) */
	0x19, 0x01,		/*   Usage Minimum (1) */
	0x29, 0x05,		/*   Usage Maximum (5) */
	0x91, 0x02,		/*   Output (Data, Variable, Absolute) */
	0x95, 0x01,		/*   Report Count (1) */
	0x75, 0x03,		/*   Report Size (3) */
	0x91, 0x01,		/*   Output (Constant): padding */
	0x95, 0x06,		/*   Report Count (6) */
	0x75, 0x08,		/*   Report Size (8) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x25, 0x65,		/*   Logical Maximum (101) */
	0x05, 0x07,		/*   Usage Page (Key Codes) */
	0x19, 0x00,		/*   Usage Minimum (0) */
	0x29, 0x65,		/*   Usage Maximum (101) */
	0x81, 0x00,		/*   Input (Data, Array) */
	0xc0			/* End Collection */
};

static const char *const kb_strings[] = {
	"urbscope", "Boot Keyboard", "KB-0001", NULL
};

static const struct dm_descriptors kb_desc = {
	.device = kb_device,
	.config = kb_config,
	.config_len = sizeof kb_config,
	.qualifier = kb_qualifier,
	.strings = kb_strings,
	.hid_report = kb_report_desc,
	.hid_report_len = sizeof kb_report_desc,
};

/*
 * ASCII to HID usage (HID Usage Tables 10, keyboard page), with the
 * shift modifier for characters typed with it; 0 = not typeable.
 */
static const struct kb_key {
	uint8_t		 usage;
	uint8_t		 shift;
} kb_ascii[128] = {
	['\t'] = { 0x2b, 0 }, ['\n'] = { 0x28, 0 }, [' '] = { 0x2c, 0 },
	['!'] = { 0x1e, 1 }, ['"'] = { 0x34, 1 }, ['#'] = { 0x20, 1 },
	['$'] = { 0x21, 1 }, ['%'] = { 0x22, 1 }, ['&'] = { 0x24, 1 },
	['\''] = { 0x34, 0 }, ['('] = { 0x26, 1 }, [')'] = { 0x27, 1 },
	['*'] = { 0x25, 1 }, ['+'] = { 0x2e, 1 }, [','] = { 0x36, 0 },
	['-'] = { 0x2d, 0 }, ['.'] = { 0x37, 0 }, ['/'] = { 0x38, 0 },
	['0'] = { 0x27, 0 }, ['1'] = { 0x1e, 0 }, ['2'] = { 0x1f, 0 },
	['3'] = { 0x20, 0 }, ['4'] = { 0x21, 0 }, ['5'] = { 0x22, 0 },
	['6'] = { 0x23, 0 }, ['7'] = { 0x24, 0 }, ['8'] = { 0x25, 0 },
	['9'] = { 0x26, 0 }, [':'] = { 0x33, 1 }, [';'] = { 0x33, 0 },
	['<'] = { 0x36, 1 }, ['='] = { 0x2e, 0 }, ['>'] = { 0x37, 1 },
	['?'] = { 0x38, 1 }, ['@'] = { 0x1f, 1 }, ['['] = { 0x2f, 0 },
	['\\'] = { 0x31, 0 }, [']'] = { 0x30, 0 }, ['^'] = { 0x23, 1 },
	['_'] = { 0x2d, 1 }, ['`'] = { 0x35, 0 }, ['{'] = { 0x2f, 1 },
	['|'] = { 0x31, 1 }, ['}'] = { 0x30, 1 }, ['~'] = { 0x35, 1 },
};

static struct kb_key
kb_key_of(char c)
{
	struct kb_key	 k = { 0, 0 };

	if (c >= 'a' && c <= 'z')
		k.usage = (uint8_t)(0x04 + (c - 'a'));
	else if (c >= 'A' && c <= 'Z') {
		k.usage = (uint8_t)(0x04 + (c - 'A'));
		k.shift = 1;
	} else if ((unsigned char)c < 128)
		k = kb_ascii[(unsigned char)c];
	return k;
}

static void
kb_reset(struct usb_devmodel *dm)
{
	struct keyboard	*kb = dm->priv;

	memset(kb->report, 0, sizeof kb->report);
	kb->pending = kb->pressed = 0;
	kb->next_ns = kb->repeat_ns = 0;
	kb->idle = 0;
	kb->protocol = 1;	/* report protocol after reset (HID 7.2.6) */
	kb->leds = 0;
}

static int
kb_init(struct usb_devmodel *dm, const char *args)
{
	struct keyboard	*kb = dm->priv;
	size_t		 i, n = 0;

	kb->start_ms = KB_START_MS;
	if (args != NULL && args[0] == '@') {
		for (kb->start_ms = 0, i = 1; args[i] >= '0' && args[i] <= '9' &&
		    kb->start_ms < 3600000; i++)
			kb->start_ms = kb->start_ms * 10 + (uint64_t)(args[i] -
			    '0');
		args += args[i] == ':' ? i + 1 : i;
	}
	/* Only what can be typed; the rest is skipped. */
	for (i = 0; args != NULL && args[i] != '\0' && n < KB_SCRIPT_MAX;
	    i++) {
		if (kb_key_of(args[i]).usage != 0)
			kb->script[n++] = args[i];
	}
	kb->script[n] = '\0';
	kb_reset(dm);
	return 0;
}

static void
kb_set_config(struct usb_devmodel *dm, int value)
{
	struct keyboard	*kb = dm->priv;

	kb->pending = 0;
	kb->next_ns = 0;
	if (value != 0 && kb->script[kb->pos] != '\0')
		kb->next_ns = kb->now_ns + kb->start_ms * SIM_MS;
}

/* The next report of the script: a press, or the release after one. */
static void
kb_advance(struct keyboard *kb)
{
	struct kb_key	 k;

	memset(kb->report, 0, sizeof kb->report);
	if (kb->pressed) {
		kb->pressed = 0;
		kb->pos++;
	} else {
		k = kb_key_of(kb->script[kb->pos]);
		kb->report[0] = k.shift ? MOD_LSHIFT : 0;
		kb->report[2] = k.usage;
		kb->pressed = 1;
	}
	kb->pending = 1;
}

static void
kb_tick(struct usb_devmodel *dm, uint64_t now_ns)
{
	struct keyboard	*kb = dm->priv;

	kb->now_ns = now_ns;
	if (dm->config == 0)
		return;
	if (kb->next_ns != 0 && now_ns >= kb->next_ns && !kb->pending) {
		kb_advance(kb);
		kb->next_ns = 0;	/* set again when the host took it */
	}
	if (kb->idle != 0 && kb->repeat_ns != 0 && now_ns >= kb->repeat_ns)
		kb->pending = 1;	/* the idle rate repeats the report */
}

static int
kb_data_in(struct usb_devmodel *dm, int ep, uint8_t *buf, size_t max)
{
	struct keyboard	*kb = dm->priv;
	size_t		 n = sizeof kb->report;

	if (ep != 0x81)
		return DM_STALL;
	if (!kb->pending)
		return DM_NAK;
	if (n > max)
		n = max;
	memcpy(buf, kb->report, n);
	kb->pending = 0;
	if (kb->pressed || kb->script[kb->pos] != '\0')
		kb->next_ns = kb->now_ns + KB_STEP_MS * SIM_MS;
	if (kb->idle != 0)
		kb->repeat_ns = kb->now_ns + kb->idle * 4 * SIM_MS;
	return (int)n;
}

static int
kb_control(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct keyboard	*kb = dm->priv;

	if ((s->bRequestType & (USB_TYPE_MASK | USB_RECIP_MASK)) !=
	    (USB_TYPE_CLASS | USB_RECIP_INTERFACE) || s->wIndex != 0)
		return DM_STALL;
	switch (s->bRequest) {
	case HID_REQ_GET_REPORT:
		if (s->wValue >> 8 == 1) {		/* input */
			memcpy(data, kb->report, sizeof kb->report);
			return (int)sizeof kb->report;
		}
		if (s->wValue >> 8 == 2) {		/* output */
			data[0] = kb->leds;
			return 1;
		}
		return DM_STALL;
	case HID_REQ_GET_IDLE:
		data[0] = kb->idle;
		return 1;
	case HID_REQ_GET_PROTOCOL:
		data[0] = kb->protocol;
		return 1;
	case HID_REQ_SET_REPORT:
		if (s->wValue >> 8 != 2 || s->wLength < 1)
			return DM_STALL;
		kb->leds = data[0] & 0x1f;
		return 0;
	case HID_REQ_SET_IDLE:
		kb->idle = (uint8_t)(s->wValue >> 8);
		kb->repeat_ns = kb->idle != 0 ? kb->now_ns +
		    kb->idle * 4 * SIM_MS : 0;
		return 0;
	case HID_REQ_SET_PROTOCOL:
		if (s->wValue > 1)
			return DM_STALL;
		kb->protocol = (uint8_t)s->wValue;
		return 0;
	}
	return DM_STALL;
}

const struct usb_devmodel_ops dm_keyboard_ops = {
	.name = "keyboard",
	.priv_size = sizeof(struct keyboard),
	.desc = &kb_desc,
	.init = kb_init,
	.reset = kb_reset,
	.set_config = kb_set_config,
	.control = kb_control,
	.data_in = kb_data_in,
	.tick = kb_tick,
};
