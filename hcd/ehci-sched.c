/*
 * hcd/ehci-sched.c - the EHCI periodic schedule, as Linux's
 * drivers/usb/host/ehci-sched.c: the 1024-entry frame list, interrupt QHs
 * linked into it as a tree sorted by period, and high speed isochronous
 * transfers through iTDs (EHCI 4.6, 4.7; notes 6.9).
 *
 * The scheduler is simple but honest: an interrupt endpoint gets the
 * least loaded microframe slot of its period that leaves room within the
 * 80% budget of a microframe (bandwidth kept per microframe over 64
 * microframes, as Linux does), or -ENOSPC.  ISO streams put each URB's
 * packets one per slot of the endpoint's interval, one iTD per frame.
 */
#include <stdlib.h>
#include <string.h>

#include "hcd/ehci.h"

/* Microframes between now and the first ISO slot we may fill (Linux
 * SCHEDULING_DELAY). */
#define ISO_SCHEDULING_DELAY	40

/* ------------------------------------------------------------------------
 * Walking the frame list: elements are typed by the link that points at
 * them (EHCI 3.1); iTDs come first, then the QH tree.
 */
static union ehci_shadow *
periodic_next_shadow(union ehci_shadow *periodic, hc32 tag)
{
	switch (tag) {
	case Q_TYPE_QH:
		return &periodic->qh->qh_next;
	default:
		return &periodic->itd->itd_next;
	}
}

static hc32 *
shadow_next_periodic(union ehci_shadow *periodic, hc32 tag)
{
	switch (tag) {
	case Q_TYPE_QH:
		return &periodic->qh->hw->hw_next;
	default:
		return &periodic->itd->hw_next;
	}
}

/* Take ptr out of frame's list; the caller owns its next pointers. */
static void
periodic_unlink(struct ehci_hcd *ehci, unsigned frame, void *ptr)
{
	union ehci_shadow *prev_p = &ehci->pshadow[frame];
	hc32		*hw_p = &ehci->periodic[frame];
	union ehci_shadow here = *prev_p;

	/* find the predecessor of ptr; hw and shadow lists are in sync */
	while (here.ptr != NULL && here.ptr != ptr) {
		prev_p = periodic_next_shadow(prev_p, Q_NEXT_TYPE(*hw_p));
		hw_p = shadow_next_periodic(&here, Q_NEXT_TYPE(*hw_p));
		here = *prev_p;
	}
	/* an interrupt entry (at list end) could have been shared */
	if (here.ptr == NULL)
		return;
	*prev_p = *periodic_next_shadow(&here, Q_NEXT_TYPE(*hw_p));
	*hw_p = *shadow_next_periodic(&here, Q_NEXT_TYPE(*hw_p));
}

/* ------------------------------------------------------------------------
 * Turning the schedule on and off (PSE follows PSS, notes 6.2).
 */
void
ehci_poll_PSS(struct ehci_hcd *ehci)
{
	uint32_t	 actual, want;

	if (ehci->rh_state != EHCI_RH_RUNNING)
		return;
	want = (ehci->command & CMD_PSE) ? STS_PSS : 0;
	actual = ehci_readl(ehci, EHCI_USBSTS) & STS_PSS;
	if (want != actual) {
		/* poll again later, but give up after about 2-4 ms */
		if (ehci->pss_poll_count++ < 2) {
			ehci_enable_event(ehci, EHCI_HRTIMER_POLL_PSS, 1);
			return;
		}
		ehci_log(ehci, "waited too long for the periodic schedule "
		    "status (%x/%x), giving up", want, actual);
	}
	ehci->pss_poll_count = 0;

	if (want == 0) {
		if (ehci->periodic_count > 0)
			ehci_set_command_bit(ehci, CMD_PSE);
	} else if (ehci->periodic_count == 0)
		ehci_enable_event(ehci, EHCI_HRTIMER_DISABLE_PERIODIC, 1);
}

static void
enable_periodic(struct ehci_hcd *ehci)
{
	if (ehci->periodic_count++)
		return;
	ehci->enabled_events &= ~(1u << EHCI_HRTIMER_DISABLE_PERIODIC);
	sim_timer_del(ehci->hcd->sim,
	    &ehci->timer[EHCI_HRTIMER_DISABLE_PERIODIC].t);
	ehci_poll_PSS(ehci);
}

static void
disable_periodic(struct ehci_hcd *ehci)
{
	if (--ehci->periodic_count)
		return;
	ehci_poll_PSS(ehci);
}

/* ------------------------------------------------------------------------
 * Interrupt QHs.
 */

/* Add (sign 1) or remove (-1) qh's load in every slot it uses. */
static void
reserve_intr_bandwidth(struct ehci_hcd *ehci, struct ehci_qh *qh, int sign)
{
	unsigned	 i;

	for (i = qh->ps.bw_phase; i < EHCI_BANDWIDTH_SIZE;
	    i += qh->ps.bw_uperiod)
		ehci->bandwidth[i] = (uint16_t)(ehci->bandwidth[i] +
		    sign * (int)qh->ps.usecs);
}

void
ehci_release_intr_bandwidth(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	reserve_intr_bandwidth(ehci, qh, -1);
	qh->ps.smask = 0;
}

/*
 * Choose qh's slot: the microframe offset within its period whose
 * busiest slot is least loaded and still fits.  Sets the S-mask (and a
 * C-mask for split transactions) in info2.  0 or -ENOSPC.
 */
static int
qh_schedule(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	struct ehci_qh_hw *hw = qh->hw;
	unsigned	 u, i, worst, best = 0, best_load = ~0u, limit;
	int		 split = qh->ps.udev->speed != USB_SPEED_HIGH;
	uint32_t	 info2;

	/* reuse the previous schedule slots, if we can */
	if (qh->ps.smask != 0)
		return 0;

	limit = qh->ps.bw_uperiod;
	for (u = 0; u < limit; u++) {
		/* a split needs room for its complete-splits (11.18) */
		if (split && (u & 7) > 4)
			continue;
		worst = 0;
		for (i = u; i < EHCI_BANDWIDTH_SIZE; i += qh->ps.bw_uperiod)
			if (ehci->bandwidth[i] > worst)
				worst = ehci->bandwidth[i];
		if (worst + qh->ps.usecs <= EHCI_UFRAME_USECS &&
		    worst < best_load) {
			best = u;
			best_load = worst;
		}
	}
	if (best_load == ~0u) {
		ehci_log(ehci, "no bandwidth for an interrupt endpoint "
		    "(%u us every %u uframes)", qh->ps.usecs,
		    qh->ps.bw_uperiod);
		return -ENOSPC;
	}

	qh->ps.bw_phase = best;
	qh->ps.phase = qh->ps.period ? (best >> 3) % qh->ps.period : 0;
	if (qh->ps.period == 0)
		qh->ps.smask = 0xff;	/* every microframe */
	else
		qh->ps.smask = (uint8_t)(1u << (best & 7));
	reserve_intr_bandwidth(ehci, qh, 1);

	info2 = hc32_to_cpu(hw->hw_info2) & ~(QH_SMASK | QH_CMASK);
	info2 |= qh->ps.smask;
	if (split)
		info2 |= (uint32_t)(0x1cu << (best & 7)) << 8;
	hw->hw_info2 = cpu_to_hc32(info2);
	return 0;
}

/*
 * Link qh into every frame of its period, behind the slower QHs of each
 * branch so that interior nodes are shared (Linux qh_link_periodic).
 */
static void
qh_link_periodic(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	unsigned	 i, period = qh->ps.period;
	union ehci_shadow *prev, here;
	hc32		*hw_p, type;

	/* high bandwidth, or otherwise every microframe */
	if (period == 0)
		period = 1;

	for (i = qh->ps.phase; i < ehci->periodic_size; i += period) {
		prev = &ehci->pshadow[i];
		hw_p = &ehci->periodic[i];
		here = *prev;

		/* skip the iso nodes at list head */
		while (here.ptr != NULL) {
			type = Q_NEXT_TYPE(*hw_p);
			if (type == Q_TYPE_QH)
				break;
			prev = periodic_next_shadow(prev, type);
			hw_p = shadow_next_periodic(&here, type);
			here = *prev;
		}

		/* sorting each branch by period (slow-->fast) enables
		 * sharing interior tree nodes */
		while (here.ptr != NULL && qh != here.qh) {
			if (qh->ps.period > here.qh->ps.period)
				break;
			prev = &here.qh->qh_next;
			hw_p = &here.qh->hw->hw_next;
			here = *prev;
		}
		/* link in this qh, unless some earlier pass did that */
		if (qh != here.qh) {
			qh->qh_next = here;
			if (here.qh != NULL)
				qh->hw->hw_next = *hw_p;
			prev->qh = qh;
			*hw_p = QH_NEXT(qh->qh_dma);
		}
	}
	qh->qh_state = QH_STATE_LINKED;
	qh->xacterrs = 0;
	qh->unlink_reason = 0;
	list_add(&qh->intr_node, &ehci->intr_qh_list);

	/* maybe enable periodic schedule processing */
	++ehci->intr_count;
	enable_periodic(ehci);
}

static void
qh_unlink_periodic(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	unsigned	 i, period = qh->ps.period;

	if (period == 0)
		period = 1;
	for (i = qh->ps.phase; i < ehci->periodic_size; i += period)
		periodic_unlink(ehci, i, qh);

	qh->qh_state = QH_STATE_UNLINK;
	if (ehci->qh_scan_next == qh)
		ehci->qh_scan_next = qh->intr_node.next == &ehci->intr_qh_list ?
		    NULL : container_of(qh->intr_node.next, struct ehci_qh,
		    intr_node);
	list_del_init(&qh->intr_node);
}

/* The HC stopped looking at an unlinked interrupt QH. */
static void
end_unlink_intr(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	qh->qh_state = QH_STATE_IDLE;
	qh->hw->hw_next = EHCI_LIST_END;

	if (!list_empty(&qh->qtd_list))
		ehci_qh_completions(ehci, qh);

	/* reschedule the QH iff another request is queued */
	if (!list_empty(&qh->qtd_list) && ehci->rh_state == EHCI_RH_RUNNING &&
	    !qh->orphan) {
		if (qh_schedule(ehci, qh) == 0) {
			ehci_qh_refresh(ehci, qh);
			qh_link_periodic(ehci, qh);
		} else
			ehci_log(ehci, "can't reschedule an interrupt QH");
	}

	/* maybe turn off the periodic schedule */
	--ehci->intr_count;
	disable_periodic(ehci);
	if (qh->orphan && qh->qh_state == QH_STATE_IDLE)
		ehci_qh_destroy(ehci, qh);
}

/* Unlink the QHs whose wait is over (all when the HC stopped). */
void
ehci_end_unlink_intr_all(struct ehci_hcd *ehci)
{
	struct ehci_qh	*qh;
	int		 stopped = ehci->rh_state < EHCI_RH_RUNNING;

	ehci->intr_unlinking = 1;
	while (!list_empty(&ehci->intr_unlink)) {
		qh = container_of(ehci->intr_unlink.next, struct ehci_qh,
		    unlink_node);
		if (!stopped && qh->unlink_cycle == ehci->intr_unlink_cycle)
			break;
		list_del_init(&qh->unlink_node);
		qh->unlink_reason |= QH_UNLINK_QUEUE_EMPTY;
		end_unlink_intr(ehci, qh);
	}
	/* handle remaining entries later */
	if (!list_empty(&ehci->intr_unlink)) {
		ehci_enable_event(ehci, EHCI_HRTIMER_UNLINK_INTR, 1);
		++ehci->intr_unlink_cycle;
	}
	ehci->intr_unlinking = 0;
}

/*
 * Take an interrupt QH out of the frame list.  There is no doorbell for
 * the periodic schedule (notes 6.8): the QH is ours once the frames that
 * may have fetched it have passed (a timer).
 */
void
ehci_start_unlink_intr(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	if (qh->qh_state != QH_STATE_LINKED)
		return;
	qh_unlink_periodic(ehci, qh);
	qh->unlink_cycle = ehci->intr_unlink_cycle;
	list_add_tail(&qh->unlink_node, &ehci->intr_unlink);

	if (ehci->intr_unlinking)
		;	/* avoid recursive calls */
	else if (ehci->rh_state < EHCI_RH_RUNNING)
		ehci_end_unlink_intr_all(ehci);
	else if (ehci->intr_unlink.next == &qh->unlink_node) {
		ehci_enable_event(ehci, EHCI_HRTIMER_UNLINK_INTR, 1);
		++ehci->intr_unlink_cycle;
	}
}

/*
 * Queue an interrupt URB's qTDs (Linux intr_submit): make and schedule
 * the QH on first use, append, link the QH into the frame list if idle.
 * 0 or -errno; on error the qTDs are freed.
 */
int
ehci_intr_submit(struct ehci_hcd *ehci, struct urb *urb,
    struct list_head *qtd_list)
{
	struct ehci_qh	*qh;
	struct list_head empty;
	int		 status;

	if (ehci->rh_state != EHCI_RH_RUNNING) {
		status = -ESHUTDOWN;
		goto done_not_linked;
	}
	if ((status = usb_hcd_link_urb_to_ep(ehci_to_hcd(ehci), urb)) != 0)
		goto done_not_linked;

	/* get qh and force any scheduling errors */
	INIT_LIST_HEAD(&empty);
	qh = ehci_qh_append_tds(ehci, urb, &empty, &urb->ep->hcpriv);
	if (qh == NULL) {
		status = -ENOMEM;
		goto done;
	}
	if (qh->qh_state == QH_STATE_IDLE &&
	    (status = qh_schedule(ehci, qh)) != 0)
		goto done;

	/* then queue the URB's tds to the qh */
	qh = ehci_qh_append_tds(ehci, urb, qtd_list, &urb->ep->hcpriv);

	/* stuff into the periodic schedule */
	if (qh->qh_state == QH_STATE_IDLE) {
		ehci_qh_refresh(ehci, qh);
		qh_link_periodic(ehci, qh);
	}
done:
	if (status != 0)
		usb_hcd_unlink_urb_from_ep(ehci_to_hcd(ehci), urb);
done_not_linked:
	if (status != 0)
		ehci_qtd_list_free(ehci, qtd_list);
	return status;
}

/* Retire finished work on every interrupt QH (Linux scan_intr). */
void
ehci_scan_intr(struct ehci_hcd *ehci)
{
	struct ehci_qh	*qh;

	ehci->qh_scan_next = list_empty(&ehci->intr_qh_list) ? NULL :
	    container_of(ehci->intr_qh_list.next, struct ehci_qh, intr_node);
	while ((qh = ehci->qh_scan_next) != NULL) {
		ehci->qh_scan_next = qh->intr_node.next ==
		    &ehci->intr_qh_list ? NULL : container_of(
		    qh->intr_node.next, struct ehci_qh, intr_node);
		if (list_empty(&qh->qtd_list))
			continue;
		/* unlinks can happen here; qh_scan_next follows them */
		if (ehci_qh_completions(ehci, qh) != 0 ||
		    (list_empty(&qh->qtd_list) &&
		    qh->qh_state == QH_STATE_LINKED))
			ehci_start_unlink_intr(ehci, qh);
	}
}

/* ------------------------------------------------------------------------
 * High speed isochronous transfers (iTDs).
 */
static struct ehci_iso_stream *
iso_stream_find(struct ehci_hcd *ehci, struct urb *urb)
{
	struct ehci_iso_stream *stream = urb->ep->hcpriv;
	struct usb_host_endpoint *ep = urb->ep;
	unsigned	 maxp, interval;

	(void)ehci;
	if (stream != NULL)
		return stream;
	if ((stream = calloc(1, sizeof *stream)) == NULL)
		return NULL;
	INIT_LIST_HEAD(&stream->td_list);
	stream->ep = ep;
	stream->is_in = usb_pipein(urb->pipe) != 0;
	maxp = le16_to_cpu(ep->desc.wMaxPacketSize);
	stream->maxp = (maxp & 0x7ff) * (1 + ((maxp >> 11) & 3));
	stream->buf0 = ITD_BUF0(usb_pipeendpoint(urb->pipe),
	    usb_pipedevice(urb->pipe));
	stream->buf1 = ITD_BUF1(stream->is_in, maxp & 0x7ff);
	stream->buf2 = ITD_BUF2(1 + ((maxp >> 11) & 3));
	/* urb->interval is in uframes here (usb_submit_urb): power of two,
	 * at most the frame list */
	interval = urb->interval > 0 ? (unsigned)urb->interval : 1;
	stream->interval = 1;
	while (stream->interval * 2 <= interval &&
	    stream->interval * 2 <= (EHCI_PERIODIC_SIZE << 3))
		stream->interval *= 2;
	ep->hcpriv = stream;
	return stream;
}

void
ehci_iso_stream_free(struct ehci_hcd *ehci, struct ehci_iso_stream *stream)
{
	(void)ehci;
	if (stream->ep != NULL && stream->ep->hcpriv == stream)
		stream->ep->hcpriv = NULL;
	free(stream);
}

/* Put packet idx at uframe of itd: page select and offset (EHCI 3.3.2). */
static int
itd_patch(struct ehci_itd *itd, struct urb *urb, unsigned idx,
    unsigned uframe)
{
	struct usb_iso_packet_descriptor *d = &urb->iso_frame_desc[idx];
	dma_addr_t	 addr = urb->transfer_dma_mapped + d->offset;
	uint32_t	 page = addr & ~0xfffu;
	uint32_t	 t;

	if (itd->pg == ~0u || (hc32_to_cpu(itd->hw_bufp[itd->pg]) &
	    ~0xfffu) != page) {
		if (itd->pg != ~0u && itd->pg >= 6)
			return -EFBIG;
		itd->pg = itd->pg == ~0u ? 0 : itd->pg + 1;
		itd->hw_bufp[itd->pg] |= cpu_to_hc32(page);
	}
	t = EHCI_ISOC_ACTIVE | (d->length & 0x0fff) << 16 |
	    EHCI_ITD_PG(itd->pg) | (addr & 0x0fff);
	itd->hw_transaction[uframe & 7] = cpu_to_hc32(t);
	itd->index[uframe & 7] = (int)idx;

	/* a packet crossing into the next page uses the next pointer */
	if ((addr & 0xfff) + d->length > 0x1000) {
		if (itd->pg >= 6)
			return -EFBIG;
		itd->pg++;
		itd->hw_bufp[itd->pg] |= cpu_to_hc32(page + 0x1000);
	}
	return 0;
}

/* Put itd at the head of its frame's list, before the QH tree. */
static void
itd_link(struct ehci_hcd *ehci, struct ehci_itd *itd)
{
	unsigned	 frame = itd->frame;

	itd->itd_next = ehci->pshadow[frame];
	itd->hw_next = ehci->periodic[frame];
	ehci->pshadow[frame].itd = itd;
	ehci->periodic[frame] = ITD_NEXT(itd->itd_dma);
}

/*
 * Queue a high speed ISO URB: packet i goes to microframe start + i *
 * interval, one iTD per frame touched (notes 6.9).  An idle stream (or
 * one that fell behind) starts ISO_SCHEDULING_DELAY microframes from now
 * on an interval boundary, as URB_ISO_ASAP asks; otherwise the URB
 * follows the previous one.  urb->start_frame is the first microframe.
 */
int
ehci_itd_submit(struct ehci_hcd *ehci, struct urb *urb)
{
	struct ehci_iso_stream *stream;
	struct ehci_itd	*itd = NULL;
	struct list_head itds;
	unsigned	 mod = ehci->periodic_size << 3, now, start, delta;
	unsigned	 span, i, uf = 0, frame;
	int		 status;

	if (ehci->rh_state != EHCI_RH_RUNNING)
		return -ESHUTDOWN;
	if (urb->number_of_packets <= 0)
		return -EINVAL;
	if ((stream = iso_stream_find(ehci, urb)) == NULL)
		return -ENOMEM;
	for (i = 0; i < (unsigned)urb->number_of_packets; i++) {
		if (urb->iso_frame_desc[i].length > stream->maxp ||
		    urb->iso_frame_desc[i].offset +
		    urb->iso_frame_desc[i].length >
		    urb->transfer_buffer_length)
			return -EMSGSIZE;
		urb->iso_frame_desc[i].status = -EXDEV;
		urb->iso_frame_desc[i].actual_length = 0;
	}

	/* when the first packet goes */
	span = (unsigned)urb->number_of_packets * stream->interval;
	if (span >= mod - 2 * ISO_SCHEDULING_DELAY)
		return -EFBIG;
	now = ehci_readl(ehci, EHCI_FRINDEX) & (mod - 1);
	/* with no ISO in flight the scan point is stale: start it here */
	if (ehci->isoc_count == 0)
		ehci->last_iso_frame = now >> 3;
	start = stream->next_uframe;
	delta = (start - now) & (mod - 1);
	if (list_empty(&stream->td_list) || !stream->active ||
	    delta < ISO_SCHEDULING_DELAY || delta >= mod / 2)
		start = (now + ISO_SCHEDULING_DELAY + stream->interval - 1) &
		    ~(stream->interval - 1) & (mod - 1);

	/* the iTDs, built off-line */
	INIT_LIST_HEAD(&itds);
	for (i = 0; i < (unsigned)urb->number_of_packets; i++) {
		uf = (start + i * stream->interval) & (mod - 1);
		frame = uf >> 3;
		if (itd == NULL || itd->frame != frame) {
			if ((itd = ehci_itd_alloc(ehci)) == NULL) {
				status = -ENOMEM;
				goto fail;
			}
			list_add_tail(&itd->itd_list, &itds);
			itd->urb = urb;
			itd->stream = stream;
			itd->frame = frame;
			itd->pg = ~0u;
			itd->hw_bufp[0] = cpu_to_hc32(stream->buf0);
			itd->hw_bufp[1] = cpu_to_hc32(stream->buf1);
			itd->hw_bufp[2] = cpu_to_hc32(stream->buf2);
		}
		if ((status = itd_patch(itd, urb, i, uf)) != 0)
			goto fail;
	}
	/* interrupt on the URB's last packet */
	if (!(urb->transfer_flags & URB_NO_INTERRUPT))
		itd->hw_transaction[(uf & 7)] |= cpu_to_hc32(EHCI_ITD_IOC);

	if ((status = usb_hcd_link_urb_to_ep(ehci_to_hcd(ehci), urb)) != 0)
		goto fail;

	/* into the schedule */
	urb->start_frame = (int)start;
	urb->error_count = 0;
	urb->hcpriv = stream;
	stream->next_uframe = (start + span) & (mod - 1);
	stream->active = 1;
	while (!list_empty(&itds)) {
		itd = container_of(itds.next, struct ehci_itd, itd_list);
		list_del_init(&itd->itd_list);
		list_add_tail(&itd->itd_list, &stream->td_list);
		itd_link(ehci, itd);
	}
	++ehci->isoc_count;
	enable_periodic(ehci);
	ehci_enable_event(ehci, EHCI_HRTIMER_IO_WATCHDOG, 0);
	return 0;

fail:
	while (!list_empty(&itds)) {
		itd = container_of(itds.next, struct ehci_itd, itd_list);
		list_del_init(&itd->itd_list);
		ehci_itd_free(ehci, itd);
	}
	return status;
}

/* Report an iTD's transactions into its URB; give the URB back after its
 * last packet.  Returns 1 when an URB was given back. */
static int
itd_complete(struct ehci_hcd *ehci, struct ehci_itd *itd)
{
	struct urb	*urb = itd->urb;
	struct usb_iso_packet_descriptor *desc;
	struct ehci_iso_stream *stream = itd->stream;
	unsigned	 uframe;
	uint32_t	 t;
	int		 urb_index = -1, retval = 0;

	for (uframe = 0; uframe < 8; uframe++) {
		if (itd->index[uframe] == -1)
			continue;
		urb_index = itd->index[uframe];
		desc = &urb->iso_frame_desc[urb_index];
		t = hc32_to_cpu(itd->hw_transaction[uframe]);
		itd->hw_transaction[uframe] = 0;

		/* report transfer status */
		if (t & ISO_ERRS) {
			urb->error_count++;
			if (t & EHCI_ISOC_BUF_ERR)
				desc->status = usb_pipein(urb->pipe) ?
				    -ENOSR : -ECOMM;
			else if (t & EHCI_ISOC_BABBLE)
				desc->status = -EOVERFLOW;
			else
				desc->status = -EPROTO;
			/* HC need not update length with this error */
			if (!(t & EHCI_ISOC_BABBLE)) {
				desc->actual_length = EHCI_ITD_LENGTH(t);
				urb->actual_length += desc->actual_length;
			}
		} else if ((t & EHCI_ISOC_ACTIVE) == 0) {
			desc->status = 0;
			desc->actual_length = EHCI_ITD_LENGTH(t);
			urb->actual_length += desc->actual_length;
		} else {
			/* URB was too late: status stays -EXDEV */
			urb->error_count++;
		}
	}

	list_del_init(&itd->itd_list);
	ehci_itd_free(ehci, itd);

	/* handle completion now? */
	if (urb_index + 1 == urb->number_of_packets) {
		usb_hcd_unlink_urb_from_ep(ehci_to_hcd(ehci), urb);
		usb_hcd_giveback_urb(ehci_to_hcd(ehci), urb,
		    ehci->rh_state < EHCI_RH_RUNNING ? -ESHUTDOWN : 0);
		retval = 1;
		--ehci->isoc_count;
		disable_periodic(ehci);
	}
	if (list_empty(&stream->td_list))
		stream->active = 0;
	return retval;
}

/*
 * Retire the iTDs of the frames that passed since the last scan (and
 * the finished ones of the current frame); when the HC stopped, all of
 * them (Linux scan_isoc).
 */
void
ehci_scan_isoc(struct ehci_hcd *ehci)
{
	unsigned	 fmask = ehci->periodic_size - 1, now_frame, frame, uf;
	union ehci_shadow q, *q_p;
	hc32		*hw_p, type;
	int		 live, modified;

	if (ehci->rh_state >= EHCI_RH_RUNNING) {
		now_frame = (ehci_readl(ehci, EHCI_FRINDEX) >> 3) & fmask;
		live = 1;
	} else {
		now_frame = (ehci->last_iso_frame - 1) & fmask;
		live = 0;
	}
	frame = ehci->last_iso_frame;

	for (;;) {
restart:
		q_p = &ehci->pshadow[frame];
		hw_p = &ehci->periodic[frame];
		q = *q_p;
		type = Q_NEXT_TYPE(*hw_p);
		while (q.ptr != NULL && type == Q_TYPE_ITD) {
			/* a live frame's active iTD stays for later */
			if (frame == now_frame && live) {
				for (uf = 0; uf < 8; uf++)
					if (q.itd->hw_transaction[uf] &
					    cpu_to_hc32(EHCI_ISOC_ACTIVE))
						break;
				if (uf < 8) {
					q_p = &q.itd->itd_next;
					hw_p = &q.itd->hw_next;
					type = Q_NEXT_TYPE(q.itd->hw_next);
					q = *q_p;
					continue;
				}
			}
			/* out of the schedule, then process */
			*q_p = q.itd->itd_next;
			*hw_p = q.itd->hw_next;
			type = Q_NEXT_TYPE(q.itd->hw_next);
			modified = itd_complete(ehci, q.itd);
			/* completions may have changed the lists */
			if (modified && ehci->isoc_count > 0)
				goto restart;
			q = *q_p;
		}
		if (frame == now_frame)
			break;
		ehci->last_iso_frame = frame;
		frame = (frame + 1) & fmask;
	}
}

/* The HC stopped: give back every ISO URB (-ESHUTDOWN). */
void
ehci_isoc_shutdown(struct ehci_hcd *ehci)
{
	if (ehci->isoc_count > 0)
		ehci_scan_isoc(ehci);
}
