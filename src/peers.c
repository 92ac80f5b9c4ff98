/* SPDX-License-Identifier: ISC */
/*
 * What the databases that read a volume's commits make of them: etcd's
 * WAL bar and PostgreSQL's fastest wal_sync_method.
 */
#include <math.h>
#include <string.h>

#include "bucket.h"
#include "peers.h"
#include "sync.h"
#include "writepath.h"

/*
 * PostgreSQL's methods and the tierprobe method that makes writes durable
 * the same way on Linux (xlog.c, issue_xlog_fsync and get_sync_bit):
 * open_datasync opens the WAL O_DSYNC and writes through the page cache
 * (O_DIRECT only with debug_io_direct=wal, or before 16 at wal_level
 * minimal), as dsync does; fdatasync and fsync write, then call it.
 * open_sync (O_SYNC) has no tierprobe method.
 */
static const struct {
	const char	*name;
	int		 sync;		/* SYNC_*, -1 */
} peers_pg_methods[PEERS_PG_NMETHODS] = {
	[PEERS_PG_OPEN_DATASYNC] = { "open_datasync", SYNC_DSYNC },
	[PEERS_PG_FDATASYNC] = { "fdatasync", SYNC_FDATASYNC },
	[PEERS_PG_FSYNC] = { "fsync", SYNC_FSYNC },
	[PEERS_PG_OPEN_SYNC] = { "open_sync", -1 },
};

/* Name of PostgreSQL's method m; NULL past the last. */
const char *
peers_pg_name(int m)
{
	if (m < 0 || m >= PEERS_PG_NMETHODS)
		return (NULL);
	return (peers_pg_methods[m].name);
}

/*
 * Whether a bucket ran dry among the commits and the point measured again
 * after them is a baseline figure: then only the rows of that state are
 * the long run's (the verdict's commits make the same choice).
 */
static int
peers_drained(const struct sync_result *s)
{
	return (s->state == BUCKET_DRAINING && s->again.pt.ios > 0 &&
	    s->again.pt.state == BUCKET_EMPTY);
}

/*
 * The point of one writer of method at the measured size nearest bs (by
 * ratio, the smaller on a tie), among the rows and the point measured
 * again, of the long run's state when a bucket ran dry among them; NULL
 * when none was measured.
 */
static const struct commit_point *
peers_row(const struct sync_result *s, int method, uint32_t bs)
{
	const struct commit_point	*c, *best = NULL;
	double				 d, bestd = INFINITY;
	size_t				 i;
	int				 drained;

	if (s == NULL)
		return (NULL);
	drained = peers_drained(s);
	for (i = 0; i <= s->nrows; i++) {
		c = i < s->nrows ? &s->rows[i] : &s->again;
		if (c->method != method || c->writers != 1 || c->pt.ios == 0 ||
		    !isfinite(c->pt.iops) || (drained &&
		    c->pt.state != BUCKET_EMPTY))
			continue;
		d = fabs(log((double)c->bs / bs));
		if (d < bestd - 1e-9 || (d < bestd + 1e-9 && best != NULL &&
		    c->bs < best->bs)) {
			best = c;
			bestd = d;
		}
	}
	return (best);
}

/* etcd's bar against the commits of s. */
void
peers_etcd(const struct sync_result *s, struct peers_etcd *e)
{
	memset(e, 0, sizeof *e);
	e->met = -1;
	e->row = peers_row(s, SYNC_FDATASYNC, PEERS_ETCD_BS);
	if (e->row != NULL && isfinite(e->row->pt.lat_us.p99))
		e->met = e->row->pt.lat_us.p99 < PEERS_ETCD_P99_US;
}

/*
 * PostgreSQL's fastest method: of those tierprobe measured at one writer
 * and PEERS_PG_BS (or the size nearest it that fdatasync, else any
 * method, was measured at), the most commits per second.
 */
void
peers_pg(const struct sync_result *s, struct peers_pg *p)
{
	const struct commit_point	*c, *any = NULL;
	uint32_t			 bs = PEERS_PG_BS;
	int				 m;

	memset(p, 0, sizeof *p);
	p->method = -1;
	if (s == NULL)
		return;
	/* One size for all, so that the methods compare. */
	for (m = 0; m < PEERS_PG_NMETHODS && any == NULL; m++)
		if (peers_pg_methods[m].sync >= 0)
			any = peers_row(s, peers_pg_methods[m].sync, bs);
	if ((c = peers_row(s, SYNC_FDATASYNC, bs)) != NULL)
		any = c;
	if (any == NULL)
		return;
	bs = any->bs;
	for (m = 0; m < PEERS_PG_NMETHODS; m++) {
		if (peers_pg_methods[m].sync < 0 || (c = peers_row(s,
		    peers_pg_methods[m].sync, bs)) == NULL || c->bs != bs)
			continue;
		if (p->row == NULL || c->pt.iops > p->row->pt.iops) {
			p->row = c;
			p->method = m;
		}
		if (m == PEERS_PG_FDATASYNC)
			p->dflt = c;
	}
	p->tied_default = p->dflt != NULL && p->dflt != p->row &&
	    writepath_tied(p->dflt, p->row);
	p->unsafe = s->flush.suspect == 1;
}
