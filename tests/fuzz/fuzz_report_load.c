/* SPDX-License-Identifier: ISC */
/*
 * Fuzz the JSON report reader (report, compare and plot read these), then
 * render what it accepts as JSON, text, markdown and a comparison: no crash,
 * leak or hang; a refusal is one line.  The input reaches report_load as a
 * memfd path.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "report.h"

#include "fuzz.h"

static FILE	*t_null;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	t_null = fopen("/dev/null", "w");
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report	 rep, pair[2];
	char		 path[64], *cause = NULL;
	size_t		 off;
	ssize_t		 n;
	int		 fd;

	fd = memfd_create("fuzz-report", MFD_CLOEXEC);
	T_ASSERT(fd >= 0);
	for (off = 0; off < size; off += (size_t)n) {
		n = write(fd, data + off, size - off);
		T_ASSERT(n > 0);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	if (report_load(path, &rep, &cause) == 0) {
		T_ASSERT(cause == NULL);
		T_ASSERT(report_json_dump(&rep, t_null) == 0);
		report_text_write(&rep, t_null, 0);
		report_text_write(&rep, t_null, 1);
		pair[0] = pair[1] = rep;
		T_ASSERT(compare_write(pair, 2, t_null, 0) == 0);
		T_ASSERT(compare_write(pair, 2, t_null, 1) == 0);
		report_free(&rep);
	} else
		t_check_cause(cause, memchr(data, '\n', size) != NULL ||
		    memchr(data, '\\', size) != NULL);
	free(cause);
	close(fd);
	return (0);
}
