/* SPDX-License-Identifier: ISC */
/*
 * Test helper: a simulated volume opened by name (a profile name or path)
 * the way the CLI opens "sim:NAME", failing the cmocka test with the cause.
 */
#ifndef T_SIM_H
#define T_SIM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"
#include "xmalloc.h"

/* Open simulated volume name with seed into t (direct I/O). */
static void
t_sim_open(struct target *t, const char *name, uint64_t seed)
{
	struct target_params	 tp;
	char			*spec, *cause = NULL;

	memset(&tp, 0, sizeof tp);
	tp.direct = 1;
	tp.seed = seed;
	xasprintf(&spec, "sim:%s", name);
	if (target_open(t, spec, &tp, &cause) != 0)
		fail_msg("%s: %s", spec, cause);
	free(spec);
}

#endif
