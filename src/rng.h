/* SPDX-License-Identifier: ISC */
/* Seeded pseudo-random numbers (xoshiro256**): offsets, simulated noise. */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

struct rng {
	uint64_t	s[4];
};

/* Seed from one 64-bit value (expanded with splitmix64). */
void	 rng_seed(struct rng *, uint64_t);
uint64_t rng_next(struct rng *);
/* Uniform integer in [0, n), without modulo bias; n > 0. */
uint64_t rng_below(struct rng *, uint64_t);
/* Uniform double in [0, 1). */
double	 rng_uniform(struct rng *);
/* Standard normal deviate. */
double	 rng_normal(struct rng *);

/*
 * Uniform random offset in [base, base + span) aligned to align, drawn with
 * replacement; span and align are multiples of align, span >= align.
 */
uint64_t rng_offset(struct rng *, uint64_t, uint64_t, uint32_t);

#endif
