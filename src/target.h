/* SPDX-License-Identifier: ISC */
/*
 * Targets: a regular file (created and filled with real data when missing),
 * a block device (read-only unless forced) or a simulated volume "sim:NAME".
 * Safety checks live here: no write to anything tierprobe did not create.
 */
#ifndef TARGET_H
#define TARGET_H

#include <stddef.h>
#include <stdint.h>

struct sim;
struct sim_host;

enum target_type {
	TARGET_FILE,
	TARGET_BLOCKDEV,
	TARGET_SIM,
};

struct target {
	char		*path;		/* as given, "sim:" prefix removed */
	enum target_type type;
	int		 fd;		/* -1 for sim */
	int		 direct;	/* opened with O_DIRECT */
	int		 dsync;		/* opened with O_DSYNC */
	int		 writable;	/* opened for writing */
	int		 created;	/* this run created the file */
	int		 via_link;	/* named by a symlink: read only */
	uint64_t	 dev, ino;	/* what was opened (file, device) */
	uint64_t	 keep_bytes;	/* writes stay off [0, keep): header */
	uint64_t	 size;		/* usable bytes */
	uint32_t	 lbs;		/* logical block size: alignment */
	char		 fstype[32];	/* filesystem of a file target */
	int		 on_memory_fs;	/* tmpfs/ramfs: figures describe RAM */
	char		 write_cache[16]; /* what the device says (sysfs
					   queue/write_cache); "" unknown */
	int		 fua;		/* sysfs queue/fua: 1, 0; -1 unknown */
	char		 model[128];	/* what a simulated device says of its
					   model, as sysfs device/model does
					   (context.c reads a real one's) */
	char		 instance[64];	/* the simulated instance a simulated
					   volume is on, as asked; "" */
	struct sim	*sim;		/* TARGET_SIM */
	char		 profile[128];	/* TARGET_SIM: profile name */
};

struct target_params {
	int		direct;		/* O_DIRECT (default) or buffered */
	int		dsync;		/* O_DSYNC: every write is durable */
	int		write;		/* the run will write */
	int		force;		/* allow writes to a foreign file/device */
	int		force_device;	/* allow writes to a device in use */
	int		fill_only;	/* write only past its data (prep) */
	uint64_t	need_bytes;	/* size the run reads; files grow to it */
	uint64_t	seed;		/* simulator seed */
	/* Told how a fill goes (path, bytes done, of total); NULL: not. */
	void		(*fill_progress)(const char *, uint64_t, uint64_t);
	struct sim_host	*host;		/* shared by the simulated targets of
					   a run (target_host_new); NULL:
					   one of their own */
};

/* Name of a target type, as in the JSON report ("file", ...). */
const char	*target_type_name(enum target_type);

/*
 * What spec names, without opening it: TARGET_SIM for "sim:NAME", else
 * TARGET_BLOCKDEV for a block device, else TARGET_FILE (which may not
 * exist yet, or be something target_open refuses).  *file_bytes gets the
 * size of an existing regular file, else 0.
 */
enum target_type target_classify(const char *, uint64_t *);

/* Whether the file at path is a test file tierprobe created (its header). */
int	target_is_ours(const char *);

/*
 * Open spec.  A missing regular file is created and filled to need_bytes;
 * a short file that tierprobe created is extended.  Returns 0, -ENOSPC when
 * the filesystem has no room for what it needs, or -1; with an allocated
 * one-line message in *cause (caller frees) either way.  Nothing is left
 * behind on failure.
 */
int	target_open(struct target *, const char *, const struct target_params *,
	    char **);

/*
 * What the first bytes of a device say it holds ("an ext2/3/4 filesystem",
 * "a DOS partition table", ...), or NULL if no known signature is there.
 * Pure: buf holds len bytes from offset 0 (68 KiB covers every signature).
 */
const char	*target_has_signature(const unsigned char *, size_t);

/*
 * Open a file for one more writer beside the open file target whole: a
 * new file named path (it must not exist), created and filled to bytes,
 * opened as whole is, removed by target_close.  Returns 0, -ENOSPC when
 * the filesystem has no room for it (before or while filling it), or -1;
 * with *cause either way.
 */
int	target_open_beside(struct target *, const struct target *,
	    const char *, uint64_t, char **);

/*
 * Open t again with O_DIRECT and O_DSYNC as asked (same file).  Returns 0,
 * or -errno when the filesystem refuses them (t unchanged).
 */
int	target_reopen(struct target *, int, int);

/*
 * Read-ahead of a buffered target off while it is read at random (as fio's
 * fadvise_hint does), or on again.  Returns 0 (also for O_DIRECT and
 * simulated targets, which have none), or -errno.
 */
int	target_advise_random(struct target *, int);

/* Close; remove the file if this run created it and remove is set. */
void	target_close(struct target *, int);

/*
 * What the simulated targets of one run share: one clock, and the
 * instances their profiles name.  Free after closing them.
 */
struct sim_host	*target_host_new(void);
void		 target_host_free(struct sim_host *);

/*
 * Whether specs a and b name the same file or device (by device and inode,
 * or the same path where a file does not exist yet).  Simulated volumes are
 * never the same: each sim: target is a volume of its own.
 */
int	target_same(const char *, const char *);

#endif
