/*
 * core/ctx.c - execution context for drivers: emulated spinlocks (atomic
 * context while held), kmalloc and friends with their mem_flags checked
 * against the context (the rules in usb_submit_urb's comment, in
 * drivers/usb/core/urb.c), DMA-able buffers in the machine's DMA memory
 * (usb_buffer_alloc), and dev_printk.
 *
 * Rules reported here: "gfp-kernel-in-atomic" (an allocation that may
 * sleep in interrupt context or under a spinlock) and
 * "spin-unlock-unlocked".  Both name the driver function running.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hcd.h"

uint32_t
core_ctx_now(void)
{
	struct sim	*s = core_sim();

	if (s == NULL)
		return SIM_TASK;
	if (s->ctx == SIM_TASK && s->atomic > 0)
		return CORE_CTX_ATOMIC;
	return (uint32_t)s->ctx;
}

const char *
core_gfp_name(gfp_t flags)
{
	static char	 buf[16];
	const char	*name;

	/* the names the event lines use too (decode/dec-event.c) */
	if ((name = dec_name_find(dec_gfp_flags, flags)) != NULL)
		return name;
	snprintf(buf, sizeof buf, "%#x", flags);
	return buf;
}

static const char *
ctx_name(uint32_t ctx)
{
	switch (ctx) {
	case SIM_IRQ:
		return "interrupt";
	case SIM_SOFTIRQ:
		return "timer";
	case CORE_CTX_ATOMIC:
		return "atomic (spinlock held)";
	}
	return "task";
}

int
core_check_gfp(gfp_t mem_flags, const char *what, struct usb_device *udev,
    struct usb_interface *intf)
{
	uint32_t	 ctx = core_ctx_now();

	if (core_sim() == NULL || ctx == SIM_TASK || mem_flags == GFP_ATOMIC)
		return 1;
	core_rule(udev, intf, NULL, NULL, "gfp-kernel-in-atomic", "%s with "
	    "%s in %s context, where only GFP_ATOMIC may be used", what,
	    core_gfp_name(mem_flags), ctx_name(ctx));
	return 0;
}

/* ------------------------------------------------------------------------
 * Spinlocks: one thread, so taking one never spins; it only puts the
 * holder in atomic context (sim->atomic counts the locks held).
 */
void
spin_lock_init(spinlock_t *lock)
{
	lock->locked = 0;
	lock->name = NULL;
}

void
spin_lock(spinlock_t *lock)
{
	struct sim	*s = core_sim();

	/* a second lock by the only thread would spin for ever */
	if (lock->locked)
		core_rule(NULL, NULL, NULL, NULL, "spin-lock-recursion",
		    "spin_lock on a spinlock already held: deadlock");
	lock->locked++;
	if (s != NULL)
		sim_spin_lock(s);
}

void
spin_unlock(spinlock_t *lock)
{
	struct sim	*s = core_sim();

	if (lock->locked <= 0) {
		core_rule(NULL, NULL, NULL, NULL, "spin-unlock-unlocked",
		    "spin_unlock on a spinlock that is not held");
		return;
	}
	lock->locked--;
	if (s != NULL)
		sim_spin_unlock(s);
}

/* ------------------------------------------------------------------------
 * Memory.
 */
/*
 * Zeroed memory from the machine's heap arena: its addresses are the same
 * run after run, so the pointers drivers hand the core (intfdata) keep
 * captures byte-identical.  The C heap when no machine runs.
 */
static void *
heap_alloc(size_t size)
{
	struct usb_core	*c;
	void		*p = NULL;

	if (size == 0)
		size = 1;
	if (sim_current != NULL && (c = usb_core_get(sim_current)) != NULL)
		p = core_heap_alloc(c, size);
	return p != NULL ? p : calloc(1, size);
}

void *
kmalloc(size_t size, gfp_t flags)
{
	(void)core_check_gfp(flags, "kmalloc", NULL, NULL);
	return heap_alloc(size);
}

void *
kzalloc(size_t size, gfp_t flags)
{
	(void)core_check_gfp(flags, "kzalloc", NULL, NULL);
	return heap_alloc(size);
}

void
kfree(const void *p)
{
	if (p == NULL)
		return;
	if (core_heap_free(sim_current != NULL ? sim_current->core : NULL, p))
		return;
	free((void *)(uintptr_t)p);
}

/*
 * A buffer in the machine's DMA memory: *dma is its bus address, for
 * URB_NO_TRANSFER_DMA_MAP.  NULL when dev has no host controller or the
 * memory is full.
 */
void *
usb_buffer_alloc(struct usb_device *dev, size_t size, gfp_t mem_flags,
    dma_addr_t *dma)
{
	struct usb_hcd	*hcd;

	(void)core_check_gfp(mem_flags, "usb_buffer_alloc", dev, NULL);
	if (dma != NULL)
		*dma = 0;
	if (dev == NULL || dev->bus == NULL ||
	    (hcd = bus_to_hcd(dev->bus)) == NULL || hcd->dma == NULL)
		return NULL;
	return dma_alloc(hcd->dma, size != 0 ? size : 1, 64, dma);
}

void
usb_buffer_free(struct usb_device *dev, size_t size, void *addr,
    dma_addr_t dma)
{
	struct usb_hcd	*hcd;

	(void)size;
	(void)dma;
	if (addr == NULL || dev == NULL || dev->bus == NULL ||
	    (hcd = bus_to_hcd(dev->bus)) == NULL || hcd->dma == NULL)
		return;
	dma_free(hcd->dma, addr);
}

/* ------------------------------------------------------------------------
 * Messages: a DRV_LOG event "DRIVER 1-1:1.0: text" from the driver
 * running (else the interface's driver).
 */
void
dev_printk(const char *level, struct usb_interface *intf, const char *fmt,
    ...)
{
	const char	*driver = NULL, *func = NULL;
	char		 msg[256];
	va_list		 ap;

	(void)level;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	(void)core_current_driver(&driver, &func);
	if (driver == NULL && intf != NULL && intf->driver != NULL)
		driver = intf->driver->name;
	core_log(intf != NULL ? intf->usbdev : NULL, intf,
	    driver != NULL ? driver : "usb", func, "%s", msg);
}
