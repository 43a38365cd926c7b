/*
 * tests/fuzz/fuzz-text.c - the usbmon text parser (the kernel's 'u' and
 * old 't' formats) and the driver event line parser on one line each, and
 * what a parsed record prints as.
 */
#include <stdlib.h>

#include "decode/decode.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dec_fmt	 fmt = { .time_mode = DT_RELATIVE };
	struct dec_info	 info;
	struct drv_event ev;
	struct urb_rec	 r;
	struct urb_iso	 iso[5];
	struct sbuf	 out = { 0 };
	uint8_t		 bytes[32];
	char		 line[512], *store;
	size_t		 col;

	if (dec_usbmon_text((const char *)data, size, &r, bytes, iso,
	    &col) == 0) {
		memset(&info, 0, sizeof info);
		info.intf = -1;
		info.latency_ns = -1;
		dec_fmt_line(&fmt, &r, &info, &out);
		(void)dec_fmt_usbmon(&r, line, sizeof line);
	} else if (col > size)
		abort();
	if ((store = malloc(size + 8)) == NULL)
		abort();
	if (dec_event_parse((const char *)data, size, &ev, store, size + 8,
	    &col) == 0) {
		dec_fmt_event_line(&fmt, &ev, &out);
		dec_fmt_event_json(&fmt, &ev, &out);
		dec_event_encode(&ev, &out);
	} else if (col > size)
		abort();
	free(store);
	sb_free(&out);
	return 0;
}
