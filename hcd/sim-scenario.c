/*
 * hcd/sim-scenario.c - scenarios: a small line-based language saying
 * what happens to a simulated machine (plug a device, wait, read blocks
 * from a disk, inject a fault, load a driver, open and write a device
 * node), parsed up front with clear errors, then run step by step as
 * deferred work in task context - the way a user space program or a
 * kernel thread would act on the machine.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/vfs.h"
#include "hcd/emu-ehci.h"
#include "hcd/machine.h"

enum step_kind {
	ST_PLUG,
	ST_UNPLUG,
	ST_SETTLE,
	ST_WAIT,
	ST_INJECT,
	ST_DISK_READ,
	ST_DISK_WRITE,
	ST_BULK,
	ST_LOAD,
	ST_UNLOAD,
	ST_PROFILE,
	ST_OPEN,
	ST_WRITE,
	ST_READ,
	ST_CLOSE,
};

struct step {
	enum step_kind	 kind;
	int		 line;
	int		 port;
	long		 a, b, c;
	char		*str;		/* model, driver or node */
	char		*args;		/* model args, text to write */
	struct dm_inject_spec inject;	/* ST_INJECT */
};

#define SETTLE_POLL_MS	10
#define SETTLE_MAX_MS	10000
#define END_WAIT_MS	100
#define BLOCK_SIZE	512		/* the disk model's block size */
#define BULK_CHUNK	16384		/* loopback URB size */
#define MAX_OPEN	8		/* device nodes open at once */
#define READ_MAX	4096		/* bytes of one read step */
#define SCENARIO_MAX_TEXT (1 << 20)	/* a file's bytes, at most */

struct bulk_run;

struct sim_scenario {
	char		*name;
	struct step	*steps;
	size_t		 nsteps;
	size_t		 cur;
	struct sim_machine *m;
	struct sim_work	 work;
	struct sim_timer timer;
	int		 waited_ms;	/* settle */
	int		 fault_armed;	/* next I/O may fail: not an error */
	int		 trigger_port;	/* a fault armed on a trigger there */
	struct bulk_run	*bulk;		/* a bulk step in progress */
	int		 ending;
	uint32_t	 tag;		/* bulk-only transport tag */
	uint8_t		 disk_ready[EMU_EHCI_PORTS + 1];
	struct {
		long		 lba, blocks;
	}		 written[16];	/* disk-writes, for read checks */
	int		 nwritten;
	struct {
		char		*node;	/* the step's string, or NULL */
		int		 fd;
	}		 files[MAX_OPEN];	/* nodes opened by "open" */
	char		 err[256];
};

/* ------------------------------------------------------------------------
 * Built-in scenarios.
 */
static const struct {
	const char	*name;
	const char	*text;
} builtins[] = {
	{ "enumerate",
	    "# Plug a keyboard, a disk and a loopback device; Linux-style\n"
	    "# enumeration of each; then idle.\n"
	    "plug 1 keyboard\n"
	    "settle 1\n"
	    "plug 2 disk\n"
	    "settle 2\n"
	    "plug 3 loopback\n"
	    "settle 3\n"
	    "wait 500\n" },
	{ "storage",
	    "# Read and write blocks of a disk through bulk-only transport.\n"
	    "plug 1 disk\n"
	    "settle 1\n"
	    "disk-write 1 0 8\n"
	    "disk-read 1 0 8\n"
	    "disk-write 1 100 64\n"
	    "disk-read 1 100 64\n"
	    "disk-read 1 2000 1\n"
	    "wait 100\n" },
	{ "faults",
	    "# A stall, babble, transaction errors, and an unplug in the\n"
	    "# middle of a transfer.\n"
	    "plug 1 disk\n"
	    "settle 1\n"
	    "disk-read 1 0 1\n"
	    "inject 1 stall 0x81 1     # the data stage stalls\n"
	    "disk-read 1 0 1\n"
	    "disk-read 1 0 1\n"
	    "inject 1 babble 0x81 1    # the device sends too much\n"
	    "disk-read 1 0 1\n"
	    "disk-read 1 0 1\n"
	    "inject 1 xacterr 0x81 2   # retried by the controller\n"
	    "disk-read 1 0 1\n"
	    "inject 1 xacterr 0x81 4   # CERR runs out: the driver retries\n"
	    "disk-read 1 0 1\n"
	    "disk-read 1 0 1\n"
	    "plug 2 loopback\n"
	    "settle 2\n"
	    "inject 2 disconnect 0x81 8  # unplugged mid-transfer\n"
	    "bulk 2 65536\n"
	    "wait 500\n" },
	{ "loopback",
	    "# Bulk traffic through a loopback device (the benchmark).\n"
	    "plug 1 loopback\n"
	    "settle 1\n"
	    "bulk 1 8388608\n" },
	{ "skeleton",
	    "# The 2.6.0 usb-skeleton on the loopback device: probe, a\n"
	    "# minor and /dev/usb/skel0, a write and a read through it,\n"
	    "# disconnect.\n"
	    "plug 1 loopback\n"
	    "load usb-skeleton\n"
	    "settle 1\n"
	    "open /dev/usb/skel0\n"
	    "write /dev/usb/skel0 hello\n"
	    "read /dev/usb/skel0 512 hello\n"
	    "close /dev/usb/skel0\n"
	    "unplug 1\n"
	    "wait 100\n"
	    "unload usb-skeleton\n" },
	{ "keyboard",
	    "# A HID boot keyboard driver: SET_IDLE, SET_PROTOCOL, an\n"
	    "# interrupt URB resubmitted from its completion, keys logged.\n"
	    "load keyboard\n"
	    "plug 1 keyboard hello\n"
	    "settle 1\n"
	    "open /dev/usb/kbd0\n"
	    "wait 200\n"
	    "read /dev/usb/kbd0 64 hello\n"
	    "close /dev/usb/kbd0\n"
	    "unplug 1\n"
	    "wait 100\n"
	    "unload keyboard\n" },
	{ "buggy",
	    "# A driver that breaks every rule the core checks; loaded\n"
	    "# before the others, it gets the devices first.\n"
	    "load buggy\n"
	    "load keyboard\n"
	    "plug 1 loopback\n"
	    "settle 1\n"
	    "plug 2 keyboard hi    # buggy wants it, then refuses it\n"
	    "settle 2\n"
	    "open /dev/usb/buggy0\n"
	    "write /dev/usb/buggy0 oops\n"
	    "wait 20\n"
	    "read /dev/usb/buggy0 64\n"
	    "close /dev/usb/buggy0\n"
	    "wait 100              # the keyboard types \"hi\"\n"
	    "unplug 1\n"
	    "unplug 2\n"
	    "wait 100\n"
	    "unload keyboard\n"
	    "unload buggy\n" },
	{ "hid",
	    "# A HID game pad whose reports have IDs (no boot protocol):\n"
	    "# SET_IDLE, the report descriptor, GET_REPORT of a feature,\n"
	    "# SET_REPORT of the LEDs, and its input reports.\n"
	    "load gamepad\n"
	    "plug 1 gamepad\n"
	    "settle 1\n"
	    "wait 200\n"
	    "unplug 1\n"
	    "wait 100\n"
	    "unload gamepad\n" },
	{ "acm",
	    "# A CDC-ACM serial adapter with TX wired to RX: line coding,\n"
	    "# DTR and RTS, the SERIAL_STATE they raise, text echoed, a\n"
	    "# break.\n"
	    "load cdc-acm\n"
	    "plug 1 serial\n"
	    "settle 1\n"
	    "open /dev/usb/ttyACM0\n"
	    "wait 40\n"
	    "write /dev/usb/ttyACM0 hello, serial\n"
	    "wait 20\n"
	    "read /dev/usb/ttyACM0 64 hello, serial\n"
	    "close /dev/usb/ttyACM0\n"
	    "unplug 1\n"
	    "wait 100\n"
	    "unload cdc-acm\n" },
	{ "audio",
	    "# A USB Audio 2.0 speaker: the clock and the mixer read as\n"
	    "# snd-usb-audio reads them, then 50 ms of isochronous playback.\n"
	    "load uac2\n"
	    "plug 1 speaker\n"
	    "settle 1\n"
	    "open /dev/usb/pcm0\n"
	    "wait 50\n"
	    "close /dev/usb/pcm0\n"
	    "unplug 1\n"
	    "wait 100\n"
	    "unload uac2\n" },
	{ "bluetooth",
	    "# A Bluetooth controller driven as btusb and the HCI core drive\n"
	    "# one: Reset, version, BD_ADDR, buffer sizes, an LE scan with\n"
	    "# advertising reports, a connection and L2CAP signalling on it,\n"
	    "# an SCO link streamed on the isochronous endpoints;\n"
	    "# events come in 16-byte pieces, ACL data in 64-byte ones.\n"
	    "load btusb\n"
	    "plug 1 bluetooth 16\n"
	    "settle 1\n"
	    "open /dev/usb/hci0\n"
	    "read /dev/usb/hci0 64 00:1b:dc:12:34:56\n"
	    "close /dev/usb/hci0\n"
	    "unplug 1\n"
	    "wait 100\n"
	    "unload btusb\n" },
	{ "demo",
	    "# The TUI's demo: a keyboard types, a disk is written and read,\n"
	    "# usb-skeleton moves data through its node, then the buggy\n"
	    "# driver takes the loopback device and breaks the rules.  The\n"
	    "# pauses let a viewer follow it in real time (tui paces it).\n"
	    "load keyboard\n"
	    "load usb-skeleton\n"
	    "plug 1 keyboard hello\n"
	    "settle 1\n"
	    "wait 1500\n"
	    "plug 2 disk\n"
	    "settle 2\n"
	    "wait 1000\n"
	    "plug 3 loopback\n"
	    "settle 3\n"
	    "wait 1000\n"
	    "disk-write 2 0 8\n"
	    "disk-read 2 0 8\n"
	    "wait 1000\n"
	    "open /dev/usb/skel0\n"
	    "write /dev/usb/skel0 hello\n"
	    "read /dev/usb/skel0 512 hello\n"
	    "close /dev/usb/skel0\n"
	    "wait 1000\n"
	    "unplug 3\n"
	    "wait 1000\n"
	    "unload usb-skeleton\n"
	    "load buggy\n"
	    "plug 3 loopback\n"
	    "settle 3\n"
	    "open /dev/usb/buggy0\n"
	    "write /dev/usb/buggy0 oops\n"
	    "wait 20\n"
	    "read /dev/usb/buggy0 64\n"
	    "close /dev/usb/buggy0\n"
	    "unplug 3\n"
	    "unplug 1\n"
	    "wait 100\n" },
};

const char *const sim_scenario_names[] = {
	"enumerate", "storage", "faults", "loopback", "skeleton", "keyboard",
	"buggy", "hid", "acm", "audio", "bluetooth", "demo", NULL
};

const char *
sim_scenario_builtin(const char *name)
{
	size_t	 i;

	for (i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
		if (strcmp(builtins[i].name, name) == 0)
			return builtins[i].text;
	}
	return NULL;
}

/* ------------------------------------------------------------------------
 * Parsing.
 */
static const struct {
	const char	*name;
	enum step_kind	 kind;
	int		 min, max;	/* words after the command */
	const char	*usage;
} commands[] = {
	{ "plug", ST_PLUG, 2, 64, "plug PORT MODEL [ARGS]" },
	{ "unplug", ST_UNPLUG, 1, 1, "unplug PORT" },
	{ "settle", ST_SETTLE, 1, 1, "settle PORT" },
	{ "wait", ST_WAIT, 1, 1, "wait MS" },
	{ "inject", ST_INJECT, 2, 8,
	    "inject PORT FAULT [EP] [COUNT] [on TRIGGER VALUE [N]]" },
	{ "disk-read", ST_DISK_READ, 3, 3, "disk-read PORT LBA BLOCKS" },
	{ "disk-write", ST_DISK_WRITE, 3, 3, "disk-write PORT LBA BLOCKS" },
	{ "bulk", ST_BULK, 2, 2, "bulk PORT BYTES" },
	{ "load", ST_LOAD, 1, 1, "load DRIVER" },
	{ "unload", ST_UNLOAD, 1, 1, "unload DRIVER" },
	{ "profile", ST_PROFILE, 1, 1, "profile 2.6.0|modern" },
	{ "open", ST_OPEN, 1, 1, "open NODE" },
	{ "write", ST_WRITE, 2, 64, "write NODE TEXT" },
	{ "read", ST_READ, 2, 64, "read NODE BYTES [EXPECT]" },
	{ "close", ST_CLOSE, 1, 1, "close NODE" },
};

static int	 parse_num(const char *, long, long, long *);

int
sim_scenario_sniff(const uint8_t *text, size_t n)
{
	size_t	 i = 0, start, k;

	for (k = 0; k < n; k++)
		if (text[k] < 0x20 && text[k] != '\t' && text[k] != '\n' &&
		    text[k] != '\r')
			return 0;
	for (;;) {
		while (i < n && (text[i] == ' ' || text[i] == '\t' ||
		    text[i] == '\r' || text[i] == '\n'))
			i++;
		if (i == n)
			return 0;
		if (text[i] != '#')
			break;
		while (i < n && text[i] != '\n')
			i++;
	}
	for (start = i; i < n && text[i] > ' ' && text[i] != '#'; i++)
		;
	if (i == n)		/* the word may go on past what we have */
		return 0;
	for (k = 0; k < sizeof commands / sizeof commands[0]; k++)
		if (strlen(commands[k].name) == i - start &&
		    memcmp(commands[k].name, text + start, i - start) == 0)
			return 1;
	return 0;
}

/* The catalog's drivers ("usb-skeleton, keyboard, buggy") or models
 * ("loopback, keyboard, disk") for messages. */
static void
catalog_names(int models, char *buf, size_t len)
{
	const struct sim_catalog *cat = sim_catalog();
	const char *name;
	size_t	 i, n = 0;
	int	 k;

	buf[0] = '\0';
	for (i = 0; cat != NULL && n < len; i++) {
		name = !models ? cat->drivers[i].name : cat->models[i] != NULL ?
		    cat->models[i]->name : NULL;
		if (name == NULL)
			break;
		k = snprintf(buf + n, len - n, "%s%s", n > 0 ? ", " : "",
		    name);
		if (k < 0)
			break;
		n += (size_t)k;
	}
}

/* Words w[from..nw-1] joined by spaces into a new string (NULL if none
 * or out of memory: *oom tells). */
static char *
join_words(char **w, int from, int nw, int *oom)
{
	char	*out;
	size_t	 len = 0;
	int	 k;

	*oom = 0;
	for (k = from; k < nw; k++)
		len += strlen(w[k]) + 1;
	if (len == 0)
		return NULL;
	if ((out = calloc(1, len)) == NULL) {
		*oom = 1;
		return NULL;
	}
	for (k = from; k < nw; k++) {
		if (k > from)
			strcat(out, " ");
		strcat(out, w[k]);
	}
	return out;
}

/* The commands whose first word is not a port. */
static int
parse_portless(struct step *st, char **w, int nw, char *err, size_t errlen)
{
	char	 names[128];
	int	 oom;

	switch (st->kind) {
	case ST_LOAD:
	case ST_UNLOAD:
		if (sim_driver_find(w[1]) == NULL) {
			catalog_names(0, names, sizeof names);
			snprintf(err, errlen, "no driver '%s' (%s)", w[1],
			    names);
			return -1;
		}
		break;
	case ST_PROFILE:
		if (strcmp(w[1], "2.6.0") == 0)
			st->a = CORE_PROFILE_260;
		else if (strcmp(w[1], "modern") == 0)
			st->a = CORE_PROFILE_MODERN;
		else {
			snprintf(err, errlen, "no profile '%s' (2.6.0, "
			    "modern)", w[1]);
			return -1;
		}
		return 0;
	case ST_READ:
		if (parse_num(w[2], 1, READ_MAX, &st->a) < 0) {
			snprintf(err, errlen, "read wants a byte count "
			    "(1-%d), not '%s'", READ_MAX, w[2]);
			return -1;
		}
		/* FALLTHROUGH */
	case ST_OPEN:
	case ST_WRITE:
	case ST_CLOSE:
		if (strncmp(w[1], "/dev/", 5) != 0) {
			snprintf(err, errlen, "'%s' is not a device node "
			    "(/dev/...)", w[1]);
			return -1;
		}
		st->args = join_words(w, st->kind == ST_READ ? 3 : 2, nw,
		    &oom);
		if (oom)
			return -1;
		break;
	default:
		break;
	}
	if ((st->str = strdup(w[1])) == NULL)
		return -1;
	return 0;
}

/* A number (decimal or 0x hex) in [lo, hi]; -1 on error. */
static int
parse_num(const char *w, long lo, long hi, long *out)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(w, &end, 0);
	if (*w == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int
parse_line(struct step *st, char **w, int nw, char *err, size_t errlen)
{
	size_t	 i, k;
	long	 v;
	char	*args, names[128];
	size_t	 len;

	for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(w[0], commands[i].name) == 0)
			break;
	}
	if (i == sizeof commands / sizeof commands[0]) {
		snprintf(err, errlen, "unknown command '%s' (plug, unplug, "
		    "settle, wait, inject, disk-read, disk-write, bulk, load, "
		    "unload, profile, open, write, read, close)", w[0]);
		return -1;
	}
	if (nw - 1 < commands[i].min || nw - 1 > commands[i].max) {
		snprintf(err, errlen, "usage: %s", commands[i].usage);
		return -1;
	}
	st->kind = commands[i].kind;
	if (st->kind == ST_WAIT) {
		if (parse_num(w[1], 0, 3600000, &st->a) < 0) {
			snprintf(err, errlen, "wait wants milliseconds "
			    "(0-3600000), not '%s'", w[1]);
			return -1;
		}
		return 0;
	}
	if (st->kind >= ST_LOAD)
		return parse_portless(st, w, nw, err, errlen);
	if (parse_num(w[1], 1, EMU_EHCI_PORTS, &v) < 0) {
		snprintf(err, errlen, "'%s' is not a port (1-%d)", w[1],
		    EMU_EHCI_PORTS);
		return -1;
	}
	st->port = (int)v;
	switch (st->kind) {
	case ST_PLUG:
		if (sim_model_find(w[2]) == NULL) {
			catalog_names(1, names, sizeof names);
			snprintf(err, errlen, "no device model '%s' (%s)",
			    w[2], names);
			return -1;
		}
		if ((st->str = strdup(w[2])) == NULL)
			return -1;
		for (len = 0, k = 3; k < (size_t)nw; k++)
			len += strlen(w[k]) + 1;
		if (len > 0) {
			if ((args = calloc(1, len)) == NULL)
				return -1;
			for (k = 3; k < (size_t)nw; k++) {
				if (k > 3)
					strcat(args, " ");
				strcat(args, w[k]);
			}
			st->args = args;
		}
		return 0;
	case ST_INJECT:
		return dm_inject_parse(w + 2, nw - 2, &st->inject, err,
		    errlen);
	case ST_DISK_READ:
	case ST_DISK_WRITE:
		if (parse_num(w[2], 0, 0x7fffffff, &st->a) < 0 ||
		    parse_num(w[3], 1, 65535, &st->b) < 0) {
			snprintf(err, errlen, "usage: %s (LBA >= 0, 1-65535 "
			    "blocks)", commands[i].usage);
			return -1;
		}
		return 0;
	case ST_BULK:
		if (parse_num(w[2], 1, 1L << 30, &st->a) < 0) {
			snprintf(err, errlen, "bulk wants a byte count "
			    "(1-%ld), not '%s'", 1L << 30, w[2]);
			return -1;
		}
		return 0;
	default:
		return 0;
	}
}

void
sim_scenario_free(struct sim_scenario *sc)
{
	size_t	 i;

	if (sc == NULL)
		return;
	for (i = 0; i < sc->nsteps; i++) {
		free(sc->steps[i].str);
		free(sc->steps[i].args);
	}
	free(sc->steps);
	free(sc->name);
	free(sc);
}

int
sim_scenario_parse(const char *text, const char *name,
    struct sim_scenario **out, char *err, size_t errlen)
{
	struct sim_scenario *sc;
	struct step	*ns;
	char		 line[512], msg[200], *w[70], *p;
	const char	*t = text, *e;
	size_t		 n;
	int		 lineno = 0, nw;

	*out = NULL;
	if ((sc = calloc(1, sizeof *sc)) == NULL ||
	    (sc->name = strdup(name)) == NULL) {
		free(sc);
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	while (*t != '\0') {
		lineno++;
		e = strchr(t, '\n');
		n = e != NULL ? (size_t)(e - t) : strlen(t);
		if (n >= sizeof line) {
			snprintf(err, errlen, "%s:%d: line too long", name,
			    lineno);
			goto fail;
		}
		memcpy(line, t, n);
		line[n] = '\0';
		t += n + (e != NULL);
		if ((p = strchr(line, '#')) != NULL)
			*p = '\0';
		nw = 0;
		for (p = strtok(line, " \t\r"); p != NULL && nw < 70;
		    p = strtok(NULL, " \t\r"))
			w[nw++] = p;
		if (nw == 0)
			continue;
		ns = realloc(sc->steps, (sc->nsteps + 1) * sizeof *ns);
		if (ns == NULL) {
			snprintf(err, errlen, "%s: out of memory", name);
			goto fail;
		}
		sc->steps = ns;
		memset(&ns[sc->nsteps], 0, sizeof *ns);
		ns[sc->nsteps].line = lineno;
		if (parse_line(&ns[sc->nsteps], w, nw, msg, sizeof msg) < 0) {
			snprintf(err, errlen, "%s:%d: %s", name, lineno, msg);
			sc->nsteps++;
			goto fail;
		}
		sc->nsteps++;
	}
	*out = sc;
	return 0;
fail:
	sim_scenario_free(sc);
	return -EINVAL;
}

int
sim_scenario_load(const char *what, struct sim_scenario **out, char *err,
    size_t errlen)
{
	const char	*builtin, *const *nm;
	char		*text, names[256];
	FILE		*f;
	size_t		 n, len;
	int		 rc;

	*out = NULL;
	if ((builtin = sim_scenario_builtin(what)) != NULL)
		return sim_scenario_parse(builtin, what, out, err, errlen);
	if ((f = fopen(what, "r")) == NULL) {
		rc = errno;
		names[0] = '\0';
		for (len = 0, nm = sim_scenario_names; *nm != NULL &&
		    len < sizeof names; nm++)
			len += (size_t)snprintf(names + len, sizeof names - len,
			    "%s%s", nm != sim_scenario_names ? ", " : "", *nm);
		snprintf(err, errlen, "no built-in scenario '%s' (%s) and no "
		    "such file: %s", what, names, strerror(rc));
		return -ENOENT;
	}
	if ((text = malloc(SCENARIO_MAX_TEXT + 1)) == NULL) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", what);
		return -ENOMEM;
	}
	n = fread(text, 1, SCENARIO_MAX_TEXT, f);
	if (ferror(f) || (n == SCENARIO_MAX_TEXT && fgetc(f) != EOF)) {
		snprintf(err, errlen, "%s: %s", what, ferror(f) ?
		    strerror(errno) : "longer than 1 MiB: not a scenario");
		fclose(f);
		free(text);
		return -ENOENT;
	}
	fclose(f);
	text[n] = '\0';
	rc = sim_scenario_parse(text, what, out, err, errlen);
	free(text);
	return rc;
}

/* ------------------------------------------------------------------------
 * Running.
 */
static void	scenario_work(void *arg);

static void
scenario_timer(void *arg)
{
	struct sim_scenario *sc = arg;

	sim_work_queue(sc->m->sim, &sc->work);
}

static void
after_ms(struct sim_scenario *sc, uint64_t ms)
{
	struct sim	*s = sc->m->sim;

	sim_timer_add(s, &sc->timer, s->now_ns + ms * SIM_MS);
}

static void
step_error(struct sim_scenario *sc, const struct step *st, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static void
step_error(struct sim_scenario *sc, const struct step *st, const char *fmt,
    ...)
{
	va_list	 ap;
	int	 n;

	if (sc->fault_armed)
		return;		/* the injected fault did what it should */
	if (sc->err[0] != '\0')
		return;		/* keep the first */
	n = snprintf(sc->err, sizeof sc->err, "%s:%d: ", sc->name, st->line);
	if (n < 0 || (size_t)n >= sizeof sc->err)
		return;
	va_start(ap, fmt);
	vsnprintf(sc->err + n, sizeof sc->err - (size_t)n, fmt, ap);
	va_end(ap);
}

/* The bulk IN and OUT endpoints of the device's first interface. */
static int
bulk_endpoints(struct usb_device *udev, int *in, int *out)
{
	struct usb_host_interface *alt;
	int	 i, a;

	*in = *out = -1;
	if (udev->actconfig == NULL || udev->actconfig->interface[0] == NULL)
		return -ENODEV;
	alt = udev->actconfig->interface[0]->cur_altsetting;
	for (i = 0; i < alt->desc.bNumEndpoints; i++) {
		a = alt->endpoint[i].desc.bEndpointAddress;
		if ((alt->endpoint[i].desc.bmAttributes & 3) !=
		    USB_ENDPOINT_XFER_BULK)
			continue;
		if (a & USB_DIR_IN)
			*in = a & 0x0f;
		else
			*out = a & 0x0f;
	}
	return *in >= 0 && *out >= 0 ? 0 : -ENODEV;
}

/*
 * Bulk-only reset recovery (BOT 5.3.4): the class reset request, then
 * CLEAR_FEATURE(ENDPOINT_HALT) on both bulk endpoints.
 */
static void
bot_reset_recovery(struct usb_device *udev, int in, int out)
{
	usb_control_msg(udev, usb_sndctrlpipe(udev, 0), 0xff,
	    USB_TYPE_CLASS | USB_RECIP_INTERFACE, 0, 0, NULL, 0, 5000);
	usb_clear_halt(udev, usb_rcvbulkpipe(udev, in));
	usb_clear_halt(udev, usb_sndbulkpipe(udev, out));
}

/*
 * One SCSI command through bulk-only transport (CBW, data, CSW), as
 * usb-storage does it: a stalled data stage clears the halt and goes on to
 * the CSW; anything else going wrong ends in reset recovery.  Returns 0,
 * a negative errno, or 1 when the CSW says failed.
 */
static int
bot_command(struct sim_scenario *sc, struct usb_device *udev,
    const uint8_t *cdb, int cdblen, int dir_in, uint8_t *buf, uint32_t len)
{
	uint8_t	 cbw[31], csw[13];
	int	 in, out, rc, n, tries;

	if ((rc = bulk_endpoints(udev, &in, &out)) != 0)
		return rc;
	memset(cbw, 0, sizeof cbw);
	put_le32(cbw, 0x43425355);		/* "USBC", BOT 5.1 */
	put_le32(cbw + 4, ++sc->tag);
	put_le32(cbw + 8, len);
	cbw[12] = dir_in ? 0x80 : 0x00;
	cbw[14] = (uint8_t)cdblen;
	memcpy(cbw + 15, cdb, (size_t)cdblen);
	rc = usb_bulk_msg(udev, usb_sndbulkpipe(udev, out), cbw, 31, &n,
	    5000);
	if (rc != 0)
		goto recover;
	if (len > 0) {
		rc = usb_bulk_msg(udev, dir_in ? usb_rcvbulkpipe(udev, in) :
		    usb_sndbulkpipe(udev, out), buf, (int)len, &n, 20000);
		if (rc == -EPIPE)
			usb_clear_halt(udev, dir_in ?
			    usb_rcvbulkpipe(udev, in) :
			    usb_sndbulkpipe(udev, out));
		else if (rc != 0)
			goto recover;
	}
	for (tries = 0; tries < 2; tries++) {
		rc = usb_bulk_msg(udev, usb_rcvbulkpipe(udev, in), csw, 13,
		    &n, 5000);
		if (rc != -EPIPE)
			break;
		usb_clear_halt(udev, usb_rcvbulkpipe(udev, in));
	}
	if (rc != 0)
		goto recover;
	if (n != 13 || get_le32(csw) != 0x53425355 ||	/* "USBS" */
	    get_le32(csw + 4) != sc->tag) {
		rc = -EIO;
		goto recover;
	}
	return csw[12] != 0;
recover:
	if (rc != -ENODEV && rc != -ESHUTDOWN)
		bot_reset_recovery(udev, in, out);
	return rc;
}

static int
disk_init(struct sim_scenario *sc, struct usb_device *udev)
{
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 36, 0 };
	static const uint8_t tur[6] = { 0x00, 0, 0, 0, 0, 0 };
	static const uint8_t capacity[10] = { 0x25 };
	uint8_t		 buf[36];
	int		 rc;

	if ((rc = bot_command(sc, udev, inquiry, 6, 1, buf, 36)) != 0)
		return rc;
	if ((rc = bot_command(sc, udev, tur, 6, 0, NULL, 0)) < 0)
		return rc;
	return bot_command(sc, udev, capacity, 10, 1, buf, 8);
}

/* The byte the test pattern has at offset i of block lba. */
static uint8_t
pattern(long lba, size_t i)
{
	return (uint8_t)(lba * 7 + (long)(i / BLOCK_SIZE) * 7 + (long)i);
}

/* Blocks this scenario wrote must read back as written. */
static void
check_read(struct sim_scenario *sc, const struct step *st,
    const uint8_t *buf)
{
	long	 b, lba;
	size_t	 i;
	int	 k;

	for (b = 0; b < st->b; b++) {
		lba = st->a + b;
		for (k = sc->nwritten - 1; k >= 0; k--) {
			if (lba >= sc->written[k].lba &&
			    lba < sc->written[k].lba + sc->written[k].blocks)
				break;
		}
		if (k < 0)
			continue;
		for (i = 0; i < BLOCK_SIZE; i++) {
			if (buf[b * BLOCK_SIZE + (long)i] != pattern(
			    sc->written[k].lba, (size_t)(lba -
			    sc->written[k].lba) * BLOCK_SIZE + i)) {
				step_error(sc, st, "block %ld read back "
				    "different from what was written", lba);
				return;
			}
		}
	}
}

static void
run_disk(struct sim_scenario *sc, const struct step *st)
{
	struct usb_device *udev;
	uint8_t		 cdb[10], *buf;
	size_t		 len = (size_t)st->b * BLOCK_SIZE, i;
	int		 rc, write = st->kind == ST_DISK_WRITE;

	udev = sim_machine_device(sc->m, 1, st->port);
	if (udev == NULL || udev->actconfig == NULL) {
		step_error(sc, st, "no configured device on port %d",
		    st->port);
		return;
	}
	if (!sc->disk_ready[st->port]) {
		if ((rc = disk_init(sc, udev)) < 0) {
			step_error(sc, st, "disk on port %d: %s", st->port,
			    strerror(-rc));
			return;
		}
		sc->disk_ready[st->port] = 1;
	}
	if ((buf = malloc(len)) == NULL) {
		step_error(sc, st, "out of memory");
		return;
	}
	for (i = 0; i < len; i++)
		buf[i] = write ? pattern(st->a, i) : 0;
	memset(cdb, 0, sizeof cdb);
	cdb[0] = write ? 0x2a : 0x28;		/* WRITE(10), READ(10) */
	put_le32(cdb + 2, 0);
	cdb[2] = (uint8_t)(st->a >> 24);
	cdb[3] = (uint8_t)(st->a >> 16);
	cdb[4] = (uint8_t)(st->a >> 8);
	cdb[5] = (uint8_t)st->a;
	cdb[7] = (uint8_t)(st->b >> 8);
	cdb[8] = (uint8_t)st->b;
	rc = bot_command(sc, udev, cdb, 10, !write, buf, (uint32_t)len);
	if (rc == 0 && write && sc->nwritten < 16) {
		sc->written[sc->nwritten].lba = st->a;
		sc->written[sc->nwritten++].blocks = st->b;
	} else if (rc == 0 && !write)
		check_read(sc, st, buf);
	if (rc < 0)
		step_error(sc, st, "%s of %ld blocks at %ld: %s",
		    write ? "write" : "read", st->b, st->a, strerror(-rc));
	else if (rc > 0)
		step_error(sc, st, "%s of %ld blocks at %ld: CSW failed",
		    write ? "write" : "read", st->b, st->a);
	free(buf);
}

/*
 * Loopback: an OUT and an IN URB in flight together, each resubmitted
 * from its completion until all the bytes came back.  The step does not
 * sleep: the scenario resumes when the last URB is given back, so a long
 * transfer streams its records while it runs.
 */
struct bulk_run {
	struct sim_scenario *sc;
	const struct step *st;
	struct urb	*out, *in;
	uint8_t		*obuf, *ibuf;
	long		 total, sent, received;
	int		 error;
	int		 mismatch;
	int		 pending;
};

static uint8_t
bulk_byte(long pos)
{
	return (uint8_t)(pos * 131 + (pos >> 8));
}

static void
bulk_fill_out(struct bulk_run *br)
{
	long	 n = br->total - br->sent, i;

	if (n > BULK_CHUNK)
		n = BULK_CHUNK;
	for (i = 0; i < n; i++)
		br->obuf[i] = bulk_byte(br->sent + i);
	br->out->transfer_buffer_length = (unsigned)n;
}

/* A URB came back for good: the last one wakes the scenario. */
static void
bulk_retire(struct bulk_run *br)
{
	if (--br->pending == 0)
		sim_work_queue(br->sc->m->sim, &br->sc->work);
}

static void
bulk_out_done(struct urb *urb)
{
	struct bulk_run	*br = urb->context;

	if (urb->status != 0) {
		br->error = urb->status;
		bulk_retire(br);
		return;
	}
	br->sent += urb->actual_length;
	if (br->sent < br->total && br->error == 0) {
		bulk_fill_out(br);
		if (usb_submit_urb(urb, GFP_ATOMIC) == 0)
			return;
	}
	bulk_retire(br);
}

static void
bulk_in_done(struct urb *urb)
{
	struct bulk_run	*br = urb->context;
	unsigned	 i;

	if (urb->status != 0) {
		br->error = urb->status;
		bulk_retire(br);
		return;
	}
	for (i = 0; i < urb->actual_length; i++) {
		if (br->ibuf[i] != bulk_byte(br->received + i))
			br->mismatch = 1;
	}
	br->received += urb->actual_length;
	if (br->received < br->total && br->error == 0 &&
	    usb_submit_urb(urb, GFP_ATOMIC) == 0)
		return;
	bulk_retire(br);
}

static void
bulk_free(struct bulk_run *br)
{
	usb_free_urb(br->out);
	usb_free_urb(br->in);
	free(br->obuf);
	free(br->ibuf);
	free(br);
}

/* Start the step; 1 if it runs on (the scenario waits), 0 if it ended. */
static int
bulk_start(struct sim_scenario *sc, const struct step *st)
{
	struct usb_device *udev;
	struct bulk_run	*br;
	int		 in, out;

	udev = sim_machine_device(sc->m, 1, st->port);
	if (udev == NULL || bulk_endpoints(udev, &in, &out) != 0) {
		step_error(sc, st, "no loopback device on port %d", st->port);
		return 0;
	}
	if ((br = calloc(1, sizeof *br)) == NULL) {
		step_error(sc, st, "out of memory");
		return 0;
	}
	br->sc = sc;
	br->st = st;
	br->total = st->a;
	br->out = usb_alloc_urb(0, GFP_KERNEL);
	br->in = usb_alloc_urb(0, GFP_KERNEL);
	br->obuf = malloc(BULK_CHUNK);
	br->ibuf = malloc(BULK_CHUNK);
	if (br->out == NULL || br->in == NULL || br->obuf == NULL ||
	    br->ibuf == NULL) {
		step_error(sc, st, "out of memory");
		bulk_free(br);
		return 0;
	}
	usb_fill_bulk_urb(br->out, udev, usb_sndbulkpipe(udev, out),
	    br->obuf, BULK_CHUNK, bulk_out_done, br);
	usb_fill_bulk_urb(br->in, udev, usb_rcvbulkpipe(udev, in), br->ibuf,
	    BULK_CHUNK, bulk_in_done, br);
	bulk_fill_out(br);
	if (usb_submit_urb(br->in, GFP_KERNEL) == 0)
		br->pending++;
	if (usb_submit_urb(br->out, GFP_KERNEL) == 0)
		br->pending++;
	if (br->pending == 0) {
		step_error(sc, st, "bulk: the device refused the URBs");
		bulk_free(br);
		return 0;
	}
	sc->bulk = br;
	return 1;
}

/* The step's URBs are all back: judge and free. */
static void
bulk_finish(struct sim_scenario *sc)
{
	struct bulk_run	*br = sc->bulk;

	if (br->error != 0)
		step_error(sc, br->st, "bulk: %s after %ld of %ld bytes",
		    strerror(-br->error), br->received, br->total);
	else if (br->mismatch)
		step_error(sc, br->st, "bulk: data came back different");
	bulk_free(br);
	sc->bulk = NULL;
}

/* ------------------------------------------------------------------------
 * Drivers and device nodes: what insmod/rmmod and a process would do.
 */
static int
file_slot(struct sim_scenario *sc, const char *node)
{
	int	 i;

	for (i = 0; i < MAX_OPEN; i++) {
		if (sc->files[i].node != NULL &&
		    strcmp(sc->files[i].node, node) == 0)
			return i;
	}
	return -1;
}

/* Close what the scenario left open, as exit(2) would. */
static void
close_files(struct sim_scenario *sc)
{
	int	 i;

	for (i = 0; i < MAX_OPEN; i++) {
		if (sc->files[i].node == NULL)
			continue;
		(void)vfs_close(sc->files[i].fd);
		sc->files[i].node = NULL;
	}
}

static void
run_node(struct sim_scenario *sc, const struct step *st)
{
	char		 buf[READ_MAX + 1];
	ssize_t		 n;
	size_t		 want;
	int		 i, fd;

	i = file_slot(sc, st->str);
	if (st->kind == ST_OPEN) {
		if (i >= 0) {
			step_error(sc, st, "%s is open already", st->str);
			return;
		}
		for (i = 0; i < MAX_OPEN; i++) {
			if (sc->files[i].node == NULL)
				break;
		}
		if (i == MAX_OPEN) {
			step_error(sc, st, "more than %d nodes open", MAX_OPEN);
			return;
		}
		if ((fd = vfs_open(sc->m->sim, st->str)) < 0) {
			step_error(sc, st, "open %s: %s", st->str,
			    strerror(-fd));
			return;
		}
		sc->files[i].node = st->str;
		sc->files[i].fd = fd;
		return;
	}
	if (i < 0) {
		step_error(sc, st, "%s is not open", st->str);
		return;
	}
	fd = sc->files[i].fd;
	switch (st->kind) {
	case ST_WRITE:
		want = st->args != NULL ? strlen(st->args) : 0;
		n = vfs_write(fd, st->args != NULL ? st->args : "", want);
		if (n < 0)
			step_error(sc, st, "write %s: %s", st->str,
			    strerror((int)-n));
		else if ((size_t)n != want)
			step_error(sc, st, "write %s: %zd of %zu bytes",
			    st->str, n, want);
		break;
	case ST_READ:
		n = vfs_read(fd, buf, (size_t)st->a);
		if (n < 0) {
			step_error(sc, st, "read %s: %s", st->str,
			    strerror((int)-n));
			break;
		}
		buf[n] = '\0';
		if (st->args != NULL && ((size_t)n != strlen(st->args) ||
		    memcmp(buf, st->args, (size_t)n) != 0))
			step_error(sc, st, "read %s: got %zd bytes \"%.*s\", "
			    "expected \"%s\"", st->str, n, (int)(n > 40 ? 40 :
			    n), buf, st->args);
		break;
	case ST_CLOSE:
		if ((fd = vfs_close(fd)) < 0)
			step_error(sc, st, "close %s: %s", st->str,
			    strerror(-fd));
		sc->files[i].node = NULL;
		break;
	default:
		break;
	}
}

static void
run_driver(struct sim_scenario *sc, const struct step *st)
{
	const struct sim_driver *d;
	int		 rc;

	switch (st->kind) {
	case ST_LOAD:
		d = sim_driver_find(st->str);
		if ((rc = usb_register(d->drv)) != 0)
			step_error(sc, st, "load %s: %s", st->str,
			    strerror(-rc));
		break;
	case ST_UNLOAD:
		usb_deregister(sim_driver_find(st->str)->drv);
		break;
	case ST_PROFILE:
		if ((rc = core_set_profile(sc->m->sim, (int)st->a)) != 0)
			step_error(sc, st, "profile: %s", strerror(-rc));
		break;
	default:
		break;
	}
}

/* Run steps until one needs time to pass. */
static void
scenario_work(void *arg)
{
	struct sim_scenario *sc = arg;
	struct sim	*s = sc->m->sim;
	struct usb_device *udev;
	const struct step *st;
	int		 rc;

	if (sc->ending) {
		close_files(sc);
		s->stop = 1;
		return;
	}
	if (sc->bulk != NULL) {
		if (sc->bulk->pending > 0)
			return;		/* woken early: keep waiting */
		bulk_finish(sc);
		sc->fault_armed = 0;
		sc->cur++;
	}
	while (sc->cur < sc->nsteps) {
		st = &sc->steps[sc->cur];
		/* a fault armed on a trigger may go off in this step */
		if (sc->trigger_port != 0 && sim_machine_armed(sc->m, 1,
		    sc->trigger_port))
			sc->fault_armed = 1;
		switch (st->kind) {
		case ST_PLUG:
			rc = sim_machine_plug(sc->m, 1, st->port, st->str,
			    st->args);
			if (rc != 0)
				step_error(sc, st, "plug %s into port %d: %s",
				    st->str, st->port, strerror(-rc));
			sc->disk_ready[st->port] = 0;
			break;
		case ST_UNPLUG:
			if ((rc = sim_machine_unplug(sc->m, 1, st->port)) != 0)
				step_error(sc, st, "unplug port %d: %s",
				    st->port, strerror(-rc));
			break;
		case ST_SETTLE:
			udev = sim_machine_device(sc->m, 1, st->port);
			if (udev != NULL && udev->actconfig != NULL) {
				sc->waited_ms = 0;
				break;
			}
			if (sc->waited_ms >= SETTLE_MAX_MS) {
				step_error(sc, st, "no device configured on "
				    "port %d after %d ms", st->port,
				    SETTLE_MAX_MS);
				sc->waited_ms = 0;
				break;
			}
			sc->waited_ms += SETTLE_POLL_MS;
			after_ms(sc, SETTLE_POLL_MS);
			return;
		case ST_WAIT:
			sc->cur++;
			after_ms(sc, (uint64_t)st->a);
			return;
		case ST_INJECT:
			rc = sim_machine_inject(sc->m, 1, st->port,
			    &st->inject);
			if (rc != 0)
				step_error(sc, st, "inject on port %d: %s",
				    st->port, strerror(-rc));
			sc->fault_armed = 1;
			if (st->inject.on != DM_ON_NOW)
				sc->trigger_port = st->port;
			sc->cur++;
			continue;
		case ST_DISK_READ:
		case ST_DISK_WRITE:
			run_disk(sc, st);
			break;
		case ST_BULK:
			if (bulk_start(sc, st))
				return;	/* resumes when its URBs are back */
			break;
		case ST_LOAD:
		case ST_UNLOAD:
		case ST_PROFILE:
			run_driver(sc, st);
			break;
		case ST_OPEN:
		case ST_WRITE:
		case ST_READ:
		case ST_CLOSE:
			run_node(sc, st);
			break;
		}
		sc->fault_armed = 0;
		sc->cur++;
	}
	sc->ending = 1;
	after_ms(sc, END_WAIT_MS);
}

void
sim_scenario_start(struct sim_scenario *sc, struct sim_machine *m)
{
	sc->m = m;
	sc->cur = 0;
	sc->ending = 0;
	sc->work.fn = scenario_work;
	sc->work.arg = sc;
	sc->timer.fn = scenario_timer;
	sc->timer.arg = sc;
	sim_work_queue(m->sim, &sc->work);
}

int
sim_scenario_step(const struct sim_scenario *sc, size_t i,
    struct sim_step_view *v)
{
	const struct step *st;
	size_t		 k;

	if (i >= sc->nsteps)
		return -1;
	st = &sc->steps[i];
	memset(v, 0, sizeof *v);
	for (k = 0; k < sizeof commands / sizeof commands[0]; k++)
		if (commands[k].kind == st->kind)
			v->command = commands[k].name;
	v->line = st->line;
	v->port = st->port;
	switch (st->kind) {
	case ST_PLUG:
		v->kind = SIM_STEP_PLUG;
		v->model = st->str;
		v->args = st->args != NULL ? st->args : "";
		break;
	case ST_UNPLUG:
		v->kind = SIM_STEP_UNPLUG;
		break;
	case ST_SETTLE:
		v->kind = SIM_STEP_SETTLE;
		break;
	case ST_WAIT:
		v->kind = SIM_STEP_WAIT;
		v->ms = st->a;
		break;
	case ST_INJECT:
		v->kind = SIM_STEP_INJECT;
		v->inject = &st->inject;
		break;
	default:
		v->kind = SIM_STEP_HOST;
		break;
	}
	return 0;
}

const char *
sim_scenario_error(const struct sim_scenario *sc)
{
	return sc->err[0] != '\0' ? sc->err : NULL;
}
