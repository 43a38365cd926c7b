/*
 * tui/tui-devices.c - the Devices view ('d' shows it in place of the
 * details): every device of the capture as the end of the input left it,
 * from the decoder's device state: bus, address, VID:PID and class, the
 * active configuration, its interfaces (current alternate setting, class)
 * and their endpoints.  Drivers bound to interfaces come later, from the
 * driver events.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui-view.h"

static const char *
class_name(uint8_t cls, char *tmp)
{
	return dec_name_or(dec_classes, cls, tmp);
}

/* The interfaces and endpoints of configuration descriptors p[0..n). */
static void
config_lines(const struct dec_dev *d, const uint8_t *p, size_t n,
    struct sbuf *b)
{
	static const char *const xfer[] = { "ctrl", "iso", "bulk", "int" };
	char	 tmp[24];
	size_t	 off = 0;
	int	 shown = 0;
	uint8_t	 len, intf, alt;

	while (off + 2 <= n) {
		len = p[off];
		if (len < 2 || off + len > n)
			break;
		if (p[off + 1] == USB_DT_INTERFACE && len >= 9) {
			intf = p[off + 2];
			alt = p[off + 3];
			shown = intf >= DEC_MAX_INTFS || d->alt[intf] == alt;
			if (shown)
				sb_printf(b, "      interface %u alt %u: %s "
				    "(0x%02x) sub 0x%02x proto 0x%02x\n", intf,
				    alt, class_name(p[off + 5], tmp),
				    p[off + 5], p[off + 6], p[off + 7]);
		} else if (p[off + 1] == USB_DT_ENDPOINT && len >= 7 && shown)
			sb_printf(b, "        ep 0x%02x %s %s mps %u\n",
			    p[off + 2], p[off + 2] & 0x80 ? "in" : "out",
			    xfer[p[off + 3] & 3],
			    get_le16(p + off + 4) & 0x7ff);
		off += len;
	}
}

/* Build the lines once: the state does not change after loading. */
static void
devices_build(struct tui_screen *s)
{
	const struct dec_ctx *ctx = s->dev_ctx;
	const struct dec_dev *d;
	struct tui_model *m = s->m;
	uint8_t	 seen[256][16];		/* [devnum][bus 0..15] */
	char	 tmp[24];
	size_t	 i, k, lines = 0;
	uint16_t bus, lastbus = UINT16_MAX;
	int	 dev;

	s->dev_built = 1;
	s->devs.len = 0;
	if (ctx == NULL) {
		sb_puts(&s->devs, "(no device state: the input did not load "
		    "to its end)\n");
		goto count;
	}
	memset(seen, 0, sizeof seen);
	for (i = 0; i < m->n; i++)
		if (m->item[i].busnum < 16)
			seen[m->item[i].devnum][m->item[i].busnum] = 1;
	for (bus = 0; bus < 16; bus++) {
		for (dev = 0; dev < 128; dev++) {
			if (!seen[dev][bus] ||
			    (d = dec_ctx_device(ctx, bus, (uint8_t)dev)) ==
			    NULL)
				continue;
			if (bus != lastbus) {
				sb_printf(&s->devs, "Bus %u\n", bus);
				lastbus = bus;
			}
			if (!d->has_ddesc) {
				sb_printf(&s->devs, "  %u.%u  (no device "
				    "descriptor seen)\n", bus, dev);
				continue;
			}
			sb_printf(&s->devs, "  %u.%u  %04x:%04x  USB %x.%02x  "
			    "%s (0x%02x)%s\n", bus, dev,
			    get_le16(d->ddesc + 8), get_le16(d->ddesc + 10),
			    d->ddesc[3], d->ddesc[2], d->ddesc[4] ?
			    class_name(d->ddesc[4], tmp) : "per interface",
			    d->ddesc[4], dev == 0 ? "  at the default "
			    "address, before SET_ADDRESS" : "");
			if (d->config == 0) {
				sb_puts(&s->devs, "    not configured\n");
				continue;
			}
			sb_printf(&s->devs, "    configuration %u\n",
			    d->config);
			for (k = 0; k < DEC_MAX_CONFIGS; k++)
				if (d->cfg[k] != NULL && d->cfg_len[k] >= 9 &&
				    d->cfg[k][5] == d->config)
					config_lines(d, d->cfg[k],
					    d->cfg_len[k], &s->devs);
		}
	}
	if (s->devs.len == 0)
		sb_puts(&s->devs, "(no devices)\n");
count:
	for (k = 0; k < s->devs.len; k++)
		if (s->devs.s[k] == '\n')
			lines++;
	s->dev_lines = lines;
}

static void
devices_draw(struct tui_screen *s, const struct tui_rect *r)
{
	if (!s->dev_built)
		devices_build(s);
	tui_draw_text(s, r, s->devs.s, s->dev_top);
}

static int
devices_key(struct tui_screen *s, int key)
{
	return tui_scroll_key(&s->dev_top, s->dev_lines, LINES / 3, key);
}

const struct tui_view_ops tui_devices_view = {
	.name = "Devices",
	.draw = devices_draw,
	.key = devices_key,
};
