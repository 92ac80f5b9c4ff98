/* SPDX-License-Identifier: ISC */
/*
 * A report: what was measured, on what, with which settings, and what it
 * means.  Renderers read it and never measure; report-load.c reads one back
 * from JSON (schema_version 1, man/tierprobe-report.5).
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "limits.h"
#include "scan.h"

#define REPORT_SCHEMA_VERSION	1

struct report_config {			/* the settings of the run */
	char		command[16];	/* run, scan, limits */
	char		engine[16];
	int		direct;
	uint32_t	bs;
	unsigned	iodepth;
	uint64_t	seed;
	uint64_t	min_ws;
	uint64_t	max_ws;
	uint64_t	step;
	unsigned	points;
	double		precision;
	double		max_time_s;
	double		budget_s;
	uint64_t	ws;
	unsigned	max_iodepth;
	double		sustain_s;
	int		write;
};

struct report_context {			/* where it ran; "" when unknown */
	char		hostname[64];
	char		kernel[128];
	char		device[64];	/* e.g. vda */
	char		device_model[128];
	char		scheduler[64];
	int		rotational;	/* -1 unknown */
	unsigned	nr_requests;
	unsigned	read_ahead_kb;
	uint32_t	logical_block;
	uint32_t	physical_block;
	char		fstype[32];
	char		mount_options[256];
};

struct report {
	char			 tool_version[32];
	int			 interrupted;
	char			 started_utc[32];	/* ISO 8601, Z */
	char			 finished_utc[32];
	struct report_config	 config;
	struct {
		char		*path;
		char		 type[16];	/* file, blockdev, sim */
		int		 direct;
		char		 engine[16];
		uint32_t	 bs;
		uint64_t	 size_bytes;
	}			 target;
	struct report_context	 context;
	struct scan_result	*scan;		/* NULL: not run */
	struct limits_result	*limits;	/* NULL: not run */
};

/* Release what a report owns (scan, limits, path); not the struct itself. */
void	report_free(struct report *);

/* JSON to a stream (one document, nothing else).  Returns 0 or -1. */
int	report_json_dump(const struct report *, FILE *);
/*
 * JSON to path atomically: temp file in the same directory, fsync, rename.
 * Returns 0 or -1 with an allocated message in *cause.
 */
int	report_json_write(const struct report *, const char *, char **);
/* Read a report back.  Returns 0 or -1 with *cause (bad file: exit 2). */
int	report_load(const char *, struct report *, char **);

/* Text (markdown set: markdown) for people. */
void	report_text_write(const struct report *, FILE *, int);

#endif
