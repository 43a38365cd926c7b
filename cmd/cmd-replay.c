/*
 * cmd/cmd-replay.c - `urbscope replay FILE [-d VID:PID | -s BUS:DEV]
 * [-Y FILTER] [--dry-run] [--detach] [--allow-state] [--timeout MS]`:
 * the host's side of one device's transfers, from a capture, made again
 * to a live device through libusb-1.0, in the order they completed, and
 * every answer held against the recording (status, length, bytes).
 *
 * Which transfers are sent is decode/dec-export.c's (dec_export_replay):
 * SET_ADDRESS never; the enumeration's standard OUT requests are the
 * host's USB core's; requests that change the device's state (vendor
 * OUT, DFU_DNLOAD, SET_FEATURE, SET_CONFIGURATION to another
 * configuration, a Bulk-Only disk's SCSI writes) only with --allow-state; cancelled URBs are counted,
 * not sent, and so are isochronous ones whose packets the capture does
 * not all describe (usbmon text keeps five); the others go packet by
 * packet through libusb's asynchronous API.  The interfaces the sent transfers use are
 * claimed; a kernel driver bound to one is detached only with --detach,
 * and attached again at the end.  Every transfer has a timeout, so a
 * device that stops answering or goes away ends the replay with what
 * diverged so far; nothing waits forever.
 *
 * Exit status: 0 when the device answered as recorded, 1 when it did
 * not (or the capture could not be read), 2 usage, 3 when the device
 * cannot be replayed to (not there, no access, an interface busy).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libusb.h>

#include "capture/capture.h"
#include "decode/ch9.h"
#include "cmd.h"

#define REPLAY_OPT_DRYRUN	0x130
#define REPLAY_OPT_DETACH	0x131
#define REPLAY_OPT_STATE	0x132
#define REPLAY_OPT_TIMEOUT	0x133
#define REPLAY_OPT_FROM		0x134
#define EXIT_DEVICE		3
#define REPLAY_TIMEOUT		1000	/* ms, a transfer's default */
#define REPLAY_DIFF_ROWS	4	/* rows of a byte diff shown */
/* bmRequestType bits, the endpoint halt feature (USB 2.0 9.3, 9.4) */
#define RT_RECIP_INTERFACE	0x01
#define RT_RECIP_ENDPOINT	0x02

/* What an answer was, libusb's and Linux's statuses alike. */
enum { ANS_OK, ANS_STALL, ANS_OVERFLOW, ANS_TIMEOUT, ANS_GONE, ANS_ERROR };

struct replay {
	const struct dec_replay *rp;
	libusb_context	*ctx;
	libusb_device_handle *h;
	unsigned int	 timeout;
	int		 allow_state;
	int		 verbose;
	unsigned char	*buf;
	int		 claimed[256];
	int		 detached[256];
	size_t		 sent, same, diverged;
	size_t		 skipped[7];	/* by DEC_STEP_* kind */
	size_t		 config_same;	/* SET_CONFIGURATION already so */
	int		 gone;
};

static volatile sig_atomic_t replay_stop;

static void
replay_signal(int sig)
{
	(void)sig;
	replay_stop = 1;
}

static int
linux_answer(int32_t status)
{
	switch (status) {
	case 0:		return ANS_OK;
	case -32:	return ANS_STALL;	/* -EPIPE */
	case -75:	return ANS_OVERFLOW;	/* -EOVERFLOW */
	case -110:				/* -ETIMEDOUT */
	case -62:	return ANS_TIMEOUT;	/* -ETIME */
	case -19:				/* -ENODEV */
	case -108:	return ANS_GONE;	/* -ESHUTDOWN */
	default:	return ANS_ERROR;
	}
}

static int
libusb_answer(int rc)
{
	switch (rc) {
	case LIBUSB_ERROR_PIPE:		return ANS_STALL;
	case LIBUSB_ERROR_OVERFLOW:	return ANS_OVERFLOW;
	case LIBUSB_ERROR_TIMEOUT:	return ANS_TIMEOUT;
	case LIBUSB_ERROR_NO_DEVICE:	return ANS_GONE;
	default:			return rc < 0 ? ANS_ERROR : ANS_OK;
	}
}

static const char *
answer_name(int a)
{
	static const char *const name[] = { "done", "a stall", "babble",
	    "no answer (timed out)", "the device gone", "a transfer error" };

	return name[a];
}

/* The transfer as sent: control's setup, or the endpoint and length. */
static void
describe(const struct dec_step *v, char *s, size_t n)
{
	static const char *const type[] = { "isochronous", "interrupt",
	    "control", "bulk" };

	if (v->type == XFER_ISO)
		snprintf(s, n, "isochronous %s 0x%02x, %u packets, %u bytes",
		    v->in ? "IN" : "OUT", v->ep, v->niso, v->in ? v->len :
		    v->nout);
	else if (v->ctrl)
		snprintf(s, n, "control %02x %02x %04x %04x %04x",
		    v->setup[0], v->setup[1], get_le16(v->setup + 2),
		    get_le16(v->setup + 4), get_le16(v->setup + 6));
	else
		snprintf(s, n, "%s %s 0x%02x, %u bytes", type[v->type & 3],
		    v->in ? "IN" : "OUT", v->ep, v->in ? v->len : v->nout);
}

static void
expected(const struct dec_step *v, char *s, size_t n)
{
	int a = linux_answer(v->status);

	if (a != ANS_OK)
		snprintf(s, n, "%s (%d)", answer_name(a), (int)v->status);
	else if (v->in)
		snprintf(s, n, "%u byte%s", v->actual, v->actual == 1 ? "" :
		    "s");
	else
		snprintf(s, n, "done");
}

/* got against recorded, the rows of 16 bytes that differ. */
static void
byte_diff(const unsigned char *got, const uint8_t *rec, uint32_t n)
{
	uint32_t	 row, i, shown = 0, rows = 0;

	for (row = 0; row < n; row += 16) {
		for (i = row; i < n && i < row + 16 && got[i] == rec[i]; i++)
			;
		if (i == n || i == row + 16)
			continue;
		if (shown++ >= REPLAY_DIFF_ROWS) {
			rows++;
			continue;
		}
		printf("    %04x  got     ", row);
		for (i = row; i < n && i < row + 16; i++)
			printf(" %02x", got[i]);
		printf("\n    %04x  recorded", row);
		for (i = row; i < n && i < row + 16; i++)
			printf(" %02x", rec[i]);
		printf("\n                  ");
		for (i = row; i < n && i < row + 16; i++)
			printf("%s", got[i] != rec[i] ? " ^^" : "   ");
		printf("\n");
	}
	if (rows > 0)
		printf("    and %u more row%s of 16 bytes differ\n", rows,
		    rows == 1 ? "" : "s");
}

/* Hold rc (a length or libusb's error) and buf against v's recording. */
static void
compare(struct replay *r, const struct dec_step *v, int rc)
{
	int		 want = linux_answer(v->status), got = libusb_answer(rc);
	uint32_t	 i, n;
	char		 exp[64];

	r->sent++;
	if (got == ANS_GONE)
		r->gone = 1;
	n = got == ANS_OK && v->in ? (uint32_t)rc : 0;
	if (n > v->ndata)
		n = v->ndata;
	for (i = 0; i < n && r->buf[i] == v->data[i]; i++)
		;
	if (got == want && (got != ANS_OK || !v->in ||
	    ((uint32_t)rc == v->actual && i == n))) {
		r->same++;
		if (r->verbose)
			printf("record %llu: %s: as recorded\n",
			    (unsigned long long)v->recno, v->comment);
		return;
	}
	r->diverged++;
	expected(v, exp, sizeof exp);
	if (got != want)
		printf("record %llu: %s: %s, recorded %s\n",
		    (unsigned long long)v->recno, v->comment,
		    answer_name(got), exp);
	else if ((uint32_t)rc == v->actual)
		printf("record %llu: %s: %d bytes as recorded, other "
		    "bytes\n", (unsigned long long)v->recno, v->comment, rc);
	else
		printf("record %llu: %s: %d bytes, recorded %u%s\n",
		    (unsigned long long)v->recno, v->comment, rc, v->actual,
		    i < n ? ", other bytes" : "");
	if (i < n)
		byte_diff(r->buf, v->data, n);
}

/* Send v and compare its answer. */
static void
send_one(struct replay *r, const struct dec_step *v)
{
	int		 rc, n = 0;
	uint32_t	 len = v->len;

	memset(r->buf, 0, len > 0 ? len : 1);
	if (!v->in && v->nout > 0)
		memcpy(r->buf, v->out, v->nout);
	if (v->ctrl && v->setup[0] == RT_RECIP_INTERFACE &&
	    v->setup[1] == USB_REQ_SET_INTERFACE) {
		rc = libusb_set_interface_alt_setting(r->h, v->setup[4],
		    v->setup[2]);
	} else if (v->ctrl && v->setup[0] == RT_RECIP_ENDPOINT &&
	    v->setup[1] == USB_REQ_CLEAR_FEATURE &&
	    get_le16(v->setup + 2) == 0) {
		/* CLEAR_FEATURE(ENDPOINT_HALT): libusb's own, which resets
		 * the host's data toggle too */
		rc = libusb_clear_halt(r->h, v->setup[4]);
	} else if (v->ctrl) {
		rc = libusb_control_transfer(r->h, v->setup[0], v->setup[1],
		    get_le16(v->setup + 2), get_le16(v->setup + 4), r->buf,
		    (uint16_t)(v->in ? get_le16(v->setup + 6) : v->len),
		    r->timeout);
	} else {
		rc = v->type == XFER_INT ?
		    libusb_interrupt_transfer(r->h, v->ep, r->buf, (int)len,
		    &n, r->timeout) :
		    libusb_bulk_transfer(r->h, v->ep, r->buf, (int)len, &n,
		    r->timeout);
		if (rc == 0)
			rc = n;
	}
	if (rc > 0 && !v->in)
		rc = 0;
	compare(r, v, rc);
}

static int
iso_answer(enum libusb_transfer_status st)
{
	switch (st) {
	case LIBUSB_TRANSFER_COMPLETED:	return ANS_OK;
	case LIBUSB_TRANSFER_STALL:	return ANS_STALL;
	case LIBUSB_TRANSFER_OVERFLOW:	return ANS_OVERFLOW;
	case LIBUSB_TRANSFER_TIMED_OUT:	return ANS_TIMEOUT;
	case LIBUSB_TRANSFER_NO_DEVICE:	return ANS_GONE;
	default:			return ANS_ERROR;
	}
}

static void LIBUSB_CALL
iso_done(struct libusb_transfer *tr)
{
	*(int *)tr->user_data = 1;
}

/*
 * An isochronous URB: its packets of the recorded lengths in one libusb
 * transfer (OUT with the recorded bytes), each packet's answer held
 * against the recording: its status and, IN, its length and bytes.  The
 * first packet that differs is said, with the number that do.
 */
static void
send_iso(struct replay *r, const struct dec_step *v)
{
	struct libusb_transfer *tr;
	struct timeval	 tv = { 0, 100000 };
	const struct urb_iso *ps, *pc;
	unsigned char	*buf, *p;
	uint32_t	 i, total = 0, n, off, bad = 0, first = 0;
	int		 done = 0, a, want, fa = 0, rc;

	for (i = 0; i < v->niso; i++)
		total += v->iso_s[i].len;
	if ((tr = libusb_alloc_transfer((int)v->niso)) == NULL ||
	    (buf = calloc(1, total > 0 ? total : 1)) == NULL) {
		libusb_free_transfer(tr);
		cmd_warnx("out of memory");
		r->gone = 1;
		return;
	}
	for (i = 0, off = 0; i < v->niso; off += v->iso_s[i++].len) {
		ps = &v->iso_s[i];
		if (!v->in && ps->off < v->nout)
			memcpy(buf + off, v->out + ps->off, ps->len <
			    v->nout - ps->off ? ps->len : v->nout - ps->off);
	}
	libusb_fill_iso_transfer(tr, r->h, v->ep, buf, (int)total,
	    (int)v->niso, iso_done, &done, r->timeout);
	for (i = 0; i < v->niso; i++)
		tr->iso_packet_desc[i].length = v->iso_s[i].len;
	r->sent++;
	if ((rc = libusb_submit_transfer(tr)) != 0) {
		done = 1;
		tr->status = rc == LIBUSB_ERROR_NO_DEVICE ?
		    LIBUSB_TRANSFER_NO_DEVICE : LIBUSB_TRANSFER_ERROR;
	}
	/* SIGINT cancels it (again and again is harmless: NOT_FOUND) */
	while (!done) {
		(void)libusb_handle_events_timeout_completed(r->ctx, &tv,
		    &done);
		if (replay_stop && !done)
			libusb_cancel_transfer(tr);
	}
	if (tr->status != LIBUSB_TRANSFER_COMPLETED) {
		a = iso_answer(tr->status);
		if (a == ANS_GONE)
			r->gone = 1;
		r->diverged++;
		printf("record %llu: %s: %s, recorded %u packets\n",
		    (unsigned long long)v->recno, v->comment, answer_name(a),
		    v->niso);
		goto out;
	}
	for (i = 0; i < v->niso; i++) {
		pc = &v->iso_c[i];
		a = iso_answer(tr->iso_packet_desc[i].status);
		want = linux_answer(pc->status);
		n = tr->iso_packet_desc[i].actual_length;
		p = libusb_get_iso_packet_buffer(tr, i);
		if (a == want && (!v->in || a != ANS_OK || (n == pc->len &&
		    (pc->off >= v->ndata || memcmp(p, v->data + pc->off,
		    n < v->ndata - pc->off ? n : v->ndata - pc->off) == 0))))
			continue;
		if (bad++ == 0) {
			first = i;
			fa = a;
		}
	}
	if (bad == 0) {
		r->same++;
		if (r->verbose)
			printf("record %llu: %s: %u packets as recorded\n",
			    (unsigned long long)v->recno, v->comment, v->niso);
		goto out;
	}
	r->diverged++;
	pc = &v->iso_c[first];
	n = tr->iso_packet_desc[first].actual_length;
	printf("record %llu: %s: %u of %u packets differ; packet %u: ",
	    (unsigned long long)v->recno, v->comment, bad, v->niso, first);
	if (fa != linux_answer(pc->status))
		printf("%s, recorded %s (%d)\n", answer_name(fa),
		    answer_name(linux_answer(pc->status)), (int)pc->status);
	else if (n != pc->len)
		printf("%u bytes, recorded %u\n", n, pc->len);
	else {
		printf("%u bytes as recorded, other bytes\n", n);
		byte_diff(libusb_get_iso_packet_buffer(tr, first),
		    v->data + pc->off, n < v->ndata - pc->off ? n :
		    v->ndata - pc->off);
	}
out:
	libusb_free_transfer(tr);
	free(buf);
}

/* SET_CONFIGURATION: nothing when the device is in it already, else
 * only with --allow-state (the interfaces let go and claimed again). */
static int
set_config(struct replay *r, const struct dec_step *v)
{
	int	 cur = -1, k, rc;

	if (libusb_get_configuration(r->h, &cur) == 0 &&
	    cur == v->setup[2]) {
		r->config_same++;
		return 0;
	}
	if (!r->allow_state) {
		r->skipped[DEC_STEP_CONFIG]++;
		return 0;
	}
	for (k = 0; k < 256; k++)
		if (r->claimed[k])
			libusb_release_interface(r->h, k);
	rc = libusb_set_configuration(r->h, v->setup[2]);
	compare(r, v, rc);
	for (k = 0; k < 256; k++)
		if (r->claimed[k] && libusb_claim_interface(r->h, k) != 0)
			r->claimed[k] = 0;
	return 0;
}

/* Claim the interfaces rp needs, detaching kernel drivers with detach:
 * 0, or -1 after saying why not. */
static int
claim_all(struct replay *r, int detach)
{
	int	 k, rc;

	for (k = 0; k < 256; k++) {
		if (!r->rp->claim[k])
			continue;
		rc = libusb_kernel_driver_active(r->h, k);
		if (rc == 1 && !detach) {
			cmd_warnx("replay: interface %d is bound to a kernel "
			    "driver: --detach lends it to the replay (it is "
			    "bound again at the end)", k);
			return -1;
		}
		if (rc == 1 && (rc = libusb_detach_kernel_driver(r->h, k))
		    != 0) {
			cmd_warnx("replay: interface %d: cannot detach its "
			    "driver: %s", k, libusb_strerror(rc));
			return -1;
		}
		r->detached[k] = rc == 0 && detach &&
		    libusb_kernel_driver_active(r->h, k) == 0;
		if ((rc = libusb_claim_interface(r->h, k)) != 0) {
			cmd_warnx("replay: interface %d: %s", k,
			    libusb_strerror(rc));
			return -1;
		}
		r->claimed[k] = 1;
	}
	return 0;
}

static void
release_all(struct replay *r)
{
	int	 k;

	for (k = 0; k < 256; k++) {
		if (r->claimed[k])
			libusb_release_interface(r->h, k);
		if (r->detached[k] && !r->gone)
			libusb_attach_kernel_driver(r->h, k);
	}
}

static const char *const kind_name[] = {
	NULL, "SET_ADDRESS (never sent)", "cancelled",
	"isochronous with its packets not in the capture",
	"enumeration (the USB core's)",
	"changing the device's state (--allow-state)",
	"SET_CONFIGURATION to another configuration (--allow-state)"
};

/* --dry-run: what would be sent, what would not, and why. */
static void
dry_run(const struct dec_replay *rp, int allow_state)
{
	const struct dec_step *v;
	size_t		 i;
	char		 d[80], e[64];
	int		 send;

	for (i = 0; i < rp->nxfer; i++) {
		v = &rp->xfer[i];
		send = v->kind == DEC_STEP_DO || (allow_state &&
		    v->kind == DEC_STEP_STATE);
		describe(v, d, sizeof d);
		expected(v, e, sizeof e);
		if (v->kind == DEC_STEP_CONFIG)
			printf("record %llu: %s: not sent when the device is "
			    "in configuration %u already, otherwise %s\n",
			    (unsigned long long)v->recno, v->comment,
			    v->setup[2], allow_state ? "sent" :
			    "only with --allow-state");
		else if (send)
			printf("record %llu: send %s, expect %s: %s\n",
			    (unsigned long long)v->recno, d, e, v->comment);
		else
			printf("record %llu: not sent, %s: %s\n",
			    (unsigned long long)v->recno, kind_name[v->kind],
			    v->comment);
	}
}

/* The live device at bus:dev (bus > 0), else the first that is vid:pid
 * and described itself as the recording says (release, strings: two
 * devices may share IDs, as QEMU's keyboard and tablet do), else the
 * first that is vid:pid; NULL if none. */
static libusb_device *
find_device(libusb_device **list, int bus, int dev,
    const struct dec_replay *rp)
{
	struct libusb_device_descriptor dd;
	libusb_device	*pick = NULL;
	const uint8_t	*rd = rp != NULL ? rp->devdesc : NULL;
	size_t		 i;

	for (i = 0; list[i] != NULL; i++) {
		if (bus > 0) {
			if (libusb_get_bus_number(list[i]) == bus &&
			    libusb_get_device_address(list[i]) == dev)
				return list[i];
			continue;
		}
		if (libusb_get_device_descriptor(list[i], &dd) != 0 ||
		    dd.idVendor != rp->vid || dd.idProduct != rp->pid)
			continue;
		if (pick == NULL)
			pick = list[i];
		if (dd.bcdDevice == get_le16(rd + 12) &&
		    dd.iManufacturer == rd[14] && dd.iProduct == rd[15] &&
		    dd.iSerialNumber == rd[16])
			return list[i];
	}
	return pick;
}

static void
summary(const struct replay *r)
{
	static const int order[] = { DEC_STEP_ADDRESS, DEC_STEP_ENUM,
	    DEC_STEP_STATE, DEC_STEP_CONFIG, DEC_STEP_CANCELLED,
	    DEC_STEP_ISO };
	size_t		 i, k, n = 0;

	printf("%zu sent: %zu as recorded, %zu diverged", r->sent, r->same,
	    r->diverged);
	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		n += r->skipped[order[i]];
	if (r->config_same > 0)
		printf("; SET_CONFIGURATION %zu time%s: the device is in "
		    "that configuration", r->config_same,
		    r->config_same == 1 ? "" : "s");
	if (n > 0) {
		printf("; not sent:");
		for (i = 0, k = 0; i < sizeof order / sizeof order[0]; i++)
			if (r->skipped[order[i]] > 0)
				printf("%s %zu %s", k++ > 0 ? "," : "",
				    r->skipped[order[i]], kind_name[order[i]]);
	}
	printf("\n");
}

static int
replay_run(struct replay *r, int detach)
{
	const struct dec_replay *rp = r->rp;
	const struct dec_step *v;
	struct sigaction sa, oint, oterm;
	size_t		 i;
	uint32_t	 max = 1;

	for (i = 0; i < rp->nxfer; i++)
		if (rp->xfer[i].len > max)
			max = rp->xfer[i].len;
	if ((r->buf = malloc(max)) == NULL) {
		cmd_warnx("out of memory");
		return EXIT_INPUT;
	}
	if (claim_all(r, detach) != 0) {
		release_all(r);
		return EXIT_DEVICE;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = replay_signal;
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGTERM, &sa, &oterm);
	for (i = 0; i < rp->nxfer && !r->gone && !replay_stop; i++) {
		v = &rp->xfer[i];
		if (v->kind == DEC_STEP_CONFIG)
			set_config(r, v);
		else if (v->kind == DEC_STEP_DO && v->type == XFER_ISO)
			send_iso(r, v);
		else if (v->kind == DEC_STEP_DO || (r->allow_state &&
		    v->kind == DEC_STEP_STATE))
			send_one(r, v);
		else
			r->skipped[v->kind]++;
	}
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
	if (r->gone)
		printf("the device went away at record %llu: %zu of %zu "
		    "transfers not made\n",
		    (unsigned long long)rp->xfer[i - 1].recno, rp->nxfer - i,
		    rp->nxfer);
	else if (replay_stop)
		printf("stopped at record %llu: %zu of %zu transfers not "
		    "made\n", (unsigned long long)rp->xfer[i - 1].recno,
		    rp->nxfer - i, rp->nxfer);
	release_all(r);
	summary(r);
	free(r->buf);
	return r->diverged > 0 || r->gone || replay_stop ? EXIT_INPUT : 0;
}

static int
parse_ids(const char *s, int *a, int *b, int base16)
{
	char	 c;
	unsigned int ua, ub;

	if (base16) {
		if (sscanf(s, "%x:%x%c", &ua, &ub, &c) != 2 || ua > 0xffff ||
		    ub > 0xffff)
			return -1;
	} else if (sscanf(s, "%u:%u%c", &ua, &ub, &c) != 2 &&
	    sscanf(s, "%u.%u%c", &ua, &ub, &c) != 2)
		return -1;
	else if (ua < 1 || ua > 65535 || ub < 1 || ub > 127)
		return -1;
	*a = (int)ua;
	*b = (int)ub;
	return 0;
}

static int
replay_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	const char	*filter = args_get(a, 'Y');
	const char	*ids = args_get(a, 'd'), *slot = args_get(a, 's');
	const char	*from = args_get(a, REPLAY_OPT_FROM);
	const char	*tmo = args_get(a, REPLAY_OPT_TIMEOUT);
	int		 dry = args_has(a, REPLAY_OPT_DRYRUN);
	int		 detach = args_has(a, REPLAY_OPT_DETACH);
	struct replay	 r;
	struct dec_replay rp;
	struct dec_export *x = NULL;
	struct libusb_device_descriptor dd;
	libusb_context	*ctx = NULL;
	libusb_device	**list = NULL, *ld = NULL;
	uint64_t	 t = REPLAY_TIMEOUT;
	int		 vid = -1, pid = -1, bus = 0, dev = 0, fbus = 0, fdev = 0;
	int		 rc, bad, status = 0;
	char		 err[600];

	(void)ce;
	memset(&r, 0, sizeof r);
	memset(&rp, 0, sizeof rp);
	r.allow_state = args_has(a, REPLAY_OPT_STATE);
	r.verbose = args_has(a, 'v');
	if (ids != NULL && slot != NULL) {
		cmd_warnx("replay: -d or -s, not both");
		return EXIT_USAGE;
	}
	if (ids != NULL && parse_ids(ids, &vid, &pid, 1) != 0) {
		cmd_warnx("replay: -d wants VID:PID in hex (0627:0001), "
		    "not %s", ids);
		return EXIT_USAGE;
	}
	if (slot != NULL && parse_ids(slot, &bus, &dev, 0) != 0) {
		cmd_warnx("replay: -s wants BUS:DEV (1:3), not %s", slot);
		return EXIT_USAGE;
	}
	if (from != NULL && parse_ids(from, &fbus, &fdev, 0) != 0) {
		cmd_warnx("replay: --from wants BUS.DEV (1.3), not %s", from);
		return EXIT_USAGE;
	}
	if (tmo != NULL && (cmd_parse_count("--timeout", tmo, &t) != 0 ||
	    t > 3600000)) {
		if (t > 3600000)
			cmd_warnx("replay: --timeout is in ms, an hour at "
			    "most");
		return EXIT_USAGE;
	}
	r.timeout = (unsigned int)t;

	/* the live device first when -s names it: its IDs choose the
	 * capture's device */
	if (!dry || slot != NULL) {
		if ((rc = libusb_init(&ctx)) != 0) {
			cmd_warnx("replay: cannot initialise libusb: %s (is "
			    "usbfs at /dev/bus/usb?)", libusb_strerror(rc));
			return EXIT_DEVICE;
		}
		if (libusb_get_device_list(ctx, &list) < 0)
			list = NULL;
	}
	if (slot != NULL) {
		if (list == NULL || (ld = find_device(list, bus, dev, NULL)) ==
		    NULL || libusb_get_device_descriptor(ld, &dd) != 0) {
			cmd_warnx("replay: no device %d:%d here ('urbscope "
			    "devices' lists them)", bus, dev);
			status = EXIT_DEVICE;
			goto out;
		}
		vid = dd.idVendor;
		pid = dd.idProduct;
	}

	if ((x = dec_export_new(DEC_EXPORT_C, a->argv[0])) == NULL) {
		cmd_warnx("out of memory");
		status = EXIT_INPUT;
		goto out;
	}
	if (vid >= 0)
		dec_export_vidpid(x, (uint16_t)vid, (uint16_t)pid);
	if (fbus > 0)
		dec_export_device(x, fbus, fdev);
	if ((status = cmd_export_read(x, a->argv[0], filter, &bad)) != 0)
		goto out;
	if (dec_export_replay(x, &rp, err, sizeof err) != 0) {
		cmd_warnx("replay: %s", err);
		status = EXIT_INPUT;
		goto out;
	}
	r.rp = &rp;
	if (dry) {
		printf("would replay device %u.%u (%04x:%04x) of %s: %zu "
		    "transfers\n", rp.bus, rp.dev, rp.vid, rp.pid, a->argv[0],
		    rp.nxfer);
		dry_run(&rp, r.allow_state);
		status = bad ? EXIT_INPUT : 0;
		goto out;
	}
	if (ld == NULL && (list == NULL ||
	    (ld = find_device(list, 0, 0, &rp)) == NULL)) {
		cmd_warnx("replay: no device %04x:%04x here ('urbscope "
		    "devices' lists them)", rp.vid, rp.pid);
		status = EXIT_DEVICE;
		goto out;
	}
	if ((rc = libusb_open(ld, &r.h)) != 0) {
		cmd_warnx("replay: device %d:%d: %s%s",
		    libusb_get_bus_number(ld), libusb_get_device_address(ld),
		    libusb_strerror(rc), rc == LIBUSB_ERROR_ACCESS ?
		    " (its /dev/bus/usb node is not writable for you)" : "");
		status = EXIT_DEVICE;
		goto out;
	}
	printf("replaying device %u.%u (%04x:%04x) of %s to device %d:%d: "
	    "%zu transfers\n", rp.bus, rp.dev, rp.vid, rp.pid, a->argv[0],
	    libusb_get_bus_number(ld), libusb_get_device_address(ld),
	    rp.nxfer);
	fflush(stdout);
	r.ctx = ctx;
	status = replay_run(&r, detach);
	libusb_close(r.h);
	if (bad)
		status = EXIT_INPUT;
out:
	dec_replay_free(&rp);
	dec_export_free(x);
	if (list != NULL)
		libusb_free_device_list(list, 1);
	if (ctx != NULL)
		libusb_exit(ctx);
	return status;
}

static void
replay_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope replay FILE [-d VID:PID | -s BUS:DEV] [--from "
	    "BUS.DEV]\n                       [-Y FILTER] [--dry-run] "
	    "[--detach] [--allow-state]\n                       [--timeout MS]"
	    " [-v]\n"
	    "The host's side of one device's transfers in a capture, made "
	    "again to a live\ndevice through libusb in the order they "
	    "completed, every answer held\nagainst the recording (status, "
	    "length, bytes): each divergence said with its\nrecord, its "
	    "request, what was recorded and what came, the bytes that "
	    "differ.\nSET_ADDRESS is never sent; the enumeration's other "
	    "standard OUT requests are\nthe USB core's; requests that "
	    "change the device's state (vendor OUT, a DFU\ndownload, "
	    "SET_FEATURE, SET_CONFIGURATION to another configuration, a "
	    "disk's\nSCSI writes) only with --allow-state; cancelled URBs are counted, not "
	    "sent; isochronous ones go packet\nby packet (each packet's "
	    "status, length and bytes compared), unless the\ncapture lacks "
	    "their packets' descriptors (usbmon text keeps five).\nExit status 0 when the device answered as "
	    "recorded, 1 when it did not, 3\nwhen it cannot be replayed to "
	    "(not there, no access, an interface busy).\n\n"
	    "  -d VID:PID     the device with these IDs, live and in the "
	    "capture (there\n                 the one with the most transfers"
	    " when several are;\n                 default: the capture's "
	    "first device that is no hub)\n"
	    "  -s BUS:DEV     the live device at this bus and address "
	    "(default: one with\n                 the IDs and descriptor of "
	    "the capture's device)\n"
	    "  --from BUS.DEV the capture's device at this address\n"
	    "  -Y FILTER      only the records FILTER shows\n"
	    "  --dry-run      say what would be sent and what not, touch "
	    "no device\n"
	    "  --detach       detach the kernel drivers of the interfaces "
	    "used (bound\n                 again at the end)\n"
	    "  --allow-state  send the requests that change the device's "
	    "state too\n"
	    "  --timeout MS   each transfer's (default %d)\n"
	    "  -v             say every transfer, not only those that "
	    "diverge\n", REPLAY_TIMEOUT);
}

static const struct option replay_longopts[] = {
	{ "dry-run", no_argument, NULL, REPLAY_OPT_DRYRUN },
	{ "detach", no_argument, NULL, REPLAY_OPT_DETACH },
	{ "allow-state", no_argument, NULL, REPLAY_OPT_STATE },
	{ "timeout", required_argument, NULL, REPLAY_OPT_TIMEOUT },
	{ "from", required_argument, NULL, REPLAY_OPT_FROM },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_replay_entry = {
	.name = "replay",
	.usage = "FILE [-d VID:PID | -s BUS:DEV] [--from BUS.DEV] [-Y FILTER] "
	    "[--dry-run] [--detach] [--allow-state] [--timeout MS] [-v]",
	.help = "a capture's transfers made again to a live device, its "
	    "answers held against the recording",
	.template = "d:s:vY:",
	.longopts = replay_longopts,
	.lower = 1,
	.upper = 1,
	.missing = "replay needs the capture to replay",
	.extra = "one capture",
	.usage_fn = replay_usage,
	.exec = replay_exec,
};
