/*
 * core/urb.c - URB life cycle (drivers/usb/core/urb.c): allocation at
 * stable addresses, reference counts, usb_submit_urb's checks, unlink and
 * kill, and the small context helpers (in_interrupt, msleep).
 *
 * URBs submitted by drivers (inside a core_enter_driver frame) are
 * remembered with their driver: DRV_SUBMIT, DRV_UNLINK, DRV_KILL and
 * DRV_GIVEBACK events name it, and their completion handlers run in its
 * name.  The id of these events is the URB's address, as in the usbmon
 * records.  Rules checked at submit: "gfp-kernel-in-atomic",
 * "submit-active-urb", "submit-after-disconnect" and
 * "resubmit-on-shutdown".  The last is reported once per URB; a handler
 * resubmitting after -ESHUTDOWN/-ENOENT/-ECONNRESET more than
 * URB_MAX_BAD_RESUBMITS times in a row is refused with -ESHUTDOWN, so a
 * driver that never checks the status cannot loop for ever.
 *
 * An URB's address is its usbmon id, so captures are byte-identical run
 * to run only if URBs land at the same addresses.  They come from an arena
 * mapped at URB_ARENA_BASE: one region per power-of-two size class, slots
 * handed out in address order and reused last-freed-first, as a kernel
 * slab does (the real capture shows the same id for every usb_control_msg
 * of a thread).  Under AddressSanitizer freed slots are poisoned, so a
 * driver touching a freed URB is caught as KASAN would catch it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/core.h"
#include "core/hcd.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define URB_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define URB_ASAN 1
#endif

#ifdef URB_ASAN
#include <sanitizer/asan_interface.h>
#define urb_poison(p, n)	ASAN_POISON_MEMORY_REGION((p), (n))
#define urb_unpoison(p, n)	ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define urb_poison(p, n)	do { (void)(p); (void)(n); } while (0)
#define urb_unpoison(p, n)	do { (void)(p); (void)(n); } while (0)
#endif

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif

#define URB_MAX_BAD_RESUBMITS	8

/* A driver's URB (core.h: c->urb_info hashes them by address). */
struct urb_info {
	struct urb	*urb;
	const char	*driver;	/* who submitted it last */
	struct usb_interface *intf;	/* its endpoint's, while it exists */
	int		 orphan;	/* that interface was unbound and
					 * freed (urb_intf_gone) */
	int		 bad_resubmits;	/* in a row, after a shutdown status */
	int		 reported;	/* resubmit-on-shutdown said once */
	struct urb_info	*next;
};

#define URB_INFO_HASH(urb)	(((uintptr_t)(urb) >> 8) % 64)

static struct urb_info *
urb_info_find(struct usb_core *c, const struct urb *urb)
{
	struct urb_info	*i;

	if (c == NULL)
		return NULL;
	for (i = c->urb_info[URB_INFO_HASH(urb)]; i != NULL; i = i->next) {
		if (i->urb == urb)
			return i;
	}
	return NULL;
}

static struct urb_info *
urb_info_get(struct usb_core *c, struct urb *urb)
{
	struct urb_info	*i;

	if ((i = urb_info_find(c, urb)) != NULL)
		return i;
	if ((i = calloc(1, sizeof *i)) == NULL)
		return NULL;
	i->urb = urb;
	i->next = c->urb_info[URB_INFO_HASH(urb)];
	c->urb_info[URB_INFO_HASH(urb)] = i;
	return i;
}

static void
urb_info_forget(struct usb_core *c, const struct urb *urb)
{
	struct urb_info	**pp, *i;

	if (c == NULL)
		return;
	for (pp = &c->urb_info[URB_INFO_HASH(urb)]; (i = *pp) != NULL;
	    pp = &i->next) {
		if (i->urb == urb) {
			*pp = i->next;
			free(i);
			return;
		}
	}
}

void
urb_intf_gone(struct usb_interface *intf)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;
	struct urb_info	*i;
	int		 h;

	if (c == NULL || intf == NULL)
		return;
	for (h = 0; h < 64; h++) {
		for (i = c->urb_info[h]; i != NULL; i = i->next) {
			if (i->intf == intf) {
				i->intf = NULL;
				i->orphan = 1;
			}
		}
	}
}

void
urb_info_free(struct usb_core *c)
{
	struct urb_info	*i, *n;
	int		 h;

	for (h = 0; h < 64; h++) {
		for (i = c->urb_info[h]; i != NULL; i = n) {
			n = i->next;
			free(i);
		}
		c->urb_info[h] = NULL;
	}
}

/* Each size class has its own region of the arena. */
#define URB_REGION	(URB_ARENA_SIZE / URB_NCLASSES / 4096 * 4096)

/* Per class: the next never-used slot and the stack of freed ones. */
struct urb_class {
	size_t		 next;
	uint32_t	*freed;
	size_t		 nfreed, cap;
};

struct urb_arena {
	uint8_t		*base;
	struct urb_class cls[URB_NCLASSES];
};

static size_t
class_size(int cls)
{
	return (size_t)URB_SLOT_MIN << cls;
}

static int
size_class(size_t size)
{
	int	 cls;

	for (cls = 0; cls < URB_NCLASSES; cls++) {
		if (class_size(cls) >= size)
			return cls;
	}
	return -1;
}

static struct urb_arena *
arena_of(struct core_arena *ca)
{
	return ca->a;
}

/* Map an arena at its fixed address; on failure memory comes from calloc. */
static void
arena_map(struct usb_core *c, struct core_arena *ca)
{
	struct urb_arena *a;
	void		*p;

	ca->tried = 1;
	if ((a = calloc(1, sizeof *a)) == NULL)
		goto fail;
	p = mmap((void *)(uintptr_t)ca->base, URB_ARENA_SIZE,
	    PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
	    -1, 0);
	if (p == MAP_FAILED)
		goto fail;
	if (p != (void *)(uintptr_t)ca->base) {
		/* an old kernel took the address as a hint only */
		munmap(p, URB_ARENA_SIZE);
		goto fail;
	}
	a->base = p;
	urb_poison(a->base, URB_ARENA_SIZE);
	ca->a = a;
	return;
fail:
	free(a);
	if (!c->arena_warned) {
		fprintf(stderr, "urbscope: cannot map an arena at %#llx; "
		    "URB ids and pointers will differ from run to run\n",
		    (unsigned long long)ca->base);
		c->arena_warned = 1;
	}
}

static void *
arena_alloc(struct usb_core *c, struct core_arena *ca, size_t size)
{
	struct urb_arena *a;
	struct urb_class *k;
	uint8_t		*p;
	size_t		 idx;
	int		 cls;

	if (!ca->tried)
		arena_map(c, ca);
	if ((a = arena_of(ca)) == NULL || (cls = size_class(size)) < 0)
		return NULL;
	k = &a->cls[cls];
	if (k->nfreed > 0)
		idx = k->freed[--k->nfreed];
	else {
		if ((k->next + 1) * class_size(cls) > URB_REGION)
			return NULL;
		idx = k->next++;
	}
	p = a->base + (size_t)cls * URB_REGION + idx * class_size(cls);
	urb_unpoison(p, class_size(cls));
	memset(p, 0, class_size(cls));
	return p;
}

/* 1 if p was freed into the arena, 0 if it is not an arena pointer. */
static int
arena_release(struct core_arena *ca, void *p)
{
	struct urb_arena *a;
	struct urb_class *k;
	uintptr_t	 off;
	uint32_t	*n;
	size_t		 cls, idx;

	if (ca == NULL || (a = arena_of(ca)) == NULL)
		return 0;
	if ((uint8_t *)p < a->base || (uint8_t *)p >= a->base + URB_ARENA_SIZE)
		return 0;
	off = (uintptr_t)((uint8_t *)p - a->base);
	cls = off / URB_REGION;
	if (cls >= URB_NCLASSES)
		return 0;
	idx = (off % URB_REGION) / class_size((int)cls);
	k = &a->cls[cls];
	if (k->nfreed == k->cap) {
		n = reallocarray(k->freed, k->cap ? k->cap * 2 : 64,
		    sizeof *n);
		if (n == NULL)
			return 1;	/* leak the slot rather than fail */
		k->freed = n;
		k->cap = k->cap ? k->cap * 2 : 64;
	}
	k->freed[k->nfreed++] = (uint32_t)idx;
	urb_poison(p, class_size((int)cls));
	return 1;
}

static void
arena_unmap(struct core_arena *ca)
{
	struct urb_arena *a;
	int		 i;

	if ((a = arena_of(ca)) == NULL)
		return;
	/* the next arena at this address must not find stale poison */
	urb_unpoison(a->base, URB_ARENA_SIZE);
	munmap(a->base, URB_ARENA_SIZE);
	for (i = 0; i < URB_NCLASSES; i++)
		free(a->cls[i].freed);
	free(a);
	ca->a = NULL;
	ca->tried = 0;
}

void
urb_arena_free(struct usb_core *c)
{
	arena_unmap(&c->arena);
	arena_unmap(&c->heap);
}

void *
core_heap_alloc(struct usb_core *c, size_t size)
{
	return arena_alloc(c, &c->heap, size);
}

int
core_heap_free(struct usb_core *c, const void *p)
{
	if (c != NULL && arena_release(&c->heap, (void *)(uintptr_t)p))
		return 1;
	/* arena memory outliving its machine stays where it is */
	return (uintptr_t)p >= HEAP_ARENA_BASE &&
	    (uintptr_t)p < HEAP_ARENA_BASE + URB_ARENA_SIZE;
}

void
usb_init_urb(struct urb *urb)
{
	if (urb == NULL)
		return;
	memset(urb, 0, sizeof *urb);
	urb->kref = 1;
	INIT_LIST_HEAD(&urb->urb_list);
	INIT_LIST_HEAD(&urb->anchor_list);
}

/*
 * Returns a zeroed URB with room for iso_packets ISO descriptors and one
 * reference, or NULL.  mem_flags are those of kmalloc; the checker of
 * issue 4 looks at them, allocation never sleeps here.
 */
struct urb *
usb_alloc_urb(int iso_packets, gfp_t mem_flags)
{
	struct usb_core	*c = NULL;
	struct urb	*urb = NULL;
	size_t		 size;

	(void)core_check_gfp(mem_flags, "usb_alloc_urb", NULL, NULL);
	if (iso_packets < 0 || iso_packets > 65536)
		return NULL;
	size = sizeof *urb + (size_t)iso_packets *
	    sizeof urb->iso_frame_desc[0];
	if (core_sim() != NULL && (c = usb_core_get(core_sim())) != NULL)
		urb = arena_alloc(c, &c->arena, size);
	if (urb == NULL && (urb = calloc(1, size)) == NULL)
		return NULL;
	usb_init_urb(urb);
	if (c != NULL)
		c->urbs_live++;
	return urb;
}

/* Drop a reference; the last one frees the URB (and, with
 * URB_FREE_BUFFER, its buffer, with kfree as in Linux). */
void
usb_free_urb(struct urb *urb)
{
	struct usb_core	*c = NULL;

	if (urb == NULL)
		return;
	if (--urb->kref > 0)
		return;
	if (urb->transfer_flags & URB_FREE_BUFFER)
		kfree(urb->transfer_buffer);
	if (core_sim() != NULL)
		c = core_sim()->core;
	urb_info_forget(c, urb);
	if (c != NULL)
		c->urbs_live--;
	if (c != NULL && arena_release(&c->arena, urb))
		return;
	/* an arena URB outliving its machine stays where it is */
	if ((uintptr_t)urb >= URB_ARENA_BASE &&
	    (uintptr_t)urb < URB_ARENA_BASE + URB_ARENA_SIZE)
		return;
	free(urb);
}

struct urb *
usb_get_urb(struct urb *urb)
{
	if (urb != NULL)
		urb->kref++;
	return urb;
}

struct usb_host_endpoint *
usb_pipe_endpoint(struct usb_device *dev, unsigned int pipe)
{
	struct usb_host_endpoint **eps;

	eps = usb_pipein(pipe) ? dev->ep_in : dev->ep_out;
	return eps[usb_pipeendpoint(pipe)];
}

int
usb_maxpacket(struct usb_device *dev, unsigned int pipe)
{
	struct usb_host_endpoint *ep = usb_pipe_endpoint(dev, pipe);

	if (ep == NULL)
		return 0;
	return le16_to_cpu(ep->desc.wMaxPacketSize) & 0x7ff;
}

/* Largest power of two <= v (v > 0). */
static int
rounddown_pow2(int v)
{
	int	 p = 1;

	while (p <= v / 2)
		p <<= 1;
	return p;
}

/*
 * The checks of Linux's usb_submit_urb (drivers/usb/core/urb.c) in the
 * modern kernel's order, each with its error; then usb_hcd_submit_urb
 * (usbmon 'S', enqueue, 'E' on failure).  The "BOGUS" warnings of the
 * kernel (pipe type vs endpoint type, control direction, flags) are not
 * reported.
 */
static int
submit_checked(struct urb *urb, gfp_t mem_flags)
{
	struct usb_device *dev;
	struct usb_host_endpoint *ep;
	struct usb_ctrlrequest *setup;
	int		 xfertype, is_out, max, n, mult, imax;

	if (urb == NULL || urb->complete == NULL)
		return -EINVAL;
	if (urb->hcpriv != NULL)	/* "URB submitted while active" */
		return core_profile() == CORE_PROFILE_260 ? -EINVAL : -EBUSY;
	dev = urb->dev;
	if (dev == NULL || dev->state < USB_STATE_UNAUTHENTICATED)
		return -ENODEV;
	if ((ep = usb_pipe_endpoint(dev, urb->pipe)) == NULL)
		return -ENOENT;
	urb->ep = ep;
	urb->status = -EINPROGRESS;
	urb->actual_length = 0;

	xfertype = ep->desc.bmAttributes & USB_ENDPOINT_XFERTYPE_MASK;
	if (xfertype == USB_ENDPOINT_XFER_CONTROL) {
		if (urb->setup_packet == NULL)
			return -ENOEXEC;
		setup = (struct usb_ctrlrequest *)(void *)urb->setup_packet;
		is_out = !(setup->bRequestType & USB_DIR_IN) ||
		    setup->wLength == 0;
	} else
		is_out = !(ep->desc.bEndpointAddress & USB_DIR_IN);
	urb->transfer_flags &= ~(unsigned int)URB_DIR_IN;
	if (!is_out)
		urb->transfer_flags |= URB_DIR_IN;

	if (xfertype != USB_ENDPOINT_XFER_CONTROL &&
	    dev->state < USB_STATE_CONFIGURED)
		return -ENODEV;

	max = le16_to_cpu(ep->desc.wMaxPacketSize) & 0x7ff;
	if (max <= 0)
		return -EMSGSIZE;

	if (xfertype == USB_ENDPOINT_XFER_ISOC) {
		/* high bandwidth: 1-3 packets per microframe */
		if (dev->speed == USB_SPEED_HIGH) {
			mult = 1 + ((le16_to_cpu(ep->desc.wMaxPacketSize) >>
			    11) & 3);
			max *= mult;
		}
		if (urb->number_of_packets <= 0)
			return -EINVAL;
		for (n = 0; n < urb->number_of_packets; n++) {
			if (urb->iso_frame_desc[n].length > (unsigned int)max)
				return -EMSGSIZE;
			urb->iso_frame_desc[n].status = -EXDEV;
			urb->iso_frame_desc[n].actual_length = 0;
		}
	}
	if (urb->transfer_buffer_length > INT_MAX)
		return -EMSGSIZE;

	/* Periodic intervals: legal powers of two, so HCDs need not care. */
	if (xfertype == USB_ENDPOINT_XFER_ISOC ||
	    xfertype == USB_ENDPOINT_XFER_INT) {
		if (urb->interval <= 0)
			return -EINVAL;
		switch (dev->speed) {
		case USB_SPEED_HIGH:		/* microframes */
			if (urb->interval > 1024 * 8)
				urb->interval = 1024 * 8;
			imax = 1024 * 8;
			break;
		case USB_SPEED_FULL:		/* frames */
		case USB_SPEED_LOW:
			if (xfertype == USB_ENDPOINT_XFER_INT) {
				if (urb->interval > 255)
					return -EINVAL;
				imax = 128;
			} else {
				if (urb->interval > 1024)
					urb->interval = 1024;
				imax = 1024;
			}
			break;
		default:
			return -EINVAL;
		}
		urb->interval = rounddown_pow2(urb->interval);
		if (urb->interval > imax)
			urb->interval = imax;
	}
	return usb_hcd_submit_urb(urb, mem_flags);
}

/* The interface whose current altsetting has endpoint ep, or NULL. */
static struct usb_interface *
ep_interface(struct usb_device *dev, const struct usb_host_endpoint *ep)
{
	struct usb_host_config *cp;
	struct usb_host_interface *alt;
	int		 i, j;

	if (dev == NULL || ep == NULL || ep == &dev->ep0 ||
	    (cp = dev->actconfig) == NULL)
		return NULL;
	for (i = 0; i < cp->desc.bNumInterfaces && i < 32; i++) {
		if (cp->interface[i] == NULL ||
		    (alt = cp->interface[i]->cur_altsetting) == NULL)
			continue;
		for (j = 0; j < alt->desc.bNumEndpoints; j++) {
			if (&alt->endpoint[j] == ep)
				return cp->interface[i];
		}
	}
	return NULL;
}

/* DRV_SUBMIT, DRV_UNLINK, DRV_KILL, DRV_GIVEBACK of a driver's URB. */
static void
urb_event(enum drv_kind kind, struct urb *urb, const char *driver,
    const char *func, gfp_t mem_flags, int result)
{
	struct drv_event ev;
	char		 text[160];
	const char	*what;

	switch (kind) {
	case DRV_SUBMIT:
		what = "usb_submit_urb";
		break;
	case DRV_UNLINK:
		what = "usb_unlink_urb";
		break;
	case DRV_KILL:
		what = "usb_kill_urb";
		break;
	default:
		what = "giveback";
		break;
	}
	core_event_init(&ev, kind, urb->dev, ep_interface(urb->dev,
	    urb->dev != NULL ? usb_pipe_endpoint(urb->dev, urb->pipe) :
	    NULL));
	if (driver != NULL)
		ev.driver = driver;
	if (func != NULL)
		ev.func = func;
	ev.urb_id = (uint64_t)(uintptr_t)urb;
	ev.ep = (uint8_t)(usb_pipeendpoint(urb->pipe) |
	    (usb_pipein(urb->pipe) ? USB_DIR_IN : 0));
	ev.context = core_ctx_now();
	ev.result = result;
	if (kind == DRV_SUBMIT) {
		ev.length = urb->transfer_buffer_length;
		ev.mem_flags = mem_flags;
		snprintf(text, sizeof text, "%s urb=%016llx ep=%02x len=%u "
		    "flags=%#x %s -> %d", what, (unsigned long long)ev.urb_id,
		    ev.ep, ev.length, urb->transfer_flags,
		    core_gfp_name(mem_flags), result);
	} else if (kind == DRV_GIVEBACK) {
		ev.length = urb->actual_length;
		snprintf(text, sizeof text, "%s urb=%016llx ep=%02x status=%d "
		    "actual=%u", what, (unsigned long long)ev.urb_id, ev.ep,
		    result, ev.length);
	} else
		snprintf(text, sizeof text, "%s urb=%016llx ep=%02x -> %d",
		    what, (unsigned long long)ev.urb_id, ev.ep, result);
	ev.text = text;
	core_event_emit(&ev);
}

static int
is_shutdown_status(int status)
{
	return status == -ESHUTDOWN || status == -ENOENT ||
	    status == -ECONNRESET;
}

/*
 * usb_submit_urb for everyone: the checks of submit_checked, and for a
 * driver's URB (submitted inside a driver frame, or submitted by one
 * before) the rules and the DRV_SUBMIT event with the result.  Returns
 * 0 (the completion handler will run exactly once) or a negative errno
 * (it will not).
 */
int
usb_submit_urb(struct urb *urb, gfp_t mem_flags)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;
	struct urb_info	*info = NULL;
	struct usb_interface *intf;
	struct usb_interface_priv *ip;
	const char	*driver = NULL, *func = NULL;
	int		 ret, halted;

	if (urb == NULL || s == NULL)
		return submit_checked(urb, mem_flags);
	(void)core_current_driver(&driver, &func);
	if ((info = urb_info_find(c, urb)) != NULL && driver == NULL)
		driver = info->driver;
	(void)core_check_gfp(mem_flags, "usb_submit_urb", urb->dev, NULL);
	if (driver == NULL)
		return submit_checked(urb, mem_flags);
	if (info == NULL && (info = urb_info_get(usb_core_get(s), urb)) ==
	    NULL)
		return -ENOMEM;
	info->driver = driver;
	c = s->core;

	if (urb->hcpriv != NULL)
		core_rule(urb->dev, NULL, driver, func, "submit-active-urb",
		    "usb_submit_urb of URB %p while it is still in flight",
		    (void *)urb);
	/*
	 * After disconnect: the endpoint's interface is unbound, or it was
	 * freed since this URB used it, or the device is gone with all its
	 * interfaces (they are freed only after their drivers' disconnect
	 * returned; completions resubmitting during it are not this rule).
	 */
	intf = urb->dev != NULL ? ep_interface(urb->dev,
	    usb_pipe_endpoint(urb->dev, urb->pipe)) : NULL;
	if (intf != NULL)
		info->intf = intf;
	if (intf != NULL && (ip = usb_intf_priv(intf))->condition ==
	    USB_INTERFACE_UNBOUND && ip->gone != NULL)
		core_rule(urb->dev, intf, driver, func,
		    "submit-after-disconnect", "usb_submit_urb on %s after "
		    "%s's disconnect returned", intf->name, ip->gone);
	else if (intf == NULL && (info->orphan || (urb->dev != NULL &&
	    urb->dev->state == USB_STATE_NOTATTACHED &&
	    urb->dev->actconfig == NULL)))
		core_rule(urb->dev, NULL, driver, func,
		    "submit-after-disconnect", "usb_submit_urb of URB %p "
		    "after disconnect: its interface is gone", (void *)urb);

	halted = urb->dev != NULL && (usb_pipebulk(urb->pipe) ||
	    usb_pipeint(urb->pipe)) && (urb->dev->halted[usb_pipeout(
	    urb->pipe) ? 1 : 0] & (1u << usb_pipeendpoint(urb->pipe)));

	ret = 0;
	if (c->completing == urb && is_shutdown_status(c->completing_status)) {
		if (!info->reported) {
			core_rule(urb->dev, intf, driver, func,
			    "resubmit-on-shutdown", "completion handler "
			    "resubmits URB %p after status %d", (void *)urb,
			    c->completing_status);
			info->reported = 1;
		}
		if (++info->bad_resubmits > URB_MAX_BAD_RESUBMITS)
			ret = -ESHUTDOWN;
	}
	if (ret == 0)
		ret = submit_checked(urb, mem_flags);
	/* queued on an endpoint the device keeps halted: it STALLs again */
	if (ret == 0 && halted)
		core_rule(urb->dev, intf, driver, func, "halt-not-cleared",
		    "usb_submit_urb on endpoint 0x%02x, halted (an URB "
		    "given back -EPIPE) and not cleared by usb_clear_halt",
		    usb_pipeendpoint(urb->pipe) |
		    (usb_pipein(urb->pipe) ? USB_DIR_IN : 0));
	urb_event(DRV_SUBMIT, urb, driver, func, mem_flags, ret);
	return ret;
}

void
core_urb_giveback(struct urb *urb, int status)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;
	struct urb_info	*info;
	struct urb	*saved_urb;
	const char	*driver;
	int		 saved_status;

	/* __usb_hcd_giveback_urb: off its anchor before the completion;
	 * the URB stays alive through complete() (the glue holds a ref) */
	usb_unanchor_urb(urb);
	if (c == NULL || (info = urb_info_find(c, urb)) == NULL) {
		urb->complete(urb);
		return;
	}
	if (!is_shutdown_status(status))
		info->bad_resubmits = 0;
	driver = info->driver;
	urb_event(DRV_GIVEBACK, urb, driver, "complete", 0, status);
	saved_urb = c->completing;
	saved_status = c->completing_status;
	c->completing = urb;
	c->completing_status = status;
	core_enter_driver(driver, "complete");
	urb->complete(urb);
	core_leave_driver();
	c->completing = saved_urb;
	c->completing_status = saved_status;
}

/* The driver of urb if a driver submitted it or runs now, else NULL. */
static const char *
urb_driver(struct urb *urb)
{
	struct sim	*s = core_sim();
	struct urb_info	*info;
	const char	*driver = NULL;

	(void)core_current_driver(&driver, NULL);
	if (driver == NULL && s != NULL &&
	    (info = urb_info_find(s->core, urb)) != NULL)
		driver = info->driver;
	return driver;
}

/*
 * Asynchronous cancel, as Linux's usb_unlink_urb: -EINPROGRESS when the
 * unlink started (the completion will see -ECONNRESET), -EIDRM when the
 * URB is not queued, -EBUSY when it is being unlinked already.
 */
int
usb_unlink_urb(struct urb *urb)
{
	const char	*driver;
	int		 rc;

	if (urb == NULL)
		return -EINVAL;
	if (urb->dev == NULL)
		rc = -ENODEV;
	else if (urb->ep == NULL)
		rc = -EIDRM;
	else {
		rc = usb_hcd_unlink_urb(urb, -ECONNRESET);
		rc = rc == 0 ? -EINPROGRESS : rc;
	}
	if ((driver = urb_driver(urb)) != NULL)
		urb_event(DRV_UNLINK, urb, driver, NULL, 0, rc);
	return rc;
}

static int
urb_idle(void *arg)
{
	return ((struct urb *)arg)->use_count == 0;
}

/*
 * Synchronous cancel: new submissions fail (-EPERM) while the URB is
 * being killed; returns once its completion (-ENOENT) has run.  May
 * sleep: in interrupt context it only unlinks.
 */
void
usb_kill_urb(struct urb *urb)
{
	struct sim	*s = core_sim();
	int		 may_sleep;

	if (urb == NULL)
		return;
	if (urb_driver(urb) != NULL)
		urb_event(DRV_KILL, urb, urb_driver(urb), NULL, 0, 0);
	if (urb->dev == NULL || urb->ep == NULL)
		return;
	may_sleep = s != NULL && core_may_sleep("usb_kill_urb");
	urb->reject++;
	usb_hcd_unlink_urb(urb, -ENOENT);
	if (urb->use_count != 0 && may_sleep)
		(void)sim_wait(s, urb_idle, urb, 0);
	urb->reject--;
}

int
in_interrupt(void)
{
	struct sim	*s = core_sim();

	return s != NULL && s->ctx != SIM_TASK;
}

void
msleep(unsigned int ms)
{
	struct sim	*s = core_sim();

	if (s == NULL || !core_may_sleep("msleep"))
		return;
	sim_wait(s, NULL, NULL, s->now_ns + (uint64_t)ms * SIM_MS);
}
