/* SPDX-License-Identifier: ISC */
/*
 * Description: test helper for tests/fuse-hierarchy.sh: a FUSE server with
 * two caches below the page cache, as a cloud volume has them, in front of
 * a real file read with O_DIRECT.
 *
 *	fuse_tiers [-d L2_US] [-s STORE_US] STORE MOUNTPOINT L1 L2
 *
 * The mount holds "data", STORE's contents, and ".stats", the server's
 * counters.  Both are direct_io: every read of "data", O_DIRECT or not,
 * reaches the server, and the kernel keeps none of it.  The file is served
 * in 4 KiB blocks through two levels of L1 and L2 blocks, held in memory:
 *
 * - The levels are exclusive and form one LRU stack: a hit in L1 moves the
 *   block to L1's front; a hit in L2 moves it from L2 to L1's front; a miss
 *   reads it from STORE (opened O_DIRECT) to L1's front.  What leaves L1's
 *   tail goes to L2's front; what leaves L2's tail is dropped.  L1 holds
 *   the L1 blocks read most recently, L1 and L2 the L1 + L2 most recent: a
 *   working set of S blocks read uniformly at random, with replacement,
 *   hits L1 with probability L1/S and L2 with (L1 + L2)/S - L1/S.
 * - An L1 hit costs a copy.  A read that finds a block in L2 or STORE
 *   waits first until L2_US microseconds (default 100) after it arrived,
 *   as a read sent to a second machine would; a miss then waits until
 *   L2_US + STORE_US (default 0) before it reads STORE.  The waits sleep
 *   (timer slack 1 ns), so the server's threads, which nothing pins, sleep
 *   and wake on either CPU.
 * - A read is one request: its level is the slowest of its blocks.
 *   Requests are served one at a time (one lock), as a scan at queue
 *   depth 1 sends them.
 *
 * Reading ".stats" prints "key value" lines: the configuration (block,
 * l1_blocks, l2_blocks, l2_us, store_us), then since the last reset the
 * requests (reads) and those within one block (block_reads), the blocks
 * per level (hits1, hits2, misses), per level the requests within one
 * block (req1 ... req3, level 3 being STORE) and their mean and median
 * latency as the server saw it, from the request's arrival in its handler
 * to its reply (lat1_mean_us, lat1_p50_us ...), and the requests each CPU
 * began (cpuN).  Truncating ".stats" (": > .stats") resets the counters.
 * Runs in the foreground until SIGTERM or SIGINT, then unmounts.
 */
#define FUSE_USE_VERSION 312

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define T_BLOCK		4096
#define T_NIL		UINT32_MAX
#define T_LEVELS	3		/* L1, L2, the store */
#define T_SUB		5		/* histogram: 32 buckets per octave */
#define T_BUCKETS	((40 - T_SUB + 1) << T_SUB)
#define T_CPUS		256
#define T_RUN		256		/* blocks read from the store at once */
#define T_MAX_READ	(T_RUN * T_BLOCK)	/* bytes in one request */

struct t_list {
	uint32_t	head;		/* most recent */
	uint32_t	tail;		/* least recent */
	uint32_t	n;
	uint32_t	cap;
};

struct t_stats {
	uint64_t	reads;
	uint64_t	block_reads;	/* of one whole or partial block */
	uint64_t	blocks[T_LEVELS];
	uint64_t	requests[T_LEVELS];	/* block reads by level */
	uint64_t	sum_ns[T_LEVELS];
	uint64_t	hist[T_LEVELS][T_BUCKETS];
	uint64_t	cpu[T_CPUS];
};

struct t_server {
	pthread_mutex_t	 lock;
	int		 fd;		/* STORE, O_DIRECT */
	uint64_t	 size;		/* bytes */
	uint32_t	 nblocks;
	uint32_t	*prev;		/* per block: LRU links */
	uint32_t	*next;
	uint32_t	*slot;		/* per block: its slot in data */
	uint8_t		*level;		/* per block: 0 (not held), 1, 2 */
	char		*data;		/* L1 + L2 slots of T_BLOCK */
	uint32_t	*free;		/* slots not in use */
	uint32_t	 nfree;
	struct t_list	 list[2];
	uint64_t	 l2_ns;
	uint64_t	 store_ns;
	struct t_stats	 st;
};

static struct t_server	t_srv;

static uint64_t
t_now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

/* Sleep until ns on CLOCK_MONOTONIC. */
static void
t_sleep_until(uint64_t ns)
{
	struct timespec	ts;

	ts.tv_sec = ns / 1000000000;
	ts.tv_nsec = ns % 1000000000;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	    EINTR)
		;
}

/* The histogram bucket of ns: exact below 32 ns, 32 an octave above. */
static size_t
t_bucket(uint64_t ns)
{
	int	e;

	if (ns < (1 << T_SUB))
		return (ns);
	e = 63 - __builtin_clzll(ns);
	if (e >= 40)
		return (T_BUCKETS - 1);
	return (((size_t)(e - T_SUB + 1) << T_SUB) +
	    (size_t)((ns >> (e - T_SUB)) - (1 << T_SUB)));
}

/* The middle of bucket b, in ns. */
static double
t_bucket_mid(size_t b)
{
	size_t	e;
	double	lo, w;

	if (b < (1 << T_SUB))
		return (b + 0.5);
	e = (b >> T_SUB) + T_SUB - 1;
	w = (double)(1ULL << (e - T_SUB));
	lo = (double)(1ULL << e) + (b & ((1 << T_SUB) - 1)) * w;
	return (lo + w / 2);
}

/* The median of n values in hist, in us (0 if none). */
static double
t_p50_us(const uint64_t *hist, uint64_t n)
{
	uint64_t	acc = 0;
	size_t		b;

	if (n == 0)
		return (0);
	for (b = 0; b < T_BUCKETS; b++) {
		acc += hist[b];
		if (2 * acc >= n)
			break;
	}
	return (t_bucket_mid(b) / 1000);
}

/* Take block b out of list l. */
static void
t_unlink(struct t_list *l, uint32_t b)
{
	struct t_server	*s = &t_srv;

	if (s->prev[b] != T_NIL)
		s->next[s->prev[b]] = s->next[b];
	else
		l->head = s->next[b];
	if (s->next[b] != T_NIL)
		s->prev[s->next[b]] = s->prev[b];
	else
		l->tail = s->prev[b];
	l->n--;
	s->level[b] = 0;
}

/* Put block b at the front of list l, the list of level level. */
static void
t_push(struct t_list *l, uint32_t b, uint8_t level)
{
	struct t_server	*s = &t_srv;

	s->prev[b] = T_NIL;
	s->next[b] = l->head;
	if (l->head != T_NIL)
		s->prev[l->head] = b;
	else
		l->tail = b;
	l->head = b;
	l->n++;
	s->level[b] = level;
}

/* Make room for one block at L1's front: its tail to L2, L2's dropped. */
static void
t_make_room(void)
{
	struct t_server	*s = &t_srv;
	uint32_t	 v;

	if (s->list[0].n < s->list[0].cap)
		return;
	v = s->list[0].tail;
	t_unlink(&s->list[0], v);
	t_push(&s->list[1], v, 2);
	if (s->list[1].n <= s->list[1].cap)
		return;
	v = s->list[1].tail;
	t_unlink(&s->list[1], v);
	s->free[s->nfree++] = s->slot[v];
	s->slot[v] = T_NIL;
}

/*
 * Blocks [b, b + n) to L1's front, read from the store in one preadv: n is
 * at most T_RUN and none of them is held.  Returns 0 or -errno.
 */
static int
t_read_store(uint32_t b, uint32_t n)
{
	struct t_server	*s = &t_srv;
	struct iovec	 iov[T_RUN];
	ssize_t		 got;
	uint32_t	 i;

	for (i = 0; i < n; i++) {
		t_make_room();
		s->slot[b + i] = s->free[--s->nfree];
		t_push(&s->list[0], b + i, 1);
		iov[i].iov_base = s->data + (size_t)s->slot[b + i] * T_BLOCK;
		iov[i].iov_len = T_BLOCK;
	}
	got = preadv(s->fd, iov, (int)n, (off_t)b * T_BLOCK);
	if (got == (ssize_t)n * T_BLOCK)
		return (0);
	for (i = 0; i < n; i++) {
		t_unlink(&s->list[0], b + i);
		s->free[s->nfree++] = s->slot[b + i];
		s->slot[b + i] = T_NIL;
	}
	return (got < 0 ? -errno : -EIO);
}

/*
 * Serve [off, off + size) into buf: each block, held or read from the
 * store, to L1's front; the waits of the slowest level met first.
 * Returns the bytes served or -errno.
 */
static int
t_read_data(char *buf, size_t size, off_t off)
{
	struct t_server	*s = &t_srv;
	uint64_t	 arrived = t_now_ns(), ns;
	uint32_t	 first, last, b, n;
	size_t		 in, len, done = 0;
	int		 cpu = sched_getcpu(), worst = 1, level, err;

	if ((uint64_t)off >= s->size || size == 0)
		return (0);
	if (size > s->size - (uint64_t)off)
		size = s->size - (uint64_t)off;
	first = (uint32_t)(off / T_BLOCK);
	last = (uint32_t)((off + size - 1) / T_BLOCK);
	pthread_mutex_lock(&s->lock);
	for (b = first; b <= last; b++) {
		level = s->level[b] == 0 ? 3 : s->level[b];
		if (level > worst)
			worst = level;
	}
	if (worst > 1)
		t_sleep_until(arrived + s->l2_ns);
	if (worst > 2)
		t_sleep_until(arrived + s->l2_ns + s->store_ns);
	for (b = first; b <= last; b += n) {
		n = 1;
		if (s->level[b] == 0) {
			while (b + n <= last && n < T_RUN &&
			    s->level[b + n] == 0)
				n++;
			if ((err = t_read_store(b, n)) != 0) {
				pthread_mutex_unlock(&s->lock);
				return (err);
			}
			s->st.blocks[2] += n;
		} else {
			s->st.blocks[s->level[b] - 1]++;
			t_unlink(&s->list[s->level[b] - 1], b);
			t_make_room();
			t_push(&s->list[0], b, 1);
		}
	}
	/* Each block is held now: a request (max_read) fits in L1 + L2. */
	for (b = first; b <= last; b++, done += len) {
		in = b == first ? (size_t)(off % T_BLOCK) : 0;
		len = T_BLOCK - in;
		if (len > size - done)
			len = size - done;
		memcpy(buf + done, s->data + (size_t)s->slot[b] * T_BLOCK + in,
		    len);
	}
	ns = t_now_ns() - arrived;
	s->st.reads++;
	if (cpu >= 0 && cpu < T_CPUS)
		s->st.cpu[cpu]++;
	if (first == last) {
		s->st.block_reads++;
		s->st.requests[worst - 1]++;
		s->st.sum_ns[worst - 1] += ns;
		s->st.hist[worst - 1][t_bucket(ns)]++;
	}
	pthread_mutex_unlock(&s->lock);
	return ((int)done);
}

/* The text of .stats, in buf; returns its length. */
static size_t
t_stats_text(char *buf, size_t len)
{
	struct t_server	*s = &t_srv;
	static const char *const names[] = { "hits1", "hits2", "misses" };
	size_t		 n = 0, i;
	uint64_t	 r;

#define T_ADD(...) do {							\
	if (n < len)							\
		n += snprintf(buf + n, len - n, __VA_ARGS__);		\
} while (0)
	pthread_mutex_lock(&s->lock);
	T_ADD("block %d\nl1_blocks %u\nl2_blocks %u\nl2_us %.1f\n"
	    "store_us %.1f\nreads %llu\nblock_reads %llu\n", T_BLOCK,
	    s->list[0].cap, s->list[1].cap, s->l2_ns / 1e3,
	    s->store_ns / 1e3, (unsigned long long)s->st.reads,
	    (unsigned long long)s->st.block_reads);
	for (i = 0; i < T_LEVELS; i++)
		T_ADD("%s %llu\n", names[i],
		    (unsigned long long)s->st.blocks[i]);
	for (i = 0; i < T_LEVELS; i++) {
		r = s->st.requests[i];
		T_ADD("req%zu %llu\nlat%zu_mean_us %.2f\nlat%zu_p50_us %.2f\n",
		    i + 1, (unsigned long long)r, i + 1,
		    r > 0 ? s->st.sum_ns[i] / 1e3 / r : 0, i + 1,
		    t_p50_us(s->st.hist[i], r));
	}
	for (i = 0; i < T_CPUS; i++)
		if (s->st.cpu[i] > 0)
			T_ADD("cpu%zu %llu\n", i,
			    (unsigned long long)s->st.cpu[i]);
	pthread_mutex_unlock(&s->lock);
#undef T_ADD
	return (n < len ? n : len);
}

static int
t_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof *st);
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (strcmp(path, "/data") == 0) {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = (off_t)t_srv.size;
		st->st_blocks = (blkcnt_t)(t_srv.size / 512);
	} else if (strcmp(path, "/.stats") == 0) {
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
	} else
		return (-ENOENT);
	return (0);
}

static int
t_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
    struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/") != 0)
		return (-ENOENT);
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "data", NULL, 0, 0);
	fill(buf, ".stats", NULL, 0, 0);
	return (0);
}

static void
t_reset(void)
{
	pthread_mutex_lock(&t_srv.lock);
	memset(&t_srv.st, 0, sizeof t_srv.st);
	pthread_mutex_unlock(&t_srv.lock);
}

static int
t_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)size;
	(void)fi;
	if (strcmp(path, "/.stats") != 0)
		return (-EACCES);
	t_reset();
	return (0);
}

static int
t_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/data") == 0) {
		if ((fi->flags & O_ACCMODE) != O_RDONLY)
			return (-EACCES);
		fi->fh = 0;
	} else if (strcmp(path, "/.stats") == 0) {
		fi->fh = 1;
		if (fi->flags & O_TRUNC)
			t_reset();
	} else
		return (-ENOENT);
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return (0);
}

static int
t_read(const char *path, char *buf, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	char	text[4096];
	size_t	n;

	(void)path;
	if (fi->fh == 0)
		return (t_read_data(buf, size, off));
	n = t_stats_text(text, sizeof text);
	if ((uint64_t)off >= n)
		return (0);
	if (size > n - (size_t)off)
		size = n - (size_t)off;
	memcpy(buf, text + off, size);
	return ((int)size);
}


static void *
t_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	conn->max_read = T_MAX_READ;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->auto_cache = 0;
	return (NULL);
}

static const struct fuse_operations t_ops = {
	.init = t_init,
	.getattr = t_getattr,
	.readdir = t_readdir,
	.open = t_open,
	.read = t_read,
	.truncate = t_truncate,
};

static void
t_usage(void)
{
	fprintf(stderr, "usage: fuse_tiers [-d L2_US] [-s STORE_US] STORE "
	    "MOUNTPOINT L1_BLOCKS L2_BLOCKS\n");
	exit(2);
}

/* A positive count from s, or exit 2 naming what. */
static unsigned long
t_count(const char *s, const char *what, unsigned long max)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || end == s || v == 0 || v > max) {
		fprintf(stderr, "fuse_tiers: %s '%s': want a whole number "
		    "from 1 to %lu\n", what, s, max);
		exit(2);
	}
	return (v);
}

static int
t_setup(const char *store, unsigned long l1, unsigned long l2)
{
	struct t_server	*s = &t_srv;
	struct stat	 sb;
	uint32_t	 i, nslots;

	if ((s->fd = open(store, O_RDONLY | O_DIRECT | O_CLOEXEC)) < 0 ||
	    fstat(s->fd, &sb) != 0) {
		fprintf(stderr, "fuse_tiers: %s: %s\n", store,
		    strerror(errno));
		return (-1);
	}
	if (sb.st_size < T_BLOCK || sb.st_size % T_BLOCK != 0 ||
	    sb.st_size / T_BLOCK >= T_NIL) {
		fprintf(stderr, "fuse_tiers: %s: its size must be a multiple "
		    "of %d bytes below 16 TiB\n", store, T_BLOCK);
		return (-1);
	}
	s->size = (uint64_t)sb.st_size;
	s->nblocks = (uint32_t)(s->size / T_BLOCK);
	if (l1 < T_RUN) {
		fprintf(stderr, "fuse_tiers: L1 must hold %d blocks at least\n",
		    T_RUN);
		return (-1);
	}
	if (l1 + l2 > s->nblocks) {
		fprintf(stderr, "fuse_tiers: L1 + L2 (%lu blocks) is more "
		    "than %s holds (%u)\n", l1 + l2, store, s->nblocks);
		return (-1);
	}
	nslots = (uint32_t)(l1 + l2);
	s->prev = calloc(s->nblocks, sizeof *s->prev);
	s->next = calloc(s->nblocks, sizeof *s->next);
	s->slot = calloc(s->nblocks, sizeof *s->slot);
	s->level = calloc(s->nblocks, 1);
	s->free = calloc(nslots, sizeof *s->free);
	if (s->prev == NULL || s->next == NULL || s->slot == NULL ||
	    s->level == NULL || s->free == NULL ||
	    posix_memalign((void **)&s->data, T_BLOCK,
	    (size_t)nslots * T_BLOCK) != 0) {
		fprintf(stderr, "fuse_tiers: out of memory\n");
		return (-1);
	}
	for (i = 0; i < s->nblocks; i++)
		s->slot[i] = T_NIL;
	for (i = 0; i < nslots; i++)
		s->free[i] = nslots - 1 - i;
	s->nfree = nslots;
	for (i = 0; i < 2; i++)
		s->list[i].head = s->list[i].tail = T_NIL;
	s->list[0].cap = (uint32_t)l1;
	s->list[1].cap = (uint32_t)l2;
	pthread_mutex_init(&s->lock, NULL);
	return (0);
}

int
main(int argc, char **argv)
{
	struct fuse_args		 args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config		*cfg;
	struct fuse			*f;
	unsigned long			 l1, l2;
	int				 c, st = 1;
	char				 opt[64];

	t_srv.l2_ns = 100000;
	while ((c = getopt(argc, argv, "d:s:")) != -1) {
		switch (c) {
		case 'd':
			t_srv.l2_ns = 1000 * t_count(optarg, "-d", 1000000);
			break;
		case 's':
			t_srv.store_ns = 1000 * t_count(optarg, "-s", 1000000);
			break;
		default:
			t_usage();
		}
	}
	if (argc - optind != 4)
		t_usage();
	l1 = t_count(argv[optind + 2], "L1_BLOCKS", T_NIL / 2);
	l2 = t_count(argv[optind + 3], "L2_BLOCKS", T_NIL / 2);
	if (t_setup(argv[optind], l1, l2) != 0)
		return (1);
	/* Waits end when asked, not up to 50 us later; threads inherit it. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

	snprintf(opt, sizeof opt, "-omax_read=%d", T_MAX_READ);
	if (fuse_opt_add_arg(&args, argv[0]) != 0 ||
	    fuse_opt_add_arg(&args, "-ofsname=fuse_tiers") != 0 ||
	    fuse_opt_add_arg(&args, opt) != 0)
		return (1);
	if ((f = fuse_new(&args, &t_ops, sizeof t_ops, NULL)) == NULL)
		return (1);
	if (fuse_mount(f, argv[optind + 1]) != 0)
		goto out;
	if (fuse_set_signal_handlers(fuse_get_session(f)) == 0) {
		cfg = fuse_loop_cfg_create();
		st = fuse_loop_mt(f, cfg) != 0;
		fuse_loop_cfg_destroy(cfg);
		fuse_remove_signal_handlers(fuse_get_session(f));
	}
	fuse_unmount(f);
out:
	fuse_destroy(f);
	fuse_opt_free_args(&args);
	return (st);
}
