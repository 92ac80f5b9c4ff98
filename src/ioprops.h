/* SPDX-License-Identifier: ISC */
/*
 * io_properties.yaml for ScyllaDB/Seastar from a report's long-run
 * figures: the reads as the verdict decides them, the writes from the
 * write sweeps run after a bucket ran dry; never a burst figure unless
 * asked (--accept-burst), and then marked.
 */
#ifndef IOPROPS_H
#define IOPROPS_H

#include <stdio.h>

struct report;

/* Why an io_properties figure is not written. */
enum ioprops_why {
	IOPROPS_OK,			/* a long-run figure */
	IOPROPS_NOT_MEASURED,		/* the run did not measure it */
	IOPROPS_BURST,			/* measured while a bucket may have
					   been full, or before it ran dry */
	IOPROPS_BOUNDED,		/* only a bound */
};

/* The four figures of io_properties.yaml, in its order. */
enum ioprops_key {
	IOPROPS_READ_IOPS,
	IOPROPS_READ_BANDWIDTH,
	IOPROPS_WRITE_IOPS,
	IOPROPS_WRITE_BANDWIDTH,
	IOPROPS_NKEYS,
};

struct ioprops {
	double		 value[IOPROPS_NKEYS];	/* IOPS, bytes/s */
	int		 why[IOPROPS_NKEYS];	/* enum ioprops_why */
	int		 state[IOPROPS_NKEYS];	/* enum bucket_state */
	char		 settle[512];	/* the verdict's command that would
					   settle the first missing; "" */
	char		 bucket[192];	/* what the run saw of a bucket */
};

/*
 * The long-run figures of a one-target report for io_properties.yaml:
 * the reads as the verdict decides them, the writes from the write
 * sweeps when they ran after a bucket ran dry.  Returns the first key
 * not established, or -1 when all four are.  Pure.
 */
int		 ioprops_figures(const struct report *, struct ioprops *);
/*
 * io_properties.yaml for mountpoint to path.  Returns 0; 1 when the
 * report holds no long-run figure for one of the four, or with
 * accept_burst only a burst figure (no file written); -1 when writing
 * failed; both with an allocated *cause.
 */
int		 ioprops_write(const struct report *, const char *,
		    const char *, int, char **);
/* The file itself, to a stream (all four established). */
void		 ioprops_dump(const struct report *,
		    const struct ioprops *, const char *, FILE *);

#endif
