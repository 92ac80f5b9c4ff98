/* SPDX-License-Identifier: ISC */
/*
 * Fuzz the simulated-volume INI profiles: parse, build the volume, ask for
 * its truth and push a few I/Os through it.  No crash, leak or hang; a
 * refusal is one line naming the file, line and key.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiles.h"
#include "sim.h"

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile		*p;
	struct sim		*s;
	struct sim_truth	 truth;
	FILE			*f;
	char			*cause = NULL;
	uint64_t		 t, off, span;
	unsigned		 i;

	if (size == 0)
		return (0);
	f = fmemopen((void *)data, size, "r");
	T_ASSERT(f != NULL);
	p = profiles_parse(f, "fuzz.ini", &cause);
	fclose(f);
	if (p == NULL) {
		t_check_cause(cause, 0);
		free(cause);
		return (0);
	}
	T_ASSERT(cause == NULL);
	if (p->instance_only) {
		/* An instance: limits to share, no volume to simulate. */
		T_ASSERT(p->instance_iops > 0 || p->instance_bandwidth > 0);
		profiles_free(p);
		return (0);
	}
	T_ASSERT(p->size > 0 && p->block_size > 0);
	sim_truth_profile(p, 0, &truth);
	sim_truth_profile(p, 1U << 20, &truth);

	/* What sim_open does after reading the file, then some I/O. */
	s = sim_new(p, size);
	profiles_free(p);
	span = sim_size(s) - sim_size(s) % sim_block_size(s);
	t = 0;
	for (i = 0; i < 64 && span > 0; i++) {
		off = ((uint64_t)i * 2654435761U * sim_block_size(s)) % span;
		t = sim_submit(s, t, off, sim_block_size(s), i & 1);
		sim_advance(s, t);
	}
	sim_truth_profile(sim_profile(s), 4096, &truth);
	sim_free(s);
	return (0);
}
