/* SPDX-License-Identifier: ISC */
/* Engine lookup by name, and opening with the io_uring -> psync fallback. */
#include <errno.h>
#include <string.h>

#include "engine.h"
#include "log.h"
#include "target.h"

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

/* Close an engine; safe on one that failed to open. */
void
engine_close(struct engine *e)
{
	if (e->ops != NULL)
		e->ops->close(e);
	e->ops = NULL;
}
