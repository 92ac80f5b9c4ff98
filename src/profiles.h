/* SPDX-License-Identifier: ISC */
/*
 * Simulated-volume profiles, plain data: find a built-in one by name,
 * parse and check an INI file, copy and free one.
 */
#ifndef PROFILES_H
#define PROFILES_H

#include <stdint.h>
#include <stdio.h>

struct voltype;
struct voltype_spec;

#define PROFILES_TIERS_MAX	4	/* [tier.N]: N below this */
#define PROFILES_FILE_MAX	(1 << 20) /* bytes of a profile or type file */

struct profile_tier {
	uint64_t	capacity;	/* bytes, counting faster tiers */
	double		latency_us;	/* median */
	double		sigma;		/* lognormal shape */
	double		outliers;	/* share of reads far slower, */
	double		outlier_factor;	/* factor to 10 x factor the median */
	double		second_us;	/* hits at a second speed: median; 0 */
	double		second_sigma;
	double		second_share;	/* of the hits, while it serves all */
	double		second_share_missed;	/* when recent reads missed */
};

/* A parsed profile.  Rates are per second; 0 means "no such limit". */
struct profile {
	char		*name;		/* [device] name, else the file's */
	char		*description;
	char		*path;		/* file read */
	char		*model;		/* what the device says (sysfs
					   device/model); NULL: nothing */
	char		*type;		/* the documented type it is, with
					   its settings ("io1,iops=4000"):
					   the rules its figures follow */

	uint64_t	 size;		/* [device] size, bytes */
	uint32_t	 block_size;	/* logical block: alignment */
	uint32_t	 cache_block;	/* unit of the cache tiers */
	double		 transfer;	/* bytes/s one I/O moves; 0 instant */
	double		 first_read_us;	/* first read of a block: extra */
	double		 first_read_sigma;

	unsigned	 ntiers;
	struct profile_tier tier[PROFILES_TIERS_MAX];

	double		 backing_latency_us;
	double		 backing_sigma;
	double		 backing_outliers;	/* as a tier's */
	double		 backing_outlier_factor;
	unsigned	 concurrency;	/* I/Os in service at once */
	double		 throttle_iops;	/* reads of the store: 0 none */
	double		 throttle_window_ms;	/* released window by window */
	double		 drift_us;	/* the median a share of the reads
					   takes, growing to all of them */
	double		 drift_s;	/* over this long from the start; 0
					   none */

	double		 limit_iops;	/* sustained; burst baseline */
	double		 limit_bandwidth;
	uint64_t	 io_accounting;	/* bytes per IOPS token; 0 none */
	uint64_t	 charge_min;	/* bytes an I/O at least costs the
					   volume's bandwidth buckets (st1,
					   sc1: 1 MiB); 0 none */

	char		*instance_name;	/* NULL: the volume's own ceilings */
	char		*instance_description;
	double		 instance_iops;	/* a second set of ceilings, shared */
	double		 instance_bandwidth; /* by the volumes of a run that
					   name the same instance */
	double		 instance_burst_iops;	/* 0: no instance bucket */
	double		 instance_burst_bandwidth;
	double		 instance_burst_period_s; /* full again at every
						   multiple; 0: never */
	double		 instance_burst_s;	/* a full bucket lasts this long
						   at the burst rates */
	int		 instance_only;	/* an instance profile: [instance]
					   and nothing else */

	double		 burst_iops;	/* 0: no IOPS burst bucket */
	double		 burst_credits;	/* bucket, IOPS tokens */
	double		 burst_bandwidth;	/* 0: no bandwidth bucket */
	double		 burst_credit_bytes;

	/* [promise]: figures at least 100 - promise_pct % of the profile's,
	   promise_of_time_pct % of the time, per promise_source; NAN and
	   NULL when the profile states none. */
	double		 promise_pct;
	double		 promise_of_time_pct;
	char		*promise_source;
	double		 write_latency_us;	/* median of a write acked */
	double		 write_sigma;
	double		 flush_us;	/* median of a cache flush; 0: at once */
	double		 flush_sigma;
	char		*write_cache;	/* what sysfs would say: "write back"
					   or "write through" */
	int		 write_back;	/* write_cache is "write back" */
	int		 fua;		/* says it takes FUA writes */
	double		 buffer_bytes;	/* write-back buffer; 0: none */
	double		 buffer_drain;	/* bytes/s it drains at to the store */
};

/* The profile directories in lookup order (NULL-terminated, static). */
const char	*const *profiles_dirs(void);

/*
 * Load spec: a path when it contains '/' or ends in ".ini", otherwise a
 * built-in name looked up as NAME.ini in $TIERPROBE_DATADIR/profiles, the
 * installed data directory, then the source tree.  TYPE:SIZE[,K=V...] is
 * a volume of a documented type made from its rules (profiles_from_type).
 * VOLUME@INSTANCE puts the volume on an instance profile (looked up under
 * profiles/instances/), whose [instance] replaces the volume's own.
 * Returns the volume's profile (free with profiles_free), or NULL with an
 * allocated one-line message in *cause naming the file, line and key at
 * fault.
 */
struct profile	*profiles_load(const char *, char **);
/* An instance profile by name or path, as above. */
struct profile	*profiles_load_instance(const char *, char **);

/* Parse the INI profile in file f, named path in messages.  As above. */
struct profile	*profiles_parse(FILE *, const char *, char **);

/* A deep copy of p. */
struct profile	*profiles_copy(const struct profile *);
void		 profiles_free(struct profile *);

/*
 * Names of the built-in profiles, sorted, each once (the first directory
 * holding it wins).  Returns the array (free with profiles_names_free) and
 * its length in *n; NULL when there are none.
 */
char		**profiles_names(size_t *);
/* The same for the built-in instance profiles. */
char		**profiles_instance_names(size_t *);
/* The same for the volume types (profiles/types/NAME.ini). */
char		**profiles_type_names(size_t *);
void		  profiles_names_free(char **, size_t);

/*
 * A volume type by name (looked up under profiles/types/ as profiles
 * are) or by path.  Returns it (free with voltype_free), or NULL with an
 * allocated one-line message in *cause listing the types there are.
 */
struct voltype	*profiles_type_load(const char *, char **);
/*
 * Every volume type found, sorted by name, into a new array of *n (free
 * each with voltype_free, then the array).  A file that does not parse is
 * left out, and the first such file's message is in *cause (else NULL).
 */
struct voltype	**profiles_types_load(size_t *, char **);
/*
 * A simulated volume of type t as spec says (its size required, its
 * settings as voltype_settings takes them), named name: the type's figures
 * at that size as [limit], [burst] and [promise], its model, and its
 * [sim.*] sections.  Returns the profile, or NULL with *cause.
 */
struct profile	*profiles_from_type(const struct voltype *,
		    const struct voltype_spec *, const char *, char **);

#endif
