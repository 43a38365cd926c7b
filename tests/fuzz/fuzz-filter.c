/*
 * tests/fuzz/fuzz-filter.c - the filter language of -Y and the TUI: the
 * input up to its first NUL is the expression, the bytes after it the
 * values of a record or event it is evaluated on.
 */
#include <stdlib.h>

#include "decode/decode.h"
#include "tests/fuzz/fuzz.h"

static uint64_t
take(const uint8_t **p, size_t *n, size_t k)
{
	uint64_t v = 0;

	while (k-- > 0 && *n > 0) {
		v = v << 8 | **p;
		(*p)++;
		(*n)--;
	}
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const drivers[] = { NULL, "skeleton", "usbhid",
	    "" };
	struct dec_fnode nodes[64];
	struct dec_filter f = { nodes, 64, 0, 0, 0, "" };
	struct dec_fvals v;
	const uint8_t	*p, *nul;
	char		 expr[512];
	size_t		 len, n;

	nul = memchr(data, 0, size);
	len = nul != NULL ? (size_t)(nul - data) : size;
	if (len >= sizeof expr)
		return 0;
	memcpy(expr, data, len);
	expr[len] = '\0';
	if (dec_filter_compile(&f, expr) != 0) {
		if (f.col < 0 || (size_t)f.col > len + 1 || f.err[0] == '\0')
			abort();
		return 0;
	}
	p = data + len + (nul != NULL);
	n = size - len - (nul != NULL);
	memset(&v, 0, sizeof v);
	v.is_event = (int)(take(&p, &n, 1) & 1);
	v.busnum = (uint16_t)take(&p, &n, 2);
	v.devnum = (uint8_t)take(&p, &n, 1);
	v.ep = (uint8_t)take(&p, &n, 1);
	v.xfer = (uint8_t)(take(&p, &n, 1) & 3);
	v.ev = "SCE"[take(&p, &n, 1) % 3];
	v.status = (int32_t)take(&p, &n, 4);
	v.len = (uint32_t)take(&p, &n, 4);
	v.latency_ns = (int64_t)take(&p, &n, 8);
	v.driver = drivers[take(&p, &n, 1) % 4];
	v.event = (int)take(&p, &n, 1);
	v.urb = take(&p, &n, 8);
	v.has_urb = (int)(take(&p, &n, 1) & 1);
	(void)dec_filter_match(&f, &v);
	return 0;
}
