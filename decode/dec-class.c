/*
 * decode/dec-class.c - the class decoders' table and dispatch: a record
 * goes to the decoder of the interface that owns its endpoint, or that its
 * class request is addressed to; the decoder's state for that interface
 * comes along.
 */
#include <stdlib.h>
#include <string.h>

#include "class.h"

/* By (class, subclass, protocol): the first that matches wins, so a
 * decoder of one protocol goes before its class's catch-all. */
static const struct dec_class_ops *const classes[] = {
	&dec_class_hid,
	&dec_class_msc,
	&dec_class_uas,
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
	} else if (r->xfer_type > XFER_BULK)
		return NULL;		/* USBPcap IRPs: no endpoint's */
	if (!(info->flags & DI_CLASS))
		return NULL;
	o = dec_class_find(info->cls, info->subcls, info->proto);
	if (o != NULL && info->dev != NULL && info->intf >= 0 &&
	    info->intf < DEC_MAX_INTFS)
		a->st = &info->dev->cls[info->intf];
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

	if ((o = class_of(r, info, &a)) == NULL || o->tree == NULL)
		return 0;
	return o->tree(&a, t);
}

void
dec_class_learn(struct dec_dev *d, const struct urb_rec *r,
    const struct dec_info *info)
{
	const struct dec_class_ops *o;

	if (!(info->flags & DI_CLASS) || info->intf < 0 ||
	    info->intf >= DEC_MAX_INTFS)
		return;
	/* (a standard request to the interface may carry a class
	 * descriptor: GET_DESCRIPTOR(HID_REPORT) teaches HID its layout) */
	o = dec_class_find(info->cls, info->subcls, info->proto);
	if (o != NULL && o->learn != NULL)
		o->learn(r, info, &d->cls[info->intf]);
}

int
dec_cls_state_copy(struct dec_cls_state *dst, const struct dec_cls_state *src)
{
	*dst = *src;
	if (src->rdesc == NULL)
		return 0;
	if ((dst->rdesc = malloc(src->rdesc_len)) == NULL) {
		dst->rdesc_len = 0;
		return -UE_NOMEM;
	}
	memcpy(dst->rdesc, src->rdesc, src->rdesc_len);
	return 0;
}

void
dec_cls_state_free(struct dec_cls_state *st)
{
	free(st->rdesc);
	memset(st, 0, sizeof *st);
}
