/*
 * hcd/sim-source.c - the simulator as a capture source: "sim:NAME" runs a
 * built-in scenario (or "sim:FILE", or a file sim_probe finds to be one,
 * a scenario file) on a simulated machine and yields the URB records its
 * usbmon hooks produce and the driver events the core reports, in one
 * queue in the order they happened.  A DRV_SUBMIT event is put just
 * before the 'S' record of its URB when the core reported the record
 * first, so readers see the call, then its record (with the comment a
 * pcapng file gives it: cap_submit_comment).  The machine runs in
 * slices of virtual time, only as far as the reader needs: memory stays
 * small however long the scenario runs.
 *
 * With a bus log (sim_bus_log), every transaction the emulated controllers
 * execute is also written as the packets a sniffer on the bus would see
 * (token, data, handshake; LINKTYPE_USB_2_0_HIGH_SPEED, the emulated EHCI
 * being high-speed only), so the wire view of a run opens in Wireshark's
 * usbll dissector and in `urbscope read`.
 *
 * Paced (sim_source_pace, for the TUI's demo), the source is live: a record
 * is handed out only once the wall clock since the first read has caught
 * up with its virtual time, and the reader gets CAP_AGAIN until then, so
 * the traffic appears as it would on a real bus.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/capture.h"
#include "core/sim.h"
#include "core/usb.h"
#include "hcd/devmodel.h"
#include "hcd/emu-ehci.h"
#include "hcd/machine.h"

#define SIM_EPOCH_NS	(1700000000ULL * 1000000000ULL)	/* fixed: reproducible */
#define SIM_SLICE_NS	(10 * SIM_MS)
#define SIM_PACE_WAIT_NS (10 * 1000000LL)	/* longest sleep in next */


/* A record or event kept until the reader takes it. */
struct qrec {
	int		 what;		/* CAP_URB or CAP_EVENT */
	struct urb_rec	 r;
	struct drv_event ev;
	struct urb_iso	 iso[URB_ISO_MAX];
	uint8_t		*data;		/* record's data, event's strings */
	char		 cmt[CAP_SUBMIT_COMMENT_MAX]; /* an 'S': its submit */
	struct qrec	*next;
};

struct sim_priv {
	struct sim	*sim;
	struct sim_machine *m;
	struct sim_scenario *sc;
	struct qrec	*head, *tail;
	struct qrec	*last;		/* returned last; freed on next */
	struct qrec	*mark;		/* the last 'S' record queued */
	struct qrec	*mark_prev;	/* the node before it, or NULL */
	int		 finished;
	int		 paced;		/* hand records out in real time */
	int64_t		 wall0;		/* monotonic ns of the first read */
	/* the bus log: its sink, packets put together, the last stamp */
	struct cap_sink	*bus;
	struct cap_usbll *ll;
	int64_t		 bus_ns;
	int		 bus_failed;
};

/* The bus log of the next simulation opened (sim_bus_log). */
static char	*bus_log_path;

int
sim_bus_log(const char *path)
{
	char	*p = NULL;

	if (path != NULL && (p = strdup(path)) == NULL)
		return -UE_NOMEM;
	free(bus_log_path);
	bus_log_path = p;
	return 0;
}

/* One packet into the bus log, at ts or after the one before. */
static void
bus_packet(struct sim_priv *p, int64_t ts, const uint8_t *pkt, size_t n)
{
	struct urb_rec	 r;

	if (p->bus_failed)
		return;
	(void)cap_usbll_packet(p->ll, pkt, (uint32_t)n, &r);
	/* 480 Mb/s: about 17 ns a byte, and a gap between packets */
	if (ts < p->bus_ns)
		ts = p->bus_ns;
	r.ts_ns = ts;
	r.ts_sec = ts / 1000000000;
	r.ts_usec = (int32_t)(ts % 1000000000 / 1000);
	p->bus_ns = ts + 100 + 17 * (int64_t)n;
	if (cap_sink_write(p->bus, &r) < 0)
		p->bus_failed = 1;
}

/* A transaction of the emulated controller as its packets (USB 2.0
 * 8.5): the token, the data, the handshake (none when nobody answered). */
static void
bus_xact(void *arg, const struct emu_xact *x)
{
	struct sim_priv	*p = arg;
	uint8_t		 pkt[3 + 1024], hs;
	int64_t		 ts = (int64_t)x->ts_ns;
	size_t		 n;

	n = enc_usbll_token(pkt, x->pid, x->addr, x->ep);
	bus_packet(p, ts, pkt, n);
	if (x->pid != DM_PID_IN) {
		n = x->len <= 1024 ? x->len : 1024;
		bus_packet(p, ts, pkt, enc_usbll_data(pkt, x->data_pid,
		    x->data, n));
	} else if (x->result >= 0) {
		n = (size_t)x->result <= 1024 ? (size_t)x->result : 1024;
		bus_packet(p, ts, pkt, enc_usbll_data(pkt, x->data_pid,
		    x->data, n));
	}
	switch (x->result) {
	case DM_NAK:
		hs = USBLL_PID_NAK;
		break;
	case DM_STALL:
		hs = USBLL_PID_STALL;
		break;
	case DM_BABBLE:
	case DM_XACTERR:
	case DM_NODEV:
		return;			/* no handshake: a timeout */
	default:
		hs = USBLL_PID_ACK;	/* the device's, or the host's */
		break;
	}
	bus_packet(p, ts, &hs, 1);
}

/* Open the bus log named by sim_bus_log, if any. */
static int
bus_open(struct cap_source *src)
{
	struct sim_priv	*p = src->priv;
	struct cap_sink_opts opts;
	char		 err[400];
	int		 i;

	if (bus_log_path == NULL)
		return 0;
	memset(&opts, 0, sizeof opts);
	opts.linktype = 295;		/* LINKTYPE_USB_2_0_HIGH_SPEED */
	opts.if_name = "ehci-bus";
	if ((p->ll = cap_usbll_new(295)) == NULL)
		return -UE_NOMEM;
	if (cap_sink_open(bus_log_path, NULL, &opts, &p->bus, err,
	    sizeof err) < 0) {
		snprintf(src->err, sizeof src->err, "bus log: %s", err);
		return -UE_OPEN;
	}
	for (i = 0; i < p->m->nbus; i++)
		emu_ehci_set_xact_log(p->m->bus[i].emu, bus_xact, p);
	return 0;
}

static void
qrec_free(struct qrec *q)
{
	if (q != NULL) {
		free(q->data);
		free(q);
	}
}

/* The sink: copy the record, its descriptors and data. */
static void
sim_urb(void *arg, const struct urb_rec *r)
{
	struct sim_priv	*p = arg;
	struct qrec	*q;

	if ((q = calloc(1, sizeof *q)) == NULL)
		return;
	q->what = CAP_URB;
	q->r = *r;
	/* a run in memory: no file, no offset (sim -w's file has them) */
	q->r.flags |= REC_F_NOOFFSET;
	if (r->niso > 0) {
		memcpy(q->iso, r->iso, (r->niso > URB_ISO_MAX ? URB_ISO_MAX :
		    r->niso) * sizeof q->iso[0]);
		q->r.iso = q->iso;
	}
	if (r->data_len > 0) {
		if ((q->data = malloc(r->data_len)) == NULL) {
			free(q);
			return;
		}
		memcpy(q->data, r->data, r->data_len);
		q->r.data = q->data;
	}
	if (r->type == 'S') {
		p->mark = q;
		p->mark_prev = p->tail;
	}
	if (p->tail != NULL)
		p->tail->next = q;
	else
		p->head = q;
	p->tail = q;
}

/* Copy s into *dst at *p (advancing it); NULL stays NULL. */
static void
copy_str(const char **dst, const char *s, char **p)
{
	size_t	 n;

	if (s == NULL)
		return;
	n = strlen(s) + 1;
	memcpy(*p, s, n);
	*dst = *p;
	*p += n;
}

/* The sink for driver events: copy the event and its strings. */
static void
sim_event(void *arg, const struct drv_event *ev)
{
	struct sim_priv	*p = arg;
	struct qrec	*q;
	size_t		 n = 0;
	char		*d;

	n += ev->driver != NULL ? strlen(ev->driver) + 1 : 0;
	n += ev->func != NULL ? strlen(ev->func) + 1 : 0;
	n += ev->rule != NULL ? strlen(ev->rule) + 1 : 0;
	n += ev->text != NULL ? strlen(ev->text) + 1 : 0;
	if ((q = calloc(1, sizeof *q)) == NULL)
		return;
	if (n > 0 && (q->data = malloc(n)) == NULL) {
		free(q);
		return;
	}
	q->what = CAP_EVENT;
	q->ev = *ev;
	d = (char *)q->data;
	copy_str(&q->ev.driver, ev->driver, &d);
	copy_str(&q->ev.func, ev->func, &d);
	copy_str(&q->ev.rule, ev->rule, &d);
	copy_str(&q->ev.text, ev->text, &d);

	/*
	 * usb_submit_urb reports its event after the HCD's 'S' record (and
	 * an 'E' when the HCD refused it); put the event before them.  Both
	 * come from one call, so the reader cannot have taken the mark.  One
	 * call makes one 'S' at most: the event takes the mark, and a submit
	 * refused before the HCD (-EBUSY for an URB in flight: no 'S', as
	 * usb_hcd_submit_urb in drivers/usb/core/hcd.c is never reached)
	 * finds none and stays where it happened.
	 */
	if (ev->kind == DRV_SUBMIT && p->mark != NULL &&
	    p->mark->r.id == ev->urb_id && p->mark->r.ts_ns == ev->ts_ns) {
		/* the comment sim -w's file gives the 'S' (ng_cmt_put) */
		cap_submit_comment(ev, p->mark->cmt, sizeof p->mark->cmt);
		p->mark->r.comments = p->mark->cmt;
		p->mark->r.ncomments = 1;
		q->next = p->mark;
		if (p->mark_prev != NULL)
			p->mark_prev->next = q;
		else
			p->head = q;
		p->mark = p->mark_prev = NULL;
		return;
	}
	if (p->tail != NULL)
		p->tail->next = q;
	else
		p->head = q;
	p->tail = q;
}

/*
 * "sim:SCENARIO", or a file that is a scenario: named .scn, or text
 * whose first command is a scenario's (a capture's magic wins over
 * both).  Standard input is never one: the scenario is read by name.
 */
static int
sim_probe(const char *name, const uint8_t *head, size_t n)
{
	size_t	 len = strlen(name);

	if (strncmp(name, "sim:", 4) == 0)
		return 100;
	if (head == NULL || strcmp(name, "-") == 0)
		return 0;
	if (len > 4 && strcmp(name + len - 4, ".scn") == 0)
		return 20;
	return sim_scenario_sniff(head, n) ? 10 : 0;
}

static int
sim_open(struct cap_source *src)
{
	struct sim_priv	*p = src->priv;
	struct sim_sink	 sink = { sim_urb, sim_event, p };
	const char	*what = strncmp(src->name, "sim:", 4) == 0 ?
			    src->name + 4 : src->name;
	int		 rc;

	if ((rc = sim_scenario_load(what, &p->sc, src->err,
	    sizeof src->err)) != 0)
		return rc == -ENOMEM ? -UE_NOMEM : rc == -EINVAL ?
		    -UE_SYNTAX : -UE_OPEN;
	if ((p->sim = sim_new(SIM_EPOCH_NS, &sink)) == NULL ||
	    (p->m = sim_machine_new(p->sim, 1)) == NULL) {
		snprintf(src->err, sizeof src->err, "%s: cannot build the "
		    "simulated machine", src->name);
		return -UE_NOMEM;
	}
	src->linktype = 220;
	if ((rc = bus_open(src)) != 0)
		return rc;
	sim_scenario_start(p->sc, p->m);
	return 0;
}

/*
 * Paced: is the head record due?  Sleeps a little (at most
 * SIM_PACE_WAIT_NS) when it is due soon, so a reader polling in a loop
 * does not spin.
 */
static int
sim_due(struct sim_priv *p)
{
	const struct qrec *q = p->head;
	int64_t		 ts, ahead;
	struct timespec	 w;

	ts = q->what == CAP_EVENT ? q->ev.ts_ns : q->r.ts_ns;
	ahead = (ts - (int64_t)SIM_EPOCH_NS) - (cap_clock_ns(CLOCK_MONOTONIC) - p->wall0);
	if (ahead <= 0)
		return 1;
	if (ahead > SIM_PACE_WAIT_NS)
		ahead = SIM_PACE_WAIT_NS;
	w.tv_sec = 0;
	w.tv_nsec = (long)ahead;
	nanosleep(&w, NULL);
	ahead = (ts - (int64_t)SIM_EPOCH_NS) - (cap_clock_ns(CLOCK_MONOTONIC) - p->wall0);
	return ahead <= 0;
}

/*
 * Hand the records out in real time: virtual time since the start maps
 * to wall time since the first read.  Makes the source live.  Returns 0,
 * or -UE_USAGE when src is not a simulation.
 */
int
sim_source_pace(struct cap_source *src)
{
	struct sim_priv	*p = src->priv;

	if (src->ops != &sim_cap_source)
		return -UE_USAGE;
	p->paced = 1;
	src->live = 1;
	return 0;
}

static int
sim_next(struct cap_source *src, struct urb_rec *r, struct drv_event *ev)
{
	struct sim_priv	*p = src->priv;
	uint64_t	 before;

	qrec_free(p->last);
	p->last = NULL;
	if (p->paced && p->wall0 == 0)
		p->wall0 = cap_clock_ns(CLOCK_MONOTONIC);
	p->mark = p->mark_prev = NULL;	/* the reader takes nodes now */
	while (p->head == NULL && !p->finished) {
		before = p->sim->now_ns;
		sim_run(p->sim, p->sim->now_ns + SIM_SLICE_NS);
		if (p->sim->stop || (p->sim->now_ns == before &&
		    p->head == NULL)) {
			/*
			 * The scenario is over: take the controllers down
			 * as a module unload would, so the URBs still in
			 * flight (hub status, interrupt polls) are given
			 * back (-ESHUTDOWN) and recorded too.
			 */
			sim_machine_free(p->m);
			p->m = NULL;
			p->finished = 1;
		}
	}
	if (p->head == NULL) {
		if (sim_scenario_error(p->sc) != NULL) {
			snprintf(src->err, sizeof src->err, "%s",
			    sim_scenario_error(p->sc));
			return -UE_IO;
		}
		return CAP_END;
	}
	if (p->paced && !sim_due(p))
		return CAP_AGAIN;
	p->last = p->head;
	p->head = p->head->next;
	if (p->head == NULL)
		p->tail = NULL;
	if (p->last->what == CAP_EVENT) {
		*ev = p->last->ev;
		return CAP_EVENT;
	}
	*r = p->last->r;
	if (r->niso > 0)
		r->iso = p->last->iso;
	return CAP_URB;
}

static int
sim_stats(struct cap_source *src, struct cap_stats *st)
{
	struct sim_priv	*p = src->priv;

	st->received = src->recno;
	st->dropped = 0;
	st->method = p->paced ? "simulation, real time" : "simulation";
	return 0;
}

static void
sim_close(struct cap_source *src)
{
	struct sim_priv	*p = src->priv;
	struct qrec	*q, *n;
	char		 err[400];

	if (p->bus != NULL) {
		/* (a failed write is said at the end, the capture done) */
		if (cap_sink_close(p->bus, err, sizeof err) < 0 ||
		    p->bus_failed)
			fprintf(stderr, "urbscope: bus log %s: %s\n",
			    bus_log_path, p->bus_failed ? "write failed" :
			    err);
		p->bus = NULL;
	}
	cap_usbll_free(p->ll);
	p->ll = NULL;
	sim_machine_free(p->m);
	sim_scenario_free(p->sc);
	if (p->sim != NULL)
		usb_core_free(p->sim);
	sim_free(p->sim);
	qrec_free(p->last);
	for (q = p->head; q != NULL; q = n) {
		n = q->next;
		qrec_free(q);
	}
}

const struct cap_source_ops sim_cap_source = {
	.name = "sim",
	.desc = "the simulator: sim:SCENARIO (a built-in name or a "
	    "scenario file), or a scenario file itself",
	.probe = sim_probe,
	.priv_size = sizeof(struct sim_priv),
	.open = sim_open,
	.next = sim_next,
	.close = sim_close,
	.stats = sim_stats,
};
