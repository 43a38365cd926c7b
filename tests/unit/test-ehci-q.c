/*
 * tests/unit/test-ehci-q.c - the EHCI driver's qTD machinery without a
 * controller: qtd_fill across pages (unaligned buffers, the 20 KiB limit,
 * trimming to max-packet multiples), URB -> qTD chains (control stages and
 * toggles, short-read alt-next, ZLP, IOC), the dummy-qTD append, the
 * token -> status table of notes 6.12 and qh_completions on retired qTDs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/usb.h"
#include "hcd/ehci.h"

struct fixture {
	struct sim	*sim;
	struct dma_mem	*dma;
	struct usb_hcd	*hcd;
	struct ehci_hcd	*ehci;
	struct usb_device *udev;
	struct usb_host_endpoint ep0, bulk_in, bulk_out;
	int		 completions;
	int		 last_status;
	unsigned	 last_actual;
};

static struct fixture *fx;	/* for complete(), which has no argument */

static void
ep_init(struct usb_host_endpoint *ep, uint8_t addr, uint8_t type,
    uint16_t maxp)
{
	memset(ep, 0, sizeof *ep);
	ep->desc.bLength = USB_DT_ENDPOINT_SIZE;
	ep->desc.bDescriptorType = USB_DT_ENDPOINT;
	ep->desc.bEndpointAddress = addr;
	ep->desc.bmAttributes = type;
	ep->desc.wMaxPacketSize = maxp;
	INIT_LIST_HEAD(&ep->urb_list);
	ep->enabled = 1;
}

static int
setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	f->sim = sim_new(0, NULL);
	f->dma = dma_mem_new(4u << 20);
	assert_non_null(f->sim);
	assert_non_null(f->dma);
	f->hcd = usb_create_hcd(f->sim, &ehci_hc_driver, NULL, NULL, NULL,
	    f->dma, 1);
	assert_non_null(f->hcd);
	f->ehci = hcd_to_ehci(f->hcd);
	f->ehci->hcd = f->hcd;
	INIT_LIST_HEAD(&f->ehci->async_unlink);
	INIT_LIST_HEAD(&f->ehci->async_iaa);
	INIT_LIST_HEAD(&f->ehci->async_idle);
	INIT_LIST_HEAD(&f->ehci->intr_qh_list);
	INIT_LIST_HEAD(&f->ehci->intr_unlink);
	assert_int_equal(ehci_mem_init(f->ehci), 0);
	f->ehci->rh_state = EHCI_RH_RUNNING;
	f->hcd->state = HC_STATE_RUNNING;
	f->hcd->rh_registered = 1;

	f->udev = usb_alloc_dev(NULL, &f->hcd->self, 0);
	assert_non_null(f->udev);
	f->udev->devnum = 5;
	f->udev->speed = USB_SPEED_HIGH;
	ep_init(&f->ep0, 0x00, USB_ENDPOINT_XFER_CONTROL, 64);
	ep_init(&f->bulk_in, 0x81, USB_ENDPOINT_XFER_BULK, 512);
	ep_init(&f->bulk_out, 0x02, USB_ENDPOINT_XFER_BULK, 512);
	fx = f;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	ehci_mem_cleanup(f->ehci);
	usb_put_dev(f->udev);
	usb_put_hcd(f->hcd);
	dma_mem_free(f->dma);
	usb_core_free(f->sim);
	sim_free(f->sim);
	free(f);
	return 0;
}

static void
complete_fn(struct urb *urb)
{
	fx->completions++;
	fx->last_status = urb->status;
	fx->last_actual = urb->actual_length;
}

/* An URB as the glue hands it to the driver: mapped at the given DMA
 * addresses. */
static struct urb *
mkurb(struct fixture *f, unsigned int pipe, struct usb_host_endpoint *ep,
    unsigned len, dma_addr_t buf, unsigned flags)
{
	struct urb	*urb = usb_alloc_urb(0, GFP_KERNEL);

	assert_non_null(urb);
	urb->dev = f->udev;
	urb->pipe = pipe;
	urb->ep = ep;
	urb->transfer_buffer_length = len;
	urb->transfer_dma_mapped = buf;
	urb->transfer_flags = flags;
	urb->complete = complete_fn;
	return urb;
}

/* The chain as an array (at most n); returns its length. */
static int
chain(struct list_head *head, struct ehci_qtd **v, int n)
{
	struct list_head *l;
	int		 i = 0;

	for (l = head->next; l != head && i < n; l = l->next)
		v[i++] = container_of(l, struct ehci_qtd, qtd_list);
	return i;
}

static uint32_t
tok(const struct ehci_qtd *q)
{
	return hc32_to_cpu(q->hw_token);
}

/* ------------------------------------------------------------------------
 * qtd_fill
 */
static void
test_fill_unaligned(void **state)
{
	struct fixture	*f = *state;
	struct ehci_qtd	*q = ehci_qtd_alloc(f->ehci);
	size_t		 n;

	/* fits: 0xf00 in the first page, then whole pages up to len */
	n = ehci_qtd_fill(q, 0x10000100, 20000, QTD_STS_ACTIVE, 512);
	assert_int_equal(n, 20000);
	assert_int_equal(q->length, 20000);
	assert_int_equal(QTD_LENGTH(tok(q)), 20000);
	assert_true(tok(q) & QTD_STS_ACTIVE);
	assert_int_equal(hc32_to_cpu(q->hw_buf[0]), 0x10000100);
	assert_int_equal(hc32_to_cpu(q->hw_buf[1]), 0x10001000);
	assert_int_equal(hc32_to_cpu(q->hw_buf[2]), 0x10002000);
	assert_int_equal(hc32_to_cpu(q->hw_buf[3]), 0x10003000);
	assert_int_equal(hc32_to_cpu(q->hw_buf[4]), 0x10004000);

	/* does not fit: 5 pages hold 0xf00 + 4 * 4096 = 20224 bytes,
	 * trimmed to a multiple of 512 so only the last qTD is short */
	n = ehci_qtd_fill(q, 0x10000100, 21000, 0, 512);
	assert_int_equal(n, 19968);
	assert_int_equal(n % 512, 0);
	assert_int_equal(QTD_LENGTH(tok(q)), 19968);

	/* small and inside one page: only buffer 0 */
	memset(q->hw_buf, 0, sizeof q->hw_buf);
	n = ehci_qtd_fill(q, 0x10000ff0, 16, 0, 64);
	assert_int_equal(n, 16);
	assert_int_equal(hc32_to_cpu(q->hw_buf[0]), 0x10000ff0);
	assert_int_equal(q->hw_buf[1], 0);

	/* crossing one page boundary uses buffer 1 */
	n = ehci_qtd_fill(q, 0x10000ff0, 64, 0, 64);
	assert_int_equal(n, 64);
	assert_int_equal(hc32_to_cpu(q->hw_buf[1]), 0x10001000);
	ehci_qtd_free(f->ehci, q);
}

static void
test_fill_aligned_limit(void **state)
{
	struct fixture	*f = *state;
	struct ehci_qtd	*q = ehci_qtd_alloc(f->ehci);

	/* page aligned: exactly 20 KiB, the EHCI 3.5 maximum */
	assert_int_equal(ehci_qtd_fill(q, 0x10010000, 30000, 0, 512),
	    EHCI_QTD_MAX);
	assert_int_equal(QTD_LENGTH(tok(q)), 20480);
	/* max packet 1000 (not a power of two): 20480 -> 20000 */
	assert_int_equal(ehci_qtd_fill(q, 0x10010000, 30000, 0, 1000),
	    20000);
	/* zero length: one qTD of nothing */
	assert_int_equal(ehci_qtd_fill(q, 0, 0, QTD_IOC, 0), 0);
	assert_int_equal(tok(q), QTD_IOC);
	ehci_qtd_free(f->ehci, q);
}

/* ------------------------------------------------------------------------
 * URB -> qTD chain
 */
static void
test_bulk_out_chain(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb = mkurb(f, usb_sndbulkpipe(f->udev, 2),
	    &f->bulk_out, 50000, 0x10100000, 0);
	struct ehci_qtd	*q[8];
	struct list_head head;
	int		 n, i;

	INIT_LIST_HEAD(&head);
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	n = chain(&head, q, 8);
	assert_int_equal(n, 3);
	assert_int_equal(q[0]->length, 20480);
	assert_int_equal(q[1]->length, 20480);
	assert_int_equal(q[2]->length, 50000 - 40960);
	for (i = 0; i < n; i++) {
		assert_int_equal(QTD_PID(tok(q[i])), PID_CODE_OUT);
		assert_int_equal(QTD_CERR(tok(q[i])), 3);
		assert_true(tok(q[i]) & QTD_STS_ACTIVE);
		/* OUT never takes alt-next */
		assert_int_equal(q[i]->hw_alt_next, EHCI_LIST_END);
		assert_ptr_equal(q[i]->urb, urb);
		/* IOC on the last only */
		assert_int_equal((tok(q[i]) & QTD_IOC) != 0, i == n - 1);
	}
	/* linked in order; the last is open for the append */
	assert_int_equal(hc32_to_cpu(q[0]->hw_next), q[1]->qtd_dma);
	assert_int_equal(hc32_to_cpu(q[1]->hw_next), q[2]->qtd_dma);
	assert_int_equal(q[2]->hw_next, EHCI_LIST_END);
	/* buffers continue where the previous qTD stopped */
	assert_int_equal(hc32_to_cpu(q[1]->hw_buf[0]), 0x10100000 + 20480);
	assert_int_equal(hc32_to_cpu(q[2]->hw_buf[0]), 0x10100000 + 40960);
	ehci_qtd_list_free(f->ehci, &head);
	usb_free_urb(urb);
}

static void
test_bulk_in_alt_next(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb;
	struct ehci_qtd	*q[8];
	struct list_head head;
	hc32		 magic = f->ehci->async->hw->hw_alt_next;
	int		 n;

	assert_int_equal(hc32_to_cpu(magic), f->ehci->async->dummy->qtd_dma);

	/* without SHORT_NOT_OK: a short read stops the queue only when it
	 * happens before the last qTD */
	urb = mkurb(f, usb_rcvbulkpipe(f->udev, 1), &f->bulk_in, 50000,
	    0x10100000, URB_DIR_IN);
	INIT_LIST_HEAD(&head);
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	n = chain(&head, q, 8);
	assert_int_equal(n, 3);
	assert_int_equal(QTD_PID(tok(q[0])), PID_CODE_IN);
	assert_int_equal(q[0]->hw_alt_next, magic);
	assert_int_equal(q[1]->hw_alt_next, magic);
	assert_int_equal(q[2]->hw_alt_next, EHCI_LIST_END);
	ehci_qtd_list_free(f->ehci, &head);

	/* with SHORT_NOT_OK every qTD stops the queue for cleanup */
	urb->transfer_flags |= URB_SHORT_NOT_OK;
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	n = chain(&head, q, 8);
	assert_int_equal(n, 3);
	assert_int_equal(q[2]->hw_alt_next, magic);
	ehci_qtd_list_free(f->ehci, &head);
	usb_free_urb(urb);
}

static void
test_control_in_stages(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb = mkurb(f, usb_rcvctrlpipe(f->udev, 0), &f->ep0,
	    18, 0x10200000, URB_DIR_IN);
	struct ehci_qtd	*q[8];
	struct list_head head;

	urb->setup_dma_mapped = 0x10300040;
	INIT_LIST_HEAD(&head);
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 3);

	/* SETUP: DATA0, 8 bytes at the setup packet */
	assert_int_equal(QTD_PID(tok(q[0])), PID_CODE_SETUP);
	assert_int_equal(tok(q[0]) & QTD_TOGGLE, 0);
	assert_int_equal(QTD_LENGTH(tok(q[0])), 8);
	assert_int_equal(hc32_to_cpu(q[0]->hw_buf[0]), 0x10300040);
	assert_int_equal(tok(q[0]) & QTD_IOC, 0);
	/* DATA IN: DATA1; a short read just continues to the status */
	assert_int_equal(QTD_PID(tok(q[1])), PID_CODE_IN);
	assert_int_equal(tok(q[1]) & QTD_TOGGLE, QTD_TOGGLE);
	assert_int_equal(QTD_LENGTH(tok(q[1])), 18);
	assert_int_equal(hc32_to_cpu(q[1]->hw_buf[0]), 0x10200000);
	assert_int_equal(q[1]->hw_alt_next, EHCI_LIST_END);
	/* STATUS OUT: DATA1, zero length, IOC */
	assert_int_equal(QTD_PID(tok(q[2])), PID_CODE_OUT);
	assert_int_equal(tok(q[2]) & QTD_TOGGLE, QTD_TOGGLE);
	assert_int_equal(QTD_LENGTH(tok(q[2])), 0);
	assert_true(tok(q[2]) & QTD_IOC);
	assert_int_equal(hc32_to_cpu(q[0]->hw_next), q[1]->qtd_dma);
	assert_int_equal(hc32_to_cpu(q[1]->hw_next), q[2]->qtd_dma);
	ehci_qtd_list_free(f->ehci, &head);

	/* two data packets (128 bytes): the status stage is still DATA1,
	 * forced, whatever the parity test left in the token */
	urb->transfer_buffer_length = 128;
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 3);
	assert_int_equal(tok(q[1]) & QTD_TOGGLE, QTD_TOGGLE);
	assert_int_equal(QTD_LENGTH(tok(q[1])), 128);
	assert_int_equal(QTD_PID(tok(q[2])), PID_CODE_OUT);
	assert_int_equal(tok(q[2]) & QTD_TOGGLE, QTD_TOGGLE);
	ehci_qtd_list_free(f->ehci, &head);
	usb_free_urb(urb);
}

static void
test_control_out_stages(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb;
	struct ehci_qtd	*q[8];
	struct list_head head;

	/* no data stage (SET_ADDRESS): SETUP, then STATUS IN DATA1 */
	urb = mkurb(f, usb_sndctrlpipe(f->udev, 0), &f->ep0, 0, 0, 0);
	urb->setup_dma_mapped = 0x10300040;
	INIT_LIST_HEAD(&head);
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 2);
	assert_int_equal(QTD_PID(tok(q[0])), PID_CODE_SETUP);
	assert_int_equal(QTD_PID(tok(q[1])), PID_CODE_IN);
	assert_int_equal(tok(q[1]) & QTD_TOGGLE, QTD_TOGGLE);
	assert_int_equal(QTD_LENGTH(tok(q[1])), 0);
	assert_true(tok(q[1]) & QTD_IOC);
	ehci_qtd_list_free(f->ehci, &head);

	/* OUT data (SET_REPORT, 4 bytes): SETUP, DATA OUT 1, STATUS IN 1 */
	urb->transfer_buffer_length = 4;
	urb->transfer_dma_mapped = 0x10200000;
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 3);
	assert_int_equal(QTD_PID(tok(q[1])), PID_CODE_OUT);
	assert_int_equal(tok(q[1]) & QTD_TOGGLE, QTD_TOGGLE);
	assert_int_equal(QTD_LENGTH(tok(q[1])), 4);
	assert_int_equal(QTD_PID(tok(q[2])), PID_CODE_IN);
	assert_int_equal(tok(q[2]) & QTD_TOGGLE, QTD_TOGGLE);
	assert_int_equal(QTD_LENGTH(tok(q[2])), 0);
	assert_true(tok(q[2]) & QTD_IOC);
	assert_int_equal(tok(q[1]) & QTD_IOC, 0);
	ehci_qtd_list_free(f->ehci, &head);
	usb_free_urb(urb);
}

static void
test_zero_packet(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb;
	struct ehci_qtd	*q[8];
	struct list_head head;

	INIT_LIST_HEAD(&head);
	/* a multiple of maxpacket with URB_ZERO_PACKET: a ZLP follows */
	urb = mkurb(f, usb_sndbulkpipe(f->udev, 2), &f->bulk_out, 1024,
	    0x10100000, URB_ZERO_PACKET);
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 2);
	assert_int_equal(q[0]->length, 1024);
	assert_int_equal(tok(q[0]) & QTD_IOC, 0);
	assert_int_equal(q[1]->length, 0);
	assert_int_equal(QTD_PID(tok(q[1])), PID_CODE_OUT);
	assert_true(tok(q[1]) & QTD_IOC);
	ehci_qtd_list_free(f->ehci, &head);

	/* not a multiple: no ZLP */
	urb->transfer_buffer_length = 1000;
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 1);
	ehci_qtd_list_free(f->ehci, &head);

	/* no flag: no ZLP */
	urb->transfer_buffer_length = 1024;
	urb->transfer_flags = 0;
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 1);
	assert_true(tok(q[0]) & QTD_IOC);
	ehci_qtd_list_free(f->ehci, &head);

	/* URB_NO_INTERRUPT: no IOC anywhere */
	urb->transfer_flags = URB_NO_INTERRUPT | URB_ZERO_PACKET;
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 2);
	assert_int_equal(tok(q[0]) & QTD_IOC, 0);
	assert_int_equal(tok(q[1]) & QTD_IOC, 0);
	ehci_qtd_list_free(f->ehci, &head);

	/* zero-length bulk: one empty qTD */
	urb->transfer_buffer_length = 0;
	urb->transfer_flags = 0;
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	assert_int_equal(chain(&head, q, 8), 1);
	assert_int_equal(q[0]->length, 0);
	assert_true(tok(q[0]) & QTD_IOC);
	ehci_qtd_list_free(f->ehci, &head);
	usb_free_urb(urb);
}

/* ------------------------------------------------------------------------
 * QH and append
 */
static void
test_qh_make_and_append(void **state)
{
	struct fixture	*f = *state;
	struct urb	*u1, *u2;
	struct ehci_qh	*qh;
	struct ehci_qtd	*q[8], *dummy;
	struct list_head head;
	dma_addr_t	 old_dummy;
	uint32_t	 info1;
	void		*hcpriv = NULL;
	int		 n;

	u1 = mkurb(f, usb_sndbulkpipe(f->udev, 2), &f->bulk_out, 30000,
	    0x10100000, 0);
	INIT_LIST_HEAD(&head);
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, u1, &head), 0);
	qh = ehci_qh_append_tds(f->ehci, u1, &head, &hcpriv);
	assert_non_null(qh);
	assert_ptr_equal(hcpriv, qh);
	assert_ptr_equal(u1->hcpriv, qh);
	assert_true(list_empty(&head));

	/* qh_make: HS bulk, RL 4, maxp 512, endpoint 2, address 5, Mult 1,
	 * toggle kept by the HC (DTC = 0) */
	info1 = hc32_to_cpu(qh->hw->hw_info1);
	assert_int_equal(info1 & QH_ADDR_MASK, 5);
	assert_int_equal((info1 >> 8) & 0xf, 2);
	assert_int_equal(info1 & (3u << 12), QH_HIGH_SPEED);
	assert_int_equal(QH_MAXP_GET(info1), 512);
	assert_int_equal(info1 >> 28, 4);
	assert_int_equal(info1 & QH_TOGGLE_CTL, 0);
	assert_int_equal(hc32_to_cpu(qh->hw->hw_info2) >> 30, 1);

	/* the first qTD took the old dummy's place; the new dummy is
	 * halted at the end */
	n = chain(&qh->qtd_list, q, 8);
	assert_int_equal(n, 2);
	dummy = qh->dummy;
	assert_true(tok(dummy) & QTD_STS_HALT);
	assert_false(tok(dummy) & QTD_STS_ACTIVE);
	assert_int_equal(hc32_to_cpu(q[1]->hw_next), dummy->qtd_dma);
	assert_true(tok(q[0]) & QTD_STS_ACTIVE);
	assert_int_equal(q[0]->length, 20480);

	/* a second URB lands in the current dummy, activated last */
	old_dummy = dummy->qtd_dma;
	u2 = mkurb(f, usb_sndbulkpipe(f->udev, 2), &f->bulk_out, 100,
	    0x10180000, 0);
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, u2, &head), 0);
	assert_ptr_equal(ehci_qh_append_tds(f->ehci, u2, &head, &hcpriv), qh);
	n = chain(&qh->qtd_list, q, 8);
	assert_int_equal(n, 3);
	assert_int_equal(q[2]->qtd_dma, old_dummy);
	assert_ptr_equal(q[2]->urb, u2);
	assert_true(tok(q[2]) & QTD_STS_ACTIVE);
	assert_int_equal(QTD_LENGTH(tok(q[2])), 100);
	assert_int_equal(hc32_to_cpu(q[2]->hw_next), qh->dummy->qtd_dma);
	assert_true(qh->dummy->qtd_dma != old_dummy);

	ehci_qh_destroy(f->ehci, qh);
	usb_free_urb(u1);
	usb_free_urb(u2);
}

/* ------------------------------------------------------------------------
 * Token -> status (notes 6.12, every row).
 */
static int
status_of(unsigned pid, uint32_t bits, unsigned cerr, unsigned left,
    unsigned *actual)
{
	struct urb	 urb;
	int		 st;

	memset(&urb, 0, sizeof urb);
	st = ehci_qtd_copy_status(&urb, 512,
	    (uint32_t)left << 16 | cerr << 10 | pid << 8 | bits);
	if (actual != NULL)
		*actual = urb.actual_length;
	return st;
}

static void
test_token_status(void **state)
{
	unsigned	 actual;

	(void)state;
	/* done, all bytes: nothing to report yet */
	assert_int_equal(status_of(PID_CODE_IN, 0, 3, 0, &actual),
	    -EINPROGRESS);
	assert_int_equal(actual, 512);
	/* short IN read */
	assert_int_equal(status_of(PID_CODE_IN, 0, 3, 12, &actual),
	    -EREMOTEIO);
	assert_int_equal(actual, 500);
	/* SETUP bytes are not counted */
	status_of(PID_CODE_SETUP, 0, 3, 0, &actual);
	assert_int_equal(actual, 0);
	/* Halted + Babble -> -EOVERFLOW (first row wins) */
	assert_int_equal(status_of(PID_CODE_IN, QTD_STS_HALT |
	    QTD_STS_BABBLE | QTD_STS_XACT, 3, 0, NULL), -EOVERFLOW);
	/* MissedMF + IN -> -EPROTO, even with retries left */
	assert_int_equal(status_of(PID_CODE_IN, QTD_STS_HALT | QTD_STS_MMF,
	    2, 0, NULL), -EPROTO);
	/* halted with CERR != 0: a STALL handshake -> -EPIPE */
	assert_int_equal(status_of(PID_CODE_OUT, QTD_STS_HALT, 3, 0, NULL),
	    -EPIPE);
	assert_int_equal(status_of(PID_CODE_IN, QTD_STS_HALT, 1, 0, NULL),
	    -EPIPE);
	/* MissedMF (OUT) with CERR 0 -> -EPROTO */
	assert_int_equal(status_of(PID_CODE_OUT, QTD_STS_HALT | QTD_STS_MMF,
	    0, 0, NULL), -EPROTO);
	/* DataBufferErr: IN -ENOSR, OUT -ECOMM */
	assert_int_equal(status_of(PID_CODE_IN, QTD_STS_HALT | QTD_STS_DBE,
	    0, 0, NULL), -ENOSR);
	assert_int_equal(status_of(PID_CODE_OUT, QTD_STS_HALT | QTD_STS_DBE,
	    0, 0, NULL), -ECOMM);
	/* XactErr with retries exhausted -> -EPROTO */
	assert_int_equal(status_of(PID_CODE_OUT, QTD_STS_HALT | QTD_STS_XACT,
	    0, 0, NULL), -EPROTO);
	/* anything else halted -> -EPROTO */
	assert_int_equal(status_of(PID_CODE_OUT, QTD_STS_HALT, 0, 0, NULL),
	    -EPROTO);
}

static void
test_token_status_unlinked(void **state)
{
	struct urb	 urb;

	(void)state;
	/* an unlinked URB keeps its unlink status: nothing from here */
	memset(&urb, 0, sizeof urb);
	urb.unlinked = -ECONNRESET;
	assert_int_equal(ehci_qtd_copy_status(&urb, 512, 100u << 16 |
	    PID_CODE_IN << 8 | QTD_STS_HALT | QTD_STS_BABBLE), -EINPROGRESS);
	assert_int_equal(urb.actual_length, 412);
}

/* ------------------------------------------------------------------------
 * qh_completions on qTDs the "controller" retired.
 */
static struct ehci_qh *
queue(struct fixture *f, struct urb *urb, void **hcpriv)
{
	struct list_head head;

	INIT_LIST_HEAD(&head);
	assert_int_equal(ehci_qh_urb_transaction(f->ehci, urb, &head), 0);
	/* the glue's submit: linked to the endpoint, one reference */
	usb_get_urb(urb);
	urb->use_count++;
	assert_int_equal(usb_hcd_link_urb_to_ep(f->hcd, urb), 0);
	return ehci_qh_append_tds(f->ehci, urb, &head, hcpriv);
}

static void
retire(struct ehci_qtd *q, uint32_t bits, unsigned left)
{
	uint32_t	 t = tok(q);

	t &= ~(QTD_STS_ACTIVE | (0x7fffu << 16));
	q->hw_token = cpu_to_hc32(t | bits | (uint32_t)left << 16);
}

static void
test_completions_short_read(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb = mkurb(f, usb_rcvbulkpipe(f->udev, 1),
	    &f->bulk_in, 50000, 0x10100000, URB_DIR_IN);
	struct ehci_qtd	*q[8];
	struct ehci_qh	*qh;
	void		*hcpriv = NULL;
	unsigned	 why;

	qh = queue(f, urb, &hcpriv);
	assert_int_equal(chain(&qh->qtd_list, q, 8), 3);
	qh->qh_state = QH_STATE_LINKED;

	/* nothing done yet: nothing happens */
	assert_int_equal(ehci_qh_completions(f->ehci, qh), 0);
	assert_int_equal(f->completions, 0);

	/* first qTD complete, second short: the HC went to the magic
	 * dummy; the queue stopped, the URB is done with 0 */
	retire(q[0], 0, 0);
	retire(q[1], 0, 1000);
	why = ehci_qh_completions(f->ehci, qh);
	assert_true(why & QH_UNLINK_SHORT_READ);
	assert_int_equal(f->completions, 1);
	assert_int_equal(f->last_status, 0);
	assert_int_equal(f->last_actual, 20480 + 20480 - 1000);
	assert_true(list_empty(&qh->qtd_list));
	assert_null(urb->hcpriv);
	assert_int_equal(urb->use_count, 0);
	ehci_qh_destroy(f->ehci, qh);
	usb_free_urb(urb);
}

static void
test_completions_stall(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb = mkurb(f, usb_rcvctrlpipe(f->udev, 0), &f->ep0,
	    64, 0x10200000, URB_DIR_IN);
	struct ehci_qtd	*q[8];
	struct ehci_qh	*qh;
	void		*hcpriv = NULL;
	unsigned	 why;

	urb->setup_dma_mapped = 0x10300040;
	qh = queue(f, urb, &hcpriv);
	assert_int_equal(chain(&qh->qtd_list, q, 8), 3);
	qh->qh_state = QH_STATE_LINKED;

	/* SETUP ok, the data stage STALLs: halted with CERR left */
	retire(q[0], 0, 0);
	retire(q[1], QTD_STS_HALT, 64);
	why = ehci_qh_completions(f->ehci, qh);
	assert_true(why & QH_UNLINK_HALTED);
	assert_int_equal(f->completions, 1);
	assert_int_equal(f->last_status, -EPIPE);
	assert_int_equal(f->last_actual, 0);
	/* the status stage went with its URB */
	assert_true(list_empty(&qh->qtd_list));
	ehci_qh_destroy(f->ehci, qh);
	usb_free_urb(urb);
}

static void
test_completions_xacterr_retry(void **state)
{
	struct fixture	*f = *state;
	struct urb	*urb = mkurb(f, usb_sndbulkpipe(f->udev, 2),
	    &f->bulk_out, 512, 0x10100000, 0);
	struct ehci_qtd	*q[8];
	struct ehci_qh	*qh;
	void		*hcpriv = NULL;
	int		 i;

	qh = queue(f, urb, &hcpriv);
	assert_int_equal(chain(&qh->qtd_list, q, 8), 1);
	qh->qh_state = QH_STATE_LINKED;

	/* three strikes: the driver re-arms the qTD (CERR 3, active) */
	q[0]->hw_token = cpu_to_hc32((tok(q[0]) & ~(QTD_STS_ACTIVE |
	    3u << 10)) | QTD_STS_HALT | QTD_STS_XACT);
	assert_int_equal(ehci_qh_completions(f->ehci, qh), 0);
	assert_int_equal(f->completions, 0);
	assert_true(tok(q[0]) & QTD_STS_ACTIVE);
	assert_int_equal(QTD_CERR(tok(q[0])), 3);
	assert_int_equal(hc32_to_cpu(qh->hw->hw_token), tok(q[0]));

	/* ... up to QH_XACTERR_MAX times, then -EPROTO */
	for (i = 0; i < QH_XACTERR_MAX && f->completions == 0; i++) {
		q[0]->hw_token = cpu_to_hc32((tok(q[0]) & ~(QTD_STS_ACTIVE |
		    3u << 10)) | QTD_STS_HALT | QTD_STS_XACT);
		(void)ehci_qh_completions(f->ehci, qh);
	}
	assert_int_equal(f->completions, 1);
	assert_int_equal(f->last_status, -EPROTO);
	ehci_qh_destroy(f->ehci, qh);
	usb_free_urb(urb);
}

static void
test_completions_unlinked_and_shutdown(void **state)
{
	struct fixture	*f = *state;
	struct urb	*u1 = mkurb(f, usb_rcvbulkpipe(f->udev, 1),
	    &f->bulk_in, 512, 0x10100000, URB_DIR_IN);
	struct urb	*u2 = mkurb(f, usb_rcvbulkpipe(f->udev, 1),
	    &f->bulk_in, 512, 0x10101000, URB_DIR_IN);
	struct ehci_qh	*qh;
	void		*hcpriv = NULL;

	qh = queue(f, u1, &hcpriv);
	assert_ptr_equal(queue(f, u2, &hcpriv), qh);

	/* the QH came off the schedule (IDLE) with u1 unlinked: u1 goes
	 * back with -ECONNRESET, u2 stays queued */
	qh->qh_state = QH_STATE_IDLE;
	assert_int_equal(usb_hcd_check_unlink_urb(f->hcd, u1, -ECONNRESET),
	    0);
	assert_int_equal(usb_hcd_check_unlink_urb(f->hcd, u1, -ENOENT),
	    -EBUSY);
	(void)ehci_qh_completions(f->ehci, qh);
	assert_int_equal(f->completions, 1);
	assert_int_equal(f->last_status, -ECONNRESET);
	assert_false(list_empty(&qh->qtd_list));

	/* the controller stops: everything else goes with -ESHUTDOWN */
	f->ehci->rh_state = EHCI_RH_HALTED;
	(void)ehci_qh_completions(f->ehci, qh);
	assert_int_equal(f->completions, 2);
	assert_int_equal(f->last_status, -ESHUTDOWN);
	assert_true(list_empty(&qh->qtd_list));
	assert_int_equal(usb_hcd_check_unlink_urb(f->hcd, u2, -ENOENT),
	    -EIDRM);
	ehci_qh_destroy(f->ehci, qh);
	usb_free_urb(u1);
	usb_free_urb(u2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fill_unaligned, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_fill_aligned_limit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bulk_out_chain, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bulk_in_alt_next, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_control_in_stages, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_control_out_stages, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_zero_packet, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_qh_make_and_append, setup,
		    teardown),
		cmocka_unit_test(test_token_status),
		cmocka_unit_test(test_token_status_unlinked),
		cmocka_unit_test_setup_teardown(test_completions_short_read,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_completions_stall, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_completions_xacterr_retry,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_completions_unlinked_and_shutdown, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
