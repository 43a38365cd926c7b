/*
 * hcd/ehci-hcd.c - the EHCI host controller driver's entry points, as
 * Linux's drivers/usb/host/ehci-hcd.c: bring-up (notes 6.10), the
 * interrupt handler (notes 6.12), URB enqueue/dequeue, endpoint disable,
 * and the timed events of ehci-timer.c on the virtual clock.
 *
 * It reaches the controller only through its registers (hcd_readl /
 * hcd_writel), DMA memory and the interrupt line.  Everything generic
 * (usbmon, DMA mapping, the root hub's descriptors) is hcd.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hcd/ehci.h"

/* ------------------------------------------------------------------------
 * Small services.
 */
uint64_t
ehci_now(struct ehci_hcd *ehci)
{
	return ehci->hcd->sim->now_ns;
}

/* A driver message, as dmesg would show it: a DRV_LOG event. */
void
ehci_log(struct ehci_hcd *ehci, const char *fmt, ...)
{
	struct usb_hcd	*hcd = ehci->hcd;
	struct drv_event ev;
	char		 text[256];
	va_list		 ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	memset(&ev, 0, sizeof ev);
	ev.ts_ns = (int64_t)(hcd->sim->epoch_ns + hcd->sim->now_ns);
	ev.kind = DRV_LOG;
	ev.busnum = (uint16_t)hcd->self.busnum;
	ev.intf = -1;
	ev.driver = hcd->driver->description;
	ev.text = text;
	sim_emit_event(hcd->sim, &ev);
}

struct handshake {
	struct ehci_hcd	*ehci;
	uint32_t	 off, mask, done;
};

static int
handshake_done(void *arg)
{
	struct handshake *h = arg;

	return (ehci_readl(h->ehci, h->off) & h->mask) == h->done;
}

/*
 * Wait until (register & mask) == done, for at most usec of virtual
 * time (Linux ehci_handshake).  Time only passes in task context; in
 * interrupt or atomic context the register must already agree.
 * 0 or -ETIMEDOUT.
 */
int
ehci_handshake(struct ehci_hcd *ehci, uint32_t off, uint32_t mask,
    uint32_t done, unsigned usec)
{
	struct sim	*s = ehci->hcd->sim;
	struct handshake h = { ehci, off, mask, done };

	if (handshake_done(&h))
		return 0;
	if (!sim_may_sleep(s))
		return -ETIMEDOUT;
	if (sim_wait(s, handshake_done, &h, s->now_ns + usec * 1000ULL) != 0)
		return handshake_done(&h) ? 0 : -ETIMEDOUT;
	return 0;
}

/* Sleep in task context (msleep); a no-op elsewhere. */
static void
ehci_msleep(struct ehci_hcd *ehci, unsigned ms)
{
	struct sim	*s = ehci->hcd->sim;

	if (sim_may_sleep(s))
		(void)sim_wait(s, NULL, NULL, s->now_ns + ms * SIM_MS);
}

void
ehci_set_command_bit(struct ehci_hcd *ehci, uint32_t bit)
{
	ehci->command |= bit;
	ehci_writel(ehci, EHCI_USBCMD, ehci->command);
	/* unblock posted write */
	(void)ehci_readl(ehci, EHCI_USBCMD);
}

void
ehci_clear_command_bit(struct ehci_hcd *ehci, uint32_t bit)
{
	ehci->command &= ~bit;
	ehci_writel(ehci, EHCI_USBCMD, ehci->command);
	(void)ehci_readl(ehci, EHCI_USBCMD);
}

/* ------------------------------------------------------------------------
 * Timed events (Linux ehci-timer.c), one virtual-clock timer each.
 */
static void	ehci_disable_ASE(struct ehci_hcd *);
static void	ehci_disable_PSE(struct ehci_hcd *);
static void	ehci_handle_async_unlinks(struct ehci_hcd *);
static void	ehci_io_watchdog(struct ehci_hcd *);

static const struct {
	uint64_t	 delay_ns;
	void		 (*fn)(struct ehci_hcd *);
} ehci_events[EHCI_HRTIMER_NUM_EVENTS] = {
	[EHCI_HRTIMER_POLL_ASS] = { 1 * SIM_MS, ehci_poll_ASS },
	[EHCI_HRTIMER_POLL_PSS] = { 1 * SIM_MS, ehci_poll_PSS },
	[EHCI_HRTIMER_UNLINK_INTR] = { 1125000, ehci_end_unlink_intr_all },
	[EHCI_HRTIMER_ASYNC_UNLINKS] = { 6 * SIM_MS,
	    ehci_handle_async_unlinks },
	[EHCI_HRTIMER_IAA_WATCHDOG] = { 10 * SIM_MS, ehci_iaa_watchdog },
	[EHCI_HRTIMER_DISABLE_PERIODIC] = { 10 * SIM_MS, ehci_disable_PSE },
	[EHCI_HRTIMER_DISABLE_ASYNC] = { 15 * SIM_MS, ehci_disable_ASE },
	[EHCI_HRTIMER_IO_WATCHDOG] = { 8 * SIM_MS, ehci_io_watchdog },
};

static void
ehci_timer_fn(void *arg)
{
	struct ehci_timer *t = arg;
	struct ehci_hcd	*ehci = t->ehci;

	if (!(ehci->enabled_events & (1u << t->event)))
		return;
	ehci->enabled_events &= ~(1u << t->event);
	ehci_events[t->event].fn(ehci);
}

/* Arm event; if it is armed already, only resched moves it. */
void
ehci_enable_event(struct ehci_hcd *ehci, int event, int resched)
{
	struct ehci_timer *t = &ehci->timer[event];

	if ((ehci->enabled_events & (1u << event)) && !resched)
		return;
	ehci->enabled_events |= 1u << event;
	sim_timer_add(ehci->hcd->sim, &t->t,
	    ehci_now(ehci) + ehci_events[event].delay_ns);
}

static void
ehci_cancel_events(struct ehci_hcd *ehci)
{
	int	 i;

	ehci->enabled_events = 0;
	for (i = 0; i < EHCI_HRTIMER_NUM_EVENTS; i++)
		sim_timer_del(ehci->hcd->sim, &ehci->timer[i].t);
}

static void
ehci_disable_ASE(struct ehci_hcd *ehci)
{
	ehci_clear_command_bit(ehci, CMD_ASE);
}

static void
ehci_disable_PSE(struct ehci_hcd *ehci)
{
	ehci_clear_command_bit(ehci, CMD_PSE);
}

static void
ehci_handle_async_unlinks(struct ehci_hcd *ehci)
{
	ehci_unlink_empty_async(ehci);
}

/* ISO completions do not depend on the controller's interrupts. */
static void
ehci_io_watchdog(struct ehci_hcd *ehci)
{
	ehci_work(ehci);
	if (ehci->isoc_count > 0 && ehci->rh_state == EHCI_RH_RUNNING)
		ehci_enable_event(ehci, EHCI_HRTIMER_IO_WATCHDOG, 0);
}

/* ------------------------------------------------------------------------
 * Schedule scanning.
 */

/* Retire finished work everywhere; re-entrant calls just ask for a
 * rescan (completions run from inside the scan). */
void
ehci_work(struct ehci_hcd *ehci)
{
	if (ehci->scanning) {
		ehci->need_rescan = 1;
		return;
	}
	ehci->scanning = 1;
	do {
		ehci->need_rescan = 0;
		if (ehci->async_count > 0)
			ehci_scan_async(ehci);
		if (ehci->intr_count > 0)
			ehci_scan_intr(ehci);
		if (ehci->isoc_count > 0)
			ehci_scan_isoc(ehci);
	} while (ehci->need_rescan);
	ehci->scanning = 0;
}

/* ------------------------------------------------------------------------
 * Bring-up and shutdown (notes 6.10).
 */

/* Interrupts off, RS = 0, and wait for HCHalted (16 uframes). */
static int
ehci_halt(struct ehci_hcd *ehci)
{
	ehci_writel(ehci, EHCI_USBINTR, 0);
	ehci->command &= ~CMD_RUN;
	ehci_writel(ehci, EHCI_USBCMD,
	    ehci_readl(ehci, EHCI_USBCMD) & ~(CMD_RUN | CMD_IAAD));
	return ehci_handshake(ehci, EHCI_USBSTS, STS_HALT, STS_HALT,
	    16 * 125);
}

/* HCRESET and wait (<= 250 ms) for it to clear. */
static int
ehci_reset(struct ehci_hcd *ehci)
{
	uint32_t	 command;
	int		 rc;

	command = ehci_readl(ehci, EHCI_USBCMD);
	command |= CMD_RESET;
	ehci_writel(ehci, EHCI_USBCMD, command);
	ehci->rh_state = EHCI_RH_HALTED;
	rc = ehci_handshake(ehci, EHCI_USBCMD, CMD_RESET, 0, 250 * 1000);
	if (rc != 0)
		ehci_log(ehci, "controller did not leave reset");
	return rc;
}

/*
 * hc_driver.reset (Linux ehci_setup + ehci_init): read the capabilities,
 * halt and reset the controller, build the schedules' memory: the
 * permanent async head (H = 1, halted, its dummy qTD the "magic" short
 * read target) and the frame list.
 */
static int
ehci_setup(struct usb_hcd *hcd)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);
	uint32_t	 cap;
	int		 i, rc;

	memset(ehci, 0, sizeof *ehci);
	ehci->hcd = hcd;
	INIT_LIST_HEAD(&ehci->async_unlink);
	INIT_LIST_HEAD(&ehci->async_iaa);
	INIT_LIST_HEAD(&ehci->async_idle);
	INIT_LIST_HEAD(&ehci->intr_qh_list);
	INIT_LIST_HEAD(&ehci->intr_unlink);
	for (i = 0; i < EHCI_HRTIMER_NUM_EVENTS; i++) {
		ehci->timer[i].ehci = ehci;
		ehci->timer[i].event = i;
		ehci->timer[i].t.fn = ehci_timer_fn;
		ehci->timer[i].t.arg = &ehci->timer[i];
	}

	cap = hcd_readl(hcd, EHCI_CAPLENGTH);
	ehci->regs = HC_LENGTH(cap);
	ehci->hcs_params = hcd_readl(hcd, EHCI_HCSPARAMS);
	ehci->hcc_params = hcd_readl(hcd, EHCI_HCCPARAMS);
	if (ehci->regs < 0x10 || HCS_N_PORTS(ehci->hcs_params) == 0) {
		ehci_log(ehci, "no EHCI controller here (caplength %u, "
		    "hcsparams %#x)", ehci->regs, ehci->hcs_params);
		return -ENODEV;
	}

	if ((rc = ehci_halt(ehci)) != 0 || (rc = ehci_reset(ehci)) != 0)
		return rc;
	if ((rc = ehci_mem_init(ehci)) != 0)
		return rc;

	/* USBCMD: 1024-entry frame list, interrupt threshold 1 uframe,
	 * park mode where the controller can */
	ehci->command = CMD_ITC(1);
	if (HCC_CANPARK(ehci->hcc_params))
		ehci->command |= CMD_PARK | 3 << 8;
	return 0;
}

/* hc_driver.start (Linux ehci_run). */
static int
ehci_run(struct usb_hcd *hcd)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);
	uint32_t	 version;

	ehci_writel(ehci, EHCI_PERIODICLISTBASE, ehci->periodic_dma);
	ehci_writel(ehci, EHCI_ASYNCLISTADDR, ehci->async->qh_dma);
	if (HCC_64BIT_ADDR(ehci->hcc_params))
		ehci_writel(ehci, EHCI_CTRLDSSEGMENT, 0);

	ehci->command &= ~(CMD_LRESET | CMD_IAAD | CMD_PSE | CMD_ASE |
	    CMD_RESET);
	ehci->command |= CMD_RUN;
	ehci_writel(ehci, EHCI_USBCMD, ehci->command);

	/*
	 * Route all ports to us (CONFIGFLAG), then give the hardware a
	 * moment before any port reset.
	 */
	ehci->rh_state = EHCI_RH_RUNNING;
	ehci_writel(ehci, EHCI_CONFIGFLAG, FLAG_CF);
	(void)ehci_readl(ehci, EHCI_USBCMD);	/* unblock posted writes */
	ehci_msleep(ehci, 5);

	version = HC_VERSION(hcd_readl(hcd, EHCI_CAPLENGTH));
	ehci_log(ehci, "USB 2.0 started, EHCI %x.%02x, %u ports",
	    version >> 8, version & 0xff, HCS_N_PORTS(ehci->hcs_params));

	/* turn on interrupts */
	ehci_writel(ehci, EHCI_USBINTR, INTR_MASK);
	hcd->state = HC_STATE_RUNNING;
	return 0;
}

/* Everything still queued goes back with -ESHUTDOWN. */
static void
ehci_giveback_all(struct ehci_hcd *ehci)
{
	struct ehci_qh	*qh;
	struct list_head *l;

	/* async: take every QH out of the ring and retire its qTDs */
	while ((qh = ehci->async->qh_next.qh) != NULL)
		ehci_start_unlink_async(ehci, qh);
	ehci_end_unlink_async(ehci);
	/* interrupt */
	while (!list_empty(&ehci->intr_qh_list)) {
		qh = container_of(ehci->intr_qh_list.next, struct ehci_qh,
		    intr_node);
		ehci_start_unlink_intr(ehci, qh);
	}
	ehci_end_unlink_intr_all(ehci);
	/* idle QHs may still hold URBs whose unlink was pending */
	for (l = ehci->qh_all.next; l != &ehci->qh_all; l = l->next) {
		qh = container_of(l, struct ehci_qh, all_node);
		if (qh != ehci->async && qh->qh_state == QH_STATE_IDLE &&
		    !list_empty(&qh->qtd_list))
			ehci_qh_completions(ehci, qh);
	}
	ehci_isoc_shutdown(ehci);
}

/* hc_driver.stop (Linux ehci_stop). */
static void
ehci_stop(struct usb_hcd *hcd)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);

	if (ehci->async == NULL)
		return;		/* never set up */
	ehci->rh_state = EHCI_RH_STOPPING;
	ehci_cancel_events(ehci);
	(void)ehci_halt(ehci);
	ehci_writel(ehci, EHCI_CONFIGFLAG, 0);
	ehci->command &= ~(CMD_ASE | CMD_PSE);
	/* halted (below RUNNING): the scans cancel everything */
	ehci->rh_state = EHCI_RH_HALTED;
	ehci_giveback_all(ehci);
	(void)ehci_reset(ehci);
	ehci_cancel_events(ehci);
	ehci_mem_cleanup(ehci);
	hcd->state = HC_STATE_HALT;
}

/* The controller reported a host system error: it is gone. */
static void
ehci_died(struct ehci_hcd *ehci)
{
	ehci_log(ehci, "fatal error, controller halted");
	ehci->rh_state = EHCI_RH_STOPPING;
	ehci->command &= ~(CMD_RUN | CMD_ASE | CMD_PSE);
	ehci_writel(ehci, EHCI_USBCMD, ehci->command);
	ehci_writel(ehci, EHCI_USBINTR, 0);
	ehci_cancel_events(ehci);
	/* halted (below RUNNING): the scans cancel everything */
	ehci->rh_state = EHCI_RH_HALTED;
	ehci_giveback_all(ehci);
	ehci->hcd->state = HC_STATE_HALT;
}

/* ------------------------------------------------------------------------
 * The interrupt (notes 6.12, EHCI 4.15).
 */
static int
ehci_irq(struct usb_hcd *hcd)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);
	uint32_t	 status = 0, current_status, masked_status, cmd;
	int		 bh = 0, pcd_status = 0;

	current_status = ehci_readl(ehci, EHCI_USBSTS);
restart:
	/* e.g. cardbus physical eject */
	if (current_status == ~0u) {
		ehci_log(ehci, "device removed");
		ehci_died(ehci);
		return IRQ_HANDLED;
	}
	status |= current_status;

	/* FLR is not used but must not stay on */
	masked_status = current_status & (INTR_MASK | STS_FLR);

	/* shared IRQ? */
	if (masked_status == 0 || ehci->rh_state == EHCI_RH_HALTED)
		return IRQ_NONE;

	/* clear (just) interrupts */
	ehci_writel(ehci, EHCI_USBSTS, masked_status);
	current_status = ehci_readl(ehci, EHCI_USBSTS);
	if (current_status & INTR_MASK)
		goto restart;

	cmd = ehci_readl(ehci, EHCI_USBCMD);

	/* normal [4.15.1.2] or error [4.15.1.1] completion */
	if (status & (STS_INT | STS_ERR)) {
		if (status & STS_ERR)
			ehci->stats.error++;
		else
			ehci->stats.normal++;
		bh = 1;
	}

	/* complete the unlinking of some qh [4.15.2.3] */
	if (status & STS_IAA) {
		if (cmd & CMD_IAAD)
			ehci_log(ehci, "IAA with IAAD still set?");
		if (ehci->iaa_in_progress)
			ehci->stats.iaa++;
		ehci_end_iaa_cycle(ehci);
	}

	/* port change [4.3.1]: kick the root hub later */
	if (status & STS_PCD)
		pcd_status = 1;

	/* PCI errors [4.15.2.4] */
	if (status & STS_FATAL) {
		ehci_died(ehci);
		bh = 0;
	}

	if (bh)
		ehci_work(ehci);
	if (pcd_status)
		usb_hcd_poll_rh_status(hcd);
	return IRQ_HANDLED;
}

/* ------------------------------------------------------------------------
 * URBs and endpoints.
 */
static int
ehci_urb_enqueue(struct usb_hcd *hcd, struct urb *urb, gfp_t mem_flags)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);
	struct list_head qtd_list;
	int		 rc;

	(void)mem_flags;	/* pools never sleep */
	INIT_LIST_HEAD(&qtd_list);
	switch (usb_pipetype(urb->pipe)) {
	case PIPE_CONTROL:
		/* qh_completions doesn't handle all the fault cases of
		 * multi-TD control transfers */
		if (urb->transfer_buffer_length > 16 * 1024)
			return -EMSGSIZE;
		/* FALLTHROUGH */
	default:
		if ((rc = ehci_qh_urb_transaction(ehci, urb, &qtd_list)) != 0)
			return rc;
		return ehci_submit_async(ehci, urb, &qtd_list);
	case PIPE_INTERRUPT:
		if ((rc = ehci_qh_urb_transaction(ehci, urb, &qtd_list)) != 0)
			return rc;
		return ehci_intr_submit(ehci, urb, &qtd_list);
	case PIPE_ISOCHRONOUS:
		if (urb->dev->speed != USB_SPEED_HIGH)
			return -ENXIO;	/* siTDs: no TT here */
		return ehci_itd_submit(ehci, urb);
	}
}

/*
 * Begin unlinking: the QH leaves the schedule (IAA doorbell or periodic
 * wait) and qh_completions gives the URB back with urb->unlinked.
 */
static int
ehci_urb_dequeue(struct usb_hcd *hcd, struct urb *urb, int status)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);
	struct ehci_qh	*qh;
	int		 rc;

	if ((rc = usb_hcd_check_unlink_urb(hcd, urb, status)) != 0)
		return rc;

	/* ISO URBs are not expedited: they finish in their frames */
	if (usb_pipetype(urb->pipe) == PIPE_ISOCHRONOUS)
		return 0;

	qh = urb->hcpriv;
	if (qh == NULL)
		return 0;
	qh->unlink_reason |= QH_UNLINK_REQUESTED;
	switch (qh->qh_state) {
	case QH_STATE_LINKED:
		if (usb_pipetype(urb->pipe) == PIPE_INTERRUPT)
			ehci_start_unlink_intr(ehci, qh);
		else
			ehci_start_unlink_async(ehci, qh);
		break;
	case QH_STATE_COMPLETING:
		qh->dequeue_during_giveback = 1;
		break;
	case QH_STATE_UNLINK:
	case QH_STATE_UNLINK_WAIT:
		/* already started */
		break;
	case QH_STATE_IDLE:
		ehci_qh_completions(ehci, qh);
		break;
	}
	return 0;
}

/*
 * The endpoint goes away; its URBs were flushed by the glue.  The QH (or
 * ISO stream) is freed now if idle, else once the HC let go of it.
 */
static void
ehci_endpoint_disable(struct usb_hcd *hcd, struct usb_host_endpoint *ep)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);
	struct ehci_qh	*qh = ep->hcpriv;
	struct ehci_iso_stream *stream;

	if (qh == NULL)
		return;
	ep->hcpriv = NULL;

	if ((ep->desc.bmAttributes & USB_ENDPOINT_XFERTYPE_MASK) ==
	    USB_ENDPOINT_XFER_ISOC) {
		stream = (struct ehci_iso_stream *)(void *)qh;
		stream->ep = NULL;
		if (list_empty(&stream->td_list))
			ehci_iso_stream_free(ehci, stream);
		else
			ehci_log(ehci, "ISO endpoint %#x disabled with "
			    "transfers queued", ep->desc.bEndpointAddress);
		return;
	}

	qh->ep = NULL;
	qh->orphan = 1;
	qh->unlink_reason |= QH_UNLINK_REQUESTED;
	switch (qh->qh_state) {
	case QH_STATE_LINKED:
		if (list_empty(&qh->qtd_list))
			qh->unlink_reason |= QH_UNLINK_QUEUE_EMPTY;
		if (qh->is_intr)
			ehci_start_unlink_intr(ehci, qh);
		else
			ehci_start_unlink_async(ehci, qh);
		break;
	case QH_STATE_IDLE:
		if (list_empty(&qh->qtd_list))
			ehci_qh_destroy(ehci, qh);
		else
			ehci_log(ehci, "qh for ep %#x disabled with URBs "
			    "queued", ep->desc.bEndpointAddress);
		break;
	default:
		/* being unlinked or completed: freed when idle */
		break;
	}
}

static int
ehci_get_frame(struct usb_hcd *hcd)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);

	return (int)((ehci_readl(ehci, EHCI_FRINDEX) >> 3) %
	    ehci->periodic_size);
}

const struct hc_driver ehci_hc_driver = {
	.description = "ehci_hcd",
	.product_desc = "EHCI Host Controller",
	.hcd_priv_size = sizeof(struct ehci_hcd),
	.irq = ehci_irq,
	.reset = ehci_setup,
	.start = ehci_run,
	.stop = ehci_stop,
	.get_frame_number = ehci_get_frame,
	.urb_enqueue = ehci_urb_enqueue,
	.urb_dequeue = ehci_urb_dequeue,
	.endpoint_disable = ehci_endpoint_disable,
	.hub_status_data = ehci_hub_status_data,
	.hub_control = ehci_hub_control,
};
