/* SPDX-License-Identifier: ISC */
/*
 * Fuzz the command line: the input split on NUL or newline is argv[1..].
 * Every refusal is one line; what is accepted is consistent.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#include "fuzz.h"

#define T_MAXARGS	64

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
	struct cli_opts	 o;
	char		*buf, *argv[T_MAXARGS + 2], *cause = NULL;
	size_t		 i, start;
	int		 argc = 0, ret;

	/* Copies: getopt may permute argv and keeps pointers into it. */
	buf = t_string(data, size);
	argv[argc++] = strdup("tierprobe");
	for (i = start = 0; i <= size && argc <= T_MAXARGS; i++) {
		if (i < size && buf[i] != '\0' && buf[i] != '\n')
			continue;
		buf[i] = '\0';
		argv[argc++] = strdup(buf + start);
		start = i + 1;
	}
	argv[argc] = NULL;

	ret = cli_parse(argc, argv, &o, &cause);
	if (ret != 0)
		t_check_cause(cause, 0);
	else {
		T_ASSERT(cause == NULL);
		if (o.help)
			cli_usage(t_null, o.cmd);
		else if (!o.version) {
			T_ASSERT(o.cmd != CLI_NONE);
			T_ASSERT(o.nargs >= 0 && o.nargs < argc);
			/* sync takes any commit size (etcd's 2300 bytes). */
			T_ASSERT(o.bs >= 1 && (o.cmd == CLI_SYNC ||
			    (o.bs >= 512 && o.bs % 512 == 0)));
			T_ASSERT(o.iodepth >= 1);
			T_ASSERT(o.min_ws <= o.max_ws);
			T_ASSERT(o.engine != NULL);
			T_ASSERT(o.cmd != CLI_PREP || o.size > 0);
			T_ASSERT(o.cmd != CLI_PLOT || o.outdir != NULL);
			for (i = 0; i < (size_t)o.nargs; i++)
				T_ASSERT(o.args[i] != NULL);
		}
		cli_cmd_name(o.cmd);
	}
	free(cause);
	cli_free(&o);
	for (i = 0; i < (size_t)argc; i++)
		free(argv[i]);
	free(buf);
	return (0);
}
