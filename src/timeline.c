/* SPDX-License-Identifier: ISC */
/* A timeline of per-interval figures, grown as a run goes. */
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "xmalloc.h"

/* Append one interval to a timeline. */
void
timeline_add(struct timeline *tl, const struct timeline_sample *s)
{
	if (tl->n == tl->cap) {
		tl->cap = tl->cap ? 2 * tl->cap : 64;
		tl->v = xreallocarray(tl->v, tl->cap, sizeof(*tl->v));
	}
	tl->v[tl->n++] = *s;
}

/* Free a timeline's samples. */
void
timeline_free(struct timeline *tl)
{
	free(tl->v);
	memset(tl, 0, sizeof(*tl));
}
