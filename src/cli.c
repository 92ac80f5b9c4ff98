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
	const char	*help;		/* without the default */
	const char	*def;		/* default as given, or NULL */
	const char	*def_note;	/* after def, or the default in words */
};

#define F(field)	.offset = offsetof(struct cli_opts, field), \
			.width = sizeof(((struct cli_opts *)0)->field)

/*
 * Every option once.  .def is its default, written as a user would give
 * it: cli_defaults() parses it with the option's own parser, and --help
 * shows it as "(default DEF)", with .def_note after it ("(default DEF;
 * NOTE)"), or .def_note alone for a default that is not a value
 * ("(default: NOTE)").  Help texts never name a default themselves.
 */
static const struct cli_option cli_options[] = {
	{ .name = "bs", .kind = CLI_SIZE, F(bs), .min = 512,
	  .max = 64ULL << 20, .cmds = PROBE | SYNC, .set_bit = CLI_SET_BS,
	  .arg = "SIZE", .help = "I/O size, a multiple of the logical block",
	  .def = "4K" },
	{ .name = "iodepth", .kind = CLI_UINT, F(iodepth), .min = 1,
	  .max = 4096, .cmds = PROBE, .arg = "N",
	  .help = "I/Os in flight for the scan", .def = "1" },
	{ .name = "buffered", .kind = CLI_FLAG, F(buffered), .cmds = PROBE,
	  .help = "go through the page cache", .def_note = "O_DIRECT" },
	{ .name = "engine", .kind = CLI_CHOICE, F(engine),
	  .choices = "io_uring|psync", .cmds = PROBE,
	  .set_bit = CLI_SET_ENGINE, .arg = "NAME", .help = "I/O engine: "
	  "io_uring or psync; a --buffered scan uses psync unless this is "
	  "given", .def = "io_uring" },
	{ .name = "seed", .kind = CLI_UINT, F(seed), .max = UINT64_MAX,
	  .cmds = PROBE | SYNC, .set_bit = CLI_SET_SEED, .arg = "N",
	  .help = "seed of every random choice",
	  .def_note = "from the clock; the report prints it" },
	{ .name = "json", .kind = CLI_STRING, F(json_path),
	  .cmds = PROBE | SYNC, .arg = "FILE",
	  .help = "also write the JSON report to FILE (atomically)" },
	{ .name = "output-format", .kind = CLI_CHOICE, F(format),
	  .choices = "text|json|markdown|csv",
	  .cmds = OUTPUTS | SYNC | C(CLI_EBS_STATS), .arg = "FMT",
	  .help = "report on stdout as text, json, markdown "
	  "or (fleet only) csv", .def = "text" },
	{ .name = "quiet", .short_name = 'q', .kind = CLI_FLAG, F(quiet),
	  .cmds = PROBE | SYNC | C(CLI_PREP) | C(CLI_PLOT) | C(CLI_CHECK),
	  .help = "no progress or notices on stderr; check: print only what "
	  "was not met and the summary" },
	{ .name = "keep", .kind = CLI_FLAG, F(keep), .cmds = C(CLI_RUN),
	  .help = "keep ./tierprobe.dat after a run without TARGET" },
	{ .name = "quick", .kind = CLI_FLAG, F(quick), .cmds = C(CLI_RUN),
	  .help = "the quick preset on TARGET too (as without TARGET)" },
	{ .name = "force", .kind = CLI_FLAG, F(force),
	  .cmds = PROBE | SYNC | C(CLI_PREP), .help = "allow writing to a "
	  "file or device tierprobe did not create" },
	{ .name = "force-device", .kind = CLI_FLAG, F(force_device),
	  .cmds = PROBE | SYNC | C(CLI_PREP), .help = "with --force: allow "
	  "writing to a device holding a filesystem, partition table or "
	  "holders (never a mounted one)" },
	{ .name = "repeat", .kind = CLI_UINT, F(repeat), .min = 1, .max = 100,
	  .cmds = PROBE | SYNC, .arg = "N", .help = "repeat the measurement "
	  "N times; report mean, sd and CV", .def = "1" },
	{ .name = "fio-job", .kind = CLI_STRING, F(fio_job),
	  .cmds = PROBE | SYNC | C(CLI_REPORT), .arg = "FILE",
	  .help = "write an equivalent fio job file for the points measured: "
	  "reads, writes and commits" },
	{ .name = "io-properties", .kind = CLI_STRING, F(io_properties),
	  .cmds = PROBE | C(CLI_REPORT), .arg = "FILE", .help = "write "
	  "ScyllaDB's io_properties.yaml from the long-run figures; refused "
	  "when any of the four is a burst figure or was not measured" },
	{ .name = "mountpoint", .kind = CLI_STRING, F(mountpoint),
	  .cmds = PROBE | C(CLI_REPORT), .arg = "DIR", .help = "the mount "
	  "point --io-properties names (ScyllaDB's data directory)",
	  .def = "/var/lib/scylla" },
	{ .name = "expect", .kind = CLI_LIST, F(expect),
	  .cmds = EXPECTS | C(CLI_FLEET), .arg = "EXPR", .help = "an "
	  "expectation such as 'iops>=3000' or 'p99<=2ms' (repeatable); one "
	  "missed or unknown makes all but fleet exit 3" },
	{ .name = "expect-profile", .kind = CLI_STRING, F(expect_profile),
	  .cmds = EXPECTS, .arg = "NAME", .help = "expect what a volume of "
	  "profile NAME promises, less its documented tolerance" },
	{ .name = "accept-burst", .kind = CLI_FLAG, F(accept_burst),
	  .cmds = EXPECTS | C(CLI_REPORT), .help = "count as met an "
	  "expectation met on a figure measured while a burst bucket may "
	  "have been full (by default it exits 3); --io-properties: write "
	  "such figures, marked" },
	{ .name = "host", .kind = CLI_STRING, F(host), .cmds = PROBE | SYNC,
	  .arg = "NAME", .help = "the host name fleets show for this report",
	  .def_note = "this machine's" },
	{ .name = "kind", .kind = CLI_STRING, F(kind), .cmds = PROBE | SYNC,
	  .arg = "NAME", .help = "the kind of volume (e.g. gp3-500g) fleets "
	  "compare it with" },
	{ .name = "outlier", .kind = CLI_PCT, F(outlier), .cmds = C(CLI_FLEET),
	  .arg = "PCT", .help = "flag a figure this many percent worse than "
	  "its kind's median", .def = "20" },
	{ .name = "fail-on-outlier", .kind = CLI_FLAG, F(fail_on_outlier),
	  .cmds = C(CLI_FLEET), .help = "exit 3 when a volume is an outlier "
	  "(after printing the fleet)" },
	{ .name = "min-ws", .kind = CLI_SIZE, F(min_ws), .min = 4096,
	  .max = UINT64_MAX, .cmds = SCANS, .set_bit = CLI_SET_MIN_WS,
	  .arg = "SIZE", .help = "smallest working set", .def = "16M" },
	{ .name = "max-ws", .kind = CLI_SIZE, F(max_ws), .min = 4096,
	  .max = UINT64_MAX, .cmds = SCANS, .set_bit = CLI_SET_MAX_WS,
	  .arg = "SIZE", .help = "largest working set", .def = "4G",
	  .def_note = "at most the target's size" },
	{ .name = "step", .kind = CLI_SIZE, F(step), .min = 4096,
	  .max = UINT64_MAX, .cmds = SCANS, .arg = "SIZE", .help = "linear "
	  "grid with this step instead of a log grid" },
	{ .name = "points", .kind = CLI_UINT, F(points), .min = 1, .max = 1000,
	  .cmds = SCANS, .set_bit = CLI_SET_POINTS, .arg = "N",
	  .help = "points of the log grid; 1 needs --min-ws = --max-ws",
	  .def = "16" },
	{ .name = "precision", .kind = CLI_PCT, F(precision),
	  .cmds = PROBE | SYNC, .set_bit = CLI_SET_PRECISION, .arg = "PCT",
	  .help = "stop a point when the 95% CI of its mean latency is "
	  "within PCT percent", .def = "2" },
	{ .name = "max-time", .kind = CLI_TIME, F(max_time_s),
	  .cmds = PROBE | SYNC, .set_bit = CLI_SET_MAX_TIME, .arg = "SECONDS",
	  .help = "time limit of one point", .def = "10" },
	{ .name = "budget", .kind = CLI_TIME, F(budget_s), .cmds = SCANS,
	  .set_bit = CLI_SET_BUDGET, .arg = "SECONDS", .help = "device time "
	  "the whole scan may spend", .def_note = "none" },
	{ .name = "ws", .kind = CLI_SIZE, F(ws), .min = 4096,
	  .max = UINT64_MAX, .cmds = LIMITS, .arg = "SIZE", .help = "working "
	  "set of the limit sweeps", .def_note = "50 times the last cache the "
	  "scan found, or --max-ws without one; at most the target's size" },
	{ .name = "max-iodepth", .kind = CLI_UINT, F(max_iodepth), .min = 1,
	  .max = 4096, .cmds = LIMITS, .set_bit = CLI_SET_MAX_IODEPTH,
	  .arg = "N", .help = "deepest queue of the iodepth sweep",
	  .def = "256" },
	{ .name = "sustain", .kind = CLI_TIME, F(sustain_s), .cmds = LIMITS,
	  .set_bit = CLI_SET_SUSTAIN, .arg = "SECONDS", .help = "length of "
	  "the sustained run that finds burst buckets", .def = "120" },
	{ .name = "sustain-together", .kind = CLI_TIME, F(sustain_together_s),
	  .cmds = LIMITS, .arg = "SECONDS", .help = "with several targets: "
	  "length of the run of all of them together",
	  .def_note = "--sustain" },
	{ .name = "rw", .kind = CLI_CHOICE, F(write), .choices = "read|write",
	  .cmds = LIMITS, .arg = "MODE", .help = "read or write; writes only "
	  "to files tierprobe created", .def = "read" },
	{ .name = "first-touch", .kind = CLI_FLAG, F(first_touch),
	  .cmds = LIMITS, .help = "compare first and second reads of blocks "
	  "(snapshot restore)" },
	{ .name = "methods", .kind = CLI_STRING, F(methods), .cmds = COMMITS,
	  .arg = "LIST", .help = "commit methods: fdatasync, fsync, dsync, "
	  "direct-dsync, uring-datasync, comma-separated",
	  .def_note = "all" },
	{ .name = "writers", .kind = CLI_STRING, F(writers), .cmds = COMMITS,
	  .arg = "LIST", .help = "counts of concurrent writers to commit "
	  "with", .def_note = "1,2,4,8,16" },
	{ .name = "type", .kind = CLI_STRING, F(type),
	  .cmds = PROBE | C(CLI_CHECK), .arg = "TYPE", .help = "the volume's "
	  "documented type, as gp2, gp3,iops=6000 or io1:400G,iops=4000 "
	  "(tierprobe profiles lists them): its figures at the volume's size "
	  "become the expectations, documented, not measured" },
	{ .name = "instance", .kind = CLI_STRING, F(instance), .cmds = PROBE,
	  .arg = "TYPE", .help = "the EC2 instance the volume is attached "
	  "to, as m5.large (its documented EBS limits), or an instance "
	  "profile file", .def_note = "the machine's DMI identity, or a "
	  "sim: target's @INSTANCE" },
	{ .name = "size", .kind = CLI_SIZE, F(size), .min = 4096,
	  .max = UINT64_MAX, .cmds = C(CLI_PREP) | PROBE | C(CLI_CHECK),
	  .arg = "SIZE", .help = "prep: size of the test file to create; "
	  "else the volume's size, for --type and the volume types judged, "
	  "where the target's device is not the volume" },
	{ .name = "outdir", .short_name = 'o', .kind = CLI_STRING, F(outdir),
	  .cmds = C(CLI_PLOT), .arg = "DIR", .help = "directory for the "
	  "plots, required (created if missing)" },
	{ .name = "format", .kind = CLI_CHOICE, F(plot_format),
	  .choices = "png|svg", .cmds = C(CLI_PLOT), .arg = "FMT",
	  .help = "plot format: png or svg", .def = "png" },
	{ .name = "show", .kind = CLI_STRING, F(show),
	  .cmds = C(CLI_PROFILES), .arg = "NAME",
	  .help = "print one profile's truth" },
	{ .name = "help", .short_name = 'h', .kind = CLI_FLAG, F(help),
	  .cmds = ~0U, .help = "this help" },
	{ .name = "version", .short_name = 'V', .kind = CLI_FLAG, F(version),
	  .cmds = ~0U, .help = "print the version" },
};
#define CLI_NOPTIONS	(sizeof(cli_options) / sizeof(cli_options[0]))

/*
 * What an option means for some commands when it differs from its help;
 * a default of kind CLI_PCT or CLI_TIME comes from the module that
 * applies it (def_value), else def_note says it in words.
 */
struct cli_alt {
	const char	*name;		/* of the option */
	unsigned	 cmds;		/* C(CLI_x) mask */
	const char	*help;		/* without the default */
	enum cli_kind	 kind;		/* of def_value */
	double		 def_value;	/* the default, or 0 */
	const char	*def_note;	/* a default in words, or NULL */
	int		 overview;	/* also in the overview, after help */
};

static const struct cli_alt cli_alts[] = {
	{ .name = "bs", .cmds = SYNC, .help = "the one commit size, any "
	  "number of bytes from 512 to 64M", .def_note = "4K, 8K, 16K and "
	  "2300 bytes", .overview = 1 },
	{ .name = "precision", .cmds = SYNC, .help = "stop a point when the "
	  "95% CI of its mean commit latency is within PCT percent",
	  .kind = CLI_PCT, .def_value = SYNC_PRECISION, .overview = 1 },
	{ .name = "max-time", .cmds = SYNC, .help = "time limit of one point",
	  .kind = CLI_TIME, .def_value = SYNC_MAX_TIME_S, .overview = 1 },
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

/* Every option's default, parsed from the table as if given. */
static void
cli_defaults(struct cli_opts *o)
{
	char	*cause = NULL;
	size_t	 i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < CLI_NOPTIONS; i++) {
		if (cli_options[i].def == NULL)
			continue;
		if (cli_store(o, &cli_options[i], cli_options[i].def,
		    &cause) != 0)
			fatal("the default of --%s: %s", cli_options[i].name,
			    cause);
	}
}

/* One option's help with its default, as --help prints it. */
static void
cli_help(char *buf, size_t len, const char *help, const char *def,
    const char *note)
{
	if (def != NULL && note != NULL)
		snprintf(buf, len, "%s (default %s; %s)", help, def, note);
	else if (def != NULL)
		snprintf(buf, len, "%s (default %s)", help, def);
	else if (note != NULL)
		snprintf(buf, len, "%s (default: %s)", help, note);
	else
		snprintf(buf, len, "%s", help);
}

/* An alternative help of an option, with its default. */
static void
cli_alt_help(char *buf, size_t len, const struct cli_alt *alt)
{
	char	def[32];

	if (alt->kind == CLI_PCT || alt->kind == CLI_TIME) {
		snprintf(def, sizeof def, "%g", alt->kind == CLI_PCT ?
		    alt->def_value * 100 : alt->def_value);
		cli_help(buf, len, alt->help, def, alt->def_note);
	} else
		cli_help(buf, len, alt->help, NULL, alt->def_note);
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
	if (o->nargs > 1 && o->io_properties != NULL) {
		xasprintf(cause, "--io-properties describes one volume: give "
		    "one target");
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
	char		 left[64], help[512];
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
			cli_help(help, sizeof help, cli_options[i].help,
			    cli_options[i].def, cli_options[i].def_note);
			fprintf(f, "  %-24s %s", left, help);
			for (a = 0; a < CLI_NALTS; a++) {
				if (!cli_alts[a].overview ||
				    strcmp(cli_alts[a].name,
				    cli_options[i].name) != 0)
					continue;
				cli_alt_help(help, sizeof help, &cli_alts[a]);
				for (c = 0; c < CLI_NCMDS; c++) {
					if (cli_alts[a].cmds &
					    C(cli_cmds[c].cmd))
						fprintf(f, "; %s: %s",
						    cli_cmds[c].name, help);
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
		cli_help(help, sizeof help, cli_options[i].help,
		    cli_options[i].def, cli_options[i].def_note);
		for (a = 0; a < CLI_NALTS; a++) {
			if ((cli_alts[a].cmds & C(cmd)) &&
			    strcmp(cli_alts[a].name, cli_options[i].name) == 0)
				cli_alt_help(help, sizeof help, &cli_alts[a]);
		}
		fprintf(f, "  %-26s %s\n", left, help);
	}
}
