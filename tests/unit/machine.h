/*
 * tests/unit/machine.h - a simulated machine for the core's tests: the
 * simulator's own (core/sim-machine.c) with one EHCI controller (bus 1),
 * with every URB record and driver event kept.  Included by one test file per
 * binary; everything is static (and may go unused).
 */
#ifndef TESTS_MACHINE_H
#define TESTS_MACHINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "hcd/emu-ehci.h"
#include "hcd/machine.h"
#include "samples/samples.h"

#define MACHINE_EPOCH	(1700000000ULL * 1000000000ULL)

/* One URB record as the sink saw it (data cut at 64 bytes). */
struct mrec {
	uint64_t	 id;
	uint8_t		 type;
	uint8_t		 xfer_type;
	uint8_t		 epnum;
	uint8_t		 devnum;
	uint8_t		 flag_setup;
	uint8_t		 setup[8];
	int32_t		 status;
	uint32_t	 len_urb;
	int64_t		 ts_ns;
	uint64_t	 seq;		/* order among records and events */
	uint32_t	 data_len;
	uint8_t		 data[64];
};

struct machine {
	struct sim	*sim;
	struct sim_machine *sm;
	struct dma_mem	*dma;		/* sm's, and its bus 1: */
	struct emu_ehci	*emu;
	struct usb_hcd	*hcd;
	struct mrec	*rec;
	size_t		 nrec, caprec;
	/* every record, encoded as usbmon header + data: for determinism */
	uint8_t		*bytes;
	size_t		 nbytes, capbytes;
	size_t		 nrules;		/* DRV_RULE events */
	char		 last_rule[64];
	size_t		 nlogs;			/* DRV_LOG events */
	struct mlog {
		uint64_t	 seq;
		char		 text[120];
	}		 log[256];		/* the last DRV_LOG lines */
	uint64_t	 seq;
};

static __attribute__((unused)) void
machine_bytes(struct machine *m, const void *p, size_t n)
{
	if (m->nbytes + n > m->capbytes) {
		m->capbytes = (m->nbytes + n) * 2;
		m->bytes = realloc(m->bytes, m->capbytes);
		if (m->bytes == NULL)
			abort();
	}
	memcpy(m->bytes + m->nbytes, p, n);
	m->nbytes += n;
}

static __attribute__((unused)) void
machine_urb(void *arg, const struct urb_rec *r)
{
	struct machine	*m = arg;
	struct mrec	*x;
	uint8_t		 hdr[64];
	char		 line[512];

	if (m->nrec == m->caprec) {
		m->caprec = m->caprec ? m->caprec * 2 : 256;
		m->rec = realloc(m->rec, m->caprec * sizeof *m->rec);
		if (m->rec == NULL)
			abort();
	}
	x = &m->rec[m->nrec++];
	memset(x, 0, sizeof *x);
	x->id = r->id;
	x->type = r->type;
	x->xfer_type = r->xfer_type;
	x->epnum = r->epnum;
	x->devnum = r->devnum;
	x->flag_setup = r->flag_setup;
	memcpy(x->setup, r->setup, 8);
	x->status = r->status;
	x->len_urb = r->len_urb;
	x->ts_ns = r->ts_ns;
	x->seq = m->seq++;
	x->data_len = r->data_len < 64 ? r->data_len : 64;
	if (r->data != NULL)
		memcpy(x->data, r->data, x->data_len);
	enc_usbmon_hdr(r, hdr);
	machine_bytes(m, hdr, sizeof hdr);
	/* MACHINE_LOG=1: records as usbmon text, events as dmesg lines */
	if (getenv("MACHINE_LOG") != NULL &&
	    dec_fmt_usbmon(r, line, sizeof line) >= 0)
		fprintf(stderr, "%s\n", line);
	if (r->data != NULL)
		machine_bytes(m, r->data, r->data_len);
}

static __attribute__((unused)) void
machine_event(void *arg, const struct drv_event *ev)
{
	struct machine	*m = arg;
	struct mlog	*l;

	if (ev->kind == DRV_RULE) {
		m->nrules++;
		snprintf(m->last_rule, sizeof m->last_rule, "%s",
		    ev->rule != NULL ? ev->rule : "");
	} else if (ev->kind == DRV_LOG && ev->text != NULL) {
		l = &m->log[m->nlogs++ % (sizeof m->log / sizeof m->log[0])];
		l->seq = m->seq;
		snprintf(l->text, sizeof l->text, "%s", ev->text);
	}
	m->seq++;
	if (getenv("MACHINE_LOG") != NULL && ev->text != NULL)
		fprintf(stderr, "%12.6f %s\n", (double)(ev->ts_ns -
		    (int64_t)MACHINE_EPOCH) / 1e9, ev->text);
}

static __attribute__((unused)) struct machine *
machine_new(void)
{
	struct machine	*m = calloc(1, sizeof *m);
	struct sim_sink	 sink;

	if (m == NULL)
		return NULL;
	sim_register(&sample_catalog);
	sink.urb = machine_urb;
	sink.event = machine_event;
	sink.arg = m;
	if ((m->sim = sim_new(MACHINE_EPOCH, &sink)) == NULL ||
	    (m->sm = sim_machine_new(m->sim, 1)) == NULL)
		return NULL;
	m->dma = m->sm->dma;
	m->emu = m->sm->bus[0].emu;
	m->hcd = m->sm->bus[0].hcd;
	return m;
}

static __attribute__((unused)) void
machine_free(struct machine *m)
{
	sim_machine_free(m->sm);
	usb_core_free(m->sim);
	sim_free(m->sim);
	free(m->rec);
	free(m->bytes);
	free(m);
}

static __attribute__((unused)) int
machine_plug(struct machine *m, int port, const char *model)
{
	return sim_machine_plug(m->sm, 1, port, model, NULL);
}

static __attribute__((unused)) void
machine_unplug(struct machine *m, int port)
{
	(void)sim_machine_unplug(m->sm, 1, port);
}

/* Let ms of virtual time pass (hub work, interrupts, timers). */
static __attribute__((unused)) void
machine_run(struct machine *m, unsigned int ms)
{
	sim_run(m->sim, m->sim->now_ns + (uint64_t)ms * SIM_MS);
}

/* The sequence number of the last log line containing text, or 0. */
static __attribute__((unused)) uint64_t
machine_logged(const struct machine *m, const char *text)
{
	size_t	 i, n = sizeof m->log / sizeof m->log[0];

	for (i = m->nlogs; i > 0 && m->nlogs - i < n; i--) {
		if (strstr(m->log[(i - 1) % n].text, text) != NULL)
			return m->log[(i - 1) % n].seq;
	}
	return 0;
}

static __attribute__((unused)) struct usb_device *
machine_device(struct machine *m, int port)
{
	return sim_machine_device(m->sm, 1, port);
}

#endif /* TESTS_MACHINE_H */
