/* SPDX-License-Identifier: ISC */
/*
 * Description: test helper for tests/cgroup-throttle.sh: a gp2-style credit
 * bucket driving a cgroup's blk-throttle read IOPS limit.  It polls the
 * cgroup's serviced reads, spends a credit per read above the baseline rate
 * (the bucket refills at the baseline rate, up to its size, and starts
 * full), and switches the kernel limit between the burst and baseline rates.
 *
 *	burst_controller CGROUP MAJ:MIN BURST BASELINE CREDITS [POLL_MS]
 *
 * CGROUP is a cgroup v1 blkio directory or a cgroup v2 directory with the io
 * controller.  Runs until SIGTERM or SIGINT, then lifts the limit.  Prints
 * one line per switch: "t_s credits limit".
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t	t_stop;

struct t_cg {
	char	dir[4096];
	char	dev[32];		/* MAJ:MIN */
	int	v2;
};

static void
t_on_signal(int sig)
{
	(void)sig;
	t_stop = 1;
}

static double
t_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/* Reads the cgroup has done on the device, or -1. */
static long long
t_reads(const struct t_cg *cg)
{
	char		 path[4200], line[512], *p;
	FILE		*f;
	long long	 n = -1;
	size_t		 len = strlen(cg->dev);

	snprintf(path, sizeof path, "%s/%s", cg->dir,
	    cg->v2 ? "io.stat" : "blkio.throttle.io_serviced");
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, cg->dev, len) != 0 || line[len] != ' ')
			continue;
		if (cg->v2) {
			if ((p = strstr(line, " rios=")) != NULL)
				n = strtoll(p + 6, NULL, 10);
		} else if (strncmp(line + len + 1, "Read ", 5) == 0)
			n = strtoll(line + len + 6, NULL, 10);
	}
	fclose(f);
	if (n == -1 && cg->v2)
		n = 0;			/* no line until the first I/O */
	return (n);
}

/* Set the read IOPS limit (0: none).  Returns 0 or -1. */
static int
t_set_limit(const struct t_cg *cg, long iops)
{
	char	 path[4200];
	FILE	*f;
	int	 rc;

	snprintf(path, sizeof path, "%s/%s", cg->dir,
	    cg->v2 ? "io.max" : "blkio.throttle.read_iops_device");
	if ((f = fopen(path, "w")) == NULL)
		return (-1);
	if (cg->v2 && iops == 0)
		fprintf(f, "%s riops=max\n", cg->dev);
	else if (cg->v2)
		fprintf(f, "%s riops=%ld\n", cg->dev, iops);
	else
		fprintf(f, "%s %ld\n", cg->dev, iops);
	rc = fclose(f) == 0 ? 0 : -1;
	return (rc);
}

int
main(int argc, char **argv)
{
	struct t_cg		 cg;
	struct sigaction	 sa;
	struct timespec		 nap;
	double			 burst, base, size, credits, t0, t, last_t;
	long long		 reads, last;
	long			 limit, want, poll_ms = 20;
	char			 probe[4200];

	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: burst_controller CGROUP MAJ:MIN BURST "
		    "BASELINE CREDITS [POLL_MS]\n");
		return (2);
	}
	memset(&cg, 0, sizeof cg);
	snprintf(cg.dir, sizeof cg.dir, "%s", argv[1]);
	snprintf(cg.dev, sizeof cg.dev, "%s", argv[2]);
	burst = strtod(argv[3], NULL);
	base = strtod(argv[4], NULL);
	size = strtod(argv[5], NULL);
	if (argc == 7)
		poll_ms = strtol(argv[6], NULL, 10);
	if (!(burst > base) || !(base > 0) || !(size > 0) || poll_ms <= 0) {
		fprintf(stderr, "burst_controller: need BURST > BASELINE > 0, "
		    "CREDITS > 0\n");
		return (2);
	}
	snprintf(probe, sizeof probe, "%s/io.max", cg.dir);
	cg.v2 = access(probe, F_OK) == 0;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = t_on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if ((last = t_reads(&cg)) < 0 || t_set_limit(&cg, (long)burst) != 0) {
		fprintf(stderr, "burst_controller: %s: %s\n", cg.dir,
		    strerror(errno));
		return (1);
	}
	limit = (long)burst;
	credits = size;
	t0 = last_t = t_now();
	printf("%.3f %.0f %ld\n", 0.0, credits, limit);
	fflush(stdout);
	nap.tv_sec = poll_ms / 1000;
	nap.tv_nsec = (poll_ms % 1000) * 1000000L;
	while (!t_stop) {
		nanosleep(&nap, NULL);
		t = t_now();
		if ((reads = t_reads(&cg)) < 0)
			break;		/* the cgroup is gone */
		credits += base * (t - last_t) - (double)(reads - last);
		if (credits > size)
			credits = size;
		last = reads;
		last_t = t;

		/* Empty: baseline until a tenth of the bucket is back. */
		want = limit;
		if (credits <= 0)
			want = (long)base;
		else if (limit != (long)burst && credits >= size / 10)
			want = (long)burst;
		if (want != limit) {
			if (t_set_limit(&cg, want) != 0)
				break;
			limit = want;
			printf("%.3f %.0f %ld\n", t - t0, credits, limit);
			fflush(stdout);
		}
	}
	t_set_limit(&cg, 0);
	return (0);
}
