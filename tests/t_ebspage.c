/* SPDX-License-Identifier: ISC */
/*
 * Description: write one EBS log page 0xD0 (4,096 bytes, the documented
 * layout) for the tests that read counters through TIERPROBE_EBS_LOG_PAGE.
 *
 *	t_ebspage FILE [NAME=VALUE ...]
 *
 * NAME: magic, read_ops, write_ops, read_bytes, write_bytes, read_time,
 * write_time, volume_iops, volume_tp, instance_iops, instance_tp (the
 * exceeded counters, us), queue; read_bin and write_bin as
 * LOWER:UPPER:COUNT (us, us, I/Os), once per bin in order; bytes=N writes
 * only the first N bytes (a short page); read_nbins=N sets the read
 * histogram's bin count as given.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const t_names[] = {
	"read_ops", "write_ops", "read_bytes", "write_bytes", "read_time",
	"write_time", "volume_iops", "volume_tp", "instance_iops",
	"instance_tp", "queue",
};

static void
t_le(uint8_t *b, uint64_t v, int bytes)
{
	int	i;

	for (i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

int
main(int argc, char **argv)
{
	uint8_t		 b[4096];
	uint64_t	 v, nr = 0, nw = 0, lo, up, n;
	size_t		 len = sizeof b, i;
	char		*eq;
	FILE		*f;
	int		 a;

	if (argc < 2) {
		fprintf(stderr, "usage: t_ebspage FILE [NAME=VALUE ...]\n");
		return (2);
	}
	memset(b, 0, sizeof b);
	t_le(b, 0x3C23B510, 4);
	for (a = 2; a < argc; a++) {
		if ((eq = strchr(argv[a], '=')) == NULL)
			goto bad;
		*eq++ = '\0';
		if (strcmp(argv[a], "read_bin") == 0 ||
		    strcmp(argv[a], "write_bin") == 0) {
			if (sscanf(eq, "%" SCNu64 ":%" SCNu64 ":%" SCNu64,
			    &lo, &up, &n) != 3)
				goto bad;
			i = argv[a][0] == 'r' ? nr++ : nw++;
			if (i >= 64)
				goto bad;
			/* Read histogram at 512, write at 2056. */
			i = (argv[a][0] == 'r' ? 512 : 2056) + 8 + 24 * i;
			t_le(b + i, lo, 8);
			t_le(b + i + 8, up, 8);
			t_le(b + i + 16, n, 4);
			continue;
		}
		v = strtoull(eq, NULL, 0);
		if (strcmp(argv[a], "magic") == 0) {
			t_le(b, v, 4);
			continue;
		}
		if (strcmp(argv[a], "bytes") == 0) {
			len = v < sizeof b ? (size_t)v : sizeof b;
			continue;
		}
		if (strcmp(argv[a], "read_nbins") == 0) {
			nr = v;
			continue;
		}
		for (i = 0; i < sizeof t_names / sizeof t_names[0]; i++)
			if (strcmp(argv[a], t_names[i]) == 0)
				break;
		if (i == sizeof t_names / sizeof t_names[0])
			goto bad;
		t_le(b + 8 + 8 * i, v, 8);
	}
	t_le(b + 512, nr, 8);
	t_le(b + 2056, nw, 8);
	if ((f = fopen(argv[1], "w")) == NULL || fwrite(b, 1, len, f) != len ||
	    fclose(f) != 0) {
		perror(argv[1]);
		return (1);
	}
	return (0);
bad:
	fprintf(stderr, "t_ebspage: bad argument %s\n", argv[a]);
	return (2);
}
