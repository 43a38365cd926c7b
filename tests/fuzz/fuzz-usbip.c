/*
 * tests/fuzz/fuzz-usbip.c - the USB/IP server's side of the wire
 * (hcd/usbip.c): the first byte chooses a device model, the rest is a
 * stream of USB/IP commands (CMD_SUBMIT with its data and isochronous
 * descriptors, CMD_UNLINK) as a client would send them, each carried out
 * on the model, a millisecond apart, with the answers made and dropped
 * and the device's side recorded (serve -w) as usbmon records.
 */
#include <stdlib.h>
#include <string.h>

#include "hcd/machine.h"
#include "hcd/usbip.h"
#include "samples/samples.h"
#include "tests/fuzz/fuzz.h"

/* serve -w's recorder: every byte of a record's data and iso descriptors
 * read, as a sink would */
static void
touch(void *arg, struct urb_rec *r)
{
	uint32_t	 i, *sum = arg;

	for (i = 0; i < r->data_len; i++)
		*sum += r->data[i];
	for (i = 0; i < r->niso; i++)
		*sum += r->iso[i].off + r->iso[i].len;
}

static const char *const models[] = {
	"disk:64K", "keyboard:ab", "loopback", "serial", "gamepad",
	"speaker", "bluetooth",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sbuf out;
	uint8_t		 info[USBIP_DEV_SIZE + 32 * USBIP_INTF_SIZE];
	struct usb_devmodel *dm;
	struct usbip_dev *d;
	struct usbip_cmd c;
	const char	*m;
	char		 name[32], *args;
	uint64_t	 now = 1000000000;
	int64_t		 extra;
	size_t		 at = 1;
	uint32_t	 sum = 0;

	if (size < 1)
		return 0;
	sim_register(&sample_catalog);
	m = models[data[0] % (sizeof models / sizeof models[0])];
	snprintf(name, sizeof name, "%s", m);
	if ((args = strchr(name, ':')) != NULL)
		*args++ = '\0';
	if ((dm = dm_create(name, args != NULL ? args : "")) == NULL ||
	    (d = usbip_dev_new(dm, 1, 2, 1)) == NULL)
		abort();
	(void)usbip_dev_info(d, info, 1);
	usbip_dev_record(d, touch, &sum);
	while (size - at >= USBIP_HDR) {
		if (usbip_parse_cmd(data + at, &c) != 0) {
			at += USBIP_HDR;
			continue;
		}
		if ((extra = usbip_cmd_extra(&c)) < 0 ||
		    (uint64_t)extra > size - at - USBIP_HDR)
			break;
		if (c.command == USBIP_CMD_UNLINK)
			usbip_dev_unlink(d, &c, &out);
		else
			(void)usbip_dev_submit(d, &c, data + at + USBIP_HDR);
		at += USBIP_HDR + (size_t)extra;
		(void)usbip_dev_run(d, now += 1000000, &out);
		out.len = 0;
		if (usbip_dev_gone(d))
			break;
	}
	(void)usbip_dev_run(d, now + 50000000, &out);
	out.len = 0;
	usbip_dev_free(d);
	return sum == 0xffffffff;	/* never: keeps the sum */
}
