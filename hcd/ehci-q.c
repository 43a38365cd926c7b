/*
 * hcd/ehci-q.c - EHCI queue heads and qTDs: the async schedule (control
 * and bulk) and the qTD machinery interrupt QHs share, as Linux's
 * drivers/usb/host/ehci-q.c.
 *
 * An URB becomes a chain of qTDs (ehci_qh_urb_transaction, notes 6.11)
 * appended to its endpoint's QH by swapping with the QH's inactive dummy
 * qTD, so the controller never sees a half-built chain (EHCI 4.10.2).
 * QHs are spliced into the async ring right after the permanent halted
 * head QH; they leave it through the Interrupt on Async Advance doorbell
 * (EHCI 4.8.2, notes 6.8).  Completed qTDs are retired in order by
 * ehci_qh_completions, which maps tokens to URB status (notes 6.12).
 */
#include <string.h>

#include "hcd/ehci.h"

/* Linux's tunables (ehci-hcd.c). */
#define EHCI_TUNE_CERR		3	/* 0-3 qtd retries; 0 == don't stop */
#define EHCI_TUNE_RL_HS		4	/* nak throttle; see 4.9 */
#define EHCI_TUNE_RL_TT		0
#define EHCI_TUNE_MULT_HS	1	/* 1-3 transactions/uframe; 4.10.3 */
#define EHCI_TUNE_MULT_TT	1

/*
 * Fill a qTD with up to 5 pages of buf (notes 6.11, Linux qtd_fill).
 * When the qTD cannot hold all of len, trim it to a multiple of maxpacket:
 * short packets may only end a transfer.  Returns the bytes it covers.
 */
size_t
ehci_qtd_fill(struct ehci_qtd *qtd, dma_addr_t buf, size_t len,
    uint32_t token, unsigned maxpacket)
{
	size_t		 count;
	int		 i;

	/* one buffer entry per 4K ... first might be short or unaligned */
	qtd->hw_buf[0] = cpu_to_hc32(buf);
	qtd->hw_buf_hi[0] = 0;
	count = 0x1000 - (buf & 0x0fff);	/* rest of that page */
	if (len < count)			/* ... iff needed */
		count = len;
	else {
		buf += 0x1000;
		buf &= ~0x0fffu;

		/* per-qtd limit: from 16K to 20K (best alignment) */
		for (i = 1; count < len && i < 5; i++) {
			qtd->hw_buf[i] = cpu_to_hc32(buf);
			qtd->hw_buf_hi[i] = 0;
			buf += 0x1000;
			if (count + 0x1000 < len)
				count += 0x1000;
			else
				count = len;
		}

		/* short packets may only terminate transfers */
		if (count != len)
			count -= count % maxpacket;
	}
	qtd->hw_token = cpu_to_hc32((uint32_t)count << 16 | token);
	qtd->length = count;
	return count;
}

/* ------------------------------------------------------------------------
 * Overlay handling.
 */

/* Point an idle QH's overlay at qtd (Linux qh_update). */
static void
qh_update(struct ehci_qh *qh, struct ehci_qtd *qtd)
{
	struct ehci_qh_hw *hw = qh->hw;
	unsigned	 epnum;

	hw->hw_qtd_next = QTD_NEXT(qtd->qtd_dma);
	hw->hw_alt_next = EHCI_LIST_END;

	/*
	 * Except for control endpoints, the HC keeps the data toggle in the
	 * overlay (DTC = 0).  A cleared pseudo-toggle in udev (set when the
	 * QH was made, cleared by usb_clear_halt) restarts it at DATA0.
	 */
	if (!(hw->hw_info1 & cpu_to_hc32(QH_TOGGLE_CTL)) &&
	    qh->ps.udev != NULL) {
		epnum = (hc32_to_cpu(hw->hw_info1) >> 8) & 0x0f;
		if (!usb_gettoggle(qh->ps.udev, epnum, qh->is_out)) {
			hw->hw_token &= ~cpu_to_hc32(QTD_TOGGLE);
			usb_settoggle(qh->ps.udev, epnum, qh->is_out, 1);
		}
	}

	/* the HC must see the qTD pointers before ACTIVE/HALT go */
	hw->hw_token &= cpu_to_hc32(QTD_TOGGLE | QTD_STS_PING);
}

/*
 * Make an idle QH point at its first queued qTD (Linux qh_refresh).  The
 * first qTD may be partly done: if the overlay is still active it only
 * needs the next pointer.
 */
void
ehci_qh_refresh(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	struct ehci_qtd	*qtd;

	(void)ehci;
	qtd = container_of(qh->qtd_list.next, struct ehci_qtd, qtd_list);
	if (qh->hw->hw_token & cpu_to_hc32(QTD_STS_ACTIVE))
		qh->hw->hw_qtd_next = qtd->hw_next;
	else
		qh_update(qh, qtd);
	qh->should_be_inactive = 0;
}

/* ------------------------------------------------------------------------
 * Completions.
 */

/*
 * Token of a retired qTD to URB status (notes 6.12, Linux
 * qtd_copy_status); also counts the bytes moved (not for SETUP).
 * Returns -EINPROGRESS when the qTD says nothing final, -EREMOTEIO for a
 * short read (an error only with URB_SHORT_NOT_OK, decided later).
 */
int
ehci_qtd_copy_status(struct urb *urb, size_t length, uint32_t token)
{
	int	 status = -EINPROGRESS;

	/* count IN/OUT bytes, not SETUP (even short packets) */
	if (QTD_PID(token) != PID_CODE_SETUP)
		urb->actual_length += (unsigned)(length - QTD_LENGTH(token));

	/* don't modify error codes */
	if (urb->unlinked)
		return status;

	/* force cleanup after short read; not always an error */
	if (IS_SHORT_READ(token))
		status = -EREMOTEIO;

	/* serious "can't proceed" faults reported by the hardware */
	if (token & QTD_STS_HALT) {
		if (token & QTD_STS_BABBLE)
			status = -EOVERFLOW;
		else if ((token & QTD_STS_MMF) &&
		    QTD_PID(token) == PID_CODE_IN)
			status = -EPROTO;	/* EHCI table 4-13 */
		else if (QTD_CERR(token))
			status = -EPIPE;	/* halt, retries left: STALL */
		else if (token & QTD_STS_MMF)
			status = -EPROTO;	/* missed complete-split */
		else if (token & QTD_STS_DBE)
			status = QTD_PID(token) == PID_CODE_IN ?
			    -ENOSR : -ECOMM;
		else if (token & QTD_STS_XACT)
			status = -EPROTO;	/* no response, bad CRC */
		else
			status = -EPROTO;	/* unknown */
	}
	return status;
}

/* Give an URB back (Linux ehci_urb_done). */
static void
ehci_urb_done(struct ehci_hcd *ehci, struct urb *urb, int status)
{
	if (urb->unlinked)
		ehci->stats.unlink++;
	else {
		/* report non-error and short read status as zero */
		if (status == -EINPROGRESS || status == -EREMOTEIO)
			status = 0;
		ehci->stats.complete++;
	}
	usb_hcd_unlink_urb_from_ep(ehci_to_hcd(ehci), urb);
	usb_hcd_giveback_urb(ehci_to_hcd(ehci), urb, status);
}

/*
 * Retire the qTDs the controller is done with, in order, and give back
 * their URBs.  When the queue is stopped (halted, unlinked, HC gone) the
 * qTDs of faulted and unlinked URBs go too.  Returns the reasons the QH
 * must be unlinked (QH_UNLINK_*), 0 when it may stay in the schedule.
 */
unsigned
ehci_qh_completions(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	struct ehci_qtd	*last, *end = qh->dummy, *qtd;
	struct ehci_qh_hw *hw = qh->hw;
	struct list_head *entry, *tmp;
	struct urb	*urb;
	uint32_t	 token;
	int		 last_status, stopped;
	uint8_t		 state;

	/*
	 * Completions may queue URBs to this QH or unlink them; nothing
	 * touches the overlay until we are done (qh_state COMPLETING).
	 */
	state = qh->qh_state;
	qh->qh_state = QH_STATE_COMPLETING;
	stopped = (state == QH_STATE_IDLE);

rescan:
	last = NULL;
	last_status = -EINPROGRESS;
	qh->dequeue_during_giveback = 0;

	for (entry = qh->qtd_list.next; entry != &qh->qtd_list;
	    entry = tmp) {
		tmp = entry->next;
		qtd = container_of(entry, struct ehci_qtd, qtd_list);
		urb = qtd->urb;

		/* clean up any state from the previous qTD ... */
		if (last != NULL) {
			if (last->urb != urb) {
				ehci_urb_done(ehci, last->urb, last_status);
				last_status = -EINPROGRESS;
			}
			ehci_qtd_free(ehci, last);
			last = NULL;
			/* the giveback may have queued more behind us */
			tmp = entry->next;
		}

		/* ignore URBs submitted during completions we reported */
		if (qtd == end)
			break;

		token = hc32_to_cpu(qtd->hw_token);
retry_xacterr:
		if ((token & QTD_STS_ACTIVE) == 0) {
			/* on STALL, error and short reads this URB must
			 * complete and all its qTDs must be recycled */
			if (token & QTD_STS_HALT) {
				/* retry transaction errors until the
				 * software limit (notes 6.12) */
				if ((token & QTD_STS_XACT) &&
				    QTD_CERR(token) == 0 &&
				    ++qh->xacterrs < QH_XACTERR_MAX &&
				    !urb->unlinked) {
					token &= ~QTD_STS_HALT;
					token |= QTD_STS_ACTIVE |
					    EHCI_TUNE_CERR << 10;
					qtd->hw_token = cpu_to_hc32(token);
					hw->hw_token = cpu_to_hc32(token);
					goto retry_xacterr;
				}
				stopped = 1;
				qh->unlink_reason |= QH_UNLINK_HALTED;
			} else if (IS_SHORT_READ(token) &&
			    !(qtd->hw_alt_next & EHCI_LIST_END)) {
				/* a short read went to the magic dummy:
				 * the queue stops for manual cleanup */
				stopped = 1;
				qh->unlink_reason |= QH_UNLINK_SHORT_READ;
			}
		} else if (!stopped && ehci->rh_state >= EHCI_RH_RUNNING) {
			/* stop scanning at qTDs the HC is using */
			break;
		} else {
			/* scan the whole queue for unlinks when it stops */
			stopped = 1;

			if (ehci->rh_state < EHCI_RH_RUNNING) {
				/* cancel everything if we halt */
				last_status = -ESHUTDOWN;
				qh->unlink_reason |= QH_UNLINK_SHUTDOWN;
			} else if (last_status == -EINPROGRESS &&
			    !urb->unlinked) {
				/* active and fine: skip it */
				continue;
			}

			/*
			 * The first qTD of an unlinked QH may still be in
			 * the overlay, not yet written back: use the
			 * overlay's token.
			 */
			if (state == QH_STATE_IDLE &&
			    qh->qtd_list.next == &qtd->qtd_list &&
			    (hw->hw_token & cpu_to_hc32(QTD_STS_ACTIVE))) {
				token = hc32_to_cpu(hw->hw_token);
				hw->hw_token &= ~cpu_to_hc32(QTD_STS_ACTIVE);
				qh->should_be_inactive = 1;
			}
		}

		/* unless the URB's status is known, collect this qTD's */
		if (last_status == -EINPROGRESS) {
			last_status = ehci_qtd_copy_status(urb, qtd->length,
			    token);
			if (last_status == -EREMOTEIO &&
			    (qtd->hw_alt_next & EHCI_LIST_END))
				last_status = -EINPROGRESS;
		}

		/* removing something not at the queue head: patch the
		 * hardware link around it */
		if (stopped && qtd->qtd_list.prev != &qh->qtd_list) {
			last = container_of(qtd->qtd_list.prev,
			    struct ehci_qtd, qtd_list);
			last->hw_next = qtd->hw_next;
		}

		/* remove qtd; it's recycled after possible urb completion */
		list_del_init(&qtd->qtd_list);
		last = qtd;

		/* reinit the xacterr counter for the next qtd */
		qh->xacterrs = 0;
	}

	/* the last URB's completion might still need calling */
	if (last != NULL) {
		ehci_urb_done(ehci, last->urb, last_status);
		ehci_qtd_free(ehci, last);
	}

	/* URBs dequeued during a giveback: rescan now if unlinked already,
	 * else the caller unlinks the QH */
	if (qh->dequeue_during_giveback) {
		if (state == QH_STATE_IDLE)
			goto rescan;
		qh->unlink_reason |= QH_UNLINK_REQUESTED;
	}

	/* restore the original state; the caller must unlink or relink */
	qh->qh_state = state;

	/*
	 * The HC must be done with a QH before it is refreshed after a
	 * fault, or after it overlaid the dummy qTD: unlink it first.
	 */
	if (stopped || hw->hw_qtd_next == EHCI_LIST_END)
		qh->unlink_reason |= QH_UNLINK_DUMMY_OVERLAY;
	return qh->unlink_reason;
}

/* ------------------------------------------------------------------------
 * URB to qTD list.
 */

/* Free the qTDs of an URB that never reached a QH. */
void
ehci_qtd_list_free(struct ehci_hcd *ehci, struct list_head *head)
{
	struct ehci_qtd	*qtd;

	while (!list_empty(head)) {
		qtd = container_of(head->next, struct ehci_qtd, qtd_list);
		list_del_init(&qtd->qtd_list);
		ehci_qtd_free(ehci, qtd);
	}
}

/* A new qTD for urb linked after prev (on head); NULL when out of DMA
 * memory. */
static struct ehci_qtd *
qtd_next(struct ehci_hcd *ehci, struct urb *urb, struct ehci_qtd *prev,
    struct list_head *head)
{
	struct ehci_qtd	*qtd;

	if ((qtd = ehci_qtd_alloc(ehci)) == NULL)
		return NULL;
	qtd->urb = urb;
	prev->hw_next = QTD_NEXT(qtd->qtd_dma);
	list_add_tail(&qtd->qtd_list, head);
	return qtd;
}

/*
 * Build the qTDs for urb onto head (notes 6.11, Linux
 * qh_urb_transaction): SETUP, data in 20 KiB-or-less qTDs, then a status
 * stage or a zero-length packet, IOC on the last.  The DMA addresses are
 * the glue's mappings (urb->setup_dma_mapped, transfer_dma_mapped).
 * Returns 0 or -ENOMEM (head is then empty).
 */
int
ehci_qh_urb_transaction(struct ehci_hcd *ehci, struct urb *urb,
    struct list_head *head)
{
	struct ehci_qtd	*qtd;
	dma_addr_t	 buf;
	uint32_t	 token;
	size_t		 len, this_qtd_len;
	unsigned	 maxpacket;
	int		 is_input;

	/* URBs map to sequences of qTDs: one logical transaction */
	if ((qtd = ehci_qtd_alloc(ehci)) == NULL)
		return -ENOMEM;
	list_add_tail(&qtd->qtd_list, head);
	qtd->urb = urb;

	token = QTD_STS_ACTIVE;
	token |= EHCI_TUNE_CERR << 10;
	/* for split transactions, SplitXState initialized to zero */

	len = urb->transfer_buffer_length;
	is_input = usb_pipein(urb->pipe) != 0;
	if (usb_pipecontrol(urb->pipe)) {
		/* SETUP pid, DATA0 */
		ehci_qtd_fill(qtd, urb->setup_dma_mapped,
		    sizeof(struct usb_ctrlrequest),
		    token | PID_CODE_SETUP << 8, 8);

		/* ... and always at least one more pid, DATA1 */
		token ^= QTD_TOGGLE;
		if ((qtd = qtd_next(ehci, urb, qtd, head)) == NULL)
			goto cleanup;

		/* for zero length DATA stages, STATUS is always IN */
		if (len == 0)
			token |= PID_CODE_IN << 8;
	}

	/* data transfer stage: buffer setup */
	buf = urb->transfer_dma_mapped;
	if (is_input)
		token |= PID_CODE_IN << 8;
	/* else it's already initted to "out" pid (0 << 8) */

	maxpacket = le16_to_cpu(urb->ep->desc.wMaxPacketSize) & 0x7ff;
	if (maxpacket == 0)
		maxpacket = 64;

	/*
	 * The buffer gets wrapped in one or more qTDs; the last one may be
	 * short (including zero length) and may serve as a control status
	 * ack.
	 */
	for (;;) {
		this_qtd_len = ehci_qtd_fill(qtd, buf, len, token, maxpacket);
		len -= this_qtd_len;
		buf += (dma_addr_t)this_qtd_len;

		/*
		 * Short reads advance to a "magic" dummy instead of the
		 * next qTD: that stops the queue for manual cleanup (this
		 * will usually be overridden below).
		 */
		if (is_input)
			qtd->hw_alt_next = ehci->async->hw->hw_alt_next;

		/* qh makes control packets use qtd toggle; maybe switch it
		 * (the source's parity test, notes 6.11) */
		if ((maxpacket & (this_qtd_len + (maxpacket - 1))) == 0)
			token ^= QTD_TOGGLE;

		if (len == 0)
			break;
		if ((qtd = qtd_next(ehci, urb, qtd, head)) == NULL)
			goto cleanup;
	}

	/*
	 * Unless the caller requires manual cleanup after short reads,
	 * have the alt_next mechanism keep the queue running after the
	 * last data qTD (the only one that can be short).
	 */
	if (!(urb->transfer_flags & URB_SHORT_NOT_OK) ||
	    usb_pipecontrol(urb->pipe))
		qtd->hw_alt_next = EHCI_LIST_END;

	/*
	 * Control requests may need a terminating data "status" ack;
	 * other OUT ones may need a terminating short packet (zero length).
	 */
	if (urb->transfer_buffer_length != 0) {
		int	 one_more = 0;

		if (usb_pipecontrol(urb->pipe)) {
			one_more = 1;
			token ^= 0x0100;	/* "in" <--> "out" */
			token |= QTD_TOGGLE;	/* force DATA1 */
		} else if (usb_pipeout(urb->pipe) &&
		    (urb->transfer_flags & URB_ZERO_PACKET) &&
		    !(urb->transfer_buffer_length % maxpacket))
			one_more = 1;
		if (one_more) {
			if ((qtd = qtd_next(ehci, urb, qtd, head)) == NULL)
				goto cleanup;
			/* never any data in such packets */
			ehci_qtd_fill(qtd, 0, 0, token, 0);
		}
	}

	/* by default, enable interrupt on urb completion */
	if (!(urb->transfer_flags & URB_NO_INTERRUPT))
		qtd->hw_token |= cpu_to_hc32(QTD_IOC);
	return 0;

cleanup:
	ehci_qtd_list_free(ehci, head);
	return -ENOMEM;
}

/* ------------------------------------------------------------------------
 * Queue heads.
 */

/* Bus time of one high speed transaction, in us (USB 2.0 5.11.3, Linux
 * HS_USECS). */
static unsigned
hs_usecs(unsigned bytes, int iso)
{
	unsigned long	 ns;

	/* 7/6 bit stuffing, 2083 ps per bit, host delay 5 ns */
	ns = ((iso ? 38UL : 55UL) * 8 * 2083 +
	    2083UL * (3 + 7 * 8 * bytes / 6)) / 1000 + 5;
	return (unsigned)((ns + 999) / 1000);
}

/*
 * A QH for urb's endpoint (notes 6.11, Linux qh_make): address, endpoint,
 * speed and max packet in info1, Mult (and for split transactions the
 * TT) in info2.  Interrupt QHs get their period here; the S-mask comes
 * from the scheduler.  NULL when out of memory.
 */
struct ehci_qh *
ehci_qh_make(struct ehci_hcd *ehci, struct urb *urb)
{
	struct ehci_qh	*qh;
	struct usb_host_endpoint *ep = urb->ep;
	uint32_t	 info1 = 0, info2 = 0;
	unsigned	 maxp, type, interval;
	int		 is_input;

	if ((qh = ehci_qh_alloc(ehci)) == NULL)
		return NULL;
	qh->ep = ep;
	qh->ps.udev = urb->dev;

	/* the endpoint's maxpacket and the transactions per uframe */
	maxp = le16_to_cpu(ep->desc.wMaxPacketSize);
	type = usb_pipetype(urb->pipe);
	is_input = usb_pipein(urb->pipe) != 0;

	info1 |= QH_ENDPT(usb_pipeendpoint(urb->pipe));
	info1 |= usb_pipedevice(urb->pipe);

	if (type == PIPE_INTERRUPT) {
		qh->is_intr = 1;
		qh->ps.usecs = hs_usecs(maxp & 0x7ff, 0) *
		    (1 + ((maxp >> 11) & 3));
		interval = (unsigned)urb->interval;
		if (urb->dev->speed == USB_SPEED_HIGH) {
			/* interval 2 or 4 uframes could work, but every
			 * uframe is simpler and includes high bandwidth */
			if (interval > 1 && interval < 8)
				urb->interval = 1;
			else if (interval > ehci->periodic_size << 3)
				urb->interval = (int)(ehci->periodic_size << 3);
			qh->ps.period = (unsigned)urb->interval >> 3;
			qh->ps.bw_uperiod = (unsigned)urb->interval;
		} else {
			/* full/low speed: frames (power of two) */
			for (interval = 1; interval * 2 <=
			    (unsigned)urb->interval && interval * 2 <=
			    ehci->periodic_size; interval *= 2)
				;
			qh->ps.period = interval;
			qh->ps.bw_uperiod = interval << 3;
		}
		if (qh->ps.bw_uperiod > EHCI_BANDWIDTH_SIZE)
			qh->ps.bw_uperiod = EHCI_BANDWIDTH_SIZE;
		if (qh->ps.bw_uperiod == 0)
			qh->ps.bw_uperiod = 1;
	}

	switch (urb->dev->speed) {
	case USB_SPEED_LOW:
	case USB_SPEED_FULL:
		/* split transactions through the parent hub's TT */
		if (urb->dev->speed == USB_SPEED_LOW)
			info1 |= QH_LOW_SPEED;
		info1 |= QH_MAXP(maxp & 0x7ff);
		info1 |= QH_RL(EHCI_TUNE_RL_TT);
		info2 |= QH_MULT(EHCI_TUNE_MULT_TT);
		if (type == PIPE_CONTROL)
			info1 |= QH_CONTROL_EP | QH_TOGGLE_CTL;
		if (urb->dev->parent != NULL) {
			info2 |= (uint32_t)urb->dev->parent->devnum << 16;
			info2 |= (uint32_t)urb->dev->portnum << 23;
		}
		break;
	case USB_SPEED_HIGH:
	default:
		info1 |= QH_HIGH_SPEED;
		if (type == PIPE_CONTROL) {
			info1 |= QH_RL(EHCI_TUNE_RL_HS);
			info1 |= QH_MAXP(64);	/* usb2 fixed maxpacket */
			info1 |= QH_TOGGLE_CTL;	/* toggle from qtd */
			info2 |= QH_MULT(EHCI_TUNE_MULT_HS);
		} else if (type == PIPE_BULK) {
			info1 |= QH_RL(EHCI_TUNE_RL_HS);
			info1 |= QH_MAXP(maxp & 0x7ff);
			info2 |= QH_MULT(EHCI_TUNE_MULT_HS);
		} else {
			info1 |= QH_MAXP(maxp & 0x7ff);
			info2 |= QH_MULT(1 + ((maxp >> 11) & 3));
		}
		break;
	}

	/* init as live, toggle clear */
	qh->hw->hw_info1 = cpu_to_hc32(info1);
	qh->hw->hw_info2 = cpu_to_hc32(info2);
	qh->hw->hw_next = EHCI_LIST_END;
	qh->is_out = !is_input;
	usb_settoggle(urb->dev, usb_pipeendpoint(urb->pipe), !is_input, 1);
	return qh;
}

/* Free a QH that is out of every schedule, and what it still holds. */
void
ehci_qh_destroy(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	struct ehci_qtd	*qtd;

	while (!list_empty(&qh->qtd_list)) {
		qtd = container_of(qh->qtd_list.next, struct ehci_qtd,
		    qtd_list);
		list_del_init(&qtd->qtd_list);
		if (qtd != qh->dummy)
			ehci_qtd_free(ehci, qtd);
	}
	if (qh->is_intr && qh->ps.smask != 0)
		ehci_release_intr_bandwidth(ehci, qh);
	if (qh->ep != NULL && qh->ep->hcpriv == qh)
		qh->ep->hcpriv = NULL;
	list_del_init(&qh->intr_node);
	list_del_init(&qh->unlink_node);
	ehci_qh_free(ehci, qh);
}

/*
 * Append urb's qTDs to the endpoint's QH (*ptr, made on first use), by
 * swapping the first new qTD with the QH's dummy: the old dummy takes its
 * contents and becomes active last, the first new qTD becomes the dummy
 * (EHCI 4.10.2, notes 6.7).  An empty list only makes the QH.  Returns
 * the QH, or NULL when out of memory.
 */
struct ehci_qh *
ehci_qh_append_tds(struct ehci_hcd *ehci, struct urb *urb,
    struct list_head *qtd_list, void **ptr)
{
	struct ehci_qh	*qh = *ptr;
	struct ehci_qtd	*qtd, *dummy;
	struct list_head *prev;
	dma_addr_t	 dma;
	hc32		 token, info1;
	unsigned	 addr, maxp;

	if (qh == NULL) {
		if ((qh = ehci_qh_make(ehci, urb)) == NULL)
			return NULL;
		*ptr = qh;
	}

	/*
	 * ep0 of a device changes address (SET_ADDRESS) and maybe max
	 * packet (full speed) between URBs: patch an idle queue rather
	 * than rely on the core re-making the QH (Linux patches only the
	 * address-0 case, after usb_reset_device).
	 */
	if (usb_pipeendpoint(urb->pipe) == 0 && list_empty(&qh->qtd_list)) {
		info1 = hc32_to_cpu(qh->hw->hw_info1);
		addr = usb_pipedevice(urb->pipe);
		maxp = le16_to_cpu(urb->ep->desc.wMaxPacketSize) & 0x7ff;
		info1 = (info1 & ~QH_ADDR_MASK) | addr;
		if (urb->dev->speed != USB_SPEED_HIGH && maxp != 0)
			info1 = (info1 & ~QH_MAXP(0x7ff)) | QH_MAXP(maxp);
		qh->hw->hw_info1 = cpu_to_hc32(info1);
	}

	if (list_empty(qtd_list))
		return qh;
	qtd = container_of(qtd_list->next, struct ehci_qtd, qtd_list);

	/*
	 * To avoid racing the HC, use the dummy td instead of the first td
	 * of our list (it becomes the new dummy).  Both stay inactive until
	 * we're done, when the HC may fetch the old dummy.
	 */
	token = qtd->hw_token;
	qtd->hw_token = cpu_to_hc32(QTD_STS_HALT);

	dummy = qh->dummy;
	dma = dummy->qtd_dma;
	*dummy = *qtd;
	dummy->qtd_dma = dma;

	/* dummy takes qtd's place at the head of the URB's list */
	prev = qtd->qtd_list.prev;
	list_del_init(&qtd->qtd_list);
	list_add(&dummy->qtd_list, prev);
	list_splice_tail_init(qtd_list, &qh->qtd_list);

	ehci_qtd_init(qtd, qtd->qtd_dma);
	qh->dummy = qtd;

	/* the HC must see the new dummy at the list end */
	dma = qtd->qtd_dma;
	qtd = container_of(qh->qtd_list.prev, struct ehci_qtd, qtd_list);
	qtd->hw_next = QTD_NEXT(dma);

	/* let the HC process these next qTDs: the token goes last */
	dummy->hw_token = token;

	urb->hcpriv = qh;
	return qh;
}

/* ------------------------------------------------------------------------
 * The async ring.
 */

/* Stop waiting to turn the async schedule off, or turn it on. */
static void
enable_async(struct ehci_hcd *ehci)
{
	if (ehci->async_count++)
		return;
	ehci->enabled_events &= ~(1u << EHCI_HRTIMER_DISABLE_ASYNC);
	sim_timer_del(ehci->hcd->sim,
	    &ehci->timer[EHCI_HRTIMER_DISABLE_ASYNC].t);
	/* don't start the schedule until ASS is 0 */
	ehci_poll_ASS(ehci);
}

static void
disable_async(struct ehci_hcd *ehci)
{
	if (--ehci->async_count)
		return;
	/* don't turn off the schedule until ASS is 1 */
	ehci_poll_ASS(ehci);
}

/*
 * Bring the schedule's status (USBSTS.ASS) and command (ASE) in line:
 * they must agree before ASE changes again (notes 6.2).
 */
void
ehci_poll_ASS(struct ehci_hcd *ehci)
{
	uint32_t	 actual, want;

	if (ehci->rh_state != EHCI_RH_RUNNING)
		return;
	want = (ehci->command & CMD_ASE) ? STS_ASS : 0;
	actual = ehci_readl(ehci, EHCI_USBSTS) & STS_ASS;
	if (want != actual) {
		/* poll again later, but give up after about 2-4 ms */
		if (ehci->ass_poll_count++ < 2) {
			ehci_enable_event(ehci, EHCI_HRTIMER_POLL_ASS, 1);
			return;
		}
		ehci_log(ehci, "waited too long for the async schedule "
		    "status (%x/%x), giving up", want, actual);
	}
	ehci->ass_poll_count = 0;

	if (want == 0) {
		/* stopped */
		if (ehci->async_count > 0)
			ehci_set_command_bit(ehci, CMD_ASE);
	} else if (ehci->async_count == 0) {
		/* running: turn it off after a while */
		ehci_enable_event(ehci, EHCI_HRTIMER_DISABLE_ASYNC, 1);
	}
}

/* Splice an idle QH in right after the dummy head (notes 6.7). */
static void
qh_link_async(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	struct ehci_qh	*head = ehci->async;
	hc32		 dma = QH_NEXT(qh->qh_dma);

	/* clear halt and/or toggle; and maybe recover from silicon quirk */
	ehci_qh_refresh(ehci, qh);

	/* splice right after start */
	qh->qh_next = head->qh_next;
	qh->hw->hw_next = head->hw->hw_next;
	head->qh_next.qh = qh;
	head->hw->hw_next = dma;

	qh->qh_state = QH_STATE_LINKED;
	qh->xacterrs = 0;
	qh->unlink_reason = 0;
	/* qTD completions are reported later by interrupt */
	enable_async(ehci);
}

/*
 * Queue an URB's qTDs on its control or bulk endpoint (notes 6.11 step
 * 7, Linux submit_async).  0, or -ESHUTDOWN/-ENOENT/... from linking the
 * URB to its endpoint, or -ENOMEM; on error the qTDs are freed.
 */
int
ehci_submit_async(struct ehci_hcd *ehci, struct urb *urb,
    struct list_head *qtd_list)
{
	struct ehci_qh	*qh = NULL;
	int		 rc;

	if (ehci->rh_state != EHCI_RH_RUNNING) {
		rc = -ESHUTDOWN;
		goto done;
	}
	if ((rc = usb_hcd_link_urb_to_ep(ehci_to_hcd(ehci), urb)) != 0)
		goto done;
	qh = ehci_qh_append_tds(ehci, urb, qtd_list, &urb->ep->hcpriv);
	if (qh == NULL) {
		usb_hcd_unlink_urb_from_ep(ehci_to_hcd(ehci), urb);
		rc = -ENOMEM;
		goto done;
	}
	if (qh->qh_state == QH_STATE_IDLE)
		qh_link_async(ehci, qh);
done:
	if (qh == NULL)
		ehci_qtd_list_free(ehci, qtd_list);
	return rc;
}

/* ------------------------------------------------------------------------
 * Unlinking through the IAA doorbell (EHCI 4.8.2, notes 6.8).
 */

/* Take qh out of the ring; it waits for an IAA cycle. */
static void
single_unlink_async(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	struct ehci_qh	*prev;

	/* add to the end of the list of QHs waiting for the next IAAD */
	qh->qh_state = QH_STATE_UNLINK_WAIT;
	list_add_tail(&qh->unlink_node, &ehci->async_unlink);

	/* unlink it from the schedule */
	prev = ehci->async;
	while (prev->qh_next.qh != qh)
		prev = prev->qh_next.qh;
	prev->hw->hw_next = qh->hw->hw_next;
	prev->qh_next = qh->qh_next;
	if (ehci->qh_scan_next == qh)
		ehci->qh_scan_next = qh->qh_next.qh;
}

/* Ring the doorbell for the QHs waiting, unless a cycle is running. */
static void
start_iaa_cycle(struct ehci_hcd *ehci)
{
	struct list_head *l;

	/* if the controller isn't running, we don't have to wait for it */
	if (ehci->rh_state < EHCI_RH_RUNNING) {
		ehci_end_unlink_async(ehci);
		return;
	}
	/* otherwise start a new IAA cycle if one isn't already running */
	if (ehci->rh_state != EHCI_RH_RUNNING || ehci->iaa_in_progress)
		return;
	for (l = ehci->async_unlink.next; l != &ehci->async_unlink;
	    l = l->next)
		container_of(l, struct ehci_qh, unlink_node)->qh_state =
		    QH_STATE_UNLINK;
	list_splice_tail_init(&ehci->async_unlink, &ehci->async_iaa);
	ehci_writel(ehci, EHCI_USBCMD, ehci->command | CMD_IAAD);
	(void)ehci_readl(ehci, EHCI_USBCMD);
	ehci->iaa_in_progress = 1;
	ehci_enable_event(ehci, EHCI_HRTIMER_IAA_WATCHDOG, 1);
}

void
ehci_start_unlink_async(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	/* if the QH isn't linked then there's nothing we can do */
	if (qh->qh_state != QH_STATE_LINKED)
		return;
	single_unlink_async(ehci, qh);
	start_iaa_cycle(ehci);
}

/* The IAA cycle ended (interrupt or watchdog). */
void
ehci_end_iaa_cycle(struct ehci_hcd *ehci)
{
	ehci->iaa_in_progress = 0;
	ehci->enabled_events &= ~(1u << EHCI_HRTIMER_IAA_WATCHDOG);
	sim_timer_del(ehci->hcd->sim,
	    &ehci->timer[EHCI_HRTIMER_IAA_WATCHDOG].t);
	ehci_end_unlink_async(ehci);
}

/*
 * The HC released the QHs of the last IAA cycle: they are ours now.
 * Retire their qTDs; relink those still holding URBs, free orphans.
 */
void
ehci_end_unlink_async(struct ehci_hcd *ehci)
{
	struct ehci_qh	*qh;

	/* if the controller isn't running, process all the waiting QHs */
	if (ehci->rh_state < EHCI_RH_RUNNING) {
		list_splice_tail_init(&ehci->async_iaa,
		    &ehci->async_idle);
		list_splice_tail_init(&ehci->async_unlink,
		    &ehci->async_idle);
	} else
		list_splice_tail_init(&ehci->async_iaa,
		    &ehci->async_idle);

	/* completions can unlink more QHs: don't recurse */
	if (ehci->async_unlinking)
		return;
	ehci->async_unlinking = 1;
	while (!list_empty(&ehci->async_idle)) {
		qh = container_of(ehci->async_idle.next, struct ehci_qh,
		    unlink_node);
		list_del_init(&qh->unlink_node);

		qh->qh_state = QH_STATE_IDLE;
		qh->qh_next.qh = NULL;

		if (!list_empty(&qh->qtd_list))
			ehci_qh_completions(ehci, qh);
		if (!list_empty(&qh->qtd_list) &&
		    ehci->rh_state == EHCI_RH_RUNNING && !qh->orphan)
			qh_link_async(ehci, qh);
		else if (qh->orphan)
			ehci_qh_destroy(ehci, qh);
		disable_async(ehci);
	}
	ehci->async_unlinking = 0;

	/* start a new IAA cycle if any QHs are waiting for it */
	if (!list_empty(&ehci->async_unlink))
		start_iaa_cycle(ehci);
}

/* Handle a lost IAA interrupt (Linux ehci_iaa_watchdog). */
void
ehci_iaa_watchdog(struct ehci_hcd *ehci)
{
	uint32_t	 cmd, status;

	if (!ehci->iaa_in_progress || ehci->rh_state != EHCI_RH_RUNNING)
		return;
	/* IAA is *really* late: count it lost and clean up by hand */
	cmd = ehci_readl(ehci, EHCI_USBCMD);
	status = ehci_readl(ehci, EHCI_USBSTS);
	if ((status & STS_IAA) || !(cmd & CMD_IAAD)) {
		ehci->stats.lost_iaa++;
		ehci_writel(ehci, EHCI_USBSTS, STS_IAA);
	}
	ehci_log(ehci, "IAA watchdog: status %x cmd %x", status, cmd);
	ehci_end_iaa_cycle(ehci);
}

/* Unlink the QHs that stayed empty for a whole timer cycle. */
void
ehci_unlink_empty_async(struct ehci_hcd *ehci)
{
	struct ehci_qh	*qh, *next;
	int		 check_unlinks_later = 0;

	for (qh = ehci->async->qh_next.qh; qh != NULL; qh = next) {
		next = qh->qh_next.qh;
		if (!list_empty(&qh->qtd_list) ||
		    qh->qh_state != QH_STATE_LINKED)
			continue;
		if (qh->unlink_cycle == ehci->async_unlink_cycle)
			check_unlinks_later = 1;
		else {
			qh->unlink_reason |= QH_UNLINK_QUEUE_EMPTY;
			single_unlink_async(ehci, qh);
		}
	}
	if (!list_empty(&ehci->async_unlink))
		start_iaa_cycle(ehci);

	/* QHs that haven't been empty for long enough will be handled
	 * later */
	if (check_unlinks_later) {
		ehci_enable_event(ehci, EHCI_HRTIMER_ASYNC_UNLINKS, 1);
		++ehci->async_unlink_cycle;
	}
}

/* Retire finished work on every async QH (Linux scan_async). */
void
ehci_scan_async(struct ehci_hcd *ehci)
{
	struct ehci_qh	*qh;
	int		 check_unlinks_later = 0;

	ehci->qh_scan_next = ehci->async->qh_next.qh;
	while (ehci->qh_scan_next != NULL) {
		qh = ehci->qh_scan_next;
		ehci->qh_scan_next = qh->qh_next.qh;

		/* clean any finished work for this qh */
		if (list_empty(&qh->qtd_list))
			continue;
		/* completions may unlink QHs: qh_scan_next follows */
		if (ehci_qh_completions(ehci, qh) != 0)
			ehci_start_unlink_async(ehci, qh);
		else if (list_empty(&qh->qtd_list) &&
		    qh->qh_state == QH_STATE_LINKED) {
			qh->unlink_cycle = ehci->async_unlink_cycle;
			check_unlinks_later = 1;
		}
	}

	/* unlink empty entries later: a QH often is not idle for long */
	if (check_unlinks_later && ehci->rh_state == EHCI_RH_RUNNING &&
	    !(ehci->enabled_events & (1u << EHCI_HRTIMER_ASYNC_UNLINKS))) {
		ehci_enable_event(ehci, EHCI_HRTIMER_ASYNC_UNLINKS, 1);
		++ehci->async_unlink_cycle;
	}
}
