/* SPDX-License-Identifier: ISC */
/*
 * Description: safety helpers without hardware.  target_has_signature on
 * synthetic first blocks (each known signature, near misses, short
 * buffers); write I/O kept off a test file's header block; command lines
 * the fuzzer found breaking cli_parse ("--" twice, a flag given a value, a
 * parse after one that failed mid-group); profiles whose latencies would
 * overflow virtual time refused in one line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "engine.h"
#include "point.h"
#include "profiles.h"
#include "rng.h"
#include "sampler.h"
#include "t_engine.h"
#include "target.h"

#define T_SIG_BYTES	(68 << 10)

static const struct {
	size_t		 off;
	const char	*bytes;
	size_t		 len;
	const char	*expect;	/* part of the name; NULL: none */
} t_sigs[] = {
	{ 1080, "\x53\xef", 2, "ext2/3/4" },
	{ 1080, "\xef\x53", 2, NULL },		/* big-endian: not ext */
	{ 0, "XFSB", 4, "XFS" },
	{ 0, "XFSb", 4, NULL },
	{ 65600, "_BHRfS_M", 8, "btrfs" },
	{ 65536, "_BHRfS_M", 8, NULL },		/* wrong offset */
	{ 4086, "SWAPSPACE2", 10, "swap" },
	{ 4086, "SWAP-SPACE", 10, "swap" },
	{ 512, "EFI PART", 8, "GPT" },
	{ 4096, "EFI PART", 8, "GPT" },		/* 4 KiB sectors */
	{ 0, "LUKS\xba\xbe", 6, "LUKS" },
	{ 536, "LVM2 001", 8, "LVM" },
	{ 4096, "\xfc\x4e\x2b\xa9", 4, "RAID" },
	{ 3, "NTFS    ", 8, "NTFS" },
	{ 82, "FAT32   ", 8, "FAT" },
	{ 32769, "CD001", 5, "ISO" },
	{ 0, "TIERPROBE-TESTFILE-1\n", 21, NULL },
};

/* Each signature alone in a zeroed 68 KiB is found, and named. */
static void
test_signatures(void **state)
{
	unsigned char	*buf;
	const char	*what;
	size_t		 i;

	(void)state;
	buf = calloc(1, T_SIG_BYTES);
	assert_non_null(buf);
	assert_null(target_has_signature(buf, T_SIG_BYTES));
	for (i = 0; i < sizeof(t_sigs) / sizeof(t_sigs[0]); i++) {
		memset(buf, 0, T_SIG_BYTES);
		memcpy(buf + t_sigs[i].off, t_sigs[i].bytes, t_sigs[i].len);
		what = target_has_signature(buf, T_SIG_BYTES);
		if (t_sigs[i].expect == NULL) {
			if (what != NULL)
				fail_msg("case %zu: found %s", i, what);
			continue;
		}
		assert_non_null(what);
		if (strstr(what, t_sigs[i].expect) == NULL)
			fail_msg("case %zu: %s, expected %s", i, what,
			    t_sigs[i].expect);
		/* Too short to hold it: not found, not read past the end. */
		assert_null(target_has_signature(buf, t_sigs[i].off +
		    t_sigs[i].len - 1));
	}
	free(buf);
}

/* MBR: 0x55AA with a partition entry is a table; alone, a boot sector. */
static void
test_mbr(void **state)
{
	unsigned char	buf[512];
	const char	*what;

	(void)state;
	memset(buf, 0, sizeof(buf));
	buf[510] = 0x55;
	buf[511] = 0xaa;
	what = target_has_signature(buf, sizeof(buf));
	assert_non_null(what);
	assert_non_null(strstr(what, "boot sector"));
	buf[446 + 16 * 2 + 4] = 0x83;		/* third entry: Linux */
	what = target_has_signature(buf, sizeof(buf));
	assert_non_null(what);
	assert_non_null(strstr(what, "partition table"));
	buf[511] = 0xab;
	assert_null(target_has_signature(buf, sizeof(buf)));
	assert_null(target_has_signature(buf, 0));
}

/* Random writes on a test file never touch its header block. */
static void
test_header_kept(void **state)
{
	struct t_engine		 te;
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct rng		 r;
	const uint32_t		 sizes[] = { 512, 4096, 65536 };
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&t, 0, sizeof(t));
		t.keep_bytes = 4096;
		memset(&sp, 0, sizeof(sp));
		sp.ws_bytes = 16 * 65536;	/* few blocks: 0 is hit */
		sp.warm_from = sp.ws_bytes;
		sp.bs = sizes[i];
		sp.iodepth = 8;
		sp.write = 1;
		sp.fixed_time = 1;
		sp.max_time_s = 0.02;		/* 160k I/Os, virtual */
		t_engine_setup(&te, &e, &t, 8, 1000, 0, sp.ws_bytes, sp.bs);
		rng_seed(&r, 3);
		assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, NULL,
		    NULL), 0);
		assert_true(pt.ios > 1000);
		if (te.low_write < 4096)
			fail_msg("bs %u: a write at %llu, inside the header",
			    sizes[i], (unsigned long long)te.low_write);
		point_free(&pt);

		/* Without a header to keep, block 0 is written too. */
		t.keep_bytes = 0;
		te.low_write = UINT64_MAX;
		assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, NULL,
		    NULL), 0);
		assert_int_equal(te.low_write, 0);
		point_free(&pt);
	}
}

static int
t_parse(const char *line, struct cli_opts *o, char **cause)
{
	static char	 buf[512];
	static char	*argv[32];
	int		 argc = 0;
	char		*p, *save;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = (char *)"tierprobe";
	for (p = strtok_r(buf, " ", &save); p != NULL && argc < 31;
	    p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	*cause = NULL;
	return (cli_parse(argc, argv, o, cause));
}

/* Command lines that broke cli_parse under the fuzzer. */
static void
test_cli_regressions(void **state)
{
	struct cli_opts	 o;
	char		*cause;

	(void)state;
	/* "--" more than once: operands counted once, no overflow. */
	assert_int_equal(t_parse("prep x -- a -- b -- c", &o, &cause), -1);
	assert_non_null(strstr(cause, "extra argument"));
	free(cause);
	cli_free(&o);
	assert_int_equal(t_parse("scan -- x", &o, &cause), 0);
	assert_int_equal(o.nargs, 1);
	assert_string_equal(o.args[0], "x");
	cli_free(&o);
	/* After "--", an option-looking word is an operand. */
	assert_int_equal(t_parse("scan -- --bs", &o, &cause), 0);
	assert_string_equal(o.args[0], "--bs");
	cli_free(&o);

	/* A flag given a value: its name, not a stray character. */
	assert_int_equal(t_parse("limits x --force-device=3", &o, &cause), -1);
	assert_non_null(strstr(cause, "--force-device takes no argument"));
	free(cause);
	cli_free(&o);

	/* A parse that failed mid-group leaves getopt state behind. */
	assert_int_equal(t_parse("report r.json -qV", &o, &cause), -1);
	free(cause);
	cli_free(&o);
	assert_int_equal(t_parse("scan t.dat --bs 8k", &o, &cause), 0);
	assert_int_equal(o.nargs, 1);
	assert_string_equal(o.args[0], "t.dat");
	assert_int_equal(o.bs, 8192);
	cli_free(&o);
}

/* Profile values the fuzzer turned into undefined behaviour in sim.c. */
static void
test_profile_bounds(void **state)
{
	static const struct {
		const char	*ini;
		const char	*key;	/* in the refusal; NULL: ok */
	} cases[] = {
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 500\n"
		  "sigma = 3\n", NULL },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 500\n"
		  "sigma = 20.25\n", "sigma" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 1e300\n",
		  "latency_us" },
		{ "[device]\nsize = 1G\nfirst_read_sigma = 51\n[backing]\n"
		  "latency_us = 90\n", "first_read_sigma" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 90\n"
		  "[limit]\niops = 1e300\n", "iops" },
	};
	struct profile	*p;
	FILE		*f;
	char		*cause;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		f = fmemopen((void *)cases[i].ini, strlen(cases[i].ini), "r");
		assert_non_null(f);
		cause = NULL;
		p = profiles_parse(f, "t.ini", &cause);
		fclose(f);
		if (cases[i].key == NULL) {
			if (p == NULL)
				fail_msg("case %zu refused: %s", i, cause);
			profiles_free(p);
			continue;
		}
		assert_null(p);
		assert_non_null(cause);
		if (strstr(cause, cases[i].key) == NULL ||
		    strchr(cause, '\n') != NULL)
			fail_msg("case %zu: %s", i, cause);
		free(cause);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_mbr),
		cmocka_unit_test(test_header_kept),
		cmocka_unit_test(test_cli_regressions),
		cmocka_unit_test(test_profile_bounds),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
