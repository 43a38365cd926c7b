/*
 * tui/tui-util.c - small helpers shared by the front ends.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui.h"

void
tui_warnx(const char *fmt, ...)
{
	va_list	 ap;

	fflush(stdout);
	fputs("urbscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
tui_parse_count(const char *opt, const char *arg, uint64_t *out)
{
	char	*end;

	*out = strtoull(arg, &end, 10);
	if (*arg == '\0' || *arg == '-' || *end != '\0' || *out == 0) {
		tui_warnx("%s wants a positive number, not '%s'", opt, arg);
		return -1;
	}
	return 0;
}
