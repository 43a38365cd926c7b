/*
 * core/anchor.c - URB anchors and poisoning, as drivers/usb/core/urb.c
 * has them since 2.6.23 (Documentation/driver-api/usb/anchors.rst): an
 * anchor holds a reference on each URB on it; giveback unanchors a URB
 * before its completion runs; killing an anchor kills its URBs newest
 * first; a poisoned anchor or URB refuses submissions with -EPERM.
 */
#include "core/core.h"

void
usb_anchor_urb(struct urb *urb, struct usb_anchor *anchor)
{
	usb_get_urb(urb);
	list_add_tail(&urb->anchor_list, &anchor->urb_list);
	urb->anchor = anchor;
	if (anchor->poisoned)
		urb->reject++;
}

void
usb_unanchor_urb(struct urb *urb)
{
	if (urb == NULL || urb->anchor == NULL)
		return;
	list_del_init(&urb->anchor_list);
	urb->anchor = NULL;
	usb_free_urb(urb);		/* the anchor's reference */
}

/* The newest URB on the anchor with a reference for the caller, or NULL. */
static struct urb *
anchor_last(struct usb_anchor *anchor)
{
	struct urb	*urb;

	if (list_empty(&anchor->urb_list))
		return NULL;
	urb = container_of(anchor->urb_list.prev, struct urb, anchor_list);
	return usb_get_urb(urb);
}

void
usb_kill_anchored_urbs(struct usb_anchor *anchor)
{
	struct urb	*urb, *last = NULL;

	/* Each kill takes the URB off (giveback unanchors it); a URB that
	 * is not in flight stays, so stop when the same one comes back. */
	while ((urb = anchor_last(anchor)) != NULL) {
		if (urb == last) {
			usb_free_urb(urb);
			break;
		}
		usb_kill_urb(urb);
		last = urb;
		usb_free_urb(urb);
	}
}

void
usb_poison_anchored_urbs(struct usb_anchor *anchor)
{
	struct list_head *p;
	struct urb	*urb;

	anchor->poisoned = 1;
	for (p = anchor->urb_list.next; p != &anchor->urb_list; p = p->next) {
		urb = container_of(p, struct urb, anchor_list);
		urb->reject++;
	}
	usb_kill_anchored_urbs(anchor);
}

void
usb_unpoison_anchored_urbs(struct usb_anchor *anchor)
{
	struct list_head *p;
	struct urb	*urb;

	for (p = anchor->urb_list.next; p != &anchor->urb_list; p = p->next) {
		urb = container_of(p, struct urb, anchor_list);
		if (urb->reject > 0)
			urb->reject--;
	}
	anchor->poisoned = 0;
}

void
usb_unlink_anchored_urbs(struct usb_anchor *anchor)
{
	struct list_head *p, *n;
	struct urb	*urb;

	for (p = anchor->urb_list.prev; p != &anchor->urb_list; p = n) {
		n = p->prev;
		urb = container_of(p, struct urb, anchor_list);
		usb_unlink_urb(urb);
	}
}

void
usb_scuttle_anchored_urbs(struct usb_anchor *anchor)
{
	struct urb	*urb;

	while (!list_empty(&anchor->urb_list)) {
		urb = container_of(anchor->urb_list.prev, struct urb,
		    anchor_list);
		usb_unanchor_urb(urb);
	}
}

struct urb *
usb_get_from_anchor(struct usb_anchor *anchor)
{
	struct urb	*urb;

	if (list_empty(&anchor->urb_list))
		return NULL;
	urb = container_of(anchor->urb_list.next, struct urb, anchor_list);
	usb_get_urb(urb);
	usb_unanchor_urb(urb);
	return urb;
}

int
usb_anchor_empty(struct usb_anchor *anchor)
{
	return list_empty(&anchor->urb_list);
}

static int
anchor_is_empty(void *arg)
{
	return usb_anchor_empty(arg);
}

int
usb_wait_anchor_empty_timeout(struct usb_anchor *anchor,
    unsigned int timeout)
{
	struct sim	*s = sim_current;

	if (usb_anchor_empty(anchor))
		return 1;
	if (s == NULL || !core_may_sleep("usb_wait_anchor_empty_timeout"))
		return usb_anchor_empty(anchor);
	sim_wait(s, anchor_is_empty, anchor, s->now_ns +
	    (uint64_t)timeout * SIM_MS);
	return usb_anchor_empty(anchor);
}

void
usb_poison_urb(struct urb *urb)
{
	if (urb == NULL)
		return;
	urb->reject++;
	usb_kill_urb(urb);
}

void
usb_unpoison_urb(struct urb *urb)
{
	if (urb != NULL && urb->reject > 0)
		urb->reject--;
}
