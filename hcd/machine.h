/*
 * hcd/machine.h - a simulated machine and what runs on it: EHCI
 * controllers with their emulated hardware (hcd/sim-machine.c), the
 * scenario language (hcd/sim-scenario.c) and the "sim:SCENARIO" capture
 * source (hcd/sim-source.c).
 *
 * The library names no device model and no driver: the program that
 * builds machines hands in a catalog with sim_register() (urbscope's is
 * samples/samples.c), the way Linux's usbmon hands its ops to the core
 * with usb_mon_register().
 */
#ifndef HCD_MACHINE_H
#define HCD_MACHINE_H

#include "capture/capture.h"
#include "core/sim.h"
#include "core/usb.h"
#include "hcd/devmodel.h"

/* A driver scenarios can load ("load NAME" calls usb_register on it). */
struct sim_driver {
	const char	*name;
	struct usb_driver *drv;
	const char	*help;		/* one line for listings */
};

/* What machines can hold. */
struct sim_catalog {
	const struct usb_devmodel_ops *const *models;	/* NULL-terminated */
	const struct sim_driver *drivers;	/* ends with a NULL name */
};

/*
 * Hand the catalog to the machine and the scenarios, and add the
 * "sim:SCENARIO" source to capture's registry.  Once, before anything
 * simulated is built or opened.
 */
void		 sim_register(const struct sim_catalog *cat);
/* The model or driver of the catalog called name, or NULL. */
const struct usb_devmodel_ops *sim_model_find(const char *name);
const struct sim_driver *sim_driver_find(const char *name);
const struct sim_catalog *sim_catalog(void);

/*
 * Hand a "sim:" source's records out in real time: virtual time since
 * the start maps to wall time since the first read.  Makes the source
 * live.  Returns 0, or -UE_USAGE when src is not a simulation.
 */
int		 sim_source_pace(struct cap_source *src);
/*
 * The next "sim:" source opened also writes the packets of every bus
 * transaction to path (pcap or pcapng by its extension; link type 295,
 * LINKTYPE_USB_2_0_HIGH_SPEED), as a sniffer on the bus would see them;
 * NULL: no more.  0, or -UE_NOMEM.
 */
int		 sim_bus_log(const char *path);
/* The "sim:" source (hcd/sim-source.c) sim_register adds. */
extern const struct cap_source_ops sim_cap_source;

/* ------------------------------------------------------------------------
 * A machine (hcd/sim-machine.c): EHCI controllers with their emulated
 * hardware, DMA memory, and devices plugged into their ports.
 */
struct usb_hcd;
struct emu_ehci;
struct usb_device;

#define SIM_MAX_BUSES	4
#define SIM_MAX_PORTS	8	/* no fewer than EMU_EHCI_PORTS */

struct sim_machine {
	struct sim	*sim;
	struct dma_mem	*dma;
	int		 nbus;
	struct {
		struct emu_ehci	*emu;
		struct usb_hcd	*hcd;
		/* "BUS-PORT", what a model plugged there says is
		 * prefixed with (sim_machine_plug) */
		char		 port[SIM_MAX_PORTS + 1][24];
	} bus[SIM_MAX_BUSES];
};

/* A machine with nbus EHCI controllers (buses 1..nbus), running. */
struct sim_machine *sim_machine_new(struct sim *s, int nbus);
void		 sim_machine_free(struct sim_machine *m);
/* Plug device model `model` (args for its init) into bus/port. */
int		 sim_machine_plug(struct sim_machine *m, int bus, int port,
		     const char *model, const char *args);
int		 sim_machine_unplug(struct sim_machine *m, int bus, int port);
/* The device enumerated on bus/port, or NULL. */
struct usb_device *sim_machine_device(struct sim_machine *m, int bus,
		     int port);
/* Inject a fault into the model on bus/port, at once or armed
 * (hcd/devmodel.h dm_inject_spec). */
int		 sim_machine_inject(struct sim_machine *m, int bus, int port,
		     const struct dm_inject_spec *s);
/* 1 when the model on bus/port has a fault armed, not gone off yet. */
int		 sim_machine_armed(struct sim_machine *m, int bus, int port);

/* ------------------------------------------------------------------------
 * Scenarios (hcd/sim-scenario.c): what happens, one command a line:
 *
 *	plug PORT MODEL [ARGS]	 plug a device model into a port of bus 1
 *	unplug PORT
 *	settle PORT		 wait until the device there is configured
 *	wait MS			 let MS virtual milliseconds pass
 *	inject PORT FAULT [EP] [COUNT]	stall, babble, xacterr, disconnect
 *	disk-read PORT LBA BLOCKS	 SCSI READ(10) through bulk-only
 *	disk-write PORT LBA BLOCKS	 SCSI WRITE(10) of a test pattern
 *	bulk PORT BYTES		 write BYTES to a loopback device, read back
 *	load DRIVER		 usb_register a driver of the catalog
 *				 (usb-skeleton, keyboard, buggy in urbscope)
 *	unload DRIVER		 usb_deregister it
 *	profile 2.6.0|modern	 the core's behaviour profile (core/vfs.h)
 *	open NODE		 open a device node ("/dev/usb/skel0")
 *	write NODE TEXT		 write TEXT to it
 *	read NODE BYTES [EXPECT] read up to BYTES; EXPECT: what must come
 *	close NODE
 *
 * '#' starts a comment.  Built-in scenarios have names ("enumerate").
 */
struct sim_scenario;

/* The text of a built-in scenario, or NULL. */
const char	*sim_scenario_builtin(const char *name);
/* Names of the built-ins, NULL-terminated. */
extern const char *const sim_scenario_names[];
/* Does text (n bytes, the start of a file) read as a scenario: printable,
 * its first line that is not blank or a comment begins with a command? */
int		 sim_scenario_sniff(const uint8_t *text, size_t n);
/* Parse text (name for messages).  On error returns -EINVAL with
 * "NAME:LINE: what" in err. */
int		 sim_scenario_parse(const char *text, const char *name,
		     struct sim_scenario **out, char *err, size_t errlen);
void		 sim_scenario_free(struct sim_scenario *sc);
/* A built-in scenario by name, or else a file, parsed.  0; -ENOENT (no
 * such built-in or file), -EINVAL (what it says is wrong) or -ENOMEM,
 * with the reason in err. */
int		 sim_scenario_load(const char *what,
		     struct sim_scenario **out, char *err, size_t errlen);
/* Queue the scenario on the machine; it sets m->sim->stop at its end. */
void		 sim_scenario_start(struct sim_scenario *sc,
		     struct sim_machine *m);
/* Errors of the steps (I/O failures, a device not there), for reports:
 * NULL when all went well. */
const char	*sim_scenario_error(const struct sim_scenario *sc);

/*
 * A scenario's steps for a runner of its own (`urbscope serve`, where the
 * host is a real kernel and time is the wall clock's): step i of sc into
 * *v, valid while sc is.  Returns 0, or -1 past the last step.  Steps
 * other than the device's own (plug, unplug, settle, wait, inject) come
 * as SIM_STEP_HOST, with their command's name: they need the
 * simulator's host.
 */
enum sim_step_kind {
	SIM_STEP_PLUG,
	SIM_STEP_UNPLUG,
	SIM_STEP_SETTLE,
	SIM_STEP_WAIT,
	SIM_STEP_INJECT,
	SIM_STEP_HOST,
};

struct sim_step_view {
	enum sim_step_kind kind;
	const char	*command;	/* "plug", "disk-read", ... */
	int		 line;
	int		 port;		/* plug, unplug, settle, inject */
	long		 ms;		/* wait */
	const char	*model;		/* plug */
	const char	*args;		/* plug: "" when none */
	const struct dm_inject_spec *inject;
};

int		 sim_scenario_step(const struct sim_scenario *sc, size_t i,
		     struct sim_step_view *v);

#endif /* HCD_MACHINE_H */
