/* SPDX-License-Identifier: ISC */
/*
 * Documented volume types as data: rules of size and provisioned settings
 * (profiles/types/NAME.ini, formulas over the size in GiB) evaluated into
 * a volume's figures (voltype.c), and the judgement of every type against
 * what a run measured (voltype-judge.c).  Pure: text in, results out;
 * profiles.c reads the files.
 */
#ifndef VOLTYPE_H
#define VOLTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "ceilings.h"

#define VOLTYPE_NAME_MAX	32
#define VOLTYPE_SETTINGS_MAX	4
#define VOLTYPE_TEXT_MAX	256
#define VOLTYPE_TOLERANCE_PCT	10	/* when a type documents none */

struct formula;

/* What a type's figures are, in the order a formula may use them. */
enum voltype_fig {
	VOLTYPE_IOPS,			/* sustained IOPS; burst baseline */
	VOLTYPE_BANDWIDTH,		/* sustained MiB/s cap */
	VOLTYPE_IO_ACCOUNTING,		/* KiB: a larger I/O counts more */
	VOLTYPE_BURST_IOPS,		/* IOPS while I/O credits last */
	VOLTYPE_BURST_CREDITS,		/* I/O credits of a full bucket */
	VOLTYPE_BURST_BANDWIDTH,	/* MiB/s while byte credits last */
	VOLTYPE_BURST_CREDIT_GIB,	/* GiB of byte credits, full */
	VOLTYPE_CHARGE_MIN,		/* KiB an I/O costs the bandwidth
					   and byte credits at least */
	VOLTYPE_NFIGS,
};

/* A provisioned setting: its range in the size and the settings before. */
struct voltype_setting {
	char		 name[VOLTYPE_NAME_MAX];	/* "iops" */
	int		 mib;		/* in MiB/s, else a number */
	struct formula	*dflt;		/* NULL: it must be given */
	struct formula	*min;
	struct formula	*max;
};

/* A documented volume type (profiles/types/NAME.ini). */
struct voltype {
	char		*name;
	char		*description;
	char		*model;		/* what its devices say; NULL */
	char		*source;	/* document and year of the rules */
	char		*note;		/* what the rules omit; NULL */
	char		*path;		/* file read, or NULL */
	double		 size_min;	/* GiB */
	double		 size_max;
	double		 tolerance_pct;	/* at least (100 - this)% of the */
	double		 of_time_pct;	/* figures this % of the time; NAN */
	double		 latency_us_max; /* a read from the store takes at
					   most this (median); NAN: none */
	size_t		 nsettings;
	struct voltype_setting setting[VOLTYPE_SETTINGS_MAX];
	struct formula	*fig[VOLTYPE_NFIGS]; /* NULL: none imposed */
	char		*sim_ini;	/* [sim.*] sections as profile INI:
					   what a simulated one adds */
};

/* A type named with a size and settings: "gp3:500G,iops=6000". */
struct voltype_spec {
	char		 name[VOLTYPE_TEXT_MAX];	/* or a path */
	uint64_t	 size_bytes;	/* 0: not given */
	size_t		 nsettings;
	char		 key[VOLTYPE_SETTINGS_MAX][VOLTYPE_NAME_MAX];
	char		 value[VOLTYPE_SETTINGS_MAX][VOLTYPE_NAME_MAX];
};

/*
 * The figures of a type at a size with its settings, in bytes and per
 * second; NAN where it imposes none.  The derived ones are for I/Os of bs
 * bytes (IOPS) and for large ones (bandwidth), as the simulator counts
 * them: an IOPS token per io_accounting bytes, a bandwidth bucket in
 * bytes.
 */
struct voltype_figures {
	double		size_gib;
	double		value[VOLTYPE_NFIGS]; /* as the formulas give them,
						 in their units (MiB/s, KiB,
						 GiB); NAN: none */
	double		iops;		/* sustained cap */
	double		bandwidth;	/* bytes/s */
	double		io_accounting;	/* bytes; NAN: any I/O is one */
	double		burst_iops;	/* NAN: no I/O-credit bucket */
	double		burst_credits;	/* I/Os */
	double		burst_bandwidth; /* NAN: no bucket of bytes */
	double		burst_credit_bytes;
	uint32_t	bs;
	double		fresh_iops;	/* at bs, buckets full */
	double		fresh_bandwidth; /* large I/O, buckets full */
	double		long_iops;	/* at bs, buckets empty */
	double		long_bandwidth;
	double		cost;		/* IOPS tokens of an I/O of bs */
	double		charge_min;	/* bytes an I/O costs the bandwidth
					   at least; NAN: none */
	double		charge;		/* bytes an I/O of bs costs it */
};

/*
 * Parse the text of a type file (INI), named path in messages.  Sections:
 * [type] name, description, model, source, note, size_min, size_max (GiB),
 * tolerance, of_time (percent); [figures] a formula per figure (iops,
 * bandwidth, io_accounting, burst_iops, burst_credits, burst_bandwidth,
 * burst_credit_gib) over size, the settings and the figures before it;
 * [setting.NAME] default, min, max (formulas over size and the settings
 * before it), unit (IOPS or MiB/s); [sim.SECTION] keys of a simulated
 * profile's SECTION.  Returns the type (free with voltype_free), or NULL
 * with an allocated one-line message in *cause naming file, line and key.
 */
struct voltype	*voltype_parse(const char *, size_t, const char *,
		    char **);
void		 voltype_free(struct voltype *);

/*
 * Parse "NAME[:SIZE][,KEY=VALUE...]" into spec; size_required says the
 * size must be there.  Returns 0, or -1 with an allocated one-line
 * message in *cause saying what is accepted.
 */
int	voltype_spec_parse(const char *, int, struct voltype_spec *,
	    char **);

/*
 * The settings of spec for type t at size_gib into values[t->nsettings]:
 * those given, in range, else their defaults.  Returns 0, or -1 with an
 * allocated message in *cause (a setting unknown, out of its range, or
 * missing without a default, naming what is accepted).
 */
int	voltype_settings(const struct voltype *, const struct voltype_spec *,
	    double, double *, char **);

/*
 * The range of setting i of t at size_gib with the settings before it in
 * values: *lo, *hi (NAN when a formula gives none).
 */
void	voltype_setting_range(const struct voltype *, size_t, double,
	    const double *, double *, double *);

/* The default of setting i at size_gib, as voltype_setting_range; NAN. */
double	voltype_setting_default(const struct voltype *, size_t, double,
	    const double *);

/* The figures of t at size_gib with settings values, for I/Os of bs. */
void	voltype_eval(const struct voltype *, double, const double *,
	    uint32_t, struct voltype_figures *);

/* Settings as "iops=6000,throughput=250" into buf; "" when t has none. */
char	*voltype_settings_text(const struct voltype *, const double *,
	    char *, size_t);

/* Whether t names itself by device model m (case and spaces aside). */
int	voltype_model_matches(const struct voltype *, const char *);

/*
 * The judgement: every type against what a run measured.
 */

/* An instance's limits, which can hide a volume's own (NAN: none). */
struct voltype_link {
	char		name[VOLTYPE_NAME_MAX];
	double		iops;
	double		bandwidth;		/* bytes/s */
	double		burst_iops;
	double		burst_bandwidth;
	double		burst_s;		/* a full bucket lasts this long
						   at the burst rates; NAN */
	double		period_s;		/* full again every period */
};

/* What sets a long-run figure: the least limit in the path. */
enum voltype_limit {
	VOLTYPE_LIMIT_NONE,		/* none imposed */
	VOLTYPE_LIMIT_VOLUME,		/* the volume's type rule */
	VOLTYPE_LIMIT_CHARGE,		/* the volume's MiB/s at what an I/O
					   is charged (1 MiB per I/O) */
	VOLTYPE_LIMIT_INSTANCE,		/* the instance's EBS limits */
};

/*
 * The long run of a volume of figures f behind instance l (NULL: none),
 * for I/Os of f->bs: the least of every limit in the path once every
 * bucket that a demand drains is spent, and how long that takes.
 */
struct voltype_path {
	double		iops;		/* long run at bs; NAN: no limit */
	int		iops_by;	/* enum voltype_limit */
	double		bandwidth;	/* long run, large I/O, bytes/s */
	int		bandwidth_by;
	double		fresh_iops;	/* every bucket full, at bs */
	double		demand;		/* the I/Os per second drained at */
	double		drain_s;	/* from full at demand to the long
					   run; 0: no bucket drains;
					   INFINITY: one refills (a daily
					   burst) before it runs dry */
	int		drain_by;	/* whose bucket runs dry last */
};

/*
 * The path of f behind l at demand I/Os per second of f->bs (NAN: as
 * fast as the path lets them), into p.  Pure.
 */
void	voltype_path(const struct voltype_figures *,
	    const struct voltype_link *, double, struct voltype_path *);

/*
 * What a run measured (NAN, 0 or "" where it did not).  The IOPS figures
 * are for I/Os of bs bytes.
 */
struct voltype_measured {
	double		 size_bytes;	/* the volume's */
	char		 model[128];	/* what the device says */
	uint32_t	 bs;
	double		 iops;		/* the sweeps' ceiling */
	double		 iops_low;	/* its 95% interval */
	double		 iops_high;
	int		 iops_at_least;	/* only a lower bound */
	double		 bandwidth;	/* bytes/s, large I/O */
	double		 bandwidth_low;
	double		 bandwidth_high;
	int		 bandwidth_at_least;
	double		 long_run_iops;	/* once a bucket ran dry */
	double		 long_run_bandwidth;
	uint64_t	 io_accounting;	/* 0: not observable */
	struct burst	 burst;		/* the sustained run's */
	double		 drawn_s;	/* at most this long to draw
					   burst.ruled_out_below_ios */
	const struct voltype_link *link; /* instances known */
	size_t		 nlinks;
	const struct voltype_link *on;	/* the instance the volume is on;
					   NULL: not known */
	double		 read_p50_us;	/* the store's reads */
};

/* One type judged. */
struct voltype_result {
	char		name[VOLTYPE_NAME_MAX];
	char		settings[96];	/* fitted or given; "" none */
	int		consistent;	/* 1, 0, or -1 when not judged */
	char		ruled_out_by[VOLTYPE_TEXT_MAX]; /* or why unknown */
	char		caveat[VOLTYPE_TEXT_MAX]; /* consistent, but ... */
	double		iops;		/* documented, buckets full */
	double		bandwidth;	/* bytes/s */
	double		long_run_iops;	/* documented, buckets empty, the
					   instance's too; */
	double		long_run_bandwidth; /* NAN: none imposed */
	int		long_run_iops_by; /* enum voltype_limit */
	int		long_run_bandwidth_by;
	double		bandwidth_drain_s; /* of large I/O from full */
	int		drain_by;	/* whose bucket runs dry last at the
					   rate measured: enum voltype_limit */
	double		decisive;	/* the log mismatch of the figure that
					   rules it out most clearly */
	int		bucket;		/* enum voltype_bucket */
	double		drain_s;	/* from full at the rate measured */
	double		settle_sustain_s; /* a run that sees it run dry */
	char		settle[64];	/* its options */
	char		source[160];
	char		note[VOLTYPE_TEXT_MAX];
};

enum voltype_bucket {
	VOLTYPE_BUCKET_NONE,
	VOLTYPE_BUCKET_IOPS,		/* I/O credits */
	VOLTYPE_BUCKET_BANDWIDTH,	/* byte credits */
};

/* Every type judged, and what tells the consistent ones apart. */
struct voltype_judgement {
	uint64_t		 size_bytes;	/* judged at; 0 unknown */
	char			 model[128];
	size_t			 n;
	struct voltype_result	*result;	/* n, allocated */
	size_t			 nconsistent;
	int			 apart;		/* they differ, long run */
	double			 settle_sustain_s; /* the run that tells them
						   apart; NAN: none does */
	char			 settle[64];
	struct voltype_link	 on;		/* the instance the volume is
						   on; name "": none known */
	int			 given;		/* --type's is judged */
	struct voltype_result	 given_result;
	char			 given_spec[VOLTYPE_TEXT_MAX];
};

/*
 * Judge the n types against m into j (voltype_judgement_free frees it).
 * A type is consistent unless its model, size range or a figure rules it
 * out; its settings are those that fit best.  Measured figures are
 * allowed their 95% intervals, the provider's tolerance below a figure
 * and VOLTYPE_OVER_PCT above it; a figure equal to a known instance's
 * limit rules nothing out.
 */
void	voltype_judge(const struct voltype *const *, size_t,
	    const struct voltype_measured *, struct voltype_judgement *);
/*
 * Judge type t with the settings of spec (its defaults for those not
 * given) into r, as one of voltype_judge's.  Returns 0, or -1 with
 * *cause when the settings are not t's.
 */
int	voltype_judge_given(const struct voltype *,
	    const struct voltype_spec *, const struct voltype_measured *,
	    struct voltype_result *, char **);
/* Release j's results; NULL is a no-op. */
void	voltype_judgement_free(struct voltype_judgement *);

/* Initialise m with everything unknown. */
void	voltype_measured_init(struct voltype_measured *);

#define VOLTYPE_OVER_PCT	2	/* a cap measured this much above */
#define VOLTYPE_LINK_PCT	3	/* an instance's limit, within */
#define VOLTYPE_CREDITS_OVER	1.25	/* a bucket this much larger */

#endif
