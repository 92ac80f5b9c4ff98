/* SPDX-License-Identifier: ISC */
/*
 * The instance a volume is attached to and the EBS limits it documents
 * for all its volumes together: from --instance TYPE (the table of
 * EBS-optimized instance types, profiles/ec2-ebs-optimized.txt, or a
 * built-in instance profile), --instance FILE (an [instance] profile),
 * the machine's DMI identity (sysfs: "Amazon EC2" and the type) or a
 * simulated target's @INSTANCE; or that none is known, and why.
 */
#ifndef INSTANCE_H
#define INSTANCE_H

/* Where an instance was learnt from. */
enum instance_from {
	INSTANCE_NONE,			/* none known */
	INSTANCE_OPTION,		/* --instance TYPE */
	INSTANCE_FILE,			/* --instance FILE */
	INSTANCE_DMI,			/* the machine's DMI identity */
	INSTANCE_SIM,			/* a sim: target's @INSTANCE */
};

#define INSTANCE_DMI_DIR	"/sys/devices/virtual/dmi/id"
#define INSTANCE_DMI_ENV	"TIERPROBE_DMI_DIR"	/* another one (tests) */
#define INSTANCE_TABLE		"ec2-ebs-optimized.txt"	/* in profiles/ */

/* An instance's EBS limits, shared by all its volumes. */
struct instance_limits {
	char	name[64];		/* "m5.large"; "" when none */
	int	from;			/* enum instance_from */
	double	iops;			/* sustained, 16 KiB I/O; NAN */
	double	bandwidth;		/* sustained, bytes/s; NAN */
	double	burst_iops;		/* the most for burst_s; NAN: no
					   burst */
	double	burst_bandwidth;	/* bytes/s; NAN */
	double	burst_s;		/* how long from full; NAN */
	double	burst_period_s;		/* at least once in this; NAN */
	char	source[192];		/* where its figures are
					   documented */
	char	why[192];		/* none known: why */
};

/* No instance known, for why (printf-like). */
void	instance_none(struct instance_limits *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * The limits of spec: a path (with '/' or ending in ".ini") is an
 * [instance] profile; a name is looked up in the table, then as a
 * built-in instance profile.  from is the source to record.  Returns 0,
 * or -1 with an allocated one-line message in *cause.
 */
int	instance_lookup(const char *, int, struct instance_limits *,
	    char **);
/*
 * The instance the machine's DMI identity names, read from dir (NULL:
 * $TIERPROBE_DMI_DIR, else INSTANCE_DMI_DIR): sys_vendor "Amazon EC2"
 * and product_name a type of the table; otherwise none, with why.
 */
void	instance_from_dmi(const char *, struct instance_limits *);
/*
 * The instance of a run: --instance opt if given (-1 with *cause when
 * it names no instance), else the simulated targets' shared @INSTANCE
 * sim ("" or NULL: none), else none when simulated (every target a
 * simulated volume), else the DMI identity.
 */
int	instance_resolve(const char *, const char *, int,
	    struct instance_limits *, char **);
/* "--instance", "profile file", "DMI", "sim: target"; NULL for none. */
const char *instance_from_name(int);
/* The same as a JSON word: "option", "file", "dmi", "sim"; NULL. */
const char *instance_from_word(int);

#endif
