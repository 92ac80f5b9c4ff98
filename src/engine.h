/* SPDX-License-Identifier: ISC */
/*
 * The I/O engine interface: a handful of hooks.  An engine owns iodepth
 * slots, each with a buffer of max_bs bytes; the sampler hands it I/Os
 * naming a slot and reaps completions with their latency.  An engine
 * opened on a group of targets gives each the same number of slots, in
 * turn: slot s addresses target s / (iodepth / ntargets).  A write may ask
 * to be made durable before it completes (fdatasync or fsync after it, as
 * one commit), and may go to another file than its slot's target.
 * Engines never print or exit: hooks return 0 (or a count) or -errno.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdint.h>

struct target;

/* How a write is made durable before it completes (engine_io.sync). */
#define ENGINE_SYNC_NONE	0	/* not: a plain write */
#define ENGINE_SYNC_DATA	1	/* then fdatasync(2) */
#define ENGINE_SYNC_FULL	2	/* then fsync(2) */

struct engine_io {
	unsigned	slot;		/* 0 .. iodepth-1, one I/O per slot */
	int		write;		/* 0 read, 1 write */
	int		sync;		/* ENGINE_SYNC_*: writes; len 0 with a
					   sync is a flush alone */
	uint32_t	len;		/* bytes; a multiple of the block size
					   on a target opened O_DIRECT */
	uint64_t	offset;		/* bytes; aligned likewise */
	struct target	*file;		/* where; NULL: the engine's target.
					   A simulated volume's files share
					   its sim */
};

struct engine_done {
	unsigned	slot;
	int		res;		/* bytes transferred, or -errno */
	uint64_t	lat_ns;		/* submission to completion */
};

struct engine {
	const struct engine_ops	*ops;
	struct target		*target;	/* the first or only one */
	struct target		**targets;	/* a group of ntargets; NULL
						   for one target */
	unsigned		 ntargets;
	unsigned		 iodepth;	/* slots, of all targets */
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
	/* Virtual time only: let ns pass with nothing submitted. */
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
/*
 * Open engine name on the n targets of t, with per_target slots each, in
 * one queue and on one clock (so a group of simulated targets must share
 * one host).  No fallback: psync, one I/O at a time, would drive them in
 * turn, not together.  Returns 0 or -errno.
 */
int	engine_open_group(struct engine *, const char *, struct target **,
	    unsigned, unsigned, uint32_t);
void	engine_close(struct engine *);
/*
 * Let ns pass on e's clock with no I/O in flight: virtual time moves at
 * once, real time is slept (cut short by an interrupt request).
 */
void	engine_idle(struct engine *, uint64_t);
/*
 * As engine_idle, but real time is spent reading the clock: the CPU stays
 * awake, so the next I/O is not slowed by its wake-up from idle.
 */
void	engine_spin(struct engine *, uint64_t);

/*
 * The index of the target a slot addresses in a group (0 otherwise).
 * Inline: the engines use it, and engine.c's table uses the engines.
 */
static inline unsigned
engine_slot_target(const struct engine *e, unsigned slot)
{
	return (e->ntargets < 2 ? 0 : slot / (e->iodepth / e->ntargets));
}

/* The target a slot addresses. */
static inline struct target *
engine_target(const struct engine *e, unsigned slot)
{
	return (e->ntargets < 2 ? e->target :
	    e->targets[engine_slot_target(e, slot)]);
}

extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_sim_ops;

#endif
