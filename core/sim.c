/*
 * core/sim.c - the simulated machine's clock, timers, deferred work,
 * interrupt delivery and execution contexts (see core/sim.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"

struct sim	*sim_current;

struct sim *
sim_new(uint64_t epoch_ns, const struct sim_sink *sink)
{
	struct sim	*s;

	if ((s = calloc(1, sizeof *s)) == NULL)
		return NULL;
	s->epoch_ns = epoch_ns;
	if (sink != NULL)
		s->sink = *sink;
	sim_current = s;
	return s;
}

void
sim_free(struct sim *s)
{
	if (s == NULL)
		return;
	if (sim_current == s)
		sim_current = NULL;
	free(s);
}

void
sim_add_hw(struct sim *s, struct sim_hw *hw)
{
	struct sim_hw	**pp;

	/* Keep registration order: bus 1 is clocked first. */
	for (pp = &s->hw; *pp != NULL; pp = &(*pp)->next)
		;
	hw->next = NULL;
	*pp = hw;
}

void
sim_remove_hw(struct sim *s, struct sim_hw *hw)
{
	struct sim_hw	**pp;

	for (pp = &s->hw; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == hw) {
			*pp = hw->next;
			return;
		}
	}
}

void
sim_timer_del(struct sim *s, struct sim_timer *t)
{
	struct sim_timer **pp;

	for (pp = &s->timers; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	}
	t->pending = 0;
}

void
sim_timer_add(struct sim *s, struct sim_timer *t, uint64_t expires_ns)
{
	struct sim_timer **pp;

	if (t->pending)
		sim_timer_del(s, t);
	t->expires_ns = expires_ns;
	t->seq = s->timer_seq++;
	t->pending = 1;
	for (pp = &s->timers; *pp != NULL &&
	    (*pp)->expires_ns <= expires_ns; pp = &(*pp)->next)
		;
	t->next = *pp;
	*pp = t;
}

void
sim_work_queue(struct sim *s, struct sim_work *w)
{
	if (w->queued)
		return;
	w->queued = 1;
	w->next = NULL;
	if (s->work_tail != NULL)
		s->work_tail->next = w;
	else
		s->work_head = w;
	s->work_tail = w;
}

int
sim_work_cancel(struct sim *s, struct sim_work *w)
{
	struct sim_work	**pp, *prev = NULL;

	if (s == NULL || !w->queued)
		return 0;
	for (pp = &s->work_head; *pp != NULL; prev = *pp, pp = &(*pp)->next) {
		if (*pp != w)
			continue;
		*pp = w->next;
		if (s->work_tail == w)
			s->work_tail = prev;
		w->queued = 0;
		return 1;
	}
	return 0;
}

/* Run one deferred work item in task context; 1 if there was one. */
static int
run_work(struct sim *s)
{
	struct sim_work	*w = s->work_head;

	if (w == NULL)
		return 0;
	s->work_head = w->next;
	if (s->work_head == NULL)
		s->work_tail = NULL;
	w->queued = 0;
	w->fn(w->arg);
	return 1;
}

/* Deliver interrupts while lines are high, in interrupt context. */
static void
run_irqs(struct sim *s)
{
	struct sim_hw	*hw;
	enum sim_ctx	 saved;
	int		 guard;

	for (hw = s->hw; hw != NULL; hw = hw->next) {
		if (hw->irq_handler == NULL)
			continue;
		/* A handler that never lowers its line must not hang us. */
		for (guard = 0; guard < 16 && hw->ops->irq_pending(hw->hw);
		    guard++) {
			saved = s->ctx;
			s->ctx = SIM_IRQ;
			hw->irq_handler(hw->irq_arg);
			s->ctx = saved;
		}
	}
}

/* Run the timers due now, in softirq context. */
static void
run_timers(struct sim *s)
{
	struct sim_timer *t;
	enum sim_ctx	 saved;

	while ((t = s->timers) != NULL && t->expires_ns <= s->now_ns) {
		s->timers = t->next;
		t->pending = 0;
		saved = s->ctx;
		s->ctx = SIM_SOFTIRQ;
		t->fn(t->arg);
		s->ctx = saved;
	}
}

static int
hw_busy(struct sim *s)
{
	struct sim_hw	*hw;

	for (hw = s->hw; hw != NULL; hw = hw->next) {
		if (hw->ops->busy(hw->hw))
			return 1;
	}
	return 0;
}

/*
 * Advance the clock: one microframe when hardware is busy, else straight
 * to the next timer (or limit).  Returns 0 if time could not move.
 */
static int
advance(struct sim *s, uint64_t limit_ns)
{
	struct sim_hw	*hw;
	uint64_t	 next;

	if (hw_busy(s)) {
		next = s->now_ns + SIM_UFRAME_NS;
		if (limit_ns != 0 && next > limit_ns)
			next = limit_ns;
		s->now_ns = next;
		for (hw = s->hw; hw != NULL; hw = hw->next)
			hw->ops->uframe(hw->hw);
		return 1;
	}
	if (s->timers != NULL)
		next = s->timers->expires_ns;
	else if (limit_ns != 0)
		next = limit_ns;
	else
		return 0;
	if (limit_ns != 0 && next > limit_ns)
		next = limit_ns;
	if (next < s->now_ns)
		next = s->now_ns;
	/* Keep microframe boundaries so FRINDEX stays in step. */
	next = (next + SIM_UFRAME_NS - 1) / SIM_UFRAME_NS * SIM_UFRAME_NS;
	if (next == s->now_ns)
		next += SIM_UFRAME_NS;
	/* Idle controllers still count the microframes that passed. */
	while (s->now_ns < next) {
		s->now_ns += SIM_UFRAME_NS;
		for (hw = s->hw; hw != NULL; hw = hw->next)
			hw->ops->uframe(hw->hw);
		run_irqs(s);
		if (hw_busy(s))
			break;
	}
	return 1;
}

int
sim_wait(struct sim *s, int (*done)(void *), void *arg,
    uint64_t deadline_ns)
{
	int	 rc = 0;

	s->wait_depth++;
	for (;;) {
		run_irqs(s);
		run_timers(s);
		if (done != NULL && done(arg))
			break;
		if (deadline_ns != 0 && s->now_ns >= deadline_ns) {
			rc = -ETIMEDOUT;
			break;
		}
		if (!advance(s, deadline_ns)) {
			rc = -EDEADLK;
			break;
		}
	}
	s->wait_depth--;
	return rc;
}

int
sim_run(struct sim *s, uint64_t until_ns)
{
	while (!s->stop) {
		run_irqs(s);
		run_timers(s);
		if (run_work(s))
			continue;
		if (until_ns != 0 && s->now_ns >= until_ns)
			break;
		if (!advance(s, until_ns))
			break;
	}
	return 0;
}

void
sim_spin_lock(struct sim *s)
{
	s->atomic++;
}

void
sim_spin_unlock(struct sim *s)
{
	if (s->atomic > 0)
		s->atomic--;
}

void
sim_emit_urb(struct sim *s, const struct urb_rec *r)
{
	s->records++;
	if (s->sink.urb != NULL)
		s->sink.urb(s->sink.arg, r);
}

void
sim_emit_event(struct sim *s, const struct drv_event *ev)
{
	if (s->sink.event != NULL)
		s->sink.event(s->sink.arg, ev);
}
