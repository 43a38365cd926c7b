/*
 * hcd/usbip.h - the device side of USB/IP (Linux's
 * Documentation/usb/usbip_protocol.rst, version 1.1.1): its messages, and
 * device models (hcd/devmodel.h) served through them, one URB at a time
 * turned into the transactions a host controller would make.  No
 * sockets here: cmd/cmd-serve.c moves the bytes.
 *
 * All of USB/IP's fields are big-endian.
 */
#ifndef HCD_USBIP_H
#define HCD_USBIP_H

#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "hcd/devmodel.h"

#define USBIP_VERSION		0x0111
#define USBIP_PORT		3240

/* The operations before a device is imported: an 8-byte header
 * (version, code, status), OP_REQ_IMPORT then a 32-byte bus id. */
#define OP_REQ_DEVLIST		0x8005
#define OP_REP_DEVLIST		0x0005
#define OP_REQ_IMPORT		0x8003
#define OP_REP_IMPORT		0x0003
#define USBIP_OP_HDR		8
#define USBIP_BUSID_SIZE	32
/* struct usbip_usb_device (tools/usb/usbip/libsrc/usbip_common.h) */
#define USBIP_DEV_SIZE		312
#define USBIP_INTF_SIZE		4

/* The URB messages after it: a 48-byte header, then data. */
#define USBIP_CMD_SUBMIT	1
#define USBIP_CMD_UNLINK	2
#define USBIP_RET_SUBMIT	3
#define USBIP_RET_UNLINK	4
#define USBIP_HDR		48
#define USBIP_ISO_DESC		16
#define USBIP_DIR_OUT		0
#define USBIP_DIR_IN		1
/* drivers/usb/usbip/usbip_common.h: USBIP_MAX_ISO_PACKETS; a transfer's
 * length beyond USBIP_MAX_LEN is refused (the kernel's stub would fail
 * its allocation) */
#define USBIP_MAX_ISO		1024
#define USBIP_MAX_LEN		(16u << 20)

/* A CMD_SUBMIT or CMD_UNLINK as received. */
struct usbip_cmd {
	uint32_t	 command;
	uint32_t	 seqnum;
	uint32_t	 devid;		/* busnum << 16 | devnum */
	uint32_t	 direction;	/* USBIP_DIR_* */
	uint32_t	 ep;		/* endpoint number, 0-15 */
	uint32_t	 flags;		/* the URB's transfer_flags */
	uint32_t	 length;	/* transfer_buffer_length */
	int32_t		 start_frame;
	int32_t		 npackets;	/* isochronous packets, or -1/0 */
	int32_t		 interval;
	uint8_t		 setup[8];
	uint32_t	 unlink_seqnum;	/* CMD_UNLINK */
};

/*
 * The 48-byte header at b into *c: 0, or -1 when it is no command a
 * server takes (a RET_*, an unknown code).
 */
int		 usbip_parse_cmd(const uint8_t *b, struct usbip_cmd *c);
/* The bytes that follow command c: OUT data and isochronous descriptors;
 * -1 when c asks for more than a server takes (USBIP_MAX_*). */
int64_t		 usbip_cmd_extra(const struct usbip_cmd *c);

/* A device served: its model, where it says it sits, its URBs. */
struct usbip_dev;

/* A served device around model dm (kept, destroyed with it), on bus
 * busnum as device devnum and port (bus id "BUS-PORT"). */
struct usbip_dev *usbip_dev_new(struct usb_devmodel *dm, int busnum,
		     int devnum, int port);
void		 usbip_dev_free(struct usbip_dev *d);
const char	*usbip_dev_busid(const struct usbip_dev *d);
/* busnum << 16 | devnum, as CMD_SUBMIT's devid and vhci's attach say */
uint32_t	 usbip_dev_devid(const struct usbip_dev *d);
struct usb_devmodel *usbip_dev_model(const struct usbip_dev *d);
/* Its struct usbip_usb_device into out (USBIP_DEV_SIZE bytes), then with
 * intfs the interfaces' class triples (OP_REP_DEVLIST): bytes written
 * to out, which must hold USBIP_DEV_SIZE + 32 * USBIP_INTF_SIZE. */
size_t		 usbip_dev_info(const struct usbip_dev *d, uint8_t *out,
		     int intfs);
/* Forget the URBs of a connection that went away (the device stays). */
void		 usbip_dev_reset(struct usbip_dev *d);

/*
 * CMD_SUBMIT c with its extra bytes (usbip_cmd_extra of them): queued.
 * 0, or -1 when it cannot be (out of memory, iso descriptors that do not
 * add up): the connection is then beyond saving.
 */
int		 usbip_dev_submit(struct usbip_dev *d, const struct usbip_cmd *c,
		     const uint8_t *extra);
/* CMD_UNLINK c: its RET_UNLINK appended to out (-ECONNRESET when the URB
 * was still queued, and it is dropped unanswered; 0 when done already). */
void		 usbip_dev_unlink(struct usbip_dev *d, const struct usbip_cmd *c,
		     struct sbuf *out);
/*
 * Run the device to now_ns: its model's ticks, one a millisecond, and
 * the queued URBs' transactions until each is done or NAKed; a RET_SUBMIT
 * appended to out for each URB done.  Returns the URBs still queued.
 */
size_t		 usbip_dev_run(struct usbip_dev *d, uint64_t now_ns,
		     struct sbuf *out);
/*
 * What the device sees, as usbmon records from its side: an 'S' as each
 * CMD_SUBMIT is queued, a 'C' as it is answered (or unlinked,
 * -ECONNRESET), URB id the USB/IP seqnum, bus and device the served ones.
 * fn fills the timestamp in; the record's data is valid during the call.
 */
typedef void	 usbip_rec_fn(void *arg, struct urb_rec *r);
void		 usbip_dev_record(struct usbip_dev *d, usbip_rec_fn *fn,
		     void *arg);

/* The model went away (a disconnect fault): the connection must end. */
int		 usbip_dev_gone(const struct usbip_dev *d);

#endif /* HCD_USBIP_H */
