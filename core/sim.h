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

#endif /* CORE_SIM_H */
