/*
 * tests/unit/test-busev.c - a hardware sniffer's bus events: syslog
 * messages read as tshark 4.0.17 reads them (each case's expected level,
 * facility and syslog.msg are tshark's on the same bytes), the sniffer's
 * messages classified, every cut of a message parsed from an exact-size
 * buffer (ASan sees any over-read), a too-small store refused, and a bus
 * event through the pcapng writer and reader: the same message, PRI and
 * kind, as an exported PDU of dissector "syslog".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "capture/capture.h"

static void
test_syslog_tshark(void **state)
{
	/* bytes, tshark's syslog.level, syslog.facility, syslog.msg */
	static const struct {
		const char	*in;
		size_t		 n;
		int		 level, facility;
		const char	*msg;
	} c[] = {
		{ "--- Bus Reset ---", 17, -1, -1, "--- Bus Reset ---" },
		{ "<13>hello", 9, 5, 1, "hello" },
		{ "<999>x", 6, 7, 124, "x" },
		{ "<1234>x", 7, 3, 15, "4>x" },
		{ "<12x", 4, 4, 1, "x" },
		{ "<>x", 3, 0, 0, "x" },
		{ "<0012>z", 7, 1, 0, "2>z" },
		{ "<7>", 3, -1, -1, "" },
		{ "x\0y", 3, -1, -1, "x" },
		{ "a\xe2\x82" "b", 4, -1, -1, "a\xef\xbf\xbd" "b" },
		{ "a\xed\xa0\x80" "b", 5, -1, -1,
		    "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "b" },
		{ "a\xc0\xaf" "b", 4, -1, -1, "a\xef\xbf\xbd\xef\xbf\xbd" "b" },
		{ "a\xf0\x9f\x98\x80" "b", 6, -1, -1, "a\xf0\x9f\x98\x80" "b" },
		{ "a\xe2\x82", 3, -1, -1, "a\xef\xbf\xbd" },
	};
	char	 store[64];
	size_t	 i;
	int	 level, facility, n;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		n = dec_syslog_parse((const uint8_t *)c[i].in, c[i].n, &level,
		    &facility, store, sizeof store);
		assert_int_equal(n, (int)strlen(c[i].msg));
		assert_string_equal(store, c[i].msg);
		assert_int_equal(level, c[i].level);
		assert_int_equal(facility, c[i].facility);
	}
	/* the store too small: refused, never overrun */
	assert_int_equal(dec_syslog_parse((const uint8_t *)"hello", 5, &level,
	    &facility, store, 5), -UE_FULL);
	assert_int_equal(dec_syslog_parse((const uint8_t *)"\xff", 1, &level,
	    &facility, store, 3), -UE_FULL);
}

static void
test_syslog_cuts(void **state)
{
	static const char in[] = "<165>1 \xf0\x9f\x98\x80\xe2\x82\xc3";
	uint8_t	*p;
	char	 store[3 * sizeof in + 1];
	size_t	 n;
	int	 level, facility;

	(void)state;
	for (n = 0; n < sizeof in; n++) {
		p = malloc(n ? n : 1);
		assert_non_null(p);
		memcpy(p, in, n);
		assert_true(dec_syslog_parse(p, n, &level, &facility, store,
		    3 * n + 1) >= 0);
		free(p);
	}
}

static void
test_bus_ev(void **state)
{
	/* ataradov/usb-sniffer's software/capture.c wordings */
	static const struct {
		const char	*msg;
		int		 ev;
		uint8_t		 speed;
	} c[] = {
		{ "Starting capture", BUS_EV_START, 0 },
		{ "Waiting for a trigger", BUS_EV_WAIT, 0 },
		{ "Trigger input = 1", BUS_EV_TRIGGER, 0 },
		{ "VBUS ON", BUS_EV_VBUS_ON, 0 },
		{ "VBUS OFF", BUS_EV_VBUS_OFF, 0 },
		{ "--- Bus Reset ---", BUS_EV_RESET, 0 },
		{ "Detected speed: Low-Speed", BUS_EV_SPEED, USBLL_SPEED_LOW },
		{ "Detected speed: Full-Speed", BUS_EV_SPEED,
		    USBLL_SPEED_FULL },
		{ "Detected speed: High-Speed", BUS_EV_SPEED,
		    USBLL_SPEED_HIGH },
		{ "Line state: J [single] (2.17 us)", BUS_EV_LINE, 0 },
		{ "Keep-alive", BUS_EV_KEEPALIVE, 0 },
		{ "Folded 1000 empty frames", BUS_EV_FOLDED, 0 },
		{ "Folded empty frame", BUS_EV_FOLDED, 0 },
		{ "Periodic update", BUS_EV_UPDATE, 0 },
		{ "Harware buffer overflow", BUS_EV_OVERFLOW, 0 },
		{ "USB PHY error", BUS_EV_PHY_ERROR, 0 },
		{ "Capture limit reached", BUS_EV_LIMIT, 0 },
		{ "Bus suspended", BUS_EV_SUSPEND, 0 },
		{ "--- Resume ---", BUS_EV_RESUME, 0 },
		{ "Detected speed: ", BUS_EV_OTHER, 0 },
		{ "VBUS ONE", BUS_EV_OTHER, 0 },
		{ "", BUS_EV_OTHER, 0 },
	};
	size_t	 i;
	uint8_t	 speed;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		assert_int_equal(dec_bus_ev(c[i].msg, &speed), c[i].ev);
		assert_int_equal(speed, c[i].speed);
	}
}

static void
test_pcapng_roundtrip(void **state)
{
	struct cap_sink_opts opts;
	struct cap_sink	*sink;
	struct cap_source *src;
	struct drv_event ev, got;
	struct urb_rec	 r;
	char		 path[] = "/tmp/urbscope-busev-XXXXXX.pcapng";
	char		 err[512];
	int		 fd, rc, i;

	(void)state;
	assert_true((fd = mkstemps(path, 7)) >= 0);
	close(fd);
	memset(&opts, 0, sizeof opts);
	opts.linktype = 294;
	assert_int_equal(cap_sink_open(path, "pcapng", &opts, &sink, err,
	    sizeof err), 0);
	for (i = 0; i < 2; i++) {
		memset(&ev, 0, sizeof ev);
		ev.kind = DRV_BUS;
		ev.ts_ns = 1000000000LL * (i + 1);
		ev.text = i == 0 ? "--- Bus Reset ---" : "Detected speed: "
		    "High-Speed";
		ev.syslog_level = (int16_t)(i == 0 ? -1 : 6);
		ev.syslog_facility = (int16_t)(i == 0 ? -1 : 16);
		assert_int_equal(cap_sink_write_event(sink, &ev), 0);
	}
	assert_int_equal(cap_sink_close(sink, err, sizeof err), 0);

	assert_int_equal(cap_open(path, &src, err, sizeof err), 0);
	for (i = 0; i < 2; i++) {
		rc = cap_next(src, &r, &got);
		assert_int_equal(rc, CAP_EVENT);
		assert_int_equal(got.kind, DRV_BUS);
		assert_int_equal(got.ts_ns, 1000000000LL * (i + 1));
		assert_int_equal(got.frame, i + 1);
		if (i == 0) {
			assert_string_equal(got.text, "--- Bus Reset ---");
			assert_int_equal(got.bus_ev, BUS_EV_RESET);
			assert_int_equal(got.syslog_level, -1);
			assert_int_equal(got.syslog_facility, -1);
		} else {
			assert_string_equal(got.text,
			    "Detected speed: High-Speed");
			assert_int_equal(got.bus_ev, BUS_EV_SPEED);
			assert_int_equal(got.bus_speed, USBLL_SPEED_HIGH);
			assert_int_equal(got.syslog_level, 6);
			assert_int_equal(got.syslog_facility, 16);
		}
	}
	assert_int_equal(cap_next(src, &r, &got), CAP_END);
	cap_close(src);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syslog_tshark),
		cmocka_unit_test(test_syslog_cuts),
		cmocka_unit_test(test_bus_ev),
		cmocka_unit_test(test_pcapng_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
