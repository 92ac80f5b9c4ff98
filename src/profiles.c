/* SPDX-License-Identifier: ISC */
/*
 * Simulated-volume profiles: lookup by name, INI parsing (inih) with
 * file:line:key messages, copies.  Printing one is report-profile.c's.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "profiles.h"
#include "units.h"
#include "voltype.h"
#include "words.h"
#include "xmalloc.h"

#ifndef TP_PKGDATADIR
#define TP_PKGDATADIR	"/usr/local/share/tierprobe"
#endif
#ifndef TP_SRCDIR
#define TP_SRCDIR	"."
#endif

/*
 * The format (DESIGN.md, extended).  Sizes take K/M/G/T/P (powers of 1024;
 * KB, MB, ... powers of 1000), rates are sizes per second ("/s" optional),
 * latencies are plain numbers of microseconds, counts plain numbers
 * ("5400000", "5.4e6").
 *
 * [device]   name, description (defaults: file name, "")
 *            size                  required
 *            model                 what the device says it is (sysfs
 *                                  device/model); a simulated target's
 *                                  context reports it (none)
 *            type                  the documented type, with settings
 *                                  ("io1,iops=4000"), whose rules its
 *                                  figures follow at its size (none)
 *            block_size            logical block, alignment (4096)
 *            cache_block           unit the tiers cache (4096)
 *            transfer              rate one I/O moves data at: an I/O of
 *                                  len bytes takes len / transfer more (0)
 *            first_read_us, first_read_sigma   extra on a block's first
 *                                  read, unless written first (0)
 * [tier.N]   capacity, latency_us, sigma   N from 0, fastest and smallest
 *                                  first; capacities count faster tiers
 *            outliers, outlier_factor   share of reads (0, at most 0.5)
 *                                  taking factor (100) to 10 x factor
 *                                  times the median, log-uniformly
 *            second_us, second_sigma, second_share, second_share_missed
 *                                  hits at a second speed (none): a
 *                                  lognormal of that median and shape (the
 *                                  tier's sigma) serves second_share of
 *                                  the hits while the recent reads all hit
 *                                  the tier, moving linearly to
 *                                  second_share_missed (the same) as the
 *                                  share of their service time spent on
 *                                  reads that missed it grows to 1
 * [backing]  latency_us (required), sigma (0), concurrency (1),
 *            outliers, outlier_factor   as a tier's
 *            throttle_iops, throttle_window_ms   a cap on the store's
 *                                  reads alone, released window by window
 *                                  (100 ms) as blk-throttle does (none)
 *            drift_us, drift_s     a latency drifting with the clock: a
 *                                  share of the store's reads growing from
 *                                  none at the start of the clock to all
 *                                  at drift_s seconds takes the median
 *                                  drift_us instead (none)
 * [limit]    iops, bandwidth, io_accounting   sustained ceilings (none);
 *            charge_min            bytes an I/O costs the volume's
 *                                  bandwidth and byte credits at least
 *                                  (st1, sc1: 1 MiB of each I/O) (none)
 * [instance] name, description     the instance; volumes of one run that
 *                                  name the same one share its ceilings
 *                                  (without a name: the volume's own)
 *            iops, bandwidth       a second set of ceilings on top (none)
 *            burst_iops, burst_bandwidth, burst_duration_s   an instance
 *                                  bucket: burst rates for the duration
 *                                  from full, earning at iops, bandwidth
 *            burst_period_s        the bucket full again at every
 *                                  multiple of it on the clock (never)
 * [burst]    iops, credits         IOPS bucket earning at [limit] iops
 *            bandwidth, credit_bytes   bandwidth bucket (st1) earning at
 *                                  [limit] bandwidth
 * [promise]  tolerance, of_time, source   what the provider documents:
 *                                  figures at least (100 - tolerance)% of
 *                                  nominal, of_time% of the time (percent)
 * [write]    latency_us, sigma     a write until acknowledged (as
 *                                  [backing]); reads and writes share the
 *                                  ceilings and buckets, as EBS counts both
 *            cache                 "write back" or "write through" (what
 *                                  sysfs queue/write_cache says; through)
 *            fua                   yes or no: sysfs queue/fua (no)
 *            flush_us, flush_sigma a cache flush (write back only); 0: the
 *                                  flush is acknowledged at once (0)
 *            buffer, drain         a write-back buffer of that many bytes
 *                                  draining to the store at drain bytes/s;
 *                                  writes wait for room when it is full
 *
 * An instance profile (profiles/instances/NAME.ini) holds [instance] and
 * nothing else; VOLUME@INSTANCE puts a volume on one.
 */

#define PROFILES_MAX_UNITS	(1U << 25)	/* cache blocks: ~0.8 GB */
/* Bounds that keep virtual time (ns in 64 bits) and rates finite. */
#define PROFILES_MAX_SIGMA	3.0		/* p99 ~ 1000 x median */
#define PROFILES_MAX_US		1e8		/* 100 s for one I/O */
#define PROFILES_MAX_RATE	1e12		/* IOPS, bytes/s, credits */
#define PROFILES_MAX_OUTLIERS	0.5		/* share of reads */
#define PROFILES_MAX_SHARE	1.0		/* share of a tier's hits */
#define PROFILES_MAX_DRIFT_S	1e7
#define PROFILES_MAX_FACTOR	1e4		/* outliers' least slowdown */
#define PROFILES_MAX_WINDOW_MS	1e4
#define PROFILES_OUTLIER_FACTOR	100.0		/* default */
#define PROFILES_WINDOW_MS	100.0		/* blk-throttle's slice, HDD */

enum profiles_kind {
	PROFILES_STR,		/* char * */
	PROFILES_U64,		/* size, > 0 */
	PROFILES_U32,		/* size, > 0, fits 32 bits */
	PROFILES_BYTES,		/* size, > 0, as a double */
	PROFILES_RATE,		/* size per second ("/s" optional), double */
	PROFILES_POS,		/* number > 0 */
	PROFILES_NONNEG,	/* number >= 0 */
	PROFILES_COUNT,		/* whole number >= 1 (unsigned) */
	PROFILES_BOOL,		/* yes or no (int) */
};

enum profiles_section {
	PROFILES_DEVICE,
	PROFILES_TIER,
	PROFILES_BACKING,
	PROFILES_LIMIT,
	PROFILES_INSTANCE,
	PROFILES_BURST,
	PROFILES_PROMISE,
	PROFILES_WRITE,
	PROFILES_NSECTIONS,
};

static const char *const profiles_section_names[] = {
	[PROFILES_DEVICE] = "device",
	[PROFILES_TIER] = "tier",
	[PROFILES_BACKING] = "backing",
	[PROFILES_LIMIT] = "limit",
	[PROFILES_INSTANCE] = "instance",
	[PROFILES_BURST] = "burst",
	[PROFILES_PROMISE] = "promise",
	[PROFILES_WRITE] = "write",
};

enum profiles_keyid {
	PK_NAME, PK_DESCRIPTION, PK_MODEL, PK_TYPE, PK_SIZE, PK_BLOCK_SIZE,
	PK_CACHE_BLOCK,
	PK_TRANSFER, PK_FIRST_READ_US, PK_FIRST_READ_SIGMA,
	PK_CAPACITY, PK_TIER_LATENCY, PK_TIER_SIGMA, PK_TIER_OUTLIERS,
	PK_TIER_OUTLIER_FACTOR, PK_SECOND_US, PK_SECOND_SIGMA, PK_SECOND_SHARE,
	PK_SECOND_SHARE_MISSED,
	PK_BACKING_LATENCY, PK_BACKING_SIGMA, PK_CONCURRENCY,
	PK_BACKING_OUTLIERS, PK_BACKING_OUTLIER_FACTOR, PK_THROTTLE_IOPS,
	PK_THROTTLE_WINDOW_MS, PK_DRIFT_US, PK_DRIFT_S,
	PK_LIMIT_IOPS, PK_LIMIT_BANDWIDTH, PK_IO_ACCOUNTING, PK_CHARGE_MIN,
	PK_INSTANCE_NAME, PK_INSTANCE_DESCRIPTION,
	PK_INSTANCE_IOPS, PK_INSTANCE_BANDWIDTH, PK_INSTANCE_BURST_IOPS,
	PK_INSTANCE_BURST_BANDWIDTH, PK_INSTANCE_BURST_S,
	PK_INSTANCE_BURST_PERIOD,
	PK_BURST_IOPS, PK_BURST_CREDITS, PK_BURST_BANDWIDTH,
	PK_BURST_CREDIT_BYTES,
	PK_PROMISE_TOLERANCE, PK_PROMISE_OF_TIME, PK_PROMISE_SOURCE,
	PK_WRITE_LATENCY, PK_WRITE_SIGMA, PK_WRITE_CACHE, PK_WRITE_FUA,
	PK_FLUSH_US, PK_FLUSH_SIGMA, PK_BUFFER, PK_DRAIN,
	PK_NKEYS,
};

struct profiles_key {
	enum profiles_section	 section;
	const char		*name;
	enum profiles_kind	 kind;
	size_t			 off;	/* in struct profile, or profile_tier */
	double			 max;	/* largest value of a double; 0 none */
};

#define P(f)	offsetof(struct profile, f)
#define T(f)	offsetof(struct profile_tier, f)
static const struct profiles_key profiles_keys[PK_NKEYS] = {
	[PK_NAME] = { PROFILES_DEVICE, "name", PROFILES_STR, P(name) },
	[PK_DESCRIPTION] = { PROFILES_DEVICE, "description", PROFILES_STR,
	    P(description) },
	[PK_MODEL] = { PROFILES_DEVICE, "model", PROFILES_STR, P(model) },
	[PK_TYPE] = { PROFILES_DEVICE, "type", PROFILES_STR, P(type) },
	[PK_SIZE] = { PROFILES_DEVICE, "size", PROFILES_U64, P(size) },
	[PK_BLOCK_SIZE] = { PROFILES_DEVICE, "block_size", PROFILES_U32,
	    P(block_size) },
	[PK_CACHE_BLOCK] = { PROFILES_DEVICE, "cache_block", PROFILES_U32,
	    P(cache_block) },
	[PK_TRANSFER] = { PROFILES_DEVICE, "transfer", PROFILES_RATE,
	    P(transfer), PROFILES_MAX_RATE },
	[PK_FIRST_READ_US] = { PROFILES_DEVICE, "first_read_us",
	    PROFILES_NONNEG, P(first_read_us), PROFILES_MAX_US },
	[PK_FIRST_READ_SIGMA] = { PROFILES_DEVICE, "first_read_sigma",
	    PROFILES_NONNEG, P(first_read_sigma), PROFILES_MAX_SIGMA },
	[PK_CAPACITY] = { PROFILES_TIER, "capacity", PROFILES_U64,
	    T(capacity) },
	[PK_TIER_LATENCY] = { PROFILES_TIER, "latency_us", PROFILES_POS,
	    T(latency_us), PROFILES_MAX_US },
	[PK_TIER_SIGMA] = { PROFILES_TIER, "sigma", PROFILES_NONNEG,
	    T(sigma), PROFILES_MAX_SIGMA },
	[PK_BACKING_LATENCY] = { PROFILES_BACKING, "latency_us",
	    PROFILES_POS, P(backing_latency_us), PROFILES_MAX_US },
	[PK_BACKING_SIGMA] = { PROFILES_BACKING, "sigma", PROFILES_NONNEG,
	    P(backing_sigma), PROFILES_MAX_SIGMA },
	[PK_CONCURRENCY] = { PROFILES_BACKING, "concurrency",
	    PROFILES_COUNT, P(concurrency) },
	[PK_TIER_OUTLIERS] = { PROFILES_TIER, "outliers", PROFILES_NONNEG,
	    T(outliers), PROFILES_MAX_OUTLIERS },
	[PK_TIER_OUTLIER_FACTOR] = { PROFILES_TIER, "outlier_factor",
	    PROFILES_POS, T(outlier_factor), PROFILES_MAX_FACTOR },
	[PK_SECOND_US] = { PROFILES_TIER, "second_us", PROFILES_POS,
	    T(second_us), PROFILES_MAX_US },
	[PK_SECOND_SIGMA] = { PROFILES_TIER, "second_sigma", PROFILES_NONNEG,
	    T(second_sigma), PROFILES_MAX_SIGMA },
	[PK_SECOND_SHARE] = { PROFILES_TIER, "second_share", PROFILES_NONNEG,
	    T(second_share), PROFILES_MAX_SHARE },
	[PK_SECOND_SHARE_MISSED] = { PROFILES_TIER, "second_share_missed",
	    PROFILES_NONNEG, T(second_share_missed), PROFILES_MAX_SHARE },
	[PK_BACKING_OUTLIERS] = { PROFILES_BACKING, "outliers",
	    PROFILES_NONNEG, P(backing_outliers), PROFILES_MAX_OUTLIERS },
	[PK_BACKING_OUTLIER_FACTOR] = { PROFILES_BACKING, "outlier_factor",
	    PROFILES_POS, P(backing_outlier_factor), PROFILES_MAX_FACTOR },
	[PK_THROTTLE_IOPS] = { PROFILES_BACKING, "throttle_iops",
	    PROFILES_POS, P(throttle_iops), PROFILES_MAX_RATE },
	[PK_THROTTLE_WINDOW_MS] = { PROFILES_BACKING, "throttle_window_ms",
	    PROFILES_POS, P(throttle_window_ms), PROFILES_MAX_WINDOW_MS },
	[PK_DRIFT_US] = { PROFILES_BACKING, "drift_us", PROFILES_POS,
	    P(drift_us), PROFILES_MAX_US },
	[PK_DRIFT_S] = { PROFILES_BACKING, "drift_s", PROFILES_POS,
	    P(drift_s), PROFILES_MAX_DRIFT_S },
	[PK_LIMIT_IOPS] = { PROFILES_LIMIT, "iops", PROFILES_POS,
	    P(limit_iops), PROFILES_MAX_RATE },
	[PK_LIMIT_BANDWIDTH] = { PROFILES_LIMIT, "bandwidth", PROFILES_RATE,
	    P(limit_bandwidth), PROFILES_MAX_RATE },
	[PK_IO_ACCOUNTING] = { PROFILES_LIMIT, "io_accounting", PROFILES_U64,
	    P(io_accounting) },
	[PK_CHARGE_MIN] = { PROFILES_LIMIT, "charge_min", PROFILES_U64,
	    P(charge_min) },
	[PK_INSTANCE_NAME] = { PROFILES_INSTANCE, "name", PROFILES_STR,
	    P(instance_name) },
	[PK_INSTANCE_DESCRIPTION] = { PROFILES_INSTANCE, "description",
	    PROFILES_STR, P(instance_description) },
	[PK_INSTANCE_IOPS] = { PROFILES_INSTANCE, "iops", PROFILES_POS,
	    P(instance_iops), PROFILES_MAX_RATE },
	[PK_INSTANCE_BANDWIDTH] = { PROFILES_INSTANCE, "bandwidth",
	    PROFILES_RATE, P(instance_bandwidth), PROFILES_MAX_RATE },
	[PK_INSTANCE_BURST_IOPS] = { PROFILES_INSTANCE, "burst_iops",
	    PROFILES_POS, P(instance_burst_iops), PROFILES_MAX_RATE },
	[PK_INSTANCE_BURST_BANDWIDTH] = { PROFILES_INSTANCE,
	    "burst_bandwidth", PROFILES_RATE, P(instance_burst_bandwidth),
	    PROFILES_MAX_RATE },
	[PK_INSTANCE_BURST_S] = { PROFILES_INSTANCE, "burst_duration_s",
	    PROFILES_POS, P(instance_burst_s), 1e7 },
	[PK_INSTANCE_BURST_PERIOD] = { PROFILES_INSTANCE, "burst_period_s",
	    PROFILES_POS, P(instance_burst_period_s), 1e9 },
	[PK_BURST_IOPS] = { PROFILES_BURST, "iops", PROFILES_POS,
	    P(burst_iops), PROFILES_MAX_RATE },
	[PK_BURST_CREDITS] = { PROFILES_BURST, "credits", PROFILES_POS,
	    P(burst_credits), PROFILES_MAX_RATE },
	[PK_BURST_BANDWIDTH] = { PROFILES_BURST, "bandwidth", PROFILES_RATE,
	    P(burst_bandwidth), PROFILES_MAX_RATE },
	[PK_BURST_CREDIT_BYTES] = { PROFILES_BURST, "credit_bytes",
	    PROFILES_BYTES, P(burst_credit_bytes), 1e18 },
	[PK_PROMISE_TOLERANCE] = { PROFILES_PROMISE, "tolerance",
	    PROFILES_NONNEG, P(promise_pct), 100 },
	[PK_PROMISE_OF_TIME] = { PROFILES_PROMISE, "of_time", PROFILES_POS,
	    P(promise_of_time_pct), 100 },
	[PK_PROMISE_SOURCE] = { PROFILES_PROMISE, "source", PROFILES_STR,
	    P(promise_source) },
	[PK_WRITE_LATENCY] = { PROFILES_WRITE, "latency_us", PROFILES_POS,
	    P(write_latency_us), PROFILES_MAX_US },
	[PK_WRITE_SIGMA] = { PROFILES_WRITE, "sigma", PROFILES_NONNEG,
	    P(write_sigma), PROFILES_MAX_SIGMA },
	[PK_WRITE_CACHE] = { PROFILES_WRITE, "cache", PROFILES_STR,
	    P(write_cache) },
	[PK_WRITE_FUA] = { PROFILES_WRITE, "fua", PROFILES_BOOL, P(fua) },
	[PK_FLUSH_US] = { PROFILES_WRITE, "flush_us", PROFILES_NONNEG,
	    P(flush_us), PROFILES_MAX_US },
	[PK_FLUSH_SIGMA] = { PROFILES_WRITE, "flush_sigma", PROFILES_NONNEG,
	    P(flush_sigma), PROFILES_MAX_SIGMA },
	[PK_BUFFER] = { PROFILES_WRITE, "buffer", PROFILES_BYTES,
	    P(buffer_bytes), 1e18 },
	[PK_DRAIN] = { PROFILES_WRITE, "drain", PROFILES_RATE,
	    P(buffer_drain), PROFILES_MAX_RATE },
};
#undef P
#undef T

struct profiles_ctx {
	FILE		*f;
	const char	*path;
	int		 line;		/* of the line inih is parsing */
	size_t		 bytes;		/* read so far */
	char		*cause;		/* first error */
	struct profile	*p;
	/* Where each key and section was set (per tier); 0: unset. */
	int		 key_line[PK_NKEYS][PROFILES_TIERS_MAX];
	int		 section_line[PROFILES_NSECTIONS][PROFILES_TIERS_MAX];
};

static char	*profiles_dir_env;

static const char *
profiles_basename(const char *path)
{
	const char	*b = strrchr(path, '/');

	return (b != NULL ? b + 1 : path);
}

static int
profiles_has_suffix(const char *s, const char *suffix)
{
	size_t	ls = strlen(s), lx = strlen(suffix);

	return (ls >= lx && strcmp(s + ls - lx, suffix) == 0);
}

static void
profiles_error(struct profiles_ctx *ctx, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Keep the first error only: "file:line: message" (line 0: none). */
static void
profiles_error(struct profiles_ctx *ctx, int line, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	xcause_at(&ctx->cause, ctx->path, line, fmt, ap);
	va_end(ap);
}

/*
 * Map a section name to its kind and tier index.  Returns -1 when it is
 * unknown.
 */
static int
profiles_section_find(const char *name, enum profiles_section *sec,
    unsigned *tier)
{
	int	i;
	char	*end;
	long	n;

	*tier = 0;
	if (strncmp(name, "tier.", 5) == 0) {
		if (!isdigit((unsigned char)name[5]))
			return (-1);
		errno = 0;
		n = strtol(name + 5, &end, 10);
		if (*end != '\0' || errno != 0 || n < 0 ||
		    n >= PROFILES_TIERS_MAX)
			return (-1);
		*sec = PROFILES_TIER;
		*tier = (unsigned)n;
		return (0);
	}
	for (i = 0; i < PROFILES_NSECTIONS; i++) {
		if (i != PROFILES_TIER &&
		    strcmp(name, profiles_section_names[i]) == 0) {
			*sec = i;
			return (0);
		}
	}
	return (-1);
}

/* Note a "[section]" line: unknown ones are errors, even when empty. */
static void
profiles_section_line(struct profiles_ctx *ctx, char *line)
{
	enum profiles_section	 sec;
	unsigned		 tier;
	char			*end, *name;

	if ((end = strchr(line, ']')) == NULL)
		return;		/* inih reports the syntax error */
	name = xstrdup(line + 1);
	name[end - line - 1] = '\0';
	if (profiles_section_find(name, &sec, &tier) != 0) {
		profiles_error(ctx, ctx->line, "unknown section [%s]: use "
		    "[device], [tier.0] to [tier.%d], [backing], [limit], "
		    "[instance], [burst], [promise] or [write]", name,
		    PROFILES_TIERS_MAX - 1);
	} else if (ctx->section_line[sec][tier] == 0)
		ctx->section_line[sec][tier] = ctx->line;
	free(name);
}

/*
 * The reader inih calls for each line: counts lines, strips indentation
 * (so no line continues the one before), catches over-long lines and
 * section headings.
 */
static char *
profiles_reader(char *str, int num, void *stream)
{
	struct profiles_ctx	*ctx = stream;
	size_t			 len, skip;
	int			 c;

	if (fgets(str, num, ctx->f) == NULL)
		return (NULL);
	ctx->line++;
	len = strlen(str);
	/* Never more than a profile can be, whatever the stream. */
	if ((ctx->bytes += len) > PROFILES_FILE_MAX)
		goto big;
	if (len > 0 && str[len - 1] != '\n' && !feof(ctx->f)) {
		profiles_error(ctx, ctx->line, "line longer than %d characters",
		    num - 3);
		while ((c = fgetc(ctx->f)) != EOF && c != '\n')
			if (++ctx->bytes > PROFILES_FILE_MAX)
				goto big;
		str[0] = '\0';
		return (str);
	}
	skip = strspn(str, " \t");
	memmove(str, str + skip, len - skip + 1);
	if (str[0] == '[')
		profiles_section_line(ctx, str);
	return (str);

big:
	free(ctx->cause);
	ctx->cause = NULL;
	profiles_error(ctx, 0, "larger than %d bytes, the most a profile "
	    "can be", PROFILES_FILE_MAX);
	return (NULL);
}

static int
profiles_number(const char *value, double *out)
{
	char	*end;

	if (*value == '\0' || isspace((unsigned char)*value))
		return (-1);
	errno = 0;
	*out = strtod(value, &end);
	if (*end != '\0' || errno != 0 || !isfinite(*out))
		return (-1);
	return (0);
}

/* Parse value as a key of kind k into dst.  Returns 0 or -1 with *why. */
static int
profiles_value(enum profiles_kind k, const char *value, void *dst,
    char **why)
{
	uint64_t	 u;
	double		 d;
	char		*v, *cause = NULL;
	size_t		 len;

	switch (k) {
	case PROFILES_STR:
		free(*(char **)dst);
		*(char **)dst = xstrdup(value);
		return (0);
	case PROFILES_U64:
	case PROFILES_U32:
	case PROFILES_BYTES:
	case PROFILES_RATE:
		v = xstrdup(value);
		len = strlen(v);
		if (k == PROFILES_RATE && len > 2 &&
		    strcmp(v + len - 2, "/s") == 0)
			v[len - 2] = '\0';
		if (units_parse_size(v, &u, &cause) != 0) {
			free(v);
			*why = cause;
			return (-1);
		}
		free(v);
		if (u == 0) {
			xasprintf(why, "must be more than zero, not \"%s\"",
			    value);
			return (-1);
		}
		if (k == PROFILES_U64)
			*(uint64_t *)dst = u;
		else if (k == PROFILES_U32) {
			if (u > UINT32_MAX) {
				xasprintf(why, "\"%s\" is too large", value);
				return (-1);
			}
			*(uint32_t *)dst = (uint32_t)u;
		} else
			*(double *)dst = (double)u;
		return (0);
	case PROFILES_POS:
	case PROFILES_NONNEG:
		if (profiles_number(value, &d) != 0) {
			xasprintf(why, "not a number: \"%s\"", value);
			return (-1);
		}
		if (d < 0 || (k == PROFILES_POS && d == 0)) {
			xasprintf(why, "must be %s, not \"%s\"",
			    k == PROFILES_POS ? "more than zero" :
			    "zero or more", value);
			return (-1);
		}
		*(double *)dst = d;
		return (0);
	case PROFILES_COUNT:
		if (units_parse_uint(value, 1, 1000000, &u, &cause) != 0) {
			*why = cause;
			return (-1);
		}
		*(unsigned *)dst = (unsigned)u;
		return (0);
	case PROFILES_BOOL:
		if (strcmp(value, "yes") == 0 || strcmp(value, "no") == 0) {
			*(int *)dst = strcmp(value, "yes") == 0;
			return (0);
		}
		xasprintf(why, "use yes or no, not \"%s\"", value);
		return (-1);
	}
	xasprintf(why, "bad key kind");
	return (-1);
}

static int
profiles_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct profiles_ctx		*ctx = user;
	const struct profiles_key	*k = NULL;
	enum profiles_section		 sec;
	unsigned			 tier;
	int				 i;
	char				*why = NULL;
	void				*dst;

	if (*section == '\0') {
		profiles_error(ctx, ctx->line, "%s: key outside a section",
		    name);
		return (0);
	}
	if (profiles_section_find(section, &sec, &tier) != 0)
		return (0);	/* reported by the reader */
	for (i = 0; i < PK_NKEYS; i++) {
		if (profiles_keys[i].section == sec &&
		    strcmp(profiles_keys[i].name, name) == 0) {
			k = &profiles_keys[i];
			break;
		}
	}
	if (k == NULL) {
		profiles_error(ctx, ctx->line, "[%s] %s: unknown key", section,
		    name);
		return (0);
	}
	if (ctx->key_line[i][tier] != 0) {
		profiles_error(ctx, ctx->line, "[%s] %s: given twice (first "
		    "on line %d)", section, name, ctx->key_line[i][tier]);
		return (0);
	}
	ctx->key_line[i][tier] = ctx->line;
	if (sec == PROFILES_TIER)
		dst = (char *)&ctx->p->tier[tier] + k->off;
	else
		dst = (char *)ctx->p + k->off;
	if (profiles_value(k->kind, value, dst, &why) != 0) {
		profiles_error(ctx, ctx->line, "[%s] %s: %s", section, name,
		    why);
		free(why);
		return (0);
	}
	if (k->max > 0 && *(double *)dst > k->max) {
		profiles_error(ctx, ctx->line, "[%s] %s: %s is too large (at "
		    "most %g)", section, name, value, k->max);
		return (0);
	}
	return (1);
}

static int
profiles_is_pow2(uint64_t v)
{
	return (v != 0 && (v & (v - 1)) == 0);
}

/* The file's name without directory and ".ini", as a default name. */
static char *
profiles_default_name(const char *path)
{
	char	*name = xstrdup(profiles_basename(path));

	if (profiles_has_suffix(name, ".ini"))
		name[strlen(name) - 4] = '\0';
	return (name);
}

/* Check [instance]: each bucket needs its baseline and a duration. */
static void
profiles_check_instance(struct profiles_ctx *ctx)
{
	struct profile	*p = ctx->p;
	int		 line = ctx->section_line[PROFILES_INSTANCE][0];

#define KL(k)	(ctx->key_line[k][0])
	if (p->instance_burst_iops > 0 &&
	    p->instance_burst_iops <= p->instance_iops) {
		profiles_error(ctx, KL(PK_INSTANCE_BURST_IOPS), "[instance] "
		    "burst_iops: must be above the baseline iops (%.0f)",
		    p->instance_iops);
		return;
	}
	if (p->instance_burst_iops > 0 && p->instance_iops == 0) {
		profiles_error(ctx, KL(PK_INSTANCE_BURST_IOPS), "[instance] "
		    "burst_iops: needs iops, the baseline the bucket earns at");
		return;
	}
	if (p->instance_burst_bandwidth > 0 &&
	    p->instance_burst_bandwidth <= p->instance_bandwidth) {
		profiles_error(ctx, KL(PK_INSTANCE_BURST_BANDWIDTH),
		    "[instance] burst_bandwidth: must be above the baseline "
		    "bandwidth, the rate the bucket earns at");
		return;
	}
	if ((p->instance_burst_iops > 0 || p->instance_burst_bandwidth > 0) !=
	    (p->instance_burst_s > 0)) {
		profiles_error(ctx, line, "[instance] burst_duration_s goes "
		    "with burst_iops or burst_bandwidth");
		return;
	}
	if (p->instance_burst_period_s > 0 && (p->instance_burst_s == 0 ||
	    p->instance_burst_period_s < p->instance_burst_s)) {
		profiles_error(ctx, KL(PK_INSTANCE_BURST_PERIOD), "[instance] "
		    "burst_period_s: needs burst_duration_s, and no shorter");
		return;
	}
	if (ctx->section_line[PROFILES_INSTANCE][0] != 0 &&
	    p->instance_iops == 0 && p->instance_bandwidth == 0) {
		profiles_error(ctx, line, "[instance] needs iops or "
		    "bandwidth");
		return;
	}
#undef KL
}

/* The [write] section: defaults from [backing], what goes together. */
static void
profiles_check_write(struct profiles_ctx *ctx)
{
	struct profile	*p = ctx->p;
	int		 line = ctx->section_line[PROFILES_WRITE][0];

#define KL(k)	(ctx->key_line[k][0])
	if (KL(PK_WRITE_LATENCY) == 0)
		p->write_latency_us = p->backing_latency_us;
	if (KL(PK_WRITE_SIGMA) == 0)
		p->write_sigma = p->backing_sigma;
	if (p->write_cache == NULL)
		p->write_cache = xstrdup("write through");
	if (strcmp(p->write_cache, "write back") != 0 &&
	    strcmp(p->write_cache, "write through") != 0) {
		profiles_error(ctx, KL(PK_WRITE_CACHE), "[write] cache: use "
		    "\"write back\" or \"write through\", as sysfs says "
		    "them");
		return;
	}
	p->write_back = strcmp(p->write_cache, "write back") == 0;
	if (!p->write_back && (p->flush_us > 0 || KL(PK_FLUSH_SIGMA) != 0)) {
		profiles_error(ctx, KL(PK_FLUSH_US) ? KL(PK_FLUSH_US) :
		    KL(PK_FLUSH_SIGMA), "[write] flush_us: a flush is never "
		    "sent to a write-through device; set cache = write back");
		return;
	}
	if ((KL(PK_BUFFER) != 0) != (KL(PK_DRAIN) != 0)) {
		profiles_error(ctx, line, "[write] buffer and drain go "
		    "together");
		return;
	}
#undef KL
}

/* An instance profile: [instance] alone, named after its file by default. */
static void
profiles_check_instance_only(struct profiles_ctx *ctx)
{
	struct profile	*p = ctx->p;
	int		 i;

	for (i = 0; i < PROFILES_NSECTIONS; i++) {
		if (i != PROFILES_INSTANCE && ctx->section_line[i][0] != 0) {
			profiles_error(ctx, ctx->section_line[i][0], "[%s] in "
			    "an instance profile: it holds [instance] only, or "
			    "give [device] for a volume",
			    profiles_section_names[i]);
			return;
		}
	}
	p->instance_only = 1;
	if (p->instance_name == NULL || *p->instance_name == '\0') {
		free(p->instance_name);
		p->instance_name = profiles_default_name(ctx->path);
	}
	if (p->instance_description == NULL)
		p->instance_description = xstrdup("");
	free(p->name);
	p->name = xstrdup(p->instance_name);
	free(p->description);
	p->description = xstrdup(p->instance_description);
	profiles_check_instance(ctx);
}

/* Check the parsed profile as a whole; fill defaults. */
static void
profiles_check(struct profiles_ctx *ctx)
{
	struct profile	*p = ctx->p;
	char		 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	double		*f;
	unsigned	 i, n;
	int		 burst_line = ctx->section_line[PROFILES_BURST][0];
	int		 line;

#define KL(k)	(ctx->key_line[k][0])
#define TL(k, t) (ctx->key_line[k][t])
	if (ctx->section_line[PROFILES_DEVICE][0] == 0 &&
	    ctx->section_line[PROFILES_INSTANCE][0] != 0) {
		profiles_check_instance_only(ctx);
		return;
	}
	if (KL(PK_SIZE) == 0) {
		profiles_error(ctx, ctx->section_line[PROFILES_DEVICE][0],
		    "[device] size is missing");
		return;
	}
	if (p->block_size == 0)
		p->block_size = 4096;
	if (!profiles_is_pow2(p->block_size) || p->block_size < 512 ||
	    p->block_size > 65536) {
		profiles_error(ctx, KL(PK_BLOCK_SIZE), "[device] block_size: "
		    "must be a power of two from 512 to 65536 bytes");
		return;
	}
	if (p->size % p->block_size != 0) {
		profiles_error(ctx, KL(PK_SIZE), "[device] size: not a "
		    "multiple of block_size (%u)", p->block_size);
		return;
	}
	if (p->cache_block == 0)
		p->cache_block = p->block_size > 4096 ? p->block_size : 4096;
	if (!profiles_is_pow2(p->cache_block) ||
	    p->cache_block < p->block_size || p->cache_block > (16U << 20)) {
		profiles_error(ctx, KL(PK_CACHE_BLOCK), "[device] cache_block: "
		    "must be a power of two from block_size to 16 MiB");
		return;
	}
	if (p->name == NULL || *p->name == '\0') {
		free(p->name);
		p->name = profiles_default_name(ctx->path);
	}
	if (p->description == NULL)
		p->description = xstrdup("");

	/* Tiers: tier.0 .. tier.n-1, each smaller than the next. */
	for (n = 0; n < PROFILES_TIERS_MAX; n++) {
		if (ctx->section_line[PROFILES_TIER][n] == 0)
			break;
	}
	for (i = n; i < PROFILES_TIERS_MAX; i++) {
		if (ctx->section_line[PROFILES_TIER][i] != 0) {
			profiles_error(ctx, ctx->section_line[PROFILES_TIER][i],
			    "[tier.%u] without [tier.%u]: number tiers from "
			    "0, fastest first", i, n);
			return;
		}
	}
	p->ntiers = n;
	for (i = 0; i < n; i++) {
		if (TL(PK_CAPACITY, i) == 0 || TL(PK_TIER_LATENCY, i) == 0) {
			profiles_error(ctx, ctx->section_line[PROFILES_TIER][i],
			    "[tier.%u] %s is missing", i,
			    TL(PK_CAPACITY, i) == 0 ? "capacity" :
			    "latency_us");
			return;
		}
		if (p->tier[i].capacity % p->cache_block != 0) {
			profiles_error(ctx, TL(PK_CAPACITY, i), "[tier.%u] "
			    "capacity: not a multiple of cache_block (%s)", i,
			    units_format_size(p->cache_block, a, sizeof a));
			return;
		}
		if (p->tier[i].capacity / p->cache_block >=
		    PROFILES_MAX_UNITS) {
			profiles_error(ctx, TL(PK_CAPACITY, i), "[tier.%u] "
			    "capacity: more than %u cache blocks; raise "
			    "[device] cache_block", i, PROFILES_MAX_UNITS - 1);
			return;
		}
		if (i + 1 < n && p->tier[i].capacity >=
		    p->tier[i + 1].capacity) {
			profiles_error(ctx, TL(PK_CAPACITY, i), "[tier.%u] "
			    "capacity: %s is not smaller than the next tier's "
			    "(%s): tiers go smallest and fastest first", i,
			    units_format_size(p->tier[i].capacity, a, sizeof a),
			    units_format_size(p->tier[i + 1].capacity, b,
			    sizeof b));
			return;
		}
		if (i + 1 == n && p->tier[i].capacity >= p->size) {
			profiles_error(ctx, TL(PK_CAPACITY, i), "[tier.%u] "
			    "capacity: %s is not smaller than the device (%s)",
			    i, units_format_size(p->tier[i].capacity, a,
			    sizeof a), units_format_size(p->size, b,
			    sizeof b));
			return;
		}
	}

	if (KL(PK_BACKING_LATENCY) == 0) {
		profiles_error(ctx, ctx->section_line[PROFILES_BACKING][0],
		    "[backing] latency_us is missing");
		return;
	}
	if (p->concurrency == 0)
		p->concurrency = 1;
	for (i = 0; i <= n; i++) {
		f = i < n ? &p->tier[i].outlier_factor :
		    &p->backing_outlier_factor;
		line = i < n ? TL(PK_TIER_OUTLIER_FACTOR, i) :
		    KL(PK_BACKING_OUTLIER_FACTOR);
		if (*f == 0)
			*f = PROFILES_OUTLIER_FACTOR;
		else if (*f < 1) {
			if (i < n)
				snprintf(a, sizeof a, "tier.%u", i);
			else
				snprintf(a, sizeof a, "backing");
			profiles_error(ctx, line, "[%s] outlier_factor: must "
			    "be 1 or more (outliers are slower than the "
			    "median)", a);
			return;
		}
	}
	for (i = 0; i < n; i++) {
		if (TL(PK_SECOND_US, i) == 0 && (TL(PK_SECOND_SIGMA, i) != 0 ||
		    TL(PK_SECOND_SHARE, i) != 0 ||
		    TL(PK_SECOND_SHARE_MISSED, i) != 0)) {
			profiles_error(ctx, ctx->section_line[PROFILES_TIER][i],
			    "[tier.%u] second_sigma, second_share and "
			    "second_share_missed need second_us", i);
			return;
		}
		if (TL(PK_SECOND_US, i) != 0 && TL(PK_SECOND_SHARE, i) == 0) {
			profiles_error(ctx, TL(PK_SECOND_US, i), "[tier.%u] "
			    "second_us: needs second_share, the share of the "
			    "hits served at that speed", i);
			return;
		}
		if (TL(PK_SECOND_SIGMA, i) == 0)
			p->tier[i].second_sigma = p->tier[i].sigma;
		if (TL(PK_SECOND_SHARE_MISSED, i) == 0)
			p->tier[i].second_share_missed =
			    p->tier[i].second_share;
	}
	if ((KL(PK_DRIFT_US) != 0) != (KL(PK_DRIFT_S) != 0)) {
		profiles_error(ctx, KL(PK_DRIFT_US) ? KL(PK_DRIFT_US) :
		    KL(PK_DRIFT_S), "[backing] drift_us and drift_s go "
		    "together");
		return;
	}
	if (p->throttle_window_ms == 0)
		p->throttle_window_ms = PROFILES_WINDOW_MS;
	if (p->throttle_iops > 0 &&
	    p->throttle_iops * p->throttle_window_ms / 1000 < 1) {
		profiles_error(ctx, KL(PK_THROTTLE_IOPS), "[backing] "
		    "throttle_iops: less than one read a window of %g ms",
		    p->throttle_window_ms);
		return;
	}

	if ((KL(PK_BURST_IOPS) != 0) != (KL(PK_BURST_CREDITS) != 0)) {
		profiles_error(ctx, burst_line, "[burst] iops and credits go "
		    "together");
		return;
	}
	if ((KL(PK_BURST_BANDWIDTH) != 0) !=
	    (KL(PK_BURST_CREDIT_BYTES) != 0)) {
		profiles_error(ctx, burst_line, "[burst] bandwidth and "
		    "credit_bytes go together");
		return;
	}
	if (p->burst_iops > 0 && p->burst_iops <= p->limit_iops) {
		profiles_error(ctx, KL(PK_BURST_IOPS), "[burst] iops: must be "
		    "above the baseline [limit] iops (%.0f)", p->limit_iops);
		return;
	}
	if (p->burst_iops > 0 && p->limit_iops == 0) {
		profiles_error(ctx, KL(PK_BURST_IOPS), "[burst] iops: needs "
		    "[limit] iops, the baseline the bucket earns at");
		return;
	}
	if (p->burst_bandwidth > 0 && p->limit_bandwidth == 0) {
		profiles_error(ctx, KL(PK_BURST_BANDWIDTH), "[burst] bandwidth:"
		    " needs [limit] bandwidth, the baseline the bucket earns "
		    "at");
		return;
	}
	if (p->burst_bandwidth > 0 &&
	    p->burst_bandwidth <= p->limit_bandwidth) {
		profiles_error(ctx, KL(PK_BURST_BANDWIDTH), "[burst] bandwidth:"
		    " must be above the baseline [limit] bandwidth");
		return;
	}
	if (ctx->section_line[PROFILES_PROMISE][0] != 0 &&
	    KL(PK_PROMISE_TOLERANCE) == 0) {
		profiles_error(ctx, ctx->section_line[PROFILES_PROMISE][0],
		    "[promise] tolerance is missing");
		return;
	}
	if (KL(PK_PROMISE_TOLERANCE) == 0)
		p->promise_pct = NAN;
	if (KL(PK_PROMISE_OF_TIME) == 0)
		p->promise_of_time_pct = NAN;
	profiles_check_instance(ctx);
	profiles_check_write(ctx);
#undef KL
#undef TL
}

/* Parse the INI profile in f, named path in messages. */
struct profile *
profiles_parse(FILE *f, const char *path, char **cause)
{
	struct profiles_ctx	 ctx;
	int			 r;

	memset(&ctx, 0, sizeof ctx);
	ctx.f = f;
	ctx.path = path;
	ctx.p = xcalloc(1, sizeof *ctx.p);
	ctx.p->path = xstrdup(path);

	r = ini_parse_stream(profiles_reader, &ctx, profiles_handler, &ctx);
	if (ferror(f))
		profiles_error(&ctx, 0, "%s", strerror(errno ? errno : EIO));
	if (r == -2)
		profiles_error(&ctx, 0, "out of memory");
	if (r > 0)
		profiles_error(&ctx, r, "syntax error: expected [section], "
		    "key = value or a ; comment");
	if (ctx.cause == NULL)
		profiles_check(&ctx);
	if (ctx.cause != NULL) {
		*cause = ctx.cause;
		profiles_free(ctx.p);
		return (NULL);
	}
	return (ctx.p);
}

/*
 * Open the profile or type file at path to read, refusing before any read
 * what is not a regular file (a device, a FIFO, a socket: endless or
 * blocking) or is larger than PROFILES_FILE_MAX.  Opened non-blocking, so
 * a FIFO with no writer cannot hang it.  Returns the stream, or NULL with
 * *cause.
 */
static FILE *
profiles_open(const char *path, const char *what, char **cause)
{
	struct stat	 sb;
	FILE		*f;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	if (fstat(fd, &sb) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return (NULL);
	}
	if (!S_ISREG(sb.st_mode) || sb.st_size > PROFILES_FILE_MAX) {
		xasprintf(cause, "%s: %s: %s is a regular file of at most 1 "
		    "MiB (%d bytes)", path, S_ISDIR(sb.st_mode) ? "a directory" :
		    S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device" :
		    S_ISFIFO(sb.st_mode) ? "a FIFO" : S_ISREG(sb.st_mode) ?
		    "too large" : "not a regular file", what,
		    PROFILES_FILE_MAX);
		close(fd);
		return (NULL);
	}
	if (fcntl(fd, F_SETFL, 0) != 0 || (f = fdopen(fd, "r")) == NULL) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return (NULL);
	}
	return (f);
}

static struct profile *
profiles_load_path(const char *path, char **cause)
{
	struct profile	*p;
	FILE		*f;

	if ((f = profiles_open(path, "a profile", cause)) == NULL)
		return (NULL);
	p = profiles_parse(f, path, cause);
	fclose(f);
	return (p);
}

/* The profile directories in lookup order. */
const char *const *
profiles_dirs(void)
{
	static const char	*dirs[4];
	const char		*env = getenv("TIERPROBE_DATADIR");
	size_t			 n = 0;

	free(profiles_dir_env);
	profiles_dir_env = NULL;
	if (env != NULL && *env != '\0') {
		xasprintf(&profiles_dir_env, "%s/profiles", env);
		dirs[n++] = profiles_dir_env;
	}
	dirs[n++] = TP_PKGDATADIR "/profiles";
	dirs[n++] = TP_SRCDIR "/profiles";
	dirs[n] = NULL;
	return (dirs);
}

static int
profiles_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

#define PROFILES_INSTANCES	"instances"	/* subdirectory */
#define PROFILES_TYPES		"types"		/* subdirectory */

/* Names of the profiles under sub ("" or PROFILES_INSTANCES), sorted. */
static char **
profiles_names_in(const char *sub, size_t *np)
{
	const char *const	*dirs = profiles_dirs();
	struct dirent		*de;
	DIR			*d;
	char			**v = NULL, *name, *dir;
	size_t			 n = 0, i, j;

	for (i = 0; dirs[i] != NULL; i++) {
		xasprintf(&dir, "%s%s%s", dirs[i], *sub != '\0' ? "/" : "",
		    sub);
		d = opendir(dir);
		free(dir);
		if (d == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.' ||
			    !profiles_has_suffix(de->d_name, ".ini"))
				continue;
			name = xstrdup(de->d_name);
			name[strlen(name) - 4] = '\0';
			for (j = 0; j < n; j++) {
				if (strcmp(v[j], name) == 0)
					break;
			}
			if (j < n) {
				free(name);
				continue;
			}
			v = xreallocarray(v, n + 1, sizeof *v);
			v[n++] = name;
		}
		closedir(d);
	}
	if (n > 0)
		qsort(v, n, sizeof *v, profiles_cmp);
	*np = n;
	return (v);
}

/* Names of the built-in profiles, sorted; see profiles.h. */
char **
profiles_names(size_t *np)
{
	return (profiles_names_in("", np));
}

/* Names of the built-in instance profiles, sorted. */
char **
profiles_instance_names(size_t *np)
{
	return (profiles_names_in(PROFILES_INSTANCES, np));
}

/* Names of the volume types, sorted. */
char **
profiles_type_names(size_t *np)
{
	return (profiles_names_in(PROFILES_TYPES, np));
}

/* Free what profiles_names returned. */
void
profiles_names_free(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The file of built-in profile name under sub, or NULL with *cause. */
static char *
profiles_find(const char *name, const char *sub, char **cause)
{
	const char *const	*dirs = profiles_dirs();
	const char		*what;
	char			*path, **v, *list = NULL, *tmp;
	size_t			 i, n;
	long			 at;

	for (i = 0; dirs[i] != NULL; i++) {
		xasprintf(&path, "%s%s%s/%s.ini", dirs[i], *sub != '\0' ?
		    "/" : "", sub, name);
		if (access(path, F_OK) == 0)
			return (path);
		free(path);
	}
	v = profiles_names_in(sub, &n);
	for (i = 0; i < n; i++) {
		xasprintf(&tmp, "%s%s%s", list != NULL ? list : "",
		    list != NULL ? ", " : "", v[i]);
		free(list);
		list = tmp;
	}
	what = strcmp(sub, PROFILES_TYPES) == 0 ? "volume type" :
	    *sub != '\0' ? "instance" : "simulated volume";
	if (n == 0)
		xasprintf(cause, "no %s \"%s\": no profiles found (set "
		    "TIERPROBE_DATADIR, or give a path to a .ini file)", what,
		    name);
	else if ((at = words_closest(name, (const char *const *)v, n)) >= 0)
		xasprintf(cause, "no %s \"%s\": did you mean %s? (built-in "
		    "%s: %s)", what, name, v[at], strcmp(sub,
		    PROFILES_TYPES) == 0 ? "types" : *sub != '\0' ?
		    "instances" : "profiles", list);
	else
		xasprintf(cause, "no %s \"%s\"; built-in %s: %s", what,
		    name, strcmp(sub, PROFILES_TYPES) == 0 ? "types" :
		    *sub != '\0' ? "instances" : "profiles", list);
	free(list);
	profiles_names_free(v, n);
	return (NULL);
}

/* A profile by built-in name under sub, or by path. */
static struct profile *
profiles_load_in(const char *spec, const char *sub, char **cause)
{
	struct profile	*p;
	char		*path;

	if (*spec == '\0') {
		xasprintf(cause, "empty %s name; try \"tierprobe profiles\"",
		    *sub != '\0' ? "instance" : "simulated volume");
		return (NULL);
	}
	if (strchr(spec, '/') != NULL || profiles_has_suffix(spec, ".ini"))
		return (profiles_load_path(spec, cause));
	if ((path = profiles_find(spec, sub, cause)) == NULL)
		return (NULL);
	p = profiles_load_path(path, cause);
	free(path);
	return (p);
}

/* An instance profile by name or path. */
struct profile *
profiles_load_instance(const char *spec, char **cause)
{
	struct profile	*p;

	if ((p = profiles_load_in(spec, PROFILES_INSTANCES, cause)) == NULL)
		return (NULL);
	if (!p->instance_only) {
		xasprintf(cause, "%s: a volume, not an instance profile (one "
		    "that holds [instance] only)", p->path);
		profiles_free(p);
		return (NULL);
	}
	return (p);
}

/* Read the type file at path. */
static struct voltype *
profiles_type_read(const char *path, char **cause)
{
	struct voltype	*t;
	FILE		*f;
	char		*buf;
	size_t		 n;

	if ((f = profiles_open(path, "a type file", cause)) == NULL)
		return (NULL);
	buf = xmalloc(PROFILES_FILE_MAX + 1);
	n = fread(buf, 1, PROFILES_FILE_MAX + 1, f);
	if (ferror(f))
		xasprintf(cause, "%s: %s", path, strerror(errno ? errno : EIO));
	else if (n > PROFILES_FILE_MAX)
		xasprintf(cause, "%s: larger than %d bytes, the most a type "
		    "file can be", path, PROFILES_FILE_MAX);
	t = ferror(f) || n > PROFILES_FILE_MAX ? NULL :
	    voltype_parse(buf, n, path, cause);
	fclose(f);
	free(buf);
	return (t);
}

/* A volume type by name or path. */
struct voltype *
profiles_type_load(const char *spec, char **cause)
{
	struct voltype	*t;
	char		*path;

	if (*spec == '\0') {
		xasprintf(cause, "empty volume type name; try \"tierprobe "
		    "profiles\"");
		return (NULL);
	}
	if (strchr(spec, '/') != NULL || profiles_has_suffix(spec, ".ini"))
		return (profiles_type_read(spec, cause));
	if ((path = profiles_find(spec, PROFILES_TYPES, cause)) == NULL)
		return (NULL);
	t = profiles_type_read(path, cause);
	free(path);
	return (t);
}

/* Every volume type found, sorted by name. */
struct voltype **
profiles_types_load(size_t *np, char **cause)
{
	struct voltype	**v = NULL, *t;
	char		**names, *why;
	size_t		  n, i;

	*cause = NULL;
	*np = 0;
	names = profiles_type_names(&n);
	for (i = 0; i < n; i++) {
		why = NULL;
		if ((t = profiles_type_load(names[i], &why)) == NULL) {
			if (*cause == NULL)
				*cause = why;
			else
				free(why);
			continue;
		}
		v = xreallocarray(v, *np + 1, sizeof *v);
		v[(*np)++] = t;
	}
	profiles_names_free(names, n);
	return (v);
}

/* A figure line of a made profile, when the type imposes it. */
static void
profiles_type_line(FILE *f, const char *key, double v, int whole)
{
	if (!isfinite(v))
		return;
	if (whole)
		fprintf(f, "%s = %.0f\n", key, v);
	else
		fprintf(f, "%s = %.17g\n", key, v);
}

/* A simulated volume of type t as spec says; see profiles.h. */
struct profile *
profiles_from_type(const struct voltype *t, const struct voltype_spec *spec,
    const char *name, char **cause)
{
	struct voltype_figures	 fig;
	struct profile		*p;
	double			 values[VOLTYPE_SETTINGS_MAX], size;
	char			 settings[96], *ini = NULL, *why = NULL;
	size_t			 len = 0;
	FILE			*f;

	if (spec->size_bytes == 0) {
		xasprintf(cause, "%s: a simulated %s needs a size, as in "
		    "%s:100G", name, t->name, t->name);
		return (NULL);
	}
	size = (double)spec->size_bytes / 1073741824.0;
	if (size < t->size_min || size > t->size_max) {
		xasprintf(cause, "%s: %s volumes are %g GiB to %g GiB, not "
		    "%g GiB", name, t->name, t->size_min, t->size_max, size);
		return (NULL);
	}
	if (voltype_settings(t, spec, size, values, &why) != 0) {
		xasprintf(cause, "%s: %s", name, why);
		free(why);
		return (NULL);
	}
	voltype_eval(t, size, values, 4096, &fig);
	voltype_settings_text(t, values, settings, sizeof settings);

	if ((f = open_memstream(&ini, &len)) == NULL)
		fatal("open_memstream");
	fprintf(f, "[device]\nname = %s\ndescription = %s at %g GiB%s%s, "
	    "from the rules of %s\nsize = %llu\ntype = %s%s%s\n", name,
	    t->name, size, *settings != '\0' ? ", " : "", settings,
	    t->source, (unsigned long long)spec->size_bytes, t->name,
	    *settings != '\0' ? "," : "", settings);
	if (t->model != NULL)
		fprintf(f, "model = %s\n", t->model);
	fprintf(f, "[limit]\n");
	profiles_type_line(f, "iops", fig.iops, 0);
	profiles_type_line(f, "bandwidth", fig.bandwidth, 1);
	profiles_type_line(f, "io_accounting", fig.io_accounting, 1);
	profiles_type_line(f, "charge_min", fig.charge_min, 1);
	fprintf(f, "[burst]\n");
	profiles_type_line(f, "iops", fig.burst_iops, 0);
	profiles_type_line(f, "credits", fig.burst_credits, 0);
	profiles_type_line(f, "bandwidth", fig.burst_bandwidth, 1);
	profiles_type_line(f, "credit_bytes", fig.burst_credit_bytes, 1);
	if (isfinite(t->tolerance_pct)) {
		fprintf(f, "[promise]\ntolerance = %g\nsource = %s\n",
		    t->tolerance_pct, t->source);
		profiles_type_line(f, "of_time", t->of_time_pct, 0);
	}
	fprintf(f, "%s", t->sim_ini != NULL ? t->sim_ini : "");
	fclose(f);

	if ((f = fmemopen(ini, len, "r")) == NULL)
		fatal("fmemopen");
	p = profiles_parse(f, name, cause);
	fclose(f);
	free(ini);
	return (p);
}

/* Whether a volume spec names a type: TYPE:SIZE[,...], not a file. */
static int
profiles_is_type_spec(const char *vol)
{
	const char	*colon = strrchr(vol, ':');

	return (colon != NULL && strchr(colon, '/') == NULL &&
	    !profiles_has_suffix(vol, ".ini"));
}

/* A volume of a documented type from "TYPE:SIZE[,SETTING=VALUE...]". */
static struct profile *
profiles_load_type(const char *vol, char **cause)
{
	struct voltype_spec	 spec;
	struct voltype		*t;
	struct profile		*p;

	if (voltype_spec_parse(vol, 1, &spec, cause) != 0)
		return (NULL);
	if ((t = profiles_type_load(spec.name, cause)) == NULL)
		return (NULL);
	p = profiles_from_type(t, &spec, vol, cause);
	voltype_free(t);
	return (p);
}

/* Put volume p on instance i: i's [instance] replaces p's own. */
static void
profiles_put_on(struct profile *p, const struct profile *i)
{
	char	*name;

	free(p->instance_name);
	free(p->instance_description);
	p->instance_name = xstrdup(i->instance_name);
	p->instance_description = xstrdup(i->instance_description);
	p->instance_iops = i->instance_iops;
	p->instance_bandwidth = i->instance_bandwidth;
	p->instance_burst_iops = i->instance_burst_iops;
	p->instance_burst_bandwidth = i->instance_burst_bandwidth;
	p->instance_burst_s = i->instance_burst_s;
	p->instance_burst_period_s = i->instance_burst_period_s;
	xasprintf(&name, "%s@%s", p->name, i->instance_name);
	free(p->name);
	p->name = name;
	xasprintf(&name, "%s; on %s", p->description, i->instance_name);
	free(p->description);
	p->description = name;
}

/* Load a profile by built-in name or path; see profiles.h. */
struct profile *
profiles_load(const char *spec, char **cause)
{
	struct profile	*p, *inst;
	char		*vol, *at, *why = NULL, *path;

	vol = xstrdup(spec);
	if ((at = strrchr(vol, '@')) != NULL)
		*at++ = '\0';
	if (profiles_is_type_spec(vol))
		p = profiles_load_type(vol, cause);
	else
		p = profiles_load_in(vol, "", cause);
	if (p == NULL && !profiles_is_type_spec(vol) &&
	    (inst = profiles_load_instance(vol, &why)) != NULL) {
		p = inst;
		free(*cause);
	}
	free(why);
	why = NULL;
	if (p == NULL && !profiles_is_type_spec(vol) &&
	    (path = profiles_find(vol, PROFILES_TYPES, &why)) != NULL) {
		/* A volume type named without its size. */
		free(path);
		free(*cause);
		xasprintf(cause, "%s is a volume type: give its size, as in "
		    "sim:%s:100G", vol, vol);
	}
	free(why);
	if (p != NULL && p->instance_only) {
		xasprintf(cause, "%s is an instance, not a volume: put a "
		    "volume on it, as in sim:ebs-gp3@%s", vol, vol);
		profiles_free(p);
		p = NULL;
	}
	if (p != NULL && at != NULL) {
		if ((inst = profiles_load_instance(at, cause)) == NULL) {
			profiles_free(p);
			p = NULL;
		} else {
			profiles_put_on(p, inst);
			profiles_free(inst);
		}
	}
	free(vol);
	return (p);
}

/* A deep copy of p. */
struct profile *
profiles_copy(const struct profile *p)
{
	struct profile	*c;

	c = xmalloc(sizeof *c);
	*c = *p;
	c->name = p->name != NULL ? xstrdup(p->name) : NULL;
	c->description = p->description != NULL ?
	    xstrdup(p->description) : NULL;
	c->path = p->path != NULL ? xstrdup(p->path) : NULL;
	c->model = p->model != NULL ? xstrdup(p->model) : NULL;
	c->type = p->type != NULL ? xstrdup(p->type) : NULL;
	c->promise_source = p->promise_source != NULL ?
	    xstrdup(p->promise_source) : NULL;
	c->instance_name = p->instance_name != NULL ?
	    xstrdup(p->instance_name) : NULL;
	c->instance_description = p->instance_description != NULL ?
	    xstrdup(p->instance_description) : NULL;
	c->write_cache = p->write_cache != NULL ?
	    xstrdup(p->write_cache) : NULL;
	return (c);
}

void
profiles_free(struct profile *p)
{
	if (p == NULL)
		return;
	free(p->name);
	free(p->description);
	free(p->path);
	free(p->model);
	free(p->type);
	free(p->promise_source);
	free(p->instance_name);
	free(p->instance_description);
	free(p->write_cache);
	free(p);
}
