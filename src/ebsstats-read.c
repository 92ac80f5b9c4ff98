/* SPDX-License-Identifier: ISC */
/*
 * EBS's counters read from a device: the NVMe namespace under a target
 * found through sysfs, log page 0xD0 fetched by an admin Get Log Page
 * (NVME_IOCTL_ADMIN_CMD), or a file instead (EBSSTATS_ENV); and the
 * counters around each phase of a run.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <linux/nvme_ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ebsstats-read.h"
#include "ebsstats.h"
#include "xmalloc.h"

#define EBSSTATS_OP_GET_LOG_PAGE	0x02
#define EBSSTATS_NSID			1
#define EBSSTATS_VENDOR_AMAZON		0x1d0f
#define EBSSTATS_MODEL_EBS		"Amazon Elastic Block Store"
#define EBSSTATS_MODEL_STORE		"Amazon EC2 NVMe Instance Storage"

/* The first line of path into buf, trailing blanks cut; "" if unread. */
static void
ebsstats_read_line(const char *path, char *buf, size_t len)
{
	FILE	*f;
	size_t	 n;

	buf[0] = '\0';
	if ((f = fopen(path, "r")) == NULL)
		return;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
}

/*
 * The NVMe namespace (its sysfs directory into ns) holding device number
 * dev, checked to be Amazon's.  Returns 0, or -1 with *why.
 */
static int
ebsstats_find_ns(dev_t dev, const char *target, char *ns, size_t len,
    enum ebsstats_kind *kind, char **why)
{
	char		link[64], real[PATH_MAX], tmp[PATH_MAX];
	char		path[PATH_MAX + 32], model[128], vendor[32];
	const char	*name;
	struct stat	st;

	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(dev),
	    minor(dev));
	if (realpath(link, real) == NULL) {
		xasprintf(why, "%s is on no block device (device %u:%u)",
		    target, major(dev), minor(dev));
		return (-1);
	}
	snprintf(path, sizeof path, "%s/partition", real);
	if (stat(path, &st) == 0) {
		snprintf(tmp, sizeof tmp, "%s", real);
		snprintf(real, sizeof real, "%s", dirname(tmp));
	}
	snprintf(tmp, sizeof tmp, "%s", real);
	name = basename(tmp);
	if (strncmp(name, "nvme", 4) != 0) {
		xasprintf(why, "%s is on %s, not an NVMe device (EBS's "
		    "counters are read from Nitro NVMe volumes)", target, name);
		return (-1);
	}
	snprintf(path, sizeof path, "%s/device/model", real);
	ebsstats_read_line(path, model, sizeof model);
	snprintf(path, sizeof path, "%s/device/device/vendor", real);
	ebsstats_read_line(path, vendor, sizeof vendor);
	if (strncmp(model, EBSSTATS_MODEL_EBS, strlen(EBSSTATS_MODEL_EBS)) ==
	    0)
		*kind = EBSSTATS_KIND_EBS;
	else if (strncmp(model, EBSSTATS_MODEL_STORE,
	    strlen(EBSSTATS_MODEL_STORE)) == 0)
		*kind = EBSSTATS_KIND_INSTANCE_STORE;
	else {
		xasprintf(why, "%s is on %s, model \"%s\": not an Amazon EBS or "
		    "instance-store volume", target, name, model);
		return (-1);
	}
	if (vendor[0] != '\0' && strtoul(vendor, NULL, 16) !=
	    EBSSTATS_VENDOR_AMAZON) {
		xasprintf(why, "%s is on %s, model \"%s\" but vendor %s, not "
		    "Amazon's 0x1d0f", target, name, model, vendor);
		return (-1);
	}
	snprintf(ns, len, "%s", name);
	return (0);
}

/* Read a page from the device (the admin Get Log Page); -errno. */
static int
ebsstats_ioctl(int fd, uint8_t *buf)
{
	struct nvme_admin_cmd	cmd;
	int			rc;

	memset(&cmd, 0, sizeof cmd);
	memset(buf, 0, EBSSTATS_PAGE_BYTES);
	cmd.opcode = EBSSTATS_OP_GET_LOG_PAGE;
	cmd.nsid = EBSSTATS_NSID;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = EBSSTATS_PAGE_BYTES;
	/* Log page id, and the number of dwords less one (NUMDL). */
	cmd.cdw10 = EBSSTATS_LOG_PAGE |
	    (uint32_t)((EBSSTATS_PAGE_BYTES / 4 - 1) << 16);
	/* Below zero: the kernel refused; above: the NVMe status. */
	if ((rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd)) < 0)
		return (-errno);
	return (rc > 0 ? -EIO : 0);
}

/* What an errno of the admin command means for the user. */
static void
ebsstats_denied(const char *dev, int err, char **why)
{
	if (err == EACCES || err == EPERM)
		xasprintf(why, "no permission to read %s's log page (root with "
		    "CAP_SYS_ADMIN reads it)", dev);
	else if (err == ENOTTY || err == EINVAL || err == EOPNOTSUPP)
		xasprintf(why, "%s does not take NVMe admin commands (%s)",
		    dev, strerror(err));
	else
		xasprintf(why, "%s's log page 0x%X: %s", dev,
		    EBSSTATS_LOG_PAGE, strerror(err));
}

/* Find and check the counters of target; see ebsstats-read.h. */
int
ebsstats_dev_open(struct ebsstats_dev *dev, const char *target, int sim,
    char **why)
{
	struct stat	 st;
	struct ebsstats_page p;
	uint8_t		 buf[EBSSTATS_PAGE_BYTES];
	const char	*env;
	char		 ns[64], *cause = NULL;
	size_t		 len;
	dev_t		 d;

	memset(dev, 0, sizeof *dev);
	dev->fd = -1;
	if ((env = getenv(EBSSTATS_ENV)) != NULL && *env != '\0') {
		snprintf(dev->path, sizeof dev->path, "%s", env);
		dev->seam = 1;
		dev->virtual = sim;
	} else if (sim)
		return (1);
	else {
		if (stat(target, &st) != 0) {
			xasprintf(why, "%s: %s", target, strerror(errno));
			return (-1);
		}
		d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		if (ebsstats_find_ns(d, target, ns, sizeof ns, &dev->kind,
		    why) != 0)
			return (-1);
		snprintf(dev->path, sizeof dev->path, "/dev/%s", ns);
		if ((dev->fd = open(dev->path, O_RDONLY | O_CLOEXEC)) < 0) {
			ebsstats_denied(dev->path, errno, why);
			return (-1);
		}
	}
	if (ebsstats_dev_read(dev, "open", 0, buf, &len, &cause) != 0 ||
	    ebsstats_parse(buf, len, &p, &cause) != 0) {
		xasprintf(why, "%s", cause);
		free(cause);
		ebsstats_dev_close(dev);
		return (-1);
	}
	dev->kind = p.kind;
	return (0);
}

void
ebsstats_dev_close(struct ebsstats_dev *dev)
{
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
	dev->open = 0;
}

/* The seam's page for phase (after or before), into buf; see above. */
static int
ebsstats_seam_read(const struct ebsstats_dev *dev, const char *phase,
    int after, uint8_t *buf, size_t *len, char **cause)
{
	struct stat	 st;
	char		 path[PATH_MAX];
	ssize_t		 n;
	size_t		 got = 0;
	int		 fd;

	snprintf(path, sizeof path, "%s", dev->path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(path, sizeof path, "%s/%s-%s", dev->path, phase,
		    after ? "after" : "before");
		if (access(path, F_OK) != 0)
			snprintf(path, sizeof path, "%s/default", dev->path);
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		xasprintf(cause, "%s (%s): %s", path, EBSSTATS_ENV,
		    strerror(errno));
		return (-1);
	}
	while (got < EBSSTATS_PAGE_BYTES &&
	    (n = read(fd, buf + got, EBSSTATS_PAGE_BYTES - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			xasprintf(cause, "%s: %s", path, strerror(errno));
			close(fd);
			return (-1);
		}
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	return (0);
}

/* Read one page; see ebsstats-read.h. */
int
ebsstats_dev_read(struct ebsstats_dev *dev, const char *phase, int after,
    uint8_t *buf, size_t *len, char **cause)
{
	int	err;

	if (dev->seam)
		return (ebsstats_seam_read(dev, phase, after, buf, len, cause));
	if ((err = ebsstats_ioctl(dev->fd, buf)) != 0) {
		ebsstats_denied(dev->path, -err, cause);
		return (-1);
	}
	*len = EBSSTATS_PAGE_BYTES;
	return (0);
}

/* Say in run->note (once) why a phase has no counters. */
static void
ebsstats_dev_note(struct ebsstats_run *run, const char *phase,
    const char *cause)
{
	if (run->note[0] == '\0')
		snprintf(run->note, sizeof run->note, "%s: %s", phase, cause);
}

/* Read and parse a page for phase into *p; 0, or -1 said in run->note. */
static int
ebsstats_dev_page(struct ebsstats_dev *dev, struct ebsstats_run *run,
    const char *phase, int after, struct ebsstats_page *p)
{
	uint8_t	 buf[EBSSTATS_PAGE_BYTES];
	char	*cause = NULL;
	size_t	 len;

	if (ebsstats_dev_read(dev, phase, after, buf, &len, &cause) != 0 ||
	    ebsstats_parse(buf, len, p, &cause) != 0) {
		ebsstats_dev_note(run, phase, cause);
		free(cause);
		return (-1);
	}
	return (0);
}

/* Start counting a phase; see ebsstats-read.h. */
void
ebsstats_dev_begin(struct ebsstats_dev *dev, struct ebsstats_run *run,
    const char *name)
{
	ebsstats_dev_end(dev, run, NAN);
	if (dev->fd < 0 && !dev->seam)
		return;
	snprintf(dev->phase, sizeof dev->phase, "%s", name);
	if (ebsstats_dev_page(dev, run, name, 0, &dev->before) != 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &dev->t0);
	dev->open = 1;
}

/* End the phase being counted; see ebsstats-read.h. */
void
ebsstats_dev_end(struct ebsstats_dev *dev, struct ebsstats_run *run,
    double seconds)
{
	struct ebsstats_page	 after;
	struct ebsstats_phase	 d;
	struct timespec		 t1;
	char			*cause = NULL;

	if (!dev->open)
		return;
	dev->open = 0;
	if (!dev->virtual || !isfinite(seconds) || seconds < 0) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		seconds = (double)(t1.tv_sec - dev->t0.tv_sec) +
		    (double)(t1.tv_nsec - dev->t0.tv_nsec) / 1e9;
	}
	if (ebsstats_dev_page(dev, run, dev->phase, 1, &after) != 0)
		return;
	if (ebsstats_diff(&dev->before, &after, dev->phase, seconds, &d,
	    &cause) != 0) {
		ebsstats_dev_note(run, dev->phase, cause);
		free(cause);
		return;
	}
	run->phases = xreallocarray(run->phases, run->nphases + 1,
	    sizeof *run->phases);
	run->phases[run->nphases++] = d;
}
