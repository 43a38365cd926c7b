/*
 * tests/fuzz/fuzz-replay.c - the replay device model (samples/devices/
 * replay.c) on any capture: the input is the file it replays, the host's
 * side a fixed enumeration (descriptors, configuration, strings, the HID
 * report descriptor, a class request, a Bulk-Only reset, alternate
 * settings for isochronous streams) and reads and
 * writes on every endpoint, then Bulk-Only commands (a replayed disk's
 * SCSI), each answer bounds-checked by the sanitizers.
 */
#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hcd/machine.h"
#include "samples/samples.h"
#include "tests/fuzz/fuzz.h"

/* One control transfer, as a host controller makes it. */
static void
ctrl(struct usb_devmodel *dm, const uint8_t setup[8], uint8_t *buf)
{
	uint8_t	 s[8], z[1];
	int	 in = setup[0] & 0x80, r, n = 0;
	int	 len = setup[6] | setup[7] << 8;

	memcpy(s, setup, 8);
	if (dm_transact(dm, DM_PID_SETUP, dm->address, 0, s, 8) != DM_ACK)
		return;
	while (in && n < len && n < 4096) {
		r = dm_transact(dm, DM_PID_IN, dm->address, 0, buf + n, 64);
		if (r < 0)
			return;
		n += r;
		if (r < 64)
			break;
	}
	(void)dm_transact(dm, in ? DM_PID_OUT : DM_PID_IN, dm->address, 0,
	    z, 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t reqs[][8] = {
		{ 0x80, 6, 0, 1, 0, 0, 18, 0 },
		{ 0x80, 6, 0, 2, 0, 0, 0xff, 0 },
		{ 0x00, 9, 1, 0, 0, 0, 0, 0 },
		{ 0x80, 6, 2, 3, 0x09, 0x04, 0xff, 0 },
		{ 0x81, 6, 0, 0x22, 0, 0, 0xff, 0 },
		{ 0x21, 0x0a, 0, 0, 0, 0, 0, 0 },
		{ 0xa1, 1, 0, 1, 0, 0, 8, 0 },
		{ 0x21, 0xff, 0, 0, 0, 0, 0, 0 },	/* BOT reset */
		/* alternate setting 1 of interfaces 1 and 2: where a
		 * replayed device streams isochronously */
		{ 0x01, 11, 1, 0, 1, 0, 0, 0 },
		{ 0x01, 11, 1, 0, 2, 0, 0, 0 },
	};
	/* Bulk-Only CBWs (USB MSC BOT 5.1): INQUIRY, READ(10) of 2 blocks,
	 * WRITE(10) of 1, REQUEST SENSE, one that is no CBW */
	static const uint8_t cbws[][31] = {
		{ 'U', 'S', 'B', 'C', 1, 0, 0, 0, 36, 0, 0, 0, 0x80, 0, 6,
		  0x12, 0, 0, 0, 36 },
		{ 'U', 'S', 'B', 'C', 2, 0, 0, 0, 0, 4, 0, 0, 0x80, 0, 10,
		  0x28, 0, 0, 0, 0, 1, 0, 0, 2 },
		{ 'U', 'S', 'B', 'C', 3, 0, 0, 0, 0, 2, 0, 0, 0x00, 0, 10,
		  0x2a, 0, 0, 0, 0, 9, 0, 0, 1 },
		{ 'U', 'S', 'B', 'C', 4, 0, 0, 0, 18, 0, 0, 0, 0x80, 0, 6,
		  0x03, 0, 0, 0, 18 },
		{ 'U', 'S', 'B', 'X' },
	};
	static uint8_t	 buf[4096 + 64];
	struct usb_devmodel *dm;
	char		 path[64];
	size_t		 i;
	int		 fd, ep, k;

	sim_register(&sample_catalog);
	if ((fd = memfd_create("fuzz-replay", 0)) < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if ((dm = dm_create("replay", path)) != NULL) {
		dm_bus_reset(dm);
		for (i = 0; i < sizeof reqs / sizeof reqs[0]; i++)
			ctrl(dm, reqs[i], buf);
		for (k = 0; k < 4; k++) {
			dm_tick(dm, (uint64_t)k * 1000000000u);
			for (ep = 1; ep < 16; ep++) {
				(void)dm_transact(dm, DM_PID_IN, dm->address,
				    ep, buf, 512);
				(void)dm_transact(dm, DM_PID_OUT, dm->address,
				    ep, buf, 31);
			}
		}
		for (i = 0; i < sizeof cbws / sizeof cbws[0]; i++) {
			for (ep = 1; ep < 16; ep++) {
				memcpy(buf, cbws[i], sizeof cbws[i]);
				(void)dm_transact(dm, DM_PID_OUT, dm->address,
				    ep, buf, sizeof cbws[i]);
				for (k = 0; k < 4; k++) {
					(void)dm_transact(dm, DM_PID_OUT,
					    dm->address, ep, buf, 512);
					(void)dm_transact(dm, DM_PID_IN,
					    dm->address, ep, buf, 512);
				}
			}
		}
		dm_destroy(dm);
	}
	close(fd);
	return 0;
}
