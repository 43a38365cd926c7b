/*
 * decode/dec-busev.c - a hardware sniffer's bus events: the syslog
 * messages it stores beside the packets, on an exported-PDU interface
 * (LINKTYPE_WIRESHARK_UPPER_PDU, 252, dissector "syslog"), read as
 * Wireshark 4.0 reads them (epan/dissectors/packet-syslog.c: the "<PRI>"
 * of RFC 3164 section 4.1.1, then syslog.msg), and what they say about
 * the bus, in the words of ataradov/usb-sniffer's software/capture.c
 * (status_event, line_state_event, stop_folding, data_event).
 */
#include <string.h>
#include <strings.h>

#include "decode.h"

const struct dec_name dec_bus_evs[] = {
	{ BUS_EV_START, "start" },
	{ BUS_EV_WAIT, "wait" },
	{ BUS_EV_TRIGGER, "trigger" },
	{ BUS_EV_VBUS_ON, "vbus_on" },
	{ BUS_EV_VBUS_OFF, "vbus_off" },
	{ BUS_EV_RESET, "reset" },
	{ BUS_EV_SPEED, "speed" },
	{ BUS_EV_LINE, "line_state" },
	{ BUS_EV_KEEPALIVE, "keep_alive" },
	{ BUS_EV_FOLDED, "folded" },
	{ BUS_EV_UPDATE, "update" },
	{ BUS_EV_OVERFLOW, "overflow" },
	{ BUS_EV_PHY_ERROR, "phy_error" },
	{ BUS_EV_LIMIT, "limit" },
	{ BUS_EV_SUSPEND, "suspend" },
	{ BUS_EV_RESUME, "resume" },
	{ 0, NULL }
};

const struct dec_name dec_bus_speeds[] = {
	{ USBLL_SPEED_LOW, "low" },
	{ USBLL_SPEED_FULL, "full" },
	{ USBLL_SPEED_HIGH, "high" },
	{ 0, NULL }
};

/* How a message says what it is. */
#define M_EXACT		0
#define M_PREFIX	1
#define M_ANYWHERE	2		/* case ignored */

static const struct {
	const char	*text;
	int		 how;
	uint8_t		 ev;
	uint8_t		 speed;
} bus_msgs[] = {
	{ "Starting capture", M_EXACT, BUS_EV_START, 0 },
	{ "Waiting for a trigger", M_EXACT, BUS_EV_WAIT, 0 },
	{ "Trigger input = ", M_PREFIX, BUS_EV_TRIGGER, 0 },
	{ "VBUS ON", M_EXACT, BUS_EV_VBUS_ON, 0 },
	{ "VBUS OFF", M_EXACT, BUS_EV_VBUS_OFF, 0 },
	{ "Detected speed: Low-Speed", M_EXACT, BUS_EV_SPEED,
	    USBLL_SPEED_LOW },
	{ "Detected speed: Full-Speed", M_EXACT, BUS_EV_SPEED,
	    USBLL_SPEED_FULL },
	{ "Detected speed: High-Speed", M_EXACT, BUS_EV_SPEED,
	    USBLL_SPEED_HIGH },
	{ "Line state: ", M_PREFIX, BUS_EV_LINE, 0 },
	{ "Keep-alive", M_EXACT, BUS_EV_KEEPALIVE, 0 },
	{ "Folded ", M_PREFIX, BUS_EV_FOLDED, 0 },
	{ "Periodic update", M_EXACT, BUS_EV_UPDATE, 0 },
	{ "USB PHY error", M_EXACT, BUS_EV_PHY_ERROR, 0 },
	{ "Capture limit reached", M_EXACT, BUS_EV_LIMIT, 0 },
	/* "--- Bus Reset ---"; "Harware buffer overflow" (sic) */
	{ "bus reset", M_ANYWHERE, BUS_EV_RESET, 0 },
	{ "buffer overflow", M_ANYWHERE, BUS_EV_OVERFLOW, 0 },
	/* not ataradov's (it shows line states); other sniffers' words */
	{ "suspend", M_ANYWHERE, BUS_EV_SUSPEND, 0 },
	{ "resume", M_ANYWHERE, BUS_EV_RESUME, 0 },
};

int
dec_bus_ev(const char *msg, uint8_t *speed)
{
	size_t	 i, n, k, m = strlen(msg);

	*speed = 0;
	for (i = 0; i < nitems(bus_msgs); i++) {
		n = strlen(bus_msgs[i].text);
		switch (bus_msgs[i].how) {
		case M_EXACT:
			if (m != n || memcmp(msg, bus_msgs[i].text, n) != 0)
				continue;
			break;
		case M_PREFIX:
			if (m < n || memcmp(msg, bus_msgs[i].text, n) != 0)
				continue;
			break;
		default:
			for (k = 0; k + n <= m; k++) {
				if (strncasecmp(msg + k, bus_msgs[i].text,
				    n) == 0)
					break;
			}
			if (k + n > m)
				continue;
			break;
		}
		*speed = bus_msgs[i].speed;
		return bus_msgs[i].ev;
	}
	return BUS_EV_OTHER;
}

/*
 * The length of the UTF-8 sequence at p (n bytes left), or 0 when it is
 * not one; *bad then says how many bytes one U+FFFD stands for (the
 * maximal subpart of Unicode 15 section 3.9, as GLib and tshark replace).
 * Table 3-7 of the same section gives the well-formed sequences.
 */
static size_t
utf8_len(const uint8_t *p, size_t n, size_t *bad)
{
	uint8_t	 c = p[0], lo = 0x80, hi = 0xbf;
	size_t	 need, k;

	*bad = 1;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1;
	else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;	/* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;	/* nothing past U+10FFFF */
	} else
		return 0;
	for (k = 1; k <= need; k++) {
		if (k >= n || p[k] < lo || p[k] > hi) {
			*bad = k;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

int
dec_syslog_parse(const uint8_t *p, size_t n, int *level, int *facility,
    char *store, size_t size)
{
	const uint8_t *z;
	size_t	 i = 0, k, bad, out = 0;
	int	 pri = 0;

	*level = *facility = -1;
	if (n > 0 && p[0] == '<') {
		/* packet-syslog.c: up to three digits, then '>' if there */
		for (i = 1; i <= 3 && i < n && p[i] >= '0' && p[i] <= '9';
		    i++)
			pri = pri * 10 + (p[i] - '0');
		if (i < n && p[i] == '>')
			i++;
		*level = pri & 7;
		*facility = pri >> 3;
	}
	/* (an FT_STRING ends at its first NUL) */
	if ((z = memchr(p + i, '\0', n - i)) != NULL)
		n = (size_t)(z - p);
	while (i < n) {
		if ((k = utf8_len(p + i, n - i, &bad)) == 0) {
			if (out + 3 >= size)
				return -UE_FULL;
			memcpy(store + out, "\xef\xbf\xbd", 3);
			out += 3;
			i += bad;
			continue;
		}
		if (out + k >= size)
			return -UE_FULL;
		memcpy(store + out, p + i, k);
		out += k;
		i += k;
	}
	if (size == 0)
		return -UE_FULL;
	store[out] = '\0';
	if (out == 0)
		*level = *facility = -1;	/* tshark: no syslog field */
	return (int)out;
}
