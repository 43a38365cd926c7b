/*
 * decode/dec-export.c - a capture turned back into a program: the host's
 * side of one device's transfers, in the order they completed, as a C
 * program on libusb-1.0 or a Python one on pyusb, which checks every
 * answer against the recording (status, length, bytes) and says each
 * difference.  Pure text: the records come in (dec_export_record, with
 * the summary `urbscope read` gives each submission, for the comments),
 * the program goes out (dec_export_finish); no device is touched here.
 *
 * The device is the one asked for, else the first that answered
 * GET_DESCRIPTOR(DEVICE) and is no hub; its VID:PID open it.  Its
 * enumeration (standard requests before its first SET_CONFIGURATION, and
 * SET_ADDRESS ever) is left to the host's USB core; SET_CONFIGURATION and
 * SET_INTERFACE go through libusb's calls for them; the interfaces the
 * transfers use are claimed (their endpoints' from the configuration
 * descriptor the capture holds).  The setup phase runs from the first
 * SET_CONFIGURATION to the first bulk or interrupt transfer, the data
 * phase from there.  URBs cancelled (-ENOENT, -ECONNRESET, -ESHUTDOWN)
 * and isochronous ones are not replayed, each counted in the header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "ch9.h"

#define DX_PENDING	256		/* submissions awaiting completion */
/* bmRequestType and endpoint address bits, bDeviceClass (USB 2.0 9.3,
 * 9.6.6, the USB-IF class codes) */
#define DX_DIR_IN		0x80
#define DX_TYPE_MASK		0x60
#define DX_TYPE_STANDARD	0x00
#define DX_RECIP_MASK		0x1f
#define DX_RECIP_INTERFACE	0x01
#define DX_RECIP_ENDPOINT	0x02
#define DX_CLASS_HUB		0x09
#define DX_MAX_LEN	(16u << 20)	/* longest transfer written out */

struct dx_xfer {
	uint64_t	 recno;		/* of its submission */
	uint16_t	 bus;
	uint8_t		 dev;
	uint8_t		 ep;		/* address, IN bit included */
	uint8_t		 type;		/* XFER_* */
	uint8_t		 setup[8];
	uint32_t	 asked;		/* the URB's length */
	uint8_t		*out;		/* OUT data sent */
	uint32_t	 nout;
	uint8_t		*in;		/* IN data received */
	uint32_t	 nin;
	uint32_t	 actual;
	int32_t		 status;
	char		*comment;
	int		 cut;		/* data cut by the snap length */
	int		 synth;		/* urbscope's, from sysfs: never sent */
	struct urb_iso	*iso_s;		/* isochronous: the packets asked */
	uint32_t	 niso_s;	/* (0: not all in the capture) */
	struct urb_iso	*iso_c;		/* and as they came back */
	uint32_t	 niso_c;
};

struct dec_export {
	int		 lang;
	char		*source;
	struct dx_xfer	 pend[DX_PENDING];	/* submitted, oldest first */
	size_t		 np;
	struct dx_xfer	*xf;		/* completed, in completion order */
	size_t		 nxf, capxf;
	int		 want_bus, want_dev;	/* 0: choose */
	int		 want_vid, want_pid;	/* -1: any */
	int		 oom;
};

struct dec_export *
dec_export_new(int lang, const char *source)
{
	struct dec_export *x;

	if ((x = calloc(1, sizeof *x)) == NULL)
		return NULL;
	x->lang = lang;
	x->want_vid = x->want_pid = -1;
	if ((x->source = strdup(source != NULL ? source : "-")) == NULL) {
		free(x);
		return NULL;
	}
	return x;
}

void
dec_export_device(struct dec_export *x, int bus, int dev)
{
	x->want_bus = bus;
	x->want_dev = dev;
}

void
dec_export_vidpid(struct dec_export *x, uint16_t vid, uint16_t pid)
{
	x->want_vid = vid;
	x->want_pid = pid;
}

static void
dx_free(struct dx_xfer *t)
{
	free(t->out);
	free(t->in);
	free(t->comment);
	free(t->iso_s);
	free(t->iso_c);
	memset(t, 0, sizeof *t);
}

void
dec_export_free(struct dec_export *x)
{
	size_t	 i;

	if (x == NULL)
		return;
	for (i = 0; i < x->np; i++)
		dx_free(&x->pend[i]);
	for (i = 0; i < x->nxf; i++)
		dx_free(&x->xf[i]);
	free(x->xf);
	free(x->source);
	free(x);
}

static int	is_ctrl(const struct dx_xfer *t);
static int	dx_in(const struct dx_xfer *t);

/* r's isochronous packet descriptors, copied; NULL when out of memory. */
static struct urb_iso *
dx_isodup(const struct urb_rec *r)
{
	struct urb_iso	*p;

	if ((p = calloc(r->niso, sizeof *p)) != NULL)
		memcpy(p, r->iso, r->niso * sizeof *p);
	return p;
}

int
dec_export_record(struct dec_export *x, const struct urb_rec *r,
    const char *summary, uint64_t pair_recno)
{
	struct dx_xfer	*t;
	size_t		 i;
	int		 in = (r->epnum & DX_DIR_IN) != 0;

	if (x->oom)
		return -UE_NOMEM;
	/* only the device asked for, when one is */
	if (x->want_dev != 0 && (r->busnum != x->want_bus ||
	    r->devnum != x->want_dev))
		return 0;
	if (r->type == 'S') {
		if (x->np == DX_PENDING) {	/* never completed: dropped */
			dx_free(&x->pend[0]);
			memmove(x->pend, x->pend + 1, --x->np *
			    sizeof *x->pend);
		}
		t = &x->pend[x->np];
		memset(t, 0, sizeof *t);
		t->recno = r->recno;
		t->bus = r->busnum;
		t->dev = r->devnum;
		t->ep = r->epnum;
		t->type = r->xfer_type;
		t->asked = r->len_urb;
		/* the descriptors sysfs gave for a device already there
		 * describe it, but were never on the bus */
		t->synth = (r->flags & REC_F_SYNTHETIC) != 0;
		if (r->flag_setup == 0)
			memcpy(t->setup, r->setup, 8);
		if (!in) {
			t->nout = r->data_len;
			t->cut = r->data_len < r->len_urb &&
			    r->xfer_type != XFER_ISO;
			if ((t->out = dec_memdup(r->data, r->data_len)) == NULL)
				goto oom;
		}
		if ((t->comment = strdup(summary != NULL ? summary : ""))
		    == NULL)
			goto oom;
		/* every packet's descriptor, or none (usbmon text has 5) */
		if (r->xfer_type == XFER_ISO && r->niso > 0 &&
		    r->niso >= (uint32_t)r->iso_numdesc) {
			if ((t->iso_s = dx_isodup(r)) == NULL)
				goto oom;
			t->niso_s = r->niso;
		}
		x->np++;
		return 0;
	}
	/* a completion, with its submission as the analysis paired them
	 * (a capture may reuse URB ids: QEMU's does) */
	if ((r->type != 'C' && r->type != 'E') || pair_recno == 0)
		return 0;
	for (i = 0; i < x->np && x->pend[i].recno != pair_recno; i++)
		;
	if (i == x->np)
		return 0;		/* its submission not kept */
	t = &x->pend[i];
	t->status = r->status;
	t->actual = r->len_urb;
	/* what an IN brought, decoded, after what was asked */
	if (in && summary != NULL && summary[0] != '\0' && is_ctrl(t)) {
		/* a control IN's completion says the request again */
		free(t->comment);
		if ((t->comment = strdup(summary)) == NULL)
			goto oom;
	} else if (in && summary != NULL && summary[0] != '\0') {
		size_t	 n = strlen(t->comment), m = strlen(summary);
		char	*c = realloc(t->comment, n + m + 5);

		if (c == NULL)
			goto oom;
		snprintf(c + n, m + 5, " -> %s", summary);
		t->comment = c;
	}
	/* short, with URB_SHORT_NOT_OK: libusb takes short packets */
	if (r->status == -121)
		t->status = 0;
	if (in) {
		t->nin = r->data_len;
		t->cut |= r->data_len < r->len_urb;
		if ((t->in = dec_memdup(r->data, r->data_len)) == NULL)
			goto oom;
	}
	if (t->niso_s > 0 && r->niso == t->niso_s) {
		if ((t->iso_c = dx_isodup(r)) == NULL)
			goto oom;
		t->niso_c = r->niso;
	}
	if (dec_grow(&x->xf, x->nxf, &x->capxf, sizeof *x->xf) != 0)
		goto oom;
	x->xf[x->nxf++] = *t;
	/* the others keep their order: the oldest first */
	memmove(x->pend + i, x->pend + i + 1, (--x->np - i) * sizeof *x->pend);
	return 0;
oom:
	x->oom = 1;
	return -UE_NOMEM;
}

/* ------------------------------------------------------------------------
 * What to export.
 */

struct dx_plan {
	uint16_t	 bus;
	uint8_t		 dev;
	uint16_t	 vid, pid;
	const uint8_t	*devdesc;	/* its device descriptor, 18 bytes */
	const uint8_t	*config;	/* the longest CONFIG answer */
	uint32_t	 config_len;
	uint8_t		 intf_of_ep[32];	/* 0xff: unknown */
	uint8_t		 intf_class[256][2];	/* class, subclass */
	int		 claim[256];
	size_t		 nenum, ncancel, niso, ncut, nexported;
	size_t		 first_config, first_data;	/* xf indexes */
	uint32_t	 maxlen;
};

static int
is_ctrl(const struct dx_xfer *t)
{
	return (t->ep & 0x0f) == 0;
}

/* Does t move data IN (a control transfer: as its setup says)? */
static int
dx_in(const struct dx_xfer *t)
{
	return is_ctrl(t) ? (t->setup[0] & DX_DIR_IN) != 0 :
	    (t->ep & DX_DIR_IN) != 0;
}

/* The transfer's length: a control transfer's wLength, else the URB's
 * (never less than what moved: QEMU's captures give some submissions
 * no length). */
static uint32_t
dx_len(const struct dx_xfer *t)
{
	uint32_t n = is_ctrl(t) ? get_le16(t->setup + 6) : t->asked;

	return n > t->actual ? n : t->actual;
}

/* SET_CONFIGURATION and SET_INTERFACE: libusb's and pyusb's own calls,
 * no data. */
static int
dx_special(const struct dx_xfer *t)
{
	return is_ctrl(t) && ((t->setup[0] == 0 &&
	    t->setup[1] == USB_REQ_SET_CONFIGURATION) ||
	    (t->setup[0] == DX_RECIP_INTERFACE &&
	    t->setup[1] == USB_REQ_SET_INTERFACE));
}

static int
ep_index(uint8_t ep)
{
	return (ep & 0x0f) | ((ep & DX_DIR_IN) ? 16 : 0);
}

/* The transfers device bus.dev made on the bus. */
static size_t
dx_done(const struct dec_export *x, uint16_t bus, uint8_t dev)
{
	size_t	 i, n = 0;

	for (i = 0; i < x->nxf; i++)
		n += x->xf[i].bus == bus && x->xf[i].dev == dev &&
		    !x->xf[i].synth;
	return n;
}

/* The longest answer of the device to GET_DESCRIPTOR(type, index) (index
 * -1: any), at least min bytes; NULL if none. */
static const struct dx_xfer *
dx_desc(const struct dec_export *x, const struct dx_plan *pl,
    uint8_t type, int index, uint32_t min)
{
	const struct dx_xfer *t, *best = NULL;
	size_t		 i;

	for (i = 0; i < x->nxf; i++) {
		t = &x->xf[i];
		if (t->bus != pl->bus || t->dev != pl->dev || !is_ctrl(t) ||
		    t->setup[0] != 0x80 || t->setup[1] !=
		    USB_REQ_GET_DESCRIPTOR || t->setup[3] != type ||
		    (index >= 0 && t->setup[2] != index) || t->status != 0 ||
		    t->nin < min || (best != NULL && t->nin <= best->nin))
			continue;
		best = t;
	}
	return best;
}

/* The device, its descriptors, what is exported; -1 with err set. */
static int
dx_plan(struct dec_export *x, struct dx_plan *pl, char *err, size_t errlen)
{
	struct dx_xfer	*t;
	const struct dx_xfer *cfg;
	const uint8_t	*d;
	size_t		 i, off;
	int		 intf = -1, found = 0;

	memset(pl, 0, sizeof *pl);
	memset(pl->intf_of_ep, 0xff, sizeof pl->intf_of_ep);
	for (i = 0; i < x->nxf; i++) {
		t = &x->xf[i];
		if (!is_ctrl(t) || t->setup[0] != 0x80 || t->setup[1] !=
		    USB_REQ_GET_DESCRIPTOR || t->status != 0)
			continue;
		/* address 0 is every device's before SET_ADDRESS */
		if (t->dev == 0 || (x->want_dev != 0 &&
		    (t->bus != x->want_bus || t->dev != x->want_dev)))
			continue;
		if (t->setup[3] == USB_DT_DEVICE && t->nin >= 18 &&
		    x->want_vid >= 0 && (get_le16(t->in + 8) != x->want_vid ||
		    get_le16(t->in + 10) != x->want_pid))
			continue;
		if (t->setup[3] == USB_DT_DEVICE && t->nin >= 18 &&
		    (found == 0 ? t->in[4] != DX_CLASS_HUB ||
		    x->want_dev != 0 || x->want_vid >= 0 :
		    t->bus == pl->bus && t->dev == pl->dev)) {
			if (!found) {
				pl->bus = t->bus;
				pl->dev = t->dev;
			}
			pl->vid = get_le16(t->in + 8);
			pl->pid = get_le16(t->in + 10);
			pl->devdesc = t->in;
			found = 1;
		}
	}
	/* several devices with the IDs asked for (one unplugged and
	 * plugged again): the one that did the most */
	for (i = 0; found && x->want_vid >= 0 && i < x->nxf; i++) {
		t = &x->xf[i];
		if (is_ctrl(t) && t->setup[0] == 0x80 && t->setup[1] ==
		    USB_REQ_GET_DESCRIPTOR && t->setup[3] == USB_DT_DEVICE &&
		    t->status == 0 && t->dev != 0 && t->nin >= 18 &&
		    get_le16(t->in + 8) == x->want_vid &&
		    get_le16(t->in + 10) == x->want_pid &&
		    dx_done(x, t->bus, t->dev) > dx_done(x, pl->bus, pl->dev)) {
			pl->bus = t->bus;
			pl->dev = t->dev;
			pl->devdesc = t->in;
		}
	}
	if (!found) {
		if (x->want_vid >= 0)
			snprintf(err, errlen, "no device %04x:%04x described "
			    "itself in the capture", x->want_vid, x->want_pid);
		else if (x->want_dev != 0)
			snprintf(err, errlen, "device %d.%d's device "
			    "descriptor is not in the capture", x->want_bus,
			    x->want_dev);
		else
			snprintf(err, errlen, "no device (but hubs) answered "
			    "GET_DESCRIPTOR(DEVICE) in the capture: its "
			    "VID:PID would open it");
		return -1;
	}
	if ((cfg = dx_desc(x, pl, USB_DT_CONFIG, -1, 1)) != NULL) {
		pl->config = cfg->in;
		pl->config_len = cfg->nin;
	}
	/* each endpoint's interface (USB 2.0 9.6.5, 9.6.6) */
	for (off = 0; pl->config != NULL && off + 2 <= pl->config_len &&
	    pl->config[off] >= 2; off += pl->config[off]) {
		d = pl->config + off;
		if (d[1] == USB_DT_INTERFACE && d[0] >= 9 &&
		    off + 9 <= pl->config_len) {
			intf = d[2];
			pl->intf_class[intf][0] = d[5];
			pl->intf_class[intf][1] = d[6];
		}
		else if (d[1] == USB_DT_ENDPOINT && d[0] >= 7 && intf >= 0 &&
		    off + 7 <= pl->config_len)
			pl->intf_of_ep[ep_index(d[2])] = (uint8_t)intf;
	}
	pl->first_config = pl->first_data = x->nxf;
	for (i = 0; i < x->nxf; i++) {
		t = &x->xf[i];
		if (t->bus != pl->bus || t->dev != pl->dev || t->synth)
			continue;
		if (is_ctrl(t) && t->setup[0] == 0 && t->setup[1] ==
		    USB_REQ_SET_CONFIGURATION && pl->first_config == x->nxf)
			pl->first_config = i;
		if (!is_ctrl(t) && t->type != XFER_ISO &&
		    pl->first_data == x->nxf)
			pl->first_data = i;
	}
	return 0;
}

enum { DX_SKIP_ENUM = 1, DX_SKIP_CANCEL, DX_SKIP_ISO, DX_DO };

/* Whether transfer i of the device is exported. */
static int
dx_what(const struct dec_export *x, const struct dx_plan *pl, size_t i)
{
	const struct dx_xfer *t = &x->xf[i];

	if (t->bus != pl->bus || t->dev != pl->dev || t->synth)
		return 0;
	if (is_ctrl(t) && (t->setup[1] == USB_REQ_SET_ADDRESS &&
	    t->setup[0] == 0))
		return DX_SKIP_ENUM;
	if (is_ctrl(t) && i < pl->first_config &&
	    (t->setup[0] & DX_TYPE_MASK) == DX_TYPE_STANDARD)
		return DX_SKIP_ENUM;
	if (t->status == -2 || t->status == -104 || t->status == -108)
		return DX_SKIP_CANCEL;	/* -ENOENT -ECONNRESET -ESHUTDOWN */
	if (t->type == XFER_ISO)
		return DX_SKIP_ISO;
	return DX_DO;
}

static void
dx_count(const struct dec_export *x, struct dx_plan *pl)
{
	const struct dx_xfer *t;
	size_t		 i;
	int		 what, rt;

	for (i = 0; i < x->nxf; i++) {
		t = &x->xf[i];
		switch ((what = dx_what(x, pl, i))) {
		case DX_SKIP_ENUM:
			pl->nenum++;
			continue;
		case DX_SKIP_CANCEL:
			pl->ncancel++;
			continue;
		case DX_SKIP_ISO:
			pl->niso++;
			continue;
		case 0:
			continue;
		}
		pl->nexported++;
		pl->ncut += t->cut;
		if (dx_len(t) > pl->maxlen)
			pl->maxlen = dx_len(t) > DX_MAX_LEN ? DX_MAX_LEN :
			    dx_len(t);
		if (!is_ctrl(t)) {
			if (pl->intf_of_ep[ep_index(t->ep)] != 0xff)
				pl->claim[pl->intf_of_ep[ep_index(t->ep)]] = 1;
			continue;
		}
		rt = t->setup[0] & DX_RECIP_MASK;
		if (rt == DX_RECIP_INTERFACE)
			pl->claim[t->setup[4]] = 1;
		else if (rt == DX_RECIP_ENDPOINT &&
		    pl->intf_of_ep[ep_index(t->setup[4])] != 0xff)
			pl->claim[pl->intf_of_ep[ep_index(t->setup[4])]] = 1;
	}
	if (pl->maxlen == 0)
		pl->maxlen = 1;
}

/* ------------------------------------------------------------------------
 * Writing.
 */

/* s in a comment (C's or Python's): no end of comment, no newline,
 * printable ASCII; in a Python docstring (doc) no quote or backslash
 * either. */
static void
dx_plain(struct sbuf *b, const char *s, int doc)
{
	for (; *s != '\0'; s++) {
		if (s[0] == '*' && s[1] == '/') {
			sb_puts(b, "* /");
			s++;
		} else if ((unsigned char)*s < 0x20 ||
		    (unsigned char)*s >= 0x7f ||
		    (doc && (*s == '"' || *s == '\\')))
			sb_putc(b, '.');
		else
			sb_putc(b, *s);
	}
}

/* The comment's text: the summary, its arrow and anything not ASCII
 * made plain. */
static const char *
dx_text(const struct dx_xfer *t)
{
	return t->comment != NULL && t->comment[0] != '\0' ? t->comment :
	    "-";
}

/* libusb's status for a Linux one (Documentation/driver-api/usb/
 * error-codes.rst against libusb_error, libusb_transfer_status). */
static const char *
dx_libusb_err(int32_t status)
{
	switch (status) {
	case -32:	return "LIBUSB_ERROR_PIPE";
	case -75:	return "LIBUSB_ERROR_OVERFLOW";
	case -110:
	case -62:	return "LIBUSB_ERROR_TIMEOUT";
	case -19:
	case -108:	return "LIBUSB_ERROR_NO_DEVICE";
	default:	return "LIBUSB_ERROR_IO";
	}
}

static void
dx_bytes_c(struct sbuf *b, const char *name, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	sb_printf(b, "static const unsigned char %s[%u] = {", name,
	    n > 0 ? n : 1);
	for (i = 0; i < n; i++)
		sb_printf(b, "%s0x%02x%s", i % 12 == 0 ? "\n\t" : " ", p[i],
		    i + 1 < n ? "," : "");
	if (n == 0)
		sb_puts(b, " 0");
	sb_puts(b, "\n};\n");
}

/* Python's bytes of p: bytes.fromhex("..."), split over lines. */
static void
dx_bytes_py(struct sbuf *b, const char *name, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	sb_printf(b, "%s = bytes.fromhex(\n    \"", name);
	for (i = 0; i < n; i++) {
		if (i > 0 && i % 32 == 0)
			sb_puts(b, "\"\n    \"");
		sb_printf(b, "%02x", p[i]);
	}
	sb_puts(b, "\")\n");
}

/* The OUT bytes t sends: what was captured, no more than its length. */
static uint32_t
dx_nout(const struct dx_xfer *t, const struct dx_plan *pl)
{
	uint32_t len = dx_len(t) > pl->maxlen ? pl->maxlen : dx_len(t);

	return t->nout > len ? len : t->nout;
}

/* The data of the exported transfers as named arrays: out_N, in_N in C,
 * OUT_N, IN_N in Python (N the submission's record). */
static void
dx_arrays(const struct dec_export *x, const struct dx_plan *pl,
    struct sbuf *b, int py)
{
	const struct dx_xfer *t;
	char		 name[64];
	size_t		 i;
	uint32_t	 n;

	for (i = 0; i < x->nxf; i++) {
		t = &x->xf[i];
		if (dx_what(x, pl, i) != DX_DO || dx_special(t))
			continue;
		if (!dx_in(t) && (n = dx_nout(t, pl)) > 0) {
			snprintf(name, sizeof name, py ? "OUT_%llu" :
			    "out_%llu", (unsigned long long)t->recno);
			(py ? dx_bytes_py : dx_bytes_c)(b, name, t->out, n);
		}
		if (dx_in(t) && t->nin > 0 && t->status == 0) {
			snprintf(name, sizeof name, py ? "IN_%llu" : "in_%llu",
			    (unsigned long long)t->recno);
			n = t->nin > pl->maxlen ? pl->maxlen : t->nin;
			(py ? dx_bytes_py : dx_bytes_c)(b, name, t->in, n);
		}
	}
}

static void
dx_call_c(const struct dx_xfer *t, const struct dx_plan *pl,
    struct sbuf *b)
{
	unsigned long long rec = (unsigned long long)t->recno;
	int		 in = dx_in(t);
	uint32_t	 len = dx_len(t) > pl->maxlen ? pl->maxlen : dx_len(t);
	uint32_t	 nout = dx_nout(t, pl);
	char		 want[64], data[64];

	sb_puts(b, "\t/* record ");
	sb_printf(b, "%llu: ", rec);
	dx_plain(b, dx_text(t), 0);
	if (t->cut)
		sb_puts(b, " (data cut by the capture's snap length: what "
		    "is missing is sent as zeros, not compared)");
	sb_puts(b, " */\n");
	if (t->status == 0)
		snprintf(want, sizeof want, "%u", t->actual > len ? len :
		    t->actual);
	else
		snprintf(want, sizeof want, "%s", dx_libusb_err(t->status));
	if (in && t->status == 0 && t->nin > 0)
		snprintf(data, sizeof data, "in_%llu, %u", rec,
		    t->nin > len ? len : t->nin);
	else
		snprintf(data, sizeof data, "NULL, 0");
	if (!in && nout > 0)
		sb_printf(b, "\tmemcpy(buf, out_%llu, %u);\n", rec, nout);
	if (is_ctrl(t) && t->setup[0] == 0 &&
	    t->setup[1] == USB_REQ_SET_CONFIGURATION) {
		sb_printf(b, "\tcheck(%llu, set_configuration(h, %u), "
		    "%s, NULL, 0);\n", rec, t->setup[2], t->status == 0 ?
		    "0" : want);
		return;
	}
	if (is_ctrl(t) && t->setup[0] == DX_RECIP_INTERFACE &&
	    t->setup[1] == USB_REQ_SET_INTERFACE) {
		sb_printf(b, "\tcheck(%llu, libusb_set_interface_alt_setting("
		    "h, %u, %u), %s, NULL, 0);\n", rec, t->setup[4],
		    t->setup[2], t->status == 0 ? "0" : want);
		return;
	}
	if (is_ctrl(t)) {
		sb_printf(b, "\tcheck(%llu, libusb_control_transfer(h, 0x%02x, "
		    "0x%02x, 0x%04x, 0x%04x, buf, %u, TIMEOUT), %s, %s);\n",
		    rec, t->setup[0], t->setup[1], get_le16(t->setup + 2),
		    get_le16(t->setup + 4), in ? (len < get_le16(t->setup + 6) ?
		    len : get_le16(t->setup + 6)) : nout, want, data);
		return;
	}
	sb_printf(b, "\tcheck(%llu, xfer(h, 0x%02x, %d, %u), %s, %s);\n", rec,
	    t->ep, t->type == XFER_INT, in ? len : nout, want, data);
}

/* One transfer in Python: a call that check() holds against the
 * recording (SET_CONFIGURATION and SET_INTERFACE through pyusb's own,
 * which answer None). */
static void
dx_call_py(const struct dx_xfer *t, const struct dx_plan *pl,
    struct sbuf *b)
{
	unsigned long long rec = (unsigned long long)t->recno;
	int		 in = dx_in(t);
	char		 want[32], arg[64], call[200];

	sb_printf(b, "    # record %llu: ", rec);
	dx_plain(b, dx_text(t), 0);
	sb_puts(b, "\n");
	if (t->status != 0)
		snprintf(want, sizeof want, "\"error\"");
	else
		snprintf(want, sizeof want, "%u", dx_special(t) ? 0 :
		    t->actual);
	if (!in && dx_nout(t, pl) > 0)
		snprintf(arg, sizeof arg, "OUT_%llu", rec);
	else
		snprintf(arg, sizeof arg, "%s", is_ctrl(t) ? "None" : "b\"\"");
	if (is_ctrl(t) && t->setup[1] == USB_REQ_SET_CONFIGURATION &&
	    dx_special(t))
		snprintf(call, sizeof call, "set_configuration(dev, %u)",
		    t->setup[2]);
	else if (dx_special(t))
		snprintf(call, sizeof call, "dev.set_interface_altsetting(%u, "
		    "%u) or 0", t->setup[4], t->setup[2]);
	else if (is_ctrl(t) && in)
		snprintf(call, sizeof call, "dev.ctrl_transfer(0x%02x, 0x%02x, "
		    "0x%04x, 0x%04x, %u, TIMEOUT)", t->setup[0], t->setup[1],
		    get_le16(t->setup + 2), get_le16(t->setup + 4),
		    get_le16(t->setup + 6));
	else if (is_ctrl(t))
		snprintf(call, sizeof call, "dev.ctrl_transfer(0x%02x, 0x%02x, "
		    "0x%04x, 0x%04x, %s, TIMEOUT)", t->setup[0], t->setup[1],
		    get_le16(t->setup + 2), get_le16(t->setup + 4), arg);
	else if (in)
		snprintf(call, sizeof call, "dev.read(0x%02x, %u, TIMEOUT)",
		    t->ep, dx_len(t));
	else
		snprintf(call, sizeof call, "dev.write(0x%02x, %s, TIMEOUT)",
		    t->ep, arg);
	sb_printf(b, "    check(%llu, lambda: %s,\n          %s", rec, call,
	    want);
	if (in && t->status == 0 && t->nin > 0 && !dx_special(t))
		sb_printf(b, ", IN_%llu", rec);
	sb_puts(b, ")\n");
}

/*
 * The setup function (from the first SET_CONFIGURATION to the first bulk
 * or interrupt transfer) and the data function (from there), in C or
 * Python: each exported transfer, the interfaces claimed right after the
 * first SET_CONFIGURATION wherever it falls (at the start when the
 * capture has none).
 */
static void
dx_phases(const struct dec_export *x, const struct dx_plan *pl,
    struct sbuf *b, int py)
{
	static const char *const what[2][2] = {
		{ "The setup: configuration, interfaces, requests before "
		  "the first bulk or\n * interrupt transfer.",
		  "The setup: configuration, interfaces, requests before "
		  "the first bulk or\n    interrupt transfer." },
		{ "The data, from the first bulk or interrupt transfer on.",
		  "The data, from the first bulk or interrupt transfer on." },
	};
	const char	*claim = py ? "    claim(dev)\n" : "\t(void)claim(h);\n";
	const char	*doc;
	size_t		 i, n;
	int		 phase;

	for (phase = 0; phase < 2; phase++) {
		doc = what[phase][py];
		if (py)
			sb_printf(b, "\n\ndef %s(dev):\n    \"\"\"%s\"\"\"\n",
			    phase == 0 ? "setup" : "data", doc);
		else
			sb_printf(b, "\n/* %s */\nstatic void\n%s("
			    "libusb_device_handle *h)\n{\n", doc,
			    phase == 0 ? "setup" : "data");
		n = 0;
		if (phase == 0 && pl->first_config == x->nxf) {
			sb_puts(b, claim);
			n++;
		}
		for (i = 0; i < x->nxf; i++) {
			if ((phase == 0) != (i < pl->first_data))
				continue;
			if (dx_what(x, pl, i) == DX_DO) {
				(py ? dx_call_py : dx_call_c)(&x->xf[i], pl, b);
				n++;
			}
			if (i == pl->first_config) {
				sb_puts(b, claim);
				n++;
			}
		}
		if (n == 0)
			sb_puts(b, py ? "    pass\n" : "\t(void)h;\n");
		if (!py)
			sb_puts(b, "}\n");
	}
}

static void
dx_write_c(const struct dec_export *x, const struct dx_plan *pl,
    struct sbuf *b)
{
	int		 k;

	sb_puts(b, "/*\n * Generated by urbscope export --format c from ");
	dx_plain(b, x->source, 0);
	sb_printf(b, ",\n * device %u.%u (%04x:%04x): %zu transfers, in the "
	    "order they completed;\n * left out: %zu of its enumeration, %zu "
	    "cancelled, %zu isochronous.\n", pl->bus, pl->dev, pl->vid,
	    pl->pid, pl->nexported, pl->nenum, pl->ncancel, pl->niso);
	if (pl->ncut > 0)
		sb_printf(b, " * %zu of them had data cut by the capture's "
		    "snap length.\n", pl->ncut);
	sb_puts(b, " * It opens the device by VID:PID, claims the interfaces "
	    "the transfers use\n * (detaching their kernel drivers), "
	    "makes each transfer and compares the\n * answer with the "
	    "recording: status, length, bytes.  Exit status 0 when the\n"
	    " * device answered as recorded, 1 when it did not, 2 when it "
	    "is not there.\n *\n * cc -Wall -Wextra -Werror -o replay "
	    "replay.c $(pkg-config --cflags --libs libusb-1.0)\n */\n"
	    "#include <stdio.h>\n#include <string.h>\n\n#include <libusb.h>\n"
	    "\n");
	sb_printf(b, "#define VID\t\t0x%04x\n#define PID\t\t0x%04x\n"
	    "#define TIMEOUT\t\t5000\t/* ms */\n\nstatic unsigned char "
	    "buf[%u];\nstatic int divergences;\n\n", pl->vid, pl->pid,
	    pl->maxlen);
	dx_arrays(x, pl, b, 0);
	sb_puts(b, "\n"
	    "/* A bulk or interrupt transfer of len bytes from or to buf: "
	    "the bytes moved,\n * or libusb's error. */\n"
	    "static int\nxfer(libusb_device_handle *h, unsigned char ep, "
	    "int intr, int len)\n{\n\tint\t rc, n = 0;\n\n"
	    "\trc = intr ? libusb_interrupt_transfer(h, ep, buf, len, &n, "
	    "TIMEOUT) :\n\t    libusb_bulk_transfer(h, ep, buf, len, &n, "
	    "TIMEOUT);\n\treturn rc == 0 ? n : rc;\n}\n\n"
	    "/* The answer to record rec against the recording: rc (a "
	    "length, or an error)\n * and, for IN, the bytes in buf. */\n"
	    "static void\ncheck(unsigned long long rec, int rc, int want_rc, "
	    "const unsigned char *want,\n    int nwant)\n{\n\tint\t i;\n\n"
	    "\tif (rc != want_rc && (rc < 0 || want_rc < 0))\n"
	    "\t\tprintf(\"record %llu: %s, recorded %s\\n\", rec,\n"
	    "\t\t    rc < 0 ? libusb_error_name(rc) : \"a length\",\n"
	    "\t\t    want_rc < 0 ? libusb_error_name(want_rc) : "
	    "\"a length\");\n\telse if (rc != want_rc)\n"
	    "\t\tprintf(\"record %llu: %d bytes, recorded %d\\n\", rec, "
	    "rc,\n\t\t    want_rc);\n\tif (rc != want_rc) {\n"
	    "\t\tdivergences++;\n\t\treturn;\n\t}\n"
	    "\tfor (i = 0; want != NULL && i < nwant && i < rc; i++) {\n"
	    "\t\tif (buf[i] != want[i]) {\n\t\t\tprintf(\"record %llu: byte "
	    "%d is 0x%02x, recorded 0x%02x\\n\",\n\t\t\t    rec, i, buf[i], "
	    "want[i]);\n\t\t\tdivergences++;\n\t\t\treturn;\n\t\t}\n\t}\n}\n"
	    "\n");
	sb_puts(b, "/* The interfaces the transfers use. */\nstatic int\n"
	    "claim(libusb_device_handle *h)\n{\n\tint\t rc = 0;\n\n"
	    "\t(void)h;\n");
	for (k = 0; k < 256; k++)
		if (pl->claim[k])
			sb_printf(b, "\tif ((rc = libusb_claim_interface(h, %d)) "
			    "!= 0)\n\t\tfprintf(stderr, \"interface %d: %%s\\n\", "
			    "libusb_error_name(rc));\n", k, k);
	sb_puts(b, "\treturn rc;\n}\n\n/* Let them go: their kernel drivers "
	    "bind again. */\nstatic void\nrelease(libusb_device_handle *h)\n"
	    "{\n\t(void)h;\n");
	for (k = 0; k < 256; k++)
		if (pl->claim[k])
			sb_printf(b, "\tlibusb_release_interface(h, %d);\n", k);
	sb_puts(b, "}\n\n/* SET_CONFIGURATION: nothing when the device is in "
	    "that configuration\n * already (libusb would reset it). */\n"
	    "static int\nset_configuration(libusb_device_handle *h, int n)\n"
	    "{\n\tint\t cur;\n\n\tif (libusb_get_configuration(h, &cur) == 0 "
	    "&& cur == n)\n\t\treturn 0;\n\treturn libusb_set_configuration(h, "
	    "n);\n}\n\n");
	/* two devices may share VID:PID (QEMU's keyboard and tablet): the
	 * one whose descriptor is the recording's */
	sb_printf(b, "/* The first device with VID:PID whose descriptor is "
	    "the recording's (release,\n * strings), else the first with "
	    "VID:PID. */\nstatic libusb_device_handle *\nopen_device(void)\n"
	    "{\n\tstruct libusb_device_descriptor d;\n\tlibusb_device\t**list, "
	    "*pick = NULL;\n\tlibusb_device_handle *h = NULL;\n\tssize_t\t\t "
	    "i, n;\n\n\tif ((n = libusb_get_device_list(NULL, &list)) < 0)\n"
	    "\t\treturn NULL;\n\tfor (i = 0; i < n; i++) {\n"
	    "\t\tif (libusb_get_device_descriptor(list[i], &d) != 0 ||\n"
	    "\t\t    d.idVendor != VID || d.idProduct != PID)\n\t\t\tcontinue;\n"
	    "\t\tif (pick == NULL)\n\t\t\tpick = list[i];\n"
	    "\t\tif (d.bcdDevice == 0x%04x && d.iManufacturer == %u &&\n"
	    "\t\t    d.iProduct == %u && d.iSerialNumber == %u) {\n"
	    "\t\t\tpick = list[i];\n\t\t\tbreak;\n\t\t}\n\t}\n"
	    "\tif (pick != NULL && libusb_open(pick, &h) != 0)\n\t\th = NULL;\n"
	    "\tlibusb_free_device_list(list, 1);\n\treturn h;\n}\n",
	    get_le16(pl->devdesc + 12), pl->devdesc[14], pl->devdesc[15],
	    pl->devdesc[16]);
	dx_phases(x, pl, b, 0);
	sb_puts(b, "\nint\nmain(void)\n{\n\tlibusb_device_handle *h;\n\n"
	    "\tif (libusb_init(NULL) != 0) {\n\t\tfprintf(stderr, "
	    "\"libusb_init failed\\n\");\n\t\treturn 2;\n\t}\n"
	    "\tif ((h = open_device()) == NULL) {\n\t\tfprintf(stderr, "
	    "\"no device %04x:%04x (or no access to it)\\n\", VID,\n\t\t    "
	    "PID);\n\t\tlibusb_exit(NULL);\n\t\treturn 2;\n\t}\n"
	    "\tlibusb_set_auto_detach_kernel_driver(h, 1);\n"
	    "\t(void)xfer;\t/* in case the capture has none */\n"
	    "\t(void)check;\n\t(void)set_configuration;\n\tsetup(h);\n"
	    "\tdata(h);\n\trelease(h);\n\tlibusb_close(h);\n"
	    "\tlibusb_exit(NULL);\n\tprintf(\"%d divergence%s\\n\", "
	    "divergences, divergences == 1 ? \"\" : \"s\");\n"
	    "\treturn divergences != 0;\n}\n");
}

static void
dx_write_py(const struct dec_export *x, const struct dx_plan *pl,
    struct sbuf *b)
{
	size_t		 n;
	int		 k;

	sb_puts(b, "#!/usr/bin/env python3\n\"\"\"Generated by urbscope "
	    "export --format python from ");
	dx_plain(b, x->source, 1);
	sb_printf(b, ",\ndevice %u.%u (%04x:%04x): %zu transfers, in the order "
	    "they completed;\nleft out: %zu of its enumeration, %zu "
	    "cancelled, %zu isochronous.\n", pl->bus, pl->dev, pl->vid,
	    pl->pid, pl->nexported, pl->nenum, pl->ncancel, pl->niso);
	sb_puts(b, "It opens the device by VID:PID with pyusb (Debian's "
	    "python3-usb), claims\nthe interfaces the transfers use "
	    "(detaching their kernel drivers), makes each\ntransfer and "
	    "compares the answer with the recording.  Exit status 0 when the"
	    "\ndevice answered as recorded, 1 when it did not, 2 when it is "
	    "not there.\n\"\"\"\nimport sys\n\nimport usb.core\nimport "
	    "usb.util\n\n");
	sb_printf(b, "VID, PID = 0x%04x, 0x%04x\nTIMEOUT = 5000  # ms\n"
	    "divergences = 0\n\n", pl->vid, pl->pid);
	dx_arrays(x, pl, b, 1);
	sb_puts(b, "\n\ndef check(rec, fn, want, data=None):\n"
	    "    \"\"\"Run fn, the transfer of record rec, and hold its "
	    "answer against the\n    recording: want, a length or \"error\";"
	    " data, the bytes of an IN.\"\"\"\n"
	    "    global divergences\n    try:\n        got = fn()\n"
	    "    except usb.core.USBError as e:\n"
	    "        if want != \"error\":\n"
	    "            print(\"record %d: %s, recorded %d bytes\" % (rec, e, "
	    "want))\n            divergences += 1\n        return\n"
	    "    n = got if isinstance(got, int) else len(got)\n"
	    "    if want == \"error\" or n != want:\n"
	    "        print(\"record %d: %d bytes, recorded %s\" % (rec, n, "
	    "want))\n        divergences += 1\n"
	    "    elif data is not None and bytes(got[:len(data)]) != "
	    "data[:n]:\n        print(\"record %d: other bytes than "
	    "recorded\" % rec)\n        divergences += 1\n\n\n");
	sb_puts(b, "def claim(dev):\n    \"\"\"The interfaces the transfers "
	    "use.\"\"\"\n");
	n = 0;
	for (k = 0; k < 256; k++) {
		if (!pl->claim[k])
			continue;
		sb_printf(b, "    if dev.is_kernel_driver_active(%d):\n"
		    "        dev.detach_kernel_driver(%d)\n"
		    "    usb.util.claim_interface(dev, %d)\n", k, k, k);
		n++;
	}
	if (n == 0)
		sb_puts(b, "    pass\n");
	sb_puts(b, "\n\ndef release(dev):\n    \"\"\"Let them go: their "
	    "kernel drivers bind again.\"\"\"\n");
	n = 0;
	for (k = 0; k < 256; k++) {
		if (!pl->claim[k])
			continue;
		sb_printf(b, "    usb.util.release_interface(dev, %d)\n"
		    "    try:\n        dev.attach_kernel_driver(%d)\n"
		    "    except usb.core.USBError:\n        pass\n", k, k);
		n++;
	}
	if (n == 0)
		sb_puts(b, "    pass\n");
	sb_puts(b, "\n\ndef set_configuration(dev, n):\n    \"\"\"Nothing "
	    "when the device is in configuration n already.\"\"\"\n"
	    "    try:\n        if dev.get_active_configuration()."
	    "bConfigurationValue == n:\n            return 0\n"
	    "    except usb.core.USBError:\n        pass\n"
	    "    dev.set_configuration(n)\n    return 0\n");
	sb_printf(b, "\n\ndef find():\n    \"\"\"The first device with "
	    "VID:PID whose descriptor is the recording's\n    (release, "
	    "strings), else the first with VID:PID.\"\"\"\n"
	    "    devs = list(usb.core.find(find_all=True, idVendor=VID, "
	    "idProduct=PID))\n    for d in devs:\n"
	    "        if (d.bcdDevice, d.iManufacturer, d.iProduct, "
	    "d.iSerialNumber) == \\\n                (0x%04x, %u, %u, %u):\n"
	    "            return d\n    return devs[0] if devs else None\n",
	    get_le16(pl->devdesc + 12), pl->devdesc[14], pl->devdesc[15],
	    pl->devdesc[16]);
	dx_phases(x, pl, b, 1);
	sb_puts(b, "\n\ndef main():\n    dev = find()\n    if dev is None:\n        print(\"no device "
	    "%04x:%04x\" % (VID, PID), file=sys.stderr)\n        return 2\n"
	    "    setup(dev)\n    data(dev)\n    release(dev)\n"
	    "    usb.util.dispose_resources("
	    "dev)\n    print(\"%d divergence%s\" % (divergences, \"\" if "
	    "divergences == 1 else \"s\"))\n    return 1 if divergences "
	    "else 0\n\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n");
}

/* ------------------------------------------------------------------------
 * syzkaller: the device's side, emulated.  syzkaller's USB fuzzing
 * pseudo-syscalls (sys/linux/vusb.txt, run by executor/common_usb.h and
 * executor/common_usb_linux.h over the kernel's raw gadget) make the
 * kernel see a device: syz_usb_connect gives it the device descriptor and
 * one configuration descriptor (dev) and what else the enumeration asks
 * (conn_descs: the device qualifier, the BOS, the string descriptors by
 * index) and answers every request up to SET_CONFIGURATION from them;
 * each syz_usb_control_io then answers one control request, an IN one
 * from its descriptors (GET_DESCRIPTOR) or responses (the others);
 * syz_usb_ep_write sends a bulk or interrupt IN's data, syz_usb_ep_read
 * takes an OUT's.
 *
 * Descriptors whose bytes vusb.txt's structs cannot hold as they are (its
 * usb_device_descriptor has one interface of 9-byte endpoints; a HID
 * report descriptor is no usb_generic_descriptor) go as syzkaller's
 * squashed form, ANY=[@ANYBLOB="hex"], which prog/encoding.go takes for
 * any pointer (prog/any.go: a pointer to a varlen struct is squashable).
 */
#define DX_SYZ_BASE	0x7f0000000000ull	/* prog/encoding.go */
#define DX_SYZ_MEM	(16u << 20)	/* its data area: 4096 pages */
#define DX_SYZ_PACKET	4096	/* USB_MAX_PACKET_SIZE, common_usb_linux.h */
#define DX_SYZ_NDESCS	5	/* vusb_descriptors' pointers after len */
#define DX_SYZ_NRESPS	22	/* vusb_responses' pointers after len */
#define DX_SYZ_PTR	8	/* a pointer's bytes (amd64, arm64) */
/* enum usb_device_speed (include/uapi/linux/usb/ch9.h) */
#define DX_SPEED_LOW	1
#define DX_SPEED_FULL	2
#define DX_SPEED_HIGH	3
#define DX_SPEED_SUPER	5

struct dx_syz {
	struct sbuf	*b;
	uint64_t	 addr;		/* the next free address of the call */
	size_t		 nctrl, nwrite, nread, nbefore, nfailed, ncut;
};

/* The speed syz_usb_connect asks for: the capture does not say it, the
 * descriptors do (USB 2.0 5.5.3, 5.7.3, 5.8.3: a low-speed device has
 * an 8-byte endpoint 0 and interrupt endpoints of 8 bytes at most; only
 * a high-speed one has endpoints over 64 bytes; 3.2 devices say 0x03xx). */
static int
dx_syz_speed(const uint8_t *dev, const struct dx_plan *pl)
{
	const uint8_t	*d;
	uint32_t	 off;
	int		 low = dev[7] == 8, high = 0;

	if (get_le16(dev + 2) >= 0x0300)
		return DX_SPEED_SUPER;
	for (off = 0; pl->config != NULL && off + 2 <= pl->config_len &&
	    pl->config[off] >= 2; off += pl->config[off]) {
		d = pl->config + off;
		if (d[1] != USB_DT_ENDPOINT || d[0] < 7 ||
		    off + 7 > pl->config_len)
			continue;
		if ((get_le16(d + 4) & 0x7ff) > 64)
			high = 1;
		if ((d[3] & 3) != 3 || (get_le16(d + 4) & 0x7ff) > 8)
			low = 0;
	}
	return high ? DX_SPEED_HIGH : low ? DX_SPEED_LOW : DX_SPEED_FULL;
}

/* A pointer's address: &(0x7f...), n bytes taken. */
static void
dx_syz_addr(struct dx_syz *s, uint32_t n)
{
	sb_printf(s->b, "&(0x%llx)", (unsigned long long)(DX_SYZ_BASE +
	    s->addr));
	s->addr += (n + 0x3f) & ~0x3fu;
	if (s->addr >= DX_SYZ_MEM)	/* never with DX_SYZ_PACKET data */
		s->addr = 0;
}

static void
dx_syz_hex(struct dx_syz *s, const uint8_t *p, uint32_t n)
{
	sb_putc(s->b, '"');
	sb_hexbytes(s->b, p, n);
	sb_putc(s->b, '"');
}

/* A pointer to n squashed bytes: &(A)=ANY=[@ANYBLOB="..."], a and b
 * one after the other. */
static void
dx_syz_any(struct dx_syz *s, const uint8_t *a, uint32_t na,
    const uint8_t *p, uint32_t n)
{
	dx_syz_addr(s, na + n);
	sb_puts(s->b, "=ANY=[@ANYBLOB=\"");
	sb_hexbytes(s->b, a, na);
	sb_hexbytes(s->b, p, n);
	sb_puts(s->b, "\"]");
}

/* One string descriptor of conn_descs, a vusb_connect_string_descriptor:
 * a usb_string_descriptor field by field when it is one (bLength its
 * size, lang_id and data after it), else squashed. */
static void
dx_syz_string(struct dx_syz *s, const struct dx_xfer *t)
{
	uint32_t n;

	if (t == NULL) {
		sb_puts(s->b, "{0x0, 0x0}");
		return;
	}
	n = t->nin > 255 ? 255 : t->nin;
	sb_printf(s->b, "{0x%x, ", n);
	if (n >= 4 && t->in[0] == n) {
		dx_syz_addr(s, n);
		sb_printf(s->b, "={0x%x, 0x%x, 0x%x, ", n, USB_DT_STRING,
		    get_le16(t->in + 2));
		dx_syz_hex(s, t->in + 4, n - 4);
		sb_puts(s->b, "}}");
	} else {
		dx_syz_any(s, NULL, 0, t->in, n);
		sb_puts(s->b, "}");
	}
}

/* The comment line of a call: its record and summary. */
static void
dx_syz_comment(struct dx_syz *s, const struct dx_xfer *t, const char *more)
{
	sb_printf(s->b, "# record %llu: ", (unsigned long long)t->recno);
	dx_plain(s->b, dx_text(t), 0);
	sb_printf(s->b, "%s\n", more);
}

/* syz_usb_connect: the device and configuration descriptors, the
 * qualifier, the BOS and the strings the capture holds. */
static void
dx_syz_connect(const struct dec_export *x, const struct dx_plan *pl,
    struct dx_syz *s, const uint8_t *dev)
{
	const struct dx_xfer *t, *strs[256];
	uint8_t		 cfg[9];
	int		 i, nstrs = 0;

	memcpy(cfg, pl->config, 9);
	cfg[2] = pl->config_len & 0xff;		/* wTotalLength: what is */
	cfg[3] = (pl->config_len >> 8) & 0xff;	/* there */
	for (i = 0; i < 256; i++)
		if ((strs[i] = dx_desc(x, pl, USB_DT_STRING, i, 2)) != NULL)
			nstrs = i + 1;
	s->addr = 0;
	sb_printf(s->b, "r0 = syz_usb_connect(0x%x, 0x%x, ",
	    dx_syz_speed(dev, pl), 18 + pl->config_len);
	dx_syz_addr(s, 18 + pl->config_len);
	sb_puts(s->b, "=ANY=[@ANYBLOB=\"");
	sb_hexbytes(s->b, dev, 18);
	sb_hexbytes(s->b, cfg, 9);
	sb_hexbytes(s->b, pl->config + 9, pl->config_len - 9);
	sb_puts(s->b, "\"], ");
	/* vusb_connect_descriptors: qual_len, qual, bos_len, bos, strs_len,
	 * strs */
	dx_syz_addr(s, 28 + 12 * nstrs);
	sb_puts(s->b, "={");
	t = dx_desc(x, pl, USB_DT_DEVICE_QUALIFIER, -1, 10);
	if (t != NULL && t->nin == 10 && t->in[0] == 10 &&
	    t->in[1] == USB_DT_DEVICE_QUALIFIER) {
		sb_puts(s->b, "0xa, ");
		dx_syz_addr(s, 10);
		sb_printf(s->b, "={0xa, 0x6, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x, "
		    "0x%x, 0x%x}, ", get_le16(t->in + 2), t->in[4], t->in[5],
		    t->in[6], t->in[7], t->in[8], t->in[9]);
	} else
		sb_puts(s->b, "0x0, 0x0, ");
	t = dx_desc(x, pl, USB_DT_BOS, -1, 5);
	if (t != NULL && t->in[0] == 5 && t->in[1] == USB_DT_BOS &&
	    get_le16(t->in + 2) == t->nin && t->nin <= DX_SYZ_PACKET) {
		sb_printf(s->b, "0x%x, ", t->nin);
		dx_syz_any(s, NULL, 0, t->in, t->nin);
		sb_puts(s->b, ", ");
	} else
		sb_puts(s->b, "0x0, 0x0, ");
	sb_printf(s->b, "0x%x, [", nstrs);
	for (i = 0; i < nstrs; i++) {
		if (i > 0)
			sb_puts(s->b, ", ");
		dx_syz_string(s, strs[i]);
	}
	sb_puts(s->b, "]})\n");
}

/* One control request after SET_CONFIGURATION: an IN one's answer as the
 * GET_DESCRIPTOR descriptor or the response of its type and request (the
 * generic ones, which answer whatever syzkaller did not name); an OUT one
 * or a failed IN one has neither (the executor takes an OUT's data, and
 * stalls an IN it has no answer for). */
static void
dx_syz_control(const struct dx_xfer *t, struct dx_syz *s)
{
	uint8_t		 hdr[6];
	uint32_t	 n = t->nin > DX_SYZ_PACKET ? DX_SYZ_PACKET : t->nin;
	int		 k, in = dx_in(t) && t->status == 0;

	dx_syz_comment(s, t, !dx_in(t) || t->status == 0 ? "" :
	    " (failed: stalled)");
	s->addr = 0;
	s->nctrl++;
	if (!in) {
		sb_puts(s->b, "syz_usb_control_io(r0, 0x0, 0x0)\n");
		return;
	}
	hdr[0] = t->setup[0] & DX_TYPE_MASK;
	hdr[2] = n & 0xff;
	hdr[3] = (n >> 8) & 0xff;
	hdr[4] = hdr[5] = 0;
	if (t->setup[1] == USB_REQ_GET_DESCRIPTOR) {
		/* vusb_descriptors {len, generic, string, bos, hub_hs,
		 * hub_ss}; generic a vusb_descriptor_generic */
		hdr[1] = t->setup[3];
		sb_puts(s->b, "syz_usb_control_io(r0, ");
		dx_syz_addr(s, 4 + DX_SYZ_PTR * DX_SYZ_NDESCS);
		sb_printf(s->b, "={0x%x, ", 4 + DX_SYZ_PTR * DX_SYZ_NDESCS);
		dx_syz_any(s, hdr, 6, t->in, n);
		for (k = 1; k < DX_SYZ_NDESCS; k++)
			sb_puts(s->b, ", 0x0");
		sb_puts(s->b, "}, 0x0)\n");
		return;
	}
	/* vusb_responses {len, generic, ...}; generic a
	 * vusb_response_generic {type, req, len, data}, field by field */
	sb_puts(s->b, "syz_usb_control_io(r0, 0x0, ");
	dx_syz_addr(s, 4 + DX_SYZ_PTR * DX_SYZ_NRESPS);
	sb_printf(s->b, "={0x%x, ", 4 + DX_SYZ_PTR * DX_SYZ_NRESPS);
	dx_syz_addr(s, 6 + n);
	sb_printf(s->b, "={0x%x, 0x%x, 0x%x, ", hdr[0], t->setup[1], n);
	dx_syz_hex(s, t->in, n);
	sb_putc(s->b, '}');
	for (k = 1; k < DX_SYZ_NRESPS; k++)
		sb_puts(s->b, ", 0x0");
	sb_puts(s->b, "})\n");
}

/* A bulk or interrupt transfer: an IN's data written to its endpoint, an
 * OUT's read from it. */
static void
dx_syz_ep(const struct dx_xfer *t, struct dx_syz *s)
{
	uint32_t	 n;
	int		 cut;

	s->addr = 0;
	if (dx_in(t)) {
		n = t->nin > DX_SYZ_PACKET ? DX_SYZ_PACKET : t->nin;
		cut = t->cut || n < t->nin;
		dx_syz_comment(s, t, cut ? " (data cut)" : "");
		sb_printf(s->b, "syz_usb_ep_write(r0, 0x%x, 0x%x, ", t->ep, n);
		dx_syz_addr(s, n);
		sb_putc(s->b, '=');
		dx_syz_hex(s, t->in, n);
		sb_puts(s->b, ")\n");
		s->nwrite++;
	} else {
		n = t->actual > DX_SYZ_PACKET ? DX_SYZ_PACKET : t->actual;
		cut = n < t->actual;
		dx_syz_comment(s, t, cut ? " (data cut)" : "");
		sb_printf(s->b, "syz_usb_ep_read(r0, 0x%x, 0x%x, ", t->ep, n);
		dx_syz_addr(s, n);
		sb_printf(s->b, "=\"\"/%u)\n", n);
		s->nread++;
	}
	s->ncut += cut;
}

static int
dx_write_syz(const struct dec_export *x, const struct dx_plan *pl,
    struct sbuf *b, char *err, size_t errlen)
{
	const struct dx_xfer *t;
	struct dx_syz	 s;
	struct sbuf	 calls;
	size_t		 i;
	int		 before, oom;

	if (pl->config == NULL || pl->config_len < 9 ||
	    pl->config[1] != USB_DT_CONFIG) {
		snprintf(err, errlen, "device %u.%u's configuration descriptor "
		    "is not in the capture: syz_usb_connect needs it", pl->bus,
		    pl->dev);
		return -1;
	}
	memset(&s, 0, sizeof s);
	memset(&calls, 0, sizeof calls);
	s.b = &calls;
	dx_syz_connect(x, pl, &s, pl->devdesc);
	for (i = 0; i < x->nxf; i++) {
		t = &x->xf[i];
		if (dx_what(x, pl, i) != DX_DO || i == pl->first_config)
			continue;
		before = pl->first_config < x->nxf && i < pl->first_config;
		if (is_ctrl(t) && before)
			s.nbefore++;	/* syz_usb_connect stalls them */
		else if (is_ctrl(t))
			dx_syz_control(t, &s);
		else if (t->status != 0)
			s.nfailed++;
		else
			dx_syz_ep(t, &s);
	}
	sb_puts(b, "# Generated by urbscope export --format syzkaller from ");
	dx_plain(b, x->source, 0);
	sb_printf(b, ",\n# device %u.%u (%04x:%04x), emulated for syzkaller's "
	    "USB fuzzing (sys/linux/vusb.txt):\n# syz_usb_connect gives its "
	    "device descriptor, its configuration descriptor\n# (%u bytes, "
	    "the longest the capture holds), the string descriptors and the\n"
	    "# qualifier and BOS the capture holds, and answers the "
	    "enumeration from them;\n# then %zu control request%s, each a "
	    "syz_usb_control_io with the recorded answer\n# (none for OUT "
	    "ones), %zu bulk or interrupt IN answers (syz_usb_ep_write) and\n"
	    "# %zu OUT transfers taken (syz_usb_ep_read), in the order they "
	    "completed.\n", pl->bus, pl->dev, pl->vid, pl->pid,
	    pl->config_len, s.nctrl, s.nctrl == 1 ? "" : "s", s.nwrite,
	    s.nread);
	sb_printf(b, "# Left out: %zu of the enumeration (syz_usb_connect "
	    "answers it), %zu class or\n# vendor requests before "
	    "SET_CONFIGURATION (syz_usb_connect stalls them), %zu\n"
	    "# cancelled, %zu isochronous, %zu bulk or interrupt transfers "
	    "that failed.\n", pl->nenum, s.nbefore, pl->ncancel, pl->niso,
	    s.nfailed);
	if (s.ncut > 0)
		sb_printf(b, "# %zu transfers had data cut (the capture's snap "
		    "length, or the executor's 4096\n# bytes a call).\n",
		    s.ncut);
	sb_puts(b, "# Not emulated: other configurations than the one given "
	    "(the executor takes\n# one), a stall of an OUT request, the "
	    "speed as the bus said it (guessed from\n# the descriptors). "
	    "Descriptors vusb.txt's structs cannot hold byte for byte\n"
	    "# (one interface of 9-byte endpoints in usb_device_descriptor, "
	    "no report\n# descriptor in usb_generic_descriptor) go squashed, "
	    "as ANY=[@ANYBLOB=...].\n");
	if (calls.len > 0)
		sb_putn(b, calls.s, calls.len);
	oom = calls.oom;
	sb_free(&calls);
	if (oom)
		snprintf(err, errlen, "%s", ue_strerror(UE_NOMEM));
	return oom ? -1 : 0;
}

int
dec_export_finish(struct dec_export *x, struct sbuf *b, char *err,
    size_t errlen)
{
	struct dx_plan	 pl;

	if (x->oom) {
		snprintf(err, errlen, "%s", ue_strerror(UE_NOMEM));
		return -1;
	}
	if (dx_plan(x, &pl, err, errlen) != 0)
		return -1;
	dx_count(x, &pl);
	if (x->lang == DEC_EXPORT_SYZ) {
		if (dx_write_syz(x, &pl, b, err, errlen) != 0)
			return -1;
	} else if (x->lang == DEC_EXPORT_PYTHON)
		dx_write_py(x, &pl, b);
	else
		dx_write_c(x, &pl, b);
	if (b->oom) {
		snprintf(err, errlen, "%s", ue_strerror(UE_NOMEM));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * The transfers for a live replay (cmd/cmd-replay.c): every transfer of
 * the device in completion order, each with what replay does with it.
 */

/* DFU's interface (DFU 1.1 4.2.3: class 0xfe, subclass 1) and its
 * DFU_DNLOAD request (6.1.1), a firmware download. */
#define DX_CLASS_APP		0xfe
#define DX_SUBCLASS_DFU		0x01
#define DX_DFU_DNLOAD		0x01
#define DX_TYPE_CLASS		0x20
#define DX_TYPE_VENDOR		0x40

static int
dx_kind(const struct dec_export *x, const struct dx_plan *pl, size_t i)
{
	const struct dx_xfer *t = &x->xf[i];
	int		 type = t->setup[0] & DX_TYPE_MASK;
	int		 rt = t->setup[0] & DX_RECIP_MASK;

	if (is_ctrl(t) && t->setup[0] == 0 &&
	    t->setup[1] == USB_REQ_SET_ADDRESS)
		return DEC_STEP_ADDRESS;
	if (t->status == -2 || t->status == -104 || t->status == -108)
		return DEC_STEP_CANCELLED;
	if (t->type == XFER_ISO)
		return t->niso_c > 0 ? DEC_STEP_DO : DEC_STEP_ISO;
	if (!is_ctrl(t) || dx_in(t))
		return DEC_STEP_DO;	/* reading changes nothing */
	if (type == DX_TYPE_STANDARD) {
		if (t->setup[1] == USB_REQ_SET_CONFIGURATION && rt == 0)
			return DEC_STEP_CONFIG;
		if (dx_special(t) || (t->setup[1] == USB_REQ_CLEAR_FEATURE &&
		    rt == DX_RECIP_ENDPOINT))
			return DEC_STEP_DO;
		return i < pl->first_config ? DEC_STEP_ENUM : DEC_STEP_STATE;
	}
	if (type == DX_TYPE_VENDOR)
		return DEC_STEP_STATE;
	if (type == DX_TYPE_CLASS && rt == DX_RECIP_INTERFACE &&
	    t->setup[1] == DX_DFU_DNLOAD &&
	    pl->intf_class[t->setup[4]][0] == DX_CLASS_APP &&
	    pl->intf_class[t->setup[4]][1] == DX_SUBCLASS_DFU)
		return DEC_STEP_STATE;
	return DEC_STEP_DO;
}

/* Does a SCSI command with opcode op write the medium (SBC-3: FORMAT
 * UNIT, WRITE, WRITE AND VERIFY, WRITE BUFFER, WRITE SAME, UNMAP,
 * COMPARE AND WRITE)? */
static int
dx_scsi_writes(uint8_t op)
{
	static const uint8_t w[] = { 0x04, 0x0a, 0x2a, 0x2e, 0x3b, 0x41, 0x42,
	    0x89, 0x8a, 0x8e, 0x93, 0xaa, 0xae };
	size_t	 i;

	for (i = 0; i < sizeof w; i++)
		if (w[i] == op)
			return 1;
	return 0;
}

/*
 * A Bulk-Only disk's commands that write its medium change its state as
 * much as a vendor request does: each such CBW, its data and its CSW
 * (USB Mass Storage Class Bulk-Only Transport 1.0, 5.1 and 5.2: "USBC",
 * the tag at 4, the command block at 15; "USBS", the same tag).
 */
static void
dx_mark_writes(struct dec_replay *rp)
{
	struct dec_step	*v;
	size_t		 i;
	const uint8_t	*tag = NULL;

	for (i = 0; i < rp->nxfer; i++) {
		v = &rp->xfer[i];
		if (v->type != XFER_BULK || v->kind != DEC_STEP_DO)
			continue;
		if (!v->in && v->nout == 31 && memcmp(v->out, "USBC", 4) == 0) {
			tag = dx_scsi_writes(v->out[15]) ? v->out + 4 : NULL;
			if (tag != NULL)
				v->kind = DEC_STEP_STATE;
			continue;
		}
		if (tag == NULL)
			continue;
		v->kind = DEC_STEP_STATE;
		if (v->in && v->ndata == 13 && memcmp(v->data, "USBS", 4) ==
		    0 && memcmp(v->data + 4, tag, 4) == 0)
			tag = NULL;	/* its status: the command's end */
	}
}

int
dec_export_replay(struct dec_export *x, struct dec_replay *rp, char *err,
    size_t errlen)
{
	struct dx_plan	 pl;
	struct dx_xfer	*t;
	struct dec_step	*v;
	size_t		 i;
	int		 rt;
	uint8_t		 e;

	memset(rp, 0, sizeof *rp);
	if (x->oom) {
		snprintf(err, errlen, "%s", ue_strerror(UE_NOMEM));
		return -1;
	}
	if (dx_plan(x, &pl, err, errlen) != 0)
		return -1;
	rp->bus = pl.bus;
	rp->dev = pl.dev;
	rp->vid = pl.vid;
	rp->pid = pl.pid;
	memcpy(rp->devdesc, pl.devdesc, sizeof rp->devdesc);
	if ((rp->xfer = calloc(x->nxf > 0 ? x->nxf : 1, sizeof *rp->xfer)) ==
	    NULL) {
		snprintf(err, errlen, "%s", ue_strerror(UE_NOMEM));
		return -1;
	}
	for (i = 0; i < x->nxf; i++) {
		t = &x->xf[i];
		if (t->bus != pl.bus || t->dev != pl.dev || t->synth)
			continue;
		v = &rp->xfer[rp->nxfer++];
		v->recno = t->recno;
		v->kind = dx_kind(x, &pl, i);
		v->ep = t->ep;
		v->type = t->type;
		v->ctrl = is_ctrl(t);
		v->in = dx_in(t);
		memcpy(v->setup, t->setup, 8);
		v->len = dx_len(t) > DX_MAX_LEN ? DX_MAX_LEN : dx_len(t);
		v->out = t->out;
		v->nout = t->nout > v->len ? v->len : t->nout;
		v->data = t->in;
		v->ndata = t->nin > v->len ? v->len : t->nin;
		v->actual = t->actual > v->len ? v->len : t->actual;
		v->status = t->status;
		v->comment = dx_text(t);
		v->iso_s = t->iso_s;
		v->iso_c = t->iso_c;
		v->niso = t->niso_c;
		if (v->kind == DEC_STEP_DO && t->type == XFER_ISO) {
			/* the data as recorded, whatever the snap length */
			v->out = t->out;
			v->nout = t->nout;
			v->data = t->in;
			v->ndata = t->nin;
		}
		if (v->kind != DEC_STEP_DO)
			continue;
		/* the interfaces it needs: its endpoint's, its request's */
		rt = t->setup[0] & DX_RECIP_MASK;
		e = !v->ctrl ? t->ep : rt == DX_RECIP_ENDPOINT ?
		    t->setup[4] : 0;
		if (v->ctrl && rt == DX_RECIP_INTERFACE)
			rp->claim[t->setup[4]] = 1;
		else if ((e & 0x0f) != 0 &&
		    pl.intf_of_ep[ep_index(e)] != 0xff)
			rp->claim[pl.intf_of_ep[ep_index(e)]] = 1;
	}
	dx_mark_writes(rp);
	return 0;
}

void
dec_replay_free(struct dec_replay *rp)
{
	free(rp->xfer);
	memset(rp, 0, sizeof *rp);
}
