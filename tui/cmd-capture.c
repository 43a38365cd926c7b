/*
 * tui/cmd-capture.c - `urbscope capture -i usbmonN`: live capture from the
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
#include <getopt.h>
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
#include "cmd-print.h"
#include "tui.h"

#define CAP_BOUNDS	4096	/* record ends kept to cut a file back */
#define CAP_SNAPLEN_MAX	262144

static volatile sig_atomic_t capture_stop;

struct capture {
	/* options */
	const char	*ifname;	/* "usbmon0" */
	const char	*outpath;	/* NULL: print records */
	const char	*format;
	uint64_t	 limit;		/* -c: records from the bus */
	uint32_t	 snaplen;
	uint64_t	 file_size;	/* -C, bytes; 0 = one file */
	unsigned	 nfiles;	/* -W; 0 = no limit */
	const char	*user;
	int		 quiet;

	struct cap_source *src;
	struct cap_sink	*sink;
	unsigned	 fileno;	/* of the file being written */
	char		 path[4096];
	int64_t		 start_ns;

	/* the synthetic records, copied (data too), to start every file
	 * of a ring */
	struct urb_rec	*synth;
	size_t		 nsynth;

	/* where whole records end, to cut a file back after a failure */
	uint64_t	 bounds[CAP_BOUNDS];
	size_t		 nbounds;

	uint64_t	 count;		/* records from the bus */
	uint64_t	 nsynthetic;	/* records from sysfs */
	struct printer	 pr;		/* without -w: as read prints */
};

static void
capture_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope capture -i usbmonN [-w FILE|-] [-F pcap|pcapng] "
	    "[-c N]\n"
	    "                        [-s SNAPLEN] [-C MB [-W N]] [-Z USER] "
	    "[-q]\n"
	    "                        [-Y FILTER] [-V] [-T FORM [-e FIELD]...] "
	    "[-t r|a|d|e]\n"
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
	    "                with its -Y, -V, -T, -e and -t (below)\n"
	    "  -F FORMAT     pcap, pcapng or usbmon (text)\n"
	    "  -c N          stop after N records from the bus\n"
	    "  -s SNAPLEN    keep at most SNAPLEN bytes of each record\n"
	    "  -C MB         start a new file after MB million bytes: FILE, "
	    "FILE1, ...\n"
	    "  -W N          with -C, a ring of N files FILE0 .. FILE<N-1>\n"
	    "  -Z USER       drop root privileges to USER after opening the "
	    "device\n"
	    "  -q            no progress line and no start line\n%s",
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
		tui_warnx("writing the list: %s", strerror(errno));
		return EXIT_INPUT;
	}
	if (nbus == 0)
		tui_warnx("no USB bus found in %s/sys/bus/usb/devices", root);
	snprintf(path, sizeof path, "%s/dev/usbmon0", root);
	if (stat(path, &sb) != 0) {
		snprintf(path, sizeof path, "%s/sys/module/usbmon", root);
		if (stat(path, &sb) != 0)
			tui_warnx("usbmon is not loaded: run 'modprobe usbmon' "
			    "as root to capture");
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Output files.
 */

/* The name of file number n: tcpdump's names for -C and -W. */
static void
capture_file_name(struct capture *c, unsigned n)
{
	unsigned	 width = 1, v;

	if (c->file_size == 0 || strcmp(c->outpath, "-") == 0)
		snprintf(c->path, sizeof c->path, "%s", c->outpath);
	else if (c->nfiles == 0) {
		if (n == 0)
			snprintf(c->path, sizeof c->path, "%s", c->outpath);
		else
			snprintf(c->path, sizeof c->path, "%s%u", c->outpath,
			    n);
	} else {
		for (v = c->nfiles - 1; v >= 10; v /= 10)
			width++;
		snprintf(c->path, sizeof c->path, "%s%0*u", c->outpath,
		    (int)width, n);
	}
}

static void
capture_bound(struct capture *c)
{
	struct cap_out	*o = &c->sink->out;

	c->bounds[c->nbounds++ % CAP_BOUNDS] = o->written + o->used;
}

/*
 * After a failed write: cut a regular file back to the last record that
 * reached it whole, so what is there reads to its end.  Returns how many
 * records the file keeps, or -1 when it is not a regular file.
 */
static int64_t
capture_cut_back(struct capture *c)
{
	struct cap_out	*o = &c->sink->out;
	struct stat	 sb;
	uint64_t	 keep = 0, b, after = 0;
	size_t		 i, n;

	if (o->fd == -1 || fstat(o->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		return -1;
	n = c->nbounds < CAP_BOUNDS ? c->nbounds : CAP_BOUNDS;
	for (i = 0; i < n; i++) {
		b = c->bounds[i];
		if (b <= o->written && b > keep)
			keep = b;
	}
	for (i = 0; i < n; i++) {
		if (c->bounds[i] > keep)
			after++;
	}
	if (keep > 0 && ftruncate(o->fd, (off_t)keep) != 0) {
		tui_warnx("%s: cannot cut back to %" PRIu64 " bytes: %s",
		    c->path, keep, strerror(errno));
		return -1;
	}
	/* the first bound is the end of the file header */
	return (int64_t)(c->nbounds - 1 - after);
}

static int
capture_open_file(struct capture *c)
{
	struct cap_sink_opts	 opts;
	const char		*format = c->format;
	char			 err[600];
	size_t			 i;

	memset(&opts, 0, sizeof opts);
	opts.snaplen = c->snaplen;
	opts.if_name = c->ifname;
	if (format == NULL && strcmp(c->outpath, "-") == 0)
		format = "pcap";
	capture_file_name(c, c->fileno);
	if (cap_sink_open(c->path, format, &opts, &c->sink, err,
	    sizeof err) < 0) {
		tui_warnx("%s", err);
		return -1;
	}
	c->nbounds = 0;
	capture_bound(c);
	/* every file of a ring decodes on its own */
	for (i = 0; i < c->nsynth; i++) {
		if (cap_sink_write(c->sink, &c->synth[i]) < 0) {
			tui_warnx("%s", c->sink->err);
			return -1;
		}
		capture_bound(c);
	}
	return 0;
}

static int
capture_close_file(struct capture *c)
{
	struct cap_stats st;
	char		 err[600];
	int		 rc;

	if (c->sink == NULL)
		return 0;
	cap_stats(c->src, &st);
	cap_sink_set_stats(c->sink, &st, c->start_ns, cap_clock_ns(CLOCK_REALTIME));
	rc = cap_sink_close(c->sink, err, sizeof err);
	c->sink = NULL;
	if (rc < 0) {
		tui_warnx("%s", err);
		return -1;
	}
	return 0;
}

/* Keep a copy of a synthetic record for the next files of a ring. */
static int
capture_keep_synth(struct capture *c, const struct urb_rec *r)
{
	struct urb_rec	*nr;
	uint8_t		*d = NULL;

	nr = realloc(c->synth, (c->nsynth + 1) * sizeof *nr);
	if (nr == NULL)
		return -1;
	c->synth = nr;
	if (r->data_len > 0) {
		if ((d = malloc(r->data_len)) == NULL)
			return -1;
		memcpy(d, r->data, r->data_len);
	}
	nr[c->nsynth] = *r;
	nr[c->nsynth].data = d;
	c->nsynth++;
	return 0;
}

/*
 * Say why a write failed; 1 when the reader went away (not an error).
 * kept: records the file holds after capture_cut_back, or -1.
 */
static int
capture_write_failed(struct capture *c, const char *what, int64_t kept)
{
	int	 e = c->sink != NULL ? c->sink->out.err : errno;

	if (e == EPIPE) {
		tui_warnx("%s: the reader went away (broken pipe); stopped "
		    "after %" PRIu64 " records", c->outpath == NULL ||
		    strcmp(c->path, "-") == 0 ? "standard output" : c->path,
		    c->count);
		return 1;
	}
	if (e == ENOSPC && kept >= 0)
		tui_warnx("%s: no space left on the device; the file holds "
		    "its first %" PRId64 " records, each whole", c->path, kept);
	else if (e == ENOSPC)
		tui_warnx("%s: no space left on the device", c->path);
	else
		tui_warnx("%s", what);
	return 0;
}

/* Drop root for user, as tcpdump -Z does. */
static int
capture_drop_privs(const char *user)
{
	struct passwd	*pw;

	errno = 0;
	if ((pw = getpwnam(user)) == NULL) {
		tui_warnx("-Z %s: no such user%s%s", user, errno ? ": " : "",
		    errno ? strerror(errno) : "");
		return -1;
	}
	if (initgroups(pw->pw_name, pw->pw_gid) != 0 ||
	    setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0) {
		tui_warnx("-Z %s: cannot switch to user %s: %s", user,
		    pw->pw_name, strerror(errno));
		return -1;
	}
	if (pw->pw_uid != 0 && setuid(0) == 0) {
		tui_warnx("-Z %s: root privileges could be regained", user);
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
	double		 last = 0, t;
	int64_t		 kept;
	int		 rc, status = 0, progress, tty_out, cut = 0;

	progress = !c->quiet && c->outpath != NULL &&
	    isatty(STDERR_FILENO);
	tty_out = c->outpath == NULL && isatty(STDOUT_FILENO);
	/* the analysis is for printing; a file gets the records as read */
	if (cap_pipe_init(&pipe, c->src, c->outpath == NULL) < 0) {
		tui_warnx("out of memory");
		return EXIT_INPUT;
	}
	if (c->outpath == NULL && (rc = print_begin(&c->pr, &pipe)) < 0) {
		cap_pipe_close(&pipe);
		return -rc;
	}
	while (!capture_stop && (c->limit == 0 || c->count < c->limit)) {
		rc = cap_pipe_next(&pipe);
		if (rc == CAP_END)
			break;
		if (rc < 0) {
			tui_warnx("%s", c->src->err);
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
			if (c->sink != NULL && c->sink->out.used > 0 &&
			    cap_out_flush(&c->sink->out) < 0) {
				kept = capture_cut_back(c);
				cut = 1;
				if (!capture_write_failed(c, strerror(
				    c->sink->out.err), kept))
					status = EXIT_INPUT;
				break;
			}
			continue;
		}
		if (rc != CAP_URB)
			continue;
		if (r->flags & REC_F_SYNTHETIC) {
			c->nsynthetic++;
			if (c->file_size > 0 && capture_keep_synth(c, r) < 0) {
				tui_warnx("out of memory");
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

		if (cap_sink_write(c->sink, r) < 0) {
			kept = capture_cut_back(c);
			cut = 1;
			if (!capture_write_failed(c, c->sink->err, kept))
				status = EXIT_INPUT;
			break;
		}
		capture_bound(c);
		if (c->file_size > 0 && c->sink->out.written +
		    c->sink->out.used >= c->file_size) {
			if (capture_close_file(c) < 0) {
				status = EXIT_INPUT;
				break;
			}
			c->fileno++;
			if (c->nfiles > 0 && c->fileno == c->nfiles)
				c->fileno = 0;
			if (capture_open_file(c) < 0) {
				status = EXIT_INPUT;
				break;
			}
		}
	}
	if (print_flush(&c->pr) < 0)
		goto write_text_failed;
	goto done;

write_text_failed:
	if (!capture_write_failed(c, strerror(errno), -1))
		status = EXIT_INPUT;
done:
	if (progress && last > 0)
		capture_progress(c, 1);
	if (c->sink != NULL) {
		if (cut) {
			/* the output is broken: no trailer, keep what is whole */
			c->sink->out.err = c->sink->out.err ? c->sink->out.err :
			    EIO;
			(void)cap_sink_close(c->sink, NULL, 0);
			c->sink = NULL;
		} else if (capture_close_file(c) < 0)
			status = EXIT_INPUT;
	}
	cap_stats(c->src, &st);
	/* the bus's records, as -c counts them; the sysfs ones apart */
	fprintf(stderr, "urbscope: %" PRIu64 " records captured", c->count);
	if (c->nsynthetic > 0)
		fprintf(stderr, " (+%" PRIu64 " synthetic from sysfs%s)",
		    c->nsynthetic, c->file_size > 0 ? ", in each file" : "");
	fprintf(stderr, ", %" PRIu64 " dropped by the kernel (%s)\n",
	    st.dropped, st.method != NULL ? st.method : "?");
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

int
tui_cmd_capture(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct capture	 c;
	struct sigaction sa;
	struct cap_stats st;
	char		 err[600], ifname[32];
	uint64_t	 v;
	size_t		 i;
	int		 ch, list = 0, bus, status;

	memset(&c, 0, sizeof c);
	print_init(&c.pr);
	capture_stop = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:c:DF:hi:qs:W:w:Z:" PRINT_OPTS,
	    longopts, NULL)) != -1) {
		if ((status = print_option(&c.pr, ch, optarg)) < 0)
			return EXIT_USAGE;
		if (status > 0)
			continue;
		switch (ch) {
		case 'C':
			if (tui_parse_count("-C", optarg, &v) != 0)
				return EXIT_USAGE;
			if (v > UINT64_MAX / 1000000) {
				tui_warnx("-C %s is too large", optarg);
				return EXIT_USAGE;
			}
			c.file_size = v * 1000000;
			break;
		case 'c':
			if (tui_parse_count("-c", optarg, &c.limit) != 0)
				return EXIT_USAGE;
			break;
		case 'D':
			list = 1;
			break;
		case 'F':
			c.format = optarg;
			break;
		case 'i':
			c.ifname = optarg;
			break;
		case 'q':
			c.quiet = 1;
			break;
		case 's':
			if (tui_parse_count("-s", optarg, &v) != 0)
				return EXIT_USAGE;
			if (v < URB_HDR64 || v > CAP_SNAPLEN_MAX) {
				tui_warnx("-s wants %d to %d bytes (the usbmon "
				    "header is %d), not %s", URB_HDR64,
				    CAP_SNAPLEN_MAX, URB_HDR64, optarg);
				return EXIT_USAGE;
			}
			c.snaplen = (uint32_t)v;
			break;
		case 'W':
			if (tui_parse_count("-W", optarg, &v) != 0)
				return EXIT_USAGE;
			if (v > 100000) {
				tui_warnx("-W %s: at most 100000 files",
				    optarg);
				return EXIT_USAGE;
			}
			c.nfiles = (unsigned)v;
			break;
		case 'w':
			c.outpath = optarg;
			break;
		case 'Z':
			c.user = optarg;
			break;
		case 'h':
			capture_usage(stdout);
			return 0;
		default:
			capture_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		tui_warnx("capture: unexpected argument '%s' (the interface "
		    "goes with -i)", argv[optind]);
		capture_usage(stderr);
		return EXIT_USAGE;
	}
	if (list)
		return capture_list();
	if (c.ifname == NULL) {
		tui_warnx("capture: -i usbmonN is required (usbmon0 = all "
		    "buses; 'urbscope capture -D' lists them)");
		capture_usage(stderr);
		return EXIT_USAGE;
	}
	if ((bus = cap_live_name(c.ifname)) < 0) {
		tui_warnx("capture: '%s' is not a usbmon interface: use "
		    "usbmonN, N the bus number or 0 for all buses "
		    "('urbscope capture -D' lists them)", c.ifname);
		return EXIT_USAGE;
	}
	snprintf(ifname, sizeof ifname, "usbmon%d", bus);
	c.ifname = ifname;
	if (c.outpath != NULL && print_chosen(&c.pr)) {
		tui_warnx("capture: -w writes the capture; -Y, -V, -T, -e and "
		    "-t are for printing it");
		return EXIT_USAGE;
	}
	if ((c.file_size > 0 || c.nfiles > 0) && (c.outpath == NULL ||
	    strcmp(c.outpath, "-") == 0)) {
		tui_warnx("capture: -C and -W need -w FILE");
		return EXIT_USAGE;
	}
	if (c.nfiles > 0 && c.file_size == 0) {
		tui_warnx("capture: -W N makes a ring of files: it needs -C MB");
		return EXIT_USAGE;
	}
	if (c.format != NULL && c.outpath == NULL) {
		tui_warnx("capture: -F needs -w FILE");
		return EXIT_USAGE;
	}
	if (c.format != NULL && strcmp(c.format, "pcap") != 0 &&
	    strcmp(c.format, "pcapng") != 0 && strcmp(c.format, "usbmon") != 0) {
		tui_warnx("capture: unknown output format \"%s\"; urbscope "
		    "writes pcapng, pcap, usbmon", c.format);
		return EXIT_USAGE;
	}

	if (cap_open(c.ifname, &c.src, err, sizeof err) < 0) {
		tui_warnx("%s", err);
		return EXIT_INPUT;
	}
	c.start_ns = cap_clock_ns(CLOCK_REALTIME);
	if (c.user != NULL && capture_drop_privs(c.user) < 0) {
		cap_close(c.src);
		return EXIT_INPUT;
	}
	cap_stats(c.src, &st);
	if (!c.quiet && st.method != NULL && strcmp(st.method, "text") == 0)
		tui_warnx("capturing on %s through the debugfs text file "
		    "(at most 32 data bytes an event, no drop count)",
		    c.ifname);
	else if (!c.quiet)
		tui_warnx("capturing on %s through %s", c.ifname,
		    capture_method_phrase(st.method));

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = capture_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	if (c.outpath != NULL && capture_open_file(&c) < 0)
		status = EXIT_INPUT;
	else
		status = capture_run(&c);
	if (c.sink != NULL)
		(void)cap_sink_close(c.sink, NULL, 0);
	for (i = 0; i < c.nsynth; i++)
		free((void *)(uintptr_t)c.synth[i].data);
	free(c.synth);
	cap_close(c.src);
	return status;
}
