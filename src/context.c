/* SPDX-License-Identifier: ISC */
/*
 * The machine context of a report: uname, and for the device under a
 * target its model, size and queue settings (/sys/block) and its
 * filesystem and mount options (/proc/self/mountinfo).
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <libgen.h>
#include <linux/limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context.h"

/* Copy s into dst[len], cut short if need be. */
static void
context_copy(char *dst, size_t len, const char *s)
{
	size_t	n = strlen(s);

	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* First line of a file, whitespace trimmed; 0 or -1. */
static int
context_read(const char *path, char *buf, size_t len)
{
	FILE	*f;
	size_t	 n;
	char	*s;

	buf[0] = '\0';
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	if (fgets(buf, len, f) == NULL) {
		fclose(f);
		buf[0] = '\0';
		return (-1);
	}
	fclose(f);
	n = strcspn(buf, "\n");
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	for (s = buf; *s == ' ' || *s == '\t'; s++)
		;
	memmove(buf, s, strlen(s) + 1);
	return (0);
}

static unsigned long
context_read_ulong(const char *dir, const char *name, unsigned long dflt)
{
	char	path[PATH_MAX + 64], buf[64], *end;
	unsigned long v;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (context_read(path, buf, sizeof buf) != 0 || buf[0] == '\0')
		return (dflt);
	v = strtoul(buf, &end, 10);
	return (*end == '\0' ? v : dflt);
}

/* The scheduler in use: the bracketed word of "mq-deadline [none]". */
static void
context_scheduler(const char *queue, char *out, size_t len)
{
	char	path[PATH_MAX + 64], buf[256], *a, *b;

	out[0] = '\0';
	snprintf(path, sizeof path, "%s/scheduler", queue);
	if (context_read(path, buf, sizeof buf) != 0)
		return;
	if ((a = strchr(buf, '[')) != NULL && (b = strchr(a, ']')) != NULL) {
		*b = '\0';
		context_copy(out, len, a + 1);
	} else
		context_copy(out, len, buf);
}

/* Filesystem type and mount options of device dev from mountinfo. */
static void
context_mount(struct report_context *ctx, dev_t dev, const char *root)
{
	FILE		*f;
	char		 path[PATH_MAX], *line = NULL, *opts, *sep, *fs;
	char		*save, *tok;
	size_t		 cap = 0;
	unsigned	 maj, min;
	int		 field;

	snprintf(path, sizeof path, "%s/proc/self/mountinfo", root);
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (getline(&line, &cap, f) != -1) {
		line[strcspn(line, "\n")] = '\0';
		if ((sep = strstr(line, " - ")) == NULL)
			continue;
		*sep = '\0';
		opts = NULL;
		field = 0;
		maj = min = ~0U;
		for (tok = strtok_r(line, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save), field++) {
			if (field == 2 && sscanf(tok, "%u:%u", &maj, &min) != 2)
				break;
			if (field == 5)
				opts = tok;
		}
		if (opts == NULL || maj != major(dev) || min != minor(dev))
			continue;
		fs = strtok_r(sep + 3, " ", &save);
		if (fs == NULL)
			continue;
		/* The last match is the mount on top. */
		context_copy(ctx->fstype, sizeof ctx->fstype, fs);
		context_copy(ctx->mount_options, sizeof ctx->mount_options,
		    opts);
	}
	free(line);
	fclose(f);
}

/* The device part of the context for device number dev. */
void
context_fill_devno(struct report_context *ctx, dev_t dev, const char *root)
{
	char	link[PATH_MAX], real[PATH_MAX], disk[PATH_MAX];
	char	queue[PATH_MAX + 16], path[PATH_MAX + 32], tmp[PATH_MAX];
	char	buf[160], vendor[64], model[256];
	struct stat st;

	context_mount(ctx, dev, root);
	snprintf(link, sizeof link, "%s/sys/dev/block/%u:%u", root,
	    major(dev), minor(dev));
	if (realpath(link, real) == NULL)
		return;
	/* A partition: the disk (and its queue) is the parent directory. */
	snprintf(path, sizeof path, "%s/partition", real);
	context_copy(disk, sizeof disk, real);
	if (stat(path, &st) == 0) {
		context_copy(tmp, sizeof tmp, real);
		context_copy(disk, sizeof disk, dirname(tmp));
	}
	context_copy(tmp, sizeof tmp, disk);
	context_copy(ctx->device, sizeof ctx->device, basename(tmp));
	snprintf(queue, sizeof queue, "%s/queue", disk);

	snprintf(path, sizeof path, "%s/device/model", disk);
	context_read(path, buf, sizeof buf);
	snprintf(path, sizeof path, "%s/device/vendor", disk);
	context_read(path, vendor, sizeof vendor);
	model[0] = '\0';
	if (buf[0] != '\0' && vendor[0] != '\0' &&
	    strncmp(buf, vendor, strlen(vendor)) != 0)
		snprintf(model, sizeof model, "%s %s", vendor, buf);
	else if (buf[0] != '\0')
		context_copy(model, sizeof model, buf);
	else {
		/* device-mapper names its devices; virtio has no model. */
		snprintf(path, sizeof path, "%s/dm/name", disk);
		if (context_read(path, buf, sizeof buf) == 0 && buf[0])
			snprintf(model, sizeof model, "device-mapper %s", buf);
		else if (strncmp(ctx->device, "vd", 2) == 0)
			context_copy(model, sizeof model,
			    "virtio block device");
	}
	context_copy(ctx->device_model, sizeof ctx->device_model, model);
	/* The disk's size, in 512-byte sectors whatever its block size. */
	ctx->device_size_bytes = (uint64_t)context_read_ulong(disk, "size",
	    0) * 512;
	context_scheduler(queue, ctx->scheduler, sizeof ctx->scheduler);
	ctx->rotational = (int)context_read_ulong(queue, "rotational",
	    (unsigned long)-1);
	if (ctx->rotational != 0 && ctx->rotational != 1)
		ctx->rotational = -1;
	ctx->nr_requests = context_read_ulong(queue, "nr_requests", 0);
	ctx->read_ahead_kb = context_read_ulong(queue, "read_ahead_kb", 0);
	ctx->logical_block = context_read_ulong(queue, "logical_block_size",
	    0);
	ctx->physical_block = context_read_ulong(queue,
	    "physical_block_size", 0);
}

/*
 * The context of a simulated target: where it ran (host, kernel), and its
 * device's model and size.
 */
void
context_fill_sim(struct report_context *ctx, const char *model,
    uint64_t size)
{
	context_fill(ctx, NULL);
	context_copy(ctx->device_model, sizeof ctx->device_model, model);
	ctx->device_size_bytes = size;
}

/* Fill ctx for a target path, best effort. */
void
context_fill(struct report_context *ctx, const char *path)
{
	struct utsname	u;
	struct stat	st;
	dev_t		dev;
	char		dir[PATH_MAX], model[sizeof u.sysname * 3 + 4];

	memset(ctx, 0, sizeof *ctx);
	ctx->rotational = -1;
	if (uname(&u) == 0) {
		context_copy(ctx->hostname, sizeof ctx->hostname, u.nodename);
		snprintf(model, sizeof model, "%s %s %s", u.sysname,
		    u.release, u.machine);
		context_copy(ctx->kernel, sizeof ctx->kernel, model);
	}
	if (path == NULL)
		return;
	if (stat(path, &st) != 0) {
		/* Not created yet: the directory it will be in. */
		context_copy(dir, sizeof dir, path);
		if (stat(dirname(dir), &st) != 0)
			return;
	}
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	context_fill_devno(ctx, dev, "");
}
