/*
 * core/event.c - driver events as the core reports them: the common
 * fields (time, bus/device/interface, context, the driver and function
 * the event happened in), dmesg-style log lines, rule violations, and the
 * stack of calls into drivers that names them (core.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "core/hcd.h"

int64_t
core_now_ns(void)
{
	struct sim	*s = core_sim();

	if (s == NULL)
		return 0;
	return (int64_t)(s->epoch_ns + s->now_ns);
}

void
core_enter_driver(const char *driver, const char *func)
{
	struct usb_core	*c = usb_core_get(core_sim());

	if (c == NULL)
		return;
	if (c->nframes < CORE_MAX_FRAMES) {
		memset(&c->frames[c->nframes], 0, sizeof c->frames[0]);
		c->frames[c->nframes].driver = driver;
		c->frames[c->nframes].func = func;
		c->frames[c->nframes].intf = -1;
	}
	c->nframes++;
}

void
core_enter_file(const char *driver, const char *func, uint16_t busnum,
    uint8_t devnum, int intf)
{
	struct usb_core	*c;
	struct core_frame *f;

	core_enter_driver(driver, func);
	c = usb_core_get(core_sim());
	if (c == NULL || c->nframes > CORE_MAX_FRAMES)
		return;
	f = &c->frames[c->nframes - 1];
	f->busnum = busnum;
	f->devnum = devnum;
	f->intf = (int16_t)intf;
}

/* The innermost frame, or NULL. */
static const struct core_frame *
core_frame_now(void)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL; /* no alloc */
	int		 n;

	if (c == NULL || (n = c->nframes) <= 0)
		return NULL;
	return &c->frames[(n > CORE_MAX_FRAMES ? CORE_MAX_FRAMES : n) - 1];
}

void
core_leave_driver(void)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;

	if (c != NULL && c->nframes > 0)
		c->nframes--;
}

int
core_current_driver(const char **driver, const char **func)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL; /* no alloc */
	const struct core_frame *f = core_frame_now();
	int		 n = c != NULL ? c->nframes : 0;

	if (driver != NULL)
		*driver = f != NULL ? f->driver : NULL;
	if (func != NULL)
		*func = f != NULL ? f->func : NULL;
	return n;
}

void
core_event_init(struct drv_event *ev, enum drv_kind kind,
    struct usb_device *udev, struct usb_interface *intf)
{
	struct sim	*s = core_sim();
	const struct core_frame *f;

	memset(ev, 0, sizeof *ev);
	ev->ts_ns = core_now_ns();
	ev->kind = kind;
	ev->intf = -1;
	ev->minor = -1;
	if (udev == NULL && intf != NULL)
		udev = intf->usbdev;
	if (udev != NULL) {
		ev->busnum = (uint16_t)(udev->bus != NULL ?
		    udev->bus->busnum : 0);
		ev->devnum = (uint8_t)udev->devnum;
	}
	if (intf != NULL && intf->cur_altsetting != NULL)
		ev->intf = intf->cur_altsetting->desc.bInterfaceNumber;
	/* in a file operation: its interface, unless another's */
	if (intf == NULL && (f = core_frame_now()) != NULL &&
	    f->busnum != 0 && (udev == NULL || (ev->busnum == f->busnum &&
	    ev->devnum == f->devnum))) {
		ev->busnum = f->busnum;
		ev->devnum = f->devnum;
		ev->intf = f->intf;
	}
	if (s != NULL)
		ev->context = core_ctx_now();	/* atomic under a lock */
	(void)core_current_driver(&ev->driver, &ev->func);
}

void
core_event_emit(const struct drv_event *ev)
{
	struct sim	*s = core_sim();

	if (s != NULL)
		sim_emit_event(s, ev);
}

void
core_rule(struct usb_device *udev, struct usb_interface *intf,
    const char *driver, const char *func, const char *rule,
    const char *fmt, ...)
{
	struct drv_event ev;
	char		 text[256];
	va_list		 ap;

	if (core_sim() == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	core_event_init(&ev, DRV_RULE, udev, intf);
	if (driver != NULL)
		ev.driver = driver;
	if (func != NULL)
		ev.func = func;
	ev.rule = rule;
	ev.text = text;
	core_event_emit(&ev);
}

void
core_log(struct usb_device *udev, struct usb_interface *intf,
    const char *driver, const char *func, const char *fmt, ...)
{
	struct drv_event ev;
	char		 msg[256], text[320];
	va_list		 ap;

	if (core_sim() == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* dev_info's shape: "usb 1-1: message", "hub 1-0:1.0: message" */
	snprintf(text, sizeof text, "%s %s: %s", driver,
	    intf != NULL ? intf->name : udev != NULL ? udev->name : "?", msg);
	core_event_init(&ev, DRV_LOG, udev, intf);
	ev.driver = driver;
	ev.func = func;
	ev.text = text;
	core_event_emit(&ev);
}
