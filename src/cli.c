/* SPDX-License-Identifier: ISC */
/*
 * The command line.  One table lists every option with its kind, range,
 * the sub-commands that take it and its help; getopt_long, validation and
 * --help are all built from it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "limits.h"
#include "log.h"
#include "sync.h"
#include "units.h"
#include "voltype.h"
#include "words.h"
#include "xmalloc.h"

enum cli_kind {
	CLI_FLAG,		/* int set to 1 */
	CLI_SIZE,		/* uint64_t or uint32_t bytes */
	CLI_UINT,		/* unsigned or uint64_t */
	CLI_TIME,		/* double seconds */
	CLI_PCT,		/* double fraction from a percentage */
	CLI_STRING,		/* const char * */
	CLI_CHOICE,		/* one of choices, stored as its index */
	CLI_LIST,		/* struct cli_list: every argument given */
};

#define C(x)	(1U << (x))
#define PROBE	(C(CLI_RUN) | C(CLI_SCAN) | C(CLI_LIMITS))
#define SCANS	(C(CLI_RUN) | C(CLI_SCAN))
#define LIMITS	(C(CLI_RUN) | C(CLI_LIMITS))
#define OUTPUTS	(PROBE | C(CLI_REPORT) | C(CLI_COMPARE) | \
		 C(CLI_CHECK) | C(CLI_FLEET))
#define EXPECTS	(PROBE | SYNC | C(CLI_CHECK))
#define SYNC	C(CLI_SYNC)
#define COMMITS	(C(CLI_RUN) | SYNC)

struct cli_option {
	const char	*name;
	int		 short_name;
	enum cli_kind	 kind;
	size_t		 offset;	/* into struct cli_opts */
	size_t		 width;		/* sizeof the field */
	uint64_t	 min, max;	/* sizes and counts */
	const char	*choices;	/* "a|b|c" */
	unsigned	 cmds;		/* C(CLI_x) mask */
	uint32_t	 set_bit;
	const char	*arg;		/* placeholder in --help */
	const char	*help;
};

/* What an option means for some commands when it differs from its help. */
struct cli_alt {
	const char	*name;		/* of the option */
	unsigned	 cmds;		/* C(CLI_x) mask */
	const char	*help;
	int		 overview;	/* also in the overview, after help */
};

#define F(field)	offsetof(struct cli_opts, field), \
			sizeof(((struct cli_opts *)0)->field)

static const struct cli_option cli_options[] = {
	{ "bs", 0, CLI_SIZE, F(bs), 512, 64ULL << 20, NULL, PROBE | SYNC,
	  CLI_SET_BS, "SIZE", "I/O size (default 4K; a multiple of the "
	  "logical block)" },
	{ "iodepth", 0, CLI_UINT, F(iodepth), 1, 4096, NULL, PROBE, 0,
	  "N", "I/Os in flight for the scan (default 1)" },
	{ "buffered", 0, CLI_FLAG, F(buffered), 0, 0, NULL, PROBE, 0,
	  NULL, "go through the page cache (default O_DIRECT)" },
	{ "engine", 0, CLI_CHOICE, F(engine), 0, 0, "io_uring|psync", PROBE,
	  CLI_SET_ENGINE, "NAME", "I/O engine: io_uring (default) or psync; "
	  "a --buffered scan uses psync unless this is given" },
	{ "seed", 0, CLI_UINT, F(seed), 0, UINT64_MAX, NULL, PROBE | SYNC,
	  CLI_SET_SEED, "N", "seed of every random choice (default: from "
	  "the clock; the report prints it)" },
	{ "json", 0, CLI_STRING, F(json_path), 0, 0, NULL, PROBE | SYNC, 0,
	  "FILE", "also write the JSON report to FILE (atomically)" },
	{ "output-format", 0, CLI_CHOICE, F(format), 0, 0,
	  "text|json|markdown|csv", OUTPUTS | SYNC | C(CLI_EBS_STATS), 0,
	  "FMT",
	  "report on stdout as text (default), json, markdown or csv (fleet "
	  "only)" },
	{ "quiet", 'q', CLI_FLAG, F(quiet), 0, 0, NULL,
	  PROBE | SYNC | C(CLI_PREP) | C(CLI_PLOT) | C(CLI_CHECK), 0, NULL,
	  "no progress or notices on stderr; check: print only what was not "
	  "met and the summary" },
	{ "keep", 0, CLI_FLAG, F(keep), 0, 0, NULL, C(CLI_RUN), 0, NULL,
	  "keep ./tierprobe.dat after a run without TARGET" },
	{ "quick", 0, CLI_FLAG, F(quick), 0, 0, NULL, C(CLI_RUN), 0, NULL,
	  "the quick preset on TARGET too (as without TARGET)" },
	{ "force", 0, CLI_FLAG, F(force), 0, 0, NULL,
	  PROBE | SYNC | C(CLI_PREP), 0,
	  NULL, "allow writing to a file or device tierprobe did not create" },
	{ "force-device", 0, CLI_FLAG, F(force_device), 0, 0, NULL,
	  PROBE | SYNC | C(CLI_PREP), 0, NULL,
	  "with --force: allow writing to a device holding a filesystem, "
	  "partition table or holders (never a mounted one)" },
	{ "repeat", 0, CLI_UINT, F(repeat), 1, 100, NULL, PROBE | SYNC, 0,
	  "N", "repeat the measurement N times; report mean, sd and CV" },
	{ "fio-job", 0, CLI_STRING, F(fio_job), 0, 0, NULL,
	  PROBE | SYNC | C(CLI_REPORT), 0, "FILE", "write an equivalent fio "
	  "job file for the points measured: reads, writes and commits" },
	{ "expect", 0, CLI_LIST, F(expect), 0, 0, NULL, EXPECTS | C(CLI_FLEET),
	  0, "EXPR", "an expectation such as 'iops>=3000' or 'p99<=2ms' "
	  "(repeatable); one missed or unknown makes all but fleet exit 3" },
	{ "expect-profile", 0, CLI_STRING, F(expect_profile), 0, 0, NULL,
	  EXPECTS, 0, "NAME", "expect what a volume of profile NAME promises, "
	  "less its documented tolerance" },
	{ "accept-burst", 0, CLI_FLAG, F(accept_burst), 0, 0, NULL, EXPECTS,
	  0, NULL, "count as met an expectation met on a figure measured "
	  "while a burst bucket may have been full (by default it exits 3)" },
	{ "host", 0, CLI_STRING, F(host), 0, 0, NULL, PROBE | SYNC, 0, "NAME",
	  "the host name fleets show for this report (default: this "
	  "machine's)" },
	{ "kind", 0, CLI_STRING, F(kind), 0, 0, NULL, PROBE | SYNC, 0, "NAME",
	  "the kind of volume (e.g. gp3-500g) fleets compare it with" },
	{ "outlier", 0, CLI_PCT, F(outlier), 0, 0, NULL, C(CLI_FLEET), 0, "PCT",
	  "flag a figure this many percent worse than its kind's median "
	  "(default 20)" },
	{ "fail-on-outlier", 0, CLI_FLAG, F(fail_on_outlier), 0, 0, NULL,
	  C(CLI_FLEET), 0, NULL, "exit 3 when a volume is an outlier (after "
	  "printing the fleet)" },
	{ "min-ws", 0, CLI_SIZE, F(min_ws), 4096, UINT64_MAX, NULL, SCANS,
	  CLI_SET_MIN_WS, "SIZE", "smallest working set (default 16M)" },
	{ "max-ws", 0, CLI_SIZE, F(max_ws), 4096, UINT64_MAX, NULL, SCANS,
	  CLI_SET_MAX_WS, "SIZE", "largest working set (default 4G, at most "
	  "the target's size)" },
	{ "step", 0, CLI_SIZE, F(step), 4096, UINT64_MAX, NULL, SCANS, 0,
	  "SIZE", "linear grid with this step instead of a log grid" },
	{ "points", 0, CLI_UINT, F(points), 1, 1000, NULL, SCANS,
	  CLI_SET_POINTS, "N", "points of the log grid (default 16; 1 needs "
	  "--min-ws = --max-ws)" },
	{ "precision", 0, CLI_PCT, F(precision), 0, 0, NULL, PROBE | SYNC,
	  CLI_SET_PRECISION, "PCT", "stop a point when the 95% CI of its "
	  "mean latency is within PCT percent (default 2; commits 5)" },
	{ "max-time", 0, CLI_TIME, F(max_time_s), 0, 0, NULL, PROBE | SYNC,
	  CLI_SET_MAX_TIME, "SECONDS", "time limit of one point (default 10; "
	  "commits 3)" },
	{ "budget", 0, CLI_TIME, F(budget_s), 0, 0, NULL, SCANS, CLI_SET_BUDGET,
	  "SECONDS", "device time the whole scan may spend (default: none)" },
	{ "ws", 0, CLI_SIZE, F(ws), 4096, UINT64_MAX, NULL, LIMITS, 0, "SIZE",
	  "working set of the limit sweeps (default: 50 times the last cache "
	  "the scan found, or --max-ws (4G) without one; at most the target's "
	  "size)" },
	{ "max-iodepth", 0, CLI_UINT, F(max_iodepth), 1, 4096, NULL, LIMITS,
	  CLI_SET_MAX_IODEPTH, "N", "deepest queue of the iodepth sweep "
	  "(default 256)" },
	{ "sustain", 0, CLI_TIME, F(sustain_s), 0, 0, NULL, LIMITS,
	  CLI_SET_SUSTAIN, "SECONDS", "length of the sustained run that finds "
	  "burst buckets (default 120)" },
	{ "sustain-together", 0, CLI_TIME, F(sustain_together_s), 0, 0, NULL,
	  LIMITS, 0, "SECONDS", "with several targets: length of the run "
	  "of all of them together (default: --sustain)" },
	{ "rw", 0, CLI_CHOICE, F(write), 0, 0, "read|write", LIMITS, 0, "MODE",
	  "read (default) or write; writes only to files tierprobe created" },
	{ "first-touch", 0, CLI_FLAG, F(first_touch), 0, 0, NULL, LIMITS, 0,
	  NULL, "compare first and second reads of blocks (snapshot restore)" },
	{ "methods", 0, CLI_STRING, F(methods), 0, 0, NULL, COMMITS, 0, "LIST",
	  "commit methods: fdatasync, fsync, dsync, direct-dsync, "
	  "uring-datasync, comma-separated (default all)" },
	{ "writers", 0, CLI_STRING, F(writers), 0, 0, NULL, COMMITS, 0, "LIST",
	  "counts of concurrent writers to commit with (default "
	  "1,2,4,8,16)" },
	{ "type", 0, CLI_STRING, F(type), 0, 0, NULL, PROBE | C(CLI_CHECK), 0,
	  "TYPE", "the volume's documented type, as gp2, gp3,iops=6000 or "
	  "io1:400G,iops=4000 (tierprobe profiles lists them): its figures "
	  "at the volume's size become the expectations, documented, not "
	  "measured" },
	{ "instance", 0, CLI_STRING, F(instance), 0, 0, NULL, PROBE, 0,
	  "TYPE", "the EC2 instance the volume is attached to, as m5.large "
	  "(its documented EBS limits), or an instance profile file; "
	  "default: the machine's DMI identity, or a sim: target's "
	  "@INSTANCE" },
	{ "size", 0, CLI_SIZE, F(size), 4096, UINT64_MAX, NULL,
	  C(CLI_PREP) | PROBE | C(CLI_CHECK), 0, "SIZE", "prep: size of the "
	  "test file to create; else the volume's size, for --type and the "
	  "volume types judged, where the target's device is not the "
	  "volume" },
	{ "outdir", 'o', CLI_STRING, F(outdir), 0, 0, NULL, C(CLI_PLOT), 0,
	  "DIR", "directory for the plots, required (created if missing)" },
	{ "format", 0, CLI_CHOICE, F(plot_format), 0, 0, "png|svg",
	  C(CLI_PLOT), 0, "FMT", "plot format: png (default) or svg" },
	{ "show", 0, CLI_STRING, F(show), 0, 0, NULL, C(CLI_PROFILES), 0,
	  "NAME", "print one profile's truth" },
	{ "help", 'h', CLI_FLAG, F(help), 0, 0, NULL, ~0U, 0, NULL,
	  "this help" },
	{ "version", 'V', CLI_FLAG, F(version), 0, 0, NULL, ~0U, 0, NULL,
	  "print the version" },
};
#define CLI_NOPTIONS	(sizeof(cli_options) / sizeof(cli_options[0]))

static const struct cli_alt cli_alts[] = {
	{ "bs", SYNC, "the one commit size, any number of bytes from 512 to "
	  "64M (default: 4K, 8K, 16K and 2300 bytes)", 1 },
	{ "precision", SYNC, "stop a point when the 95% CI of its mean "
	  "commit latency is within PCT percent (default 5)", 0 },
	{ "max-time", SYNC, "time limit of one point (default 3)", 0 },
};
#define CLI_NALTS	(sizeof(cli_alts) / sizeof(cli_alts[0]))

static const struct {
	enum cli_cmd	 cmd;
	const char	*name;
	const char	*args;
	int		 min_args, max_args;
	const char	*what;
} cli_cmds[] = {
	{ CLI_RUN, "run", "[TARGET ...]", 0, CLI_MAX_TARGETS,
	  "scan + limits: the full characterisation (default target "
	  "./tierprobe.dat, quick preset)" },
	{ CLI_SCAN, "scan", "TARGET ...", 1, CLI_MAX_TARGETS,
	  "working-set scan: cache tiers and their latency" },
	{ CLI_LIMITS, "limits", "TARGET ...", 1, CLI_MAX_TARGETS,
	  "iodepth, block-size and sustained sweeps: ceilings and bursts; "
	  "several targets alone, then together" },
	{ CLI_REPORT, "report", "FILE.json", 1, 1,
	  "re-render a saved report" },
	{ CLI_COMPARE, "compare", "A.json B.json [...]", 2, 64,
	  "reports side by side, with ratios to the first" },
	{ CLI_PLOT, "plot", "FILE.json... | DIR", 1, 4096,
	  "plots of a report with gnuplot; of several or a directory: the "
	  "fleet chart" },
	{ CLI_PREP, "prep", "TARGET", 1, 1,
	  "create and fill a test file (--size)" },
	{ CLI_PROFILES, "profiles", "", 0, 0,
	  "simulated volumes and their truth" },
	{ CLI_CHECK, "check", "FILE.json...", 1, 4096,
	  "judge reports against expectations (default: those they record)" },
	{ CLI_FLEET, "fleet", "FILE.json... | DIR...", 1, 4096,
	  "many hosts' reports in one table, each volume against its kind" },
	{ CLI_SYNC, "sync", "TARGET", 1, 1,
	  "commits: latency per durability method, size and writers, and "
	  "what a flush costs" },
	{ CLI_EBS_STATS, "ebs-stats", "DEVICE | FILE", 1, 1,
	  "EBS's own counters of the volume under DEVICE or FILE (NVMe log "
	  "page 0xD0; root)" },
};
#define CLI_NCMDS	(sizeof(cli_cmds) / sizeof(cli_cmds[0]))

/* Name of a sub-command. */
const char *
cli_cmd_name(enum cli_cmd cmd)
{
	size_t	i;

	for (i = 0; i < CLI_NCMDS; i++)
		if (cli_cmds[i].cmd == cmd)
			return (cli_cmds[i].name);
	return ("tierprobe");
}

static size_t
cli_cmd_index(enum cli_cmd cmd)
{
	size_t	i;

	for (i = 0; i < CLI_NCMDS; i++)
		if (cli_cmds[i].cmd == cmd)
			break;
	return (i);
}

static void
cli_defaults(struct cli_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bs = 4096;
	o->iodepth = 1;
	o->engine = "io_uring";
	o->format = CLI_FMT_TEXT;
	o->repeat = 1;
	o->min_ws = 16ULL << 20;
	o->max_ws = 4ULL << 30;
	o->points = 16;
	o->precision = 0.02;
	o->max_time_s = 10;
	o->max_iodepth = 256;
	o->sustain_s = 120;
	o->plot_format = "png";
	o->outlier = 0.20;
}

/* Store one option's argument after checking it. */
static int
cli_store(struct cli_opts *o, const struct cli_option *opt, const char *arg,
    char **cause)
{
	char		*base = (char *)o + opt->offset, *why = NULL, *list, *tok;
	char		*save;
	struct cli_list	*list_opt;
	uint64_t	 v;
	double		 d;
	int		 idx;

	switch (opt->kind) {
	case CLI_FLAG:
		*(int *)base = 1;
		return (0);
	case CLI_STRING:
		if (*arg == '\0') {
			xasprintf(cause, "--%s needs a non-empty %s",
			    opt->name, opt->arg);
			return (-1);
		}
		*(const char **)base = arg;
		return (0);
	case CLI_LIST:
		list_opt = (struct cli_list *)base;
		list_opt->v = xreallocarray(list_opt->v, list_opt->n + 1,
		    sizeof *list_opt->v);
		list_opt->v[list_opt->n++] = arg;
		return (0);
	case CLI_CHOICE:
		list = xstrdup(opt->choices);
		idx = 0;
		for (tok = strtok_r(list, "|", &save); tok != NULL;
		    tok = strtok_r(NULL, "|", &save), idx++) {
			if (strcmp(tok, arg) != 0)
				continue;
			/* Pointer fields keep the word, int fields its index. */
			if (opt->width == sizeof(const char *))
				*(const char **)base = arg;
			else
				*(int *)base = idx;
			free(list);
			return (0);
		}
		free(list);
		xasprintf(cause, "--%s %s: unknown %s; use %s", opt->name, arg,
		    opt->arg, opt->choices);
		return (-1);
	case CLI_SIZE:
		if (units_parse_size(arg, &v, &why) != 0)
			break;
		if (units_size_is_si(arg))
			log_warnx("--%s %s: %" PRIu64 " bytes (KB, MB, ... are "
			    "powers of 1000; K, M, ... alone or KiB, MiB, ... "
			    "powers of 1024)", opt->name, arg, v);
		if (v < opt->min || v > opt->max) {
			xasprintf(cause, "--%s %s: out of range; use %" PRIu64
			    " to %" PRIu64 " bytes", opt->name, arg, opt->min,
			    opt->max);
			return (-1);
		}
		goto store_int;
	case CLI_UINT:
		if (units_parse_uint(arg, opt->min, opt->max, &v, &why) != 0)
			break;
		goto store_int;
	case CLI_TIME:
		if (units_parse_time(arg, &d, &why) != 0)
			break;
		if (!(d > 0) || !isfinite(d)) {
			xasprintf(cause, "--%s %s: must be a positive time "
			    "(e.g. 30, 500ms, 2m)", opt->name, arg);
			return (-1);
		}
		*(double *)base = d;
		return (0);
	case CLI_PCT:
		d = strtod(arg, &tok);
		if (tok == arg || (*tok != '\0' && strcmp(tok, "%") != 0) ||
		    !(d >= 0.1 && d <= 50)) {
			xasprintf(cause, "--%s %s: use a percentage from 0.1 "
			    "to 50", opt->name, arg);
			return (-1);
		}
		*(double *)base = d / 100;
		return (0);
	}
	if (why != NULL) {
		xasprintf(cause, "--%s: %s", opt->name, why);
		free(why);
		return (-1);
	}
	xasprintf(cause, "--%s %s: not accepted", opt->name, arg);
	return (-1);

store_int:
	if (opt->width == sizeof(uint64_t))
		*(uint64_t *)base = v;
	else if (v > UINT32_MAX) {
		xasprintf(cause, "--%s %s: too large", opt->name, arg);
		return (-1);
	} else
		*(uint32_t *)base = (uint32_t)v;
	return (0);
}

/* Checks that involve several options. */
static int
cli_check(struct cli_opts *o, char **cause)
{
	struct sync_spec	 spec;
	struct voltype_spec	 vt;
	size_t			 c = cli_cmd_index(o->cmd);
	unsigned		 mask;
	char			*why = NULL, b[UNITS_BUFSZ];

	if (o->nargs > CLI_MAX_TARGETS && cli_cmds[c].max_args ==
	    CLI_MAX_TARGETS) {
		xasprintf(cause, "%s takes at most %d targets, got %d",
		    cli_cmds[c].name, CLI_MAX_TARGETS, o->nargs);
		return (-1);
	}
	if (o->nargs < cli_cmds[c].min_args ||
	    o->nargs > cli_cmds[c].max_args) {
		if (o->nargs < cli_cmds[c].min_args)
			xasprintf(cause, "%s needs %s: see tierprobe %s --help",
			    cli_cmds[c].name, cli_cmds[c].args,
			    cli_cmds[c].name);
		else
			xasprintf(cause, "%s takes %s, got an extra argument "
			    "'%s'", cli_cmds[c].name, *cli_cmds[c].args ?
			    cli_cmds[c].args : "no arguments",
			    o->args[cli_cmds[c].max_args]);
		return (-1);
	}
	if (o->methods != NULL && sync_methods_parse(o->methods, &mask,
	    &why) != 0) {
		xasprintf(cause, "--methods: %s", why);
		free(why);
		return (-1);
	}
	if (o->writers != NULL && sync_writers_parse(o->writers, &spec,
	    &why) != 0) {
		xasprintf(cause, "--writers: %s", why);
		free(why);
		return (-1);
	}
	if (o->cmd != CLI_SYNC && o->bs % 512 != 0) {
		xasprintf(cause, "--bs %" PRIu32 ": must be a multiple of 512 "
		    "bytes (and of the target's logical block)", o->bs);
		return (-1);
	}
	if ((o->cmd == CLI_RUN || o->cmd == CLI_LIMITS) &&
	    o->bs > LIMITS_MAX_BS) {
		xasprintf(cause, "--bs %s: %s sweeps I/O sizes from --bs up "
		    "to 1 MiB, so its --bs is at most 1M (scan and sync take "
		    "up to 64M)", units_format_size(o->bs, b, sizeof(b)),
		    o->cmd == CLI_RUN ? "run" : "limits");
		return (-1);
	}
	if (o->min_ws > o->max_ws) {
		xasprintf(cause, "--min-ws is larger than --max-ws: the scan "
		    "needs min-ws <= max-ws");
		return (-1);
	}
	if (o->points == 1 && o->min_ws != o->max_ws) {
		xasprintf(cause, "--points 1 measures one working set: give "
		    "--min-ws equal to --max-ws, or at least 2 points");
		return (-1);
	}
	if (o->step > 0 && o->step > o->max_ws - o->min_ws &&
	    o->max_ws != o->min_ws) {
		xasprintf(cause, "--step is larger than max-ws - min-ws: the "
		    "grid would hold one point");
		return (-1);
	}
	if (o->nargs > 1 && o->repeat > 1) {
		xasprintf(cause, "--repeat measures one target: give one, "
		    "or run each target on its own");
		return (-1);
	}
	if (o->nargs > 1 && o->fio_job != NULL) {
		xasprintf(cause, "--fio-job writes the jobs of one target: "
		    "give one, or use tierprobe report --fio-job on the "
		    "report of several");
		return (-1);
	}
	if (o->type != NULL && voltype_spec_parse(o->type, 0, &vt,
	    &why) != 0) {
		xasprintf(cause, "--type %s", why);
		free(why);
		return (-1);
	}
	if (o->type != NULL && o->expect_profile != NULL) {
		xasprintf(cause, "--type and --expect-profile both name what "
		    "to expect: give one");
		return (-1);
	}
	if (o->nargs > 1 && (o->type != NULL || o->size > 0) &&
	    o->cmd != CLI_CHECK) {
		xasprintf(cause, "--%s names one volume: give one target",
		    o->type != NULL ? "type" : "size");
		return (-1);
	}
	if (o->cmd == CLI_PREP && o->size == 0) {
		xasprintf(cause, "prep needs --size SIZE (e.g. --size 4G)");
		return (-1);
	}
	if (o->cmd == CLI_PLOT && o->outdir == NULL) {
		xasprintf(cause, "plot needs --outdir DIR");
		return (-1);
	}
	if (o->format == CLI_FMT_CSV && o->cmd != CLI_FLEET) {
		xasprintf(cause, "--output-format csv: only fleet prints csv; "
		    "use text, json or markdown");
		return (-1);
	}
	return (0);
}

/*
 * The cause for an unknown long option arg of cmd (word): the options it
 * abbreviates when it is ambiguous, else the closest option of cmd when
 * a third of its letters or fewer (at least two) would change.
 */
static void
cli_unknown(const char *arg, enum cli_cmd cmd, const char *word,
    char **cause)
{
	char	*name, *eq, list[256];
	size_t	 i, d, best = SIZE_MAX, at = CLI_NOPTIONS, len, o = 0, n = 0;

	name = xstrdup(arg + strspn(arg, "-"));
	if ((eq = strchr(name, '=')) != NULL)
		*eq = '\0';
	len = strlen(name);
	list[0] = '\0';
	for (i = 0; i < CLI_NOPTIONS; i++) {
		if (!(cli_options[i].cmds & C(cmd)))
			continue;
		if (len > 0 && strncmp(cli_options[i].name, name, len) == 0 &&
		    o < sizeof list) {
			o += snprintf(list + o, sizeof list - o, "%s--%s",
			    n++ > 0 ? ", " : "", cli_options[i].name);
			continue;
		}
		d = words_distance(name, cli_options[i].name);
		if (d < best) {
			best = d;
			at = i;
		}
	}
	if (n > 1)
		xasprintf(cause, "ambiguous option %s for %s: it abbreviates "
		    "%s", arg, word, list);
	else if (at < CLI_NOPTIONS && words_close(best, len))
		xasprintf(cause, "unknown option %s for %s: did you mean "
		    "--%s? (see tierprobe %s --help)", arg, word,
		    cli_options[at].name, word);
	else
		xasprintf(cause, "unknown option %s for %s: see tierprobe %s "
		    "--help", arg, word, word);
	free(name);
}

/* Parse the command line; see cli.h. */
int
cli_parse(int argc, char **argv, struct cli_opts *o, char **cause)
{
	struct option	 longopts[CLI_NOPTIONS + 1];
	char		 shortopts[64], *p = shortopts;
	const char	*word, *names[CLI_NCMDS];
	size_t		 i;
	long		 at;
	int		 ch, idx, next;

	cli_defaults(o);
	memset(longopts, 0, sizeof(longopts));
	*p++ = '+';
	*p++ = ':';
	for (i = 0; i < CLI_NOPTIONS; i++) {
		longopts[i].name = cli_options[i].name;
		longopts[i].has_arg = cli_options[i].kind == CLI_FLAG ?
		    no_argument : required_argument;
		longopts[i].val = 256 + (int)i;
		if (cli_options[i].short_name != 0) {
			*p++ = (char)cli_options[i].short_name;
			if (cli_options[i].kind != CLI_FLAG)
				*p++ = ':';
		}
	}
	*p = '\0';

	if (argc < 2) {
		xasprintf(cause, "no command given: use run, scan, limits, "
		    "sync, report, compare, plot, prep, profiles, check or "
		    "fleet (see --help)");
		return (-1);
	}
	word = argv[1];
	if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 ||
	    strcmp(word, "help") == 0) {
		o->help = 1;
		return (0);
	}
	if (strcmp(word, "--version") == 0 || strcmp(word, "-V") == 0) {
		o->version = 1;
		return (0);
	}
	for (i = 0; i < CLI_NCMDS; i++)
		if (strcmp(word, cli_cmds[i].name) == 0)
			o->cmd = cli_cmds[i].cmd;
	if (o->cmd == CLI_NONE) {
		for (i = 0; i < CLI_NCMDS; i++)
			names[i] = cli_cmds[i].name;
		if ((at = words_closest(word, names, CLI_NCMDS)) >= 0)
			xasprintf(cause, "unknown command '%s': did you mean "
			    "%s? (commands: run, scan, limits, sync, report, "
			    "compare, plot, prep, profiles, check, fleet)", word,
			    names[at]);
		else
			xasprintf(cause, "unknown command '%s': use run, scan, "
			    "limits, sync, report, compare, plot, prep, "
			    "profiles, check or fleet", word);
		return (-1);
	}

	/*
	 * Options may come before or after the operands.  getopt_long sees
	 * argv from the command word on, and optind 0 resets all its state
	 * (a parse that failed mid-group leaves some behind).
	 */
	argc--;
	argv++;
	optind = 0;
	opterr = 0;
	o->args = xcalloc(argc, sizeof(*o->args));
	for (;;) {
		/* "--": everything after it is an operand. */
		next = optind > 0 ? optind : 1;
		if (next < argc && strcmp(argv[next], "--") == 0) {
			while (++next < argc)
				o->args[o->nargs++] = argv[next];
			break;
		}
		optopt = 0;	/* not set for an ambiguous long option */
		ch = getopt_long(argc, argv, shortopts, longopts, &idx);
		if (ch == -1) {
			if (optind >= argc)
				break;
			o->args[o->nargs++] = argv[optind++];
			continue;
		}
		if (ch == '?' || ch == ':') {
			if (optopt >= 256 &&
			    cli_options[optopt - 256].kind == CLI_FLAG)
				xasprintf(cause, "--%s takes no argument: see "
				    "tierprobe %s --help",
				    cli_options[optopt - 256].name, word);
			else if (optopt >= 256)
				xasprintf(cause, "--%s needs an argument: see "
				    "tierprobe %s --help",
				    cli_options[optopt - 256].name, word);
			else if (ch == ':')
				xasprintf(cause, "-%c needs an argument: see "
				    "tierprobe %s --help", optopt, word);
			else if (optopt != 0)
				xasprintf(cause, "unknown option -%c for %s: "
				    "see tierprobe %s --help", optopt, word,
				    word);
			else
				cli_unknown(argv[optind - 1], o->cmd, word,
				    cause);
			return (-1);
		}
		for (i = 0; i < CLI_NOPTIONS; i++)
			if (ch == 256 + (int)i || ch == cli_options[i].short_name)
				break;
		if (i == CLI_NOPTIONS)
			continue;
		if (!(cli_options[i].cmds & C(o->cmd))) {
			xasprintf(cause, "--%s is not an option of %s: see "
			    "tierprobe %s --help", cli_options[i].name, word,
			    word);
			return (-1);
		}
		if (cli_store(o, &cli_options[i], optarg, cause) != 0)
			return (-1);
		o->set_mask |= cli_options[i].set_bit;
	}
	if (o->help || o->version)
		return (0);
	return (cli_check(o, cause));
}

/* Free what cli_parse allocated. */
void
cli_free(struct cli_opts *o)
{
	free(o->args);
	o->args = NULL;
	free(o->expect.v);
	o->expect.v = NULL;
}

/* Print --help for one sub-command, or the overview; built from the table. */
void
cli_usage(FILE *f, enum cli_cmd cmd)
{
	const char	*help;
	char		 left[64];
	size_t		 i, c, a;

	if (cmd == CLI_NONE) {
		fprintf(f, "usage: tierprobe COMMAND [options] [arguments]\n\n"
		    "Tells what a block volume really is: cache tiers, IOPS "
		    "and bandwidth ceilings,\nI/O accounting size, burst "
		    "buckets, write buffers and the cost of a commit.\n\n"
		    "commands:\n");
		for (i = 0; i < CLI_NCMDS; i++) {
			snprintf(left, sizeof(left), "%s %s", cli_cmds[i].name,
			    cli_cmds[i].args);
			fprintf(f, "  %-30s %s\n", left, cli_cmds[i].what);
		}
		fprintf(f, "\nTARGET: a file (created and filled if missing), "
		    "a block device (read-only\nunless --force) or sim:NAME "
		    "(a simulated volume; sim:NAME@INSTANCE puts it on an\n"
		    "instance; see tierprobe profiles).  Several targets are "
		    "measured alone, then\ntogether (run, limits).\n"
		    "Sizes take K, M, G, T, P (powers of 1024, as KiB, ...; "
		    "KB, MB, ... are powers\nof 1000).\n\n"
		    "'tierprobe COMMAND --help' lists a command's options:\n");
		for (i = 0; i < CLI_NOPTIONS; i++) {
			snprintf(left, sizeof(left), "--%s%s%s",
			    cli_options[i].name, cli_options[i].arg ? " " : "",
			    cli_options[i].arg ? cli_options[i].arg : "");
			fprintf(f, "  %-24s %s", left, cli_options[i].help);
			for (a = 0; a < CLI_NALTS; a++) {
				if (!cli_alts[a].overview ||
				    strcmp(cli_alts[a].name,
				    cli_options[i].name) != 0)
					continue;
				for (c = 0; c < CLI_NCMDS; c++) {
					if (cli_alts[a].cmds &
					    C(cli_cmds[c].cmd))
						fprintf(f, "; %s: %s",
						    cli_cmds[c].name,
						    cli_alts[a].help);
				}
			}
			fputc('\n', f);
		}
		return;
	}
	c = cli_cmd_index(cmd);
	fprintf(f, "usage: tierprobe %s [options] %s\n\n%s\n\noptions:\n",
	    cli_cmds[c].name, cli_cmds[c].args, cli_cmds[c].what);
	for (i = 0; i < CLI_NOPTIONS; i++) {
		if (!(cli_options[i].cmds & C(cmd)))
			continue;
		if (cli_options[i].short_name != 0)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
			    cli_options[i].short_name, cli_options[i].name,
			    cli_options[i].arg ? " " : "",
			    cli_options[i].arg ? cli_options[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s",
			    cli_options[i].name, cli_options[i].arg ? " " : "",
			    cli_options[i].arg ? cli_options[i].arg : "");
		help = cli_options[i].help;
		for (a = 0; a < CLI_NALTS; a++) {
			if ((cli_alts[a].cmds & C(cmd)) &&
			    strcmp(cli_alts[a].name, cli_options[i].name) == 0)
				help = cli_alts[a].help;
		}
		fprintf(f, "  %-26s %s\n", left, help);
	}
}
