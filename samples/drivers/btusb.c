/*
 * Bluetooth HCI over USB for urbscope's simulated USB core.
 *
 * Binds to interface 0 of a Bluetooth controller (class 0xE0, subclass
 * 1, protocol 1: Bluetooth Core 5.3 Vol 4 Part B) and claims its
 * isochronous interface 1, as Linux's btusb (drivers/bluetooth/btusb.c)
 * does.  Like btusb it sends HCI commands as class requests on ep0
 * (btusb_send_frame: bRequestType USB_TYPE_CLASS, bRequest 0, wIndex 0),
 * reads events with an interrupt URB of the endpoint's packet size
 * (btusb_submit_intr_urb) and ACL data with a bulk IN URB
 * (btusb_submit_bulk_urb), puts a packet that came in several transfers
 * together again (btusb_recv_intr, btusb_recv_bulk), and writes ACL data
 * to bulk OUT.  With a voice link up it streams SCO as btusb_work does:
 * interface 1 to the alt setting for one 16-bit CVSD link (alt 2,
 * __set_isoc_interface), two isochronous IN URBs of
 * BTUSB_MAX_ISOC_FRAMES packets of wMaxPacketSize (btusb_submit_isoc_urb)
 * resubmitted as they complete, the SCO packets in them put together
 * across packets (btusb_recv_isoc), and each SCO packet written in a URB
 * of its own, cut into packets of wMaxPacketSize (btusb_isoc_tx,
 * __fill_isoc_descriptor).
 *
 * At open it plays what the kernel's HCI core and bluetoothd do with a
 * new controller (net/bluetooth/hci_sync.c, then an LE scan and a BR/EDR
 * connection): HCI_Reset, Read Local Version Information, Read BD_ADDR,
 * Read Buffer Size, LE Set Scan Parameters, LE Set Scan Enable on, the
 * advertising reports logged, scan off, Create Connection to the first
 * BR/EDR peer, and on the link L2CAP's Information Request (extended
 * features), a Connection Request for SDP (PSM 1) and the configuration
 * of that channel both ways (net/bluetooth/l2cap_core.c), an Echo
 * Request with 80 bytes of data (as l2ping -s 80 sends), an SCO link
 * (Setup Synchronous Connection, CVSD) with voice both ways until
 * BTUSB_SCO_PKTS packets went each way, its Disconnect; then
 * Disconnect.  Each command waits for its Command Complete or Command
 * Status (one command in flight, as the controller's
 * Num_HCI_Command_Packets allows).
 *
 * The node is /dev/usb/hci0 (minor base 176, a minor of the USB major);
 * read() gives the controller's BD_ADDR and version once opened.
 */

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "decode/usbclass.h"
#include "core/usb.h"
#include "samples/drivers/drivers.h"

#define BTUSB_MINOR_BASE	176
#define BTUSB_ACL_SIZE		1028	/* HCI_MAX_FRAME_SIZE */
#define BTUSB_WAIT_MS		500	/* an event's time-out */
#define BTUSB_SCAN_MS		30
#define BTUSB_HANDLE_NONE	0xffff
#define BTUSB_SCID		0x0040	/* our L2CAP channel */
#define BTUSB_ECHO		80	/* the Echo Request's data */
#define BTUSB_MAX_ISOC_FRAMES	10	/* as btusb */
#define BTUSB_ISOC_URBS		2	/* IN URBs in flight */
#define BTUSB_SCO_ALT		2	/* one 16-bit voice link */
#define BTUSB_SCO_LEN		48	/* an SCO packet's voice bytes */
#define BTUSB_SCO_PKTS		4	/* SCO packets each way */

static struct usb_device_id btusb_table [] = {
	/* Generic Bluetooth USB device */
	{ USB_INTERFACE_INFO(0xe0, 0x01, 0x01) },
	{ }					/* Terminating entry */
};

struct btusb {
	struct usb_device *	udev;
	struct usb_interface *	intf;
	struct usb_interface *	isoc;
	struct urb *		intr_urb;
	struct urb *		bulk_urb;
	unsigned char *		intr_buf;
	unsigned char *		bulk_buf;
	int			intr_size;
	int			bulk_out;
	/* what the event handler saw, for the task waiting on it */
	int			cmd_op;		/* in flight, -1 none */
	int			cmd_done;
	unsigned char		cmd_ret[16];	/* status, then returns */
	int			conn_done;	/* Connection Complete */
	int			disc_done;	/* Disconnection Complete */
	unsigned int		handle;
	unsigned int		nreports;
	unsigned char		sig_code;	/* last signalling answer */
	unsigned char		sig[16];
	int			peer_conf;	/* its Configuration Request */
	unsigned char		peer_ident;
	unsigned char		ident;
	char			info[64];	/* for read() */
	/* a packet that came in pieces, as btusb_recv_intr and
	 * btusb_recv_bulk put it together (data->evt_skb, acl_skb) */
	unsigned char		evt[2 + 255];
	int			evt_len;
	unsigned char		acl[BTUSB_ACL_SIZE];
	int			acl_len;
	/* the SCO link and its isochronous endpoints (alt BTUSB_SCO_ALT) */
	int			sco_done;	/* Sync. Connection Complete */
	unsigned int		sco_handle;
	int			isoc_in, isoc_out, isoc_size;
	int			isoc_running;
	struct urb *		isoc_urb[BTUSB_ISOC_URBS];
	unsigned char *		isoc_buf[BTUSB_ISOC_URBS];
	unsigned char		sco[3 + 255];	/* btusb's sco_skb */
	int			sco_len;
	unsigned int		sco_rx;		/* SCO packets in */
	int			tx_done;
	int			open;
	int			present;
};

static struct usb_driver *btusb_drv(void);

static int btusb_urb_status(struct urb *urb)
{
	switch (urb->status) {
	case 0:
		return 1;
	case -ECONNRESET:
	case -ENOENT:
	case -ESHUTDOWN:
		return -1;
	}
	return 0;
}

/* An event (Part E 7.7): Command Complete and Command Status end the
 * command in flight; the others are kept for the task to see. */
static void btusb_event(struct btusb *data, const unsigned char *e, int n)
{
	if (n < 2 || e[1] + 2 > n)
		return;
	switch (e[0]) {
	case 0x0e:			/* Command Complete */
		if (n >= 6 && e[3] + (e[4] << 8) == data->cmd_op) {
			n -= 5;
			memcpy(data->cmd_ret, e + 5, n < 16 ? (size_t)n : 16);
			data->cmd_done = 1;
		}
		break;
	case 0x0f:			/* Command Status */
		if (n >= 6 && e[4] + (e[5] << 8) == data->cmd_op) {
			data->cmd_ret[0] = e[2];
			data->cmd_done = 1;
		}
		break;
	case 0x03:			/* Connection Complete */
		if (n >= 5 && e[2] == 0)
			data->handle = (e[3] | e[4] << 8) & 0x0fff;
		data->conn_done = 1;
		break;
	case 0x05:			/* Disconnection Complete */
		data->disc_done = 1;
		break;
	case 0x2c:			/* Synchronous Connection Complete */
		if (n >= 5 && e[2] == 0)
			data->sco_handle = (e[3] | e[4] << 8) & 0x0fff;
		data->sco_done = 1;
		break;
	case 0x3e:			/* LE Meta: Advertising Report */
		if (n >= 4 && e[2] == 0x02)
			data->nreports += e[3];
		break;
	}
}

/* Add n bytes of p to the packet in buf (*len bytes so far, at most
 * size); hdr bytes of header, whose length field is at lenoff (lenw
 * bytes, little-endian).  1 when the packet is whole, -1 when it cannot
 * be (dropped, as btusb drops a packet longer than its buffer). */
static int btusb_recv(unsigned char *buf, int *len, int size,
		      const unsigned char *p, int n, int hdr, int lenoff,
		      int lenw)
{
	int need;

	if (*len + n > size) {
		*len = 0;
		return -1;
	}
	memcpy(buf + *len, p, (size_t)n);
	*len += n;
	if (*len < hdr)
		return 0;
	need = hdr + buf[lenoff] + (lenw == 2 ? buf[lenoff + 1] << 8 : 0);
	if (*len < need)
		return 0;
	if (*len > need) {
		*len = 0;
		return -1;
	}
	return 1;
}

static void btusb_intr_complete(struct urb *urb)
{
	struct btusb *data = urb->context;
	int st;

	if ((st = btusb_urb_status(urb)) < 0)
		return;
	if (st > 0 && btusb_recv(data->evt, &data->evt_len,
	    (int)sizeof data->evt, data->intr_buf, (int)urb->actual_length,
	    2, 1, 1) > 0) {
		btusb_event(data, data->evt, data->evt_len);
		data->evt_len = 0;
	}
	if (usb_submit_urb(urb, GFP_ATOMIC))
		dev_err(data->intf, "%s - usb_submit_urb failed", __func__);
}

/* ACL from the controller: the signalling channel's commands. */
static void btusb_bulk_complete(struct urb *urb)
{
	struct btusb *data = urb->context;
	unsigned char *p = data->acl;
	int st, n = 0;

	if ((st = btusb_urb_status(urb)) < 0)
		return;
	if (st > 0 && btusb_recv(data->acl, &data->acl_len,
	    (int)sizeof data->acl, data->bulk_buf, (int)urb->actual_length,
	    4, 2, 2) > 0) {
		n = data->acl_len;
		data->acl_len = 0;
	}
	if (n >= 12 && p[6] == 0x01 && p[7] == 0x00) {
		if (p[8] == 0x04) {		/* Configuration Request */
			data->peer_conf = 1;
			data->peer_ident = p[9];
		} else {
			data->sig_code = p[8];
			n -= 12;
			memcpy(data->sig, p + 12, n < 16 ? (size_t)n : 16);
		}
	}
	if (usb_submit_urb(urb, GFP_ATOMIC))
		dev_err(data->intf, "%s - usb_submit_urb failed", __func__);
}

/* SCO bytes from an isochronous packet: the packets they complete
 * (Part E 5.4.3, a 3-byte header), as btusb_recv_isoc. */
static void btusb_recv_isoc(struct btusb *data, const unsigned char *p,
			    int n)
{
	int need, k;

	while (n > 0) {
		need = data->sco_len < 3 ? 3 - data->sco_len :
		    3 + data->sco[2] - data->sco_len;
		k = n < need ? n : need;
		memcpy(data->sco + data->sco_len, p, (size_t)k);
		data->sco_len += k;
		p += k;
		n -= k;
		if (data->sco_len >= 3 && data->sco_len == 3 + data->sco[2]) {
			data->sco_rx++;
			data->sco_len = 0;
		}
	}
}

/* btusb_isoc_complete: each packet received, then the URB again. */
static void btusb_isoc_complete(struct urb *urb)
{
	struct btusb *data = urb->context;
	unsigned char *buf = urb->transfer_buffer;
	struct usb_iso_packet_descriptor *d;
	int i;

	if (btusb_urb_status(urb) < 0)
		return;
	for (i = 0; i < urb->number_of_packets; i++) {
		d = &urb->iso_frame_desc[i];
		if (d->status == 0 && d->offset + d->actual_length <=
		    urb->transfer_buffer_length)
			btusb_recv_isoc(data, buf + d->offset,
			    (int)d->actual_length);
	}
	if (!data->isoc_running)
		return;
	if (usb_submit_urb(urb, GFP_ATOMIC))
		dev_err(data->intf, "%s - usb_submit_urb failed", __func__);
}

static void btusb_tx_complete(struct urb *urb)
{
	struct btusb *data = urb->context;

	data->tx_done = 1;
}

/* __fill_isoc_descriptor: len bytes in packets of mtu; the packets. */
static int btusb_fill_isoc(struct urb *urb, int len, int mtu)
{
	int i, offset = 0;

	for (i = 0; len >= mtu && i < BTUSB_MAX_ISOC_FRAMES; i++) {
		urb->iso_frame_desc[i].offset = (unsigned)offset;
		urb->iso_frame_desc[i].length = (unsigned)mtu;
		offset += mtu;
		len -= mtu;
	}
	if (len > 0 && i < BTUSB_MAX_ISOC_FRAMES) {
		urb->iso_frame_desc[i].offset = (unsigned)offset;
		urb->iso_frame_desc[i].length = (unsigned)len;
		i++;
	}
	urb->number_of_packets = i;
	return i;
}

/* Wait for *flag, at most BTUSB_WAIT_MS; 0 or -ETIMEDOUT. */
static int btusb_wait(struct btusb *data, volatile int *flag)
{
	int ms;

	for (ms = 0; ms < BTUSB_WAIT_MS && !*flag && data->present; ms++)
		msleep(1);
	return *flag ? 0 : -ETIMEDOUT;
}

/* Send a command and wait for its Command Complete/Status: its status
 * (>= 0) or a negative errno. */
static int btusb_cmd(struct btusb *data, unsigned int op,
		     const unsigned char *param, int plen)
{
	unsigned char cmd[3 + 32];
	int retval;

	cmd[0] = (unsigned char)op;
	cmd[1] = (unsigned char)(op >> 8);
	cmd[2] = (unsigned char)plen;
	if (plen > 0)
		memcpy(cmd + 3, param, (size_t)plen);
	data->cmd_op = (int)op;
	data->cmd_done = 0;
	retval = usb_control_msg(data->udev, usb_sndctrlpipe(data->udev, 0),
	    0, USB_TYPE_CLASS, 0, 0, cmd, (u16)(3 + plen),
	    USB_CTRL_SET_TIMEOUT);
	if (retval < 0)
		return retval;
	retval = btusb_wait(data, &data->cmd_done);
	data->cmd_op = -1;
	if (retval < 0) {
		dev_err(data->intf, "command 0x%04x timed out", op);
		return retval;
	}
	if (data->cmd_ret[0] != 0)
		dev_warn(data->intf, "command 0x%04x: status 0x%02x", op,
		    data->cmd_ret[0]);
	return data->cmd_ret[0];
}

/* An L2CAP signalling command on the link; waits for the answer code
 * want (0: none).  0 or a negative errno. */
static int btusb_signal(struct btusb *data, unsigned char code,
			unsigned char ident, const unsigned char *p, int n,
			unsigned char want)
{
	unsigned char acl[12 + BTUSB_ECHO];
	int actual, retval, ms;

	if (n > BTUSB_ECHO)
		return -EINVAL;
	acl[0] = (unsigned char)data->handle;
	acl[1] = (unsigned char)(data->handle >> 8 | 0x20);
	acl[2] = (unsigned char)(n + 8);
	acl[3] = 0;
	acl[4] = (unsigned char)(n + 4);
	acl[5] = 0;
	acl[6] = 0x01;			/* signalling channel */
	acl[7] = 0;
	acl[8] = code;
	acl[9] = ident;
	acl[10] = (unsigned char)n;
	acl[11] = 0;
	memcpy(acl + 12, p, (size_t)n);
	data->sig_code = 0;
	retval = usb_bulk_msg(data->udev, usb_sndbulkpipe(data->udev,
	    data->bulk_out), acl, 12 + n, &actual, 5000);
	if (retval < 0 || want == 0)
		return retval;
	for (ms = 0; ms < BTUSB_WAIT_MS && data->sig_code != want; ms++)
		msleep(1);
	return data->sig_code == want ? 0 : -ETIMEDOUT;
}

/* The host's side of an SDP channel (l2cap_core.c): the remote's
 * features, the channel, its configuration both ways. */
static int btusb_l2cap(struct btusb *data)
{
	unsigned char p[8], echo[BTUSB_ECHO];
	int i, retval;

	p[0] = 0x02;			/* extended features mask */
	p[1] = 0;
	if ((retval = btusb_signal(data, 0x0a, ++data->ident, p, 2, 0x0b)))
		return retval;
	p[0] = 0x01;			/* PSM 1: SDP */
	p[1] = 0;
	p[2] = BTUSB_SCID & 0xff;
	p[3] = BTUSB_SCID >> 8;
	if ((retval = btusb_signal(data, 0x02, ++data->ident, p, 4, 0x03)))
		return retval;
	if (data->sig[4] != 0)
		return -ECONNREFUSED;
	/* Configuration Request to its CID: MTU 672 (L2CAP_DEFAULT_MTU) */
	p[0] = data->sig[0];
	p[1] = data->sig[1];
	p[2] = p[3] = 0;
	p[4] = 0x01;
	p[5] = 2;
	p[6] = 672 & 0xff;
	p[7] = 672 >> 8;
	data->peer_conf = 0;
	if ((retval = btusb_signal(data, 0x04, ++data->ident, p, 8, 0x05)))
		return retval;
	if ((retval = btusb_wait(data, &data->peer_conf)))
		return retval;
	/* Configuration Response: success, to our own CID's peer */
	p[0] = data->sig[0];
	p[1] = data->sig[1];
	p[2] = p[3] = p[4] = p[5] = 0;
	if ((retval = btusb_signal(data, 0x05, data->peer_ident, p, 6, 0)))
		return retval;
	/* Echo Request (Vol 3 Part A 4.8), as l2ping: a counted pattern */
	for (i = 0; i < BTUSB_ECHO; i++)
		echo[i] = (unsigned char)i;
	return btusb_signal(data, 0x08, ++data->ident, echo, BTUSB_ECHO,
	    0x09);
}

/* Disconnect a link (Remote User Terminated) and wait for its
 * Disconnection Complete. */
static void btusb_disconnect_link(struct btusb *data, unsigned int handle)
{
	unsigned char p[3];

	p[0] = (unsigned char)handle;
	p[1] = (unsigned char)(handle >> 8);
	p[2] = 0x13;
	data->disc_done = 0;
	if (btusb_cmd(data, 0x0406, p, 3) == 0)
		btusb_wait(data, &data->disc_done);
}

/* btusb_submit_isoc_urb: BTUSB_MAX_ISOC_FRAMES packets of the IN
 * endpoint's size. */
static int btusb_submit_isoc(struct btusb *data, struct urb *urb,
			     unsigned char *buf)
{
	urb->dev = data->udev;
	urb->pipe = usb_rcvisocpipe(data->udev, data->isoc_in);
	urb->transfer_flags = URB_ISO_ASAP;
	urb->transfer_buffer = buf;
	urb->transfer_buffer_length = (u32)(data->isoc_size *
	    BTUSB_MAX_ISOC_FRAMES);
	urb->interval = 1;
	urb->complete = btusb_isoc_complete;
	urb->context = data;
	btusb_fill_isoc(urb, data->isoc_size * BTUSB_MAX_ISOC_FRAMES,
	    data->isoc_size);
	return usb_submit_urb(urb, GFP_KERNEL);
}

/* An SCO packet to the controller (btusb_isoc_tx): its own URB. */
static int btusb_sco_tx(struct btusb *data, struct urb *urb,
			unsigned char *pkt)
{
	int retval;

	urb->dev = data->udev;
	urb->pipe = usb_sndisocpipe(data->udev, data->isoc_out);
	urb->transfer_flags = URB_ISO_ASAP;
	urb->transfer_buffer = pkt;
	urb->transfer_buffer_length = 3 + BTUSB_SCO_LEN;
	urb->interval = 1;
	urb->complete = btusb_tx_complete;
	urb->context = data;
	btusb_fill_isoc(urb, 3 + BTUSB_SCO_LEN, data->isoc_size);
	data->tx_done = 0;
	if ((retval = usb_submit_urb(urb, GFP_KERNEL)))
		return retval;
	if ((retval = btusb_wait(data, &data->tx_done)))
		usb_kill_urb(urb);
	return retval ? retval : urb->status;
}

/* A voice link on the ACL one (hci_conn.c's hci_setup_sync, CVSD as
 * voice setting 0x0060 asks), streamed both ways, then taken down. */
static int btusb_sco(struct btusb *data)
{
	unsigned char p[17], pkt[3 + BTUSB_SCO_LEN];
	struct urb *tx;
	int i, k, retval, sent = 0;

	if (!data->isoc || data->isoc_in < 0 || data->isoc_out < 0)
		return -ENODEV;
	memset(p, 0, sizeof p);
	p[0] = (unsigned char)data->handle;
	p[1] = (unsigned char)(data->handle >> 8);
	p[2] = p[6] = 0x40;		/* 8000 bytes/s each way */
	p[3] = p[7] = 0x1f;
	p[10] = 0x07;			/* max latency 7 ms */
	p[12] = 0x60;			/* voice setting: CVSD, 16-bit */
	p[14] = 0x00;			/* retransmission: none */
	p[15] = 0x07;			/* HV1 HV2 HV3 */
	data->sco_done = 0;
	data->sco_handle = BTUSB_HANDLE_NONE;
	if (btusb_cmd(data, 0x0428, p, 17) != 0)
		return -EIO;
	if ((retval = btusb_wait(data, &data->sco_done)))
		return retval;
	if (data->sco_handle == BTUSB_HANDLE_NONE)
		return -ECONNREFUSED;
	if ((retval = usb_set_interface(data->udev, 1, BTUSB_SCO_ALT)))
		return retval;
	if ((tx = usb_alloc_urb(BTUSB_MAX_ISOC_FRAMES, GFP_KERNEL)) == NULL) {
		retval = -ENOMEM;
		goto out;
	}
	data->sco_len = 0;
	data->sco_rx = 0;
	data->isoc_running = 1;
	for (i = 0; i < BTUSB_ISOC_URBS; i++) {
		if ((retval = btusb_submit_isoc(data, data->isoc_urb[i],
		    data->isoc_buf[i])))
			goto stop;
	}
	/* the host's voice: a descending pattern, one packet at a time */
	for (; sent < BTUSB_SCO_PKTS; sent++) {
		pkt[0] = (unsigned char)data->sco_handle;
		pkt[1] = (unsigned char)(data->sco_handle >> 8);
		pkt[2] = BTUSB_SCO_LEN;
		for (k = 0; k < BTUSB_SCO_LEN; k++)
			pkt[3 + k] = (unsigned char)(0xff - sent *
			    BTUSB_SCO_LEN - k);
		if ((retval = btusb_sco_tx(data, tx, pkt)))
			goto stop;
	}
	for (k = 0; k < BTUSB_WAIT_MS && data->sco_rx < BTUSB_SCO_PKTS; k++)
		msleep(1);
	if (data->sco_rx < BTUSB_SCO_PKTS)
		retval = -ETIMEDOUT;
stop:
	data->isoc_running = 0;
	for (i = 0; i < BTUSB_ISOC_URBS; i++)
		usb_kill_urb(data->isoc_urb[i]);
	usb_free_urb(tx);
	dev_info(data->intf, "hci0: SCO link, handle 0x%04x, alt %d: "
	    "%u SCO packets in, %d out", data->sco_handle, BTUSB_SCO_ALT,
	    data->sco_rx, sent);
out:
	usb_set_interface(data->udev, 1, 0);
	btusb_disconnect_link(data, data->sco_handle);
	return retval;
}

/* The controller's setup and a connection, as at hci_dev_open. */
static int btusb_setup(struct btusb *data)
{
	static const unsigned char scan_param[7] = {
		0x01, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00  /* active, 10 ms */
	}, scan_on[2] = { 0x01, 0x00 }, scan_off[2] = { 0x00, 0x00 },
	    create[13] = {
		0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* the peer */
		0x18, 0xcc,		/* DM1 DH1 DM3 DH3 DM5 DH5 */
		0x01, 0x00, 0x00, 0x00, 0x01  /* R1, clock offset, role sw */
	};
	const unsigned char *a;
	int retval;

	if ((retval = btusb_cmd(data, 0x0c03, NULL, 0)) != 0)
		return retval < 0 ? retval : -EIO;
	if ((retval = btusb_cmd(data, 0x1001, NULL, 0)) != 0)
		return retval < 0 ? retval : -EIO;
	snprintf(data->info, sizeof data->info, "HCI %u.%04x manufacturer %u",
	    data->cmd_ret[1], data->cmd_ret[2] | data->cmd_ret[3] << 8,
	    data->cmd_ret[5] | data->cmd_ret[6] << 8);
	if ((retval = btusb_cmd(data, 0x1009, NULL, 0)) != 0)
		return retval < 0 ? retval : -EIO;
	a = data->cmd_ret + 1;
	dev_info(data->intf, "hci0: BD_ADDR %02x:%02x:%02x:%02x:%02x:%02x, %s",
	    a[5], a[4], a[3], a[2], a[1], a[0], data->info);
	snprintf(data->info, sizeof data->info,
	    "%02x:%02x:%02x:%02x:%02x:%02x", a[5], a[4], a[3], a[2], a[1],
	    a[0]);
	if ((retval = btusb_cmd(data, 0x1005, NULL, 0)) != 0)
		return retval < 0 ? retval : -EIO;
	if (btusb_cmd(data, 0x200b, scan_param, 7) != 0 ||
	    btusb_cmd(data, 0x200c, scan_on, 2) != 0)
		return -EIO;
	msleep(BTUSB_SCAN_MS);
	btusb_cmd(data, 0x200c, scan_off, 2);
	dev_info(data->intf, "hci0: LE scan: %u advertising reports",
	    data->nreports);
	data->conn_done = 0;
	if (btusb_cmd(data, 0x0405, create, 13) != 0)
		return -EIO;
	if ((retval = btusb_wait(data, &data->conn_done)))
		return retval;
	if (data->handle == BTUSB_HANDLE_NONE)
		return -ECONNREFUSED;
	dev_info(data->intf, "hci0: ACL link, handle 0x%04x", data->handle);
	retval = btusb_l2cap(data);
	if (retval == 0)
		dev_info(data->intf, "hci0: L2CAP SDP channel configured");
	if (retval == 0 && data->isoc)	/* a voice link where it can */
		retval = btusb_sco(data);
	btusb_disconnect_link(data, data->handle);
	return retval;
}

static int btusb_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;
	struct btusb *data;
	int retval;

	interface = usb_find_interface(btusb_drv(), iminor(inode));
	if (!interface)
		return -ENODEV;
	data = usb_get_intfdata(interface);
	if (!data || !data->present)
		return -ENODEV;
	if (data->open)
		return -EBUSY;
	data->handle = BTUSB_HANDLE_NONE;
	data->nreports = 0;
	data->evt_len = data->acl_len = 0;
	data->cmd_op = -1;
	if ((retval = usb_submit_urb(data->intr_urb, GFP_KERNEL)))
		return retval;
	if ((retval = usb_submit_urb(data->bulk_urb, GFP_KERNEL)))
		goto fail;
	if ((retval = btusb_setup(data)) < 0)
		goto fail;
	data->open = 1;
	file->private_data = data;
	return 0;
fail:
	usb_kill_urb(data->bulk_urb);
	usb_kill_urb(data->intr_urb);
	return retval;
}

static void btusb_free(struct btusb *data)
{
	int i;

	for (i = 0; i < BTUSB_ISOC_URBS; i++) {
		usb_free_urb(data->isoc_urb[i]);
		kfree(data->isoc_buf[i]);
	}
	usb_free_urb(data->intr_urb);
	usb_free_urb(data->bulk_urb);
	kfree(data->intr_buf);
	kfree(data->bulk_buf);
	kfree(data);
}

static int btusb_release(struct inode *inode, struct file *file)
{
	struct btusb *data = file->private_data;

	(void)inode;
	if (data == NULL)
		return -ENODEV;
	data->open = 0;
	if (data->present) {
		btusb_cmd(data, 0x0c03, NULL, 0);	/* hci_dev_close */
		usb_kill_urb(data->bulk_urb);
		usb_kill_urb(data->intr_urb);
	} else
		btusb_free(data);
	return 0;
}

static ssize_t btusb_read(struct file *file, char *buffer, size_t count,
			  loff_t *ppos)
{
	struct btusb *data = file->private_data;
	size_t n = strlen(data->info);

	(void)ppos;
	if (n > count)
		n = count;
	if (copy_to_user(buffer, data->info, (unsigned long)n))
		return -EFAULT;
	return (ssize_t)n;
}

static struct file_operations btusb_fops = {
	.owner =	THIS_MODULE,
	.open =		btusb_open,
	.release =	btusb_release,
	.read =		btusb_read,
};

static struct usb_class_driver btusb_class = {
	.name =		"usb/hci%d",
	.fops =		&btusb_fops,
	.mode =		S_IFCHR | S_IRUSR | S_IWUSR,
	.minor_base =	BTUSB_MINOR_BASE,
};

/* The isochronous endpoints of alt BTUSB_SCO_ALT (btusb_probe keeps
 * isoc_rx_ep and isoc_tx_ep) and the IN URBs' buffers. */
static int btusb_isoc_eps(struct btusb *data)
{
	struct usb_host_interface *alt;
	struct usb_endpoint_descriptor *ep;
	unsigned a;
	int i;

	data->isoc_in = data->isoc_out = -1;
	for (a = 0; a < data->isoc->num_altsetting; a++) {
		alt = &data->isoc->altsetting[a];
		if (alt->desc.bAlternateSetting != BTUSB_SCO_ALT)
			continue;
		for (i = 0; i < alt->desc.bNumEndpoints; i++) {
			ep = &alt->endpoint[i].desc;
			if ((ep->bmAttributes & 3) != USB_ENDPOINT_XFER_ISOC)
				continue;
			if (ep->bEndpointAddress & USB_DIR_IN) {
				data->isoc_in = ep->bEndpointAddress;
				data->isoc_size = ep->wMaxPacketSize;
			} else
				data->isoc_out = ep->bEndpointAddress;
		}
	}
	for (i = 0; i < BTUSB_ISOC_URBS; i++) {
		data->isoc_urb[i] = usb_alloc_urb(BTUSB_MAX_ISOC_FRAMES,
		    GFP_KERNEL);
		data->isoc_buf[i] = kmalloc((size_t)(BTUSB_MAX_ISOC_FRAMES *
		    (data->isoc_size > 0 ? data->isoc_size : 1)), GFP_KERNEL);
		if (!data->isoc_urb[i] || !data->isoc_buf[i])
			return -ENOMEM;
	}
	return 0;
}

static int btusb_probe(struct usb_interface *intf,
		       const struct usb_device_id *id)
{
	struct usb_device *dev = interface_to_usbdev(intf);
	struct usb_host_interface *alt = intf->cur_altsetting;
	struct usb_endpoint_descriptor *ep, *intr = NULL, *bulk_in = NULL;
	struct btusb *data;
	int i, retval;

	(void)id;
	/* interface 0 is the driver's; 1 (SCO) is claimed from it */
	if (alt->desc.bInterfaceNumber != 0)
		return -ENODEV;
	data = kzalloc(sizeof *data, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	data->bulk_out = -1;
	for (i = 0; i < alt->desc.bNumEndpoints; i++) {
		ep = &alt->endpoint[i].desc;
		if ((ep->bmAttributes & 3) == USB_ENDPOINT_XFER_INT &&
		    (ep->bEndpointAddress & USB_DIR_IN))
			intr = ep;
		else if ((ep->bmAttributes & 3) == USB_ENDPOINT_XFER_BULK) {
			if (ep->bEndpointAddress & USB_DIR_IN)
				bulk_in = ep;
			else
				data->bulk_out = ep->bEndpointAddress;
		}
	}
	if (!intr || !bulk_in || data->bulk_out < 0) {
		kfree(data);
		return -ENODEV;
	}
	data->udev = dev;
	data->intf = intf;
	data->intr_size = intr->wMaxPacketSize;
	data->intr_urb = usb_alloc_urb(0, GFP_KERNEL);
	data->bulk_urb = usb_alloc_urb(0, GFP_KERNEL);
	data->intr_buf = kmalloc((size_t)data->intr_size, GFP_KERNEL);
	data->bulk_buf = kmalloc(BTUSB_ACL_SIZE, GFP_KERNEL);
	if (!data->intr_urb || !data->bulk_urb || !data->intr_buf ||
	    !data->bulk_buf) {
		retval = -ENOMEM;
		goto fail;
	}
	usb_fill_int_urb(data->intr_urb, dev,
			 usb_rcvintpipe(dev, intr->bEndpointAddress),
			 data->intr_buf, data->intr_size,
			 btusb_intr_complete, data, intr->bInterval);
	usb_fill_bulk_urb(data->bulk_urb, dev,
			  usb_rcvbulkpipe(dev, bulk_in->bEndpointAddress),
			  data->bulk_buf, BTUSB_ACL_SIZE, btusb_bulk_complete,
			  data);
	data->isoc = NULL;
	for (i = 0; i < dev->actconfig->desc.bNumInterfaces; i++) {
		if (dev->actconfig->interface[i] != NULL &&
		    dev->actconfig->interface[i]->altsetting[0].desc.
		    bInterfaceNumber == 1)
			data->isoc = dev->actconfig->interface[i];
	}
	if (data->isoc && usb_driver_claim_interface(btusb_drv(), data->isoc,
	    data) != 0)
		data->isoc = NULL;
	if (data->isoc && (retval = btusb_isoc_eps(data)) != 0) {
		usb_driver_release_interface(btusb_drv(), data->isoc);
		goto fail;
	}
	usb_set_intfdata(intf, data);
	retval = usb_register_dev(intf, &btusb_class);
	if (retval) {
		dev_err(intf, "Not able to get a minor for this device.");
		usb_set_intfdata(intf, NULL);
		if (data->isoc) {
			usb_set_intfdata(data->isoc, NULL);
			usb_driver_release_interface(btusb_drv(), data->isoc);
		}
		goto fail;
	}
	data->present = 1;
	dev_info(intf, "hci%d: Bluetooth controller%s",
		 intf->minor - BTUSB_MINOR_BASE,
		 data->isoc ? ", SCO interface claimed" : "");
	return 0;
fail:
	btusb_free(data);
	return retval;
}

static void btusb_disconnect(struct usb_interface *intf)
{
	struct btusb *data = usb_get_intfdata(intf);

	if (!data)
		return;
	usb_set_intfdata(data->intf, NULL);
	if (data->isoc)
		usb_set_intfdata(data->isoc, NULL);
	usb_kill_urb(data->intr_urb);
	usb_kill_urb(data->bulk_urb);
	usb_deregister_dev(data->intf, &btusb_class);
	if (data->isoc && intf == data->intf)
		usb_driver_release_interface(btusb_drv(), data->isoc);
	else if (data->isoc)
		usb_driver_release_interface(btusb_drv(), data->intf);
	data->present = 0;
	dev_info(data->intf, "hci0 disconnected");
	if (!data->open)
		btusb_free(data);
}

struct usb_driver btusb_driver = {
	.owner =	THIS_MODULE,
	.name =		"btusb",
	.probe =	btusb_probe,
	.disconnect =	btusb_disconnect,
	.id_table =	btusb_table,
};

static struct usb_driver *btusb_drv(void)
{
	return &btusb_driver;
}
