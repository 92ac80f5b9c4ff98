/* SPDX-License-Identifier: ISC */
/* xoshiro256** (Blackman and Vigna) seeded through splitmix64, with unbiased
 * bounded integers (Lemire), normal deviates and aligned offsets. */
#include <math.h>
#include <stdint.h>

#include "rng.h"

/* Next value of the splitmix64 sequence whose state is *x. */
static uint64_t
rng_splitmix64(uint64_t *x)
{
	uint64_t	z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

static uint64_t
rng_rotl(uint64_t x, int k)
{
	return ((x << k) | (x >> (64 - k)));
}

/* Seed the state from one value; any seed, 0 included, gives a good state. */
void
rng_seed(struct rng *r, uint64_t seed)
{
	int	i;

	for (i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&seed);
}

/* Next 64 random bits. */
uint64_t
rng_next(struct rng *r)
{
	uint64_t	result, t;

	result = rng_rotl(r->s[1] * 5, 7) * 9;
	t = r->s[1] << 17;
	r->s[2] ^= r->s[0];
	r->s[3] ^= r->s[1];
	r->s[1] ^= r->s[2];
	r->s[0] ^= r->s[3];
	r->s[2] ^= t;
	r->s[3] = rng_rotl(r->s[3], 45);
	return (result);
}

/*
 * Uniform integer in [0, n): the high half of a 128-bit product, redrawn
 * when the low half falls in the 2^64 mod n values that would bias it.
 */
uint64_t
rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128	m;
	uint64_t		low, threshold;

	if (n == 0)
		return (0);
	m = (unsigned __int128)rng_next(r) * n;
	low = (uint64_t)m;
	if (low < n) {
		threshold = -n % n;
		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return ((uint64_t)(m >> 64));
}

/* Uniform double in [0, 1) with 53 random bits. */
double
rng_uniform(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) * 0x1.0p-53);
}

/* Standard normal deviate by Marsaglia's polar method (one of the pair). */
double
rng_normal(struct rng *r)
{
	double	u, v, s;

	do {
		u = 2 * rng_uniform(r) - 1;
		v = 2 * rng_uniform(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return (u * sqrt(-2 * log(s) / s));
}

/* Uniform offset in [base, base + span) on an align boundary. */
uint64_t
rng_offset(struct rng *r, uint64_t base, uint64_t span, uint32_t align)
{
	uint64_t	slots;

	if (align == 0)
		align = 1;
	slots = span / align;
	if (slots == 0)
		return (base);
	return (base + rng_below(r, slots) * align);
}
