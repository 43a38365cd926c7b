/*
 * hcd/sim-machine.c - assemble a simulated machine: DMA memory, emulated
 * EHCI controllers driven by the real EHCI driver, and device models
 * plugged into their ports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "hcd/ehci.h"
#include "hcd/emu-ehci.h"
#include "hcd/machine.h"

#define SIM_DMA_SIZE	(64u << 20)	/* 64 MiB of "physical" memory */

/* What machines can hold: handed in once by the program (sim_register). */
static const struct sim_catalog *catalog;

void
sim_register(const struct sim_catalog *cat)
{
	catalog = cat;
	(void)cap_source_register(&sim_cap_source);
}

const struct sim_catalog *
sim_catalog(void)
{
	return catalog;
}

const struct usb_devmodel_ops *
sim_model_find(const char *name)
{
	size_t	 i;

	for (i = 0; catalog != NULL && catalog->models[i] != NULL; i++) {
		if (strcmp(catalog->models[i]->name, name) == 0)
			return catalog->models[i];
	}
	return NULL;
}

const struct sim_driver *
sim_driver_find(const char *name)
{
	const struct sim_driver *d;

	for (d = catalog != NULL ? catalog->drivers : NULL; d != NULL &&
	    d->name != NULL; d++) {
		if (strcmp(d->name, name) == 0)
			return d;
	}
	return NULL;
}

struct sim_machine *
sim_machine_new(struct sim *s, int nbus)
{
	struct sim_machine *m;
	int		 i;

	if (nbus < 1 || nbus > SIM_MAX_BUSES)
		return NULL;
	if ((m = calloc(1, sizeof *m)) == NULL)
		return NULL;
	m->sim = s;
	if ((m->dma = dma_mem_new(SIM_DMA_SIZE)) == NULL)
		goto fail;
	for (i = 0; i < nbus; i++) {
		m->bus[i].emu = emu_ehci_new(s, m->dma, EMU_EHCI_PORTS);
		if (m->bus[i].emu == NULL)
			goto fail;
		m->bus[i].hcd = usb_create_hcd(s, &ehci_hc_driver,
		    &emu_ehci_mmio, m->bus[i].emu, &emu_ehci_hw, m->dma,
		    i + 1);
		if (m->bus[i].hcd == NULL)
			goto fail;
		m->nbus = i + 1;
		if (usb_add_hcd(m->bus[i].hcd) != 0)
			goto fail;
	}
	return m;
fail:
	sim_machine_free(m);
	return NULL;
}

void
sim_machine_free(struct sim_machine *m)
{
	struct usb_devmodel *dm;
	int		 i, p;

	if (m == NULL)
		return;
	for (i = m->nbus - 1; i >= 0; i--) {
		if (m->bus[i].hcd != NULL) {
			usb_remove_hcd(m->bus[i].hcd);
			usb_put_hcd(m->bus[i].hcd);
		}
		if (m->bus[i].emu != NULL) {
			for (p = 1; p <= EMU_EHCI_PORTS; p++) {
				if ((dm = emu_ehci_detach(m->bus[i].emu, p)) !=
				    NULL)
					dm_destroy(dm);
			}
			emu_ehci_free(m->bus[i].emu);
		}
	}
	dma_mem_free(m->dma);
	free(m);
}

static struct emu_ehci *
machine_emu(struct sim_machine *m, int bus, int port)
{
	if (bus < 1 || bus > m->nbus || port < 1 || port > EMU_EHCI_PORTS)
		return NULL;
	return m->bus[bus - 1].emu;
}

/*
 * What a model says (dm_note: a replay's divergences): a log event of
 * "device", "BUS-PORT text" (as `urbscope serve` says it on stderr), of
 * that bus, in the timeline beside the drivers' lines.
 */
static void
machine_note(void *arg, const char *text)
{
	struct sim	*s = sim_current;
	struct drv_event ev;
	char		 line[600];
	const char	*port = arg;

	if (s == NULL)
		return;
	snprintf(line, sizeof line, "%s %s", port, text);
	memset(&ev, 0, sizeof ev);
	ev.ts_ns = (int64_t)(s->epoch_ns + s->now_ns);
	ev.kind = DRV_LOG;
	ev.busnum = (uint16_t)atoi(port);
	ev.intf = -1;
	ev.minor = -1;
	ev.driver = "device";
	ev.text = line;
	sim_emit_event(s, &ev);
}

_Static_assert(SIM_MAX_PORTS >= EMU_EHCI_PORTS, "a name for every port");

int
sim_machine_plug(struct sim_machine *m, int bus, int port,
    const char *model, const char *args)
{
	struct emu_ehci	*e;
	struct usb_devmodel *dm;
	char		*name;
	int		 rc;

	if ((e = machine_emu(m, bus, port)) == NULL)
		return -EINVAL;
	name = m->bus[bus - 1].port[port];
	snprintf(name, sizeof m->bus[bus - 1].port[port], "%d-%d", bus, port);
	if ((dm = dm_create_noted(model, args, machine_note, name)) == NULL)
		return -ENOENT;
	if ((rc = emu_ehci_attach(e, port, dm)) != 0) {
		dm_destroy(dm);
		return rc;
	}
	return 0;
}

int
sim_machine_unplug(struct sim_machine *m, int bus, int port)
{
	struct emu_ehci	*e;
	struct usb_devmodel *dm;

	if ((e = machine_emu(m, bus, port)) == NULL)
		return -EINVAL;
	if ((dm = emu_ehci_detach(e, port)) == NULL)
		return -ENODEV;
	/* The model must outlive the hub driver noticing: the emulator
	 * no longer reaches it, so it can go now. */
	dm_destroy(dm);
	return 0;
}

struct usb_device *
sim_machine_device(struct sim_machine *m, int bus, int port)
{
	struct usb_device *rh;

	if (machine_emu(m, bus, port) == NULL)
		return NULL;
	rh = m->bus[bus - 1].hcd->self.root_hub;
	if (rh == NULL || port > rh->maxchild || port > USB_MAXCHILDREN)
		return NULL;
	return rh->children[port - 1];
}

int
sim_machine_inject(struct sim_machine *m, int bus, int port,
    const struct dm_inject_spec *s)
{
	struct emu_ehci	*e;
	struct usb_devmodel *dm;

	if ((e = machine_emu(m, bus, port)) == NULL)
		return -EINVAL;
	/* Detach and re-attach would be a replug: ask the emulator. */
	if ((dm = emu_ehci_port_device(e, port)) == NULL)
		return -ENODEV;
	dm_inject_spec(dm, s);
	return 0;
}

int
sim_machine_armed(struct sim_machine *m, int bus, int port)
{
	struct emu_ehci	*e;
	struct usb_devmodel *dm;

	if ((e = machine_emu(m, bus, port)) == NULL ||
	    (dm = emu_ehci_port_device(e, port)) == NULL)
		return 0;
	return dm->armed.on != DM_ON_NOW;
}
