/* SPDX-License-Identifier: ISC */
/*
 * EBS's own counters: the NVMe vendor log page 0xD0 of an EBS (or EC2
 * instance-store) volume decoded from its bytes, checked, and two of them
 * subtracted into what a phase of a run did; which of the volume's and
 * the instance's limits held a phase.  Pure: bytes in, figures out
 * (ebsstats-read.c finds the device and reads the page).
 */
#ifndef EBSSTATS_H
#define EBSSTATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The page, little-endian and packed (AWS EBS User Guide, "Amazon EBS
 * detailed performance statistics"; nvme-cli's amzn plugin):
 *
 *	   0  u32  magic (EBSSTATS_MAGIC_EBS or _INSTANCE_STORE)
 *	   4  u8[4] reserved
 *	   8  u64 x 11  total_read_ops, total_write_ops, total_read_bytes,
 *		  total_write_bytes, total_read_time (us), total_write_time
 *		  (us), ebs_volume_performance_exceeded_iops (us),
 *		  ebs_volume_performance_exceeded_tp (us),
 *		  ec2_instance_ebs_performance_exceeded_iops (us),
 *		  ec2_instance_ebs_performance_exceeded_tp (us),
 *		  volume_queue_length (now, not cumulative)
 *	  96  u8[416] reserved
 *	 512  read latency histogram: u64 num_bins, then 64 bins of
 *		  {u64 lower (us), u64 upper (us), u32 count, u32 reserved}
 *	2056  write latency histogram, the same
 *	3600  u8[496] reserved
 *	4096  end
 *
 * The counters are cumulative since the volume was attached; an
 * "exceeded" counter is the microseconds during which demand exceeded
 * that limit (the I/O then waited for it).
 */
#define EBSSTATS_PAGE_BYTES	4096
#define EBSSTATS_LOG_PAGE	0xD0
#define EBSSTATS_MAGIC_EBS	0x3C23B510U
#define EBSSTATS_MAGIC_INSTANCE_STORE 0xEC2C0D7EU
#define EBSSTATS_BINS		64
#define EBSSTATS_OFF_COUNTERS	8
#define EBSSTATS_NCOUNTERS	11
#define EBSSTATS_OFF_READ_HIST	(EBSSTATS_OFF_COUNTERS + \
				    8 * EBSSTATS_NCOUNTERS + 416)
#define EBSSTATS_BIN_BYTES	24
#define EBSSTATS_HIST_BYTES	(8 + EBSSTATS_BINS * EBSSTATS_BIN_BYTES)
#define EBSSTATS_OFF_WRITE_HIST	(EBSSTATS_OFF_READ_HIST + EBSSTATS_HIST_BYTES)
#define EBSSTATS_OFF_TAIL	(EBSSTATS_OFF_WRITE_HIST + EBSSTATS_HIST_BYTES)
#define EBSSTATS_TAIL_BYTES	496

/* A counter this large is garbage, not a count (2^62 us: 146,000 years). */
#define EBSSTATS_ABSURD		((uint64_t)1 << 62)
/* Nor is a queue this long. */
#define EBSSTATS_ABSURD_QUEUE	((uint64_t)1 << 24)
/*
 * A limit held a phase when demand exceeded it for at least this share of
 * the phase (and it is the one exceeded longest: the lowest limit is
 * exceeded whenever a higher one is).
 */
#define EBSSTATS_HELD_SHARE	0.05

enum ebsstats_kind {
	EBSSTATS_KIND_NONE,
	EBSSTATS_KIND_EBS,
	EBSSTATS_KIND_INSTANCE_STORE,
};

/* The four limits whose exceeded time the page counts, in page order. */
enum ebsstats_limit {
	EBSSTATS_VOLUME_IOPS,
	EBSSTATS_VOLUME_TP,
	EBSSTATS_INSTANCE_IOPS,
	EBSSTATS_INSTANCE_TP,
	EBSSTATS_NLIMITS,
	EBSSTATS_LIMIT_NONE = EBSSTATS_NLIMITS,
};

/* One bin of a latency histogram. */
struct ebsstats_bin {
	uint64_t	lower_us;
	uint64_t	upper_us;
	uint64_t	count;		/* I/Os (u32 on the page) */
};

/* A latency histogram: nbins in use. */
struct ebsstats_hist {
	size_t			nbins;
	struct ebsstats_bin	bin[EBSSTATS_BINS];
};

/* A page decoded. */
struct ebsstats_page {
	enum ebsstats_kind	kind;
	uint64_t		read_ops;
	uint64_t		write_ops;
	uint64_t		read_bytes;
	uint64_t		write_bytes;
	uint64_t		read_time_us;
	uint64_t		write_time_us;
	uint64_t		exceeded_us[EBSSTATS_NLIMITS];
	uint64_t		queue_length;	/* at the time of reading */
	struct ebsstats_hist	read_hist;
	struct ebsstats_hist	write_hist;
};

/*
 * What one phase of a run did by the counters: the page after it less
 * the page before it.
 */
struct ebsstats_phase {
	char		phase[24];	/* "scan", "sweeps", "sustained",
					   "after-drop", "writes", "commits" */
	double		seconds;	/* the phase's (device) time */
	uint64_t	read_ops;
	uint64_t	write_ops;
	uint64_t	read_bytes;
	uint64_t	write_bytes;
	uint64_t	read_time_us;
	uint64_t	write_time_us;
	uint64_t	exceeded_us[EBSSTATS_NLIMITS];
	uint64_t	queue_length;	/* at its end */
	struct ebsstats_hist read_hist;	/* non-empty bins only */
	struct ebsstats_hist write_hist;
	double		read_p50_us;	/* from read_hist; NAN: no reads */
	double		read_p99_us;
	double		own_read_p50_us; /* tierprobe's, the same phase's
					   reads; NAN: not one figure */
	double		own_read_p99_us;
	char		note[128];	/* a wrapped bin count; "" */
};

/* The counters around every phase of a run (struct report's ebs). */
struct ebsstats_run {
	char			 source[320];	/* the device read, or the
						   file given instead; "" */
	char			 kind[16];	/* "ebs", "instance-store" */
	char			 why[256];	/* no counters: why; "" */
	char			 note[256];	/* a phase left out: why; "" */
	struct ebsstats_phase	*phases;
	size_t			 nphases;
	int			 sustained_limit; /* enum ebsstats_limit that
						   held the sustained phase;
						   -1: unknown (derived) */
};

/*
 * Decode and check len bytes of a page into *p.  Returns 0, or -1 with
 * an allocated message in *cause (a short page, a magic that is neither
 * EBS's nor instance store's, more than 64 bins, bins out of order,
 * absurd counters).
 */
int	ebsstats_parse(const uint8_t *, size_t, struct ebsstats_page *,
	    char **);
/*
 * The phase named name of seconds between pages *before and *after into
 * *d.  Returns 0, or -1 with an allocated message in *cause when a
 * counter went back (the volume was re-attached, or a counter reset) or
 * the histograms' bins differ.  A bin count that went back while every
 * 64-bit counter went forward wrapped at 2^32 and is counted so (d->note
 * says so).
 */
int	ebsstats_diff(const struct ebsstats_page *,
	    const struct ebsstats_page *, const char *, double,
	    struct ebsstats_phase *, char **);
/*
 * The q-quantile (0 < q < 1) of a histogram, us, linear within the bin it
 * falls in; NAN when it is empty.
 */
double	ebsstats_hist_quantile(const struct ebsstats_hist *, double);
/*
 * The limit that held a phase: the one demand exceeded longest, when
 * that was at least EBSSTATS_HELD_SHARE of the phase; EBSSTATS_LIMIT_NONE
 * when none was.
 */
enum ebsstats_limit ebsstats_held(const struct ebsstats_phase *);
/*
 * The limit that held the sustained phase of run (NULL: none), -1 when
 * the run has no counters of a sustained phase.
 */
int	ebsstats_sustained_limit(const struct ebsstats_run *);
/* The phase named name of run, or NULL. */
const struct ebsstats_phase *ebsstats_phase_find(const struct ebsstats_run *,
	    const char *);
/*
 * "volume_iops", "volume_throughput", "instance_iops",
 * "instance_throughput", "none"; NULL past the last.
 */
const char *ebsstats_limit_name(int);
/* "ebs", "instance-store"; NULL for none or past the last. */
const char *ebsstats_kind_name(int);
/* Release what a run owns (not the struct); NULL is a no-op. */
void	ebsstats_run_free(struct ebsstats_run *);

#endif
