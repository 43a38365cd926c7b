/*
 * cmd/dev-tree.c - `urbscope devices -t`: the buses, hubs and ports of a
 * sysfs tree, one line per interface, laid out as usbutils 014's lsusb -t
 * (lsusb-t.c) lays them out, the version Debian 12 ships:
 *
 *	/:  Bus 01.Port 1: Dev 1, Class=root_hub, Driver=ehci-pci/6p, 480M
 *	    |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=usb-storage, 480M
 *	    |__ Port 2: Dev 3, If 0, Class=Hub, Driver=hub/8p, 12M
 *	        |__ Port 1: Dev 4, If 0, Class=Vendor Specific Class, ...
 *
 * A root hub's driver is its controller's (the "driver" link of the
 * usbN directory's parent), a hub interface's driver is followed by the
 * hub's port count (maxchild), the class is usb.ids' name of the
 * interface class ("" without usb.ids, as lsusb -t), the driver "" when
 * none is bound.  Like lsusb -t, a device lists only the interfaces sysfs
 * has (those of its active configuration), a device whose hub is gone
 * from sysfs is not shown, and a device without interfaces (unconfigured)
 * takes one "Port N: Dev N, SPEEDM" line.  Unlike lsusb 014, whose sort
 * leaves sysfs' directory order in places, buses, ports and interfaces
 * are in numerical order (as later usbutils do).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/sysfs.h"
#include "decode/usbids.h"
#include "devices.h"

#define TREE_MAXDEPTH	8	/* USB 2.0 4.1.1: at most 5 hubs + device */

/* The name of d's parent entry: "1-2.3" -> "1-2", "1-2" -> "usb1". */
static void
tree_parent(const struct sysfs_usb_dev *d, char *buf, size_t size)
{
	const char	*dot = strrchr(d->name, '.');

	if (dot != NULL)
		snprintf(buf, size, "%.*s", (int)(dot - d->name), d->name);
	else
		snprintf(buf, size, "usb%u", d->busnum);
}

/* The port of its hub d is plugged into: the last number of its name. */
static unsigned
tree_port(const struct sysfs_usb_dev *d)
{
	const char	*p = strrchr(d->name, '.');

	if (p == NULL)
		p = strchr(d->name, '-');
	return p != NULL ? (unsigned)strtoul(p + 1, NULL, 10) : 0;
}

/* Is d plugged into the device called parent? */
static int
tree_is_child(const struct sysfs_usb_dev *d, const char *parent)
{
	char	 buf[64];

	if (strncmp(d->name, "usb", 3) == 0)
		return 0;
	tree_parent(d, buf, sizeof buf);
	return strcmp(buf, parent) == 0;
}

static void
tree_device(const struct sysfs_usb_dev *d, int depth)
{
	const struct sysfs_usb_intf *in;
	const char	*cls;
	size_t		 i;

	if (d->nintf == 0) {
		printf("%*s|__ Port %u: Dev %u, %sM\n", depth * 4, "",
		    tree_port(d), d->devnum, d->speed_str);
		return;
	}
	for (i = 0; i < d->nintf; i++) {
		in = &d->intf[i];
		cls = usbids_class(in->cls);
		printf("%*s|__ Port %u: Dev %u, If %u, Class=%s, Driver=%s",
		    depth * 4, "", tree_port(d), d->devnum, in->num,
		    cls != NULL ? cls : "", in->driver);
		if (in->cls == 9)	/* USB_CLASS_HUB */
			printf("/%up", d->maxchild);
		printf(", %sM\n", d->speed_str);
	}
}

/* The devices plugged into parent, by port, and theirs below them. */
static void
tree_children(const struct sysfs_usb_dev *sys, size_t n, const char *parent,
    int depth)
{
	const struct sysfs_usb_dev *next;
	unsigned	 last = 0, port;
	size_t		 i;

	if (depth > TREE_MAXDEPTH)
		return;
	/* By port: few devices, so a walk per port is enough. */
	for (;;) {
		next = NULL;
		for (i = 0; i < n; i++) {
			if (!tree_is_child(&sys[i], parent))
				continue;
			port = tree_port(&sys[i]);
			if (port > last && (next == NULL ||
			    port < tree_port(next)))
				next = &sys[i];
		}
		if (next == NULL)
			break;
		last = tree_port(next);
		tree_device(next, depth);
		tree_children(sys, n, next->name, depth + 1);
	}
}

void
ls_bustree(const struct sysfs_usb_dev *sys, size_t n)
{
	const struct sysfs_usb_dev *d;
	size_t		 i;

	/* sysfs_usb_scan sorts by bus, then device number: root hubs. */
	for (i = 0; i < n; i++) {
		d = &sys[i];
		if (strncmp(d->name, "usb", 3) != 0)
			continue;
		printf("/:  Bus %02u.Port 1: Dev %u, Class=", d->busnum,
		    d->devnum);
		if (d->devclass == 9)	/* USB_CLASS_HUB */
			printf("root_hub");
		else
			printf("'bDeviceClass 0x%02x not yet handled'",
			    d->devclass);
		printf(", Driver=%s/%up, %sM\n", d->hcd, d->maxchild,
		    d->speed_str);
		tree_children(sys, n, d->name, 1);
	}
}
