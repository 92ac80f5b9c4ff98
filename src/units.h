/* SPDX-License-Identifier: ISC */
/* Sizes and times: parse "4k", "1.5G", "250us", "2m"; print them for people. */
#ifndef UNITS_H
#define UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a size: a non-negative number (integer, or decimal with a suffix)
 * with an optional suffix K, M, G, T, P (powers of 1024; "KiB", "k", "KB"
 * accepted alike) or B.  Returns 0 and sets *out, or -1 and an allocated
 * message in *cause (caller frees) naming what was wrong.
 */
int	 units_parse_size(const char *, uint64_t *, char **);

/*
 * Parse a duration into seconds: a number with optional suffix ns, us, ms,
 * s, m, h (default seconds).  Same return convention as units_parse_size.
 */
int	 units_parse_time(const char *, double *, char **);

/* Parse a whole number in [min, max]; same convention. */
int	 units_parse_uint(const char *, uint64_t, uint64_t, uint64_t *, char **);

/* Format bytes with a binary unit ("1.25 GiB", "512 KiB", "17 B") into buf. */
char	*units_format_size(uint64_t, char *, size_t);

/* Format a latency given in microseconds ("75.2 us", "1.31 ms", "2.1 s"). */
char	*units_format_lat_us(double, char *, size_t);

/* Format a rate in bytes per second ("250 MiB/s"). */
char	*units_format_rate(double, char *, size_t);

/* Format a count with a decimal suffix for people ("45.2k", "5.4M"). */
char	*units_format_count(double, char *, size_t);

/* What a figure measures, for units_format_value. */
enum units_kind {
	UNITS_BYTES,
	UNITS_LAT_US,
	UNITS_IOPS,
	UNITS_RATE,			/* bytes per second */
	UNITS_SECONDS,
	UNITS_COUNT,			/* large counts: 5.40M */
	UNITS_PLAIN,			/* small integers: an iodepth */
};

/*
 * Format a value of the given kind for people into buf (UNITS_BUFSZ):
 * sizes and rates with binary units, IOPS and plain numbers with thousands
 * separators ("12,345"), seconds as "20.0 s" or "2.0 h"; NAN and infinities
 * give "unknown".
 */
char	*units_format_value(enum units_kind, double, char *, size_t);

/*
 * Format the interval from lo to hi as "LOW to HIGH" into buf (at least
 * UNITS_INTERVAL_BUFSZ): each end as units_format_value prints it, with up
 * to UNITS_MORE_MAX more digits when the two would print alike ("2,999.6
 * to 3,000.4"; "3,000 to 3,000" only when they are one value).  NAN ends
 * give "unknown".
 */
char	*units_format_interval(enum units_kind, double, double, char *,
	    size_t);

#define UNITS_BUFSZ 32
#define UNITS_INTERVAL_BUFSZ	(2 * UNITS_BUFSZ + 4)
#define UNITS_MORE_MAX		3

#endif
