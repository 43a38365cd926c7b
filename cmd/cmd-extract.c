/*
 * cmd/cmd-extract.c - `urbscope extract FILE --endpoint B.D.E -o OUT`:
 * the payload stream of one endpoint (or of a CDC or serial interface's
 * data endpoints) written to a file, as Wireshark's Follow Stream saves
 * the raw bytes of one conversation.
 *
 * Bytes are taken where usbmon has them: an OUT transfer's in its submit,
 * an IN transfer's in its completion.  That is what tshark shows as
 * usb.capdata on those records, so the stream is the same bytes in the
 * same (capture) order.  An IN completion that failed (a stall, babble,
 * a CRC or timeout error) is left out: whatever it holds is not data the
 * device meant.  A short read (-EREMOTEIO) and an unlinked URB (-ENOENT,
 * -ECONNRESET, -ESHUTDOWN) keep theirs: the kernel's actual_length says
 * those bytes arrived (Documentation/driver-api/usb/URB.rst).  An OUT
 * submit is written whole, whatever its completion says, as Wireshark
 * shows it; the failures are counted on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture.h"
#include "cmd.h"

#define URB_EREMOTEIO	(-121)		/* short read, URB_SHORT_NOT_OK */
#define URB_ESHUTDOWN	(-108)		/* the device or bus went away */

/* Long options without a short letter. */
enum {
	EX_OPT_ENDPOINT = 0x100,
	EX_OPT_INTERFACE,
	EX_OPT_DIR,
	EX_OPT_DECODE_AS,
};

#define EX_MAX_DECODE_AS	16

/* An endpoint (or interface) that carried data, for the summary and for
 * naming the choices when the one asked for is not there. */
struct ex_seen {
	uint16_t	 busnum;
	uint8_t		 devnum;
	uint8_t		 epaddr;	/* bit 7 = IN */
	uint8_t		 xfer;
	int16_t		 intf;		/* owning interface, -1 */
	uint8_t		 cls;
	uint64_t	 bytes;
};

struct ex_state {
	/* what was asked */
	uint16_t	 busnum;
	uint8_t		 devnum;
	int		 ep;		/* endpoint number, -1: by interface */
	int		 intf;		/* interface number, -1: by endpoint */
	int		 dir;		/* 0x80 IN, 0 OUT, -1 not given */
	const char	*outpath;

	FILE		*out;
	int		 got_dir;	/* the direction the stream follows */
	int		 other_dir;	/* --endpoint without --dir: data of the
					   other direction came too */
	int		 matched;	/* a record of the target was seen */
	uint64_t	 bytes;
	uint64_t	 transfers;
	uint64_t	 trunc_recs;	/* records captured short */
	uint64_t	 trunc_bytes;	/* the bytes they lack */
	uint64_t	 fail_in;	/* IN completions left out */
	int32_t		 fail_status;	/* the first one's status */
	uint64_t	 fail_out;	/* OUT transfers that failed */
	uint8_t		 eps[32];	/* endpoints written, by index */

	struct ex_seen	*seen;
	size_t		 nseen, seencap;
};

static void
extract_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope extract FILE (--endpoint BUS.DEV.EP | "
	    "--interface BUS.DEV.INTF)\n"
	    "                        [--dir in|out] -o OUT [-Y FILTER]\n"
	    "Write the payload of one endpoint to OUT, the bytes one after\n"
	    "the other in capture order, as Wireshark's Follow Stream saves\n"
	    "them raw ('-' is standard output).  FILE is any capture 'urbscope\n"
	    "read' takes (a bus-level one: convert it with -y 220 first).\n\n"
	    "  --endpoint B.D.E   bus, device and endpoint number as read's\n"
	    "                     address column and usb.src say: 1.3.2; an\n"
	    "                     address such as 1.3.0x82 gives the direction\n"
	    "  --interface B.D.I  the bulk endpoints of interface I (a\n"
	    "                     CDC-Data or a USB serial adapter's), as the\n"
	    "                     descriptors in the capture say; IN unless\n"
	    "                     --dir out\n"
	    "  --dir in|out       the direction; --endpoint without it takes\n"
	    "                     the one that carries data, and asks when\n"
	    "                     both do\n"
	    "  -o OUT             the file to write\n"
	    "  -Y FILTER          only records the filter shows (as read -Y)\n"
	    "  --decode-as TARGET=CLASS   as read's\n\n"
	    "OUT data is an OUT transfer's submit, whole; IN data an IN\n"
	    "transfer's completion: status 0, a short read (-EREMOTEIO) or an\n"
	    "unlinked URB (-ENOENT, -ECONNRESET, -ESHUTDOWN: the bytes that\n"
	    "arrived).  IN completions with any other error are left out and\n"
	    "counted.  A summary goes to stderr.  Exit status: 0; 1 when the\n"
	    "input is bad, the endpoint has no records in the capture (the\n"
	    "ones that have data are named), the output cannot be written,\n"
	    "or records were captured shorter than their data (snaplen, usbmon\n"
	    "text): the bytes they lack are missing from OUT, and said; 2 for\n"
	    "a usage error, an IN and OUT endpoint with no --dir included.\n");
}

/* One decimal or 0x number of at most max (a leading 0 is not octal:
 * 010 is ten, as the address column has it); -1 if not. */
static long
extract_num(const char *s, const char **end, long max)
{
	char	*e;
	long	 v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &e, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ?
	    16 : 10);
	if (errno != 0 || v < 0 || v > max)
		return -1;
	*end = e;
	return v;
}

/*
 * BUS.DEV.N into st: N an endpoint (is_ep; 0-15, or an address with the
 * direction bit, which sets st->dir) or an interface number.  0 or -1.
 */
static int
extract_target(struct ex_state *st, const char *s, int is_ep)
{
	const char	*p = s;
	long		 bus, dev, n;

	if ((bus = extract_num(p, &p, 65535)) < 0 || *p++ != '.' ||
	    (dev = extract_num(p, &p, 255)) < 0 || *p++ != '.' ||
	    (n = extract_num(p, &p, 255)) < 0 || *p != '\0')
		return -1;
	st->busnum = (uint16_t)bus;
	st->devnum = (uint8_t)dev;
	if (!is_ep) {
		st->intf = (int)n;
		return 0;
	}
	if ((n & 0x70) != 0)
		return -1;
	if (n & 0x80) {
		if (st->dir == 0) {
			cmd_warnx("extract: --endpoint %s is an IN endpoint, "
			    "--dir says out", s);
			return -1;
		}
		st->dir = 0x80;
	}
	st->ep = (int)(n & 0x0f);
	return 0;
}

/*
 * The bytes of r's payload that make up the stream, written to st->out:
 * for isochronous transfers each frame's [off, off + len) (the buffer
 * between frames is not data), else the whole payload.  Returns the
 * bytes written, or -1 on a write error.
 */
static long
extract_write(struct ex_state *st, const struct urb_rec *r)
{
	uint32_t	 i, off, len;
	long		 n = 0;

	if (r->xfer_type != XFER_ISO || r->niso == 0) {
		if (r->data_len > 0 &&
		    fwrite(r->data, 1, r->data_len, st->out) != r->data_len)
			return -1;
		return (long)r->data_len;
	}
	for (i = 0; i < r->niso; i++) {
		/* an IN frame's actual length; an OUT frame's length */
		off = r->iso[i].off;
		len = r->iso[i].len;
		if (urb_is_in(r) && r->iso[i].status != 0 &&
		    r->iso[i].status != URB_EREMOTEIO)
			continue;
		if (off >= r->data_len)
			continue;
		if (len > r->data_len - off)
			len = r->data_len - off;
		if (len > 0 && fwrite(r->data + off, 1, len, st->out) != len)
			return -1;
		n += len;
	}
	return n;
}

/* Does an IN completion of this status carry data to keep? */
static int
extract_in_ok(int32_t status)
{
	return status == 0 || status == URB_EREMOTEIO ||
	    status == URB_ENOENT || status == URB_ECONNRESET ||
	    status == URB_ESHUTDOWN;
}

/* Remember that (r's endpoint, its interface) carried n bytes. */
static void
extract_seen(struct ex_state *st, const struct urb_rec *r,
    const struct dec_info *info, uint64_t n)
{
	struct ex_seen	*s;
	size_t		 i;

	for (i = st->nseen; i-- > 0; ) {
		s = &st->seen[i];
		if (s->busnum == r->busnum && s->devnum == r->devnum &&
		    s->epaddr == r->epnum && s->intf == info->intf) {
			s->bytes += n;
			return;
		}
	}
	/* out of memory only shortens the list an error names */
	if (dec_grow(&st->seen, st->nseen, &st->seencap,
	    sizeof *st->seen) != 0)
		return;
	s = &st->seen[st->nseen++];
	s->busnum = r->busnum;
	s->devnum = r->devnum;
	s->epaddr = r->epnum;
	s->xfer = r->xfer_type;
	s->intf = info->intf;
	s->cls = info->cls;
	s->bytes = n;
}

/* Is r (a record carrying data) of what was asked? */
static int
extract_match(const struct ex_state *st, const struct urb_rec *r,
    const struct dec_info *info)
{
	if (r->busnum != st->busnum || r->devnum != st->devnum)
		return 0;
	if (st->ep >= 0)
		return (r->epnum & 0x0f) == st->ep;
	return r->xfer_type == XFER_BULK && info->intf == st->intf &&
	    (r->epnum & 0x80) == (st->dir < 0 ? 0x80 : st->dir);
}

/* Open the output at the first byte: a missing endpoint leaves no file. */
static int
extract_open(struct ex_state *st)
{
	if (st->out != NULL)
		return 0;
	if (strcmp(st->outpath, "-") == 0)
		st->out = stdout;
	else if ((st->out = fopen(st->outpath, "wb")) == NULL) {
		cmd_warnx("%s: %s", st->outpath, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * One URB record of the pipe.  0, or -1 after a write error (said).
 */
static int
extract_record(struct ex_state *st, struct cap_pipe *pipe)
{
	const struct urb_rec *r = &pipe->r;
	uint32_t	 want;
	long		 n;
	int		 in = urb_is_in(r), mine, data;

	mine = extract_match(st, r, &pipe->info) &&
	    (st->dir < 0 || (r->epnum & 0x80) == st->dir);
	st->matched |= mine;
	/* an OUT transfer's completion says only whether it went */
	if (r->type == 'C' && !in) {
		if (mine && r->status != 0 && (st->got_dir == 0 ||
		    st->dir == 0) && (!pipe->has_filter ||
		    cap_pipe_shown(pipe, CAP_URB)))
			st->fail_out++;
		return 0;
	}
	/* the halves that carry the data: OUT submits, IN completions */
	if ((in && r->type != 'C') || (!in && r->type != 'S'))
		return 0;
	data = r->data_len > 0 || r->len_urb > 0;
	if (data)
		extract_seen(st, r, &pipe->info, in &&
		    !extract_in_ok(r->status) ? 0 : r->data_len);
	if (!mine || (pipe->has_filter && !cap_pipe_shown(pipe, CAP_URB)))
		return 0;
	if (st->dir < 0 && st->got_dir < 0 && data)
		st->got_dir = r->epnum & 0x80;
	if ((r->epnum & 0x80) != (st->dir >= 0 ? st->dir : st->got_dir)) {
		if (st->dir < 0 && st->got_dir >= 0 && data)
			st->other_dir = 1;
		return 0;
	}
	if (in && !extract_in_ok(r->status)) {
		/* a stall with no data leaves nothing out */
		if (r->data_len > 0 && st->fail_in++ == 0)
			st->fail_status = r->status;
		return 0;
	}
	if (extract_open(st) < 0)
		return -1;
	if ((n = extract_write(st, r)) < 0) {
		cmd_warnx("%s: %s", st->outpath, strerror(errno));
		return -1;
	}
	want = urb_data_expected(r);
	if (r->data_len < want) {
		st->trunc_recs++;
		st->trunc_bytes += want - r->data_len;
	}
	st->bytes += (uint64_t)n;
	/* an unlinked URB that got nothing was no transfer, nor is a
	 * USBPcap IRP record (no transfer type) */
	if (n > 0 || (r->status == 0 && r->xfer_type <= XFER_BULK))
		st->transfers++;
	st->eps[(r->epnum & 0x0f) | (in ? 16 : 0)] = 1;
	return 0;
}

/* "1.3.2 IN", or the endpoints of an interface's stream, into buf. */
static void
extract_name(const struct ex_state *st, char *buf, size_t len)
{
	size_t	 used = 0;
	int	 i, n = 0, d = st->dir >= 0 ? st->dir : st->got_dir;

	buf[0] = '\0';
	if (st->ep >= 0) {
		snprintf(buf, len, "%u.%u.%d %s", st->busnum, st->devnum,
		    st->ep, d == 0x80 ? "IN" : d == 0 ? "OUT" : "");
		return;
	}
	for (i = 0; i < 32 && used < len; i++) {
		if (!st->eps[i])
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%u.%u.%d",
		    n++ ? ", " : "", st->busnum, st->devnum, i & 0x0f);
	}
	if (used < len)
		snprintf(buf + used, len - used, "%s%s (interface %u.%u.%d)",
		    n ? " " : "", d == 0 ? "OUT" : "IN", st->busnum,
		    st->devnum, st->intf);
}

/* Would a and b be named alike in the list of choices? */
static int
extract_same(const struct ex_state *st, const struct ex_seen *a,
    const struct ex_seen *b)
{
	if (a->bytes == 0 || a->busnum != b->busnum ||
	    a->devnum != b->devnum)
		return 0;
	if (st->ep >= 0)
		return a->epaddr == b->epaddr;
	return a->xfer == XFER_BULK && a->intf == b->intf;
}

/* The endpoints (or interfaces) that carried data, for an error. */
static void
extract_choices(const struct ex_state *st)
{
	struct sbuf	 b = { 0 };
	const struct ex_seen *s;
	char		 cbuf[24];
	size_t		 i, j;
	int		 dup;

	for (i = 0; i < st->nseen; i++) {
		s = &st->seen[i];
		if (s->bytes == 0)
			continue;
		if (st->ep < 0 && (s->xfer != XFER_BULK || s->intf < 0))
			continue;
		/* seen is by endpoint and interface: name each once */
		for (dup = 0, j = 0; j < i && !dup; j++)
			dup = extract_same(st, &st->seen[j], s);
		if (dup)
			continue;
		if (st->ep >= 0)
			sb_printf(&b, "%s%u.%u.%u %s", b.len ? ", " : "",
			    s->busnum, s->devnum, s->epaddr & 0x0f,
			    s->epaddr & 0x80 ? "IN" : "OUT");
		else
			sb_printf(&b, "%s%u.%u.%d (%s)", b.len ? ", " : "",
			    s->busnum, s->devnum, s->intf,
			    dec_name_or(dec_classes, s->cls, cbuf));
	}
	if (b.len == 0)
		cmd_warnx("the capture has no %s with data",
		    st->ep >= 0 ? "endpoint" : "interface with bulk data");
	else if (!b.oom)
		cmd_warnx("%s: %s", st->ep >= 0 ? "endpoints with data" :
		    "interfaces with bulk data", b.s);
	sb_free(&b);
}

/* Say what the stream lacks, and the summary.  The exit status. */
static int
extract_report(struct ex_state *st)
{
	char	 name[160], sbuf[24];
	const char *sn;
	int	 status = 0;

	extract_name(st, name, sizeof name);
	if (st->fail_in > 0) {
		if ((sn = dec_status_name(st->fail_status)) == NULL) {
			snprintf(sbuf, sizeof sbuf, "%d", st->fail_status);
			sn = sbuf;
		}
		cmd_warnx("%llu IN transfer%s left out: completed with an "
		    "error (the first %s)", (unsigned long long)st->fail_in,
		    st->fail_in == 1 ? "" : "s", sn);
	}
	if (st->fail_out > 0)
		cmd_warnx("%llu OUT transfer%s failed: written as submitted, "
		    "the device may not have taken all of it",
		    (unsigned long long)st->fail_out,
		    st->fail_out == 1 ? "" : "s");
	if (st->trunc_recs > 0) {
		cmd_warnx("%llu transfer%s captured short: %llu byte%s "
		    "missing from %s (the capture's snaplen or usbmon "
		    "text cut them)", (unsigned long long)st->trunc_recs,
		    st->trunc_recs == 1 ? "" : "s",
		    (unsigned long long)st->trunc_bytes,
		    st->trunc_bytes == 1 ? " is" : "s are",
		    strcmp(st->outpath, "-") == 0 ? "the output" :
		    st->outpath);
		status = EXIT_INPUT;
	}
	cmd_warnx("wrote %llu byte%s from %llu transfer%s of %s to %s",
	    (unsigned long long)st->bytes, st->bytes == 1 ? "" : "s",
	    (unsigned long long)st->transfers, st->transfers == 1 ? "" : "s",
	    name, strcmp(st->outpath, "-") == 0 ? "standard output" :
	    st->outpath);
	return status;
}

/* Close the output; on failure remove a file (it is cut anywhere). */
static int
extract_close(struct ex_state *st, int failed)
{
	int	 rc = 0;

	if (st->out == NULL)
		return 0;
	if (fflush(st->out) != 0 || ferror(st->out)) {
		if (!failed)
			cmd_warnx("%s: %s", st->outpath, strerror(errno));
		rc = -1;
	}
	if (st->out != stdout && fclose(st->out) != 0 && rc == 0) {
		cmd_warnx("%s: %s", st->outpath, strerror(errno));
		rc = -1;
	}
	if ((rc < 0 || failed) && st->out != stdout)
		unlink(st->outpath);
	st->out = NULL;
	return rc;
}

static int
extract_run(struct ex_state *st, const char *name, const char *filter,
    const char **decode_as, size_t ndecode_as)
{
	struct cap_pipe	 pipe;
	char		 err[600];
	size_t		 i;
	int		 rc, status = 0, failed = 0;

	if (cap_pipe_open(&pipe, name, 1, err, sizeof err) < 0) {
		cmd_warnx("%s", err);
		return EXIT_INPUT;
	}
	for (i = 0; i < ndecode_as; i++) {
		if (dec_ctx_decode_as(pipe.ctx, decode_as[i], err,
		    sizeof err) < 0) {
			cmd_warnx("--decode-as %s", err);
			status = EXIT_USAGE;
			goto out;
		}
	}
	if (filter != NULL &&
	    cap_pipe_filter(&pipe, filter, err, sizeof err) < 0) {
		cmd_warnx("-Y %s", err);
		status = EXIT_USAGE;
		goto out;
	}
	while ((rc = cap_pipe_next(&pipe)) != CAP_END) {
		if (rc < 0) {
			cmd_warnx("%s", pipe.src->err);
			status = EXIT_INPUT;
			break;
		}
		if (rc != CAP_URB)
			continue;
		if (pipe.r.origin == URB_ORIGIN_USBLL) {
			cmd_warnx("%s: a bus-level capture (packets, not "
			    "transfers): 'urbscope convert %s -y 220 -w "
			    "OUT.pcap' makes the transfers to extract from",
			    name, name);
			status = EXIT_INPUT;
			failed = 1;
			goto out;
		}
		if (extract_record(st, &pipe) < 0) {
			status = EXIT_INPUT;
			failed = 1;
			goto out;
		}
	}
	if (pipe.src->note[0] != '\0')
		cmd_warnx("%s", pipe.src->note);
	if (!st->matched && st->out == NULL) {
		if (st->ep >= 0)
			cmd_warnx("%s: no records of endpoint %u.%u.%d%s", name,
			    st->busnum, st->devnum, st->ep, st->dir == 0x80 ?
			    " IN" : st->dir == 0 ? " OUT" : "");
		else
			cmd_warnx("%s: no bulk %s records of interface "
			    "%u.%u.%d", name, st->dir == 0 ? "OUT" : "IN",
			    st->busnum, st->devnum, st->intf);
		extract_choices(st);
		status = EXIT_INPUT;
		goto out;
	}
	if (st->other_dir) {
		cmd_warnx("endpoint %u.%u.%d carries data both ways: say "
		    "--dir in or --dir out", st->busnum, st->devnum, st->ep);
		status = EXIT_USAGE;
		failed = 1;
		goto out;
	}
	/* the endpoint is there, nothing passed: an empty stream */
	if (extract_open(st) < 0) {
		status = EXIT_INPUT;
		goto out;
	}
	rc = extract_report(st);
	if (status == 0)
		status = rc;
out:
	if (extract_close(st, failed) < 0)
		status = EXIT_INPUT;
	cap_pipe_close(&pipe);
	return status;
}

/* Would writing out truncate the input while it is read (mapped)? */
static int
extract_same_file(const char *in, const char *out)
{
	struct stat	 a, b;

	if (strcmp(in, "-") == 0 || strcmp(out, "-") == 0)
		return 0;
	return stat(in, &a) == 0 && stat(out, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int
extract_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	struct ex_state	 st;
	const char	*decode_as[EX_MAX_DECODE_AS], *ep, *intf, *dir;
	size_t		 i, nda = 0;
	int		 status;

	(void)ce;
	memset(&st, 0, sizeof st);
	st.ep = st.intf = st.dir = st.got_dir = -1;
	for (i = 0; i < a->nopt; i++) {
		if (a->opt[i].ch != EX_OPT_DECODE_AS)
			continue;
		if (nda == EX_MAX_DECODE_AS) {
			cmd_warnx("at most %d --decode-as", EX_MAX_DECODE_AS);
			return EXIT_USAGE;
		}
		decode_as[nda++] = a->opt[i].arg;
	}
	ep = args_get(a, EX_OPT_ENDPOINT);
	intf = args_get(a, EX_OPT_INTERFACE);
	if ((dir = args_get(a, EX_OPT_DIR)) != NULL) {
		if (strcmp(dir, "in") == 0)
			st.dir = 0x80;
		else if (strcmp(dir, "out") == 0)
			st.dir = 0;
		else {
			cmd_warnx("extract: --dir in or --dir out, not '%s'",
			    dir);
			return EXIT_USAGE;
		}
	}
	if ((ep == NULL) == (intf == NULL)) {
		cmd_warnx("extract: %s", ep == NULL ? "which endpoint? "
		    "(--endpoint BUS.DEV.EP or --interface BUS.DEV.INTF)" :
		    "--endpoint or --interface, not both");
		cmd_print_wrapped(stderr, extract_usage);
		return EXIT_USAGE;
	}
	if (ep != NULL && extract_target(&st, ep, 1) < 0) {
		cmd_warnx("extract: --endpoint %s: not BUS.DEV.EP (1.3.2: "
		    "bus 1, device 3, endpoint 2, or 1.3.0x82 for IN)", ep);
		return EXIT_USAGE;
	}
	if (intf != NULL && extract_target(&st, intf, 0) < 0) {
		cmd_warnx("extract: --interface %s: not BUS.DEV.INTF (1.3.1: "
		    "bus 1, device 3, interface 1)", intf);
		return EXIT_USAGE;
	}
	if ((st.outpath = args_get(a, 'o')) == NULL) {
		cmd_warnx("extract: -o OUT is required (- for standard "
		    "output)");
		return EXIT_USAGE;
	}
	if (extract_same_file(a->argv[0], st.outpath)) {
		cmd_warnx("extract: -o %s is the capture itself", st.outpath);
		return EXIT_USAGE;
	}
	status = extract_run(&st, a->argv[0], args_get(a, 'Y'), decode_as,
	    nda);
	free(st.seen);
	return status;
}

static const struct option extract_longopts[] = {
	{ "endpoint", required_argument, NULL, EX_OPT_ENDPOINT },
	{ "interface", required_argument, NULL, EX_OPT_INTERFACE },
	{ "dir", required_argument, NULL, EX_OPT_DIR },
	{ "decode-as", required_argument, NULL, EX_OPT_DECODE_AS },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_extract_entry = {
	.name = "extract",
	.usage = "FILE (--endpoint BUS.DEV.EP | --interface BUS.DEV.INTF) "
	    "[--dir in|out] -o OUT [-Y FILTER] [--decode-as TARGET=CLASS]",
	.help = "write one endpoint's payload stream to a file (Follow "
	    "Stream, raw)",
	.template = "o:Y:",
	.longopts = extract_longopts,
	.lower = 1,
	.upper = 1,
	.missing = "which capture? (- for standard input)",
	.extra = "one capture",
	.usage_fn = extract_usage,
	.exec = extract_exec,
};
