/* SPDX-License-Identifier: ISC */
/*
 * The I/O engine interface: five hooks, and a sixth for virtual time.  An
 * engine owns iodepth slots, each with a buffer of max_bs bytes; the
 * sampler hands it I/Os naming a slot and reaps completions with their
 * latency.  Engines never print or exit: hooks return 0 (or a count) or
 * -errno.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdint.h>

struct target;

struct engine_io {
	unsigned	slot;		/* 0 .. iodepth-1, one I/O per slot */
	int		write;		/* 0 read, 1 write */
	uint32_t	len;		/* bytes, multiple of the block size */
	uint64_t	offset;		/* bytes, aligned */
};

struct engine_done {
	unsigned	slot;
	int		res;		/* bytes transferred, or -errno */
	uint64_t	lat_ns;		/* submission to completion */
};

struct engine {
	const struct engine_ops	*ops;
	struct target		*target;
	unsigned		 iodepth;	/* slots */
	uint32_t		 max_bs;	/* bytes per slot buffer */
	void			*priv;		/* the engine's own state */
};

struct engine_ops {
	const char	*name;
	int		 virtual_time;	/* now_ns is simulated, not wall time */
	/* Set up for e->target, e->iodepth, e->max_bs. */
	int		(*open)(struct engine *);
	/* Start n I/Os on free slots. Returns 0 or -errno. */
	int		(*submit)(struct engine *, const struct engine_io *,
			    unsigned);
	/*
	 * Wait until at least min I/Os completed (min may be 0: don't wait),
	 * store up to max of them in done.  Returns the number or -errno.
	 */
	int		(*reap)(struct engine *, struct engine_done *, unsigned,
			    unsigned);
	/* The engine's clock in ns: CLOCK_MONOTONIC, or virtual time (sim). */
	uint64_t	(*now_ns)(struct engine *);
	/*
	 * Virtual time: move the clock to t ns with nothing in flight.  NULL
	 * on wall time (CLOCK_MONOTONIC), where the caller sleeps.
	 */
	void		(*idle)(struct engine *, uint64_t);
	void		(*close)(struct engine *);
};

/*
 * Open engine name on target with iodepth slots of max_bs bytes.  When
 * io_uring is unavailable (ENOSYS, EPERM) and fallback is set, falls back to
 * psync with a one-line notice.  Returns 0 or -errno.
 */
int	engine_open(struct engine *, const char *, struct target *, unsigned,
	    uint32_t, int);
void	engine_close(struct engine *);

extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_sim_ops;

#endif
