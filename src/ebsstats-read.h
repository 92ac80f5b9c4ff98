/* SPDX-License-Identifier: ISC */
/*
 * Reading EBS's counters (ebsstats.h) from the NVMe device under a
 * target, or from the file TIERPROBE_EBS_LOG_PAGE names instead (tests),
 * and recording them around each phase of a run.
 */
#ifndef EBSSTATS_READ_H
#define EBSSTATS_READ_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ebsstats.h"

/*
 * The environment variable naming a page file returned instead of the
 * device's (every read), or a directory of them: PHASE-before and
 * PHASE-after for the reads around phase PHASE, else "default".
 */
#define EBSSTATS_ENV		"TIERPROBE_EBS_LOG_PAGE"

/* Where the counters come from, and the phase being counted. */
struct ebsstats_dev {
	char			path[256];	/* /dev/nvmeXnY or the file */
	int			seam;		/* path is EBSSTATS_ENV's */
	int			virtual;	/* a simulated target's: phases
						   last their device time */
	int			fd;		/* the device, or -1 */
	enum ebsstats_kind	kind;
	/* The phase being counted: its name, first page and start. */
	char			phase[24];
	int			open;
	struct ebsstats_page	before;
	struct timespec		t0;
};

/*
 * Find the counters of what target (a file, a block device) sits on into
 * *dev: the block device of the file's filesystem (st_dev) or the device
 * itself, through /sys/dev/block to its NVMe controller, which must be an
 * Amazon one; then one page is read.  With EBSSTATS_ENV set, its file
 * instead, for any target.  Returns 0; 1 for a simulated target without
 * EBSSTATS_ENV (no counters, nothing to say); or -1 with an allocated
 * message in *why (not such a device, or no permission: root, with
 * CAP_SYS_ADMIN, reads them).
 */
int	ebsstats_dev_open(struct ebsstats_dev *, const char *, int, char **);
/* Close the device; a closed one is a no-op. */
void	ebsstats_dev_close(struct ebsstats_dev *);
/*
 * Read one page into buf[EBSSTATS_PAGE_BYTES] (*len its bytes), the read
 * before (after = 0) or after phase.  Returns 0, or -1 with an allocated
 * message in *cause.
 */
int	ebsstats_dev_read(struct ebsstats_dev *, const char *, int, uint8_t *,
	    size_t *, char **);
/*
 * Start counting phase name into run, ending the phase being counted
 * first.  A page that cannot be read or parsed leaves the phase out and
 * says why in run->note.
 */
void	ebsstats_dev_begin(struct ebsstats_dev *, struct ebsstats_run *,
	    const char *);
/*
 * End the phase being counted (none: a no-op) and append it to run: it
 * lasted the clock's time since it began, or for a simulated target (in
 * virtual time) seconds of device time when finite.
 */
void	ebsstats_dev_end(struct ebsstats_dev *, struct ebsstats_run *, double);

#endif
