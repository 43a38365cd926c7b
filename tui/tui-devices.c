/*
 * tui/tui-devices.c - the Devices view ('d' shows it in place of the
 * details): buses, their devices (address, VID:PID, speed, class), the
 * active configuration, its interfaces (class, endpoints) and what the
 * driver events say of each interface: the driver bound with its minor,
 * node and intfdata pointer, the driver it was bound to until the device
 * went away, or, for an interface no driver took, each id table entry
 * tried and the first field that failed (tui-correlate.h).  Descriptors
 * come from the decoder's device state at the end of the input; devices
 * seen only in driver events (gone before their address was used again)
 * are listed from the events.
 *
 * Vendor and product names come from usb.ids (decode/usbids.h) when it
 * is installed.
 *
 * Live from usbmon on this machine (s->dev_usbmon), each device is
 * followed by its sysfs entry, the one with its bus and device number,
 * with the lines of `urbscope devices --why` for each of its interfaces
 * (capture/cap-why.c): sysfs is read at each build, the module aliases
 * at the first.
 *
 * The view has a cursor: moving it onto a device or an interface (or a
 * line under one) filters the timeline to that item (the filter
 * language: its bus and address, and for an interface its endpoints and
 * its drivers' events); the first line clears the filter.  A line's
 * filter travels in s->devs after a 0x1f byte, so rebuilding the lines
 * keeps the cursor on its item.
 */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/sysfs.h"
#include "decode/usbids.h"
#include "tui-correlate.h"
#include "tui-view.h"

#define TARGET_SEP	'\x1f'

static const char *
class_name(uint8_t cls, char *tmp)
{
	return dec_name_or(dec_classes, cls, tmp);
}

/* End the current line with its filter (NULL: not a target). */
static void
line_end(struct sbuf *b, const char *filter)
{
	if (filter != NULL) {
		sb_putc(b, TARGET_SEP);
		sb_puts(b, filter);
	}
	sb_putc(b, '\n');
}

/* The endpoints of interface intf in every alternate setting of the
 * configuration descriptors p[0..n), as " || ep==0x81" terms. */
static void
intf_eps(const uint8_t *p, size_t n, int intf, struct sbuf *f)
{
	struct dec_dref r;
	uint8_t	 seen[12];	/* the filter has 64 nodes */
	size_t	 off = 0, k, nseen = 0;
	int	 cur = -1;

	while (dec_desc_next(p, n, &off, &r)) {
		if (r.type == USB_DT_INTERFACE &&
		    r.len >= USB_DT_INTERFACE_SIZE)
			cur = r.p[2];
		else if (r.type == USB_DT_ENDPOINT &&
		    r.len >= USB_DT_ENDPOINT_SIZE && cur == intf) {
			for (k = 0; k < nseen && seen[k] != r.p[2]; k++)
				;
			if (k == nseen && nseen < sizeof seen) {
				seen[nseen++] = r.p[2];
				sb_printf(f, "%sep==0x%02x", f->len ? " || " :
				    "", r.p[2]);
			}
		}
	}
}

/* The filter of an interface: its endpoints and its drivers' events. */
static void
intf_filter(const uint8_t *cfg, size_t cfglen, const struct tui_corr_intf *ci,
    int intf, uint16_t bus, int dev, char *out, size_t size)
{
	struct sbuf	 t = { 0 };
	const char	*drv[6];
	size_t		 k, j, nd = 0;

	if (cfg != NULL)
		intf_eps(cfg, cfglen, intf, &t);
	if (ci != NULL && ci->driver != NULL)
		drv[nd++] = ci->driver;
	for (k = 0; ci != NULL && k < ci->ntries && nd < 6; k++) {
		for (j = 0; j < nd && drv[j] != ci->tries[k].driver; j++)
			;
		if (j == nd)
			drv[nd++] = ci->tries[k].driver;
	}
	for (k = 0; k < nd; k++)
		sb_printf(&t, "%sdriver==\"%s\"", t.len ? " || " : "",
		    drv[k]);
	if (t.len == 0)
		snprintf(out, size, "bus==%u && dev==%d", bus, dev);
	else
		snprintf(out, size, "bus==%u && dev==%d && (%s)", bus, dev,
		    t.s);
	sb_free(&t);
}

/* What the driver events say of an interface, indented by ind. */
static void
intf_driver_lines(const struct tui_model *m, const struct tui_corr_intf *ci,
    const char *ind, struct sbuf *b)
{
	static const char *const why[] = {
		[TCW_NONE] = "unbind",
		[TCW_UNPLUG] = "unplug",
		[TCW_DEREGISTER] = "usb_deregister",
		[TCW_DISCONNECT] = "disconnect",
	};
	size_t	 k;

	if (ci->state == TCS_BOUND)
		sb_printf(b, "%sdriver %s (probe at record %llu)", ind,
		    ci->driver, TUI_FRAME(m, ci->bind_item));
	else if (ci->state == TCS_UNBOUND)
		sb_printf(b, "%swas bound to %s until %s (record %llu)", ind,
		    ci->driver, why[ci->why], TUI_FRAME(m, ci->unbind_item));
	if (ci->state != TCS_NONE) {
		line_end(b, NULL);
		if (ci->minor >= 0 || ci->intfdata != 0) {
			sb_puts(b, ind);
			if (ci->minor >= 0)
				sb_printf(b, "  minor %d %s%s", ci->minor,
				    ci->node != NULL ? ci->node : "(no node)",
				    ci->minor_live ? "" : " (deregistered)");
			if (ci->intfdata != 0)
				sb_printf(b, "  intfdata 0x%llx%s",
				    (unsigned long long)ci->intfdata,
				    ci->intfdata_now == 0 ? " (cleared)" : "");
			line_end(b, NULL);
		}
		if (ci->nnodeops > 0) {
			sb_printf(b, "%s  %zu file operation%s on the node "
			    "(first at record %llu)", ind, ci->nnodeops,
			    ci->nnodeops == 1 ? "" : "s",
			    TUI_FRAME(m, ci->nodeops[0]));
			line_end(b, NULL);
		}
		return;
	}
	if (ci->probe_err != 0) {
		sb_printf(b, "%sprobe of %s failed with %d", ind,
		    ci->probe_err_driver != NULL ? ci->probe_err_driver : "?",
		    ci->probe_err);
		line_end(b, NULL);
	}
	if (ci->ntries == 0)
		return;
	sb_printf(b, "%sno driver took it:", ind);
	line_end(b, NULL);
	for (k = 0; k < ci->ntries; k++) {
		sb_printf(b, "%s  %s: entry %u %s (record %llu)", ind,
		    ci->tries[k].driver, ci->tries[k].entry,
		    ci->tries[k].matched ? "matched" : ci->tries[k].why !=
		    NULL ? ci->tries[k].why : "failed",
		    TUI_FRAME(m, ci->tries[k].item));
		line_end(b, NULL);
	}
}

/*
 * The interfaces and endpoints of configuration descriptors p[0..n):
 * every alternate setting with its endpoints (an audio or video stream's
 * endpoints are in alt 1 and up), the current one marked when there are
 * several; what the driver events say of an interface follows its first
 * setting.
 */
static void
config_lines(const struct tui_model *m, const struct dec_dev *d,
    const struct tui_corr_dev *cd, const uint8_t *p, size_t n,
    struct sbuf *b)
{
	static const char *const xfer[] = { "ctrl", "iso", "bulk", "int" };
	const struct tui_corr_intf *ci;
	char	 tmp[24], filt[256];
	struct dec_dref r;
	size_t	 off = 0;
	int	 shown = 0, first;
	uint8_t	 intf, alt, nalt[DEC_MAX_INTFS], listed[DEC_MAX_INTFS];

	memset(nalt, 0, sizeof nalt);
	memset(listed, 0, sizeof listed);
	while (dec_desc_next(p, n, &off, &r))
		if (r.type == USB_DT_INTERFACE &&
		    r.len >= USB_DT_INTERFACE_SIZE &&
		    r.p[2] < DEC_MAX_INTFS && nalt[r.p[2]] < UINT8_MAX)
			nalt[r.p[2]]++;
	off = 0;
	while (dec_desc_next(p, n, &off, &r)) {
		if (r.type == USB_DT_INTERFACE &&
		    r.len >= USB_DT_INTERFACE_SIZE) {
			intf = r.p[2];
			alt = r.p[3];
			shown = 1;
			first = intf >= DEC_MAX_INTFS || !listed[intf];
			if (intf < DEC_MAX_INTFS)
				listed[intf] = 1;
			ci = tui_corr_find_intf(cd, intf);
			sb_printf(b, "      interface %u", intf);
			if (ci != NULL && ci->name != NULL)
				sb_printf(b, " (%s)", ci->name);
			sb_printf(b, " alt %u: %s (0x%02x) sub 0x%02x "
			    "proto 0x%02x", alt, class_name(r.p[5], tmp),
			    r.p[5], r.p[6], r.p[7]);
			if (intf < DEC_MAX_INTFS && nalt[intf] > 1 &&
			    d->alt[intf] == alt)
				sb_puts(b, "  [current]");
			intf_filter(p, n, ci, intf, d->busnum, d->devnum,
			    filt, sizeof filt);
			line_end(b, filt);
			if (ci != NULL && first)
				intf_driver_lines(m, ci, "        ", b);
		} else if (r.type == USB_DT_ENDPOINT &&
		    r.len >= USB_DT_ENDPOINT_SIZE && shown) {
			sb_printf(b, "        ep 0x%02x %s %s mps %u",
			    r.p[2], r.p[2] & 0x80 ? "in" : "out",
			    xfer[r.p[3] & 3], get_le16(r.p + 4) & 0x7ff);
			line_end(b, NULL);
		}
	}
}

/* Interfaces known only from driver events (no descriptors). */
static void
event_intf_lines(const struct tui_model *m, const struct tui_corr_dev *cd,
    struct sbuf *b)
{
	const struct tui_corr_intf *ci;
	char	 filt[256];
	size_t	 k;

	for (k = 0; k < cd->nintf; k++) {
		ci = &cd->intf[k];
		sb_printf(b, "      interface %d", ci->intf);
		if (ci->name != NULL)
			sb_printf(b, " (%s)", ci->name);
		intf_filter(NULL, 0, ci, ci->intf, cd->busnum, cd->devnum,
		    filt, sizeof filt);
		line_end(b, filt);
		intf_driver_lines(m, ci, "        ", b);
	}
}

/* The device line: address, IDs, speed, USB version, class, state. */
static void
device_line(const struct tui_model *m, const struct dec_dev *d,
    const struct tui_corr_dev *cd, uint16_t bus, int dev, struct sbuf *b)
{
	const char *vn, *pn;
	char	 tmp[24], filt[64];
	uint16_t vid = 0, pid = 0;
	int	 ids = 0;

	if (d != NULL && d->has_ddesc) {
		vid = get_le16(d->ddesc + 8);
		pid = get_le16(d->ddesc + 10);
		ids = 1;
	} else if (cd != NULL && cd->has_ids) {
		vid = cd->vid;
		pid = cd->pid;
		ids = 1;
	}
	sb_printf(b, "  %u.%d  ", bus, dev);
	if (ids) {
		sb_printf(b, "%04x:%04x", vid, pid);
		/* lsusb's names, when usb.ids is installed */
		if ((vn = usbids_vendor(vid)) != NULL)
			sb_printf(b, " %s", vn);
		if ((pn = usbids_product(vid, pid)) != NULL)
			sb_printf(b, " %s", pn);
	} else
		sb_puts(b, "(no device descriptor seen)");
	if (cd != NULL && cd->speed != NULL)
		sb_printf(b, "  %s-speed", cd->speed);
	if (d != NULL && d->port != 0)
		sb_printf(b, "  port %u", d->port);
	if (d != NULL && d->has_ddesc)
		sb_printf(b, "  USB %x.%02x  %s (0x%02x)", d->ddesc[3],
		    d->ddesc[2], d->ddesc[4] ? class_name(d->ddesc[4], tmp) :
		    "per interface", d->ddesc[4]);
	if (dev == 0)
		sb_puts(b, "  at the default address, before SET_ADDRESS");
	if (cd != NULL && cd->gone)
		sb_printf(b, "  [unplugged at record %llu]",
		    TUI_FRAME(m, cd->gone_item));
	snprintf(filt, sizeof filt, "bus==%u && dev==%d", bus, dev);
	line_end(b, filt);
}

static void
device_lines(const struct tui_model *m, const struct dec_dev *d,
    const struct tui_corr_dev *cd, uint16_t bus, int dev, struct sbuf *b)
{
	size_t	 k;

	device_line(m, d, cd, bus, dev, b);
	if (d == NULL || !d->has_ddesc) {
		if (cd != NULL)
			event_intf_lines(m, cd, b);
		return;
	}
	if (d->config == 0 && d->in_use) {
		/* polled or asked of its ports: configured before the
		 * capture began, with the first configuration known */
		sb_puts(b, "    configured before the capture");
		line_end(b, NULL);
		for (k = 0; k < DEC_MAX_CONFIGS; k++)
			if (d->cfg[k] != NULL &&
			    d->cfg_len[k] >= USB_DT_CONFIG_SIZE) {
				config_lines(m, d, cd, d->cfg[k],
				    d->cfg_len[k], b);
				break;
			}
		return;
	}
	if (d->config == 0) {
		sb_puts(b, "    not configured");
		line_end(b, NULL);
		if (cd != NULL)
			event_intf_lines(m, cd, b);
		return;
	}
	sb_printf(b, "    configuration %u", d->config);
	line_end(b, NULL);
	for (k = 0; k < DEC_MAX_CONFIGS; k++)
		if (d->cfg[k] != NULL && d->cfg_len[k] >= USB_DT_CONFIG_SIZE &&
		    d->cfg[k][5] == d->config)
			config_lines(m, d, cd, d->cfg[k], d->cfg_len[k], b);
}

/* The devices of one bus the pane lists, and how. */
struct devs_bus {
	struct tui_screen *s;
	const struct sysfs_usb_dev *sys; /* live from usbmon: sysfs's */
	size_t		 nsys;
	const char	*sysroot;	/* sysfs: "ROOT/sys" */
	uint16_t	 bus;
	uint8_t		 show[128];	/* listed */
	uint8_t		 done[128];	/* listed already (a loop) */
};

/* Append the lines of t (each with its filter, if any), each after ind;
 * filter, when not NULL, ends the first. */
static void
indent_lines(const struct sbuf *t, const char *ind, const char *filter,
    struct sbuf *b)
{
	const char	*p, *nl;

	for (p = t->s; p != NULL && p < t->s + t->len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(t->s + t->len - p));
		if (nl == NULL)
			nl = t->s + t->len;
		sb_puts(b, ind);
		sb_putn(b, p, (size_t)(nl - p));
		line_end(b, p == t->s ? filter : NULL);
	}
}

/*
 * Live from usbmon: what the kernel says of the device at bus.dev, the
 * one of sysfs with that bus and device number: each interface with its
 * driver, how it bound, the modules whose aliases match, authorized, and
 * with no driver why (capture/cap-why.c), as `urbscope devices --why`
 * prints them, and first a probe the driver events say failed there
 * (traced by `tui -i --drivers`).  An interface's first line filters to
 * it.
 */
static void
why_lines(const struct devs_bus *db, const struct dec_dev *d,
    const struct tui_corr_dev *cd, int dev, struct sbuf *b)
{
	const struct sysfs_usb_dev *sd = NULL;
	const struct tui_corr_intf *ci;
	const uint8_t	*cfg = NULL;
	struct why_probe probe;
	struct sbuf	 t = { 0 };
	char		 filt[256];
	size_t		 k, np, cfglen = 0;

	for (k = 0; k < db->nsys && sd == NULL; k++)
		if (db->sys[k].busnum == db->bus &&
		    db->sys[k].devnum == (unsigned)dev)
			sd = &db->sys[k];
	if (sd == NULL || db->s->dev_mods == NULL)
		return;
	for (k = 0; d != NULL && d->config != 0 && k < DEC_MAX_CONFIGS; k++)
		if (d->cfg[k] != NULL && d->cfg_len[k] >= USB_DT_CONFIG_SIZE &&
		    d->cfg[k][5] == d->config) {
			cfg = d->cfg[k];
			cfglen = d->cfg_len[k];
		}
	sb_printf(b, "    kernel drivers (sysfs %s/bus/usb/devices/%s):",
	    db->sysroot, sd->name);
	line_end(b, NULL);
	if (sd->nintf == 0) {
		why_device(sd, NULL, db->sysroot, db->s->dev_mods, NULL, 0,
		    &t);
		indent_lines(&t, "      ", NULL, b);
	}
	for (k = 0; k < sd->nintf; k++) {
		t.len = 0;
		ci = cd != NULL ? tui_corr_find_intf(cd, sd->intf[k].num) :
		    NULL;
		/* a probe the tracer saw fail (tui -i --drivers), unless a
		 * binding since ended otherwise */
		np = 0;
		if (ci != NULL && ci->probe_err < 0 &&
		    ci->probe_err_driver != NULL && (ci->state == TCS_NONE ||
		    (ci->state == TCS_UNBOUND && ci->unbind_item != TI_NONE &&
		    ci->probe_err_item > ci->unbind_item))) {
			probe.intf = sd->intf[k].name;
			probe.driver = ci->probe_err_driver;
			probe.ret = ci->probe_err;
			np = 1;
		}
		why_device(sd, sd->intf[k].name, db->sysroot, db->s->dev_mods,
		    &probe, np, &t);
		intf_filter(cfg, cfglen, ci, sd->intf[k].num, db->bus, dev,
		    filt, sizeof filt);
		indent_lines(&t, "      ", filt, b);
	}
	sb_free(&t);
}

/* The device at dev (and those gone from it), then the devices on its
 * ports, by port, each level indented two more columns. */
static void
devices_node(struct devs_bus *db, int dev, int depth)
{
	struct tui_screen *s = db->s;
	const struct dec_dev *d, *c;
	const struct tui_corr_dev *cd, *last;
	struct sbuf	 t = { 0 };
	char		 ind[32];
	size_t		 k, ncd = tui_corr_ndevs(s->m->corr);
	int		 port, next, ch;

	db->done[dev] = 1;
	d = s->dev_ctx != NULL ? dec_ctx_device(s->dev_ctx, db->bus,
	    (uint8_t)dev) : NULL;
	last = tui_corr_find_dev(s->m->corr, db->bus, (uint8_t)dev);
	/* earlier devices at this address, gone since: the descriptors
	 * are the last one's */
	for (k = 0; k < ncd; k++) {
		cd = tui_corr_dev(s->m->corr, k);
		if (cd != last && cd->busnum == db->bus && cd->devnum == dev)
			device_lines(s->m, NULL, cd, db->bus, dev, &t);
	}
	device_lines(s->m, d, last, db->bus, dev, &t);
	if (db->nsys > 0)
		why_lines(db, d, last, dev, &t);
	snprintf(ind, sizeof ind, "%*s", depth * 2, "");
	indent_lines(&t, ind, NULL, &s->devs);
	sb_free(&t);
	if (depth >= 7)		/* USB 2.0 4.1.1: five hubs deep at most */
		return;
	for (port = 0;; port = next) {
		next = INT_MAX;
		ch = -1;
		for (k = 1; k < 128; k++) {
			if (!db->show[k] || db->done[k] || s->dev_ctx == NULL ||
			    (c = dec_ctx_device(s->dev_ctx, db->bus,
			    (uint8_t)k)) == NULL || c->parent != dev ||
			    c->port <= port || c->port >= next)
				continue;
			next = c->port;
			ch = (int)k;
		}
		if (ch < 0)
			break;
		devices_node(db, ch, depth + 1);
	}
}

/* A device at the top of its bus, after the bus's line if it is the
 * first. */
static void
devices_top(struct devs_bus *db, int dev, int *hdr)
{
	if (!*hdr) {
		sb_printf(&db->s->devs, "Bus %u", db->bus);
		line_end(&db->s->devs, NULL);
		*hdr = 1;
	}
	devices_node(db, dev, 0);
}

/*
 * Live from usbmon: the devices sysfs has now, under the live source's
 * root (cap_live_root: URBSCOPE_SYSROOT), and the module aliases of the
 * running kernel there, read the first time.  None (*n 0) when sysfs
 * cannot be read.
 */
static void
why_scan(struct tui_screen *s, char *sysroot, size_t size,
    struct sysfs_usb_dev **sys, size_t *n)
{
	struct why_modules *m;
	char		 dir[4096], err[256];

	snprintf(sysroot, size, "%s/sys", cap_live_root());
	if (s->dev_mods == NULL) {
		if ((m = calloc(1, sizeof *m)) == NULL)
			return;
		why_modules_dir(cap_live_root(), dir, sizeof dir);
		if (why_modules_load(m, dir) != 0) {
			why_modules_free(m);
			free(m);
			return;
		}
		s->dev_mods = m;
	}
	if (sysfs_usb_scan(sysroot, sys, n, err, sizeof err) != 0) {
		*sys = NULL;
		*n = 0;
	}
}

/*
 * Build the lines from the device state and the driver events so far:
 * each bus, its devices as a tree of hubs and ports where the capture
 * says which port each was reset on before its address (dec_dev.parent,
 * port), otherwise by address at the top.
 */
static void
devices_build(struct tui_screen *s)
{
	const struct dec_ctx *ctx = s->dev_ctx;
	const struct dec_dev *d;
	struct devs_bus	 db;
	struct tui_model *m = s->m;
	struct sysfs_usb_dev *sys = NULL;
	uint8_t	 seen[256][16];		/* [devnum][bus 0..15] */
	char	 sysroot[4096];
	size_t	 i, k, lines = 0, nsys = 0;
	uint16_t bus;
	int	 dev, any = 0, hdr, top;

	s->dev_built = 1;
	if (s->dev_usbmon)
		why_scan(s, sysroot, sizeof sysroot, &sys, &nsys);
	s->devs.len = 0;
	sb_puts(&s->devs, "(all devices: no filter)");
	line_end(&s->devs, "");
	memset(seen, 0, sizeof seen);
	for (i = 0; i < m->n; i++)
		if (m->item[i].busnum < 16)
			seen[m->item[i].devnum][m->item[i].busnum] = 1;
	for (bus = 0; bus < 16; bus++) {
		memset(&db, 0, sizeof db);
		db.s = s;
		db.sys = sys;
		db.nsys = nsys;
		db.sysroot = sysroot;
		db.bus = bus;
		hdr = 0;
		for (dev = 0; dev < 128; dev++) {
			if (!seen[dev][bus])
				continue;
			d = ctx != NULL ? dec_ctx_device(ctx, bus,
			    (uint8_t)dev) : NULL;
			if (d == NULL && tui_corr_find_dev(m->corr, bus,
			    (uint8_t)dev) == NULL)
				continue;
			/* the device seen at the default address during
			 * enumeration is listed under its address */
			if (dev == 0 && d != NULL && d->addressed &&
			    tui_corr_find_dev(m->corr, bus, 0) == NULL)
				continue;
			db.show[dev] = 1;
		}
		for (dev = 0; dev < 128; dev++) {
			if (!db.show[dev] || db.done[dev])
				continue;
			d = ctx != NULL ? dec_ctx_device(ctx, bus,
			    (uint8_t)dev) : NULL;
			/* at the top: no port known, or its hub not listed */
			top = d == NULL || d->port == 0 || d->parent >= 128 ||
			    !db.show[d->parent];
			if (!top)
				continue;
			devices_top(&db, dev, &hdr);
		}
		/* devices on a hub whose own hub chain loops */
		for (dev = 0; dev < 128; dev++)
			if (db.show[dev] && !db.done[dev])
				devices_top(&db, dev, &hdr);
		any |= hdr;
	}
	if (!any)
		sb_puts(&s->devs, ctx == NULL ? "(no device state: the input "
		    "did not load to its end)\n" : "(no devices)\n");
	sysfs_usb_free(sys, nsys);
	for (k = 0; k < s->devs.len; k++)
		if (s->devs.s[k] == '\n')
			lines++;
	s->dev_lines = lines;
}

/* Line k of s->devs: its text [*t, *te) and filter [*f, *fe), or -1. */
static int
devices_line(const struct tui_screen *s, size_t k, const char **t,
    const char **te, const char **f, const char **fe)
{
	const char *p = s->devs.s, *e, *sep;

	if (p == NULL)
		return -1;
	for (; k > 0 && p != NULL; k--)
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	if (p == NULL || (e = strchr(p, '\n')) == NULL)
		return -1;
	sep = memchr(p, TARGET_SEP, (size_t)(e - p));
	*t = p;
	*te = sep != NULL ? sep : e;
	*f = sep != NULL ? sep + 1 : NULL;
	*fe = e;
	return 0;
}

/* After a rebuild, put the cursor back on the item it was on. */
static void
devices_recursor(struct tui_screen *s)
{
	const char *t, *te, *f, *fe;
	size_t	 k;

	if (s->dev_cur_filter[0] != '\0')
		for (k = 0; devices_line(s, k, &t, &te, &f, &fe) == 0; k++)
			if (f != NULL && (size_t)(fe - f) ==
			    strlen(s->dev_cur_filter) && strncmp(f,
			    s->dev_cur_filter, (size_t)(fe - f)) == 0) {
				s->dev_cur = k;
				return;
			}
	if (s->dev_cur >= s->dev_lines)
		s->dev_cur = s->dev_lines ? s->dev_lines - 1 : 0;
}

static void
devices_draw(struct tui_screen *s, const struct tui_rect *r)
{
	const char *t, *te, *f, *fe;
	char	 line[512];
	size_t	 k;
	int	 y, cur;

	if (!s->dev_built) {
		devices_build(s);
		devices_recursor(s);
	}
	if (s->dev_cur < s->dev_top)
		s->dev_top = s->dev_cur;
	if (r->h > 0 && s->dev_cur >= s->dev_top + (size_t)r->h)
		s->dev_top = s->dev_cur - (size_t)r->h + 1;
	for (y = 0; y < r->h; y++) {
		k = s->dev_top + (size_t)y;
		tui_clear(r->y + y, r->x, r->w);
		if (devices_line(s, k, &t, &te, &f, &fe) != 0)
			continue;
		cur = k == s->dev_cur && s->focus == 1;
		snprintf(line, sizeof line, "%c%.*s", k == s->dev_cur ? '>' :
		    ' ', (int)(te - t), t);
		if (cur)
			attron(A_REVERSE);
		tui_put(s, r->y + y, r->x, line, r->w);
		if (cur)
			attroff(A_REVERSE);
	}
}

/* Filter the timeline to the cursor's item: the line's, or the one of
 * the nearest line above that has one (a driver or endpoint line belongs
 * to its interface, a configuration to its device). */
static void
devices_apply(struct tui_screen *s)
{
	const char *t, *te, *f = NULL, *fe;
	char	 expr[256];
	size_t	 k = s->dev_cur + 1;

	while (k-- > 0)
		if (devices_line(s, k, &t, &te, &f, &fe) != 0 || f != NULL)
			break;
	if (f == NULL)
		return;
	snprintf(expr, sizeof expr, "%.*s", (int)(fe - f), f);
	snprintf(s->dev_cur_filter, sizeof s->dev_cur_filter, "%s", expr);
	if (strcmp(expr, s->m->ftext) == 0)
		return;
	if (tui_model_set_filter(s->m, expr) != 0) {
		snprintf(s->msg, sizeof s->msg, "%s", s->m->filter.err);
		s->msg_err = 1;
		return;
	}
	snprintf(s->msg, sizeof s->msg, "%s: %zu of %zu records",
	    expr[0] ? expr : "no filter", s->m->nvis, s->m->n);
	s->msg_err = 0;
}

/* The cursor moves over the lines; landing on a device or an interface
 * filters the timeline to it. */
static int
devices_key(struct tui_screen *s, int key)
{
	size_t	 cur = s->dev_cur;

	if (!s->dev_built)
		devices_build(s);
	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		devices_apply(s);
		return 1;
	}
	if (!tui_scroll_key(&cur, s->dev_lines, LINES / 3, key))
		return 0;
	s->dev_cur = cur;
	devices_apply(s);
	return 1;
}

const struct tui_view_ops tui_devices_view = {
	.name = "Devices",
	.draw = devices_draw,
	.key = devices_key,
};
