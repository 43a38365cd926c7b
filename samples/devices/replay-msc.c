/*
 * samples/devices/replay-msc.c - the replay model's mass-storage part: a
 * recorded Bulk-Only Transport device (interface 8/6/0x50, USB MSC BOT
 * 1.0) answered by SCSI content rather than in recorded order.  The host
 * that meets the replay tags its CBWs its own way and reads where its file
 * system takes it, so a CBW is matched to a recorded command by its CDB,
 * and READ and WRITE go to the blocks the recording saw.
 *
 * From the recording (rp_msc_record, every bulk transfer in recorded
 * order): the commands, each a CBW, its data phase (a STALL in it) and
 * its CSW's status; and the blocks: the data of every READ and WRITE (6,
 * 10, 12, 16) whose CSW said passed, block by block, the last seen at each
 * LBA kept, so the medium is as the recording left it.  The block size is
 * READ CAPACITY's answer (512 before one).  A block the capture cut short
 * (its snap length) is not kept.
 *
 * The host's commands:
 *  - READ: the blocks kept, zeros for the others (a divergence);
 *  - WRITE: into the blocks; its data compared with the recorded WRITE
 *    of the same CDB, if any (a divergence when it differs or there is
 *    none);
 *  - any other: the first recorded command with the same CDB not used
 *    yet, else the last of them (a TEST UNIT READY that failed once with
 *    a UNIT ATTENTION fails once here too); else one with the same
 *    opcode (a divergence); else CHECK CONDITION, with ILLEGAL REQUEST,
 *    INVALID COMMAND OPERATION CODE (SPC-3 4.5.6) for the REQUEST SENSE
 *    that follows (a divergence).
 * The data phase follows the host's dCBWDataTransferLength (BOT 6.7):
 * less data than asked ends with a short packet (zero-length after a full
 * one) and the difference is the CSW's residue; more is cut.  A CBW that
 * is not valid (BOT 6.2.1) STALLs both pipes until reset recovery.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "samples/devices/replay.h"

/* BOT 5.1, 5.2 */
#define CBW_LEN		31
#define CBW_SIG		0x43425355u	/* "USBC" */
#define CSW_LEN		13
#define CSW_SIG		0x53425355u	/* "USBS" */
#define CSW_FAILED	1

#define MSC_MAX_XFER	(16u * 1024 * 1024)	/* one command's data */
#define MSC_BLOCK_MAX	4096

/* A recorded command. */
struct msc_cmd {
	uint8_t		 cdb[16];
	uint8_t		 cdb_len;
	uint8_t		 dir_in;
	uint32_t	 tag;
	uint8_t		*data;
	uint32_t	 len;		/* bytes of the data phase */
	uint32_t	 valid;		/* of them captured */
	size_t		 cap;
	int		 stalled;	/* the data phase ended in a STALL */
	int		 status;	/* bCSWStatus; -1 until the CSW */
	uint64_t	 recno;		/* the CBW's */
	int		 used;
};

struct msc_block {
	uint64_t	 lba;
	uint8_t		*data;
	size_t		 order;		/* recorded order, for the last */
};

enum msc_state {
	M_CBW,			/* waiting for a command */
	M_IN,			/* the data phase, to the host */
	M_OUT,			/* the data phase, from the host */
	M_CSW,			/* the status is next */
	M_RESET,		/* a bad CBW: stalled until reset recovery */
};

struct rp_msc {
	struct msc_cmd	*cmds;
	size_t		 ncmds, capcmds;
	struct msc_cmd	*cur;		/* recording: in its phases */
	struct msc_block *blocks;	/* sorted by lba once done */
	size_t		 nblocks, capblocks;
	uint32_t	 bs;		/* block size */
	int		 in_ep, out_ep;	/* 0: not started */

	/* the host's command */
	enum msc_state	 state;
	uint32_t	 tag, host_len;
	int		 host_in;
	uint8_t		 cdb[16];
	uint8_t		 cdb_len;
	uint8_t		*buf;		/* the data phase */
	uint32_t	 len, pos;
	int		 zlp;		/* a zero-length packet owed */
	int		 stall;		/* STALL IN after the data */
	int		 status;
	const struct msc_cmd *match;	/* a WRITE's recorded twin */
	/* our own sense, for the next REQUEST SENSE: key, ASC, 0 = none */
	uint8_t		 sense_key, asc;
};

struct rp_msc *
rp_msc_new(void)
{
	struct rp_msc	*m = calloc(1, sizeof *m);

	if (m != NULL)
		m->bs = 512;
	return m;
}

void
rp_msc_free(struct rp_msc *m)
{
	size_t	 i;

	if (m == NULL)
		return;
	for (i = 0; i < m->ncmds; i++)
		free(m->cmds[i].data);
	for (i = 0; i < m->nblocks; i++)
		free(m->blocks[i].data);
	free(m->cmds);
	free(m->blocks);
	free(m->buf);
	free(m);
}

/* SBC-3 5: a READ or WRITE's LBA and blocks; 1 read, 2 write, 0 other. */
static int
rw_decode(const uint8_t *cdb, uint8_t len, uint64_t *lba, uint32_t *n)
{
	int	 rw;

	switch (cdb[0]) {
	case 0x08: case 0x0a:		/* READ(6), WRITE(6) */
		if (len < 6)
			return 0;
		*lba = (uint64_t)(cdb[1] & 0x1f) << 16 | get_be16(cdb + 2);
		*n = cdb[4] != 0 ? cdb[4] : 256;
		rw = cdb[0] == 0x08 ? 1 : 2;
		break;
	case 0x28: case 0x2a:		/* READ(10), WRITE(10) */
		if (len < 10)
			return 0;
		*lba = get_be32(cdb + 2);
		*n = get_be16(cdb + 7);
		rw = cdb[0] == 0x28 ? 1 : 2;
		break;
	case 0xa8: case 0xaa:		/* READ(12), WRITE(12) */
		if (len < 12)
			return 0;
		*lba = get_be32(cdb + 2);
		*n = get_be32(cdb + 6);
		rw = cdb[0] == 0xa8 ? 1 : 2;
		break;
	case 0x88: case 0x8a:		/* READ(16), WRITE(16) */
		if (len < 16)
			return 0;
		*lba = get_be64(cdb + 2);
		*n = get_be32(cdb + 10);
		rw = cdb[0] == 0x88 ? 1 : 2;
		break;
	default:
		return 0;
	}
	return rw;
}

static int
block_add(struct rp_msc *m, uint64_t lba, const uint8_t *p)
{
	struct msc_block *b;

	if (dec_grow(&m->blocks, m->nblocks, &m->capblocks,
	    sizeof *m->blocks) != 0)
		return -1;
	b = &m->blocks[m->nblocks];
	if ((b->data = malloc(m->bs)) == NULL)
		return -1;
	memcpy(b->data, p, m->bs);
	b->lba = lba;
	b->order = m->nblocks++;
	return 0;
}

/* A recorded command ended with its CSW: its blocks kept. */
static int
cmd_end(struct rp_msc *m, struct msc_cmd *c)
{
	uint64_t	 lba;
	uint32_t	 n, i;
	uint8_t		*p;
	int		 rw;

	/* READ CAPACITY(10) and (16) (SBC-3 5.15, 5.16): the block size */
	if (c->status == 0 && c->cdb[0] == 0x25 && c->valid >= 8 &&
	    get_be32(c->data + 4) >= 512 && get_be32(c->data + 4) <=
	    MSC_BLOCK_MAX && m->nblocks == 0)
		m->bs = get_be32(c->data + 4);
	if (c->status == 0 && c->cdb[0] == 0x9e && (c->cdb[1] & 0x1f) ==
	    0x10 && c->valid >= 12 && get_be32(c->data + 8) >= 512 &&
	    get_be32(c->data + 8) <= MSC_BLOCK_MAX && m->nblocks == 0)
		m->bs = get_be32(c->data + 8);
	if (c->status != 0 || (rw = rw_decode(c->cdb, c->cdb_len, &lba,
	    &n)) == 0)
		return 0;
	for (i = 0; i < n && (uint64_t)(i + 1) * m->bs <= c->valid; i++)
		if (block_add(m, lba + i, c->data + (size_t)i * m->bs) != 0)
			return -1;
	/* a READ is answered from the blocks alone; a WRITE's data stays,
	 * to compare the host's with */
	if (rw == 1) {
		free(c->data);
		c->data = NULL;
		c->len = c->valid = 0;
		c->cap = 0;
	} else if (c->cap > c->len && c->len > 0 &&
	    (p = realloc(c->data, c->len)) != NULL) {
		c->data = p;		/* no room kept for growth */
		c->cap = c->len;
	}
	return 0;
}

int
rp_msc_record(struct rp_msc *m, int in, const uint8_t *data, uint32_t cap,
    uint32_t actual, int32_t status, uint64_t recno)
{
	struct msc_cmd	*c = m->cur;
	uint32_t	 room;

	if (cap > actual)
		cap = actual;
	if (!in && cap == CBW_LEN && actual == CBW_LEN &&
	    get_le32(data) == CBW_SIG && data[14] >= 1 && data[14] <= 16) {
		/* a new command; one without its CSW is dropped */
		if (c == NULL) {
			if (dec_grow(&m->cmds, m->ncmds, &m->capcmds,
			    sizeof *m->cmds) != 0)
				return -1;
			c = &m->cmds[m->ncmds++];
		} else
			free(c->data);
		memset(c, 0, sizeof *c);
		c->tag = get_le32(data + 4);
		c->dir_in = (data[12] & 0x80) != 0;
		c->cdb_len = data[14];
		memcpy(c->cdb, data + 15, c->cdb_len);
		c->status = -1;
		c->recno = recno;
		m->cur = c;
		return 0;
	}
	if (c == NULL)
		return 0;
	if (in && cap == CSW_LEN && actual == CSW_LEN &&
	    get_le32(data) == CSW_SIG && get_le32(data + 4) == c->tag) {
		c->status = data[12];
		m->cur = NULL;
		return cmd_end(m, c);
	}
	if (status == -32) {		/* -EPIPE */
		c->stalled = 1;
		return 0;
	}
	if (status != 0 && status != -121)	/* -EREMOTEIO: short */
		return 0;
	if (in != c->dir_in || actual == 0 || c->len >= MSC_MAX_XFER)
		return 0;
	room = MSC_MAX_XFER - c->len;
	if (actual > room)
		actual = room;
	if (cap > actual)
		cap = actual;	/* never more than the transfer held */
	if (c->len + actual > c->cap) {
		size_t	 want = c->cap ? c->cap : 4096;
		uint8_t	*p;

		while (want < c->len + actual)
			want *= 2;
		if ((p = realloc(c->data, want)) == NULL)
			return -1;
		c->data = p;
		c->cap = want;
	}
	memcpy(c->data + c->len, data, cap);
	memset(c->data + c->len + cap, 0, actual - cap);
	/* what follows a cut is not known */
	if (c->valid == c->len)
		c->valid += cap;
	c->len += actual;
	return 0;
}

static int
block_cmp(const void *a, const void *b)
{
	const struct msc_block *x = a, *y = b;

	if (x->lba != y->lba)
		return x->lba < y->lba ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void
rp_msc_done(struct rp_msc *m, struct usb_devmodel *dm)
{
	size_t	 i, k = 0;

	if (m->cur != NULL) {		/* the last one had no CSW */
		free(m->cur->data);
		m->ncmds--;
		m->cur = NULL;
	}
	if (m->nblocks > 1)
		qsort(m->blocks, m->nblocks, sizeof *m->blocks, block_cmp);
	/* the last recorded data of each LBA */
	for (i = 0; i < m->nblocks; i++) {
		if (i + 1 < m->nblocks &&
		    m->blocks[i + 1].lba == m->blocks[i].lba) {
			free(m->blocks[i].data);
			continue;
		}
		m->blocks[k++] = m->blocks[i];
	}
	m->nblocks = k;
	if (m->ncmds > 0)
		dm_note(dm, "replay: mass storage: %zu SCSI commands recorded, "
		    "%zu blocks of %u bytes", m->ncmds, m->nblocks, m->bs);
}

void
rp_msc_start(struct rp_msc *m, int in_ep, int out_ep)
{
	m->in_ep = in_ep;
	m->out_ep = out_ep;
	rp_msc_reset(m);
}

int
rp_msc_started(const struct rp_msc *m, int ep)
{
	return m != NULL && m->in_ep != 0 && (ep == m->in_ep ||
	    ep == m->out_ep);
}

void
rp_msc_reset(struct rp_msc *m)
{
	if (m == NULL)
		return;
	m->state = M_CBW;
	m->zlp = m->stall = 0;
}

static const struct msc_block *
block_find(const struct rp_msc *m, uint64_t lba)
{
	size_t	 lo = 0, hi = m->nblocks, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->blocks[mid].lba == lba)
			return &m->blocks[mid];
		if (m->blocks[mid].lba < lba)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The host's write of one block: the kept one replaced, or one more. */
static int
block_put(struct rp_msc *m, uint64_t lba, const uint8_t *p)
{
	struct msc_block *b = (struct msc_block *)block_find(m, lba);
	size_t	 at = 0;

	if (b != NULL) {
		memcpy(b->data, p, m->bs);
		return 0;
	}
	if (block_add(m, lba, p) != 0)
		return -1;
	/* into its place */
	while (at < m->nblocks - 1 && m->blocks[at].lba < lba)
		at++;
	if (at < m->nblocks - 1) {
		struct msc_block nb = m->blocks[m->nblocks - 1];

		memmove(m->blocks + at + 1, m->blocks + at,
		    (m->nblocks - 1 - at) * sizeof *m->blocks);
		m->blocks[at] = nb;
	}
	return 0;
}

/* Room for the host's data phase of len bytes. */
static int
buf_room(struct rp_msc *m, uint32_t len)
{
	uint8_t	*p;

	free(m->buf);
	m->buf = NULL;
	if ((p = calloc(1, len > 0 ? len : 1)) == NULL)
		return -1;
	m->buf = p;
	return 0;
}

/* The recorded command for the host's CDB: exact, else same opcode. */
static struct msc_cmd *
cmd_find(struct rp_msc *m, int *exact)
{
	struct msc_cmd	*c, *first = NULL, *last = NULL, *op = NULL;
	size_t		 i;

	for (i = 0; i < m->ncmds; i++) {
		c = &m->cmds[i];
		if (c->cdb[0] == m->cdb[0] && c->dir_in == m->host_in &&
		    op == NULL)
			op = c;
		if (c->cdb_len != m->cdb_len ||
		    memcmp(c->cdb, m->cdb, m->cdb_len) != 0)
			continue;
		last = c;
		if (first == NULL && !c->used)
			first = c;
	}
	*exact = first != NULL || last != NULL;
	return first != NULL ? first : last != NULL ? last : op;
}

static const char *
cdb_hex(const uint8_t *cdb, uint8_t len, char *out, size_t size)
{
	size_t	 i, n = 0;

	out[0] = '\0';
	for (i = 0; i < len && n + 4 < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%02x", i ? " " : "",
		    cdb[i]);
	return out;
}

/* A READ: the blocks kept, zeros for the others. */
static int
cmd_read(struct rp_msc *m, struct usb_devmodel *dm, uint64_t lba,
    uint32_t n)
{
	const struct msc_block *b;
	uint32_t	 i, missing = 0, want;
	char		 hex[64];

	want = m->host_len < MSC_MAX_XFER ? m->host_len : MSC_MAX_XFER;
	if ((uint64_t)n * m->bs < want)
		want = n * m->bs;
	if (buf_room(m, want) != 0)
		return -1;
	for (i = 0; (uint64_t)i * m->bs < want; i++) {
		if ((b = block_find(m, lba + i)) == NULL) {
			missing++;
			continue;
		}
		memcpy(m->buf + (size_t)i * m->bs, b->data,
		    want - (size_t)i * m->bs < m->bs ?
		    want - (size_t)i * m->bs : m->bs);
	}
	if (missing > 0)
		rp_note(dm, "SCSI %s (lba %llu, %u blocks): %u of them not in "
		    "the recording: zeros", cdb_hex(m->cdb, m->cdb_len, hex,
		    sizeof hex), (unsigned long long)lba, n, missing);
	m->len = want;
	m->status = 0;
	return 0;
}

/* Our own answer to REQUEST SENSE: fixed format (SPC-3 4.5.3). */
static void
own_sense(struct rp_msc *m)
{
	uint32_t	 n = m->host_len < 18 ? m->host_len : 18;

	if (buf_room(m, 18) != 0) {
		m->len = 0;
		return;
	}
	m->buf[0] = 0x70;
	m->buf[2] = m->sense_key;
	m->buf[7] = 10;
	m->buf[12] = m->asc;
	m->len = n;
	m->status = 0;
	m->sense_key = m->asc = 0;
}

/* A CBW from the host: the answer made ready. */
static int
cbw(struct rp_msc *m, struct usb_devmodel *dm, const uint8_t *p,
    size_t len)
{
	struct msc_cmd	*c;
	uint64_t	 lba;
	uint32_t	 n;
	int		 rw, exact;
	char		 hex[64], rhex[64];

	if (len != CBW_LEN || get_le32(p) != CBW_SIG || p[14] < 1 ||
	    p[14] > 16 || (p[13] & 0x0f) != 0) {
		rp_note(dm, "bulk OUT 0x%02x: %zu bytes that are no CBW: both "
		    "pipes STALLed until reset recovery", m->out_ep, len);
		m->state = M_RESET;
		dm_halt(dm, m->in_ep, 1);
		dm_halt(dm, m->out_ep, 1);
		return DM_STALL;
	}
	m->tag = get_le32(p + 4);
	m->host_len = get_le32(p + 8);
	m->host_in = (p[12] & 0x80) != 0;
	m->cdb_len = p[14];
	memcpy(m->cdb, p + 15, m->cdb_len);
	m->pos = m->len = 0;
	m->zlp = m->stall = 0;
	m->match = NULL;
	m->status = 0;
	rw = rw_decode(m->cdb, m->cdb_len, &lba, &n);
	if (rw == 1 && m->host_in) {
		if (cmd_read(m, dm, lba, n) != 0)
			return DM_STALL;
	} else if (rw == 2 && !m->host_in) {
		/* the data comes; m->len is what is kept of it */
		m->len = m->host_len < MSC_MAX_XFER ? m->host_len :
		    MSC_MAX_XFER;
		if ((uint64_t)n * m->bs < m->len)
			m->len = n * m->bs;
		if (buf_room(m, m->len) != 0)
			return DM_STALL;
		c = cmd_find(m, &exact);
		m->match = exact ? c : NULL;
		if (c != NULL && exact)
			c->used = 1;
		if (!exact)
			rp_note(dm, "SCSI %s (lba %llu, %u blocks) not in the "
			    "recording: written", cdb_hex(m->cdb, m->cdb_len,
			    hex, sizeof hex), (unsigned long long)lba, n);
	} else if (m->cdb[0] == 0x03 && m->sense_key != 0) {
		own_sense(m);		/* REQUEST SENSE after ours failed */
	} else if ((c = cmd_find(m, &exact)) != NULL) {
		if (!exact)
			rp_note(dm, "SCSI %s not in the recording: answered as "
			    "record %llu's %s", cdb_hex(m->cdb, m->cdb_len, hex,
			    sizeof hex), (unsigned long long)c->recno,
			    cdb_hex(c->cdb, c->cdb_len, rhex, sizeof rhex));
		c->used = 1;
		m->len = c->dir_in ? c->len : 0;
		if (m->len > m->host_len)
			m->len = m->host_len;
		if (buf_room(m, m->len) != 0)
			return DM_STALL;
		if (m->len > 0)
			memcpy(m->buf, c->data, m->len);
		m->stall = c->stalled;
		m->status = c->status;
	} else {
		rp_note(dm, "SCSI %s not in the recording: CHECK CONDITION, "
		    "ILLEGAL REQUEST", cdb_hex(m->cdb, m->cdb_len, hex,
		    sizeof hex));
		m->len = 0;
		m->status = CSW_FAILED;
		m->stall = m->host_in && m->host_len > 0;
		m->sense_key = 0x05;	/* ILLEGAL REQUEST */
		m->asc = 0x20;		/* INVALID COMMAND OPERATION CODE */
	}
	if (m->host_len == 0)
		m->state = M_CSW;
	else
		m->state = m->host_in ? M_IN : M_OUT;
	return DM_ACK;
}

/* The host's WRITE data, all of it: into the blocks, compared. */
static void
write_end(struct rp_msc *m, struct usb_devmodel *dm)
{
	uint64_t	 lba;
	uint32_t	 n, i, k;
	char		 hex[64];

	if (rw_decode(m->cdb, m->cdb_len, &lba, &n) != 2)
		return;
	for (i = 0; (uint64_t)(i + 1) * m->bs <= m->pos; i++)
		(void)block_put(m, lba + i, m->buf + (size_t)i * m->bs);
	if (m->match == NULL)
		return;
	k = m->match->valid < m->pos ? m->match->valid : m->pos;
	if (m->match->len != m->pos || memcmp(m->match->data, m->buf, k) != 0)
		rp_note(dm, "SCSI %s: %u bytes written, other than record "
		    "%llu's %u", cdb_hex(m->cdb, m->cdb_len, hex, sizeof hex),
		    m->pos, (unsigned long long)m->match->recno,
		    m->match->len);
}

int
rp_msc_out(struct rp_msc *m, struct usb_devmodel *dm, const uint8_t *buf,
    size_t len)
{
	uint32_t	 n;

	switch (m->state) {
	case M_RESET:
		return DM_STALL;
	case M_OUT:
		n = m->len - m->pos < len ? m->len - m->pos : (uint32_t)len;
		memcpy(m->buf + m->pos, buf, n);
		m->pos += n;
		m->host_len -= (uint32_t)len <= m->host_len ?
		    (uint32_t)len : m->host_len;
		/* the residue counts what the host did not send */
		if (m->host_len == 0 || len == 0) {
			write_end(m, dm);
			m->state = M_CSW;
		}
		return DM_ACK;
	default:
		/* a CBW, also one that cuts a command short */
		return cbw(m, dm, buf, len);
	}
}

int
rp_msc_in(struct rp_msc *m, uint8_t *buf, size_t max)
{
	uint32_t	 n;

	switch (m->state) {
	case M_IN:
		if (m->zlp || (m->pos >= m->len && !m->stall)) {
			/* a short packet ends the data phase */
			m->zlp = 0;
			m->state = M_CSW;
			return 0;
		}
		if (m->pos >= m->len) {
			m->stall = 0;
			m->state = M_CSW;
			return DM_STALL;	/* until CLEAR_FEATURE */
		}
		n = m->len - m->pos < max ? m->len - m->pos : (uint32_t)max;
		memcpy(buf, m->buf + m->pos, n);
		m->pos += n;
		if (m->pos >= m->len && !m->stall) {
			if (m->len == m->host_len || n < max)
				m->state = M_CSW;
			else
				m->zlp = 1;
		}
		return (int)n;
	case M_CSW:
		if (max < CSW_LEN)
			return DM_STALL;
		put_le32(buf, CSW_SIG);
		put_le32(buf + 4, m->tag);
		/* BOT 5.2: what the host asked for and did not get */
		put_le32(buf + 8, m->host_in ? m->host_len - m->pos :
		    m->host_len);
		buf[12] = (uint8_t)m->status;
		m->state = M_CBW;
		return CSW_LEN;
	case M_RESET:
		return DM_STALL;
	default:
		return DM_NAK;
	}
}
