/* SPDX-License-Identifier: ISC */
/*
 * The simulated volume: cache tiers, a backing store and ceilings, run in
 * virtual time so that a ten-minute scan costs a fraction of a CPU second.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profiles.h"
#include "rng.h"
#include "sim.h"
#include "xmalloc.h"

/*
 * An I/O submitted at virtual time t passes three stages, each decided at
 * submission, so the completion time is known at once:
 *
 * 1. Ceilings.  Token buckets admit I/Os one after another in arrival
 *    order, at the first time every bucket holds a non-negative amount; each
 *    then takes its cost (debt is allowed, so a cost above the depth still
 *    passes at the bucket's long-run rate).  IOPS buckets charge
 *    max(1, ceil(len / io_accounting)) tokens, bandwidth buckets len bytes
 *    (a volume's: at least charge_min, as st1 and sc1 count an I/O of up
 *    to 1 MiB as 1 MiB of throughput and of byte credits).
 *    A plain ceiling is a bucket one millisecond deep.  A burst bucket
 *    (gp2, st1) is a pair: a peak limiter at the burst rate in series with
 *    a credit bucket of the given size that refills at the baseline rate,
 *    so under full demand it runs at the burst rate for
 *    credits / (burst - baseline) seconds, then at the baseline.  An
 *    instance's bucket may also be full again at every multiple of a
 *    period on the clock, however it was used (AWS: the burst at least
 *    once every 24 hours).
 *    A named [instance] is a gate of its own, shared by the volumes of a
 *    host that name it: an I/O passes it first, in arrival order over all
 *    of them (they share the host's clock, so arrivals come in time
 *    order), then its volume's own buckets.
 * 2. Tiers.  Caches are inclusive LRUs over cache blocks that see the same
 *    accesses (every I/O touches every tier), so tier i always holds the
 *    C_i most recently used blocks: one LRU stack cut into segments at the
 *    tier capacities serves them all.  An I/O is served by the slowest
 *    tier any of its blocks needs, or by the backing store on a miss.
 *    Uniform random reads over ws blocks hit tier i with probability
 *    C_i / ws.  Per block: one hash lookup and at most ntiers moves.
 * 3. Service.  A tier serves a read at once with lognormal latency; the
 *    backing store has `concurrency` servers fed first come, first served
 *    (a min-heap of their free times), with lognormal service time: the
 *    read latency for reads, the write latency for writes (which update
 *    the tiers but are never served by them).  Both add len / transfer.
 *    A share of the reads (outliers) may instead take a factor to ten
 *    times the factor the median, log-uniformly: a spike with a heavy
 *    tail, not a lognormal.  A tier may serve a share of its hits at a
 *    second speed (another lognormal), a share that moves with the share
 *    of their recent service time the reads spent missing it (over about
 *    the last SIM_RECENT reads): a daemon whose threads sleep on misses
 *    and wake on another CPU.  The store's latency may drift with the
 *    clock: a share of its reads growing with it takes another median.
 *    The store's reads alone may pass a throttle that releases them
 *    window by window, as blk-throttle does: in each window (aligned to
 *    its length) iops x window reads go at once, the next waits for the
 *    next window, so a throttled store shows a spike and stalls of up to
 *    a window.  A block's first read may add a
 *    penalty (a volume restored from a snapshot).
 * 4. Write-back buffer.  With one, a write skips the backing servers: it
 *    waits for room in a bucket of free bytes (depth: the buffer, refilled
 *    at the drain rate, in arrival order), then takes the write latency.
 *    Sustained writes run at the ceilings until the buffer is full, then
 *    at the drain rate; idle time drains it.
 * 5. Flushes (sim_flush, asked for by the engine when a durable write has
 *    completed, in time order).  A write-through device never gets one
 *    (Linux sends none): it costs nothing.  A write-back device runs one
 *    flush at a time, lognormal flush_us; flushes that arrive while one
 *    runs share the next (as the kernel merges pending flushes), so
 *    concurrent commits batch.  flush_us 0 is a cache that acknowledges
 *    flushes at once.
 *
 * Left out: request merging, read-ahead, a page cache (a buffered write
 * costs a device write), queue-depth-dependent degradation, noise in the
 * ceilings, flushes waiting for writes in flight, a buffer draining into
 * the backing servers' time, and time passing between engine sessions
 * (the clock moves only with I/O and engine_idle).
 */

#define SIM_NIL		UINT32_MAX
#define SIM_WINDOW_S	0.001		/* depth of a plain ceiling */
#define SIM_SEED_SALT	0x73696d766f6c756dULL	/* apart from the sampler's */
#define SIM_TOUCH_SHIFT	16		/* blocks per first-read page: 2^16 */
#define SIM_Z99		2.3263478740408408	/* standard normal 99th */
#define SIM_NBUCKETS	8
#define SIM_LARGE_WRITE	(1024.0 * 1024)	/* the buffer's truth: 1 MiB writes */
#define SIM_HASH_RUN	8		/* 2^8 adjacent blocks, adjacent buckets */
#define SIM_RECENT	32.0		/* reads the recent service time spans */

struct sim_bucket {
	double		rate;		/* tokens (or bytes) per second */
	double		depth;		/* most it holds */
	double		tokens;		/* negative: debt */
	uint64_t	t_ns;		/* when tokens was last brought up */
	uint64_t	period_ns;	/* full again at each multiple of it
					   on the clock; 0: never */
	int		bytes;		/* costs len bytes, else tokens */
	double		floor;		/* bytes: an I/O costs at least this */
};

struct sim_entry {
	uint64_t	key;		/* cache block number */
	uint32_t	prev;		/* more recently used; SIM_NIL: head */
	uint32_t	next;
	uint32_t	hnext;		/* hash chain, or free list */
	uint32_t	level;		/* segment: the tier that serves it */
};

struct sim_cache {
	unsigned	 ntiers;
	uint32_t	 cap[PROFILES_TIERS_MAX]; /* entries of each segment */
	uint32_t	 size[PROFILES_TIERS_MAX];
	uint32_t	 tail[PROFILES_TIERS_MAX]; /* least recent of each */
	uint32_t	 head;			/* most recent of all */
	uint32_t	 max;			/* entries: the largest tier */
	uint32_t	 count;
	struct sim_entry *e;
	uint32_t	 nalloc;
	uint32_t	 nused;			/* high-water mark of e */
	uint32_t	 free;
	uint32_t	*bucket;
	uint32_t	 nbucket;		/* power of two */
	int		 shift;			/* 64 - log2(nbucket) */
};

/* Token buckets an I/O passes in arrival order, first come first served. */
struct sim_gate {
	struct sim_bucket bucket[SIM_NBUCKETS];
	unsigned	 n;
	uint64_t	 admit_ns;		/* last admission */
};

/* A named instance: its ceilings, shared by the volumes naming it. */
struct sim_inst {
	struct profile	*p;			/* whose [instance] it is */
	struct sim_gate	 gate;
	struct sim_inst	*next;
};

/* What the volumes of one run share: the clock and the instances. */
struct sim_host {
	uint64_t	 now_ns;
	struct sim_inst	*inst;
};

struct sim {
	struct profile	*p;
	struct rng	 rng;
	struct sim_host	*host;
	int		 own_host;		/* freed with the volume */
	struct sim_inst	*inst;			/* named instance, or NULL */
	struct sim_gate	 gate;			/* the volume's own ceilings */
	uint64_t	 io_accounting;

	double		 tier_ns[PROFILES_TIERS_MAX];	/* medians */
	double		 tier_sigma[PROFILES_TIERS_MAX];
	double		 recent_ns[PROFILES_TIERS_MAX];	/* service time of
						   recent reads, and of */
	double		 missed_ns[PROFILES_TIERS_MAX];	/* those missing */
	double		 backing_ns;
	double		 backing_sigma;
	double		 first_ns;
	double		 first_sigma;
	uint64_t	 throttle_ns;		/* window; 0: no throttle */
	uint64_t	 throttle_per;		/* reads a window */
	uint64_t	 throttle_window;	/* the one reads go in now */
	uint64_t	 throttle_used;		/* reads it let go */
	double		 ns_per_byte;		/* 1e9 / transfer */
	double		 write_ns;
	double		 write_sigma;
	double		 flush_ns;		/* 0: a flush costs nothing */
	double		 flush_sigma;
	uint64_t	 flush_end;		/* the flush running ends */
	uint64_t	 flush_next;		/* the one queued ends; 0 none */

	struct sim_bucket buffer;		/* free bytes of the write-back
						   buffer; rate 0: none */
	uint64_t	 buffer_admit_ns;	/* last write admitted (FIFO) */

	uint64_t	*server;		/* min-heap of free times */
	unsigned	 nserver;

	struct sim_cache cache;
	uint64_t	 cache_block;

	uint64_t	**touched;		/* first-read bitmap pages */
	size_t		 ntouched;

	struct sim_stats stats;
};

/* Round to whole ns; a lognormal tail past 2^63 ns (292 years) saturates. */
static uint64_t
sim_ns(double ns)
{
	if (!(ns > 0))
		return (0);
	if (ns >= 9.2e18)
		return (UINT64_C(9200000000000000000));
	return ((uint64_t)(ns + 0.5));
}

static double
sim_lognormal(struct sim *s, double median, double sigma)
{
	if (sigma <= 0)
		return (median);
	return (median * exp(sigma * rng_normal(&s->rng)));
}

/* A service time: lognormal, or one of the outliers (share o, factor f). */
static double
sim_latency(struct sim *s, double median, double sigma, double o, double f)
{
	if (o > 0 && rng_uniform(&s->rng) < o)
		return (median * f * pow(10, rng_uniform(&s->rng)));
	return (sim_lognormal(s, median, sigma));
}

/*
 * A hit of tier i: at its second speed for a share that moves from
 * second_share to second_share_missed with the share of the recent
 * service time spent on reads that missed the tier, else at its own.
 */
static double
sim_hit(struct sim *s, unsigned i)
{
	const struct profile_tier	*pt = &s->p->tier[i];
	double				 w, m;

	if (pt->second_us > 0) {
		m = s->recent_ns[i] > 0 ? s->missed_ns[i] / s->recent_ns[i] : 0;
		w = pt->second_share + (pt->second_share_missed -
		    pt->second_share) * m;
		if (rng_uniform(&s->rng) < w)
			return (sim_latency(s, pt->second_us * 1e3,
			    pt->second_sigma, pt->outliers,
			    pt->outlier_factor));
	}
	return (sim_latency(s, s->tier_ns[i], s->tier_sigma[i], pt->outliers,
	    pt->outlier_factor));
}

/* Count a read served by level (ntiers: the store) in svc ns as recent. */
static void
sim_recent(struct sim *s, unsigned level, double svc)
{
	unsigned	l;

	for (l = 0; l < s->cache.ntiers; l++) {
		s->recent_ns[l] += svc - s->recent_ns[l] / SIM_RECENT;
		s->missed_ns[l] += (level > l ? svc : 0) - s->missed_ns[l] /
		    SIM_RECENT;
	}
}

/*
 * The store's median (ns) for a read admitted at t: drift_us for a share
 * of the reads growing from 0 at the start of the clock to all at drift_s,
 * latency_us for the rest.
 */
static double
sim_backing_median(struct sim *s, uint64_t t)
{
	if (s->p->drift_s > 0 && rng_uniform(&s->rng) < (double)t * 1e-9 /
	    s->p->drift_s)
		return (s->p->drift_us * 1e3);
	return (s->backing_ns);
}

/* When the throttle lets a read of the store arriving at t go. */
static uint64_t
sim_throttle(struct sim *s, uint64_t t)
{
	uint64_t	w = t / s->throttle_ns, go;

	if (w > s->throttle_window) {
		s->throttle_window = w;
		s->throttle_used = 0;
	}
	if (s->throttle_used == s->throttle_per) {
		s->throttle_window++;
		s->throttle_used = 0;
	}
	s->throttle_used++;
	go = s->throttle_window * s->throttle_ns;
	return (go > t ? go : t);
}

static void
sim_bucket_add(struct sim_gate *g, double rate, double depth, double start,
    int bytes)
{
	struct sim_bucket	*b = &g->bucket[g->n++];

	b->rate = rate;
	b->depth = depth;
	b->tokens = start;
	b->t_ns = 0;
	b->period_ns = 0;
	b->bytes = bytes;
	b->floor = 0;
}

/* A plain ceiling: a bucket SIM_WINDOW_S deep (at least one unit). */
static void
sim_bucket_ceiling(struct sim_gate *g, double rate, int bytes)
{
	double	depth = rate * SIM_WINDOW_S;

	if (depth < 1)
		depth = 1;
	sim_bucket_add(g, rate, depth, depth, bytes);
}

/*
 * A ceiling of rate, or with a burst: a peak limiter at burst in series
 * with a full bucket of credits earning at rate, full again at every
 * multiple of period_s on the clock (0: never).  Nothing when rate is 0.
 */
static void
sim_gate_limit(struct sim_gate *g, double rate, double burst, double credits,
    double period_s, int bytes)
{
	if (burst > 0) {
		sim_bucket_ceiling(g, burst, bytes);
		sim_bucket_add(g, rate, credits, credits, bytes);
		g->bucket[g->n - 1].period_ns = (uint64_t)(period_s * 1e9);
	} else if (rate > 0)
		sim_bucket_ceiling(g, rate, bytes);
}

/* The [instance] ceilings of p into g. */
static void
sim_gate_instance(struct sim_gate *g, const struct profile *p)
{
	sim_gate_limit(g, p->instance_iops, p->instance_burst_iops,
	    (p->instance_burst_iops - p->instance_iops) * p->instance_burst_s,
	    p->instance_burst_period_s, 0);
	sim_gate_limit(g, p->instance_bandwidth, p->instance_burst_bandwidth,
	    (p->instance_burst_bandwidth - p->instance_bandwidth) *
	    p->instance_burst_s, p->instance_burst_period_s, 1);
}

static double
sim_bucket_level(const struct sim_bucket *b, uint64_t t)
{
	double	tok = b->tokens;

	if (b->period_ns > 0 && t / b->period_ns > b->t_ns / b->period_ns)
		return (b->depth);
	if (t > b->t_ns) {
		tok += (double)(t - b->t_ns) * 1e-9 * b->rate;
		if (tok > b->depth)
			tok = b->depth;
	}
	return (tok);
}

/*
 * The first time at or after t when b holds a non-negative amount: when
 * it earned its debt back, or when it is full again, whichever is first.
 */
static uint64_t
sim_bucket_ready(const struct sim_bucket *b, uint64_t t)
{
	double		tok = sim_bucket_level(b, t);
	uint64_t	go;

	if (tok >= 0)
		return (t);
	go = t + (uint64_t)ceil(-tok / b->rate * 1e9);
	if (b->period_ns > 0 && go / b->period_ns > t / b->period_ns)
		go = (t / b->period_ns + 1) * b->period_ns;
	return (go);
}

static void
sim_bucket_take(struct sim_bucket *b, uint64_t t, double cost)
{
	b->tokens = sim_bucket_level(b, t) - cost;
	if (t > b->t_ns)
		b->t_ns = t;
}

static void
sim_cache_init(struct sim_cache *c, const struct profile *p)
{
	uint64_t	prev = 0, units;
	unsigned	i;

	memset(c, 0, sizeof *c);
	c->ntiers = p->ntiers;
	c->head = SIM_NIL;
	c->free = SIM_NIL;
	for (i = 0; i < c->ntiers; i++) {
		units = p->tier[i].capacity / p->cache_block;
		c->cap[i] = (uint32_t)(units - prev);
		c->tail[i] = SIM_NIL;
		prev = units;
	}
	c->max = (uint32_t)prev;
	c->nbucket = 1U << SIM_HASH_RUN;
	c->shift = 64 - SIM_HASH_RUN;
	c->bucket = xreallocarray(NULL, c->nbucket, sizeof *c->bucket);
	memset(c->bucket, 0xff, c->nbucket * sizeof *c->bucket);
}

static void
sim_cache_fini(struct sim_cache *c)
{
	free(c->e);
	free(c->bucket);
}

/*
 * A run of adjacent blocks starts at a random bucket and fills the next
 * ones: a sequential read (a warm-up reads 256 blocks at a time) and the
 * evictions that follow it touch a few cache lines of the table, not one
 * each; random blocks still spread evenly.
 */
static uint32_t
sim_cache_hash(const struct sim_cache *c, uint64_t key)
{
	uint64_t	base;

	base = ((key >> SIM_HASH_RUN) * 0x9e3779b97f4a7c15ULL) >> c->shift;
	return ((uint32_t)((base + key) & (c->nbucket - 1)));
}

/*
 * Double the hash table.  It grows only while the tiers fill, before the
 * first eviction, so every entry below nused is in use: rehashed in
 * memory order, not list order.
 */
static void
sim_cache_grow_hash(struct sim_cache *c)
{
	uint32_t	i, h;

	c->nbucket *= 2;
	c->shift--;
	c->bucket = xreallocarray(c->bucket, c->nbucket, sizeof *c->bucket);
	memset(c->bucket, 0xff, c->nbucket * sizeof *c->bucket);
	for (i = 0; i < c->nused; i++) {
		h = sim_cache_hash(c, c->e[i].key);
		c->e[i].hnext = c->bucket[h];
		c->bucket[h] = i;
	}
}

static uint32_t
sim_cache_alloc(struct sim_cache *c)
{
	uint32_t	i;
	uint64_t	n;

	if (c->free != SIM_NIL) {
		i = c->free;
		c->free = c->e[i].hnext;
		return (i);
	}
	if (c->nused == c->nalloc) {
		/* Grows until the tiers are full, then never again. */
		n = c->nalloc < 1024 ? 1024 : (uint64_t)c->nalloc * 2;
		if (n > (uint64_t)c->max + 1)
			n = (uint64_t)c->max + 1;
		c->e = xreallocarray(c->e, n, sizeof *c->e);
		c->nalloc = (uint32_t)n;
	}
	return (c->nused++);
}

static void
sim_cache_unhash(struct sim_cache *c, uint32_t x)
{
	uint32_t	*link;

	link = &c->bucket[sim_cache_hash(c, c->e[x].key)];
	while (*link != x)
		link = &c->e[*link].hnext;
	*link = c->e[x].hnext;
}

/* Take x off the list, keeping its segment's size and tail right. */
static void
sim_cache_unlink(struct sim_cache *c, uint32_t x)
{
	struct sim_entry	*e = &c->e[x];
	uint32_t		 l = e->level;

	if (c->tail[l] == x)
		c->tail[l] = c->size[l] > 1 ? e->prev : SIM_NIL;
	c->size[l]--;
	if (e->prev != SIM_NIL)
		c->e[e->prev].next = e->next;
	else
		c->head = e->next;
	if (e->next != SIM_NIL)
		c->e[e->next].prev = e->prev;
}

/*
 * Access block key: returns the tier that held it (ntiers: none) and makes
 * it the most recent block of every tier.
 */
static unsigned
sim_cache_access(struct sim_cache *c, uint64_t key)
{
	struct sim_entry	*e;
	uint32_t		 i, x, h;
	unsigned		 level, j;

	if (c->ntiers == 0)
		return (0);
	h = sim_cache_hash(c, key);
	for (i = c->bucket[h]; i != SIM_NIL; i = c->e[i].hnext) {
		if (c->e[i].key == key)
			break;
	}
	if (i != SIM_NIL) {
		level = c->e[i].level;
		if (i == c->head)
			return (level);
		sim_cache_unlink(c, i);
	} else {
		level = c->ntiers;
		i = sim_cache_alloc(c);
		c->e[i].key = key;
		c->e[i].hnext = c->bucket[h];
		c->bucket[h] = i;
		c->count++;
	}

	e = &c->e[i];
	e->level = 0;
	e->prev = SIM_NIL;
	e->next = c->head;
	if (c->head != SIM_NIL)
		c->e[c->head].prev = i;
	c->head = i;
	if (c->size[0]++ == 0)
		c->tail[0] = i;

	/* Each full segment above the vacated one hands its tail down. */
	for (j = 0; j < level && c->size[j] > c->cap[j]; j++) {
		x = c->tail[j];
		if (j + 1 == c->ntiers) {
			/* Out of the largest tier: evicted. */
			sim_cache_unlink(c, x);
			sim_cache_unhash(c, x);
			c->e[x].hnext = c->free;
			c->free = x;
			c->count--;
			break;
		}
		c->tail[j] = c->e[x].prev;
		c->size[j]--;
		c->e[x].level = j + 1;
		if (c->size[j + 1]++ == 0)
			c->tail[j + 1] = x;
	}

	if (c->count > c->nbucket && c->nbucket < (1U << 31))
		sim_cache_grow_hash(c);
	return (level);
}

/* Mark block b read or written; returns whether it was untouched. */
static int
sim_touch(struct sim *s, uint64_t b)
{
	uint64_t	 page = b >> SIM_TOUCH_SHIFT, bit, *w;
	size_t		 n = (size_t)1 << (SIM_TOUCH_SHIFT - 6);

	if (page >= s->ntouched)
		return (0);		/* past the end: the engine refuses it */
	if (s->touched[page] == NULL)
		s->touched[page] = xcalloc(n, sizeof **s->touched);
	bit = b & (((uint64_t)1 << SIM_TOUCH_SHIFT) - 1);
	w = &s->touched[page][bit >> 6];
	if (*w & ((uint64_t)1 << (bit & 63)))
		return (0);
	*w |= (uint64_t)1 << (bit & 63);
	return (1);
}

static void
sim_server_sift(uint64_t *h, unsigned n)
{
	unsigned	i = 0, c;
	uint64_t	v = h[0];

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
}

/* Whether instances a and b have the same ceilings. */
static int
sim_inst_same(const struct profile *a, const struct profile *b)
{
	return (a->instance_iops == b->instance_iops &&
	    a->instance_bandwidth == b->instance_bandwidth &&
	    a->instance_burst_iops == b->instance_burst_iops &&
	    a->instance_burst_bandwidth == b->instance_burst_bandwidth &&
	    a->instance_burst_s == b->instance_burst_s &&
	    a->instance_burst_period_s == b->instance_burst_period_s);
}

/*
 * The instance p names on host h, added if new.  Returns NULL with *cause
 * when h has one of that name with other ceilings.
 */
static struct sim_inst *
sim_host_instance(struct sim_host *h, const struct profile *p, char **cause)
{
	struct sim_inst	*in;

	for (in = h->inst; in != NULL; in = in->next) {
		if (strcmp(in->p->instance_name, p->instance_name) != 0)
			continue;
		if (sim_inst_same(in->p, p))
			return (in);
		xasprintf(cause, "instance %s is given twice with different "
		    "ceilings (%s and %s): name each instance once",
		    p->instance_name, in->p->name, p->name);
		return (NULL);
	}
	in = xcalloc(1, sizeof *in);
	in->p = profiles_copy(p);
	sim_gate_instance(&in->gate, p);
	in->next = h->inst;
	h->inst = in;
	return (in);
}

/* A host for simulated volumes: one clock, instances shared by name. */
struct sim_host *
sim_host_new(void)
{
	return (xcalloc(1, sizeof(struct sim_host)));
}

/* Free a host and its instances, after every volume on it. */
void
sim_host_free(struct sim_host *h)
{
	struct sim_inst	*in;

	if (h == NULL)
		return;
	while ((in = h->inst) != NULL) {
		h->inst = in->next;
		profiles_free(in->p);
		free(in);
	}
	free(h);
}

/*
 * A volume for profile p (copied) on host h (NULL: a host of its own)
 * with noise seeded by seed.  Returns NULL with *cause if its instance
 * clashes with one of h's.
 */
static struct sim *
sim_create(const struct profile *p, uint64_t seed, struct sim_host *h,
    char **cause)
{
	struct sim	*s;
	struct sim_inst	*in = NULL;
	unsigned	 i;
	uint64_t	 blocks;

	s = xcalloc(1, sizeof *s);
	s->own_host = h == NULL;
	s->host = h != NULL ? h : sim_host_new();
	if (p->instance_name != NULL &&
	    (in = sim_host_instance(s->host, p, cause)) == NULL) {
		if (s->own_host)
			sim_host_free(s->host);
		free(s);
		return (NULL);
	}
	s->inst = in;
	s->p = profiles_copy(p);
	rng_seed(&s->rng, seed ^ SIM_SEED_SALT);

	sim_gate_limit(&s->gate, p->limit_iops, p->burst_iops,
	    p->burst_credits, 0, 0);
	sim_gate_limit(&s->gate, p->limit_bandwidth, p->burst_bandwidth,
	    p->burst_credit_bytes, 0, 1);
	for (i = 0; i < s->gate.n; i++)
		if (s->gate.bucket[i].bytes)
			s->gate.bucket[i].floor = (double)p->charge_min;
	if (s->inst == NULL)
		sim_gate_instance(&s->gate, p);
	s->io_accounting = p->io_accounting;

	for (i = 0; i < p->ntiers; i++) {
		s->tier_ns[i] = p->tier[i].latency_us * 1e3;
		s->tier_sigma[i] = p->tier[i].sigma;
	}
	s->backing_ns = p->backing_latency_us * 1e3;
	s->backing_sigma = p->backing_sigma;
	s->first_ns = p->first_read_us * 1e3;
	s->first_sigma = p->first_read_sigma;
	if (p->throttle_iops > 0) {
		s->throttle_ns = sim_ns(p->throttle_window_ms * 1e6);
		s->throttle_per = (uint64_t)(p->throttle_iops *
		    p->throttle_window_ms / 1000);
	}
	s->ns_per_byte = p->transfer > 0 ? 1e9 / p->transfer : 0;
	s->write_ns = p->write_latency_us * 1e3;
	s->write_sigma = p->write_sigma;
	s->flush_ns = p->write_back ? p->flush_us * 1e3 : 0;
	s->flush_sigma = p->flush_sigma;
	if (p->buffer_bytes > 0) {
		s->buffer.rate = p->buffer_drain;
		s->buffer.depth = s->buffer.tokens = p->buffer_bytes;
		s->buffer.bytes = 1;
	}

	s->nserver = p->concurrency > 0 ? p->concurrency : 1;
	s->server = xcalloc(s->nserver, sizeof *s->server);

	s->cache_block = p->cache_block;
	sim_cache_init(&s->cache, p);

	if (s->first_ns > 0) {
		blocks = (p->size + s->cache_block - 1) / s->cache_block;
		s->ntouched = (size_t)((blocks >> SIM_TOUCH_SHIFT) + 1);
		s->touched = xcalloc(s->ntouched, sizeof *s->touched);
	}
	return (s);
}

/* A volume for profile p (copied) with noise seeded by seed. */
struct sim *
sim_new(const struct profile *p, uint64_t seed)
{
	return (sim_create(p, seed, NULL, NULL));
}

/* Open a simulated volume from a profile name or path on host h. */
struct sim *
sim_host_open(struct sim_host *h, const char *spec, uint64_t seed,
    char **cause)
{
	struct profile	*p;
	struct sim	*s;

	if ((p = profiles_load(spec, cause)) == NULL)
		return (NULL);
	s = sim_create(p, seed, h, cause);
	profiles_free(p);
	return (s);
}

/* Open a simulated volume from a profile name or path. */
struct sim *
sim_open(const char *spec, uint64_t seed, char **cause)
{
	return (sim_host_open(NULL, spec, seed, cause));
}

void
sim_free(struct sim *s)
{
	size_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ntouched; i++)
		free(s->touched[i]);
	free(s->touched);
	sim_cache_fini(&s->cache);
	free(s->server);
	profiles_free(s->p);
	if (s->own_host)
		sim_host_free(s->host);
	free(s);
}

/* Device size in bytes. */
uint64_t
sim_size(const struct sim *s)
{
	return (s->p->size);
}

/* Logical block size in bytes: the alignment I/Os need. */
uint32_t
sim_block_size(const struct sim *s)
{
	return (s->p->block_size);
}

/* The profile the volume runs (owned by the volume). */
const struct profile *
sim_profile(const struct sim *s)
{
	return (s->p);
}

/* The virtual clock, its host's. */
uint64_t
sim_now(const struct sim *s)
{
	return (s->host->now_ns);
}

/* Move the virtual clock forward. */
void
sim_advance(struct sim *s, uint64_t t)
{
	if (t > s->host->now_ns)
		s->host->now_ns = t;
}

/* Whether a and b are on one host (one clock). */
int
sim_same_host(const struct sim *a, const struct sim *b)
{
	return (a->host == b->host);
}

/* When an I/O arriving at t of cost tokens (or len bytes) passes gate g. */
static uint64_t
sim_gate_pass(struct sim_gate *g, uint64_t t, double tokens, uint32_t len)
{
	struct sim_bucket	*b;
	unsigned		 i;

	if (t < g->admit_ns)
		t = g->admit_ns;
	for (i = 0; i < g->n; i++)
		t = sim_bucket_ready(&g->bucket[i], t);
	for (i = 0; i < g->n; i++) {
		b = &g->bucket[i];
		sim_bucket_take(b, t, b->bytes ? fmax((double)len, b->floor) :
		    tokens);
	}
	g->admit_ns = t;
	return (t);
}

/* The backing store serves an I/O of svc ns from t: its end. */
static uint64_t
sim_serve(struct sim *s, uint64_t t, double svc)
{
	uint64_t	start, done;

	start = s->server[0] > t ? s->server[0] : t;
	done = start + sim_ns(svc);
	s->server[0] = done;
	sim_server_sift(s->server, s->nserver);
	return (done);
}

/* A write of len admitted at t (transfer svc ns): into the buffer or on. */
static uint64_t
sim_write(struct sim *s, uint64_t t, uint32_t len, double svc)
{
	s->stats.writes++;
	svc += sim_lognormal(s, s->write_ns, s->write_sigma);
	if (s->buffer.rate <= 0)
		return (sim_serve(s, t, svc));
	if (s->buffer_admit_ns > t)
		t = s->buffer_admit_ns;
	t = sim_bucket_ready(&s->buffer, t);
	sim_bucket_take(&s->buffer, t, (double)len);
	s->buffer_admit_ns = t;
	return (t + sim_ns(svc));
}

/* Submit one I/O at virtual time now; returns its completion time. */
uint64_t
sim_submit(struct sim *s, uint64_t now, uint64_t offset, uint32_t len,
    int write)
{
	uint64_t		 t, first, last, u;
	double			 tokens, svc;
	unsigned		 level, l;
	int			 fresh = 0;

	/* 1. Ceilings, in arrival order: the instance's, then its own. */
	tokens = 1;
	if (s->io_accounting > 0 && len > s->io_accounting)
		tokens = (double)((len + s->io_accounting - 1) /
		    s->io_accounting);
	t = now;
	if (s->inst != NULL)
		t = sim_gate_pass(&s->inst->gate, t, tokens, len);
	t = sim_gate_pass(&s->gate, t, tokens, len);

	/* 2. Tiers: the slowest any block of the I/O needs. */
	first = offset / s->cache_block;
	last = (offset + (len > 0 ? len - 1 : 0)) / s->cache_block;
	level = 0;
	for (u = first; u <= last; u++) {
		l = sim_cache_access(&s->cache, u);
		if (l > level)
			level = l;
		if (s->touched != NULL && sim_touch(s, u) && !write)
			fresh = 1;
	}

	/* 3. Service. */
	s->stats.ios++;
	svc = (double)len * s->ns_per_byte;
	if (write)
		return (sim_write(s, t, len, svc));
	if (level < s->cache.ntiers) {
		s->stats.hits[level]++;
		svc += sim_hit(s, level);
		sim_recent(s, level, svc);
		return (t + sim_ns(svc));
	}
	s->stats.misses++;
	svc += sim_latency(s, sim_backing_median(s, t), s->backing_sigma,
	    s->p->backing_outliers, s->p->backing_outlier_factor);
	if (fresh) {
		s->stats.first_reads++;
		svc += sim_lognormal(s, s->first_ns, s->first_sigma);
	}
	sim_recent(s, level, svc);
	if (s->throttle_ns > 0)
		t = sim_throttle(s, t);
	return (sim_serve(s, t, svc));
}

/* A flush asked for at virtual time t (not before any earlier one). */
uint64_t
sim_flush(struct sim *s, uint64_t t)
{
	if (s->flush_ns <= 0)
		return (t);
	/* Flushes that ended by t leave the one queued running. */
	while (s->flush_next != 0 && t >= s->flush_end) {
		s->flush_end = s->flush_next;
		s->flush_next = 0;
	}
	if (t >= s->flush_end) {
		s->flush_end = t + sim_ns(sim_lognormal(s, s->flush_ns,
		    s->flush_sigma));
		return (s->flush_end);
	}
	if (s->flush_next == 0)
		s->flush_next = s->flush_end + sim_ns(sim_lognormal(s,
		    s->flush_ns, s->flush_sigma));
	return (s->flush_next);
}

/* Copy the model's counters. */
void
sim_get_stats(const struct sim *s, struct sim_stats *st)
{
	*st = s->stats;
	st->cached_blocks = s->cache.count;
	st->cache_bytes = (uint64_t)s->cache.nalloc * sizeof *s->cache.e +
	    (uint64_t)s->cache.nbucket * sizeof *s->cache.bucket;
}

static void
sim_truth_min(double *v, enum sim_limiter *lim, double cap,
    enum sim_limiter which)
{
	if (cap > 0 && isfinite(cap) && (isnan(*v) || cap < *v)) {
		*v = cap;
		*lim = which;
	}
}

/* Ceilings at bs: burst set means the buckets are full. */
static void
sim_truth_ceilings(const struct profile *p, double bs, double mean_s,
    int burst, double *iops, enum sim_limiter *ilim, double *bw,
    enum sim_limiter *blim, int *acc_seen)
{
	double	cost = 1, acc = (double)p->io_accounting, acc_bw, other_bw;
	enum sim_limiter dummy;
	double	vi = p->limit_iops, vb = p->limit_bandwidth;
	double	ii = p->instance_iops, ib = p->instance_bandwidth;
	enum sim_limiter li = SIM_LIMIT_VOLUME_IOPS;
	enum sim_limiter lb = SIM_LIMIT_VOLUME_BANDWIDTH;
	enum sim_limiter lii = SIM_LIMIT_INSTANCE_IOPS;
	enum sim_limiter lib = SIM_LIMIT_INSTANCE_BANDWIDTH;

	if (acc > 0 && bs > acc)
		cost = ceil(bs / acc);
	if (burst && p->burst_iops > 0) {
		vi = p->burst_iops;
		li = SIM_LIMIT_BURST_IOPS;
	}
	if (burst && p->burst_bandwidth > 0) {
		vb = p->burst_bandwidth;
		lb = SIM_LIMIT_BURST_BANDWIDTH;
	}
	if (burst && p->instance_burst_iops > 0) {
		ii = p->instance_burst_iops;
		lii = SIM_LIMIT_INSTANCE_BURST_IOPS;
	}
	if (burst && p->instance_burst_bandwidth > 0) {
		ib = p->instance_burst_bandwidth;
		lib = SIM_LIMIT_INSTANCE_BURST_BANDWIDTH;
	}

	/* IOPS at bs. */
	*iops = NAN;
	*ilim = SIM_LIMIT_NONE;
	sim_truth_min(iops, ilim, p->concurrency / mean_s, SIM_LIMIT_BACKING);
	sim_truth_min(iops, ilim, vi / cost, li);
	sim_truth_min(iops, ilim, vb / fmax(bs, (double)p->charge_min), lb);
	sim_truth_min(iops, ilim, ii / cost, lii);
	sim_truth_min(iops, ilim, ib / bs, lib);

	/* Bandwidth as I/Os grow without bound. */
	*bw = NAN;
	*blim = SIM_LIMIT_NONE;
	sim_truth_min(bw, blim, p->concurrency * p->transfer,
	    SIM_LIMIT_BACKING);
	sim_truth_min(bw, blim, vi * acc, li);
	sim_truth_min(bw, blim, vb, lb);
	sim_truth_min(bw, blim, ii * acc, lii);
	sim_truth_min(bw, blim, ib, lib);

	/*
	 * Accounting shows when large I/O is held by IOPS counted in
	 * accounting units, clearly (10%) below every bandwidth cap.
	 */
	acc_bw = other_bw = NAN;
	sim_truth_min(&acc_bw, &dummy, vi * acc, li);
	sim_truth_min(&acc_bw, &dummy, ii * acc, li);
	sim_truth_min(&other_bw, &dummy, p->concurrency * p->transfer, lb);
	sim_truth_min(&other_bw, &dummy, vb, lb);
	sim_truth_min(&other_bw, &dummy, ib, lb);
	*acc_seen = acc > 0 && !isnan(acc_bw) &&
	    (isnan(other_bw) || acc_bw < 0.9 * other_bw);
}

/*
 * A bucket of credits earning at rate, drained by demand (tokens/s): if
 * it runs dry before the one t holds already, it is the burst t reports.
 */
static void
sim_truth_bucket(struct sim_truth *t, double demand, double rate,
    double credits, double cost, int instance)
{
	double	duration;

	if (!(credits > 0) || !(demand > rate))
		return;
	duration = credits / (demand - rate);
	if (t->burst_detected && !(duration < t->burst_duration_s))
		return;
	t->burst_detected = 1;
	t->burst_instance = instance;
	t->burst_iops = t->iops_ceiling;
	t->baseline_iops = t->iops_sustained;
	t->burst_duration_s = duration;
	t->burst_credits_ios = credits / cost;
	t->refill_s = credits / rate;
}

/* The write side of the truth: latencies, flushes, commits, buffer. */
static void
sim_truth_writes(const struct profile *p, double bs, double xfer_us,
    struct sim_truth *t)
{
	double			flush = p->write_back ? p->flush_us : 0;
	double			fast = NAN, cost = 1, acc = p->io_accounting;
	enum sim_limiter	lim = SIM_LIMIT_NONE;

	t->write_p50_us = p->write_latency_us + xfer_us;
	t->write_p99_us = p->write_latency_us * exp(SIM_Z99 * p->write_sigma) +
	    xfer_us;
	t->write_mean_us = p->write_latency_us * exp(p->write_sigma *
	    p->write_sigma / 2) + xfer_us;
	t->flush_p50_us = flush;
	t->flush_mean_us = flush * exp(p->flush_sigma * p->flush_sigma / 2);
	t->write_cache = p->write_cache;
	t->fua = p->fua;
	t->commit_mean_us = t->write_mean_us + t->flush_mean_us;
	t->commit_ops_per_s = 1e6 / t->commit_mean_us;
	if (isfinite(t->iops_ceiling) && t->iops_ceiling < t->commit_ops_per_s)
		t->commit_ops_per_s = t->iops_ceiling;

	t->buffer_bytes = p->buffer_bytes;
	t->buffer_fast_bytes_per_s = t->buffer_slow_bytes_per_s = NAN;
	t->buffer_drain_s = NAN;
	if (p->buffer_bytes <= 0)
		return;
	/* Large writes into the buffer meet only the imposed ceilings. */
	bs = SIM_LARGE_WRITE;
	if (acc > 0 && bs > acc)
		cost = ceil(bs / acc);
	sim_truth_min(&fast, &lim, p->burst_bandwidth > 0 ?
	    p->burst_bandwidth : p->limit_bandwidth, SIM_LIMIT_VOLUME_BANDWIDTH);
	sim_truth_min(&fast, &lim, (p->burst_iops > 0 ? p->burst_iops :
	    p->limit_iops) / cost * bs, SIM_LIMIT_VOLUME_IOPS);
	sim_truth_min(&fast, &lim, p->instance_bandwidth,
	    SIM_LIMIT_INSTANCE_BANDWIDTH);
	sim_truth_min(&fast, &lim, p->instance_iops / cost * bs,
	    SIM_LIMIT_INSTANCE_IOPS);
	t->buffer_fast_bytes_per_s = fast;
	t->buffer_slow_bytes_per_s = isfinite(fast) && fast < p->buffer_drain ?
	    fast : p->buffer_drain;
	t->buffer_drain_s = p->buffer_bytes / p->buffer_drain;
}

/* The share of a lognormal of median m and shape sigma below e^x. */
static double
sim_lognormal_cdf(double m, double sigma, double x)
{
	if (sigma > 0)
		return (0.5 * erfc((log(m) - x) / (sigma * M_SQRT2)));
	return (x >= log(m));
}

/*
 * Quantile q of a service time of median m and shape sigma, a share w of
 * it of median m2 and shape sigma2 instead (m2 0: none), with a share o of
 * outliers log-uniform over [f m, 10 f m], by bisection on ln x.
 */
static double
sim_quantile(double m, double sigma, double m2, double sigma2, double w,
    double o, double f, double q)
{
	double	lo = log(m) - 10 * sigma - 1, hi = log(10 * f * m) +
		    10 * sigma + 1, x, body, tail;
	int	i;

	if (m2 > 0) {
		lo = fmin(lo, log(m2) - 10 * sigma2 - 1);
		hi = fmax(hi, log(m2) + 10 * sigma2 + 1);
	} else
		w = 0;
	for (i = 0; i < 100; i++) {
		x = (lo + hi) / 2;
		body = (1 - w) * sim_lognormal_cdf(m, sigma, x);
		if (w > 0)
			body += w * sim_lognormal_cdf(m2, sigma2, x);
		tail = fmin(1, fmax(0, (x - log(f * m)) / M_LN10));
		if ((1 - o) * body + o * tail < q)
			lo = x;
		else
			hi = x;
	}
	return (exp((lo + hi) / 2));
}

/* The truth of profile p for I/Os of bs bytes. */
void
sim_truth_profile(const struct profile *p, uint32_t bs32, struct sim_truth *t)
{
	double		bs = bs32 > 0 ? bs32 : 4096, xfer_us = 0, mean_s, knee;
	double		cost = 1, drain, charge;
	const struct profile_tier *pt;
	unsigned	i;

	memset(t, 0, sizeof *t);
	t->bs = (uint32_t)bs;
	t->size = p->size;
	t->block_size = p->block_size;
	if (p->transfer > 0)
		xfer_us = bs / p->transfer * 1e6;

	t->ntiers = p->ntiers;
	for (i = 0; i < p->ntiers; i++) {
		pt = &p->tier[i];
		t->tier[i].capacity_bytes = pt->capacity;
		t->tier[i].lat_us_p50 = sim_quantile(pt->latency_us,
		    pt->sigma, pt->second_us, pt->second_sigma,
		    pt->second_share, pt->outliers, pt->outlier_factor, 0.5) +
		    xfer_us;
		t->tier[i].lat_us_p99 = sim_quantile(pt->latency_us,
		    pt->sigma, pt->second_us, pt->second_sigma,
		    pt->second_share, pt->outliers, pt->outlier_factor, 0.99) +
		    xfer_us;
	}
	t->backing_p50_us = sim_quantile(p->backing_latency_us,
	    p->backing_sigma, 0, 0, 0, p->backing_outliers,
	    p->backing_outlier_factor, 0.5) + xfer_us;
	t->backing_p99_us = sim_quantile(p->backing_latency_us,
	    p->backing_sigma, 0, 0, 0, p->backing_outliers,
	    p->backing_outlier_factor, 0.99) + xfer_us;
	t->backing_mean_us = p->backing_latency_us * ((1 -
	    p->backing_outliers) * exp(p->backing_sigma * p->backing_sigma /
	    2) + p->backing_outliers * p->backing_outlier_factor * 9 /
	    M_LN10) + xfer_us;
	t->backing_concurrency = p->concurrency;
	t->first_read_p50_us = p->first_read_us;
	mean_s = t->backing_mean_us * 1e-6;

	sim_truth_ceilings(p, bs, mean_s, 1, &t->iops_ceiling,
	    &t->iops_limiter, &t->bandwidth_ceiling, &t->bandwidth_limiter,
	    &t->io_accounting_observable);
	sim_truth_ceilings(p, bs, mean_s, 0, &t->iops_sustained,
	    &t->iops_sustained_limiter, &t->bandwidth_sustained,
	    &t->bandwidth_sustained_limiter,
	    &t->io_accounting_observable_sustained);
	/*
	 * A latency near 0 or a ceiling of no limit makes this 0 x inf.
	 * UINT32_MAX: <limits.h> would reach src/limits.h (engine-uring.c).
	 */
	knee = ceil(t->iops_ceiling * mean_s - 1e-9);
	t->knee_iodepth = !(knee >= 1) ? 1 : knee < UINT32_MAX ?
	    (unsigned)knee : UINT32_MAX;
	t->io_accounting_bytes = p->io_accounting;
	/* Only imposed ceilings make an "optimal I/O size". */
	t->optimal_io_bytes = NAN;
	if (t->iops_limiter != SIM_LIMIT_BACKING &&
	    t->bandwidth_limiter != SIM_LIMIT_BACKING &&
	    t->bandwidth_limiter != SIM_LIMIT_NONE)
		t->optimal_io_bytes = t->bandwidth_ceiling / t->iops_ceiling;

	if (p->io_accounting > 0 && bs > p->io_accounting)
		cost = ceil(bs / p->io_accounting);
	t->burst_iops = t->baseline_iops = NAN;
	t->burst_duration_s = t->burst_credits_ios = t->refill_s = NAN;
	if (t->iops_ceiling > t->iops_sustained * (1 + 1e-9)) {
		/* The bucket that runs dry first at full demand. */
		sim_truth_bucket(t, t->iops_ceiling * cost, p->limit_iops,
		    p->burst_iops > 0 ? p->burst_credits : 0, cost, 0);
		sim_truth_bucket(t, t->iops_ceiling * cost, p->instance_iops,
		    p->instance_burst_iops > 0 ? (p->instance_burst_iops -
		    p->instance_iops) * p->instance_burst_s : 0, cost, 1);
		/* The volume's byte credits, at what an I/O is charged. */
		charge = fmax(bs, (double)p->charge_min);
		sim_truth_bucket(t, t->iops_ceiling * charge,
		    p->limit_bandwidth, p->burst_bandwidth > 0 ?
		    p->burst_credit_bytes : 0, charge, 0);
	}

	sim_truth_writes(p, bs, xfer_us, t);

	t->bw_burst_duration_s = t->bw_burst_credit_bytes = NAN;
	if (p->burst_bandwidth > 0) {
		/* Large I/Os at full demand drain at ceiling - baseline. */
		drain = t->bandwidth_ceiling - p->limit_bandwidth;
		if (drain > 0 && t->bandwidth_ceiling >
		    t->bandwidth_sustained * (1 + 1e-9)) {
			t->bw_burst_detected = 1;
			t->bw_burst_duration_s = p->burst_credit_bytes / drain;
			t->bw_burst_credit_bytes = p->burst_credit_bytes;
		}
	}
}

/* Short name of a limiter. */
const char *
sim_limiter_name(enum sim_limiter l)
{
	static const char *const names[] = {
		[SIM_LIMIT_NONE] = "none",
		[SIM_LIMIT_BACKING] = "backing store",
		[SIM_LIMIT_VOLUME_IOPS] = "volume iops",
		[SIM_LIMIT_VOLUME_BANDWIDTH] = "volume bandwidth",
		[SIM_LIMIT_BURST_IOPS] = "burst iops",
		[SIM_LIMIT_BURST_BANDWIDTH] = "burst bandwidth",
		[SIM_LIMIT_INSTANCE_IOPS] = "instance iops",
		[SIM_LIMIT_INSTANCE_BANDWIDTH] = "instance bandwidth",
		[SIM_LIMIT_INSTANCE_BURST_IOPS] = "instance burst iops",
		[SIM_LIMIT_INSTANCE_BURST_BANDWIDTH] =
		    "instance burst bandwidth",
	};

	if ((unsigned)l >= sizeof names / sizeof names[0])
		return ("?");
	return (names[l]);
}
