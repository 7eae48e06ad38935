// SPDX-License-Identifier: GPL-2.0
/*
 * msg.c - the tools' message stream (msg.h): stderr, or the list this
 * thread collects into.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/msg/msg.h"

static __thread struct msg_list *collecting;

/* Make room for one more line in @list: 0, or -1 (out of memory, noted). */
static int room_for_line(struct msg_list *list)
{
	size_t room = list->room ? 2 * list->room : 16;
	char **lines;

	if (list->count < list->room)
		return 0;
	lines = realloc(list->lines, room * sizeof(*lines));
	if (!lines) {
		list->out_of_memory = 1;
		return -1;
	}
	list->lines = lines;
	list->room = room;
	return 0;
}

/* Append @len bytes of @text to @list, a line at each newline. */
static void collect(struct msg_list *list, const char *text, size_t len)
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t take = nl ? (size_t)(nl - text) + 1 : len;
		char *grown = realloc(list->partial, list->partial_len + take + 1);

		if (!grown) {
			list->out_of_memory = 1;
			return;
		}
		memcpy(grown + list->partial_len, text, take);
		list->partial = grown;
		list->partial_len += take;
		grown[list->partial_len] = '\0';
		text += take;
		len -= take;
		if (!nl || room_for_line(list))
			return;
		list->lines[list->count++] = list->partial;
		list->partial = NULL;
		list->partial_len = 0;
	}
}

void msg_vsay(const char *fmt, va_list ap)
{
	char small[512], *text = small;
	va_list again;
	int len;

	if (!collecting) {
		vfprintf(stderr, fmt, ap);
		return;
	}
	va_copy(again, ap);
	len = vsnprintf(small, sizeof(small), fmt, ap);
	if (len >= (int)sizeof(small)) {
		text = malloc(len + 1);
		if (text)
			vsnprintf(text, len + 1, fmt, again);
	}
	va_end(again);
	if (len < 0 || !text) {
		collecting->out_of_memory = 1;
		return;
	}
	collect(collecting, text, len);
	if (text != small)
		free(text);
}

void msg_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vsay(fmt, ap);
	va_end(ap);
}

void msg_perror(const char *what)
{
	const char *why = strerror(errno);

	if (what && what[0])
		msg_say("%s: %s\n", what, why);
	else
		msg_say("%s\n", why);
}

void msg_collect_begin(struct msg_list *list)
{
	memset(list, 0, sizeof(*list));
	list->outer = collecting;
	collecting = list;
}

void msg_collect_end(struct msg_list *list)
{
	static const char lost[] = "out of memory: messages were lost\n";

	/* A text that did not end with a newline: its last line as it is. */
	if (list->partial && !room_for_line(list)) {
		list->lines[list->count++] = list->partial;
		list->partial = NULL;
		list->partial_len = 0;
	}
	if (list->out_of_memory)
		collect(list, lost, sizeof(lost) - 1);
	collecting = list->outer;
	list->outer = NULL;
}

char *msg_list_text(const struct msg_list *list)
{
	size_t bytes = 1, at = 0;
	char *text;

	for (size_t i = 0; i < list->count; i++)
		bytes += strlen(list->lines[i]);
	text = malloc(bytes);
	if (!text)
		return NULL;
	for (size_t i = 0; i < list->count; i++) {
		size_t len = strlen(list->lines[i]);

		memcpy(text + at, list->lines[i], len);
		at += len;
	}
	text[at] = '\0';
	return text;
}

void msg_list_free(struct msg_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		free(list->lines[i]);
	free(list->lines);
	free(list->partial);
	memset(list, 0, sizeof(*list));
}
