// SPDX-License-Identifier: GPL-2.0
/*
 * conf_file.c - the `key = value` file format of configs/ and the same
 * pairs given on a command line.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tools/report/conf_file.h"
#include "tools/msg/msg.h"

static char *strip(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Split @line at '=' into trimmed key and value; -1 if malformed. */
static int split_pair(char *line, char **key, char **value)
{
	char *eq = strchr(line, '=');
	char *k;

	if (!eq)
		return -1;
	*eq = '\0';
	k = strip(line);
	*value = strip(eq + 1);
	if (!*k || !**value)
		return -1;
	for (char *c = k; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return -1;
	*key = k;
	return 0;
}

int conf_file_read(const char *path, conf_pair_fn fn, void *ctx)
{
	char line[512], where[600];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f) {
		msg_perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *key, *value, *body;

		lineno++;
		if (hash)
			*hash = '\0';
		body = strip(line);
		if (!*body)
			continue;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		if (split_pair(body, &key, &value)) {
			msg_say("%s: expected 'key = value'\n", where);
			ret = -1;
			break;
		}
		ret = fn(ctx, key, value, where);
		if (ret)
			break;
	}
	fclose(f);
	return ret;
}

int conf_pair_arg(const char *arg, conf_pair_fn fn, void *ctx)
{
	char buf[512], *key, *value;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	if (split_pair(buf, &key, &value)) {
		msg_say("'%s': expected key=value\n", arg);
		return -1;
	}
	return fn(ctx, key, value, "command line");
}
