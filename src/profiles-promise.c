/* SPDX-License-Identifier: ISC */
/*
 * Expectations from a profile's truth (--expect-profile): what a volume of
 * that type should deliver, less the tolerance its provider documents in
 * the profile's [promise] section.  Presentation only: it reads the
 * profile, never a running volume.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "log.h"
#include "profiles.h"
#include "sim.h"
#include "xmalloc.h"

#define PROMISE_ASSUMED_PCT	10	/* when a profile states none */

/* Append the expectation text (then freed); it always parses. */
static void
profiles_promise_add(struct check_list *l, char *text, const char *origin)
{
	char	*why = NULL;

	if (check_list_add(l, text, origin, &why) != 0)
		fatalx("%s", why);
	free(text);
}

/*
 * Append to l what a volume of profile name promises for I/Os of bs bytes:
 * the IOPS and bandwidth ceilings and a burst bucket's baseline, each less
 * the documented tolerance; sets l->profile and l->promise (a sentence
 * saying which tolerance, and where it is from).  Returns 0, or -1 with
 * *cause when the profile cannot be read (a usage error).
 */
int
profiles_promise_expect(const char *name, uint32_t bs, struct check_list *l,
    char **cause)
{
	struct profile	*p;
	struct sim_truth t;
	char		*origin, *text;
	double		 pct, keep;

	if ((p = profiles_load(name, cause)) == NULL)
		return (-1);
	sim_truth_profile(p, bs, &t);
	pct = isfinite(p->promise_pct) ? p->promise_pct : PROMISE_ASSUMED_PCT;
	keep = 1 - pct / 100;
	free(l->profile);
	free(l->promise);
	l->profile = xstrdup(p->name);
	if (isfinite(p->promise_pct) && isfinite(p->promise_of_time_pct))
		xasprintf(&l->promise, "%s: at least %g%% of the profile's "
		    "figures, %g%% of the time (%s)", p->name, 100 - pct,
		    p->promise_of_time_pct, p->promise_source != NULL ?
		    p->promise_source : "source not given");
	else if (isfinite(p->promise_pct))
		xasprintf(&l->promise, "%s: at least %g%% of the profile's "
		    "figures (%s)", p->name, 100 - pct,
		    p->promise_source != NULL ? p->promise_source :
		    "source not given");
	else
		xasprintf(&l->promise, "%s: the profile documents no "
		    "tolerance; %g%% below its figures is assumed", p->name,
		    pct);
	xasprintf(&origin, "--expect-profile %s", p->name);
	if (isfinite(t.iops_ceiling)) {
		xasprintf(&text, "iops>=%.0f", floor(keep * t.iops_ceiling));
		profiles_promise_add(l, text, origin);
	}
	if (isfinite(t.bandwidth_ceiling)) {
		xasprintf(&text, "bandwidth>=%.0fK/s",
		    floor(keep * t.bandwidth_ceiling / 1024));
		profiles_promise_add(l, text, origin);
	}
	if (t.burst_detected && isfinite(t.baseline_iops)) {
		xasprintf(&text, "burst.baseline_iops>=%.0f",
		    floor(keep * t.baseline_iops));
		profiles_promise_add(l, text, origin);
	}
	free(origin);
	profiles_free(p);
	return (0);
}
