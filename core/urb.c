/*
 * core/urb.c - URB life cycle (drivers/usb/core/urb.c): allocation at
 * stable addresses, reference counts, usb_submit_urb's checks, unlink and
 * kill, and the small context helpers (in_interrupt, msleep).
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
#include "hcd/hcd.h"

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
arena_of(struct usb_core *c)
{
	return c->arena;
}

/* Map the arena at its fixed address; on failure URBs come from calloc. */
static void
arena_map(struct usb_core *c)
{
	struct urb_arena *a;
	void		*p;

	c->arena_tried = 1;
	if ((a = calloc(1, sizeof *a)) == NULL)
		goto fail;
	p = mmap((void *)(uintptr_t)URB_ARENA_BASE, URB_ARENA_SIZE,
	    PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
	    -1, 0);
	if (p == MAP_FAILED)
		goto fail;
	if (p != (void *)(uintptr_t)URB_ARENA_BASE) {
		/* an old kernel took the address as a hint only */
		munmap(p, URB_ARENA_SIZE);
		goto fail;
	}
	a->base = p;
	urb_poison(a->base, URB_ARENA_SIZE);
	c->arena = a;
	return;
fail:
	free(a);
	if (!c->arena_warned) {
		fprintf(stderr, "urbscope: cannot map the URB arena at %#llx; "
		    "URB ids will differ from run to run\n",
		    (unsigned long long)URB_ARENA_BASE);
		c->arena_warned = 1;
	}
}

static void *
arena_alloc(struct usb_core *c, size_t size)
{
	struct urb_arena *a;
	struct urb_class *k;
	uint8_t		*p;
	size_t		 idx;
	int		 cls;

	if (!c->arena_tried)
		arena_map(c);
	if ((a = arena_of(c)) == NULL || (cls = size_class(size)) < 0)
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
arena_release(struct usb_core *c, void *p)
{
	struct urb_arena *a;
	struct urb_class *k;
	uintptr_t	 off;
	uint32_t	*n;
	size_t		 cls, idx;

	if (c == NULL || (a = arena_of(c)) == NULL)
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

void
urb_arena_free(struct usb_core *c)
{
	struct urb_arena *a;
	int		 i;

	if ((a = arena_of(c)) == NULL)
		return;
	/* the next arena at this address must not find stale poison */
	urb_unpoison(a->base, URB_ARENA_SIZE);
	munmap(a->base, URB_ARENA_SIZE);
	for (i = 0; i < URB_NCLASSES; i++)
		free(a->cls[i].freed);
	free(a);
	c->arena = NULL;
	c->arena_tried = 0;
}

void
usb_init_urb(struct urb *urb)
{
	if (urb == NULL)
		return;
	memset(urb, 0, sizeof *urb);
	urb->kref = 1;
	INIT_LIST_HEAD(&urb->urb_list);
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

	(void)mem_flags;
	if (iso_packets < 0 || iso_packets > 65536)
		return NULL;
	size = sizeof *urb + (size_t)iso_packets *
	    sizeof urb->iso_frame_desc[0];
	if (core_sim() != NULL && (c = usb_core_get(core_sim())) != NULL)
		urb = arena_alloc(c, size);
	if (urb == NULL && (urb = calloc(1, size)) == NULL)
		return NULL;
	usb_init_urb(urb);
	if (c != NULL)
		c->urbs_live++;
	return urb;
}

/* Drop a reference; the last one frees the URB (and, with
 * URB_FREE_BUFFER, its buffer). */
void
usb_free_urb(struct urb *urb)
{
	struct usb_core	*c = NULL;

	if (urb == NULL)
		return;
	if (--urb->kref > 0)
		return;
	if (urb->transfer_flags & URB_FREE_BUFFER)
		free(urb->transfer_buffer);
	if (core_sim() != NULL)
		c = core_sim()->core;
	if (c != NULL)
		c->urbs_live--;
	if (arena_release(c, urb))
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
 * The checks of spec 4.5 in the modern kernel's order, each with its
 * error; then usb_hcd_submit_urb (usbmon 'S', enqueue, 'E' on failure).
 * The "BOGUS" warnings of the kernel (pipe type vs endpoint type,
 * control direction, flags) are left to the rule checks of issue 4.
 */
int
usb_submit_urb(struct urb *urb, gfp_t mem_flags)
{
	struct usb_device *dev;
	struct usb_host_endpoint *ep;
	struct usb_ctrlrequest *setup;
	int		 xfertype, is_out, max, n, mult, imax;

	if (urb == NULL || urb->complete == NULL)
		return -EINVAL;
	if (urb->hcpriv != NULL)
		return -EBUSY;		/* "URB submitted while active" */
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

/*
 * Asynchronous cancel (spec 4.8): -EINPROGRESS when the unlink started
 * (the completion will see -ECONNRESET), -EIDRM when the URB is not
 * queued, -EBUSY when it is being unlinked already.
 */
int
usb_unlink_urb(struct urb *urb)
{
	int	 rc;

	if (urb == NULL)
		return -EINVAL;
	if (urb->dev == NULL)
		return -ENODEV;
	if (urb->ep == NULL)
		return -EIDRM;
	rc = usb_hcd_unlink_urb(urb, -ECONNRESET);
	return rc == 0 ? -EINPROGRESS : rc;
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

	if (urb == NULL || urb->dev == NULL || urb->ep == NULL)
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
