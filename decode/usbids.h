/*
 * decode/usbids.h - vendor, product and class names from the usb.ids
 * database (Debian's hwdata package), as lsusb shows them.  The file is
 * read once, on first use; without it every lookup returns NULL and
 * callers print numbers only.
 */
#ifndef DECODE_USBIDS_H
#define DECODE_USBIDS_H

#include <stdint.h>

/*
 * Use path instead of the default search ($URBSCOPE_USB_IDS when set,
 * even to a missing file, else /usr/share/hwdata/usb.ids,
 * /usr/share/misc/usb.ids, /var/lib/usbutils/usb.ids); NULL = "no
 * database" (tests).  Call it
 * before the first lookup; a later call drops the names read so far (and
 * the strings returned), and the next lookup reads the new path.
 */
void		 usbids_set_path(const char *path);
/* Names, or NULL when unknown or no database was found. */
const char	*usbids_vendor(uint16_t vid);
const char	*usbids_product(uint16_t vid, uint16_t pid);
/* The class's name ("C 08  Mass Storage"), as lsusb -t prints it. */
const char	*usbids_class(uint8_t cls);

#endif /* DECODE_USBIDS_H */
