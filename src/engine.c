/* SPDX-License-Identifier: ISC */
/* Engine lookup by name, and opening with the io_uring -> psync fallback. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "interrupt.h"
#include "log.h"
#include "target.h"

#define ENGINE_IDLE_SLICE_NS	100000000ULL	/* interrupts seen within */

static const struct engine_ops *engine_table[] = {
	&engine_uring_ops,
	&engine_psync_ops,
	&engine_sim_ops,
};

/* The engine called name ("io_uring", "psync", "sim"), or NULL. */
static const struct engine_ops *
engine_find(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof(engine_table) / sizeof(engine_table[0]); i++)
		if (strcmp(engine_table[i]->name, name) == 0)
			return (engine_table[i]);
	return (NULL);
}

/* Open an engine; see engine.h for the fallback rule. */
int
engine_open(struct engine *e, const char *name, struct target *t,
    unsigned iodepth, uint32_t max_bs, int fallback)
{
	const struct engine_ops	*ops;
	int			 ret;

	memset(e, 0, sizeof(*e));
	if ((ops = engine_find(name)) == NULL)
		return (-EINVAL);
	e->target = t;
	e->iodepth = iodepth;
	e->max_bs = max_bs;
	e->ops = ops;
	ret = ops->open(e);
	if (ret == 0)
		return (0);
	if (fallback && ops == &engine_uring_ops &&
	    (ret == -ENOSYS || ret == -EPERM)) {
		log_warnx("io_uring unavailable (%s): using psync at iodepth 1",
		    strerror(-ret));
		e->ops = &engine_psync_ops;
		e->iodepth = 1;
		return (e->ops->open(e));
	}
	e->ops = NULL;
	return (ret);
}

/* Open an engine on a group of targets; see engine.h. */
int
engine_open_group(struct engine *e, const char *name, struct target **t,
    unsigned n, unsigned per_target, uint32_t max_bs)
{
	const struct engine_ops	*ops;
	int			 ret;

	memset(e, 0, sizeof(*e));
	if ((ops = engine_find(name)) == NULL || n == 0 || per_target == 0)
		return (-EINVAL);
	e->target = t[0];
	e->targets = t;
	e->ntargets = n;
	e->iodepth = n * per_target;
	e->max_bs = max_bs;
	e->ops = ops;
	if ((ret = ops->open(e)) != 0)
		e->ops = NULL;
	return (ret);
}

/* Close an engine; safe on one that failed to open. */
void
engine_close(struct engine *e)
{
	if (e->ops != NULL)
		e->ops->close(e);
	e->ops = NULL;
}

/* Let ns pass with no I/O in flight; see engine.h. */
void
engine_idle(struct engine *e, uint64_t ns)
{
	struct timespec	ts;
	uint64_t	slice;

	if (e->ops->virtual_time && e->ops->idle != NULL) {
		e->ops->idle(e, ns);
		return;
	}
	while (ns > 0 && !interrupt_requested()) {
		slice = ns < ENGINE_IDLE_SLICE_NS ? ns : ENGINE_IDLE_SLICE_NS;
		ts.tv_sec = (time_t)(slice / 1000000000ULL);
		ts.tv_nsec = (long)(slice % 1000000000ULL);
		nanosleep(&ts, NULL);
		ns -= slice;
	}
}

/* Let ns pass with the CPU kept busy; see engine.h. */
void
engine_spin(struct engine *e, uint64_t ns)
{
	uint64_t	end;

	if (e->ops->virtual_time) {
		engine_idle(e, ns);
		return;
	}
	end = e->ops->now_ns(e) + ns;
	while (e->ops->now_ns(e) < end && !interrupt_requested())
		;
}
