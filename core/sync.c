/*
 * core/sync.c - semaphores and completions of the 2.6.0 kernel for
 * drivers (usb-skeleton's dev->sem and write_finished).  The simulator
 * runs on one thread, so "blocking" means running the machine with
 * sim_wait() until the condition holds; a wait nothing can ever end
 * returns instead of hanging.  Both waits may sleep: outside task context
 * they report a sleep-in-atomic rule event and return at once.
 */
#include <stddef.h>

#include "core/core.h"

void
sema_init(struct semaphore *sem, int val)
{
	sem->count = val;
}

static int
sem_free(void *arg)
{
	return ((struct semaphore *)arg)->count > 0;
}

int
down_interruptible(struct semaphore *sem)
{
	struct sim	*s = core_sim();

	if (sem->count <= 0) {
		if (s == NULL || !core_may_sleep("down"))
			return -EINTR;
		if (sim_wait(s, sem_free, sem, 0) != 0)
			return -EINTR;
	}
	sem->count--;
	return 0;
}

void
down(struct semaphore *sem)
{
	(void)down_interruptible(sem);
}

void
up(struct semaphore *sem)
{
	sem->count++;
}

void
init_completion(struct completion *x)
{
	x->done = 0;
}

void
complete(struct completion *x)
{
	x->done++;
}

static int
completion_done(void *arg)
{
	return ((struct completion *)arg)->done > 0;
}

void
wait_for_completion(struct completion *x)
{
	struct sim	*s = core_sim();

	if (x->done == 0) {
		if (s == NULL || !core_may_sleep("wait_for_completion"))
			return;
		if (sim_wait(s, completion_done, x, 0) != 0)
			return;
	}
	x->done--;
}
