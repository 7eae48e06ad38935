/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msg.h - where the tools' messages go: every error, warning and note a
 * tool prints for its user (never its results, which go to stdout or to
 * a caller).  By default a message goes to stderr as it is said.  A
 * library call that hands its messages back instead (libssdsim.so,
 * tools/ssdsim/ssdsim_api.h) collects this thread's messages into a
 * list of lines while it runs (msg_collect_begin/end).  Nothing else:
 * results are never printed through here.
 */
#ifndef SSD_TOOLS_MSG_H
#define SSD_TOOLS_MSG_H

#include <stdarg.h>
#include <stddef.h>

/* printf() onto the message stream: stderr, or this thread's list. */
void msg_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_vsay(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* perror(@what) onto the message stream. */
void msg_perror(const char *what);

/*
 * What a thread said while collecting: its lines, each with its newline
 * (the last one without if the text did not end with one), in order.
 * Joined, they are what the program would have printed on stderr.
 */
struct msg_list {
	char **lines;
	size_t count, room;
	char *partial;			/* a line not yet ended */
	size_t partial_len;
	int out_of_memory;		/* a line was lost (the list then says so last) */
	struct msg_list *outer;		/* the collection this one interrupts */
};

/* From now on this thread's messages go into @list (zeroed here). */
void msg_collect_begin(struct msg_list *list);
/* Stop collecting into @list (its last unended line is kept). */
void msg_collect_end(struct msg_list *list);
/* The lines joined, malloc'd (NULL if out of memory). */
char *msg_list_text(const struct msg_list *list);
void msg_list_free(struct msg_list *list);

#endif /* SSD_TOOLS_MSG_H */
