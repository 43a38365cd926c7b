/*
 * decode/dec-at.c - AT commands (ITU-T V.250) in USB bulk data, found
 * as Wireshark's heuristic AT dissector finds them (packet-at.c,
 * registered in the "usb.bulk" heuristic table, tried before the class
 * dissector of the endpoint): data that starts with "\r\n", "\r\r\n" or
 * "AT" and is all printable ASCII, CR and LF, or such text of more than 4
 * characters followed by NUL padding only.
 *
 * What is shown is the protocol (at), its generated at.role (the DTE, 2,
 * the host, sent it; the DCE, 1, the modem, answered) and the stream
 * (at.data).  The commands in it (at.command, at.cmd, ...) are not
 * decoded here.
 */
#include "class.h"

#define F	DEC_FIELD

F(f_at, "AT Command", "at", DK_LABEL, 0, NULL, 0);

static const struct dec_name at_roles[] = {	/* packet-at.c role_vals */
	{ 0, "Unknown" },
	{ 1, "DCE - Data Circuit terminating Equipment (Modem)" },
	{ 2, "DTE - Data Terminal Equipment (PC)" },
	{ 0, NULL }
};

F(f_role, "Role", "at.role", DK_UINT, 1, at_roles, 0);
F(f_data, "AT Stream", "at.data", DK_STRING, 0, NULL, 0);

#define AT_MIN_PADDED	4	/* MIN_PADDED_ALLOWED_CHARS */

/* g_ascii_isprint, CR or LF */
static int
at_char(uint8_t c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\r' || c == '\n';
}

/* The length of the text at p[0..n): printable, CR and LF. */
static size_t
at_text(const uint8_t *p, size_t n)
{
	size_t	 text;

	for (text = 0; text < n && at_char(p[text]); text++)
		continue;
	return text;
}

int
dec_at_heuristic(const uint8_t *p, size_t n)
{
	size_t	 i, text;

	if (!((n >= 2 && p[0] == '\r' && p[1] == '\n') ||
	    (n >= 3 && p[0] == '\r' && p[1] == '\r' && p[2] == '\n') ||
	    (n >= 2 && p[0] == 'A' && p[1] == 'T')))
		return 0;
	text = at_text(p, n);
	if (text == n)
		return 1;
	if (text <= AT_MIN_PADDED)
		return 0;
	for (i = text; i < n; i++) {
		if (p[i] != 0x00)
			return 0;
	}
	return 1;
}

/* The text p[0..n) as Wireshark shows a string (format_text): CR, LF
 * and backslash escaped. */
static const char *
at_escaped(struct dec_tree *t, const uint8_t *p, size_t n)
{
	size_t	 i, len = 0;
	char	*s, *o;

	for (i = 0; i < n; i++)
		len += p[i] == '\r' || p[i] == '\n' || p[i] == '\\' ? 2 : 1;
	if ((s = dec_tree_alloc(t, len)) == NULL)
		return NULL;
	for (i = 0, o = s; i < n; i++) {
		if (p[i] == '\r' || p[i] == '\n' || p[i] == '\\') {
			*o++ = '\\';
			*o++ = p[i] == '\r' ? 'r' : p[i] == '\n' ? 'n' : '\\';
		} else
			*o++ = (char)p[i];
	}
	return s;
}

/* The transfer's length as tshark reports the payload: usbmon's
 * urb_len (more than the capture has when usbmon cut the data at its
 * len_cap), the header's length for the other formats. */
static uint32_t
at_reported(const struct urb_rec *r)
{
	if (r->origin == URB_ORIGIN_USBPCAP || r->origin == URB_ORIGIN_DARWIN)
		return urb_data_expected(r);
	return r->len_urb;
}

void
dec_at_tree(const struct urb_rec *r, struct dec_tree *t)
{
	struct dec_node	*n;
	size_t		 text = at_text(r->data, r->data_len);

	dec_tree_add(t, &f_at, DB_DATA, 0, r->data_len, 0);
	t->depth++;
	/* (the direction: sent by the host is the DTE's) */
	dec_tree_add(t, &f_role, DB_NONE, 0, 0,
	    (r->epnum & 0x80) ? 1 : 2);
	/* the stream; when the capture has less than the transfer's
	 * bytes, tshark stops at the reported length it cannot read (a
	 * padded text is cut to its characters: never short) */
	if (text < r->data_len || at_reported(r) <= r->data_len) {
		n = dec_tree_add(t, &f_data, DB_DATA, 0, (uint32_t)text, 0);
		if (n != NULL)
			n->str = at_escaped(t, r->data, text);
	}
	t->depth--;
}
