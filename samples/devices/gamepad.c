/*
 * samples/devices/gamepad.c - "gamepad", a high-speed HID game pad with a
 * volume knob (interface 3/0/0: no boot protocol), whose report
 * descriptor uses report IDs (HID 1.11 5.6, 6.2.2.7):
 *   ID 1 input: 8 buttons, X and Y (-127..127), a hat switch (0-7 in 45
 *        degree steps, 8 = centred, the null state);
 *   ID 2 output: 4 player LEDs;
 *   ID 3 feature: dead zone and sensitivity (vendor page, 0-255 each);
 *   ID 4 input: Consumer Control volume up, volume down and mute.
 * Usages are the HID Usage Tables 1.12's (4 Generic Desktop, 12 Button,
 * 11 LED, 15 Consumer).  After SET_CONFIGURATION it plays a fixed script
 * of input reports (GP_START_MS, or MS milliseconds with args "@MS", so
 * that a reader can open the host's input device first; then one every
 * GP_STEP_MS the host takes) on interrupt IN 0x81 and then NAKs.  Class requests (HID 1.11
 * 7.2): GET_REPORT, SET_REPORT (output and feature), GET_IDLE, SET_IDLE;
 * GET/SET_PROTOCOL STALL, as a device without boot support must (7.2.5).
 */
#include <string.h>

#include "decode/usbclass.h"
#include "samples/devices/devices.h"

#define GP_START_MS	20	/* after SET_CONFIGURATION */
#define GP_STEP_MS	8	/* between reports */
#define GP_REPORT_MAX	5	/* the longest report, with its ID */

#define GP_ID_PAD		1
#define GP_ID_LEDS		2
#define GP_ID_SETTINGS		3
#define GP_ID_VOLUME		4

struct gamepad {
	size_t		 pos;		/* next report of the script */
	int		 pending;	/* a report waits for an IN */
	uint64_t	 now_ns;
	uint64_t	 next_ns;	/* next report, 0 = none */
	uint64_t	 start_ms;	/* the first, after SET_CONFIGURATION */
	uint8_t		 pad[5];	/* ID 1 as last sent */
	uint8_t		 volume[2];	/* ID 4 as last sent */
	uint8_t		 leds;		/* ID 2 */
	uint8_t		 settings[2];	/* ID 3 */
	uint8_t		 idle[GP_ID_VOLUME + 1];	/* per ID, 4 ms units */
};

/* USB 2.0 9.6.1 */
static const uint8_t gp_device[USB_DT_DEVICE_SIZE] = {
	18, USB_DT_DEVICE, 0x00, 0x02,	/* bcdUSB 2.00 */
	0x00, 0x00, 0x00, 64,		/* per interface, ep0 64 */
	0x09, 0x12, 0x07, 0x00,		/* 1209:0007 */
	0x00, 0x01, 1, 2, 3, 1		/* bcdDevice 1.00, strings, 1 cfg */
};

/* USB 2.0 9.6.2 */
static const uint8_t gp_qualifier[10] = {
	10, USB_DT_DEVICE_QUALIFIER, 0x00, 0x02, 0x00, 0x00, 0x00, 64, 1, 0
};

#define GP_REPORT_DESC_LEN	125

/* USB 2.0 9.6.3, 9.6.5, HID 1.11 6.2.1, USB 2.0 9.6.6 */
static const uint8_t gp_config[] = {
	9, USB_DT_CONFIG, 41, 0, 1, 1, 0, 0x80, 50,
	9, USB_DT_INTERFACE, 0, 0, 2, USB_CLASS_HID, 0, 0, 0,	/* no boot */
	9, 0x21, 0x11, 0x01, 0, 1, 0x22, GP_REPORT_DESC_LEN, 0,
	/* interrupt IN, 8 bytes, bInterval 4: 2^3 uframes = 1 ms */
	7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_INT, 8, 0, 4,
	/* interrupt OUT for output reports (HID 1.11 4.4, optional) */
	7, USB_DT_ENDPOINT, 0x02, USB_ENDPOINT_XFER_INT, 8, 0, 4,
};

/* HID 1.11 6.2.2; usages from the HID Usage Tables 1.12. */
static const uint8_t gp_report_desc[GP_REPORT_DESC_LEN] = {
	0x05, 0x01,		/* Usage Page (Generic Desktop) */
	0x09, 0x05,		/* Usage (Game Pad) */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, GP_ID_PAD,	/*   Report ID (1) */
	0x05, 0x09,		/*   Usage Page (Button) */
	0x19, 0x01,		/*   Usage Minimum (1) */
	0x29, 0x08,		/*   Usage Maximum (8) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x25, 0x01,		/*   Logical Maximum (1) */
	0x75, 0x01,		/*   Report Size (1) */
	0x95, 0x08,		/*   Report Count (8) */
	0x81, 0x02,		/*   Input (Data, Variable, Absolute) */
	0x05, 0x01,		/*   Usage Page (Generic Desktop) */
	0x09, 0x30,		/*   Usage (X) */
	0x09, 0x31,		/*   Usage (Y) */
	0x15, 0x81,		/*   Logical Minimum (-127) */
	0x25, 0x7f,		/*   Logical Maximum (127) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x02,		/*   Report Count (2) */
	0x81, 0x02,		/*   Input (Data, Variable, Absolute) */
	0x09, 0x39,		/*   Usage (Hat switch) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x25, 0x07,		/*   Logical Maximum (7) */
	0x35, 0x00,		/*   Physical Minimum (0) */
	0x46, 0x3b, 0x01,	/*   Physical Maximum (315) */
	0x65, 0x14,		/*   Unit (degrees) */
	0x75, 0x04,		/*   Report Size (4) */
	0x95, 0x01,		/*   Report Count (1) */
	0x81, 0x42,		/*   Input (Data, Variable, Null state) */
	0x65, 0x00,		/*   Unit (none) */
	0x81, 0x01,		/*   Input (Constant): 4 bits padding */
	0x85, GP_ID_LEDS,	/*   Report ID (2) */
	0x05, 0x08,		/*   Usage Page (LEDs) */
	0x19, 0x01,		/*   Usage Minimum (1) */
	0x29, 0x04,		/*   Usage Maximum (4) */
	0x25, 0x01,		/*   Logical Maximum (1) */
	0x75, 0x01,		/*   Report Size (1) */
	0x95, 0x04,		/*   Report Count (4) */
	0x91, 0x02,		/*   Output (Data, Variable, Absolute) */
	0x91, 0x01,		/*   Output (Constant): 4 bits padding */
	0x85, GP_ID_SETTINGS,	/*   Report ID (3) */
	0x06, 0x00, 0xff,	/*   Usage Page (Vendor Defined 0xff00) */
	0x09, 0x01,		/*   Usage (1) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x02,		/*   Report Count (2) */
	0xb1, 0x02,		/*   Feature (Data, Variable, Absolute) */
	0xc0,			/* End Collection */
	0x05, 0x0c,		/* Usage Page (Consumer) */
	0x09, 0x01,		/* Usage (Consumer Control) */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, GP_ID_VOLUME,	/*   Report ID (4) */
	0x09, 0xe9,		/*   Usage (Volume Increment) */
	0x09, 0xea,		/*   Usage (Volume Decrement) */
	0x09, 0xe2,		/*   Usage (Mute) */
	0x25, 0x01,		/*   Logical Maximum (1) */
	0x75, 0x01,		/*   Report Size (1) */
	0x95, 0x03,		/*   Report Count (3) */
	0x81, 0x02,		/*   Input (Data, Variable, Absolute) */
	0x95, 0x05,		/*   Report Count (5) */
	0x81, 0x01,		/*   Input (Constant): padding */
	0xc0			/* End Collection */
};

static const char *const gp_strings[] = {
	"urbscope", "Game Pad", "GP-0007", NULL
};

static const struct dm_descriptors gp_desc = {
	.device = gp_device,
	.config = gp_config,
	.config_len = sizeof gp_config,
	.qualifier = gp_qualifier,
	.strings = gp_strings,
	.hid_report = gp_report_desc,
	.hid_report_len = sizeof gp_report_desc,
};

/* The script: each report with its ID first. */
static const struct gp_step {
	uint8_t		 len;
	uint8_t		 r[GP_REPORT_MAX];
} gp_script[] = {
	{ 5, { GP_ID_PAD, 0x00, 0x00, 0x00, 0x08 } },	/* at rest */
	{ 5, { GP_ID_PAD, 0x01, 0x00, 0x00, 0x08 } },	/* button 1 */
	{ 5, { GP_ID_PAD, 0x01, 0x9c, 0x28, 0x02 } },	/* x -100 y 40, E */
	{ 5, { GP_ID_PAD, 0x05, 0x7f, 0x81, 0x08 } },	/* 1 3, corner */
	{ 5, { GP_ID_PAD, 0x80, 0x00, 0x00, 0x06 } },	/* 8, W */
	{ 5, { GP_ID_PAD, 0x00, 0x00, 0x00, 0x08 } },	/* released */
	{ 2, { GP_ID_VOLUME, 0x01 } },			/* volume up */
	{ 2, { GP_ID_VOLUME, 0x00 } },
	{ 2, { GP_ID_VOLUME, 0x02 } },			/* volume down */
	{ 2, { GP_ID_VOLUME, 0x00 } },
	{ 2, { GP_ID_VOLUME, 0x04 } },			/* mute */
	{ 2, { GP_ID_VOLUME, 0x00 } },
};

#define GP_NSTEPS	(sizeof gp_script / sizeof gp_script[0])

static void
gp_reset(struct usb_devmodel *dm)
{
	struct gamepad	*gp = dm->priv;

	gp->pos = 0;
	gp->pending = 0;
	gp->next_ns = 0;
	memcpy(gp->pad, gp_script[0].r, sizeof gp->pad);
	gp->volume[0] = GP_ID_VOLUME;
	gp->volume[1] = 0;
	gp->leds = 0;
	gp->settings[0] = 16;	/* dead zone */
	gp->settings[1] = 128;	/* sensitivity */
	memset(gp->idle, 0, sizeof gp->idle);
}

static int
gp_init(struct usb_devmodel *dm, const char *args)
{
	struct gamepad	*gp = dm->priv;
	const char	*p;

	gp->start_ms = GP_START_MS;
	if (args != NULL && args[0] == '@') {
		for (gp->start_ms = 0, p = args + 1; *p >= '0' && *p <= '9' &&
		    gp->start_ms < 3600000; p++)
			gp->start_ms = gp->start_ms * 10 + (uint64_t)(*p - '0');
		if (*p != '\0' || p == args + 1)
			return -1;
	} else if (args != NULL && args[0] != '\0')
		return -1;
	gp_reset(dm);
	return 0;
}

static void
gp_set_config(struct usb_devmodel *dm, int value)
{
	struct gamepad	*gp = dm->priv;

	gp->pending = 0;
	gp->next_ns = 0;
	if (value != 0 && gp->pos < GP_NSTEPS)
		gp->next_ns = gp->now_ns + gp->start_ms * SIM_MS;
}

static void
gp_tick(struct usb_devmodel *dm, uint64_t now_ns)
{
	struct gamepad	*gp = dm->priv;

	gp->now_ns = now_ns;
	if (dm->config != 0 && gp->next_ns != 0 && now_ns >= gp->next_ns &&
	    !gp->pending) {
		gp->pending = 1;
		gp->next_ns = 0;	/* set again when the host took it */
	}
}

static int
gp_data_in(struct usb_devmodel *dm, int ep, uint8_t *buf, size_t max)
{
	struct gamepad	*gp = dm->priv;
	const struct gp_step *s;
	size_t		 n;

	if (ep != 0x81)
		return DM_STALL;
	if (!gp->pending || gp->pos >= GP_NSTEPS)
		return DM_NAK;
	s = &gp_script[gp->pos++];
	n = s->len < max ? s->len : max;
	memcpy(buf, s->r, n);
	if (s->r[0] == GP_ID_PAD)
		memcpy(gp->pad, s->r, sizeof gp->pad);
	else
		memcpy(gp->volume, s->r, sizeof gp->volume);
	gp->pending = 0;
	if (gp->pos < GP_NSTEPS)
		gp->next_ns = gp->now_ns + GP_STEP_MS * SIM_MS;
	return (int)n;
}

/* Output reports on the interrupt OUT pipe: the LEDs. */
static int
gp_data_out(struct usb_devmodel *dm, int ep, const uint8_t *buf,
    size_t len)
{
	struct gamepad	*gp = dm->priv;

	if (ep != 0x02 || len != 2 || buf[0] != GP_ID_LEDS)
		return DM_STALL;
	gp->leds = buf[1] & 0x0f;
	return DM_ACK;
}

/* GET_REPORT: the report of type and ID, its ID first (HID 1.11 7.2.1). */
static int
gp_get_report(struct gamepad *gp, int type, int id, uint8_t *data,
    size_t max)
{
	uint8_t		 r[GP_REPORT_MAX];
	size_t		 n;

	r[0] = (uint8_t)id;
	if (type == HID_RT_INPUT && id == GP_ID_PAD) {
		memcpy(r, gp->pad, sizeof gp->pad);
		n = sizeof gp->pad;
	} else if (type == HID_RT_INPUT && id == GP_ID_VOLUME) {
		memcpy(r, gp->volume, sizeof gp->volume);
		n = sizeof gp->volume;
	} else if (type == HID_RT_OUTPUT && id == GP_ID_LEDS) {
		r[1] = gp->leds;
		n = 2;
	} else if (type == HID_RT_FEATURE && id == GP_ID_SETTINGS) {
		memcpy(r + 1, gp->settings, sizeof gp->settings);
		n = 3;
	} else
		return DM_STALL;
	if (n > max)
		n = max;
	memcpy(data, r, n);
	return (int)n;
}

static int
gp_control(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct gamepad	*gp = dm->priv;
	int		 type = s->wValue >> 8, id = s->wValue & 0xff;

	if ((s->bRequestType & (USB_TYPE_MASK | USB_RECIP_MASK)) !=
	    (USB_TYPE_CLASS | USB_RECIP_INTERFACE) || s->wIndex != 0)
		return DM_STALL;
	switch (s->bRequest) {
	case HID_REQ_GET_REPORT:
		return gp_get_report(gp, type, id, data, s->wLength);
	case HID_REQ_SET_REPORT:
		if (type == HID_RT_OUTPUT && id == GP_ID_LEDS &&
		    s->wLength == 2 && data[0] == id) {
			gp->leds = data[1] & 0x0f;
			return 0;
		}
		if (type == HID_RT_FEATURE && id == GP_ID_SETTINGS &&
		    s->wLength == 3 && data[0] == id) {
			memcpy(gp->settings, data + 1, sizeof gp->settings);
			return 0;
		}
		return DM_STALL;
	case HID_REQ_GET_IDLE:
		if (id > GP_ID_VOLUME)
			return DM_STALL;
		data[0] = gp->idle[id];
		return 1;
	case HID_REQ_SET_IDLE:
		/* ID 0: all reports (HID 1.11 7.2.4); no repeats modelled */
		if (id > GP_ID_VOLUME)
			return DM_STALL;
		if (id == 0)
			memset(gp->idle, s->wValue >> 8, sizeof gp->idle);
		else
			gp->idle[id] = (uint8_t)(s->wValue >> 8);
		return 0;
	}
	return DM_STALL;
}

const struct usb_devmodel_ops dm_gamepad_ops = {
	.name = "gamepad",
	.priv_size = sizeof(struct gamepad),
	.desc = &gp_desc,
	.init = gp_init,
	.reset = gp_reset,
	.set_config = gp_set_config,
	.control = gp_control,
	.data_in = gp_data_in,
	.data_out = gp_data_out,
	.tick = gp_tick,
};
