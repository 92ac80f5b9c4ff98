/* SPDX-License-Identifier: ISC */
/* Where a run happened: kernel, device, queue settings, filesystem. */
#ifndef CONTEXT_H
#define CONTEXT_H

#include <sys/types.h>

#include "report.h"

/*
 * Fill ctx for a target path (a file or a block device; NULL: only the
 * host is known): best effort, "" and 0 where a figure is unknown,
 * rotational -1.
 */
void	context_fill(struct report_context *, const char *);
/*
 * Fill ctx for a simulated target: what its device says of its model
 * ("" none) and its size, as sysfs would for a real one.
 */
void	context_fill_sim(struct report_context *, const char *, uint64_t);
/*
 * The device part for device number dev, reading sysfs and mountinfo
 * under root ("" for the real ones; tests pass a fake tree).
 */
void	context_fill_devno(struct report_context *, dev_t, const char *);

#endif
