/*
 * decode/dec-at.c - AT commands (ITU-T V.250) in USB bulk data, found
 * as Wireshark's heuristic AT dissector finds them (packet-at.c,
 * registered in the "usb.bulk" heuristic table, tried before the class
 * dissector of the endpoint): data that starts with "\r\n", "\r\r\n" or
 * "AT" and is all printable ASCII, CR and LF, or such text of more than 4
 * characters followed by NUL padding only.
 *
 * What is shown is the protocol (at) and its generated at.role: the DTE
 * (2, the host) sent it, the DCE (1, the modem) answered.  The commands
 * themselves (at.data, at.command, at.cmd, ...) are not decoded here.
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

#define AT_MIN_PADDED	4	/* MIN_PADDED_ALLOWED_CHARS */

/* g_ascii_isprint, CR or LF */
static int
at_char(uint8_t c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\r' || c == '\n';
}

int
dec_at_heuristic(const uint8_t *p, size_t n)
{
	size_t	 i, text;

	if (!((n >= 2 && p[0] == '\r' && p[1] == '\n') ||
	    (n >= 3 && p[0] == '\r' && p[1] == '\r' && p[2] == '\n') ||
	    (n >= 2 && p[0] == 'A' && p[1] == 'T')))
		return 0;
	for (text = 0; text < n && at_char(p[text]); text++)
		continue;
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

void
dec_at_tree(const struct urb_rec *r, struct dec_tree *t)
{
	/* (the direction: sent by the host is the DTE's) */
	dec_tree_add(t, &f_at, DB_DATA, 0, r->data_len, 0);
	t->depth++;
	dec_tree_add(t, &f_role, DB_NONE, 0, 0,
	    (r->epnum & 0x80) ? 1 : 2);
	t->depth--;
}
