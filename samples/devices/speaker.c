/*
 * samples/devices/speaker.c - "speaker", a high-speed USB Audio Class 2.0
 * stereo speaker (UAC 2.0 and its Formats 2.0 document): an interface
 * association (class 1, protocol 0x20) of the audio control interface 0
 * and the streaming interface 1.
 *
 * Audio control (UAC 2.0 4.7): the header, an internal programmable
 * clock source 16 (44.1 and 48 kHz), a USB streaming input terminal 1, a
 * stereo feature unit 2 (master mute, volume per channel from -60 to
 * 0 dB in 1 dB steps) and a speaker output terminal 3.  Streaming (4.9):
 * alternate setting 0 without endpoints, 1 with 16-bit PCM in 2-byte
 * subslots and an adaptive isochronous OUT 0x01 of one packet a
 * millisecond (bInterval 4), with its class-specific endpoint descriptor
 * (4.10.1.2).
 *
 * Class requests (5.2.2): CUR and RANGE of the clock's sampling frequency
 * (4 bytes; the range as wNumSubRanges and MIN/MAX/RES triples), CUR of
 * its validity, CUR of the mute, CUR and RANGE of each channel's volume
 * (2 bytes, 1/256 dB).  Isochronous data is taken and counted.
 */
#include <string.h>

#include "decode/usbclass.h"
#include "samples/devices/devices.h"

#define SPK_CLOCK_ID		16
#define SPK_FU_ID		2
#define SPK_VOL_MIN		(-60 * 256)	/* 1/256 dB */
#define SPK_VOL_RES		256
#define SPK_ANSWER_MAX		(2 + 2 * 12)	/* the rate's two ranges */

struct speaker {
	uint32_t	 rate;
	uint8_t		 mute;
	int16_t		 volume[3];	/* by channel, 1 and 2 */
	uint64_t	 received;	/* isochronous bytes */
};

/* USB 2.0 9.6.1; the IAD class triple of the USB IAD ECN */
static const uint8_t spk_device[USB_DT_DEVICE_SIZE] = {
	18, USB_DT_DEVICE, 0x00, 0x02,	/* bcdUSB 2.00 */
	0xef, 0x02, 0x01, 64,		/* miscellaneous, IAD */
	0x09, 0x12, 0x09, 0x00,		/* 1209:0009 */
	0x00, 0x01, 1, 2, 3, 1		/* bcdDevice 1.00, strings, 1 cfg */
};

/* USB 2.0 9.6.2 */
static const uint8_t spk_qualifier[10] = {
	10, USB_DT_DEVICE_QUALIFIER, 0x00, 0x02, 0xef, 0x02, 0x01, 64, 1, 0
};

/* USB 2.0 9.6.3; UAC 2.0 4.6 (IAD), 4.7.2 (AC), 4.9 (AS), 4.10 (EP) */
static const uint8_t spk_config[] = {
	9, USB_DT_CONFIG, 145, 0, 2, 1, 0, 0x80, 50,
	8, USB_DT_INTERFACE_ASSOCIATION, 0, 2, 0x01, 0x00, 0x20, 0,
	/* interface 0: audio control */
	9, USB_DT_INTERFACE, 0, 0, 0, 0x01, 0x01, 0x20, 0,
	/* header 4.7.2: ADC 2.00, desktop speaker, 64 bytes in all */
	9, 0x24, 0x01, 0x00, 0x02, 0x01, 64, 0, 0x00,
	/* clock source 4.7.2.1: internal programmable; frequency
	 * read/write, validity read */
	8, 0x24, 0x0a, SPK_CLOCK_ID, 0x03, 0x07, 0, 0,
	/* input terminal 4.7.2.4: USB streaming, 2 channels FL FR */
	17, 0x24, 0x02, 1, 0x01, 0x01, 0, SPK_CLOCK_ID, 2,
	0x03, 0x00, 0x00, 0x00, 0, 0x00, 0x00, 0,
	/* feature unit 4.7.2.8: master mute, volume of channels 1 2 */
	18, 0x24, 0x06, SPK_FU_ID, 1,
	0x03, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00,
	0x0c, 0x00, 0x00, 0x00, 0,
	/* output terminal 4.7.2.5: speaker */
	12, 0x24, 0x03, 3, 0x01, 0x03, 0, SPK_FU_ID, SPK_CLOCK_ID,
	0x00, 0x00, 0,
	/* interface 1: audio streaming, alt 0 idle, alt 1 playing */
	9, USB_DT_INTERFACE, 1, 0, 0, 0x01, 0x02, 0x20, 0,
	9, USB_DT_INTERFACE, 1, 1, 1, 0x01, 0x02, 0x20, 0,
	/* AS general 4.9.2: terminal 1, type I, PCM, 2 channels FL FR */
	16, 0x24, 0x01, 1, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00,
	2, 0x03, 0x00, 0x00, 0x00, 0,
	/* format type I (Formats 2.0 2.3.1.6): 2-byte subslots, 16 bits */
	6, 0x24, 0x02, 0x01, 2, 16,
	/* iso OUT adaptive, 200 bytes, bInterval 4: 2^3 uframes = 1 ms */
	7, USB_DT_ENDPOINT, 0x01, 0x0d, 200, 0, 4,
	/* AS iso endpoint 4.10.1.2 */
	8, 0x25, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const char *const spk_strings[] = {
	"urbscope", "UAC2 Speaker", "SPK-0009", NULL
};

static const struct dm_descriptors spk_desc = {
	.device = spk_device,
	.config = spk_config,
	.config_len = sizeof spk_config,
	.qualifier = spk_qualifier,
	.strings = spk_strings,
};

static void
spk_reset(struct usb_devmodel *dm)
{
	struct speaker	*sp = dm->priv;

	sp->rate = 48000;
	sp->mute = 0;
	sp->volume[1] = sp->volume[2] = -20 * 256;
}

static int
spk_init(struct usb_devmodel *dm, const char *args)
{
	(void)args;
	spk_reset(dm);
	return 0;
}

/* A layout 3 (4-byte) range parameter block (UAC 2.0 5.2.3.3). */
static size_t
put_range32(uint8_t *p, uint32_t min, uint32_t max, uint32_t res)
{
	put_le32(p, min);
	put_le32(p + 4, max);
	put_le32(p + 8, res);
	return 12;
}

/*
 * The entities' requests: a SET takes data and returns 0, a GET puts its
 * answer (SPK_ANSWER_MAX bytes at most) into r and returns its length;
 * DM_STALL for what the entity does not have.
 */
static int
spk_clock(struct speaker *sp, const struct usb_ctrlrequest *s,
    const uint8_t *data, int in, uint8_t *r)
{
	size_t		 n;
	uint32_t	 rate;
	int		 cs = s->wValue >> 8;

	if (cs == UAC2_CS_CONTROL_SAM_FREQ && s->bRequest == UAC2_CS_CUR) {
		if (!in) {
			rate = get_le32(data);
			if (s->wLength != 4 || (rate != 44100 &&
			    rate != 48000))
				return DM_STALL;
			sp->rate = rate;
			return 0;
		}
		put_le32(r, sp->rate);
		n = 4;
	} else if (cs == UAC2_CS_CONTROL_SAM_FREQ &&
	    s->bRequest == UAC2_CS_RANGE && in) {
		put_le16(r, 2);
		n = 2;
		n += put_range32(r + n, 44100, 44100, 0);
		n += put_range32(r + n, 48000, 48000, 0);
	} else if (cs == UAC2_CS_CONTROL_CLOCK_VALID &&
	    s->bRequest == UAC2_CS_CUR && in) {
		r[0] = 1;
		n = 1;
	} else
		return DM_STALL;
	return (int)n;
}

static int
spk_feature(struct speaker *sp, const struct usb_ctrlrequest *s,
    const uint8_t *data, int in, uint8_t *r)
{
	size_t		 n;
	int		 cs = s->wValue >> 8, ch = s->wValue & 0xff;
	int16_t		 v;

	if (cs == UAC_FU_MUTE && ch == 0 && s->bRequest == UAC2_CS_CUR) {
		if (!in) {
			if (s->wLength != 1)
				return DM_STALL;
			sp->mute = data[0] != 0;
			return 0;
		}
		r[0] = sp->mute;
		n = 1;
	} else if (cs == UAC_FU_VOLUME && (ch == 1 || ch == 2) &&
	    s->bRequest == UAC2_CS_CUR) {
		if (!in) {
			v = (int16_t)get_le16(data);
			if (s->wLength != 2 || v < SPK_VOL_MIN || v > 0)
				return DM_STALL;
			sp->volume[ch] = v;
			return 0;
		}
		put_le16(r, (uint16_t)sp->volume[ch]);
		n = 2;
	} else if (cs == UAC_FU_VOLUME && (ch == 1 || ch == 2) &&
	    s->bRequest == UAC2_CS_RANGE && in) {
		put_le16(r, 1);		/* layout 2, one subrange */
		put_le16(r + 2, (uint16_t)SPK_VOL_MIN);
		put_le16(r + 4, 0);
		put_le16(r + 6, SPK_VOL_RES);
		n = 8;
	} else
		return DM_STALL;
	return (int)n;
}

/* Requests to an entity: wIndex is its ID and the interface (5.2.2). */
static int
spk_control(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct speaker	*sp = dm->priv;
	uint8_t		 r[SPK_ANSWER_MAX];
	int		 in = (s->bRequestType & USB_DIR_IN) != 0, n;

	if ((s->bRequestType & (USB_TYPE_MASK | USB_RECIP_MASK)) !=
	    (USB_TYPE_CLASS | USB_RECIP_INTERFACE) || (s->wIndex & 0xff) != 0)
		return DM_STALL;
	switch (s->wIndex >> 8) {
	case SPK_CLOCK_ID:
		n = spk_clock(sp, s, data, in, r);
		break;
	case SPK_FU_ID:
		n = spk_feature(sp, s, data, in, r);
		break;
	default:
		return DM_STALL;
	}
	if (n <= 0 || !in)
		return n;
	if (n > s->wLength)
		n = s->wLength;		/* the host asked for less */
	memcpy(data, r, (size_t)n);
	return n;
}

static int
spk_data_out(struct usb_devmodel *dm, int ep, const uint8_t *buf,
    size_t len)
{
	struct speaker	*sp = dm->priv;

	(void)buf;
	if (ep != 0x01)
		return DM_STALL;
	sp->received += len;
	return DM_ACK;
}

const struct usb_devmodel_ops dm_speaker_ops = {
	.name = "speaker",
	.priv_size = sizeof(struct speaker),
	.desc = &spk_desc,
	.init = spk_init,
	.reset = spk_reset,
	.control = spk_control,
	.data_out = spk_data_out,
};
