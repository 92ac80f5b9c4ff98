/* SPDX-License-Identifier: ISC */
/* The command line: sub-commands, the option table, --help built from it. */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>
#include <stdio.h>

enum cli_cmd {
	CLI_NONE,
	CLI_RUN,
	CLI_SCAN,
	CLI_LIMITS,
	CLI_REPORT,
	CLI_COMPARE,
	CLI_PLOT,
	CLI_PREP,
	CLI_PROFILES,
	CLI_CHECK,
	CLI_FLEET,
	CLI_SYNC,
	CLI_EBS_STATS,
};

enum cli_format {
	CLI_FMT_TEXT,
	CLI_FMT_JSON,
	CLI_FMT_MARKDOWN,
	CLI_FMT_CSV,
};

/* An option given several times: its arguments in order (argv strings). */
struct cli_list {
	const char	**v;		/* allocated; cli_free frees it */
	int		  n;
};

struct cli_opts {
	enum cli_cmd	 cmd;
	char		**args;		/* positional arguments (argv slice) */
	int		 nargs;
	int		 help;		/* --help given: usage printed, exit 0 */
	int		 version;

	/* common */
	uint32_t	 bs;
	unsigned	 iodepth;
	int		 buffered;
	const char	*engine;
	uint64_t	 seed;
	const char	*json_path;
	enum cli_format	 format;
	int		 quiet;
	int		 keep;
	int		 quick;		/* the preset of run without TARGET */
	int		 force;
	int		 force_device;
	unsigned	 repeat;
	const char	*fio_job;
	const char	*io_properties;	/* io_properties.yaml to write */
	const char	*mountpoint;	/* the mount point it names */

	/* acceptance checks and fleets */
	struct cli_list	 expect;	/* --expect EXPR ... */
	const char	*expect_profile;
	const char	*type;		/* --type: a volume type's spec */
	const char	*instance;	/* --instance TYPE or FILE */
	int		 accept_burst;	/* lifted figures met count as met */
	const char	*host;		/* labels of the report */
	const char	*kind;
	double		 outlier;	/* fraction, from --outlier */
	int		 fail_on_outlier;

	/* scan */
	uint64_t	 min_ws;
	uint64_t	 max_ws;
	uint64_t	 step;
	unsigned	 points;
	double		 precision;	/* fraction, from --precision PCT */
	double		 max_time_s;
	double		 budget_s;

	/* limits */
	uint64_t	 ws;		/* 0: after the last tier */
	unsigned	 max_iodepth;
	double		 sustain_s;
	double		 sustain_together_s; /* 0: sustain_s */
	int		 write;		/* --rw write */
	int		 first_touch;

	/* sync (and run) */
	const char	*methods;	/* comma-separated, or NULL: all */
	const char	*writers;	/* comma-separated counts, or NULL */

	/* prep (the file), probes and check (the volume), plot, profiles */
	uint64_t	 size;
	const char	*outdir;
	const char	*plot_format;
	const char	*show;

	uint32_t	 set_mask;	/* which options were given (CLI_SET_*) */
};

#define CLI_SET_MIN_WS		0x01
#define CLI_SET_MAX_WS		0x02
#define CLI_SET_POINTS		0x04
#define CLI_SET_MAX_TIME	0x08
#define CLI_SET_SUSTAIN		0x10
#define CLI_SET_SEED		0x20
#define CLI_SET_MAX_IODEPTH	0x40
#define CLI_SET_BUDGET		0x80
#define CLI_SET_BS		0x100
#define CLI_SET_PRECISION	0x200
#define CLI_SET_ENGINE		0x400

#define CLI_MAX_TARGETS		64	/* operands of run, scan, limits */

/*
 * Parse argv into o (defaults first).  Returns 0, or -1 with an allocated
 * one-line message in *cause naming the option and what it accepts (a
 * usage error: exit 2).
 */
int	cli_parse(int, char **, struct cli_opts *, char **);
/* Free what cli_parse allocated in o (also after it failed). */
void	cli_free(struct cli_opts *);
/* --help for a sub-command (CLI_NONE: the overview), built from the table. */
void	cli_usage(FILE *, enum cli_cmd);
const char *cli_cmd_name(enum cli_cmd);

#endif
