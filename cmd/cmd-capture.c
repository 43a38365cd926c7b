/*
 * cmd/cmd-capture.c - `urbscope capture -i usbmonN`: live capture from the
 * kernel's usbmon, printed as `urbscope read` prints records or written
 * to a file (-w), a ring of files (-C, -W) or standard output (-w -, pcap
 * by default so Wireshark can read the pipe).  `-D` lists the interfaces
 * with the devices on each.
 *
 * The source (capture/cap-live.c) opens the device; privileges are then
 * dropped (-Z), and only then is the output created, as tcpdump does.
 * SIGINT, SIGTERM and SIGHUP stop the capture between records: the file
 * is flushed and closed with its statistics block, so it is complete and
 * valid.  A write that fails (full disk, reader gone) stops it too, with
 * the file cut back to the last whole record.
 */
#include <sys/stat.h>

#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/sysfs.h"
#include "print.h"
#include "ring.h"
#include "cmd.h"

#define CAPTURE_DRAIN_S	1.0	/* after a stop: what is queued, at most */
#define CAPTURE_OPT_DRIVERS	0x110

static volatile sig_atomic_t capture_stop;

struct capture {
	/* options */
	const char	*ifname;	/* "usbmon0" */
	const char	*outpath;	/* NULL: print records */
	uint64_t	 limit;		/* -c: records from the bus */
	uint32_t	 snaplen;
	const char	*user;
	int		 quiet;
	int		 drivers;	/* --drivers */

	struct cap_source *src;
	struct ring	 rg;		/* with -w */
	uint64_t	 count;		/* records from the bus */
	uint64_t	 nsynthetic;	/* records from sysfs */
	uint64_t	 nfiltered;	/* from the bus, not written: -Y */
	uint64_t	 nevents;	/* driver events (--drivers) */
	struct printer	 pr;		/* without -w: as read prints */
};

/* Is format one a sink writes (cap_sinks)?  If not, say which are. */
static int
capture_format_known(const char *format)
{
	char	 names[128];
	size_t	 i, n = 0;
	int	 k;

	names[0] = '\0';
	for (i = 0; cap_sinks[i] != NULL; i++) {
		if (strcmp(cap_sinks[i]->name, format) == 0)
			return 1;
		k = snprintf(names + n, sizeof names - n, "%s%s",
		    i > 0 ? ", " : "", cap_sinks[i]->name);
		if (k > 0 && (size_t)k < sizeof names - n)
			n += (size_t)k;
	}
	cmd_warnx("capture: unknown output format \"%s\"; urbscope writes "
	    "%s", format, names);
	return 0;
}

static void
capture_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope capture -i usbmonN [-w FILE|-] "
	    "[-F pcap|pcapng|usbmon] [-c N]\n"
	    "                        [-s SNAPLEN] [-B KiB] [-C MB [-W N]] "
	    "[-Z USER] [-q]\n"
	    "                        [--drivers] [-Y FILTER] [-V] [-T FORM [-e FIELD]...] "
	    "[-t r|a|d|dd|e]\n"
	    "       urbscope capture -D\n"
	    "Capture live USB traffic through the kernel's usbmon (N = bus, "
	    "0 = all).\n\n"
	    "  -i usbmonN    the interface (also /dev/usbmonN)\n"
	    "  -D            list the interfaces and the devices on each\n"
	    "  -w FILE       write to FILE (pcapng unless -F or the extension\n"
	    "                says pcap); '-' writes pcap to standard output\n"
	    "                (urbscope capture -i usbmon0 -w - | wireshark -k "
	    "-i -)\n"
	    "                without -w, records print as 'urbscope read' "
	    "prints them,\n"
	    "                with its -Y, -V, -T, -e and -t (below); with "
	    "-w, -Y\n"
	    "                chooses the records written\n"
	    "  -F FORMAT     pcap, pcapng or usbmon (text)\n"
	    "  -c N          stop after N records from the bus\n"
	    "  -s SNAPLEN    keep at most SNAPLEN bytes of each record\n"
	    "  -B KiB        the kernel's mmap ring, 8 to 65536 KiB (default:\n"
	    "                the largest the kernel takes, 64 MiB since Linux's\n"
	    "                2025 BUFF_MAX, 1200 KiB before; each capture holds\n"
	    "                it in kernel memory)\n"
	    "  -C MB         start a new file after MB million bytes: FILE, "
	    "FILE1, ...\n"
	    "  -W N          with -C, a ring of N files FILE0 .. FILE<N-1>\n"
	    "  -Z USER       drop root privileges to USER after opening the "
	    "device\n"
	    "  -q            no progress line and no start line\n"
	    "  --drivers     trace the USB core with eBPF too (root, a kernel "
	    "with BTF):\n"
	    "                usb_submit_urb with its caller, givebacks, "
	    "kills, unlinks,\n"
	    "                registrations, matches, probes, disconnects "
	    "and opens,\n"
	    "                as driver events beside the records\n%s",
	    print_usage);
}

static void
capture_signal(int sig)
{
	(void)sig;
	capture_stop = 1;
}

/* ------------------------------------------------------------------------
 * -D
 */
static int
capture_list(void)
{
	struct sysfs_usb_dev	*devs = NULL;
	const char		*root = cap_live_root();
	char			 sysroot[512], err[300], path[512];
	struct stat		 sb;
	size_t			 ndevs = 0, i, j;
	unsigned		 nbus = 0;
	int			 first;

	snprintf(sysroot, sizeof sysroot, "%s/sys", root);
	if (sysfs_usb_scan(sysroot, &devs, &ndevs, err, sizeof err) != 0)
		ndevs = 0;
	printf("usbmon0 (all buses)\n");
	for (i = 0; i < ndevs; i++) {
		if (strncmp(devs[i].name, "usb", 3) != 0)
			continue;	/* buses are their root hubs */
		nbus++;
		printf("usbmon%u (bus %u):", devs[i].busnum, devs[i].busnum);
		first = 1;
		for (j = 0; j < ndevs; j++) {
			if (devs[j].busnum != devs[i].busnum || j == i)
				continue;
			printf("%s %s %04x:%04x%s%s", first ? "" : ",",
			    devs[j].name, devs[j].vid, devs[j].pid,
			    devs[j].product[0] ? " " : "", devs[j].product);
			first = 0;
		}
		printf("%s\n", first ? " no devices" : "");
	}
	sysfs_usb_free(devs, ndevs);
	if (fflush(stdout) != 0) {
		cmd_warnx("writing the list: %s", strerror(errno));
		return EXIT_INPUT;
	}
	if (nbus == 0)
		cmd_warnx("no USB bus found in %s/sys/bus/usb/devices", root);
	snprintf(path, sizeof path, "%s/dev/usbmon0", root);
	if (stat(path, &sb) != 0) {
		snprintf(path, sizeof path, "%s/sys/module/usbmon", root);
		if (stat(path, &sb) != 0)
			cmd_warnx("usbmon is not loaded: run 'modprobe usbmon' "
			    "as root to capture");
	}
	return 0;
}

/*
 * Say why a write failed; 1 when the reader went away (not an error).
 * kept: records the file holds after capture_cut_back, or -1.
 */
static int
capture_write_failed(struct capture *c, const char *what, int64_t kept)
{
	int	 e = c->rg.sink != NULL ? ring_errno(&c->rg) : errno;

	if (e == EPIPE) {
		cmd_warnx("%s: the reader went away (broken pipe); stopped "
		    "after %" PRIu64 " records", c->outpath == NULL ||
		    strcmp(c->rg.path, "-") == 0 ? "standard output" : c->rg.path,
		    c->count);
		return 1;
	}
	if (e == ENOSPC && kept >= 0)
		cmd_warnx("%s: no space left on the device; the file holds "
		    "its first %" PRId64 " records, each whole", c->rg.path, kept);
	else if (e == ENOSPC)
		cmd_warnx("%s: no space left on the device", c->rg.path);
	else
		cmd_warnx("%s", what);
	return 0;
}

/* Drop root for user, as tcpdump -Z does. */
static int
capture_drop_privs(const char *user)
{
	struct passwd	*pw;

	errno = 0;
	if ((pw = getpwnam(user)) == NULL) {
		cmd_warnx("-Z %s: no such user%s%s", user, errno ? ": " : "",
		    errno ? strerror(errno) : "");
		return -1;
	}
	if (initgroups(pw->pw_name, pw->pw_gid) != 0 ||
	    setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0) {
		cmd_warnx("-Z %s: cannot switch to user %s: %s", user,
		    pw->pw_name, strerror(errno));
		return -1;
	}
	if (pw->pw_uid != 0 && setuid(0) == 0) {
		cmd_warnx("-Z %s: root privileges could be regained", user);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * The loop.
 */

/* -s for printed records: the sinks cut their own copy. */
static void
capture_snap(const struct capture *c, struct urb_rec *r)
{
	uint64_t	 pre = URB_HDR64 + 16 * (uint64_t)r->niso;
	uint32_t	 keep;

	if (c->snaplen == 0 || pre + r->data_len <= c->snaplen)
		return;
	keep = pre >= c->snaplen ? 0 : (uint32_t)(c->snaplen - pre);
	r->data_len = keep;
	r->flags |= REC_F_TRUNC;
}

static void
capture_progress(struct capture *c, int last)
{
	struct cap_stats st;

	cap_stats(c->src, &st);
	fprintf(stderr, "\rurbscope: %" PRIu64 " records, %" PRIu64
	    " dropped%s", c->count, st.dropped, last ? "\n" : "");
}

static int
capture_run(struct capture *c)
{
	struct cap_pipe	 pipe;
	struct urb_rec	*r = &pipe.r;
	struct cap_stats st;
	struct cap_bpf_stats bst;
	char		 err[600];
	double		 last = 0, t, drain_until = 0;
	int64_t		 kept;
	int		 rc, status = 0, progress, tty_out, cut = 0;

	progress = !c->quiet && c->outpath != NULL &&
	    isatty(STDERR_FILENO);
	tty_out = c->outpath == NULL && isatty(STDOUT_FILENO);
	/* the analysis is for printing and -Y; a file gets the records as
	 * read, those -Y shows when it is given */
	if (cap_pipe_init(&pipe, c->src, c->outpath == NULL ||
	    c->pr.expr != NULL) < 0) {
		cmd_warnx("out of memory");
		return EXIT_INPUT;
	}
	if (c->outpath == NULL && (rc = print_begin(&c->pr, &pipe)) < 0) {
		cap_pipe_close(&pipe);
		return -rc;
	}
	if (c->outpath != NULL && c->pr.expr != NULL &&
	    cap_pipe_filter(&pipe, c->pr.expr, err, sizeof err) < 0) {
		cmd_warnx("-Y %s", err);
		cap_pipe_close(&pipe);
		return EXIT_USAGE;
	}
	while (c->limit == 0 || c->count < c->limit) {
		/*
		 * Stopped (^C, SIGTERM): what the kernel already queued for
		 * us still comes in, for at most CAPTURE_DRAIN_S, so the
		 * capture ends where the user stopped it, not where a busy
		 * reader had got to.
		 */
		if (capture_stop && drain_until == 0)
			drain_until = cap_clock_s() + CAPTURE_DRAIN_S;
		if (drain_until != 0 && cap_clock_s() >= drain_until)
			break;
		rc = cap_pipe_next(&pipe);
		if (rc == CAP_END || (rc == CAP_AGAIN && drain_until != 0))
			break;
		if (rc < 0) {
			cmd_warnx("%s", c->src->err);
			status = EXIT_INPUT;
			break;
		}
		if (progress && (t = cap_clock_s()) - last >= 1.0) {
			capture_progress(c, 0);
			last = t;
		}
		if (rc == CAP_AGAIN) {
			/* idle: what is buffered goes out (pipes, tail -f) */
			if (print_flush(&c->pr) < 0)
				goto write_text_failed;
			if (ring_flush(&c->rg) != RING_OK) {
				kept = ring_cut_back(&c->rg);
				cut = 1;
				if (!capture_write_failed(c, strerror(
				    ring_errno(&c->rg)), kept))
					status = EXIT_INPUT;
				break;
			}
			continue;
		}
		if (rc == CAP_EVENT) {
			c->nevents++;
			if (c->outpath == NULL) {
				if (print_record(&c->pr, &pipe, rc) < 0) {
					if (c->pr.out.oom) {
						status = EXIT_INPUT;
						break;
					}
					goto write_text_failed;
				}
				continue;
			}
			if (pipe.has_filter && !cap_pipe_shown(&pipe, rc))
				continue;
			if (ring_write_event(&c->rg, &pipe.ev) == RING_OK)
				continue;
			kept = ring_cut_back(&c->rg);
			cut = 1;
			if (!capture_write_failed(c, ring_error(&c->rg), kept))
				status = EXIT_INPUT;
			break;
		}
		if (rc != CAP_URB)
			continue;
		if (c->outpath != NULL && pipe.has_filter &&
		    !cap_pipe_shown(&pipe, rc)) {
			if (!(r->flags & REC_F_SYNTHETIC)) {
				c->count++;
				c->nfiltered++;
			}
			continue;
		}
		if (r->flags & REC_F_SYNTHETIC) {
			c->nsynthetic++;
			if (c->rg.file_size > 0 &&
			    ring_keep_synth(&c->rg, r) < 0) {
				cmd_warnx("out of memory");
				status = EXIT_INPUT;
				break;
			}
		} else
			c->count++;

		if (c->outpath == NULL) {
			capture_snap(c, r);
			if (print_record(&c->pr, &pipe, rc) < 0) {
				if (c->pr.out.oom) {
					status = EXIT_INPUT;
					break;
				}
				goto write_text_failed;
			}
			if (tty_out && print_flush(&c->pr) < 0)
				goto write_text_failed;
			continue;
		}

		switch (ring_write(&c->rg, r)) {
		case RING_OK:
			continue;
		case RING_EWRITE:
			kept = ring_cut_back(&c->rg);
			cut = 1;
			if (!capture_write_failed(c, ring_error(&c->rg), kept))
				status = EXIT_INPUT;
			break;
		case RING_EFILE:
			status = EXIT_INPUT;
			break;
		}
		break;
	}
	c->pr.open_mark = "not completed when the capture stopped";
	print_last(&c->pr);
	if (print_flush(&c->pr) < 0)
		goto write_text_failed;
	goto done;

write_text_failed:
	if (!capture_write_failed(c, strerror(errno), -1))
		status = EXIT_INPUT;
done:
	if (progress && last > 0)
		capture_progress(c, 1);
	if (ring_close(&c->rg, cut) < 0)
		status = EXIT_INPUT;
	cap_stats(c->src, &st);
	/* the bus's records, as -c counts them; the sysfs ones apart */
	fprintf(stderr, "urbscope: %" PRIu64 " records captured", c->count);
	if (c->nsynthetic > 0)
		fprintf(stderr, " (+%" PRIu64 " synthetic from sysfs%s)",
		    c->nsynthetic, c->rg.file_size > 0 ? ", in each file" :
		    "");
	fprintf(stderr, ", %" PRIu64 " dropped by the kernel (%s)\n",
	    st.dropped, st.method != NULL ? st.method : "?");
	if (c->nfiltered > 0)
		fprintf(stderr, "urbscope: %" PRIu64 " of them not written: "
		    "-Y does not show them\n", c->nfiltered);
	if (cap_bpf_stats(c->src, &bst) == 0)
		fprintf(stderr, "urbscope: %" PRIu64 " driver events traced, "
		    "%" PRIu64 " lost (eBPF ring buffer full), %" PRIu64
		    " calls missed (probe hit inside another BPF program)\n",
		    c->nevents, bst.lost, bst.missed);
	print_end(&c->pr);
	cap_pipe_close(&pipe);
	return status;
}

/* How the start line names the kernel interface the source uses. */
static const char *
capture_method_phrase(const char *method)
{
	static const struct {
		const char	*method;
		const char	*phrase;
	} phrases[] = {
		{ "mmap ring", "the mmap ring" },
		{ "GETX", "MON_IOCX_GETX" },
		{ "read", "read()" },
	};
	size_t	 i;

	for (i = 0; method != NULL && i < sizeof phrases / sizeof phrases[0];
	    i++) {
		if (strcmp(method, phrases[i].method) == 0)
			return phrases[i].phrase;
	}
	return method != NULL ? method : "?";
}

static int
capture_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	struct capture	 c;
	struct cap_source *traced;
	struct sigaction sa;
	struct cap_stats st;
	char		 err[600], ifname[32], ringsz[32];
	const char	*v;
	uint64_t	 n;
	int		 list, bus, status;

	(void)ce;
	memset(&c, 0, sizeof c);
	print_init(&c.pr);
	capture_stop = 0;
	if (print_args(&c.pr, a) != 0 || args_count(a, 'c', &c.limit) != 0)
		return EXIT_USAGE;
	if ((v = args_get(a, 'C')) != NULL) {
		if (cmd_parse_count("-C", v, &n) != 0)
			return EXIT_USAGE;
		if (n > UINT64_MAX / 1000000) {
			cmd_warnx("-C %s is too large", v);
			return EXIT_USAGE;
		}
		c.rg.file_size = n * 1000000;
	}
	if ((v = args_get(a, 's')) != NULL) {
		if (cmd_parse_count("-s", v, &n) != 0)
			return EXIT_USAGE;
		if (n < URB_HDR64 || n > CAP_SNAPLEN_MAX) {
			cmd_warnx("-s wants %d to %d bytes (the usbmon header "
			    "is %d), not %s", URB_HDR64, CAP_SNAPLEN_MAX,
			    URB_HDR64, v);
			return EXIT_USAGE;
		}
		c.snaplen = (uint32_t)n;
	}
	if ((v = args_get(a, 'B')) != NULL) {
		if (cmd_parse_count("-B", v, &n) != 0)
			return EXIT_USAGE;
		if (n < CAP_RING_MIN / 1024 || n > CAP_RING_MAX / 1024) {
			cmd_warnx("-B wants %d to %d KiB (the kernel's usbmon "
			    "ring), not %s", CAP_RING_MIN / 1024,
			    CAP_RING_MAX / 1024, v);
			return EXIT_USAGE;
		}
		cap_live_set_ring((size_t)n * 1024);
	}
	if ((v = args_get(a, 'W')) != NULL) {
		if (cmd_parse_count("-W", v, &n) != 0)
			return EXIT_USAGE;
		if (n > 100000) {
			cmd_warnx("-W %s: at most 100000 files", v);
			return EXIT_USAGE;
		}
		c.rg.nfiles = (unsigned)n;
	}
	list = args_has(a, 'D');
	c.rg.format = args_get(a, 'F');
	c.ifname = args_get(a, 'i');
	c.quiet = args_has(a, 'q');
	c.outpath = args_get(a, 'w');
	c.user = args_get(a, 'Z');
	c.drivers = args_has(a, CAPTURE_OPT_DRIVERS);
	if (list)
		return capture_list();
	if (c.ifname == NULL) {
		cmd_warnx("capture: -i usbmonN is required (usbmon0 = all "
		    "buses; 'urbscope capture -D' lists them)");
		cmd_print_wrapped(stderr, capture_usage);
		return EXIT_USAGE;
	}
	if ((bus = cap_live_name(c.ifname)) < 0) {
		cmd_warnx("capture: '%s' is not a usbmon interface: use "
		    "usbmonN, N the bus number or 0 for all buses "
		    "('urbscope capture -D' lists them)", c.ifname);
		return EXIT_USAGE;
	}
	snprintf(ifname, sizeof ifname, "usbmon%d", bus);
	c.ifname = ifname;
	v = c.pr.expr;
	c.pr.expr = NULL;
	if (c.outpath != NULL && print_chosen(&c.pr)) {
		cmd_warnx("capture: -w writes the capture (-Y FILTER: only "
		    "what it shows); -V, -T, -e and -t are for printing it");
		return EXIT_USAGE;
	}
	c.pr.expr = v;
	if ((c.rg.file_size > 0 || c.rg.nfiles > 0) && (c.outpath == NULL ||
	    strcmp(c.outpath, "-") == 0)) {
		cmd_warnx("capture: -C and -W need -w FILE");
		return EXIT_USAGE;
	}
	if (c.rg.nfiles > 0 && c.rg.file_size == 0) {
		cmd_warnx("capture: -W N makes a ring of files: it needs -C MB");
		return EXIT_USAGE;
	}
	if (c.rg.format != NULL && c.outpath == NULL) {
		cmd_warnx("capture: -F needs -w FILE");
		return EXIT_USAGE;
	}
	if (c.rg.format != NULL && !capture_format_known(c.rg.format))
		return EXIT_USAGE;

	if (cap_open(c.ifname, &c.src, err, sizeof err) < 0) {
		cmd_warnx("%s", err);
		return EXIT_INPUT;
	}
	/* before -Z: loading BPF programs needs root */
	if (c.drivers) {
		if (cap_bpf_open(c.src, bus, &traced, err, sizeof err) ==
		    0) {
			c.src = traced;
			/* the events a probe point missing here loses */
			if (err[0] != '\0')
				cmd_warnx("--drivers: %s", err);
		} else
			cmd_warnx("--drivers: %s; capturing usbmon alone", err);
	}
	c.rg.start_ns = cap_clock_ns(CLOCK_REALTIME);
	if (c.user != NULL && capture_drop_privs(c.user) < 0) {
		cap_close(c.src);
		return EXIT_INPUT;
	}
	cap_stats(c.src, &st);
	if (!c.quiet && st.method != NULL && strcmp(st.method, "text") == 0)
		cmd_warnx("capturing on %s through the debugfs text file "
		    "(at most 32 data bytes an event, no drop count)",
		    c.ifname);
	else if (!c.quiet) {
		ringsz[0] = '\0';
		if (st.ring_bytes > 0)
			snprintf(ringsz, sizeof ringsz, " of %" PRIu64 " KiB",
			    st.ring_bytes / 1024);
		cmd_warnx("capturing on %s through %s%s%s", c.ifname,
		    capture_method_phrase(st.method), ringsz,
		    c.src->ops->name != NULL && strstr(c.src->ops->name,
		    "ebpf") != NULL ? ", the USB core traced with eBPF" : "");
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = capture_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	c.rg.outpath = c.outpath;
	c.rg.ifname = c.ifname;
	c.rg.snaplen = c.snaplen;
	c.rg.src = c.src;
	if (c.outpath != NULL && ring_open(&c.rg) < 0)
		status = EXIT_INPUT;
	else
		status = capture_run(&c);
	ring_free(&c.rg);
	cap_close(c.src);
	return status;
}

static const struct option capture_longopts[] = {
	PRINT_LONGOPTS,
	{ "drivers", no_argument, NULL, CAPTURE_OPT_DRIVERS },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_capture_entry = {
	.name = "capture",
	.usage = "-i usbmonN [-w FILE] [-c N] [-s SNAPLEN] [-B KiB]"
	    " [-C MB -W N]"
	    " [-Z USER] [--drivers] [-Y FILTER] [-V] [-T ...] | -D",
	.help = "capture live USB traffic from the kernel's usbmon",
	.template = "B:C:c:DF:i:qs:W:w:Z:" PRINT_OPTS,
	.longopts = capture_longopts,
	.lower = 0,
	.upper = 0,
	.extra = "the interface goes with -i",
	.usage_fn = capture_usage,
	.exec = capture_exec,
};
