/* SPDX-License-Identifier: ISC */
/*
 * What the databases that read a volume's commits make of them: etcd's
 * documented WAL bar and PostgreSQL's fastest wal_sync_method.  Pure (the
 * commits in, figures out); the verdict and the Commits section word
 * them, the JSON report records them (sync.etcd_met,
 * sync.postgresql_wal_sync_method).  io_properties.yaml is ioprops.c's.
 */
#ifndef PEERS_H
#define PEERS_H

#include <stdint.h>

struct commit_point;
struct sync_result;

/*
 * etcd's documented disk guidance ("Hardware recommendations" and the
 * FAQ "what does the etcd warning 'apply entries took too long' mean"):
 * WAL fdatasync p99 under 10 ms, checked with fio writing 2300-byte
 * appends with fdatasync=1.
 */
#define PEERS_ETCD_BS		2300	/* etcd's WAL appends */
#define PEERS_ETCD_P99_US	10000	/* the bar: p99 under it */
/* PostgreSQL's WAL block (XLOG_BLCKSZ), pg_test_fsync's default size. */
#define PEERS_PG_BS		8192

/* etcd's bar against the commits measured. */
struct peers_etcd {
	const struct commit_point *row;	/* fdatasync, one writer, the size
					   nearest PEERS_ETCD_BS; NULL */
	int		 met;		/* p99 under the bar: 1, 0; -1 */
};

/* PostgreSQL's wal_sync_method values. */
enum peers_pg_method {
	PEERS_PG_OPEN_DATASYNC,		/* O_DSYNC writes: tierprobe's dsync */
	PEERS_PG_FDATASYNC,		/* write, fdatasync (Linux default) */
	PEERS_PG_FSYNC,			/* write, fsync */
	PEERS_PG_OPEN_SYNC,		/* O_SYNC writes: not measured */
	PEERS_PG_NMETHODS,
};

/* The fastest wal_sync_method the commits measured. */
struct peers_pg {
	const struct commit_point *row;	/* its row; NULL when none */
	int		 method;	/* PEERS_PG_*; -1 */
	const struct commit_point *dflt; /* fdatasync's row at that size */
	int		 tied_default;	/* fdatasync as fast within noise */
	int		 unsafe;	/* the flush looks volatile: no method
					   is safe (sync.flush_suspect) */
};

/* etcd's bar for the commits of s (NULL: none measured).  Pure. */
void		 peers_etcd(const struct sync_result *, struct peers_etcd *);
/* The fastest wal_sync_method of s (NULL: none measured).  Pure. */
void		 peers_pg(const struct sync_result *, struct peers_pg *);
/* "open_datasync", ...; NULL past the last. */
const char	*peers_pg_name(int);
#endif
