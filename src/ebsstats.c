/* SPDX-License-Identifier: ISC */
/*
 * EBS's own counters: log page 0xD0 decoded byte by byte (no struct laid
 * over it), checked, and subtracted into phases (layout: ebsstats.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsstats.h"
#include "xmalloc.h"

_Static_assert(EBSSTATS_OFF_READ_HIST == 512, "read histogram at 512");
_Static_assert(EBSSTATS_OFF_WRITE_HIST == 2056, "write histogram at 2056");
_Static_assert(EBSSTATS_OFF_TAIL + EBSSTATS_TAIL_BYTES == EBSSTATS_PAGE_BYTES,
    "the documented layout adds up to 4096 bytes");

static const char *const ebsstats_limit_names[] = {
	[EBSSTATS_VOLUME_IOPS] = "volume_iops",
	[EBSSTATS_VOLUME_TP] = "volume_throughput",
	[EBSSTATS_INSTANCE_IOPS] = "instance_iops",
	[EBSSTATS_INSTANCE_TP] = "instance_throughput",
	[EBSSTATS_LIMIT_NONE] = "none",
};

/* The counters' names on the page, for messages. */
static const char *const ebsstats_counter_names[EBSSTATS_NCOUNTERS] = {
	"total_read_ops", "total_write_ops", "total_read_bytes",
	"total_write_bytes", "total_read_time", "total_write_time",
	"ebs_volume_performance_exceeded_iops",
	"ebs_volume_performance_exceeded_tp",
	"ec2_instance_ebs_performance_exceeded_iops",
	"ec2_instance_ebs_performance_exceeded_tp",
	"volume_queue_length",
};

static uint32_t
ebsstats_le32(const uint8_t *b)
{
	return ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24);
}

static uint64_t
ebsstats_le64(const uint8_t *b)
{
	return ((uint64_t)ebsstats_le32(b) |
	    (uint64_t)ebsstats_le32(b + 4) << 32);
}

/* The counters of p in page order, to walk them. */
static void
ebsstats_counters(const struct ebsstats_page *p, uint64_t *c)
{
	int	i;

	c[0] = p->read_ops;
	c[1] = p->write_ops;
	c[2] = p->read_bytes;
	c[3] = p->write_bytes;
	c[4] = p->read_time_us;
	c[5] = p->write_time_us;
	for (i = 0; i < EBSSTATS_NLIMITS; i++)
		c[6 + i] = p->exceeded_us[i];
	c[10] = p->queue_length;
}

/* Decode the histogram at b (which: "read", "write") into *h. */
static int
ebsstats_parse_hist(const uint8_t *b, const char *which,
    struct ebsstats_hist *h, char **cause)
{
	const uint8_t	*bin;
	uint64_t	 n;
	size_t		 i;

	n = ebsstats_le64(b);
	if (n > EBSSTATS_BINS) {
		xasprintf(cause, "the %s latency histogram has %" PRIu64
		    " bins: at most %d fit the page", which, n, EBSSTATS_BINS);
		return (-1);
	}
	h->nbins = (size_t)n;
	for (i = 0; i < h->nbins; i++) {
		bin = b + 8 + i * EBSSTATS_BIN_BYTES;
		h->bin[i].lower_us = ebsstats_le64(bin);
		h->bin[i].upper_us = ebsstats_le64(bin + 8);
		h->bin[i].count = ebsstats_le32(bin + 16);
		if (h->bin[i].lower_us > h->bin[i].upper_us ||
		    h->bin[i].upper_us >= EBSSTATS_ABSURD) {
			xasprintf(cause, "the %s latency histogram's bin %zu "
			    "is [%" PRIu64 ", %" PRIu64 "] us: not a range",
			    which, i, h->bin[i].lower_us, h->bin[i].upper_us);
			return (-1);
		}
		if (i > 0 && h->bin[i].lower_us < h->bin[i - 1].upper_us) {
			xasprintf(cause, "the %s latency histogram's bins are "
			    "out of order: bin %zu starts at %" PRIu64 " us, "
			    "before bin %zu ends (%" PRIu64 " us)", which, i,
			    h->bin[i].lower_us, i - 1, h->bin[i - 1].upper_us);
			return (-1);
		}
	}
	return (0);
}

/* Decode and check a page; see ebsstats.h. */
int
ebsstats_parse(const uint8_t *b, size_t len, struct ebsstats_page *p,
    char **cause)
{
	const uint8_t	*c = b + EBSSTATS_OFF_COUNTERS;
	uint64_t	 v[EBSSTATS_NCOUNTERS];
	uint32_t	 magic;
	int		 i;

	memset(p, 0, sizeof *p);
	if (len < EBSSTATS_PAGE_BYTES) {
		xasprintf(cause, "a short page: %zu bytes of %d", len,
		    EBSSTATS_PAGE_BYTES);
		return (-1);
	}
	magic = ebsstats_le32(b);
	if (magic == EBSSTATS_MAGIC_EBS)
		p->kind = EBSSTATS_KIND_EBS;
	else if (magic == EBSSTATS_MAGIC_INSTANCE_STORE)
		p->kind = EBSSTATS_KIND_INSTANCE_STORE;
	else {
		xasprintf(cause, "magic 0x%08" PRIX32 " is neither EBS's "
		    "(0x%08X) nor instance store's (0x%08X)", magic,
		    EBSSTATS_MAGIC_EBS, EBSSTATS_MAGIC_INSTANCE_STORE);
		return (-1);
	}
	p->read_ops = ebsstats_le64(c);
	p->write_ops = ebsstats_le64(c + 8);
	p->read_bytes = ebsstats_le64(c + 16);
	p->write_bytes = ebsstats_le64(c + 24);
	p->read_time_us = ebsstats_le64(c + 32);
	p->write_time_us = ebsstats_le64(c + 40);
	for (i = 0; i < EBSSTATS_NLIMITS; i++)
		p->exceeded_us[i] = ebsstats_le64(c + 48 + 8 * i);
	p->queue_length = ebsstats_le64(c + 80);
	ebsstats_counters(p, v);
	for (i = 0; i < EBSSTATS_NCOUNTERS; i++) {
		if (v[i] >= (i == 10 ? EBSSTATS_ABSURD_QUEUE :
		    EBSSTATS_ABSURD)) {
			xasprintf(cause, "%s is %" PRIu64 ": not a count",
			    ebsstats_counter_names[i], v[i]);
			return (-1);
		}
	}
	if ((p->read_ops == 0 && p->read_bytes > 0) ||
	    (p->write_ops == 0 && p->write_bytes > 0)) {
		xasprintf(cause, "bytes without operations (%" PRIu64 " read "
		    "in %" PRIu64 ", %" PRIu64 " written in %" PRIu64 ")",
		    p->read_bytes, p->read_ops, p->write_bytes, p->write_ops);
		return (-1);
	}
	if (ebsstats_parse_hist(b + EBSSTATS_OFF_READ_HIST, "read",
	    &p->read_hist, cause) != 0 ||
	    ebsstats_parse_hist(b + EBSSTATS_OFF_WRITE_HIST, "write",
	    &p->write_hist, cause) != 0)
		return (-1);
	return (0);
}

/*
 * The non-empty bins of after less before into *d (which: for messages).
 * Sets *wrapped when a count went back and was taken as a wrap.
 */
static int
ebsstats_diff_hist(const struct ebsstats_hist *a, const struct ebsstats_hist *b,
    const char *which, struct ebsstats_hist *d, int *wrapped, char **cause)
{
	uint64_t	n;
	size_t		i;

	d->nbins = 0;
	if (a->nbins != b->nbins) {
		xasprintf(cause, "the %s latency histogram went from %zu bins "
		    "to %zu", which, a->nbins, b->nbins);
		return (-1);
	}
	for (i = 0; i < a->nbins; i++) {
		if (a->bin[i].lower_us != b->bin[i].lower_us ||
		    a->bin[i].upper_us != b->bin[i].upper_us) {
			xasprintf(cause, "the %s latency histogram's bin %zu "
			    "changed its bounds", which, i);
			return (-1);
		}
		if (b->bin[i].count >= a->bin[i].count)
			n = b->bin[i].count - a->bin[i].count;
		else {
			n = b->bin[i].count + ((uint64_t)1 << 32) -
			    a->bin[i].count;
			*wrapped = 1;
		}
		if (n == 0)
			continue;
		d->bin[d->nbins] = b->bin[i];
		d->bin[d->nbins++].count = n;
	}
	return (0);
}

/* Subtract two pages into a phase; see ebsstats.h. */
int
ebsstats_diff(const struct ebsstats_page *a, const struct ebsstats_page *b,
    const char *name, double seconds, struct ebsstats_phase *d, char **cause)
{
	uint64_t	va[EBSSTATS_NCOUNTERS], vb[EBSSTATS_NCOUNTERS];
	int		i, wrapped = 0;

	memset(d, 0, sizeof *d);
	snprintf(d->phase, sizeof d->phase, "%s", name);
	d->seconds = seconds;
	d->read_p50_us = d->read_p99_us = NAN;
	d->own_read_p50_us = d->own_read_p99_us = NAN;
	if (a->kind != b->kind) {
		xasprintf(cause, "the page changed kind during %s", name);
		return (-1);
	}
	ebsstats_counters(a, va);
	ebsstats_counters(b, vb);
	/* The queue length is a level, not a count: it may fall. */
	for (i = 0; i < EBSSTATS_NCOUNTERS - 1; i++) {
		if (vb[i] < va[i]) {
			xasprintf(cause, "%s went back during %s (%" PRIu64
			    " to %" PRIu64 "): the counters were reset (the "
			    "volume re-attached?)", ebsstats_counter_names[i],
			    name, va[i], vb[i]);
			return (-1);
		}
	}
	d->read_ops = b->read_ops - a->read_ops;
	d->write_ops = b->write_ops - a->write_ops;
	d->read_bytes = b->read_bytes - a->read_bytes;
	d->write_bytes = b->write_bytes - a->write_bytes;
	d->read_time_us = b->read_time_us - a->read_time_us;
	d->write_time_us = b->write_time_us - a->write_time_us;
	for (i = 0; i < EBSSTATS_NLIMITS; i++)
		d->exceeded_us[i] = b->exceeded_us[i] - a->exceeded_us[i];
	d->queue_length = b->queue_length;
	if (ebsstats_diff_hist(&a->read_hist, &b->read_hist, "read",
	    &d->read_hist, &wrapped, cause) != 0 ||
	    ebsstats_diff_hist(&a->write_hist, &b->write_hist, "write",
	    &d->write_hist, &wrapped, cause) != 0)
		return (-1);
	if (wrapped)
		snprintf(d->note, sizeof d->note, "a histogram count wrapped "
		    "at 2^32 and was counted on");
	d->read_p50_us = ebsstats_hist_quantile(&d->read_hist, 0.5);
	d->read_p99_us = ebsstats_hist_quantile(&d->read_hist, 0.99);
	return (0);
}

/* The q-quantile of a histogram; see ebsstats.h. */
double
ebsstats_hist_quantile(const struct ebsstats_hist *h, double q)
{
	double	total = 0, want, below = 0, c;
	size_t	i;

	for (i = 0; i < h->nbins; i++)
		total += (double)h->bin[i].count;
	if (total <= 0 || !(q > 0 && q < 1))
		return (NAN);
	want = q * total;
	for (i = 0; i < h->nbins; i++) {
		c = (double)h->bin[i].count;
		if (c > 0 && below + c >= want)
			return ((double)h->bin[i].lower_us + (want - below) /
			    c * (double)(h->bin[i].upper_us -
			    h->bin[i].lower_us));
		below += c;
	}
	return ((double)h->bin[h->nbins - 1].upper_us);
}

/* The limit that held a phase; see ebsstats.h. */
enum ebsstats_limit
ebsstats_held(const struct ebsstats_phase *d)
{
	enum ebsstats_limit	most = EBSSTATS_LIMIT_NONE;
	uint64_t		longest = 0;
	int			i;

	for (i = 0; i < EBSSTATS_NLIMITS; i++) {
		if (d->exceeded_us[i] > longest) {
			longest = d->exceeded_us[i];
			most = (enum ebsstats_limit)i;
		}
	}
	if (!(d->seconds > 0) ||
	    (double)longest / 1e6 < EBSSTATS_HELD_SHARE * d->seconds)
		return (EBSSTATS_LIMIT_NONE);
	return (most);
}

/* The phase named name of run, or NULL. */
const struct ebsstats_phase *
ebsstats_phase_find(const struct ebsstats_run *run, const char *name)
{
	size_t	i;

	for (i = 0; run != NULL && i < run->nphases; i++)
		if (strcmp(run->phases[i].phase, name) == 0)
			return (&run->phases[i]);
	return (NULL);
}

/* The limit that held the sustained phase; see ebsstats.h. */
int
ebsstats_sustained_limit(const struct ebsstats_run *run)
{
	const struct ebsstats_phase	*d;

	if ((d = ebsstats_phase_find(run, "sustained")) == NULL)
		return (-1);
	return ((int)ebsstats_held(d));
}

const char *
ebsstats_limit_name(int l)
{
	if (l < 0 || l > EBSSTATS_LIMIT_NONE)
		return (NULL);
	return (ebsstats_limit_names[l]);
}

const char *
ebsstats_kind_name(int k)
{
	if (k == EBSSTATS_KIND_EBS)
		return ("ebs");
	if (k == EBSSTATS_KIND_INSTANCE_STORE)
		return ("instance-store");
	return (NULL);
}

/* Release what a run owns. */
void
ebsstats_run_free(struct ebsstats_run *run)
{
	if (run == NULL)
		return;
	free(run->phases);
	run->phases = NULL;
	run->nphases = 0;
}
