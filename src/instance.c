/* SPDX-License-Identifier: ISC */
/*
 * The instance of a run and its documented EBS limits.  The table
 * (profiles/ec2-ebs-optimized.txt) has a line a type: maximum bandwidth
 * (Mbps), throughput (MB/s, 128 KiB I/O) and IOPS (16 KiB I/O), then, for
 * a type that bursts, the same three as its baseline; a type without them
 * sustains its maximum.  A burst lasts 30 minutes at least once every 24
 * hours (the EC2 User Guide's words).  Throughput is in MB (10^6 bytes).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instance.h"
#include "profiles.h"
#include "xmalloc.h"

#define INSTANCE_BURST_S	1800.0		/* 30 minutes ... */
#define INSTANCE_PERIOD_S	86400.0		/* ... once every 24 hours */
#define INSTANCE_SOURCE		"Amazon EC2 User Guide, \"Amazon " \
				"EBS-optimized instances\", profiles/" \
				INSTANCE_TABLE

static const char *const instance_names[] = {
	[INSTANCE_NONE] = NULL,
	[INSTANCE_OPTION] = "--instance",
	[INSTANCE_FILE] = "profile file",
	[INSTANCE_DMI] = "DMI",
	[INSTANCE_SIM] = "sim: target",
};

static const char *const instance_words[] = {
	[INSTANCE_NONE] = NULL,
	[INSTANCE_OPTION] = "option",
	[INSTANCE_FILE] = "file",
	[INSTANCE_DMI] = "dmi",
	[INSTANCE_SIM] = "sim",
};

/* "--instance", "profile file", "DMI", "sim: target"; NULL for none. */
const char *
instance_from_name(int from)
{
	if (from < 0 || from > INSTANCE_SIM)
		return (NULL);
	return (instance_names[from]);
}

/* "option", "file", "dmi", "sim"; NULL for none and past the last. */
const char *
instance_from_word(int from)
{
	if (from < 0 || from > INSTANCE_SIM)
		return (NULL);
	return (instance_words[from]);
}

/* Every figure unknown, no name. */
static void
instance_clear(struct instance_limits *il)
{
	memset(il, 0, sizeof *il);
	il->iops = il->bandwidth = il->burst_iops = il->burst_bandwidth = NAN;
	il->burst_s = il->burst_period_s = NAN;
}

/* No instance known, and why. */
void
instance_none(struct instance_limits *il, const char *fmt, ...)
{
	va_list	ap;

	instance_clear(il);
	va_start(ap, fmt);
	vsnprintf(il->why, sizeof il->why, fmt, ap);
	va_end(ap);
}

/*
 * Parse one line of the table into il when its type is name: 1 found, 0
 * another type or a comment, -1 malformed.
 */
static int
instance_table_line(const char *line, const char *name,
    struct instance_limits *il)
{
	char	type[64];
	double	v[6];
	int	n;

	n = sscanf(line, "%63s %lf %lf %lf %lf %lf %lf", type, &v[0], &v[1],
	    &v[2], &v[3], &v[4], &v[5]);
	if (n < 1 || type[0] == '#')
		return (0);
	if (strcmp(type, name) != 0)
		return (0);
	if ((n != 4 && n != 7) || !(v[1] > 0) || !(v[2] > 0) ||
	    (n == 7 && (!(v[4] > 0) || !(v[5] > 0))))
		return (-1);
	instance_clear(il);
	snprintf(il->name, sizeof il->name, "%s", name);
	if (n == 4) {
		il->iops = v[2];
		il->bandwidth = v[1] * 1e6;
	} else {
		il->iops = v[5];
		il->bandwidth = v[4] * 1e6;
		il->burst_iops = v[2];
		il->burst_bandwidth = v[1] * 1e6;
		il->burst_s = INSTANCE_BURST_S;
		il->burst_period_s = INSTANCE_PERIOD_S;
	}
	snprintf(il->source, sizeof il->source, "%s", INSTANCE_SOURCE);
	return (1);
}

/*
 * Look name up in the first table found among the profile directories:
 * 1 found, 0 not, -1 with *cause when the table cannot be read or its
 * line is malformed.
 */
static int
instance_table(const char *name, struct instance_limits *il, char **cause)
{
	const char *const	*dirs = profiles_dirs();
	char			*path, line[256];
	FILE			*f = NULL;
	size_t			 i, lineno = 0;
	int			 rc = 0;

	for (i = 0; dirs[i] != NULL && f == NULL; i++) {
		xasprintf(&path, "%s/%s", dirs[i], INSTANCE_TABLE);
		f = fopen(path, "r");
		if (f == NULL)
			free(path);
	}
	if (f == NULL) {
		xasprintf(cause, "%s: not found in the profile directories",
		    INSTANCE_TABLE);
		return (-1);
	}
	while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
		lineno++;
		rc = instance_table_line(line, name, il);
	}
	if (rc < 0)
		xasprintf(cause, "%s:%zu: expected TYPE MBPS MB/S IOPS "
		    "[MBPS MB/S IOPS] with figures above 0", path, lineno);
	fclose(f);
	free(path);
	return (rc);
}

/* Copy the [instance] of profile p into il. */
static void
instance_from_profile(const struct profile *p, struct instance_limits *il)
{
	instance_clear(il);
	snprintf(il->name, sizeof il->name, "%s", p->instance_name != NULL ?
	    p->instance_name : "");
	il->iops = p->instance_iops > 0 ? p->instance_iops : NAN;
	il->bandwidth = p->instance_bandwidth > 0 ? p->instance_bandwidth :
	    NAN;
	if (p->instance_burst_iops > 0 || p->instance_burst_bandwidth > 0) {
		il->burst_iops = p->instance_burst_iops > 0 ?
		    p->instance_burst_iops : NAN;
		il->burst_bandwidth = p->instance_burst_bandwidth > 0 ?
		    p->instance_burst_bandwidth : NAN;
		il->burst_s = p->instance_burst_s > 0 ? p->instance_burst_s :
		    NAN;
		il->burst_period_s = p->instance_burst_period_s > 0 ?
		    p->instance_burst_period_s : NAN;
	}
	snprintf(il->source, sizeof il->source, "%s",
	    p->instance_description != NULL ? p->instance_description :
	    "an instance profile");
}

/* Whether spec is a path rather than a name (profiles_load's rule). */
static int
instance_is_path(const char *spec)
{
	size_t	len = strlen(spec);

	return (strchr(spec, '/') != NULL ||
	    (len > 4 && strcmp(spec + len - 4, ".ini") == 0));
}

/* The limits of spec, a type of the table or a profile; see instance.h. */
int
instance_lookup(const char *spec, int from, struct instance_limits *il,
    char **cause)
{
	struct profile	*p;
	char		*why = NULL;
	int		 rc;

	instance_clear(il);
	if (*spec == '\0') {
		xasprintf(cause, "empty: give an EC2 instance type "
		    "(m5.large) or an instance profile file");
		return (-1);
	}
	if (!instance_is_path(spec)) {
		if ((rc = instance_table(spec, il, cause)) != 0) {
			il->from = rc > 0 ? from : INSTANCE_NONE;
			return (rc > 0 ? 0 : -1);
		}
	}
	if ((p = profiles_load_instance(spec, &why)) == NULL) {
		if (instance_is_path(spec))
			xasprintf(cause, "%s", why);
		else
			xasprintf(cause, "%s: not an instance type of the "
			    "table of EBS-optimized instance types (%s) nor a "
			    "built-in instance profile; give a type such as "
			    "m5.large, or a file with an [instance] section",
			    spec, INSTANCE_TABLE);
		free(why);
		return (-1);
	}
	instance_from_profile(p, il);
	if (il->name[0] == '\0')
		snprintf(il->name, sizeof il->name, "%s", spec);
	il->from = instance_is_path(spec) && from == INSTANCE_OPTION ?
	    INSTANCE_FILE : from;
	profiles_free(p);
	return (0);
}

/* The first line of file dir/name into buf without its newline; -errno. */
static int
instance_read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char	*path;
	FILE	*f;
	int	 rc = 0;

	xasprintf(&path, "%s/%s", dir, name);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return (-errno);
	if (fgets(buf, len, f) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	/* Trailing blanks, as some firmware pads the fields. */
	for (len = strlen(buf); len > 0 && buf[len - 1] == ' '; len--)
		buf[len - 1] = '\0';
	fclose(f);
	return (rc);
}

/* The instance the machine's DMI identity names; see instance.h. */
void
instance_from_dmi(const char *dir, struct instance_limits *il)
{
	char	vendor[128], product[128], *cause = NULL;
	int	rc;

	if (dir == NULL)
		dir = getenv(INSTANCE_DMI_ENV);
	if (dir == NULL || *dir == '\0')
		dir = INSTANCE_DMI_DIR;
	if ((rc = instance_read_line(dir, "sys_vendor", vendor,
	    sizeof vendor)) != 0) {
		instance_none(il, "no DMI identity (%s/sys_vendor: %s)", dir,
		    strerror(-rc));
		return;
	}
	if (strcmp(vendor, "Amazon EC2") != 0) {
		instance_none(il, "not an EC2 instance (DMI sys_vendor "
		    "\"%.64s\")", vendor);
		return;
	}
	if ((rc = instance_read_line(dir, "product_name", product,
	    sizeof product)) != 0 || product[0] == '\0') {
		instance_none(il, "an EC2 instance of unknown type (%s/"
		    "product_name: %s)", dir, rc != 0 ? strerror(-rc) :
		    "empty");
		return;
	}
	if (instance_is_path(product) ||
	    instance_lookup(product, INSTANCE_DMI, il, &cause) != 0) {
		instance_none(il, "EC2 instance type %.64s: its EBS limits are "
		    "not in %s; give --instance FILE", product,
		    INSTANCE_TABLE);
		free(cause);
		snprintf(il->name, sizeof il->name, "%.63s", product);
	}
}

/* The instance of a run; see instance.h. */
int
instance_resolve(const char *opt, const char *sim, int simulated,
    struct instance_limits *il, char **cause)
{
	char	*why = NULL;

	if (opt != NULL)
		return (instance_lookup(opt, INSTANCE_OPTION, il, cause));
	if (sim != NULL && *sim != '\0') {
		if (instance_lookup(sim, INSTANCE_SIM, il, &why) != 0) {
			instance_none(il, "the simulated instance %.64s: %.100s",
			    sim, why);
			free(why);
		}
		return (0);
	}
	if (simulated) {
		instance_none(il, "a simulated volume on no instance "
		    "(sim:VOL@INSTANCE)");
		return (0);
	}
	instance_from_dmi(NULL, il);
	return (0);
}
