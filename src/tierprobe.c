/* SPDX-License-Identifier: ISC */
/* tierprobe: parse -> plan -> run -> analyse -> report. */
#include <stdio.h>

int
main(void)
{
	fputs("tierprobe: not built yet\n", stderr);
	return (1);
}
