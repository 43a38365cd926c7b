/*
 * cmd/cmd-serve.c - `urbscope serve [-a ADDRESS] [-p PORT] MODEL[:ARGS]...`:
 * the device models served over USB/IP (hcd/usbip.c), so that a real
 * Linux kernel attaches them with vhci-hcd (`usbip attach -r HOST -b
 * 1-1`) and its own drivers bind to them.  The models are the
 * simulator's (`urbscope sim`'s "plug PORT MODEL ARGS"); model N is bus
 * id 1-N.
 *
 * One thread, poll(2): the listening socket and the connections.  A
 * connection asks for the device list (and is closed after the answer,
 * as usbipd does) or imports one device and then carries its URBs.  A
 * malformed message closes that connection with a line on stderr; the
 * others go on.  SIGINT and SIGTERM stop the server.
 *
 * -s SCENARIO: the scenario language's device steps (plug, unplug,
 * settle, wait, inject) run on the wall clock between the connections'
 * work; "plug PORT" is bus id 1-PORT, "unplug" ends the connection that
 * has the device (vhci-hcd then sees it go), "settle" waits until a
 * host has attached and configured it.  The scenario's end ends the
 * server, as it ends `urbscope sim`.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "hcd/usbip.h"
#include "hcd/machine.h"
#include "cmd.h"

#define SERVE_MAX_DEVS	16
#define SERVE_MAX_CONNS	32

/* usbip_common.h: the status of an OP_REP_* */
#define ST_OK		0
#define ST_NA		1		/* no such device */
#define ST_DEV_BUSY	2		/* already imported */

struct conn {
	int		 fd;
	int		 imported;	/* then dev carries URBs */
	int		 closing;	/* close once out is written */
	struct usbip_dev *dev;
	uint8_t		*in;
	size_t		 inlen, incap;
	struct sbuf	 out;
	char		 peer[64];
};

struct server {
	struct usbip_dev *dev[SERVE_MAX_DEVS];
	struct conn	*owner[SERVE_MAX_DEVS];
	int		 vport[SERVE_MAX_DEVS];	/* --attach: vhci's port */
	struct dm_inject_spec inject[SERVE_MAX_DEVS];	/* -i, at import */
	char		 label[SERVE_MAX_DEVS][16];	/* "1-N" */
	int		 has_inject[SERVE_MAX_DEVS];
	int		 unplugged[SERVE_MAX_DEVS];	/* free at conn_close */
	int		 devnum;	/* the next plugged device's */
	int		 attach;	/* -A */
	struct sim_scenario *sc;	/* -s */
	const char	*sc_name;
	size_t		 sc_step;
	uint64_t	 sc_until;	/* a wait's end (CLOCK_MONOTONIC) */
	int		 sc_failed;	/* a step went wrong: exit 1 */
	struct conn	 conn[SERVE_MAX_CONNS];
	int		 nconn;
	uint64_t	 urbs;		/* URBs carried */
	struct cap_sink	*sink;		/* -w: the devices' side */
	int		 sink_err;	/* said once */
};

static volatile sig_atomic_t serve_stop;

/* What a model says (a replay's divergences), on stderr. */
static void
serve_note(void *arg, const char *text)
{
	fprintf(stderr, "urbscope: %s %s\n", (const char *)arg, text);
}

/* -w: one record of a device's side, stamped now (usbip_dev_record). */
static void
serve_record(void *arg, struct urb_rec *r)
{
	struct server	*sv = arg;
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	r->ts_sec = ts.tv_sec;
	r->ts_usec = (int32_t)(ts.tv_nsec / 1000);
	r->ts_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (sv->sink_err || cap_sink_write(sv->sink, r) == 0)
		return;
	cmd_warnx("serve: -w %s: %s; no more is written", sv->sink->path,
	    sv->sink->err);
	sv->sink_err = 1;
}

/* Device i's -i fault, armed (or done) as it is attached. */
static void
serve_arm(struct server *sv, int i)
{
	if (sv->has_inject[i])
		dm_inject_spec(usbip_dev_model(sv->dev[i]), &sv->inject[i]);
}

/* -i "N FAULT ...": into sv's device N-1.  0, or -1 after saying why. */
static int
serve_inject_opt(struct server *sv, const char *arg)
{
	char	*copy, *w[16], *p, err[160];
	int	 nw = 0, rc = -1;
	long	 n;

	if ((copy = strdup(arg)) == NULL) {
		cmd_warnx("out of memory");
		return -1;
	}
	for (p = strtok(copy, " \t"); p != NULL && nw < 16;
	    p = strtok(NULL, " \t"))
		w[nw++] = p;
	n = nw > 0 ? strtol(w[0], &p, 10) : 0;
	if (nw < 2 || *p != '\0' || n < 1 || n > SERVE_MAX_DEVS)
		cmd_warnx("serve: -i '%s': N FAULT ..., N a model's place "
		    "(1-%d)", arg, SERVE_MAX_DEVS);
	else if (dm_inject_parse(w + 1, nw - 1, &sv->inject[n - 1], err,
	    sizeof err) != 0)
		cmd_warnx("serve: -i '%s': %s", arg, err);
	else {
		sv->has_inject[n - 1] = 1;
		rc = 0;
	}
	free(copy);
	return rc;
}

/* A vhci port one of our devices took (its status may not say so yet). */
static int
vhci_port_taken(const struct server *sv, int port)
{
	int	 i;

	for (i = 0; i < SERVE_MAX_DEVS; i++)
		if (sv->dev[i] != NULL && sv->vport[i] == port)
			return 1;
	return 0;
}

static void
serve_signal(int sig)
{
	(void)sig;
	serve_stop = 1;
}

static uint64_t
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
serve_usage(FILE *f)
{
	const struct sim_catalog *cat = sim_catalog();
	const struct usb_devmodel_ops *const *m;

	fprintf(f, "usage: urbscope serve [-a ADDRESS] [-p PORT] [-i INJECT]... "
	    "[-w FILE] [-A]\n                      [-s SCENARIO] "
	    "[MODEL[:ARGS]...]\n"
	    "Serve device models over USB/IP (protocol 1.1.1): a Linux "
	    "machine\nattaches them with vhci-hcd ('usbip attach -r HOST -b "
	    "1-1') and its\nown drivers bind to them.  Model N is bus id 1-N; "
	    "ARGS as the\nscenarios' 'plug PORT MODEL ARGS' takes them "
	    "(disk:8M, keyboard:hello,\n'replay:FILE [BUS.DEV] [strict]': a "
	    "device as a capture recorded it,\nSTALLing where the host "
	    "diverges with strict).\nModels:");
	for (m = cat != NULL ? cat->models : NULL; m != NULL && *m != NULL;
	    m++)
		fprintf(f, " %s", (*m)->name);
	fprintf(f, ".\n\n"
	    "  -a ADDRESS    listen there (default 127.0.0.1; 0.0.0.0 or ::\n"
	    "                for every address: anyone who reaches the port\n"
	    "                can attach the devices)\n"
	    "  -p PORT       the TCP port (default %d, usbipd's)\n"
	    "  -w FILE       write what the devices see, as usbmon records\n"
	    "                from their side (pcapng, or pcap or usbmon text\n"
	    "                by the name's extension; URB ids the USB/IP\n"
	    "                seqnums)\n"
	    "  -i 'N FAULT [EP] [COUNT] [on TRIGGER VALUE [N]]'\n"
	    "                a fault for model N, as the scenarios' inject\n"
	    "                says it, armed each time the device is attached\n"
	    "                (e.g. -i '1 stall 0x02 1 on scsi 0x28 3': STALL\n"
	    "                the third READ(10)'s CBW)\n"
	    "  -A, --attach  attach the devices to this machine's own\n"
	    "                vhci-hcd too (root; modprobe vhci-hcd), as\n"
	    "                'usbip attach' would; detached on exit\n"
	    "  -s SCENARIO   run a scenario file's device steps on the wall\n"
	    "                clock: plug PORT MODEL [ARGS] (bus id 1-PORT),\n"
	    "                unplug PORT (its host sees it go), settle PORT\n"
	    "                (until a host has configured it), wait MS,\n"
	    "                inject PORT FAULT ...; its end ends the server\n",
	    USBIP_PORT);
}

/*
 * --attach: device d attached to this machine's own vhci-hcd, as `usbip
 * attach` would but through a socket pair (vhci takes any stream socket:
 * attach_store in drivers/usb/usbip/vhci_sysfs.c), on the first free
 * high-speed port of its status file.  The connection's end goes into
 * the server; the port number into *port.  0, or -1 after saying why.
 */
#define VHCI_DIR	"/sys/devices/platform/vhci_hcd.0"
#define VDEV_ST_NULL	4		/* a free port (usbip_common.h) */

static int
vhci_attach(struct server *sv, int i, int *port)
{
	char		 line[256], hub[8], text[64];
	unsigned int	 p, sta;
	FILE		*f;
	struct conn	*c;
	int		 sp[2], fd, n, rc;

	*port = -1;
	if ((f = fopen(VHCI_DIR "/status", "r")) == NULL) {
		cmd_warnx("serve: --attach: %s: %s (modprobe vhci-hcd)",
		    VHCI_DIR "/status", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "%7s %u %u", hub, &p, &sta) == 3 &&
		    strcmp(hub, "hs") == 0 && sta == VDEV_ST_NULL &&
		    !vhci_port_taken(sv, (int)p)) {
			*port = (int)p;
			break;
		}
	fclose(f);
	if (*port < 0) {
		cmd_warnx("serve: --attach: no free high-speed port on "
		    "vhci_hcd.0");
		return -1;
	}
	if (sv->nconn == SERVE_MAX_CONNS ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) < 0) {
		cmd_warnx("serve: --attach: socketpair: %s", strerror(errno));
		return -1;
	}
	/* port, socket, device id, USB_SPEED_HIGH */
	n = snprintf(text, sizeof text, "%d %d %u 3", *port, sp[1],
	    usbip_dev_devid(sv->dev[i]));
	if ((fd = open(VHCI_DIR "/attach", O_WRONLY | O_CLOEXEC)) < 0 ||
	    write(fd, text, (size_t)n) != n) {
		rc = errno;
		cmd_warnx("serve: --attach: %s: %s", VHCI_DIR "/attach",
		    strerror(rc));
		if (fd >= 0)
			close(fd);
		close(sp[0]);
		close(sp[1]);
		return -1;
	}
	close(fd);
	close(sp[1]);		/* vhci holds its own reference */
	(void)fcntl(sp[0], F_SETFL, fcntl(sp[0], F_GETFL) | O_NONBLOCK);
	c = &sv->conn[sv->nconn++];
	memset(c, 0, sizeof *c);
	c->fd = sp[0];
	c->imported = 1;
	c->dev = sv->dev[i];
	sv->owner[i] = c;
	serve_arm(sv, i);
	snprintf(c->peer, sizeof c->peer, "vhci_hcd.0 port %d", *port);
	sv->vport[i] = *port;
	return 0;
}

/* The ports --attach took, detached (vhci_sysfs.c detach_store). */
static void
vhci_detach(struct server *sv)
{
	char	 text[16];
	int	 fd, i, n;

	for (i = 0; i < SERVE_MAX_DEVS; i++) {
		if (sv->dev[i] == NULL || sv->vport[i] < 0)
			continue;
		n = snprintf(text, sizeof text, "%d", sv->vport[i]);
		if ((fd = open(VHCI_DIR "/detach", O_WRONLY | O_CLOEXEC)) >= 0) {
			if (write(fd, text, (size_t)n) != n)
				cmd_warnx("serve: detaching vhci_hcd.0 port "
				    "%d: %s", sv->vport[i], strerror(errno));
			close(fd);
		}
		sv->vport[i] = -1;
	}
}

/*
 * Model `model` (args for its init) plugged in at port (bus id 1-PORT),
 * and with -A attached to vhci-hcd.  0, or -1 after saying why.
 */
static int
serve_plug(struct server *sv, int port, const char *model, const char *args)
{
	struct usb_devmodel *dm;
	int		 i = port - 1, vp;

	if (sim_model_find(model) == NULL) {
		cmd_warnx("serve: no device model '%s' (see urbscope serve "
		    "--help)", model);
		return -1;
	}
	if (sv->dev[i] != NULL) {
		cmd_warnx("serve: port %d has a device already (%s)", port,
		    usbip_dev_model(sv->dev[i])->ops->name);
		return -1;
	}
	snprintf(sv->label[i], sizeof sv->label[i], "1-%d", port);
	dm = dm_create_noted(model, args, serve_note, sv->label[i]);
	if (dm == NULL || (sv->dev[i] = usbip_dev_new(dm, 1, sv->devnum,
	    port)) == NULL) {
		cmd_warnx("serve: %s: cannot create it with '%s'", model,
		    args);
		dm_destroy(dm);
		return -1;
	}
	sv->devnum = sv->devnum % 127 + 1;
	sv->vport[i] = -1;
	if (sv->sink != NULL)
		usbip_dev_record(sv->dev[i], serve_record, sv);
	if (!sv->attach)
		return 0;
	if (vhci_attach(sv, i, &vp) != 0)
		return -1;
	fprintf(stderr, "urbscope: %s attached to vhci_hcd.0 port %d\n",
	    sv->label[i], vp);
	return 0;
}

/* Device i, unplugged, goes (its connection, if any, gone first). */
static void
serve_unplugged(struct server *sv, int i)
{
	fprintf(stderr, "urbscope: %s unplugged\n", sv->label[i]);
	usbip_dev_free(sv->dev[i]);
	sv->dev[i] = NULL;
	sv->unplugged[i] = 0;
	sv->vport[i] = -1;
}

/* Listen on address:port; the socket, or -1 after saying why. */
static int
serve_listen(const char *address, const char *port)
{
	struct addrinfo	 hints, *res, *ai;
	int		 fd = -1, on = 1, rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if ((rc = getaddrinfo(address, port, &hints, &res)) != 0) {
		cmd_warnx("serve: %s port %s: %s", address, port,
		    gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd < 0)
			continue;
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, 8) == 0)
			break;
		rc = errno;
		close(fd);
		fd = -1;
		errno = rc;
	}
	freeaddrinfo(res);
	if (fd < 0)
		cmd_warnx("serve: cannot listen on %s port %s: %s", address,
		    port, strerror(errno));
	return fd;
}

static void
conn_close(struct server *sv, struct conn *c, const char *why)
{
	struct conn	*last;
	int		 i;

	if (why != NULL)
		cmd_warnx("serve: %s: %s", c->peer, why);
	for (i = 0; i < SERVE_MAX_DEVS; i++) {
		if (sv->dev[i] == NULL || sv->owner[i] != c)
			continue;
		sv->owner[i] = NULL;
		fprintf(stderr, "urbscope: %s detached from %s\n",
		    usbip_dev_busid(sv->dev[i]), c->peer);
		if (sv->unplugged[i]) {
			serve_unplugged(sv, i);
			continue;
		}
		/* the device stays, fresh for the next import */
		usbip_dev_reset(sv->dev[i]);
		dm_bus_reset(usbip_dev_model(sv->dev[i]));
	}
	close(c->fd);
	free(c->in);
	sb_free(&c->out);
	/* the last connection moves into this slot, its devices with it */
	last = &sv->conn[--sv->nconn];
	if (c != last) {
		*c = *last;
		for (i = 0; i < SERVE_MAX_DEVS; i++)
			if (sv->owner[i] == last)
				sv->owner[i] = c;
	}
}

/* An OP_REP_* header onto out. */
static void
op_reply(struct sbuf *out, uint16_t code, uint32_t status)
{
	uint8_t	 h[USBIP_OP_HDR];

	put_be16(h, USBIP_VERSION);
	put_be16(h + 2, code);
	put_be32(h + 4, status);
	sb_putn(out, (const char *)h, sizeof h);
}

/*
 * The messages c holds: bytes consumed, 0 when a message is not whole
 * yet, -1 when the connection must go (why in *why).
 */
static ssize_t
conn_message(struct server *sv, struct conn *c, const char **why)
{
	uint8_t		 info[USBIP_DEV_SIZE + 32 * USBIP_INTF_SIZE];
	char		 busid[USBIP_BUSID_SIZE + 1];
	struct usbip_cmd cmd;
	uint16_t	 code;
	int64_t		 extra;
	size_t		 n;
	int		 i;

	if (c->imported) {
		if (c->inlen < USBIP_HDR)
			return 0;
		if (usbip_parse_cmd(c->in, &cmd) != 0) {
			*why = "not a USB/IP command (CMD_SUBMIT or "
			    "CMD_UNLINK)";
			return -1;
		}
		if ((extra = usbip_cmd_extra(&cmd)) < 0) {
			*why = "a transfer longer than 16 MiB or more than "
			    "1024 isochronous packets";
			return -1;
		}
		if (c->inlen < USBIP_HDR + (size_t)extra)
			return 0;
		if (cmd.command == USBIP_CMD_UNLINK)
			usbip_dev_unlink(c->dev, &cmd, &c->out);
		else if (usbip_dev_submit(c->dev, &cmd, c->in + USBIP_HDR) !=
		    0) {
			*why = "an URB that cannot be queued (isochronous "
			    "packets outside its buffer, or 4096 queued)";
			return -1;
		}
		sv->urbs += cmd.command == USBIP_CMD_SUBMIT;
		return USBIP_HDR + extra;
	}
	if (c->inlen < USBIP_OP_HDR)
		return 0;
	code = get_be16(c->in + 2);
	switch (code) {
	case OP_REQ_DEVLIST:
		op_reply(&c->out, OP_REP_DEVLIST, ST_OK);
		for (i = 0, n = 0; i < SERVE_MAX_DEVS; i++)
			n += sv->dev[i] != NULL && !sv->unplugged[i];
		put_be32(info, (uint32_t)n);
		sb_putn(&c->out, (const char *)info, 4);
		for (i = 0; i < SERVE_MAX_DEVS; i++) {
			if (sv->dev[i] == NULL || sv->unplugged[i])
				continue;
			n = usbip_dev_info(sv->dev[i], info, 1);
			sb_putn(&c->out, (const char *)info, n);
		}
		c->closing = 1;
		return USBIP_OP_HDR;
	case OP_REQ_IMPORT:
		if (c->inlen < USBIP_OP_HDR + USBIP_BUSID_SIZE)
			return 0;
		memcpy(busid, c->in + USBIP_OP_HDR, USBIP_BUSID_SIZE);
		busid[USBIP_BUSID_SIZE] = '\0';
		for (i = 0; i < SERVE_MAX_DEVS; i++)
			if (sv->dev[i] != NULL && !sv->unplugged[i] &&
			    strcmp(busid, usbip_dev_busid(sv->dev[i])) == 0)
				break;
		if (i == SERVE_MAX_DEVS || sv->owner[i] != NULL) {
			op_reply(&c->out, OP_REP_IMPORT, i == SERVE_MAX_DEVS ?
			    ST_NA : ST_DEV_BUSY);
			cmd_warnx("serve: %s asked for %s: %s", c->peer,
			    busid, i == SERVE_MAX_DEVS ? "no such device" :
			    "already attached");
			c->closing = 1;
			return USBIP_OP_HDR + USBIP_BUSID_SIZE;
		}
		op_reply(&c->out, OP_REP_IMPORT, ST_OK);
		n = usbip_dev_info(sv->dev[i], info, 0);
		sb_putn(&c->out, (const char *)info, n);
		c->imported = 1;
		c->dev = sv->dev[i];
		sv->owner[i] = c;
		serve_arm(sv, i);
		fprintf(stderr, "urbscope: %s attached by %s\n", busid,
		    c->peer);
		return USBIP_OP_HDR + USBIP_BUSID_SIZE;
	}
	*why = "not a USB/IP request (OP_REQ_DEVLIST or OP_REQ_IMPORT)";
	return -1;
}

/* Read what c sent and act on it: 0, or -1 when c is gone. */
static int
conn_read(struct server *sv, struct conn *c)
{
	const char	*why = NULL;
	ssize_t		 n, used;
	size_t		 room;
	uint8_t		*p;

	/* room for 64 KiB more, the buffer doubled when short */
	if (c->incap - c->inlen < 65536) {
		room = c->incap * 2 > c->inlen + 65536 ? c->incap * 2 :
		    c->inlen + 65536;
		if ((p = realloc(c->in, room)) == NULL) {
			conn_close(sv, c, "out of memory");
			return -1;
		}
		c->in = p;
		c->incap = room;
	}
	n = read(c->fd, c->in + c->inlen, c->incap - c->inlen);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		conn_close(sv, c, n < 0 ? strerror(errno) : c->imported ?
		    NULL : "closed before its request was whole");
		return -1;
	}
	c->inlen += (size_t)n;
	while (!c->closing && (used = conn_message(sv, c, &why)) > 0) {
		memmove(c->in, c->in + used, c->inlen - (size_t)used);
		c->inlen -= (size_t)used;
	}
	if (why != NULL) {
		conn_close(sv, c, why);
		return -1;
	}
	return 0;
}

/* Write what c has to say: 0, or -1 when c is gone. */
static int
conn_write(struct server *sv, struct conn *c)
{
	ssize_t	 n;

	if (c->out.oom) {
		conn_close(sv, c, "out of memory");
		return -1;
	}
	while (c->out.len > 0) {
		n = write(c->fd, c->out.s, c->out.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0) {
			conn_close(sv, c, strerror(errno));
			return -1;
		}
		memmove(c->out.s, c->out.s + n, c->out.len - (size_t)n);
		c->out.len -= (size_t)n;
	}
	if (c->closing) {
		conn_close(sv, c, NULL);
		return -1;
	}
	return 0;
}

static void
serve_accept(struct server *sv, int lfd)
{
	struct sockaddr_storage ss;
	socklen_t	 sl = sizeof ss;
	char		 host[48], port[8];
	struct conn	*c;
	int		 fd;

	if ((fd = accept(lfd, (struct sockaddr *)&ss, &sl)) < 0)
		return;
	if (sv->nconn == SERVE_MAX_CONNS) {
		cmd_warnx("serve: %d connections already; one refused",
		    SERVE_MAX_CONNS);
		close(fd);
		return;
	}
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	c = &sv->conn[sv->nconn++];
	memset(c, 0, sizeof *c);
	c->fd = fd;
	if (getnameinfo((struct sockaddr *)&ss, sl, host, sizeof host, port,
	    sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		snprintf(host, sizeof host, "?");
	snprintf(c->peer, sizeof c->peer, "%s:%s", host, port);
}

/* A scenario step that went wrong: said, and the exit status 1. */
static void
step_fail(struct server *sv, const struct sim_step_view *v, const char *why)
{
	cmd_warnx("serve: %s:%d: %s %d: %s", sv->sc_name, v->line,
	    v->command, v->port, why);
	sv->sc_failed = 1;
}

/*
 * -s: the scenario's steps that are due, run.  Returns 1 at its end;
 * else 0 with *timeout (ms) lowered to when the step it waits on is due.
 */
static int
scenario_run(struct server *sv, int *timeout)
{
	struct sim_step_view v;
	struct usb_devmodel *dm;
	uint64_t	 now;
	int		 i, left;

	for (; sim_scenario_step(sv->sc, sv->sc_step, &v) == 0;
	    sv->sc_step++) {
		i = v.port - 1;
		dm = v.port > 0 && sv->dev[i] != NULL && !sv->unplugged[i] ?
		    usbip_dev_model(sv->dev[i]) : NULL;
		switch (v.kind) {
		case SIM_STEP_WAIT:
			now = now_ns();
			if (sv->sc_until == 0)
				sv->sc_until = now + (uint64_t)v.ms * 1000000;
			if (now < sv->sc_until) {
				left = (int)((sv->sc_until - now + 999999) /
				    1000000);
				if (*timeout < 0 || left < *timeout)
					*timeout = left;
				return 0;
			}
			sv->sc_until = 0;
			break;
		case SIM_STEP_SETTLE:
			if (dm == NULL)
				step_fail(sv, &v, "no device there");
			else if (sv->owner[i] == NULL || dm->config == 0) {
				/* a host attaches it, then configures it */
				if (*timeout < 0 || *timeout > 10)
					*timeout = 10;
				return 0;
			}
			break;
		case SIM_STEP_PLUG:
			/* a device unplugged there goes with its connection,
			 * in a moment: the new one waits for the port */
			if (sv->dev[i] != NULL && sv->unplugged[i]) {
				if (*timeout < 0 || *timeout > 1)
					*timeout = 1;
				return 0;
			}
			if (serve_plug(sv, v.port, v.model, v.args) != 0)
				sv->sc_failed = 1;
			else
				fprintf(stderr, "urbscope: %s plugged: %s\n",
				    sv->label[i], v.model);
			break;
		case SIM_STEP_UNPLUG:
			if (dm == NULL)
				step_fail(sv, &v, "no device there");
			else if (sv->owner[i] == NULL)
				serve_unplugged(sv, i);
			else {
				/* the connection ends, as a device pulled
				 * out of a usbipd host ends it: vhci-hcd
				 * gives the port's URBs back and detaches
				 * it; the device goes in conn_close */
				sv->unplugged[i] = 1;
				sv->owner[i]->closing = 1;
				sv->vport[i] = -1;
			}
			break;
		case SIM_STEP_INJECT:
			if (dm == NULL)
				step_fail(sv, &v, "no device there");
			else
				dm_inject_spec(dm, v.inject);
			break;
		case SIM_STEP_HOST:
			break;		/* refused before serving */
		}
	}
	return 1;
}

/* -s NAME: the scenario, its steps all the device's own.  0, or -1 after
 * saying why. */
static int
scenario_open(struct server *sv, const char *name)
{
	struct sim_step_view v;
	char		 err[512];
	size_t		 k;

	if (sim_scenario_load(name, &sv->sc, err, sizeof err) != 0) {
		cmd_warnx("serve: -s: %s", err);
		return -1;
	}
	sv->sc_name = name;
	for (k = 0; sim_scenario_step(sv->sc, k, &v) == 0; k++) {
		if (v.kind != SIM_STEP_HOST)
			continue;
		cmd_warnx("serve: %s:%d: '%s' needs the simulator's own host "
		    "(urbscope sim); served, the host is the kernel that "
		    "attaches the device (plug, unplug, settle, wait and "
		    "inject are served)", name, v.line, v.command);
		return -1;
	}
	return 0;
}

static int
serve_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	struct server	*sv;
	struct pollfd	 pfd[1 + SERVE_MAX_CONNS];
	struct sigaction sa;
	const char	*address = args_get(a, 'a');
	const char	*port = args_get(a, 'p');
	char		*name, *args;
	int		 i, lfd, timeout, rc = EXIT_INPUT;

	(void)ce;
	if (a->argc == 0 && args_get(a, 's') == NULL) {
		cmd_warnx("serve: which device models? (e.g. disk:8M "
		    "keyboard, or -s SCENARIO)");
		return EXIT_USAGE;
	}
	if (a->argc > SERVE_MAX_DEVS) {
		cmd_warnx("serve: %d devices at most", SERVE_MAX_DEVS);
		return EXIT_USAGE;
	}
	if ((sv = calloc(1, sizeof *sv)) == NULL) {
		cmd_warnx("out of memory");
		return EXIT_INPUT;
	}
	sv->devnum = 2;
	for (i = 0; i < (int)a->nopt; i++)
		if (a->opt[i].ch == 'i' &&
		    serve_inject_opt(sv, a->opt[i].arg) != 0) {
			rc = EXIT_USAGE;
			goto out;
		}
	if (args_get(a, 's') != NULL &&
	    scenario_open(sv, args_get(a, 's')) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (args_get(a, 'w') != NULL) {
		struct cap_sink_opts o;
		char	 err[512];

		memset(&o, 0, sizeof o);
		o.if_name = "usbip";
		o.tsresol = 9;
		if (cap_sink_open(args_get(a, 'w'), NULL, &o, &sv->sink, err,
		    sizeof err) != 0) {
			cmd_warnx("serve: %s", err);
			goto out;
		}
	}
	for (i = 0; i < a->argc; i++) {
		if ((name = strdup(a->argv[i])) == NULL) {
			cmd_warnx("out of memory");
			goto out;
		}
		if ((args = strchr(name, ':')) != NULL)
			*args++ = '\0';
		rc = serve_plug(sv, i + 1, name, args != NULL ? args : "");
		free(name);
		if (rc != 0) {
			rc = EXIT_USAGE;
			goto out;
		}
		rc = EXIT_INPUT;
	}
	if ((lfd = serve_listen(address != NULL ? address : "127.0.0.1",
	    port != NULL ? port : "3240")) < 0)
		goto out;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = serve_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "urbscope: serving over USB/IP on %s port %s:",
	    address != NULL ? address : "127.0.0.1",
	    port != NULL ? port : "3240");
	for (i = 0; i < SERVE_MAX_DEVS; i++)
		if (sv->dev[i] != NULL)
			fprintf(stderr, " %s %s", usbip_dev_busid(sv->dev[i]),
			    usbip_dev_model(sv->dev[i])->ops->name);
	if (sv->sc != NULL)
		fprintf(stderr, "%s scenario %s", a->argc > 0 ? "," : "",
		    sv->sc_name);
	fprintf(stderr, "\n");
	/* -A: attached once the server listens, so a failure stops it */
	sv->attach = args_has(a, 'A');
	for (i = 0; sv->attach && i < SERVE_MAX_DEVS; i++) {
		if (sv->dev[i] == NULL)
			continue;
		if (vhci_attach(sv, i, &timeout) != 0)
			goto stop;
		fprintf(stderr, "urbscope: %s attached to vhci_hcd.0 port "
		    "%d\n", usbip_dev_busid(sv->dev[i]), timeout);
	}
	rc = 0;
	while (!serve_stop) {
		/* the attached devices run every millisecond */
		timeout = -1;
		for (i = 0; i < SERVE_MAX_DEVS; i++) {
			if (sv->dev[i] == NULL || sv->owner[i] == NULL ||
			    sv->unplugged[i])
				continue;
			timeout = 1;
			(void)usbip_dev_run(sv->dev[i], now_ns(),
			    &sv->owner[i]->out);
			/* an injected disconnect: the connection ends, as a
			 * device pulled out of a usbipd host ends it; vhci
			 * detaches the port itself */
			if (usbip_dev_gone(sv->dev[i]) &&
			    !sv->owner[i]->closing) {
				fprintf(stderr, "urbscope: %s disconnected (the "
				    "injected fault)\n",
				    usbip_dev_busid(sv->dev[i]));
				sv->owner[i]->closing = 1;
				sv->vport[i] = -1;
			}
		}
		if (sv->sc != NULL && scenario_run(sv, &timeout)) {
			fprintf(stderr, "urbscope: scenario %s done\n",
			    sv->sc_name);
			break;
		}
		pfd[0].fd = lfd;
		pfd[0].events = POLLIN;
		for (i = 0; i < sv->nconn; i++) {
			pfd[1 + i].fd = sv->conn[i].fd;
			pfd[1 + i].events = POLLIN | (sv->conn[i].out.len > 0 ||
			    sv->conn[i].closing ? POLLOUT : 0);
		}
		if (poll(pfd, (nfds_t)(1 + sv->nconn), timeout) < 0 &&
		    errno != EINTR)
			break;
		/* newest first: a closed connection's slot takes the last */
		for (i = sv->nconn - 1; i >= 0; i--) {
			if (pfd[1 + i].revents & (POLLIN | POLLHUP | POLLERR) &&
			    conn_read(sv, &sv->conn[i]) < 0)
				continue;
			if (sv->conn[i].out.len > 0 || sv->conn[i].closing)
				(void)conn_write(sv, &sv->conn[i]);
		}
		if (pfd[0].revents & POLLIN)
			serve_accept(sv, lfd);
	}
stop:
	vhci_detach(sv);
	while (sv->nconn > 0)
		conn_close(sv, &sv->conn[sv->nconn - 1], NULL);
	close(lfd);
	fprintf(stderr, "urbscope: %llu URBs served\n",
	    (unsigned long long)sv->urbs);
	if (rc != 0 || sv->sc_failed)
		rc = EXIT_INPUT;
out:
	for (i = 0; i < SERVE_MAX_DEVS; i++)
		usbip_dev_free(sv->dev[i]);
	if (sv->sink != NULL) {
		char	 err[512];

		if (cap_sink_close(sv->sink, err, sizeof err) != 0) {
			cmd_warnx("serve: %s", err);
			rc = EXIT_INPUT;
		}
	}
	sim_scenario_free(sv->sc);
	free(sv);
	return rc;
}

static const struct option serve_longopts[] = {
	{ "attach", no_argument, NULL, 'A' },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_serve_entry = {
	.name = "serve",
	.usage = "[-a ADDRESS] [-p PORT] [-i INJECT]... [-w FILE] [-A] "
	    "[-s SCENARIO] [MODEL[:ARGS]...]",
	.help = "serve device models over USB/IP to a real kernel's "
	    "vhci-hcd",
	.template = "Aa:i:p:s:w:",
	.longopts = serve_longopts,
	.lower = 0,
	.upper = -1,
	.missing = NULL,
	.extra = NULL,
	.usage_fn = serve_usage,
	.exec = serve_exec,
};
