// SPDX-License-Identifier: GPL-2.0
/*
 * log_format.c - prints and parses request log lines (see log_format.h).
 */
#include <string.h>

#include "tools/report/log_format.h"

static const char op_letters[] = "RWTZF";

void log_entry_print(FILE *out, const struct ssdemu_log_entry *e)
{
	char op = e->op < sizeof(op_letters) - 1 ? op_letters[e->op] : '?';

	fprintf(out, "%llu %c %llu %u %llu\n", (unsigned long long)e->arrival_ns, op,
		(unsigned long long)e->offset_bytes, e->length_bytes,
		(unsigned long long)e->completion_ns);
}

int log_entry_parse(const char *line, struct ssdemu_log_entry *e)
{
	unsigned long long arrival, offset, completion;
	unsigned int length;
	const char *where;
	char op, extra;

	if (sscanf(line, "%llu %c %llu %u %llu %c", &arrival, &op, &offset, &length,
		   &completion, &extra) != 5)
		return -1;
	where = strchr(op_letters, op);
	if (!where || !op)
		return -1;
	e->arrival_ns = arrival;
	e->op = where - op_letters;
	e->offset_bytes = offset;
	e->length_bytes = length;
	e->completion_ns = completion;
	return 0;
}
