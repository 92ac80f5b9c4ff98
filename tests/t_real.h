/* SPDX-License-Identifier: ISC */
/*
 * Test helper: the points of a real scan captured in tests/data (a line
 * per point: its ws in bytes, then LOW:COUNT for every histogram bucket
 * that is not empty), for the tier analyses.  Needs cmocka, stdio,
 * stdlib, string, hist.h and point.h included first.
 */
#ifndef T_REAL_H
#define T_REAL_H

/*
 * The points of a real scan, tests/data/NAME: a line per point, its ws in
 * bytes, then LOW:COUNT for every bucket of its histogram that is not
 * empty.  Returns how many points.
 */
static size_t
t_real(const char *name, struct point **pts)
{
	char		 path[1024], *line = NULL, *at, *end;
	size_t		 len = 0, n = 0, b;
	uint64_t	 lo, c;
	struct point	*p;
	FILE		*fp;

	snprintf(path, sizeof path, "%s/tests/data/%s", TP_SRCDIR, name);
	assert_non_null(fp = fopen(path, "r"));
	*pts = NULL;
	while (getline(&line, &len, fp) != -1) {
		if (line[0] == '#')
			continue;
		*pts = realloc(*pts, (n + 1) * sizeof **pts);
		assert_non_null(*pts);
		p = &(*pts)[n++];
		memset(p, 0, sizeof *p);
		p->bs = 4096;
		p->iodepth = 1;
		assert_non_null(p->hist = malloc(sizeof *p->hist));
		hist_init(p->hist);
		p->ws_bytes = strtoull(line, &at, 10);
		while ((lo = strtoull(at, &end, 10)) > 0 && *end == ':') {
			c = strtoull(end + 1, &at, 10);
			b = hist_index(lo);
			p->hist->bucket[b] += c;
			p->hist->count += c;
			p->hist->sum_ns += c * hist_bucket_value(b);
		}
		p->ios = p->hist->count;
		point_summarise(p);
	}
	free(line);
	fclose(fp);
	return (n);
}

#endif
