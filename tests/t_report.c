/* SPDX-License-Identifier: ISC */
/* Helpers shared by the report tests: fixture paths, files, reports. */
#include <sys/stat.h>

#include <dirent.h>
#include <linux/limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t_report.h"
#include "xmalloc.h"

const char *
t_data(const char *name)
{
	static char	 path[PATH_MAX];
	const char	*top = getenv("TOP_SRCDIR");

	snprintf(path, sizeof path, "%s/tests/data/%s",
	    top != NULL ? top : TP_SRCDIR, name);
	return (path);
}

char *
t_tmpdir(void)
{
	char	*d;

	d = xstrdup("/tmp/tierprobe-test.XXXXXX");
	if (mkdtemp(d) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	return (d);
}

void
t_rmdir(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	char		 p[PATH_MAX];
	struct stat	 st;

	if ((d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
				t_rmdir(p);
			else
				unlink(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

char *
t_slurp(const char *path, size_t *lenp)
{
	FILE	*f;
	char	*buf = NULL;
	size_t	 len = 0, cap = 0, n;

	if ((f = fopen(path, "r")) == NULL)
		return (NULL);
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xreallocarray(buf, cap, 1);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return (buf);
}

char *
t_json(const struct report *r)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f;

	f = open_memstream(&buf, &len);
	if (f == NULL || report_json_dump(r, f) != 0) {
		fprintf(stderr, "t_json: dump failed\n");
		exit(1);
	}
	fclose(f);
	return (buf);
}

static void
t_point(struct point *p, uint64_t ws, uint32_t bs, unsigned qd, double lat)
{
	memset(p, 0, sizeof *p);
	p->ws_bytes = ws;
	p->bs = bs;
	p->iodepth = qd;
	p->ios = 1000;
	p->seconds = 1.5;
	p->iops = qd / (lat / 1e6);
	p->bytes_per_s = p->iops * bs;
	p->ci95_rel = 0.02;
	p->lat_us.mean = lat;
	p->lat_us.p50 = lat * 0.9;
	p->lat_us.p90 = lat * 1.2;
	p->lat_us.p99 = lat * 2;
	p->lat_us.p999 = NAN;
	p->hist = xmalloc(sizeof *p->hist);
	hist_init(p->hist);
	hist_add(p->hist, (uint64_t)(lat * 1000));
	hist_add(p->hist, (uint64_t)(lat * 1100));
	hist_add(p->hist, 300);
}

void
t_report_make(struct report *r)
{
	struct scan_result	*s;
	struct limits_result	*l;
	struct timeline_sample	 ts;
	size_t			 i;

	memset(r, 0, sizeof *r);
	snprintf(r->tool_version, sizeof r->tool_version, "9.9.9");
	snprintf(r->started_utc, sizeof r->started_utc,
	    "2024-01-01T00:00:00Z");
	snprintf(r->config.command, sizeof r->config.command, "run");
	snprintf(r->config.engine, sizeof r->config.engine, "io_uring");
	r->config.direct = 1;
	r->config.bs = 4096;
	r->config.iodepth = 1;
	r->config.seed = UINT64_MAX - 1;
	r->config.precision = 0.02;
	r->target.path = xstrdup("/tmp/a \"quoted\"\\path\n");
	snprintf(r->target.type, sizeof r->target.type, "file");
	snprintf(r->target.engine, sizeof r->target.engine, "io_uring");
	r->target.direct = 1;
	r->target.bs = 4096;
	r->context.rotational = -1;
	snprintf(r->context.kernel, sizeof r->context.kernel, "Linux 6");

	s = r->scan = xcalloc(1, sizeof *s);
	s->npoints = 3;
	s->points = xcalloc(3, sizeof *s->points);
	for (i = 0; i < 3; i++)
		t_point(&s->points[i], (uint64_t)64 << (20 + i), 4096, 1,
		    100.0 * (i + 1));
	s->device_time_s = 4.5;
	s->tiers.analysed = 1;
	s->tiers.ntiers = 1;
	s->tiers.tier[0].capacity_bytes = 128 << 20;
	s->tiers.tier[0].capacity_low_bytes = 120 << 20;
	s->tiers.tier[0].capacity_high_bytes = 136 << 20;
	s->tiers.tier[0].lat_us_p50 = 90;
	s->tiers.tier[0].lat_us_p99 = NAN;
	s->tiers.backing_p50_us = 280;
	s->tiers.backing_p99_us = 600;

	l = r->limits = xcalloc(1, sizeof *l);
	limits_result_init(l);
	l->ws_bytes = 1 << 30;
	l->iops_ceiling = 5000;
	l->iops_knee_iodepth = 2;
	l->iops_max_seen = 5010;
	l->bandwidth_ceiling_bytes_per_s = NAN;
	l->io_accounting_bytes = 0;
	l->burst.burst_iops = NAN;
	l->burst.baseline_iops = NAN;
	l->burst.duration_s = NAN;
	l->burst.credits_ios = NAN;
	l->nqd = 2;
	l->qd_points = xcalloc(2, sizeof *l->qd_points);
	t_point(&l->qd_points[0], 1 << 30, 4096, 1, 250);
	t_point(&l->qd_points[1], 1 << 30, 4096, 2, 400);
	memset(&ts, 0, sizeof ts);
	for (i = 0; i < 3; i++) {
		ts.t_s = i + 1;
		ts.iops = 5000 - i;
		ts.bytes_per_s = ts.iops * 4096;
		ts.lat_us_mean = NAN;
		timeline_add(&l->timeline, &ts);
	}
}
