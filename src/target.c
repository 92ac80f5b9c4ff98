/* SPDX-License-Identifier: ISC */
/*
 * Targets: open a file, a block device or a simulated volume; create and fill
 * test files with real data; refuse what could lose data.
 *
 * A file tierprobe creates starts with a header block (TARGET_MAGIC) by which
 * later runs recognise it; only such files are extended or written without
 * --force.  Files are filled with non-repeating pseudo-random data, and FIEMAP
 * confirms no extent in the measured range is a hole or unwritten: reading
 * those returns zeros without touching the disk and would fake a cache tier.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <linux/fiemap.h>
#include <linux/fs.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interrupt.h"
#include "log.h"
#include "rng.h"
#include "sim.h"
#include "target.h"
#include "units.h"
#include "xmalloc.h"

#define TARGET_MAGIC		"TIERPROBE-TESTFILE-1\n"
#define TARGET_SIM_PREFIX	"sim:"
#define TARGET_HEADER		4096
#define TARGET_FILL_CHUNK	(8U << 20)
#define TARGET_FILL_WRITERS	4	/* chunks written at once */
#define TARGET_SPACE_MARGIN	(64ULL << 20)
#define TARGET_TMPFS_MAGIC	0x01021994
#define TARGET_RAMFS_MAGIC	0x858458f6
#define TARGET_SIG_BYTES	(68U << 10)	/* btrfs magic: up to 65608 */
/* Advice for a file tierprobe did not create: never --force. */
#define TARGET_OWN_FILE		"point tierprobe at a test file of its own " \
	"(a path that does not exist yet, or one made by 'tierprobe prep " \
	"FILE --size SIZE')"

static const struct {
	long		 magic;
	const char	*name;
} target_fs_names[] = {
	{ 0xEF53, "ext4" },
	{ 0x58465342, "xfs" },
	{ (long)0x9123683E, "btrfs" },
	{ TARGET_TMPFS_MAGIC, "tmpfs" },
	{ (long)TARGET_RAMFS_MAGIC, "ramfs" },
	{ 0x794c7630, "overlay" },
	{ 0x2fc12fc1, "zfs" },
	{ 0x6969, "nfs" },
	{ (long)0xF2F52010, "f2fs" },
};

/* Name of a target type, as in the JSON report. */
const char *
target_type_name(enum target_type type)
{
	switch (type) {
	case TARGET_FILE:
		return ("file");
	case TARGET_BLOCKDEV:
		return ("blockdev");
	case TARGET_SIM:
		return ("sim");
	}
	return ("unknown");
}

/* The volume name of a "sim:NAME" spec, or NULL for any other spec. */
static const char *
target_sim_name(const char *spec)
{
	size_t	len = strlen(TARGET_SIM_PREFIX);

	if (strncmp(spec, TARGET_SIM_PREFIX, len) != 0)
		return (NULL);
	return (spec + len);
}

/* What spec names, without opening it. */
enum target_type
target_classify(const char *spec, uint64_t *file_bytes)
{
	struct stat	st;

	*file_bytes = 0;
	if (target_sim_name(spec) != NULL)
		return (TARGET_SIM);
	if (stat(spec, &st) != 0)
		return (TARGET_FILE);
	if (S_ISBLK(st.st_mode))
		return (TARGET_BLOCKDEV);
	if (S_ISREG(st.st_mode))
		*file_bytes = (uint64_t)st.st_size;
	return (TARGET_FILE);
}

/*
 * The first line of sysfs queue/attr of the disk dev is on (a partition's
 * parent holds the queue) into buf; returns 0, or -1 if there is none.
 */
static int
target_dev_queue(dev_t dev, const char *attr, char *buf, size_t len)
{
	char	 path[128];
	FILE	*f;
	int	 i, ret = -1;

	for (i = 0; i < 2 && ret != 0; i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%squeue/%s",
		    major(dev), minor(dev), i == 0 ? "" : "../", attr);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fgets(buf, (int)len, f) != NULL) {
			buf[strcspn(buf, "\n")] = '\0';
			ret = 0;
		}
		fclose(f);
	}
	return (ret);
}

/* Logical block size of the device holding dev, from sysfs; 4096 if unknown. */
static uint32_t
target_dev_lbs(dev_t dev)
{
	char		buf[32];
	unsigned long	v = 0;

	if (target_dev_queue(dev, "logical_block_size", buf, sizeof(buf)) == 0)
		v = strtoul(buf, NULL, 10);
	if (v < 512 || v > 65536 || (v & (v - 1)) != 0)
		v = 4096;
	return ((uint32_t)v);
}

/* What the disk of dev says of its write cache and FUA (sysfs queue/). */
static void
target_dev_claims(struct target *t, dev_t dev)
{
	char	buf[sizeof(t->write_cache)];

	t->fua = -1;
	t->write_cache[0] = '\0';
	if (target_dev_queue(dev, "write_cache", buf, sizeof(buf)) == 0)
		snprintf(t->write_cache, sizeof(t->write_cache), "%s", buf);
	if (target_dev_queue(dev, "fua", buf, sizeof(buf)) == 0)
		t->fua = atoi(buf) != 0;
}

/* Record the filesystem of a file target; warn when it is memory. */
static void
target_probe_fs(struct target *t)
{
	struct statfs	sfs;
	size_t		i;

	if (fstatfs(t->fd, &sfs) != 0)
		return;
	snprintf(t->fstype, sizeof(t->fstype), "0x%lx", (long)sfs.f_type);
	for (i = 0; i < sizeof(target_fs_names) / sizeof(target_fs_names[0]);
	    i++)
		if ((long)sfs.f_type == target_fs_names[i].magic)
			snprintf(t->fstype, sizeof(t->fstype), "%s",
			    target_fs_names[i].name);
	if ((long)sfs.f_type == TARGET_TMPFS_MAGIC ||
	    (long)sfs.f_type == (long)TARGET_RAMFS_MAGIC) {
		t->on_memory_fs = 1;
		log_warnx("%s is on %s: the figures will describe memory, "
		    "not a disk", t->path, t->fstype);
	}
}

/*
 * Read the first len bytes of fd without readahead: a read at offset 0
 * would mark the pages after it, and a later sequential read through them
 * (a scan's warm-up) would grow the marks into readahead windows of up to
 * read_ahead_kb, which fill the page cache past the working set.
 */
static ssize_t
target_pread_head(int fd, void *buf, size_t len)
{
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return (pread(fd, buf, len, 0));
}

/* Does path start with tierprobe's header block? */
int
target_is_ours(const char *path)
{
	char	buf[sizeof(TARGET_MAGIC)];
	int	fd, ours = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return (0);
	if (target_pread_head(fd, buf, sizeof(buf) - 1) == sizeof(buf) - 1 &&
	    memcmp(buf, TARGET_MAGIC, sizeof(buf) - 1) == 0)
		ours = 1;
	close(fd);
	return (ours);
}

/*
 * Open path with flags to write it, never through a symlink in its last
 * component (O_NOFOLLOW), and check that what opened is the file that was
 * looked at (device dev, inode ino; ino 0: not known yet).  Returns the
 * fd, or -errno: -ELOOP for a symlink, -ESTALE for another file there.
 */
static int
target_open_nofollow(const char *path, int flags, uint64_t dev, uint64_t ino)
{
	struct stat	st;
	int		fd, err;

	if ((fd = open(path, flags | O_NOFOLLOW, 0644)) < 0)
		return (-errno);
	if (fstat(fd, &st) != 0) {
		err = -errno;
		close(fd);
		return (err);
	}
	if (ino != 0 && ((uint64_t)st.st_dev != dev ||
	    (uint64_t)st.st_ino != ino)) {
		close(fd);
		return (-ESTALE);
	}
	return (fd);
}

/* What the symlink at path says it points to, in buf of len bytes. */
static const char *
target_link_dest(const char *path, char *buf, size_t len)
{
	ssize_t	n;

	if ((n = readlink(path, buf, len - 1)) < 0)
		snprintf(buf, len, "(unreadable: %s)", strerror(errno));
	else
		buf[n] = '\0';
	return (buf);
}

/* Remember the file or device fd is, to check every later write open. */
static void
target_note_identity(struct target *t)
{
	struct stat	st;

	if (t->fd >= 0 && fstat(t->fd, &st) == 0) {
		t->dev = (uint64_t)st.st_dev;
		t->ino = (uint64_t)st.st_ino;
	}
}

/*
 * Say, once and whatever --quiet, what a forced write will do to t, which
 * tierprobe did not create: the real file (links in its directories
 * resolved), its size, and the bytes written.  over: random blocks of
 * [0, over) get test data; grow: the file grows to it (0: it does not).
 */
static void
target_force_notice(const struct target *t, uint64_t size, uint64_t over,
    uint64_t grow)
{
	char	*real, a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char	 what[256];

	if (over > 0 && grow > size)
		snprintf(what, sizeof(what), "random blocks of its first %s "
		    "will be overwritten with test data, and it grows to %s",
		    units_format_size(over, b, sizeof(b)),
		    units_format_size(grow, c, sizeof(c)));
	else if (over > 0)
		snprintf(what, sizeof(what), "random blocks of its first %s "
		    "will be overwritten with test data",
		    units_format_size(over, b, sizeof(b)));
	else
		snprintf(what, sizeof(what), "it grows to %s with test data "
		    "after its last byte (its bytes are kept)",
		    units_format_size(grow, c, sizeof(c)));
	if ((real = realpath(t->path, NULL)) == NULL)
		real = xstrdup(t->path);
	log_warnx("--force: writing to %s, %s of %s that tierprobe did not "
	    "create: %s", real, t->type == TARGET_BLOCKDEV ? "a block device" :
	    "a file", units_format_size(size, a, sizeof(a)), what);
	free(real);
}

/* Fill buf with the next pseudo-random bytes of the file's stream. */
static void
target_random_block(struct rng *r, void *buf, size_t len)
{
	uint64_t	*p = buf;
	size_t		 i;

	for (i = 0; i < len / sizeof(*p); i++)
		p[i] = rng_next(r);
}

/* A fill shared by its writers. */
struct target_fill {
	const char			*path;
	uint64_t			 dev, ino;	/* the file */
	const struct target_params	*p;
	int				 fd;
	uint64_t			 from, to;
	uint64_t			 next;		/* the next chunk */
	uint64_t			 done;		/* bytes written */
	int				 err;		/* the first error */
	pthread_mutex_t			 lock;
};

/* Write len bytes of buf at off of f's file.  Returns 0 or -errno. */
static int
target_fill_write(struct target_fill *f, const void *buf, size_t len,
    uint64_t off)
{
	ssize_t	n;
	int	fd, saved;

	do
		n = pwrite(f->fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR && !interrupt_requested());
	if (n < 0 && errno == EINVAL && (len % 4096) != 0) {
		/* A tail O_DIRECT refuses: write it buffered. */
		if ((fd = target_open_nofollow(f->path, O_WRONLY | O_CLOEXEC,
		    f->dev, f->ino)) < 0)
			return (fd);
		n = pwrite(fd, buf, len, (off_t)off);
		saved = errno;
		close(fd);
		errno = saved;
	}
	if (n < 0)
		return (-errno);
	return ((size_t)n == len ? 0 : -ENOSPC);
}

/*
 * A writer of a fill: takes the next chunk, fills it with pseudo-random
 * bytes of its own (seeded by its offset; the header block first at 0)
 * and writes it, while another writer's chunk is on its way to the disk.
 */
static void *
target_fill_writer(void *arg)
{
	struct target_fill	*f = arg;
	struct rng		 r;
	void			*buf = NULL;
	uint64_t		 off;
	size_t			 len;
	int			 err = 0;

	if (posix_memalign(&buf, 4096, TARGET_FILL_CHUNK) != 0) {
		buf = NULL;
		err = -ENOMEM;
	}
	for (;;) {
		pthread_mutex_lock(&f->lock);
		if (err == 0 && interrupt_requested())
			err = -EINTR;
		if (err != 0 && f->err == 0)
			f->err = err;
		off = f->next;
		if (f->err != 0 || off >= f->to) {
			pthread_mutex_unlock(&f->lock);
			break;
		}
		len = f->to - off < TARGET_FILL_CHUNK ? f->to - off :
		    TARGET_FILL_CHUNK;
		f->next += len;
		if (f->p->fill_progress != NULL)
			f->p->fill_progress(f->path, f->done, f->to - f->from);
		pthread_mutex_unlock(&f->lock);

		rng_seed(&r, off ^ 0x7469657270726f62ULL);
		target_random_block(&r, buf, TARGET_FILL_CHUNK);
		if (off == 0) {
			memset(buf, 0, TARGET_HEADER);
			snprintf(buf, TARGET_HEADER, "%s%s", TARGET_MAGIC,
			    "tierprobe test file: safe to delete\n");
		}
		if ((err = target_fill_write(f, buf, len, off)) == 0) {
			pthread_mutex_lock(&f->lock);
			f->done += len;
			pthread_mutex_unlock(&f->lock);
		}
	}
	free(buf);
	return (NULL);
}

/*
 * Write real data over [from, to) of path: pseudo-random, never repeating,
 * header block first when from is 0; TARGET_FILL_WRITERS chunks at once,
 * O_DIRECT where it can.  Returns 0 or -errno.
 */
static int
target_fill(const struct target *t, uint64_t from, uint64_t to,
    const struct target_params *p)
{
	struct target_fill	f;
	pthread_t		w[TARGET_FILL_WRITERS];
	const char		*path = t->path;
	int			i, n = 0, err;

	memset(&f, 0, sizeof f);
	f.path = path;
	f.dev = t->dev;
	f.ino = t->ino;
	f.p = p;
	f.from = f.next = from;
	f.to = to;
	/* O_DIRECT keeps the page cache clean; unaligned starts go buffered. */
	f.fd = -EINVAL;
	if ((from % 4096) == 0)
		f.fd = target_open_nofollow(path, O_WRONLY | O_DIRECT |
		    O_CLOEXEC, f.dev, f.ino);
	if (f.fd == -EINVAL)
		f.fd = target_open_nofollow(path, O_WRONLY | O_CLOEXEC, f.dev,
		    f.ino);
	if (f.fd < 0)
		return (f.fd);
	/* Room taken at once: no write extends the file; a full one fails. */
	if (fallocate(f.fd, 0, (off_t)from, (off_t)(to - from)) != 0 &&
	    errno != EOPNOTSUPP && errno != ENOSYS) {
		err = -errno;
		close(f.fd);
		return (err);
	}
	pthread_mutex_init(&f.lock, NULL);
	for (i = 0; i < TARGET_FILL_WRITERS; i++)
		if (pthread_create(&w[n], NULL, target_fill_writer, &f) == 0)
			n++;
	if (n == 0)
		target_fill_writer(&f);
	for (i = 0; i < n; i++)
		pthread_join(w[i], NULL);
	pthread_mutex_destroy(&f.lock);
	err = f.err;
	if (err == 0 && p->fill_progress != NULL)
		p->fill_progress(path, to - from, to - from);
	if (err == 0 && fdatasync(f.fd) != 0)
		err = -errno;
	if (err == 0)
		posix_fadvise(f.fd, (off_t)from, (off_t)(to - from),
		    POSIX_FADV_DONTNEED);
	close(f.fd);
	return (err);
}

/*
 * First byte in [0, end) not backed by written data (a hole or an unwritten
 * extent), or end if all is written.  Returns -1 if FIEMAP is unsupported.
 */
static int64_t
target_first_unwritten(int fd, uint64_t end)
{
	struct fiemap		*fm;
	struct fiemap_extent	*x;
	uint64_t		 pos = 0;
	const unsigned		 nx = 128;
	unsigned		 i;
	int			 last = 0;

	fm = xcalloc(1, sizeof(*fm) + nx * sizeof(*x));
	while (pos < end && !last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = pos;
		fm->fm_length = end - pos;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = nx;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0) {
			free(fm);
			return (-1);
		}
		if (fm->fm_mapped_extents == 0)
			break;
		for (i = 0; i < fm->fm_mapped_extents && pos < end; i++) {
			x = &fm->fm_extents[i];
			if (x->fe_logical > pos)
				goto out;	/* a hole before this extent */
			if (x->fe_flags & FIEMAP_EXTENT_UNWRITTEN) {
				pos = x->fe_logical > pos ? x->fe_logical : pos;
				goto out;
			}
			pos = x->fe_logical + x->fe_length;
			last = (x->fe_flags & FIEMAP_EXTENT_LAST) != 0;
		}
	}
out:
	free(fm);
	return ((int64_t)(pos < end ? pos : end));
}

/*
 * A simulated volume's name, what it says of its write cache, FUA and
 * model, and the instance it was put on (VOLUME@INSTANCE, or its
 * profile's own).
 */
static void
target_sim_claims(struct target *t)
{
	const struct profile	*p = sim_profile(t->sim);

	snprintf(t->write_cache, sizeof(t->write_cache), "%s",
	    p->write_cache != NULL ? p->write_cache : "");
	t->fua = p->fua;
	snprintf(t->model, sizeof(t->model), "%s",
	    p->model != NULL ? p->model : "");
	snprintf(t->instance, sizeof(t->instance), "%s",
	    p->instance_name != NULL ? p->instance_name : "");
	snprintf(t->profile, sizeof(t->profile), "%s", p->name);
}

static int
target_open_sim(struct target *t, const char *spec,
    const struct target_params *p, char **cause)
{
	t->type = TARGET_SIM;
	t->path = xstrdup(spec);
	if ((t->sim = sim_host_open(p->host, spec, p->seed, cause)) == NULL)
		return (-1);
	target_sim_claims(t);
	t->size = sim_size(t->sim);
	t->lbs = sim_block_size(t->sim);
	t->direct = 1;
	t->dsync = p->dsync;
	t->writable = 1;
	return (0);
}

static void	target_open_error(char **, const char *, int, int, int);

/* Signatures of what a device may hold: magic bytes at an offset. */
static const struct {
	size_t		 off;
	const char	*magic;
	size_t		 len;
	const char	*name;
} target_sigs[] = {
	{ 1080, "\x53\xef", 2, "an ext2/3/4 filesystem" },
	{ 0, "XFSB", 4, "an XFS filesystem" },
	{ 65600, "_BHRfS_M", 8, "a btrfs filesystem" },
	{ 4086, "SWAPSPACE2", 10, "swap space" },
	{ 4086, "SWAP-SPACE", 10, "swap space" },
	{ 512, "EFI PART", 8, "a GPT partition table" },
	{ 4096, "EFI PART", 8, "a GPT partition table" },
	{ 0, "LUKS\xba\xbe", 6, "a LUKS volume" },
	{ 536, "LVM2 001", 8, "an LVM physical volume" },
	{ 0, "\xfc\x4e\x2b\xa9", 4, "an md RAID member" },
	{ 4096, "\xfc\x4e\x2b\xa9", 4, "an md RAID member" },
	{ 1024, "\x10\x20\xf5\xf2", 4, "an F2FS filesystem" },
	{ 3, "NTFS    ", 8, "an NTFS filesystem" },
	{ 54, "FAT1", 4, "a FAT filesystem" },
	{ 82, "FAT32   ", 8, "a FAT filesystem" },
	{ 0, "hsqs", 4, "a squashfs filesystem" },
	{ 32769, "CD001", 5, "an ISO 9660 filesystem" },
};

/* What a device's first bytes say it holds; see target.h. */
const char *
target_has_signature(const unsigned char *buf, size_t len)
{
	size_t	i, n = sizeof(target_sigs) / sizeof(target_sigs[0]);

	for (i = 0; i < n; i++) {
		if (target_sigs[i].off + target_sigs[i].len > len)
			continue;
		if (memcmp(buf + target_sigs[i].off, target_sigs[i].magic,
		    target_sigs[i].len) == 0)
			return (target_sigs[i].name);
	}
	/* An MBR: the boot signature, and a partition entry in use. */
	if (len >= 512 && buf[510] == 0x55 && buf[511] == 0xaa) {
		for (i = 0; i < 4; i++)
			if (buf[446 + 16 * i + 4] != 0)
				return ("a DOS partition table");
		return ("a boot sector");
	}
	return (NULL);
}

/* The whole disk of a partition (dev itself otherwise), from sysfs. */
static dev_t
target_dev_disk(dev_t dev)
{
	char		path[128];
	FILE		*f;
	unsigned	ma, mi;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition",
	    major(dev), minor(dev));
	if (access(path, F_OK) != 0)
		return (dev);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev",
	    major(dev), minor(dev));
	if ((f = fopen(path, "r")) == NULL)
		return (dev);
	if (fscanf(f, "%u:%u", &ma, &mi) == 2)
		dev = makedev(ma, mi);
	fclose(f);
	return (dev);
}

/*
 * Is dev, or a partition of it, mounted?  Copies the mount point into where
 * (len bytes) and returns 1, else 0.
 */
static int
target_dev_mounted(dev_t dev, char *where, size_t len)
{
	FILE		*f;
	char		 line[4096], mnt[2048];
	unsigned	 ma, mi;
	dev_t		 d;
	int		 found = 0;

	if ((f = fopen("/proc/self/mountinfo", "r")) == NULL)
		return (0);
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		/* id parent major:minor root mount-point ... */
		if (sscanf(line, "%*u %*u %u:%u %*s %2047s", &ma, &mi,
		    mnt) != 3)
			continue;
		d = makedev(ma, mi);
		if (d == dev || (major(d) == major(dev) &&
		    target_dev_disk(d) == dev)) {
			snprintf(where, len, "%s", mnt);
			found = 1;
		}
	}
	fclose(f);
	return (found);
}

/*
 * First entry of /sys/dev/block/M:m/sub that names a holder (sub
 * "holders") or a partition (sub "", entries with a "partition" file).
 * Copies its name into name and returns 1, else 0.
 */
static int
target_dev_child(dev_t dev, const char *sub, char *name, size_t len)
{
	char		 path[512];
	DIR		*d;
	struct dirent	*de;
	int		 found = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(dev),
	    minor(dev), sub);
	if ((d = opendir(path)) == NULL)
		return (0);
	while (!found && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (*sub == '\0') {
			snprintf(path, sizeof(path),
			    "/sys/dev/block/%u:%u/%s/partition", major(dev),
			    minor(dev), de->d_name);
			if (access(path, F_OK) != 0)
				continue;
		}
		snprintf(name, len, "%s", de->d_name);
		found = 1;
	}
	closedir(d);
	return (found);
}

/*
 * May tierprobe write to block device path (opened or not)?  Never while
 * it is mounted; not while it has holders or partitions or holds a known
 * signature unless force_device.  Returns 0 or -1 with *cause.
 */
static int
target_check_blockdev(const char *path, const struct stat *st,
    int force_device, char **cause)
{
	unsigned char	*buf;
	const char	*what = NULL;
	char		 name[2048];
	ssize_t		 n;
	int		 fd;

	if (target_dev_mounted(st->st_rdev, name, sizeof(name))) {
		xasprintf(cause, "refusing to write to %s: it is mounted on "
		    "%s; unmount it first", path, name);
		return (-1);
	}
	if (force_device)
		return (0);
	if (target_dev_child(st->st_rdev, "holders", name, sizeof(name))) {
		xasprintf(cause, "refusing to write to %s: %s uses it (see "
		    "/sys/class/block/%s/holders); pass --force-device to "
		    "allow it", path, name, name);
		return (-1);
	}
	if (target_dev_child(st->st_rdev, "", name, sizeof(name))) {
		xasprintf(cause, "refusing to write to %s: it has partitions "
		    "(%s); pass --force-device to destroy them", path, name);
		return (-1);
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	buf = xcalloc(1, TARGET_SIG_BYTES);
	n = target_pread_head(fd, buf, TARGET_SIG_BYTES);
	close(fd);
	if (n < 0) {
		xasprintf(cause, "%s: reading its first blocks: %s", path,
		    strerror(errno));
		free(buf);
		return (-1);
	}
	what = target_has_signature(buf, (size_t)n);
	free(buf);
	if (what != NULL) {
		xasprintf(cause, "refusing to write to %s: it holds %s; pass "
		    "--force-device to destroy it", path, what);
		return (-1);
	}
	return (0);
}

static int
target_open_blockdev(struct target *t, const struct stat *st,
    const struct target_params *p, char **cause)
{
	uint64_t	size;
	int		flags = O_RDONLY | O_CLOEXEC, lbs;

	t->type = TARGET_BLOCKDEV;
	if (p->write) {
		if (!p->force) {
			xasprintf(cause, "refusing to write to block device "
			    "%s: its data would be destroyed; pass --force "
			    "to allow it", t->path);
			return (-1);
		}
		if (target_check_blockdev(t->path, st, p->force_device,
		    cause) != 0)
			return (-1);
		/* O_EXCL: fails with EBUSY while anyone else claims it. */
		flags = O_RDWR | O_EXCL | O_CLOEXEC;
	}
	if (p->direct)
		flags |= O_DIRECT;
	if (p->dsync && p->write)
		flags |= O_DSYNC;
	if (p->write)
		t->fd = target_open_nofollow(t->path, flags,
		    (uint64_t)st->st_dev, (uint64_t)st->st_ino);
	else if ((t->fd = open(t->path, flags)) < 0)
		t->fd = -errno;
	if (t->fd < 0) {
		errno = -t->fd;
		t->fd = -1;
		if (errno == ELOOP || errno == ESTALE)
			target_open_error(cause, t->path, errno, 1, 0);
		else if (errno == EBUSY)
			xasprintf(cause, "refusing to write to %s: it is in "
			    "use (mounted, swap, device-mapper, RAID or "
			    "another writer holds it); stop that first",
			    t->path);
		else if (errno == EINVAL && p->direct)
			xasprintf(cause, "%s: the device refuses O_DIRECT "
			    "(EINVAL); use --buffered", t->path);
		else
			xasprintf(cause, "%s: %s", t->path, strerror(errno));
		return (-1);
	}
	if (ioctl(t->fd, BLKGETSIZE64, &size) != 0 ||
	    ioctl(t->fd, BLKSSZGET, &lbs) != 0) {
		xasprintf(cause, "%s: cannot read its size: %s", t->path,
		    strerror(errno));
		return (-1);
	}
	t->size = size;
	t->lbs = (uint32_t)lbs;
	t->direct = p->direct;
	t->dsync = p->dsync && p->write;
	t->writable = p->write;
	target_note_identity(t);
	target_dev_claims(t, st->st_rdev);
	if (p->need_bytes > size) {
		xasprintf(cause, "%s holds %" PRIu64 " bytes but the run "
		    "needs %" PRIu64 ": lower --max-ws or --ws", t->path, size,
		    p->need_bytes);
		return (-1);
	}
	if (p->write)
		target_force_notice(t, size, p->need_bytes == 0 ? size :
		    p->need_bytes, 0);
	return (0);
}

/*
 * Check path's filesystem takes writes and has room for grow more bytes.
 * Returns 0, -ENOSPC when there is no room, or -1; with *cause.
 */
static int
target_check_space(const char *path, uint64_t grow, char **cause)
{
	struct statvfs	 sv;
	char		*dir, *slash, a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	uint64_t	 avail;
	int		 ret = 0;

	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (statvfs(dir, &sv) != 0) {
		xasprintf(cause, "%s: %s", dir, strerror(errno));
		ret = -1;
	} else if (sv.f_flag & ST_RDONLY) {
		target_open_error(cause, path, EROFS, 1, 0);
		ret = -1;
	} else {
		avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		if (avail < grow + TARGET_SPACE_MARGIN) {
			xasprintf(cause, "no room for %s: it needs %s more "
			    "(plus 64 MiB to spare) and %s is free; use a "
			    "smaller size (--size, "
			    "--max-ws, --ws) or another directory", path,
			    units_format_size(grow, a, sizeof(a)),
			    units_format_size(avail, b, sizeof(b)));
			ret = -ENOSPC;
		}
	}
	free(dir);
	return (ret);
}

/* A one-line message for errno err opening path, with what to do. */
static void
target_open_error(char **cause, const char *path, int err, int writing,
    int direct)
{
	if (err == EINVAL && direct)
		xasprintf(cause, "%s: the filesystem refuses O_DIRECT "
		    "(EINVAL); use --buffered", path);
	else if (err == ELOOP && writing)
		xasprintf(cause, "refusing to write to %s: it became a "
		    "symbolic link while tierprobe opened it; tierprobe never "
		    "writes through a link", path);
	else if (err == ESTALE && writing)
		xasprintf(cause, "refusing to write to %s: another file was "
		    "put there while tierprobe opened it", path);
	else if (err == EROFS)
		xasprintf(cause, "%s: read-only filesystem: tierprobe needs to "
		    "write it; use a writable directory (reading an existing "
		    "file needs no write access)", path);
	else if (err == EACCES || err == EPERM)
		xasprintf(cause, "%s: permission denied: run tierprobe as a "
		    "user who may %s it", path, writing ? "write" : "read");
	else if (err == ENOSPC || err == EDQUOT)
		xasprintf(cause, "%s: %s: free some space or use another "
		    "directory", path, strerror(err));
	else
		xasprintf(cause, "%s: %s", path, strerror(err));
}

static int
target_open_fd(struct target *t, const struct target_params *p,
    char **cause)
{
	int	flags = (t->writable ? O_RDWR : O_RDONLY) | O_CLOEXEC;

	if (p->direct)
		flags |= O_DIRECT;
	if (p->dsync && t->writable)
		flags |= O_DSYNC;
	if (t->writable)
		t->fd = target_open_nofollow(t->path, flags, t->dev, t->ino);
	else if ((t->fd = open(t->path, flags)) < 0)
		t->fd = -errno;
	if (t->fd >= 0) {
		t->direct = p->direct;
		t->dsync = p->dsync && t->writable;
		target_note_identity(t);
		return (0);
	}
	target_open_error(cause, t->path, -t->fd, t->writable, p->direct);
	t->fd = -1;
	return (-1);
}

/*
 * Make sure [0, bytes) of a file target holds real data: extend and fill a
 * file this run created (or any, with force), and check with FIEMAP that no
 * extent in range is unwritten.  Returns 0, -ENOSPC when the filesystem
 * has no room for it, or -1; with *cause.
 */
static int
target_prepare(struct target *t, uint64_t bytes,
    const struct target_params *p, char **cause)
{
	uint64_t	 old = t->size, from;
	int64_t		 gap;
	int		 err, ours, ret;
	char		 a[UNITS_BUFSZ], b[PATH_MAX];

	if (t->type != TARGET_FILE)
		return (0);
	ours = t->created || target_is_ours(t->path);
	if (bytes > old && t->via_link) {
		xasprintf(cause, "%s is a symbolic link to %s: the run would "
		    "grow it to %s, and tierprobe never writes through a "
		    "link; name the file itself", t->path, target_link_dest(
		    t->path, b, sizeof(b)), units_format_size(bytes, a,
		    sizeof(a)));
		return (-1);
	}
	if (bytes > old) {
		if (!ours && !p->force) {
			xasprintf(cause, "%s is smaller than the %s the run "
			    "needs and tierprobe did not create it: %s",
			    t->path, units_format_size(bytes, a, sizeof(a)),
			    TARGET_OWN_FILE);
			return (-1);
		}
		if (!t->created && (ret = target_check_space(t->path,
		    bytes - old, cause)) != 0)
			return (ret);
		if ((err = target_fill(t, old, bytes, p)) != 0)
			goto fail;
		t->size = bytes;
	}
	/* Holes or unwritten extents read as zeros without I/O. */
	gap = target_first_unwritten(t->fd, bytes);
	if (gap >= 0 && (uint64_t)gap < bytes) {
		if (!ours && !p->force) {
			xasprintf(cause, "%s has unallocated or unwritten "
			    "space from byte %" PRId64 ": reads there return "
			    "zeros without touching the disk; %s", t->path,
			    gap, TARGET_OWN_FILE);
			return (-1);
		}
		if (t->via_link) {
			xasprintf(cause, "%s is a symbolic link to %s: its "
			    "unwritten space from byte %" PRId64 " would "
			    "have to be filled, and tierprobe never writes "
			    "through a link; name the file itself", t->path,
			    target_link_dest(t->path, b, sizeof(b)), gap);
			return (-1);
		}
		from = (uint64_t)gap & ~(uint64_t)(TARGET_FILL_CHUNK - 1);
		if (!ours)
			log_warnx("--force: writing to %s, a file tierprobe "
			    "did not create: its bytes from %" PRIu64 " to %"
			    PRIu64 " (unwritten space from byte %" PRId64
			    ") will be overwritten with test data", t->path,
			    from, bytes, gap);
		if ((err = target_fill(t, from, bytes, p)) != 0)
			goto fail;
		gap = target_first_unwritten(t->fd, bytes);
		if (gap >= 0 && (uint64_t)gap < bytes) {
			xasprintf(cause, "%s: still unwritten space at byte %"
			    PRId64 " after filling it", t->path, gap);
			return (-1);
		}
	}
	return (0);

fail:
	if (err == -EINTR)
		xasprintf(cause, "interrupted while filling %s", t->path);
	else if (err == -ENOSPC)
		xasprintf(cause, "no room to fill %s: the filesystem is full; "
		    "free some space or use a smaller size", t->path);
	else
		xasprintf(cause, "filling %s: %s", t->path, strerror(-err));
	if (!t->created && ftruncate(t->fd, (off_t)old) != 0)
		log_warn("%s: restoring its size", t->path);
	return (err == -ENOSPC ? err : -1);
}

static int
target_open_file(struct target *t, const struct stat *st,
    const struct target_params *p, char **cause)
{
	char		a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	uint64_t	over, grow;
	int		ours = target_is_ours(t->path);

	t->type = TARGET_FILE;
	if (p->write && !ours && !p->force) {
		xasprintf(cause, "refusing to write to %s: tierprobe did not "
		    "create it; %s", t->path, TARGET_OWN_FILE);
		return (-1);
	}
	if ((uint64_t)st->st_size < p->need_bytes && !ours && !p->force) {
		xasprintf(cause, "%s holds %s, less than the %s needed, and "
		    "tierprobe did not create it: measure less (--max-ws, "
		    "--ws) or %s", t->path, units_format_size(
		    (uint64_t)st->st_size, a, sizeof(a)), units_format_size(
		    p->need_bytes, b, sizeof(b)), TARGET_OWN_FILE);
		return (-1);
	}
	t->writable = p->write;
	t->keep_bytes = ours ? TARGET_HEADER : 0;
	t->size = (uint64_t)st->st_size;
	t->dev = (uint64_t)st->st_dev;
	t->ino = (uint64_t)st->st_ino;
	t->lbs = target_dev_lbs(st->st_dev);
	target_dev_claims(t, st->st_dev);
	if (target_open_fd(t, p, cause) != 0)
		return (-1);
	over = p->write && !p->fill_only ? (p->need_bytes < t->size &&
	    p->need_bytes > 0 ? p->need_bytes : t->size) : 0;
	grow = p->need_bytes > t->size ? p->need_bytes : 0;
	if (!ours && p->force && (over > 0 || grow > 0) && !t->via_link)
		target_force_notice(t, t->size, over, grow);
	target_probe_fs(t);
	return (target_prepare(t, p->need_bytes, p, cause));
}

/*
 * Whether directory dir is on the filesystem of /dev (devtmpfs, RAM): a
 * missing device name there is a typo, never a place for a test file.
 * A filesystem mounted below it (/dev/shm) is a place like any other.
 */
static int
target_under_dev(const char *dir)
{
	struct stat	d, dev;

	if (stat(dir, &d) != 0 || stat("/dev", &dev) != 0)
		return (0);
	return (d.st_dev == dev.st_dev);
}

static int
target_create_file(struct target *t, const struct target_params *p,
    char **cause)
{
	struct stat	 st;
	char		*dir, *slash;
	int		 fd, ret;

	dir = xstrdup(t->path);
	if ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
			xasprintf(cause, "%s: directory %s does not exist",
			    t->path, dir);
			free(dir);
			return (-1);
		}
	}
	if (target_under_dev(slash == NULL ? "." : slash == dir ? "/" :
	    dir)) {
		xasprintf(cause, "%s does not exist, and tierprobe creates no "
		    "test file under /dev: name an existing block device "
		    "(lsblk lists them) or a file on a filesystem", t->path);
		free(dir);
		return (-1);
	}
	free(dir);
	if ((ret = target_check_space(t->path, p->need_bytes, cause)) != 0)
		return (ret);
	/* O_EXCL: never through a symlink, dangling or not. */
	if ((fd = target_open_nofollow(t->path, O_WRONLY | O_CREAT | O_EXCL |
	    O_CLOEXEC, 0, 0)) < 0) {
		target_open_error(cause, t->path, -fd, 1, 0);
		return (-1);
	}
	if (fstat(fd, &st) != 0) {
		xasprintf(cause, "%s: %s", t->path, strerror(errno));
		close(fd);
		return (-1);
	}
	close(fd);
	t->created = 1;
	t->keep_bytes = TARGET_HEADER;
	t->type = TARGET_FILE;
	t->dev = (uint64_t)st.st_dev;
	t->ino = (uint64_t)st.st_ino;
	interrupt_add_cleanup(t->path);
	t->lbs = target_dev_lbs(st.st_dev);
	target_dev_claims(t, st.st_dev);
	t->size = 0;
	t->writable = p->write;
	if (target_open_fd(t, p, cause) != 0)
		return (-1);
	target_probe_fs(t);
	return (target_prepare(t, p->need_bytes, p, cause));
}

/* Open a target; see target.h. */
int
target_open(struct target *t, const char *spec,
    const struct target_params *p, char **cause)
{
	struct stat	 st, lst;
	const char	*name;
	char		 dest[PATH_MAX];
	int		 ret, err;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if ((name = target_sim_name(spec)) != NULL)
		ret = target_open_sim(t, name, p, cause);
	else if (lstat(spec, &st) != 0) {
		err = errno;
		t->path = xstrdup(spec);
		if (err == ENOENT)
			ret = target_create_file(t, p, cause);
		else {
			target_open_error(cause, spec, err, p->write, 0);
			ret = -1;
		}
	} else if (S_ISLNK(st.st_mode) && (p->write || stat(spec, &st) != 0)) {
		/* Read through a link, never write. */
		err = errno;
		t->path = xstrdup(spec);
		if (p->write)
			xasprintf(cause, "refusing to write to %s: it is a "
			    "symbolic link to %s, and tierprobe never writes "
			    "through a link; name the file itself", spec,
			    target_link_dest(spec, dest, sizeof(dest)));
		else
			xasprintf(cause, "%s is a symbolic link to %s, which "
			    "%s: tierprobe creates a test file only at a path "
			    "that is not a link", spec, target_link_dest(spec,
			    dest, sizeof(dest)), err == ENOENT ? "does not exist"
			    : strerror(err));
		ret = -1;
	} else {
		t->path = xstrdup(spec);
		t->via_link = lstat(spec, &lst) == 0 && S_ISLNK(lst.st_mode);
		if (S_ISBLK(st.st_mode))
			ret = target_open_blockdev(t, &st, p, cause);
		else if (S_ISREG(st.st_mode))
			ret = target_open_file(t, &st, p, cause);
		else {
			xasprintf(cause, "%s is %s: give a file (created if "
			    "missing) or a block device", spec,
			    S_ISDIR(st.st_mode) ? "a directory" :
			    "not a regular file or a block device");
			ret = -1;
		}
	}
	if (ret != 0)
		target_close(t, 1);
	return (ret);
}

/* Open a file for one more writer beside whole; see target.h. */
int
target_open_beside(struct target *t, const struct target *whole,
    const char *path, uint64_t bytes, char **cause)
{
	struct target_params	p;
	struct stat		st;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (whole->type != TARGET_FILE) {
		xasprintf(cause, "%s: writers have files of their own only "
		    "beside a file", whole->path);
		return (-1);
	}
	if (lstat(path, &st) == 0) {
		xasprintf(cause, "refusing to use %s for a writer: it exists "
		    "and this run did not create it", path);
		return (-1);
	}
	memset(&p, 0, sizeof(p));
	p.direct = whole->direct;
	p.dsync = whole->dsync;
	p.write = 1;
	p.need_bytes = bytes;
	return (target_open(t, path, &p, cause));
}

/* Open t again with O_DIRECT and O_DSYNC as asked. */
int
target_reopen(struct target *t, int direct, int dsync)
{
	int	flags, fd;

	if (t->type == TARGET_SIM) {
		t->direct = direct;
		t->dsync = dsync;
		return (0);
	}
	if (t->direct == direct && t->dsync == dsync)
		return (0);
	flags = (t->writable ? O_RDWR : O_RDONLY) | O_CLOEXEC |
	    (direct ? O_DIRECT : 0) | (dsync && t->writable ? O_DSYNC : 0);
	if (t->type == TARGET_BLOCKDEV && t->writable) {
		/* O_EXCL: this run holds it; let go for the new open. */
		flags |= O_EXCL;
		close(t->fd);
		t->fd = -1;
	}
	if (t->writable)
		fd = target_open_nofollow(t->path, flags, t->dev, t->ino);
	else if ((fd = open(t->path, flags)) < 0)
		fd = -errno;
	if (fd < 0) {
		if (t->fd < 0 && fd != -ELOOP && fd != -ESTALE)
			t->fd = target_open_nofollow(t->path,
			    (flags & ~(O_DIRECT | O_DSYNC)) |
			    (t->direct ? O_DIRECT : 0) |
			    (t->dsync ? O_DSYNC : 0), t->dev, t->ino);
		if (t->fd < 0)
			t->fd = -1;
		return (fd);
	}
	if (t->fd >= 0)
		close(t->fd);
	t->fd = fd;
	t->direct = direct;
	t->dsync = dsync && t->writable;
	return (0);
}

/* Read-ahead of a buffered target off (random) or on again. */
int
target_advise_random(struct target *t, int random)
{
	if (t->type == TARGET_SIM || t->direct || t->fd < 0)
		return (0);
	return (-posix_fadvise(t->fd, 0, 0, random ? POSIX_FADV_RANDOM :
	    POSIX_FADV_NORMAL));
}

/* Close a target; remove the file if this run created it and remove set. */
void
target_close(struct target *t, int remove)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->type == TARGET_SIM)
		sim_free(t->sim);
	t->sim = NULL;
	if (remove && t->created && t->path != NULL) {
		if (unlink(t->path) != 0 && errno != ENOENT)
			log_warn("removing %s", t->path);
		interrupt_drop_cleanup(t->path);
	}
	free(t->path);
	t->path = NULL;
}

/* A host for the simulated targets of one run. */
struct sim_host *
target_host_new(void)
{
	return (sim_host_new());
}

/* Free a host, after its targets are closed. */
void
target_host_free(struct sim_host *h)
{
	sim_host_free(h);
}

/*
 * An identity for spec: its device (a block device's) and inode, or, for a
 * file that does not exist, its directory's and its name.
 */
static int
target_identity(const char *spec, dev_t *dev, ino_t *ino, const char **name)
{
	struct stat	 st;
	char		*dir, *slash;
	int		 rc;

	*name = NULL;
	if (stat(spec, &st) == 0) {
		*dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		*ino = S_ISBLK(st.st_mode) ? 0 : st.st_ino;
		return (0);
	}
	dir = xstrdup(spec);
	if ((slash = strrchr(dir, '/')) != NULL) {
		slash[slash == dir] = '\0';
		*name = spec + (slash - dir) + 1;
	} else {
		free(dir);
		dir = xstrdup(".");
		*name = spec;
	}
	rc = stat(dir, &st);
	free(dir);
	*dev = st.st_dev;
	*ino = st.st_ino;
	return (rc);
}

/* Whether specs a and b name the same file or device. */
int
target_same(const char *a, const char *b)
{
	const char	*na, *nb;
	dev_t		 da, db;
	ino_t		 ia, ib;

	if (target_sim_name(a) != NULL || target_sim_name(b) != NULL)
		return (0);
	if (target_identity(a, &da, &ia, &na) != 0 ||
	    target_identity(b, &db, &ib, &nb) != 0)
		return (strcmp(a, b) == 0);
	if (da != db || ia != ib || (na == NULL) != (nb == NULL))
		return (0);
	return (na == NULL || strcmp(na, nb) == 0);
}
