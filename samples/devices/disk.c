/*
 * samples/devices/disk.c - "disk", a USB mass storage device: Bulk-Only
 * Transport (USB MSC BOT 1.0) carrying SCSI commands (SPC-3, SBC-2) to one
 * LUN of 512-byte blocks.  Interface 8/6/0x50, bulk IN 0x81, bulk OUT 0x02.
 *
 * args: a size ("1M", "4096K", "65536"; default 1 MiB) for a zeroed memory
 * image, or the path of a file used as the image (opened read-write, else
 * read-only: writes then fail with DATA PROTECT).
 *
 * The BOT rules followed: CBW (31 bytes, "USBC") -> data phase -> CSW (13
 * bytes, "USBS", tag, residue, status).  A CBW that is not valid or not
 * meaningful (BOT 6.2) stalls both pipes until Reset Recovery (the class
 * reset 0xff, then CLEAR_FEATURE on both).  Disagreements between the host
 * and the device on the data phase follow the thirteen cases of BOT 6.7:
 * a data phase the device does not have ends with a STALL and residue; a
 * wrong direction or a host expecting less than the device has is a phase
 * error (CSW status 2).  Failed commands leave sense data for REQUEST
 * SENSE (fixed format, SPC-3 4.5.3).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "samples/devices/devices.h"

#define BLOCK		512
#define DISK_DEFAULT	(1024 * 1024)
#define DISK_MAX	(1024ull * 1024 * 1024)	/* memory images */
#define BULK_MAXP	512

/* BOT 5.1, 5.2 */
#define CBW_LEN		31
#define CBW_SIG		0x43425355u	/* "USBC" */
#define CSW_LEN		13
#define CSW_SIG		0x53425355u	/* "USBS" */
#define CSW_GOOD	0
#define CSW_FAILED	1
#define CSW_PHASE	2

/* BOT 3.1, 3.2: class requests. */
#define BOT_RESET	0xff
#define BOT_GET_MAX_LUN	0xfe

/* SPC-3 4.5.6: sense keys; additional sense codes used. */
#define SK_NONE		0x0
#define SK_MEDIUM	0x3
#define SK_ILLEGAL	0x5
#define SK_PROTECT	0x7
#define ASC_WRITE_ERR	0x0c
#define ASC_READ_ERR	0x11
#define ASC_BAD_OPCODE	0x20
#define ASC_BAD_LBA	0x21
#define ASC_BAD_FIELD	0x24
#define ASC_BAD_LUN	0x25
#define ASC_PROTECTED	0x27

enum bot_state {
	ST_CBW,			/* waiting for a command */
	ST_DATA_IN,		/* sending the data phase */
	ST_DATA_OUT,		/* receiving the data phase */
	ST_CSW,			/* the status is next on bulk IN */
	ST_NEED_RESET,		/* a bad CBW: stalled until reset recovery */
};

enum { DIR_NONE, DIR_IN, DIR_OUT };

struct disk {
	uint8_t		*image;		/* memory image, or NULL */
	int		 fd;		/* file image, or -1 */
	int		 readonly;
	uint64_t	 blocks;

	enum bot_state	 state;
	uint32_t	 tag;		/* dCBWTag */
	uint32_t	 host_len;	/* dCBWDataTransferLength */
	int		 host_in;	/* bmCBWFlags direction */
	uint32_t	 residue;
	uint8_t		 status;

	/* what the command moves, set by its handler */
	int		 dir;		/* DIR_* */
	uint32_t	 dlen;		/* bytes the device has or wants */
	int		 to_image;	/* READ/WRITE: at image offset */
	uint64_t	 img_off;
	/* the data phase */
	uint32_t	 xfer_len;	/* bytes to move */
	uint32_t	 xfer_pos;
	uint32_t	 discard;	/* OUT bytes accepted and dropped */
	int		 stall_after;	/* halt IN when the data is sent */
	uint8_t		 buf[64];	/* small answers */

	uint8_t		 sense_key, asc, ascq;
};

/* USB 2.0 9.6.1 */
static const uint8_t disk_device[USB_DT_DEVICE_SIZE] = {
	18, USB_DT_DEVICE, 0x00, 0x02,	/* bcdUSB 2.00 */
	0x00, 0x00, 0x00, 64,		/* per interface, ep0 64 */
	0x09, 0x12, 0x02, 0x00,		/* 1209:0002 */
	0x00, 0x01, 1, 2, 3, 1		/* bcdDevice 1.00, strings, 1 cfg */
};

/* USB 2.0 9.6.2 */
static const uint8_t disk_qualifier[10] = {
	10, USB_DT_DEVICE_QUALIFIER, 0x00, 0x02, 0x00, 0x00, 0x00, 64, 1, 0
};

/* USB 2.0 9.6.3, 9.6.5, 9.6.6; BOT 4.3 */
static const uint8_t disk_config[] = {
	9, USB_DT_CONFIG, 32, 0, 1, 1, 0, 0x80, 100,	/* 200 mA */
	9, USB_DT_INTERFACE, 0, 0, 2, USB_CLASS_MASS_STORAGE, 0x06, 0x50, 0,
	7, USB_DT_ENDPOINT, 0x81, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
	7, USB_DT_ENDPOINT, 0x02, USB_ENDPOINT_XFER_BULK, 0x00, 0x02, 0,
};

/* The serial number is 12 hex digits or more (BOT 4.1.1). */
static const char *const disk_strings[] = {
	"urbscope", "Simulated Disk", "000000000001", NULL
};

static const struct dm_descriptors disk_desc = {
	.device = disk_device,
	.config = disk_config,
	.config_len = sizeof disk_config,
	.qualifier = disk_qualifier,
	.strings = disk_strings,
};

/* ------------------------------------------------------------------------
 * The image.
 */

static int
disk_read(struct disk *d, uint64_t off, uint8_t *p, size_t n)
{
	if (d->image != NULL) {
		memcpy(p, d->image + off, n);
		return 0;
	}
	return pread(d->fd, p, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

static int
disk_write(struct disk *d, uint64_t off, const uint8_t *p, size_t n)
{
	if (d->image != NULL) {
		memcpy(d->image + off, p, n);
		return 0;
	}
	return pwrite(d->fd, p, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

static int
disk_init(struct usb_devmodel *dm, const char *args)
{
	struct disk	*d = dm->priv;
	uint64_t	 size = DISK_DEFAULT;
	off_t		 end;

	d->fd = -1;
	if (args == NULL || *args == '\0' || dm_parse_size(args, &size) == 0) {
		size -= size % BLOCK;
		if (size == 0 || size > DISK_MAX ||
		    (d->image = calloc(1, (size_t)size)) == NULL)
			return -1;
		d->blocks = size / BLOCK;
		return 0;
	}
	if ((d->fd = open(args, O_RDWR)) == -1) {
		if ((d->fd = open(args, O_RDONLY)) == -1)
			return -1;
		d->readonly = 1;
	}
	end = lseek(d->fd, 0, SEEK_END);
	if (end < BLOCK) {
		close(d->fd);
		return -1;
	}
	d->blocks = (uint64_t)end / BLOCK;
	return 0;
}

static void
disk_destroy(struct usb_devmodel *dm)
{
	struct disk	*d = dm->priv;

	free(d->image);
	if (d->fd != -1)
		close(d->fd);
}

/* ------------------------------------------------------------------------
 * SCSI commands.  Each sets dir/dlen (and the source) and returns 0, or
 * sets sense data and returns -1 (CHECK CONDITION: CSW status 1).
 */

static int
sense(struct disk *d, uint8_t key, uint8_t asc)
{
	d->sense_key = key;
	d->asc = asc;
	d->ascq = 0;
	return -1;
}

/* The answer in d->buf, cut to the allocation length. */
static int
answer(struct disk *d, size_t n, size_t alloc)
{
	d->dir = DIR_IN;
	d->dlen = (uint32_t)(n < alloc ? n : alloc);
	return 0;
}

static int
scsi_ok(struct disk *d, const uint8_t *cdb)
{
	(void)d;
	(void)cdb;
	return 0;
}

/* SPC-3 6.4 */
static int
scsi_inquiry(struct disk *d, const uint8_t *cdb)
{
	uint8_t	*p = d->buf;

	if ((cdb[1] & 1) || cdb[2] != 0)
		return sense(d, SK_ILLEGAL, ASC_BAD_FIELD);	/* no VPD */
	memset(p, 0, 36);
	p[0] = 0x00;		/* direct access block device */
	p[1] = 0x80;		/* removable medium, as USB sticks say */
	p[2] = 0x05;		/* SPC-3 */
	p[3] = 0x02;		/* response data format 2 */
	p[4] = 36 - 5;		/* additional length */
	memcpy(p + 8, "urbscope", 8);
	memcpy(p + 16, "Simulated Disk  ", 16);
	memcpy(p + 32, "1.00", 4);
	return answer(d, 36, get_be16(cdb + 3));
}

/* SPC-3 6.27, fixed format sense data 4.5.3; reading clears it. */
static int
scsi_request_sense(struct disk *d, const uint8_t *cdb)
{
	uint8_t	*p = d->buf;

	memset(p, 0, 18);
	p[0] = 0x70;		/* current error, fixed format */
	p[2] = d->sense_key;
	p[7] = 18 - 8;		/* additional sense length */
	p[12] = d->asc;
	p[13] = d->ascq;
	d->sense_key = d->asc = d->ascq = 0;
	return answer(d, 18, cdb[4]);
}

/* SBC-2 5.10 */
static int
scsi_read_capacity(struct disk *d, const uint8_t *cdb)
{
	uint64_t last = d->blocks - 1;

	(void)cdb;
	put_be32(d->buf, last > 0xffffffffu ? 0xffffffffu : (uint32_t)last);
	put_be32(d->buf + 4, BLOCK);
	return answer(d, 8, 8);
}

/* SPC-3 6.9; SBC-2 6.3.3 caching page: write-through, nothing to say. */
static int
scsi_mode_sense6(struct disk *d, const uint8_t *cdb)
{
	uint8_t	*p = d->buf;
	int	 page = cdb[2] & 0x3f;

	if (page != 0x3f && page != 0x08)
		return sense(d, SK_ILLEGAL, ASC_BAD_FIELD);
	/* either page asked for is the caching page alone */
	memset(p, 0, 24);
	p[0] = 24 - 1;			/* mode data length */
	p[2] = d->readonly ? 0x80 : 0;	/* WP */
	p[4] = 0x08;			/* caching mode page */
	p[5] = 0x12;
	return answer(d, 24, cdb[4]);
}

/* SBC-2 5.6, 5.25: READ(10) and WRITE(10). */
static int
scsi_rw10(struct disk *d, const uint8_t *cdb)
{
	uint64_t lba = get_be32(cdb + 2);
	uint32_t n = get_be16(cdb + 7);

	if (lba + n > d->blocks)
		return sense(d, SK_ILLEGAL, ASC_BAD_LBA);
	if (cdb[0] == 0x2a && d->readonly)
		return sense(d, SK_PROTECT, ASC_PROTECTED);
	d->dir = cdb[0] == 0x2a ? DIR_OUT : DIR_IN;
	d->dlen = n * BLOCK;
	d->to_image = 1;
	d->img_off = lba * BLOCK;
	return 0;
}

static int
scsi_sync_cache(struct disk *d, const uint8_t *cdb)
{
	(void)cdb;
	if (d->fd != -1 && !d->readonly && fsync(d->fd) != 0)
		return sense(d, SK_MEDIUM, ASC_WRITE_ERR);
	return 0;
}

/* The commands, by operation code (SPC-3 D.3.1). */
static const struct scsi_cmd {
	uint8_t		 op;
	int		 (*fn)(struct disk *, const uint8_t *);
} scsi_cmds[] = {
	{ 0x00, scsi_ok },		/* TEST UNIT READY */
	{ 0x03, scsi_request_sense },
	{ 0x12, scsi_inquiry },
	{ 0x1a, scsi_mode_sense6 },
	{ 0x1b, scsi_ok },		/* START STOP UNIT */
	{ 0x1e, scsi_ok },		/* PREVENT ALLOW MEDIUM REMOVAL */
	{ 0x25, scsi_read_capacity },
	{ 0x28, scsi_rw10 },		/* READ(10) */
	{ 0x2a, scsi_rw10 },		/* WRITE(10) */
	{ 0x2f, scsi_ok },		/* VERIFY(10) */
	{ 0x35, scsi_sync_cache },	/* SYNCHRONIZE CACHE(10) */
	{ 0, NULL }
};

/* ------------------------------------------------------------------------
 * Bulk-Only Transport.
 */

/* A CBW arrived: run the command, then set up the data phase (BOT 6.7). */
static void
bot_command(struct usb_devmodel *dm, const uint8_t *cbw)
{
	struct disk	*d = dm->priv;
	const struct scsi_cmd *c;
	const uint8_t	*cdb = cbw + 15;
	uint32_t	 h;
	int		 ok;

	d->tag = get_le32(cbw + 4);
	d->host_len = h = get_le32(cbw + 8);
	d->host_in = (cbw[12] & 0x80) != 0;
	d->dir = DIR_NONE;
	d->dlen = 0;
	d->to_image = 0;
	d->xfer_pos = d->discard = 0;
	d->stall_after = 0;
	if (cbw[13] != 0)
		ok = sense(d, SK_ILLEGAL, ASC_BAD_LUN);
	else {
		for (c = scsi_cmds; c->fn != NULL && c->op != cdb[0]; c++)
			;
		ok = c->fn != NULL ? c->fn(d, cdb) :
		    sense(d, SK_ILLEGAL, ASC_BAD_OPCODE);
	}
	if (ok != 0 || d->dir == DIR_NONE || d->dlen == 0) {
		d->dir = DIR_NONE;
		d->dlen = 0;
	}
	d->status = ok == 0 ? CSW_GOOD : CSW_FAILED;
	d->residue = h;
	d->state = ST_CSW;

	if (h == 0) {
		/* Cases 1-3: no data phase; the device wanted one: phase
		 * error. */
		if (d->dir != DIR_NONE)
			d->status = CSW_PHASE;
		return;
	}
	if (d->dir == DIR_NONE) {
		/* Cases 4, 9: end the host's data phase with a STALL. */
		dm_halt(dm, d->host_in ? 0x81 : 0x02, 1);
		return;
	}
	if ((d->dir == DIR_IN) != d->host_in) {
		/* Cases 8, 10: the direction is wrong. */
		d->status = CSW_PHASE;
		dm_halt(dm, d->host_in ? 0x81 : 0x02, 1);
		return;
	}
	if (h < d->dlen) {
		/* Cases 7, 13: the host expects less. */
		d->status = CSW_PHASE;
		d->xfer_len = h;
		d->residue = 0;
	} else {
		/* Cases 5, 6, 11, 12. */
		d->xfer_len = d->dlen;
		d->residue = h - d->dlen;
		if (d->dir == DIR_OUT)
			d->discard = h - d->dlen;
		else if (h > d->dlen && d->dlen % BULK_MAXP == 0)
			d->stall_after = 1;	/* no short packet ends it */
	}
	d->state = d->dir == DIR_IN ? ST_DATA_IN : ST_DATA_OUT;
}

/* BOT 6.6.1: not valid or not meaningful: stall until reset recovery. */
static void
bot_bad_cbw(struct usb_devmodel *dm)
{
	struct disk	*d = dm->priv;

	d->state = ST_NEED_RESET;
	dm_halt(dm, 0x81, 1);
	dm_halt(dm, 0x02, 1);
}

static void
bot_data_done(struct usb_devmodel *dm)
{
	struct disk	*d = dm->priv;

	d->state = ST_CSW;
	if (d->stall_after)
		dm_halt(dm, 0x81, 1);
}

static int
disk_data_in(struct usb_devmodel *dm, int ep, uint8_t *buf, size_t max)
{
	struct disk	*d = dm->priv;
	uint32_t	 n;

	if (ep != 0x81)
		return DM_STALL;
	switch (d->state) {
	case ST_CBW:
	case ST_DATA_OUT:
		return DM_NAK;
	case ST_NEED_RESET:
		return DM_STALL;
	case ST_DATA_IN:
		n = d->xfer_len - d->xfer_pos;
		if (n > max)
			n = (uint32_t)max;
		if (n > BULK_MAXP)
			n = BULK_MAXP;
		if (d->to_image) {
			if (disk_read(d, d->img_off + d->xfer_pos, buf,
			    n) != 0) {
				sense(d, SK_MEDIUM, ASC_READ_ERR);
				d->status = CSW_FAILED;
			}
		} else
			memcpy(buf, d->buf + d->xfer_pos, n);
		d->xfer_pos += n;
		if (d->xfer_pos == d->xfer_len)
			bot_data_done(dm);
		return (int)n;
	case ST_CSW:
		if (max < CSW_LEN)
			return DM_STALL;
		put_le32(buf, CSW_SIG);
		put_le32(buf + 4, d->tag);
		put_le32(buf + 8, d->residue);
		buf[12] = d->status;
		d->state = ST_CBW;
		return CSW_LEN;
	}
	return DM_STALL;
}

static int
disk_data_out(struct usb_devmodel *dm, int ep, const uint8_t *buf,
    size_t len)
{
	struct disk	*d = dm->priv;
	uint32_t	 n;

	if (ep != 0x02)
		return DM_STALL;
	switch (d->state) {
	case ST_CBW:
		/* BOT 6.2.1 valid, 6.2.2 meaningful. */
		if (len != CBW_LEN || get_le32(buf) != CBW_SIG ||
		    (buf[12] & 0x7f) != 0 || (buf[13] & 0xf0) != 0 ||
		    buf[14] < 1 || buf[14] > 16) {
			bot_bad_cbw(dm);
			return DM_STALL;
		}
		bot_command(dm, buf);
		return DM_ACK;
	case ST_DATA_OUT:
		n = d->xfer_len - d->xfer_pos;
		if (n > len)
			n = (uint32_t)len;
		if (d->to_image && n > 0 && disk_write(d,
		    d->img_off + d->xfer_pos, buf, n) != 0) {
			sense(d, SK_MEDIUM, ASC_WRITE_ERR);
			d->status = CSW_FAILED;
		}
		d->xfer_pos += n;
		if (len - n >= d->discard)
			d->discard = 0;
		else
			d->discard -= (uint32_t)(len - n);
		if (d->xfer_pos == d->xfer_len && d->discard == 0)
			bot_data_done(dm);
		return DM_ACK;
	case ST_NEED_RESET:
	case ST_DATA_IN:
	case ST_CSW:
		break;
	}
	return DM_STALL;
}

/* BOT 3.1 reset and 3.2 GET MAX LUN. */
static int
disk_control(struct usb_devmodel *dm, const struct usb_ctrlrequest *s,
    uint8_t *data)
{
	struct disk	*d = dm->priv;

	if (s->bRequestType == (USB_DIR_OUT | USB_TYPE_CLASS |
	    USB_RECIP_INTERFACE) && s->bRequest == BOT_RESET &&
	    s->wValue == 0 && s->wIndex == 0 && s->wLength == 0) {
		d->state = ST_CBW;
		return 0;
	}
	if (s->bRequestType == (USB_DIR_IN | USB_TYPE_CLASS |
	    USB_RECIP_INTERFACE) && s->bRequest == BOT_GET_MAX_LUN &&
	    s->wValue == 0 && s->wIndex == 0 && s->wLength >= 1) {
		data[0] = 0;
		return 1;
	}
	return DM_STALL;
}

static void
disk_reset(struct usb_devmodel *dm)
{
	struct disk	*d = dm->priv;

	d->state = ST_CBW;
}

const struct usb_devmodel_ops dm_disk_ops = {
	.name = "disk",
	.priv_size = sizeof(struct disk),
	.desc = &disk_desc,
	.init = disk_init,
	.destroy = disk_destroy,
	.reset = disk_reset,
	.set_config = NULL,
	.control = disk_control,
	.data_in = disk_data_in,
	.data_out = disk_data_out,
};
