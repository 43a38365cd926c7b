/*
 * tui/tui-util.c - small helpers shared by the front ends.
 */
#include <stdarg.h>
#include <stdio.h>

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
