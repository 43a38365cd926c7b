/*
 * tui/tui.h - the ncurses viewer, as the command line starts it
 * (cmd/cmd-tui.c).
 */
#ifndef TUI_H
#define TUI_H

#include <stddef.h>

/*
 * Open name (a file, "sim:SCENARIO", or with live set a usbmon interface)
 * and run the viewer on the terminal until the user quits.  fast: a sim:
 * scenario as fast as it runs, not in real time.  drivers: a usbmon
 * interface with the USB core traced by eBPF too (`capture --drivers`),
 * or when that cannot be, usbmon alone and the reason in the status bar.
 * 0, or -1 with the reason in err.
 */
int	tui_main(const char *name, int fast, int live, int drivers,
	    char *err, size_t errlen);

#endif /* TUI_H */
