/* SPDX-License-Identifier: ISC */
/*
 * Tests for ebsstats.c and ebsstats-read.c: log page 0xD0 built here byte
 * by byte from the documented layout (offsets written out, not taken from
 * ebsstats.h) and decoded; an instance-store page; a bad magic, a short
 * page, too many bins, bins out of order, absurd counters refused with a
 * reason; two pages subtracted, a reset refused, a wrapped bin count
 * counted on; quantiles of a histogram; the limit that held a phase; the
 * counters around phases through the file seam; a file on this
 * machine's disk (not an NVMe one) said to have no counters, and the
 * admin command sent to that disk refused in one line.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ebsstats-read.h"
#include "ebsstats.h"

/* The documented layout, written out. */
#define T_COUNTERS	8	/* after u32 magic and 4 reserved bytes */
#define T_READ_HIST	(8 + 11 * 8 + 416)
#define T_WRITE_HIST	(T_READ_HIST + 8 + 64 * 24)
#define T_END		(T_WRITE_HIST + 8 + 64 * 24 + 496)

static void
t_le(uint8_t *b, uint64_t v, int bytes)
{
	int	i;

	for (i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/* Bin i's lower bound: 10 * 2^i us, linear past 2^16 (64 bins fit). */
static uint64_t
t_lower(uint64_t i)
{
	return (i <= 16 ? 10ULL << i : (10ULL << 16) * (i - 15));
}

/* A histogram of n bins [t_lower(i), t_lower(i + 1)) with counts c[i]. */
static void
t_hist(uint8_t *b, uint64_t n, const uint32_t *c)
{
	uint64_t	i;

	t_le(b, n, 8);
	for (i = 0; i < n && i < 64; i++) {
		t_le(b + 8 + 24 * i, t_lower(i), 8);
		t_le(b + 8 + 24 * i + 8, t_lower(i + 1), 8);
		t_le(b + 8 + 24 * i + 16, c != NULL ? c[i] : 0, 4);
		t_le(b + 8 + 24 * i + 20, 0xdeadbeef, 4);   /* reserved */
	}
}

/* A page: magic, 11 counters (page order), 8 bins each with counts. */
static void
t_page(uint8_t *b, uint32_t magic, const uint64_t *v, const uint32_t *rc,
    const uint32_t *wc)
{
	int	i;

	memset(b, 0xa5, T_END);		/* reserved bytes are not zero */
	t_le(b, magic, 4);
	for (i = 0; i < 11; i++)
		t_le(b + T_COUNTERS + 8 * i, v[i], 8);
	t_hist(b + T_READ_HIST, 8, rc);
	t_hist(b + T_WRITE_HIST, 8, wc);
}

static const uint64_t t_v0[11] = {
	1000, 500, 4096000, 2048000, 700000, 300000,
	10, 20, 30, 40, 3 };
static const uint32_t t_rc0[8] = { 0, 100, 700, 150, 40, 9, 1, 0 };
static const uint32_t t_wc0[8] = { 0, 0, 400, 90, 10, 0, 0, 0 };

static void
t_layout(void **state)
{
	(void)state;
	assert_int_equal(T_END, 4096);
	assert_int_equal(T_READ_HIST, EBSSTATS_OFF_READ_HIST);
	assert_int_equal(T_WRITE_HIST, EBSSTATS_OFF_WRITE_HIST);
}

static void
t_parse_ebs(void **state)
{
	struct ebsstats_page	p;
	uint8_t			b[4096];
	char			*cause = NULL;
	int			i;

	(void)state;
	t_page(b, 0x3C23B510, t_v0, t_rc0, t_wc0);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), 0);
	assert_int_equal(p.kind, EBSSTATS_KIND_EBS);
	assert_int_equal(p.read_ops, 1000);
	assert_int_equal(p.write_ops, 500);
	assert_int_equal(p.read_bytes, 4096000);
	assert_int_equal(p.write_bytes, 2048000);
	assert_int_equal(p.read_time_us, 700000);
	assert_int_equal(p.write_time_us, 300000);
	assert_int_equal(p.exceeded_us[EBSSTATS_VOLUME_IOPS], 10);
	assert_int_equal(p.exceeded_us[EBSSTATS_VOLUME_TP], 20);
	assert_int_equal(p.exceeded_us[EBSSTATS_INSTANCE_IOPS], 30);
	assert_int_equal(p.exceeded_us[EBSSTATS_INSTANCE_TP], 40);
	assert_int_equal(p.queue_length, 3);
	assert_int_equal(p.read_hist.nbins, 8);
	assert_int_equal(p.write_hist.nbins, 8);
	for (i = 0; i < 8; i++) {
		assert_int_equal(p.read_hist.bin[i].lower_us, 10ULL << i);
		assert_int_equal(p.read_hist.bin[i].upper_us, 10ULL << (i + 1));
		assert_int_equal(p.read_hist.bin[i].count, t_rc0[i]);
		assert_int_equal(p.write_hist.bin[i].count, t_wc0[i]);
	}
	/* A byte of each counter's top half counts. */
	t_le(b + T_COUNTERS + 8 * 2 + 4, 1, 4);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), 0);
	assert_int_equal(p.read_bytes, 4096000 + (1ULL << 32));
}

static void
t_parse_store(void **state)
{
	struct ebsstats_page	p;
	uint8_t			b[4096];
	char			*cause = NULL;

	(void)state;
	t_page(b, 0xEC2C0D7E, t_v0, t_rc0, t_wc0);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), 0);
	assert_int_equal(p.kind, EBSSTATS_KIND_INSTANCE_STORE);
	assert_string_equal(ebsstats_kind_name(p.kind), "instance-store");
}

/* Pages refused, each with its reason. */
static void
t_parse_bad(void **state)
{
	struct ebsstats_page	p;
	uint8_t			b[4096];
	uint64_t		v[11];
	char			*cause = NULL;

	(void)state;
	t_page(b, 0x3C23B511, t_v0, t_rc0, t_wc0);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), -1);
	assert_non_null(strstr(cause, "magic 0x3C23B511"));
	free(cause);

	t_page(b, 0x3C23B510, t_v0, t_rc0, t_wc0);
	assert_int_equal(ebsstats_parse(b, 4095, &p, &cause), -1);
	assert_non_null(strstr(cause, "short page: 4095 bytes"));
	free(cause);
	assert_int_equal(ebsstats_parse(b, 0, &p, &cause), -1);
	free(cause);

	t_le(b + T_WRITE_HIST, 65, 8);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), -1);
	assert_non_null(strstr(cause, "write latency histogram has 65 bins"));
	free(cause);
	t_le(b + T_WRITE_HIST, 64, 8);		/* 64 is allowed */
	t_hist(b + T_WRITE_HIST, 64, NULL);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), 0);

	/* Bin 3 of the reads starts before bin 2 ends. */
	t_page(b, 0x3C23B510, t_v0, t_rc0, t_wc0);
	t_le(b + T_READ_HIST + 8 + 24 * 3, 50, 8);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), -1);
	assert_non_null(strstr(cause, "out of order"));
	free(cause);
	/* A bin whose lower bound is above its upper. */
	t_page(b, 0x3C23B510, t_v0, t_rc0, t_wc0);
	t_le(b + T_READ_HIST + 8 + 24 * 7 + 8, 1, 8);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), -1);
	assert_non_null(strstr(cause, "bin 7"));
	free(cause);

	/* Absurd counters: a time of 2^63 us, a queue of 2^40. */
	memcpy(v, t_v0, sizeof v);
	v[8] = 1ULL << 63;
	t_page(b, 0x3C23B510, v, t_rc0, t_wc0);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), -1);
	assert_non_null(strstr(cause,
	    "ec2_instance_ebs_performance_exceeded_iops"));
	free(cause);
	memcpy(v, t_v0, sizeof v);
	v[10] = 1ULL << 40;
	t_page(b, 0x3C23B510, v, t_rc0, t_wc0);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), -1);
	assert_non_null(strstr(cause, "volume_queue_length"));
	free(cause);
	memcpy(v, t_v0, sizeof v);
	v[1] = 0;		/* bytes written in no operations */
	t_page(b, 0x3C23B510, v, t_rc0, t_wc0);
	assert_int_equal(ebsstats_parse(b, sizeof b, &p, &cause), -1);
	assert_non_null(strstr(cause, "bytes without operations"));
	free(cause);
}

static void
t_diff(void **state)
{
	struct ebsstats_page	a, b;
	struct ebsstats_phase	d;
	uint8_t			buf[4096];
	uint64_t		v[11];
	uint32_t		rc[8];
	char			*cause = NULL;

	(void)state;
	t_page(buf, 0x3C23B510, t_v0, t_rc0, t_wc0);
	assert_int_equal(ebsstats_parse(buf, sizeof buf, &a, &cause), 0);
	memcpy(v, t_v0, sizeof v);
	memcpy(rc, t_rc0, sizeof rc);
	v[0] += 120000;			/* 120 s at 1,000 IOPS */
	v[2] += 120000 * 4096ULL;
	v[4] += 120000 * 900ULL;
	v[8] += 41000000;		/* instance IOPS: 41 s */
	v[6] += 2000000;		/* volume IOPS: 2 s */
	v[10] = 1;
	rc[2] += 60000;			/* [40, 80) us */
	rc[3] += 59000;			/* [80, 160) */
	rc[6] += 1000;			/* [640, 1280) */
	t_page(buf, 0x3C23B510, v, rc, t_wc0);
	assert_int_equal(ebsstats_parse(buf, sizeof buf, &b, &cause), 0);
	assert_int_equal(ebsstats_diff(&a, &b, "sustained", 120, &d, &cause),
	    0);
	assert_string_equal(d.phase, "sustained");
	assert_int_equal(d.read_ops, 120000);
	assert_int_equal(d.write_ops, 0);
	assert_int_equal(d.read_bytes, 120000 * 4096ULL);
	assert_int_equal(d.read_time_us, 120000 * 900ULL);
	assert_int_equal(d.exceeded_us[EBSSTATS_INSTANCE_IOPS], 41000000);
	assert_int_equal(d.exceeded_us[EBSSTATS_VOLUME_IOPS], 2000000);
	assert_int_equal(d.exceeded_us[EBSSTATS_VOLUME_TP], 0);
	assert_int_equal(d.queue_length, 1);
	/* Non-empty bins of the difference only. */
	assert_int_equal(d.read_hist.nbins, 3);
	assert_int_equal(d.read_hist.bin[0].lower_us, 40);
	assert_int_equal(d.read_hist.bin[0].count, 60000);
	assert_int_equal(d.read_hist.bin[2].lower_us, 640);
	assert_int_equal(d.write_hist.nbins, 0);
	/* p50 at 60,000 of 120,000: the top of [40, 80). */
	assert_true(fabs(d.read_p50_us - 80) < 1e-9);
	/* p99 at 118,800: 59,000 into [80, 160) reaches 119,000. */
	assert_true(d.read_p99_us > 80 && d.read_p99_us < 160);
	assert_string_equal(d.note, "");
	assert_int_equal(ebsstats_held(&d), EBSSTATS_INSTANCE_IOPS);

	/* Reset: the counters went back. */
	assert_int_equal(ebsstats_diff(&b, &a, "writes", 10, &d, &cause), -1);
	assert_non_null(strstr(cause, "total_read_ops went back"));
	free(cause);

	/* A bin count wrapped at 2^32 while the counters went on. */
	rc[1] = 5;
	b.read_hist.bin[1].count = 5;
	a.read_hist.bin[1].count = 0xfffffff0;
	assert_int_equal(ebsstats_diff(&a, &b, "scan", 10, &d, &cause), 0);
	assert_int_equal(d.read_hist.bin[0].count, 21);
	assert_non_null(strstr(d.note, "wrapped"));

	/* Bins that change their bounds are not the same histogram. */
	b.read_hist.bin[4].upper_us++;
	assert_int_equal(ebsstats_diff(&a, &b, "scan", 10, &d, &cause), -1);
	free(cause);
	b.read_hist.nbins = 7;
	assert_int_equal(ebsstats_diff(&a, &b, "scan", 10, &d, &cause), -1);
	free(cause);
}

static void
t_quantile(void **state)
{
	struct ebsstats_hist	h;

	(void)state;
	memset(&h, 0, sizeof h);
	assert_true(isnan(ebsstats_hist_quantile(&h, 0.5)));
	h.nbins = 2;
	h.bin[0] = (struct ebsstats_bin){ 100, 200, 50 };
	h.bin[1] = (struct ebsstats_bin){ 200, 1000, 50 };
	assert_true(fabs(ebsstats_hist_quantile(&h, 0.25) - 150) < 1e-9);
	assert_true(fabs(ebsstats_hist_quantile(&h, 0.5) - 200) < 1e-9);
	assert_true(fabs(ebsstats_hist_quantile(&h, 0.99) - 984) < 1e-9);
	assert_true(isnan(ebsstats_hist_quantile(&h, 1.5)));
}

static void
t_held(void **state)
{
	static const struct {
		double		seconds;
		uint64_t	us[4];	/* volume IOPS, TP, instance IOPS, TP */
		int		want;
	} cases[] = {
		{ 120, { 0, 0, 41000000, 0 }, EBSSTATS_INSTANCE_IOPS },
		{ 120, { 90000000, 0, 41000000, 0 }, EBSSTATS_VOLUME_IOPS },
		{ 120, { 0, 30000000, 0, 0 }, EBSSTATS_VOLUME_TP },
		{ 120, { 0, 0, 0, 7000000 }, EBSSTATS_INSTANCE_TP },
		{ 120, { 5000000, 0, 0, 0 }, EBSSTATS_LIMIT_NONE }, /* < 5% */
		{ 120, { 0, 0, 0, 0 }, EBSSTATS_LIMIT_NONE },
		{ 0, { 0, 0, 1000, 0 }, EBSSTATS_LIMIT_NONE },
	};
	struct ebsstats_phase	d;
	struct ebsstats_run	run;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&d, 0, sizeof d);
		d.seconds = cases[i].seconds;
		memcpy(d.exceeded_us, cases[i].us, sizeof d.exceeded_us);
		assert_int_equal(ebsstats_held(&d), cases[i].want);
	}
	memset(&run, 0, sizeof run);
	assert_int_equal(ebsstats_sustained_limit(&run), -1);
	run.phases = &d;
	run.nphases = 1;
	snprintf(d.phase, sizeof d.phase, "sustained");
	d.seconds = 100;
	d.exceeded_us[EBSSTATS_VOLUME_TP] = 50000000;
	assert_int_equal(ebsstats_sustained_limit(&run), EBSSTATS_VOLUME_TP);
	assert_string_equal(ebsstats_limit_name(EBSSTATS_VOLUME_TP),
	    "volume_throughput");
	assert_string_equal(ebsstats_limit_name(EBSSTATS_LIMIT_NONE), "none");
	assert_null(ebsstats_limit_name(EBSSTATS_LIMIT_NONE + 1));
}

/* Write a page file at dir/name. */
static void
t_file(const char *dir, const char *name, const uint64_t *v)
{
	uint8_t	 b[4096];
	char	 path[512];
	FILE	*f;

	t_page(b, 0x3C23B510, v, t_rc0, t_wc0);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(fwrite(b, 1, sizeof b, f), sizeof b);
	fclose(f);
}

/* Phases counted from a directory of pages, one left out with a note. */
static void
t_seam(void **state)
{
	struct ebsstats_dev	dev;
	struct ebsstats_run	run;
	const char		*tmp = getenv("TMPDIR");
	char			dir[256], *why = NULL;
	char			path[512];
	uint64_t		v[11];

	(void)state;
	snprintf(dir, sizeof dir, "%s/tp-ebsstats.XXXXXX", tmp != NULL &&
	    *tmp != '\0' ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	memcpy(v, t_v0, sizeof v);
	t_file(dir, "default", v);
	v[0] += 5000;
	v[9] += 3000000;
	t_file(dir, "sweeps-after", v);
	t_file(dir, "writes-before", v);
	assert_int_equal(setenv(EBSSTATS_ENV, dir, 1), 0);
	assert_int_equal(ebsstats_dev_open(&dev, "sim:whatever", 1, &why), 0);
	memset(&run, 0, sizeof run);
	ebsstats_dev_begin(&dev, &run, "sweeps");
	ebsstats_dev_begin(&dev, &run, "sustained");	/* ends sweeps */
	ebsstats_dev_end(&dev, &run, 100);
	ebsstats_dev_end(&dev, &run, 100);		/* none open */
	assert_int_equal(run.nphases, 2);
	assert_string_equal(run.phases[0].phase, "sweeps");
	assert_int_equal(run.phases[0].read_ops, 5000);
	assert_int_equal(run.phases[0].exceeded_us[EBSSTATS_INSTANCE_TP],
	    3000000);
	assert_string_equal(run.phases[1].phase, "sustained");
	assert_int_equal(run.phases[1].read_ops, 0);
	assert_true(run.phases[1].seconds == 100);
	assert_string_equal(run.note, "");
	/* A page that goes back: the phase is left out, the note says so. */
	ebsstats_dev_begin(&dev, &run, "writes");
	ebsstats_dev_end(&dev, &run, 5);
	assert_int_equal(run.nphases, 2);
	assert_non_null(strstr(run.note, "went back"));
	ebsstats_dev_close(&dev);
	ebsstats_run_free(&run);

	/* A file without a page: no counters, and why. */
	snprintf(path, sizeof path, "%s/nothing", dir);
	assert_int_equal(setenv(EBSSTATS_ENV, path, 1), 0);
	assert_int_equal(ebsstats_dev_open(&dev, "sim:x", 1, &why), -1);
	assert_non_null(strstr(why, "No such file"));
	free(why);
	/* Without the variable a simulated target has none, and no word. */
	assert_int_equal(unsetenv(EBSSTATS_ENV), 0);
	assert_int_equal(ebsstats_dev_open(&dev, "sim:x", 1, &why), 1);
	unlink(path);
	snprintf(path, sizeof path, "%s/default", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/sweeps-after", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/writes-before", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * This machine's disks are not Amazon NVMe ones: a file here has no
 * counters, said plainly (skipped where it is on an NVMe device).
 */
static void
t_no_device(void **state)
{
	struct ebsstats_dev	dev;
	const char		*tmp = getenv("TMPDIR");
	char			*why = NULL;

	(void)state;
	assert_int_equal(unsetenv(EBSSTATS_ENV), 0);
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	assert_int_equal(ebsstats_dev_open(&dev, tmp, 0, &why), -1);
	assert_non_null(why);
	print_message("no counters here: %s\n", why);
	assert_true(strstr(why, "not an NVMe device") != NULL ||
	    strstr(why, "on no block device") != NULL ||
	    strstr(why, "not an Amazon") != NULL ||
	    strstr(why, "no permission") != NULL);
	free(why);
	assert_int_equal(ebsstats_dev_open(&dev, "/nonexistent/x", 0, &why),
	    -1);
	assert_non_null(strstr(why, "No such file"));
	free(why);
}

/*
 * The admin command itself, sent to the disk under TMPDIR (not an NVMe
 * one here): refused by the kernel, said in one line, no page.  Skipped
 * where that disk cannot be opened (not root) or is an NVMe device.
 */
static void
t_ioctl_refused(void **state)
{
	struct ebsstats_dev	dev;
	struct stat		st;
	const char		*tmp = getenv("TMPDIR");
	uint8_t			b[4096];
	char			path[128], line[64], name[64] = "", *cause = NULL;
	size_t			len = 0;
	FILE			*f;

	(void)state;
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	assert_int_equal(stat(tmp, &st), 0);
	snprintf(path, sizeof path, "/sys/dev/block/%u:%u/uevent",
	    major(st.st_dev), minor(st.st_dev));
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL)
			if (strncmp(line, "DEVNAME=", 8) == 0)
				sscanf(line + 8, "%63s", name);
		fclose(f);
	}
	memset(&dev, 0, sizeof dev);
	snprintf(dev.path, sizeof dev.path, "/dev/%s", name);
	if (name[0] == '\0' || strncmp(name, "nvme", 4) == 0 ||
	    (dev.fd = open(dev.path, O_RDONLY)) < 0) {
		print_message("skipped: no disk under %s to open\n", tmp);
		return;
	}
	assert_int_equal(ebsstats_dev_read(&dev, "scan", 0, b, &len, &cause),
	    -1);
	print_message("%s\n", cause);
	assert_true(strstr(cause, "does not take NVMe admin commands") !=
	    NULL || strstr(cause, "no permission") != NULL);
	assert_null(strchr(cause, '\n'));
	free(cause);
	ebsstats_dev_close(&dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_layout),
		cmocka_unit_test(t_parse_ebs),
		cmocka_unit_test(t_parse_store),
		cmocka_unit_test(t_parse_bad),
		cmocka_unit_test(t_diff),
		cmocka_unit_test(t_quantile),
		cmocka_unit_test(t_held),
		cmocka_unit_test(t_seam),
		cmocka_unit_test(t_no_device),
		cmocka_unit_test(t_ioctl_refused),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
