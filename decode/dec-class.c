/*
 * decode/dec-class.c - the class decoders' table and dispatch: a record
 * goes to the decoder of the interface that owns its endpoint, or that its
 * class request is addressed to; the decoder's state for that interface
 * comes along.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class.h"

/* By (class, subclass, protocol): the first that matches wins, so a
 * decoder of one protocol goes before its class's catch-all. */
static const struct dec_class_ops *const classes[] = {
	&dec_class_hid,
	&dec_class_msc,
	&dec_class_uas,
	&dec_class_cdc,
	&dec_class_cdc_data,
	&dec_class_hub,
	&dec_class_ccid,
	&dec_class_dfu,
	&dec_class_printer,
	&dec_class_audio,
	&dec_class_video,
	&dec_class_bt,
};

const struct dec_class_ops *
dec_class_find(int cls, int subcls, int proto)
{
	const struct dec_class_ops *o;
	size_t	 i;

	for (i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		o = classes[i];
		if (o->cls == cls &&
		    (o->subcls == DEC_CLS_ANY || o->subcls == subcls) &&
		    (o->proto == DEC_CLS_ANY || o->proto == proto))
			return o;
	}
	return NULL;
}

/*
 * The decoder of a record and its interface's state: bulk, interrupt and
 * isochronous records of an interface's endpoint, class requests (type 1)
 * to an interface or endpoint, and hub class requests.  Standard requests
 * are chapter 9's (a class descriptor asked for is dec-desc.c's), vendor
 * requests a product's.
 */
static const struct dec_class_ops *
class_of(const struct urb_rec *r, const struct dec_info *info,
    struct dec_cls_arg *a)
{
	const struct dec_class_ops *o;

	a->r = r;
	a->info = info;
	a->st = NULL;
	if (r->xfer_type == XFER_CTRL) {
		if (!(info->flags & DI_SETUP) ||
		    SETUP_TYPE(&info->setup) != 1)
			return NULL;
		if ((info->flags & DI_HUB) && !(info->flags & DI_CLASS))
			return dec_class_find(0x09, 0, 0);
		/* a Bluetooth controller's HCI commands go to the device
		 * (btusb: USB_TYPE_CLASS, recipient 0) */
		if ((info->flags & DI_DEV_BT) && !(info->flags & DI_CLASS) &&
		    SETUP_RECIP(&info->setup) == 0)
			return &dec_class_bt;
	} else if (r->xfer_type > XFER_BULK)
		return NULL;		/* USBPcap IRPs: no endpoint's */
	if (!(info->flags & DI_CLASS))
		return NULL;
	o = dec_class_find(info->cls, info->subcls, info->proto);
	if (o != NULL)
		a->st = info->st;
	return o;
}

int
dec_class_summary(const struct urb_rec *r, const struct dec_info *info,
    struct sbuf *b)
{
	const struct dec_class_ops *o;
	struct dec_cls_arg a;

	if (r->data_len == 0 || (o = class_of(r, info, &a)) == NULL ||
	    o->summary == NULL)
		return 0;
	return o->summary(&a, b);
}

int
dec_class_tree(const struct urb_rec *r, const struct dec_info *info,
    struct dec_tree *t)
{
	const struct dec_class_ops *o;
	struct dec_cls_arg a;

	int	 left = 0;

	if ((o = class_of(r, info, &a)) == NULL || o->tree == NULL ||
	    (r->data_len == 0 && !o->tree_empty))
		return 0;
	/* (an isochronous URB's bytes are its packets' usb.iso.data) */
	if ((info->flags & DI_GUESSED) && r->data_len > 0 &&
	    r->xfer_type != XFER_ISO &&
	    (o->heuristic == NULL || !o->heuristic(r))) {
		/* Wireshark knows no class for the endpoint: the bytes are
		 * usb.capdata, the guessed class's fields beside them */
		dec_tree_leftover(r, t);
		left = 1;
	}
	return o->tree(&a, t) || left;
}

/* The class decoder whose protocol is s[0..n), or NULL. */
static const struct dec_class_ops *
class_by_proto(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		if (classes[i]->wsproto != NULL &&
		    strncmp(classes[i]->wsproto, s, n) == 0 &&
		    classes[i]->wsproto[n] == '\0')
			return classes[i];
	}
	return NULL;
}

int
dec_cls_no_item(const struct urb_rec *r, const struct dec_info *info,
    int mine)
{
	(void)r;
	(void)info;
	(void)mine;
	return 0;
}

/*
 * A product's protocol (Wireshark's usb.product table): packet-ftdi-ft.c
 * adds its item to every vendor request of the product, submit and
 * completion, and to its bulk payloads.
 */
static int
product_item(const struct urb_rec *r, const struct dec_info *info,
    const char *s, size_t n)
{
	if (n != 7 || strncmp(s, "ftdi-ft", n) != 0)
		return -1;
	if (!(info->flags & DI_IDS) ||
	    dec_product_class(info->vid, info->pid) != DEC_CLS_FTDI)
		return 0;
	if (r->xfer_type == XFER_CTRL)
		return (info->flags & DI_SETUP) &&
		    SETUP_TYPE(&info->setup) == 2;
	return r->xfer_type == XFER_BULK && r->data_len > 0;
}

int
dec_class_proto_item(const struct urb_rec *r, const struct dec_info *info,
    const char *s, size_t n)
{
	const struct dec_class_ops *o;
	struct dec_cls_arg a;
	int	 mine;

	if ((o = class_by_proto(s, n)) == NULL)
		return product_item(r, info, s, n);
	mine = class_of(r, info, &a) == o &&
	    /* a guessed class: Wireshark knows none, unless its heuristic
	     * finds the payload */
	    (!(info->flags & DI_GUESSED) ||
	    (o->heuristic != NULL && o->heuristic(r)));
	if (o->item != NULL)
		return o->item(r, info, mine);
	/* the dissector takes a payload, or a class request's setup (a
	 * control completion without data holds none of its items) */
	return mine && (r->data_len > 0 ||
	    (r->xfer_type == XFER_CTRL && r->type == 'S'));
}

const char *
dec_class_proto_find(const char *s, size_t n)
{
	const struct dec_class_ops *o;

	return (o = class_by_proto(s, n)) != NULL ? o->wsproto : NULL;
}

int
dec_class_learn(const struct urb_rec *r, const struct dec_info *info,
    struct dec_cls_state *st)
{
	const struct dec_class_ops *o;

	if ((o = dec_class_find(info->cls, info->subcls, info->proto)) == NULL)
		return 0;
	if (o->learn != NULL)
		o->learn(r, info, st);
	return o->needs_cfg;
}

void
dec_cls_state_copy(struct dec_cls_state *dst, const struct dec_cls_state *src)
{
	size_t	 i;

	*dst = *src;
	if (src->hid != NULL)
		src->hid->refs++;
	for (i = 0; i < nitems(src->bt_frag); i++)
		if (src->bt_frag[i] != NULL)
			src->bt_frag[i]->refs++;
	if (src->bt_cmds != NULL)
		src->bt_cmds->refs++;
}

int
dec_cls_state_held(const struct dec_cls_state *st)
{
	return st->hid != NULL || st->bt_frag[0] != NULL ||
	    st->bt_frag[1] != NULL || st->bt_frag[2] != NULL ||
	    st->bt_cmds != NULL;
}

void
dec_class_learn_dev(const struct urb_rec *r, const struct dec_info *info,
    struct dec_cls_state *st)
{
	if ((info->flags & DI_DEV_BT) && dec_class_bt.learn != NULL)
		dec_class_bt.learn(r, info, st);
}

void
dec_bt_frag_unref(struct dec_bt_frag *f)
{
	if (f == NULL)
		return;
	if (f->refs > 0)
		f->refs--;
	else
		free(f);
}

void
dec_cls_state_free(struct dec_cls_state *st)
{
	size_t	 i;

	dec_hid_layout_unref(st->hid);
	for (i = 0; i < nitems(st->bt_frag); i++)
		dec_bt_frag_unref(st->bt_frag[i]);
	if (st->bt_cmds != NULL && st->bt_cmds->refs > 0)
		st->bt_cmds->refs--;
	else
		free(st->bt_cmds);
	memset(st, 0, sizeof *st);
}

/* ------------------------------------------------------------------------
 * The class decoders' field cursor (class.h).
 */

static uint32_t
get_le(const uint8_t *p, size_t size)
{
	uint32_t v = 0;

	while (size-- > 0)
		v = v << 8 | p[size];
	return v;
}

int
dec_cur_field(struct dec_cur *c, const struct dec_field *f, size_t off,
    size_t size, uint32_t *v)
{
	struct dec_node	*n;
	uint32_t	 val = 0;

	if (c->cut)
		return 0;
	if (off > c->n || size > c->n - off) {
		c->cut = 1;
		n = dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)
		    (off < c->n ? off : c->n), (uint32_t)(off < c->n ?
		    c->n - off : 0), 0);
		if (n != NULL) {
			n->flags |= DN_CUT | DN_BAD;
			n->note = "the bytes end inside the field";
		}
		return 0;
	}
	if (f->kind != DK_BYTES)
		val = get_le(c->p + off, size);
	dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)off,
	    (uint32_t)size, val);
	if (v != NULL)
		*v = val;
	return 1;
}

void
dec_cls_bits(struct dec_tree *t, const struct dec_field *const *bits,
    uint32_t off, uint32_t len, uint32_t v)
{
	for (; *bits != NULL; bits++)
		dec_tree_add_bits(t, *bits, DB_DATA, off, len, v);
}

int
dec_cur_word(struct dec_cur *c, const struct dec_field *f,
    const struct dec_field *const *b, size_t off, size_t size, uint32_t *v)
{
	uint32_t x;

	if (!dec_cur_field(c, f, off, size, &x))
		return 0;
	dec_cls_bits(c->t, b, c->base + (uint32_t)off, (uint32_t)size, x);
	if (v != NULL)
		*v = x;
	return 1;
}

int
dec_cur_rest(struct dec_cur *c, const struct dec_field *f, size_t off)
{
	if (c->cut || off >= c->n)
		return 0;
	dec_tree_add(c->t, f, DB_DATA, c->base + (uint32_t)off,
	    (uint32_t)(c->n - off), 0);
	return 1;
}

void
dec_cur_rows(struct dec_cur *c, const struct dec_cur_row *r, size_t n)
{
	for (; n > 0 && !c->cut; r++, n--) {
		if (r->bits != NULL)
			dec_cur_word(c, r->f, r->bits, r->at, r->size, NULL);
		else
			dec_cur_field(c, r->f, r->at, r->size, NULL);
	}
}

/* What --decode-as calls the classes (class, subclass, protocol). */
static const struct {
	const char	*name;
	uint8_t		 c[3];
} class_names[] = {
	{ "hid",		{ 0x03, 0x00, 0x00 } },
	{ "hid-keyboard",	{ 0x03, 0x01, 0x01 } },	/* boot protocol */
	{ "hid-mouse",		{ 0x03, 0x01, 0x02 } },
	{ "msc",		{ 0x08, 0x06, 0x50 } },	/* SCSI over BOT */
	{ "uas",		{ 0x08, 0x06, 0x62 } },
	{ "cdc",		{ 0x02, 0x02, 0x01 } },	/* ACM, AT commands */
	{ "cdc-data",		{ 0x0a, 0x00, 0x00 } },
	{ "hub",		{ 0x09, 0x00, 0x00 } },
	{ "audio",		{ 0x01, 0x01, 0x00 } },	/* audio control */
	{ "audio-streaming",	{ 0x01, 0x02, 0x00 } },
	{ "video",		{ 0x0e, 0x01, 0x00 } },	/* video control */
	{ "video-streaming",	{ 0x0e, 0x02, 0x00 } },
	{ "printer",		{ 0x07, 0x01, 0x02 } },
	{ "ccid",		{ 0x0b, 0x00, 0x00 } },
	{ "dfu",		{ 0xfe, 0x01, 0x02 } },
	{ "bluetooth",		{ 0xe0, 0x01, 0x01 } },
	{ "vendor",		{ 0xff, 0x00, 0x00 } },
};

const char *
dec_class_names(void)
{
	static char	 buf[256];
	size_t		 i, len = 0;

	if (buf[0] != '\0')
		return buf;
	for (i = 0; i < sizeof class_names / sizeof class_names[0]; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
		    i > 0 ? ", " : "", class_names[i].name);
	return buf;
}

int
dec_class_by_name(const char *name, size_t n, uint8_t out[3])
{
	size_t	 i;

	for (i = 0; i < sizeof class_names / sizeof class_names[0]; i++) {
		if (strlen(class_names[i].name) == n &&
		    memcmp(class_names[i].name, name, n) == 0) {
			memcpy(out, class_names[i].c, 3);
			return 0;
		}
	}
	return -1;
}
