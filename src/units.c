/* SPDX-License-Identifier: ISC */
/* Sizes and times: strict parsers with helpful messages, formatters to three
 * significant digits. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "xmalloc.h"

/* A number as written: digits before and after an optional point. */
struct units_num {
	uint64_t	 ip;		/* integer part */
	uint64_t	 frac;		/* fraction digits as an integer */
	uint64_t	 frac_den;	/* 10^(fraction digits kept) */
	double		 value;		/* the whole number, approximately */
	int		 has_point;
	int		 ip_overflow;	/* integer part above UINT64_MAX */
	const char	*end;		/* first character after the number */
};

static const char *units_size_help =
    "use a number with K, M, G, T or P (powers of 1024)";
static const char *units_time_help =
    "use a number with ns, us, ms, s, m or h";

/*
 * Read digits[.digits] or .digits: no sign, no exponent.
 * Fraction digits past the 18th are ignored.  Returns -1 if no number.
 */
static int
units_read_num(const char *s, struct units_num *num)
{
	const char	*p = s;
	int		 ndig = 0, nfrac = 0;
	double		 scale = 1;

	memset(num, 0, sizeof *num);
	num->frac_den = 1;
	for (; *p >= '0' && *p <= '9'; p++, ndig++) {
		if (num->ip > (UINT64_MAX - (*p - '0')) / 10)
			num->ip_overflow = 1;
		num->ip = num->ip * 10 + (*p - '0');
		num->value = num->value * 10 + (*p - '0');
	}
	if (*p == '.') {
		num->has_point = 1;
		if (p[1] < '0' || p[1] > '9')
			return (-1);
		for (p++; *p >= '0' && *p <= '9'; p++, ndig++) {
			scale /= 10;
			num->value += (*p - '0') * scale;
			if (nfrac++ >= 18)
				continue;
			num->frac = num->frac * 10 + (*p - '0');
			num->frac_den *= 10;
		}
	}
	if (ndig == 0)
		return (-1);
	num->end = p;
	return (0);
}

/* Skip spaces. */
static const char *
units_skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return (p);
}

/*
 * Parse a size with a binary suffix into bytes; a decimal needs a suffix
 * ("1.5G") and is rounded to the nearest byte.
 */
int
units_parse_size(const char *s, uint64_t *out, char **cause)
{
	static const char	 letters[] = "KMGTP";
	struct units_num	 num;
	const char		*p, *l;
	unsigned int		 shift = 0;
	unsigned __int128	 v, f;

	if (units_read_num(s, &num) != 0)
		goto bad;
	p = units_skip_space(num.end);
	if (p != num.end && *p == '\0')
		goto bad;
	if (*p != '\0' && (l = strchr(letters,
	    toupper((unsigned char)*p))) != NULL) {
		shift = 10 * (unsigned int)(l - letters + 1);
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
		if (*p == 'B' || *p == 'b')
			p++;
	} else if (*p == 'B' || *p == 'b')
		p++;
	if (*p != '\0' || (num.has_point && shift == 0))
		goto bad;
	if (num.ip_overflow)
		goto big;

	v = (unsigned __int128)num.ip << shift;
	f = ((unsigned __int128)num.frac << shift) + num.frac_den / 2;
	v += f / num.frac_den;
	if (v > UINT64_MAX)
		goto big;
	*out = (uint64_t)v;
	return (0);

bad:
	xasprintf(cause, "\"%s\" is not a size: %s", s, units_size_help);
	return (-1);
big:
	xasprintf(cause, "\"%s\" is too large a size", s);
	return (-1);
}

/* Parse a duration into seconds. */
int
units_parse_time(const char *s, double *out, char **cause)
{
	static const struct {
		const char	*name;
		double		 mult;
	} suffixes[] = {
		{ "", 1 },
		{ "ns", 1e-9 },
		{ "us", 1e-6 },
		{ "ms", 1e-3 },
		{ "s", 1 },
		{ "m", 60 },
		{ "min", 60 },
		{ "h", 3600 },
	};
	struct units_num	 num;
	const char		*p;
	size_t			 i;

	if (units_read_num(s, &num) != 0)
		goto bad;
	p = units_skip_space(num.end);
	if (p != num.end && *p == '\0')
		goto bad;
	for (i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		if (strcmp(p, suffixes[i].name) == 0)
			break;
	}
	if (i == sizeof suffixes / sizeof suffixes[0])
		goto bad;
	*out = num.value * suffixes[i].mult;
	if (!isfinite(*out)) {
		xasprintf(cause, "\"%s\" is too long a time", s);
		return (-1);
	}
	return (0);

bad:
	xasprintf(cause, "\"%s\" is not a time: %s", s, units_time_help);
	return (-1);
}

/* Parse a whole number in [min, max]. */
int
units_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    char **cause)
{
	struct units_num	 num;

	if (units_read_num(s, &num) != 0 || num.has_point || *num.end != '\0') {
		xasprintf(cause, "\"%s\" is not a whole number: use one from "
		    "%llu to %llu", s, (unsigned long long)min,
		    (unsigned long long)max);
		return (-1);
	}
	if (num.ip_overflow || num.ip < min || num.ip > max) {
		xasprintf(cause, "\"%s\" is out of range: use a whole number "
		    "from %llu to %llu", s, (unsigned long long)min,
		    (unsigned long long)max);
		return (-1);
	}
	*out = num.ip;
	return (0);
}

static const char *const units_size_names[] = {
	"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
};
static const char *const units_lat_names[] = { "ns", "us", "ms", "s" };
static const char *const units_rate_names[] = {
	"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s"
};
static const char *const units_count_names[] = { "", "k", "M", "G", "T" };

/*
 * Print v scaled by base into the largest unit keeping it below base, to
 * three significant digits (and more more) without trailing zeros:
 * "1.25 GiB", "512 KiB".
 */
static char *
units_format(double v, double base, const char *const *unit, size_t nunit,
    const char *sep, int more, char *buf, size_t len)
{
	double	 a;
	size_t	 u = 0;
	int	 prec;
	char	*p;

	if (!isfinite(v)) {
		snprintf(buf, len, "%g", v);
		return (buf);
	}
	a = fabs(v);
	while (u + 1 < nunit && a >= base - 0.5) {
		a /= base;
		v /= base;
		u++;
	}
	if (a >= 99.95)
		prec = 0;
	else if (a >= 9.995)
		prec = 1;
	else
		prec = 2;
	prec += more;
	snprintf(buf, len, "%.*f", prec, v);
	if (prec > 0) {
		p = buf + strlen(buf) - 1;
		while (*p == '0')
			*p-- = '\0';
		if (*p == '.')
			*p = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	if (*unit[u] != '\0') {
		p = buf + strlen(buf);
		snprintf(p, len - (p - buf), "%s%s", sep, unit[u]);
	}
	return (buf);
}

/* Format bytes with a binary unit. */
char *
units_format_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes < 1024) {
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
		return (buf);
	}
	return (units_format((double)bytes, 1024, units_size_names, 7, " ", 0,
	    buf, len));
}

/* Format a latency in microseconds with ns, us, ms or s. */
char *
units_format_lat_us(double us, char *buf, size_t len)
{
	return (units_format(us * 1000, 1000, units_lat_names, 4, " ", 0, buf,
	    len));
}

/* Format bytes per second with a binary unit. */
char *
units_format_rate(double bps, char *buf, size_t len)
{
	return (units_format(bps, 1024, units_rate_names, 6, " ", 0, buf,
	    len));
}

/* Format a count with k, M, G or T. */
char *
units_format_count(double n, char *buf, size_t len)
{
	return (units_format(n, 1000, units_count_names, 5, "", 0, buf, len));
}

/* A number with thousands separators and decimals: 12,345, 2,999.6. */
static char *
units_format_thousands(double v, int decimals, char *buf, size_t len)
{
	char		 tmp[UNITS_BUFSZ];
	size_t		 n, i, o = 0;
	const char	*s = tmp, *dot;

	snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
	if (*s == '-' && o + 1 < len) {
		buf[o++] = '-';
		s++;
	}
	dot = strchr(s, '.');
	n = dot != NULL ? (size_t)(dot - s) : strlen(s);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = s[i];
	}
	for (i = n; s[i] != '\0' && o + 1 < len; i++)
		buf[o++] = s[i];
	buf[o] = '\0';
	return (buf);
}

/* A value of a kind for people, with more digits than usual. */
static char *
units_format_more(enum units_kind kind, double v, int more, char *buf,
    size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "unknown");
		return (buf);
	}
	switch (kind) {
	case UNITS_BYTES:
		if (v < 0)
			v = 0;
		if (more == 0 || v < 1024)
			return (units_format_size((uint64_t)llround(v), buf,
			    len));
		return (units_format(v, 1024, units_size_names, 7, " ", more,
		    buf, len));
	case UNITS_LAT_US:
		return (units_format(v * 1000, 1000, units_lat_names, 4, " ",
		    more, buf, len));
	case UNITS_RATE:
		return (units_format(v, 1024, units_rate_names, 6, " ", more,
		    buf, len));
	case UNITS_SECONDS:
		if (v >= 3600)
			snprintf(buf, len, "%.*f h", 1 + more, v / 3600);
		else if (v >= 100)
			snprintf(buf, len, "%.*f s", more, v);
		else
			snprintf(buf, len, "%.*f s", 1 + more, v);
		return (buf);
	case UNITS_COUNT:
		return (units_format(v, 1000, units_count_names, 5, "", more,
		    buf, len));
	case UNITS_IOPS:
		if (v >= 1e7)
			return (units_format(v, 1000, units_count_names, 5, "",
			    more, buf, len));
		/* FALLTHROUGH */
	case UNITS_PLAIN:
		break;
	}
	return (units_format_thousands(v, more, buf, len));
}

/* Format a value of a kind for people into buf; NAN gives "unknown". */
char *
units_format_value(enum units_kind kind, double v, char *buf, size_t len)
{
	return (units_format_more(kind, v, 0, buf, len));
}

/* Format an interval "LOW to HIGH"; see units.h. */
char *
units_format_interval(enum units_kind kind, double lo, double hi, char *buf,
    size_t len)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	int	more;

	for (more = 0; more <= UNITS_MORE_MAX; more++) {
		units_format_more(kind, lo, more, a, sizeof a);
		units_format_more(kind, hi, more, b, sizeof b);
		if (strcmp(a, b) != 0)
			break;
	}
	/* Ends that are one value need no more digits. */
	if (more > UNITS_MORE_MAX) {
		units_format_more(kind, lo, 0, a, sizeof a);
		units_format_more(kind, hi, 0, b, sizeof b);
	}
	snprintf(buf, len, "%s to %s", a, b);
	return (buf);
}
