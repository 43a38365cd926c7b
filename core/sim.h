/*
 * core/sim.h - the simulated machine: one thread, a virtual clock in
 * nanoseconds, timers, deferred work, interrupt lines and the execution
 * context (task / interrupt / atomic) the core checks drivers against.
 *
 * Deterministic: the same scenario gives the same records byte for byte.
 * The clock advances in 125 us microframes while any controller has work
 * (sim_hw.busy), and jumps straight to the next timer when none has.
 *
 * "Sleeping" kernel calls (msleep, usb_control_msg, usb_kill_urb) call
 * sim_wait(), which runs the machine - hardware, interrupts, timers, but
 * not deferred work - until their condition holds.  Deferred work (the hub
 * driver's port handling, scenario steps) runs only from the top-level
 * loop, in task context, one item at a time, as a kernel thread would.
 *
 * The kernel API has no context argument, so the running simulation is
 * one global, sim_current, set by sim_new() - the only global of core/.
 */
#ifndef CORE_SIM_H
#define CORE_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"

#define SIM_UFRAME_NS	125000ULL	/* USB 2.0 microframe */
#define SIM_MS		1000000ULL

enum sim_ctx {
	SIM_TASK = 0,		/* may sleep */
	SIM_IRQ,		/* hard interrupt / completion handler */
	SIM_SOFTIRQ,		/* timer callback */
};

/* A piece of hardware the machine clocks: an emulated host controller. */
struct sim_hw_ops {
	const char	*name;
	/* Advance one microframe: run schedules, move the clock of ports. */
	void		 (*uframe)(void *hw);
	/* Non-zero while it has something to do in the coming microframes
	 * (a schedule with active work, a port reset in progress). */
	int		 (*busy)(void *hw);
	/* Level of its interrupt line. */
	int		 (*irq_pending)(void *hw);
};

struct sim_hw {
	const struct sim_hw_ops *ops;
	void		*hw;
	/* Called in SIM_IRQ context while irq_pending() is true. */
	void		 (*irq_handler)(void *arg);
	void		*irq_arg;
	struct sim_hw	*next;
};

struct sim_timer {
	uint64_t	 expires_ns;
	void		 (*fn)(void *arg);	/* runs in SIM_SOFTIRQ */
	void		*arg;
	int		 pending;
	uint64_t	 seq;			/* ties broken by arming order */
	struct sim_timer *next;
};

struct sim_work {
	void		 (*fn)(void *arg);	/* runs in SIM_TASK */
	void		*arg;
	int		 queued;
	struct sim_work	*next;
};

/*
 * What the machine reports: every URB record (the usbmon hooks) and every
 * driver event, in time order.  The callbacks copy what they keep.
 */
struct sim_sink {
	void		 (*urb)(void *arg, const struct urb_rec *r);
	void		 (*event)(void *arg, const struct drv_event *ev);
	void		*arg;
};

struct sim {
	uint64_t	 now_ns;
	uint64_t	 epoch_ns;	/* wall-clock time of now_ns == 0 */
	enum sim_ctx	 ctx;
	int		 atomic;	/* emulated spinlocks held */
	int		 wait_depth;	/* nested sim_wait()s */
	struct sim_hw	*hw;
	struct sim_timer *timers;	/* sorted by expiry */
	uint64_t	 timer_seq;
	struct sim_work	*work_head, *work_tail;
	struct sim_sink	 sink;
	uint64_t	 records;	/* URB records reported */
	int		 stop;		/* sim_run() returns */
	void		*core;		/* core/ state: buses, drivers, minors */
};

extern struct sim *sim_current;

/* Task context with no spinlock held: where code may sleep. */
static inline int
sim_may_sleep(const struct sim *s)
{
	return s->ctx == SIM_TASK && s->atomic == 0;
}

/* A new machine at virtual time 0; becomes sim_current. */
struct sim	*sim_new(uint64_t epoch_ns, const struct sim_sink *sink);
void		 sim_free(struct sim *s);

void		 sim_add_hw(struct sim *s, struct sim_hw *hw);
void		 sim_remove_hw(struct sim *s, struct sim_hw *hw);

/* Arm (or re-arm) a timer at an absolute virtual time. */
void		 sim_timer_add(struct sim *s, struct sim_timer *t,
		     uint64_t expires_ns);
void		 sim_timer_del(struct sim *s, struct sim_timer *t);
/* Queue work for the top-level loop (no-op if already queued). */
void		 sim_work_queue(struct sim *s, struct sim_work *w);
/* Take queued work off the list; 1 if it was queued. */
int		 sim_work_cancel(struct sim *s, struct sim_work *w);

/*
 * Run the machine until done(arg) returns non-zero or deadline_ns
 * (absolute; 0 = none) passes.  Task context only.  Returns 0 when done,
 * -ETIMEDOUT at the deadline, -EDEADLK when nothing can ever happen
 * (no busy hardware, no timer, condition false, no deadline).
 */
int		 sim_wait(struct sim *s, int (*done)(void *), void *arg,
		     uint64_t deadline_ns);

/*
 * The top-level loop: run work, hardware, interrupts and timers until
 * s->stop is set or nothing is left to happen, or the virtual clock
 * reaches until_ns (0 = no limit).  Returns 0.
 */
int		 sim_run(struct sim *s, uint64_t until_ns);

/* Emulated spinlocks: atomic context while held. */
void		 sim_spin_lock(struct sim *s);
void		 sim_spin_unlock(struct sim *s);

/* Report a URB record / driver event to the sink at the current time. */
void		 sim_emit_urb(struct sim *s, const struct urb_rec *r);
void		 sim_emit_event(struct sim *s, const struct drv_event *ev);

/* ------------------------------------------------------------------------
 * A machine (core/sim-machine.c): EHCI controllers with their emulated
 * hardware, DMA memory, and devices plugged into their ports.
 */
struct usb_hcd;
struct emu_ehci;
struct usb_device;

#define SIM_MAX_BUSES	4

struct sim_machine {
	struct sim	*sim;
	struct dma_mem	*dma;
	int		 nbus;
	struct {
		struct emu_ehci	*emu;
		struct usb_hcd	*hcd;
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
/* Inject a fault into the model on bus/port (hcd.h DM_FAULT_*). */
int		 sim_machine_inject(struct sim_machine *m, int bus, int port,
		     int kind, int ep, int count);

/* ------------------------------------------------------------------------
 * Scenarios (core/sim-scenario.c): what happens, one command a line:
 *
 *	plug PORT MODEL [ARGS]	 plug a device model into a port of bus 1
 *	unplug PORT
 *	settle PORT		 wait until the device there is configured
 *	wait MS			 let MS virtual milliseconds pass
 *	inject PORT FAULT [EP] [COUNT]	stall, babble, xacterr, disconnect
 *	disk-read PORT LBA BLOCKS	 SCSI READ(10) through bulk-only
 *	disk-write PORT LBA BLOCKS	 SCSI WRITE(10) of a test pattern
 *	bulk PORT BYTES		 write BYTES to a loopback device, read back
 *	load DRIVER		 usb_register a sample driver (usb-skeleton,
 *				 keyboard, buggy: samples/drivers/drivers.h)
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
/* Parse text (name for messages).  On error returns -EINVAL with
 * "NAME:LINE: what" in err. */
int		 sim_scenario_parse(const char *text, const char *name,
		     struct sim_scenario **out, char *err, size_t errlen);
void		 sim_scenario_free(struct sim_scenario *sc);
/* Queue the scenario on the machine; it sets m->sim->stop at its end. */
void		 sim_scenario_start(struct sim_scenario *sc,
		     struct sim_machine *m);
/* Errors of the steps (I/O failures, a device not there), for reports:
 * NULL when all went well. */
const char	*sim_scenario_error(const struct sim_scenario *sc);

#endif /* CORE_SIM_H */
