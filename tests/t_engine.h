/* SPDX-License-Identifier: ISC */
/*
 * A test engine in virtual time, shared by the sampler and safety tests:
 * every I/O takes lat_ns (+- jitter) and completes when due, one per reap;
 * it records what it was asked to do and can fail I/Os on demand.
 */
#ifndef T_ENGINE_H
#define T_ENGINE_H

#include <stdint.h>

#include "engine.h"
#include "rng.h"

#define T_ENGINE_SLOTS	64

struct target;

struct t_engine {
	uint64_t	 now;			/* virtual ns */
	uint64_t	 lat_ns;
	double		 jitter;		/* relative, uniform */
	struct rng	 r;
	struct engine_done done[T_ENGINE_SLOTS];
	uint64_t	 due[T_ENGINE_SLOTS];
	unsigned	 ndone, inflight, max_inflight;
	uint64_t	 nio, nrandom, seq_bytes;
	uint64_t	 ws, bs;		/* bs-byte I/Os are random */
	int		 misaligned, outside;	/* some random I/O was */
	uint64_t	 low_write;		/* lowest offset written */
	int		 fail_after;		/* -EIO from this I/O on; -1 */
	uint64_t	*hits;			/* per block of ws, or NULL */
	uint64_t	 first[256];		/* first random blocks drawn */
};

/*
 * Set te up and e to use it on target t, with depth slots of 1 MiB: I/Os
 * of lat_ns +- jitter, random ones bs bytes within [0, ws).
 */
void	t_engine_setup(struct t_engine *, struct engine *, struct target *,
	    unsigned, uint64_t, double, uint64_t, uint64_t);

#endif
