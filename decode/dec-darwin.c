/*
 * decode/dec-darwin.c - the macOS USB stack's status codes, for captures
 * of the XHC interfaces (LINKTYPE_USB_DARWIN, 266): the IOReturn codes of
 * IOKit/IOReturn.h (iokit_common_err(n), 0xe0000000 | n) that Wireshark
 * names (epan/dissectors/packet-usb.c usb_darwin_status_vals), the USB
 * ones of IOUSBFamily (iokit_usb_err(n), 0xe0004000 | n), and the Linux
 * errno nearest to each (Documentation/driver-api/usb/error-codes.rst),
 * so that failed transfers, pairing and status filters mean the same on
 * a macOS capture as on usbmon.
 */
#include <errno.h>

#include "decode.h"

static const struct dec_code darwin_codes[] = {
	{ 0x00000000, "kIOReturnSuccess", 0 },
	{ 0xe00002bc, "kIOReturnError", EPROTO },
	{ 0xe00002bd, "kIOReturnNoMemory", ENOMEM },
	{ 0xe00002be, "kIOReturnNoResources", ENOSPC },
	{ 0xe00002bf, "kIOReturnIPCError", EIO },
	{ 0xe00002c0, "kIOReturnNoDevice", ENODEV },
	{ 0xe00002c1, "kIOReturnNotPrivileged", EPERM },
	{ 0xe00002c2, "kIOReturnBadArgument", EINVAL },
	{ 0xe00002c3, "kIOReturnLockedRead", EBUSY },
	{ 0xe00002c4, "kIOReturnLockedWrite", EBUSY },
	{ 0xe00002c5, "kIOReturnExclusiveAccess", EBUSY },
	{ 0xe00002c6, "kIOReturnBadMessageID", EINVAL },
	{ 0xe00002c7, "kIOReturnUnsupported", EOPNOTSUPP },
	{ 0xe00002c8, "kIOReturnVMError", EFAULT },
	{ 0xe00002c9, "kIOReturnInternalError", EIO },
	{ 0xe00002ca, "kIOReturnIOError", EIO },
	{ 0xe00002cc, "kIOReturnCannotLock", EBUSY },
	{ 0xe00002cd, "kIOReturnNotOpen", ENODEV },
	{ 0xe00002ce, "kIOReturnNotReadable", EIO },
	{ 0xe00002cf, "kIOReturnNotWritable", EIO },
	{ 0xe00002d0, "kIOReturnNotAligned", EINVAL },
	{ 0xe00002d1, "kIOReturnBadMedia", EIO },
	{ 0xe00002d2, "kIOReturnStillOpen", EBUSY },
	{ 0xe00002d3, "kIOReturnRLDError", EIO },
	{ 0xe00002d4, "kIOReturnDMAError", EIO },
	{ 0xe00002d5, "kIOReturnBusy", EBUSY },
	{ 0xe00002d6, "kIOReturnTimeout", ETIMEDOUT },
	{ 0xe00002d7, "kIOReturnOffline", ENODEV },
	{ 0xe00002d8, "kIOReturnNotReady", EAGAIN },
	{ 0xe00002d9, "kIOReturnNotAttached", ENODEV },
	{ 0xe00002da, "kIOReturnNoChannels", ENOSPC },
	{ 0xe00002db, "kIOReturnNoSpace", ENOSPC },
	{ 0xe00002e7, "kIOReturnUnderrun", EREMOTEIO },
	{ 0xe00002e8, "kIOReturnOverrun", EOVERFLOW },
	{ 0xe00002eb, "kIOReturnAborted", ENOENT },
	{ 0xe00002ed, "kIOReturnNotResponding", EPROTO },
	{ 0xe000404f, "kIOUSBPipeStalled", EPIPE },
	{ 0xe0004051, "kIOUSBTransactionTimeout", ETIMEDOUT },
	{ 0, NULL, 0 }
};

const char *
dec_darwin_status_name(uint32_t code)
{
	const struct dec_code *c = dec_code_find(darwin_codes, code);

	return c != NULL ? c->name : NULL;
}

int32_t
dec_darwin_errno(uint32_t code)
{
	const struct dec_code *c = dec_code_find(darwin_codes, code);

	if (c != NULL)
		return -c->err;
	return code == 0 ? 0 : -EIO;
}
