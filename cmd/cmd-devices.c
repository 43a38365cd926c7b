/*
 * cmd/cmd-devices.c - `urbscope devices [-v] [-s [[bus]:][devnum]]
 * [-d vendor:[product]]` and `urbscope devices -t`: the attached USB
 * devices, as lsusb lists them, through libusb-1.0, with the port path,
 * the speed and the kernel driver bound to each interface (sysfs).  Each
 * device takes two lines:
 *
 *	Bus 001 Device 003: ID 0627:0001 Adomax Technology Co., Ltd QEMU ...
 *	    port 1-2, 480M, if 0 usbhid
 *
 * the second with the kernel's name of the port (bus-port.port...; usbN
 * for a root hub), the speed in Mb/s, and each interface of the active
 * configuration with its driver ("-" when none is bound).
 *
 * With -v the descriptors follow, decoded by decode/dec-desc.c and laid
 * out as `lsusb -v` lays them out: the same headings, field names, number
 * formats and columns, so that the two can be compared field by field
 * (tests/e2e/devices.sh does it on the QEMU guest's lsusb -v).  The raw
 * descriptors are the sysfs "descriptors" file (the bytes the kernel read
 * at enumeration) or, without it, rebuilt from libusb's parsed form.  When
 * the device can be opened (root, or a udev rule), the string descriptors,
 * the device qualifier, the hub descriptor with its port status and the
 * device status are read from the device, as lsusb does.
 *
 * With -t the buses, hubs and ports are a tree, one line per interface,
 * as `lsusb -t` draws them (dev-tree.c), from sysfs alone as lsusb -t.
 *
 * --sysfs ROOT lists the devices of a sysfs tree instead of libusb's
 * (another machine's dump, a test fixture): no device is opened.
 *
 * --why [BUS-PORT[:CONFIG.INTF]] tells, for each interface (of that
 * device, or that one interface), why its driver bound or why none did
 * (capture/cap-why.c), from sysfs and the module aliases of --modules DIR
 * (/lib/modules/RELEASE).
 */

#include <sys/stat.h>

#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/sysfs.h"
#include "decode/decode.h"
#include "decode/usbids.h"
#include "devices.h"
#include "cmd.h"

static void
devices_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope devices [-v] [-s [[bus]:][devnum]] "
	    "[-d vendor:[product]]\n"
	    "       urbscope devices -t\n"
	    "       urbscope devices --why [BUS-PORT[:CONFIG.INTF]] "
	    "[-s ...] [-d ...]\n"
	    "List the attached USB devices, as lsusb does, with each one's\n"
	    "port, speed and the kernel driver of each interface:\n"
	    "  Bus 001 Device 003: ID 0627:0001 VENDOR PRODUCT\n"
	    "      port 1-2, 480M, if 0 usbhid\n"
	    "  -v        the descriptors too, decoded, laid out as lsusb -v;\n"
	    "            strings, device qualifier, hub and device status are\n"
	    "            read from the device when it can be opened (root)\n"
	    "  -s [[bus]:][devnum]  only this bus and/or device number\n"
	    "  -d vendor:[product]  only this vendor (and product), in hex\n"
	    "  -t        the buses, hubs and ports as a tree, one line per\n"
	    "            interface with its class, driver and speed, as\n"
	    "            lsusb -t:\n"
	    "  /:  Bus 01.Port 1: Dev 1, Class=root_hub, Driver=ehci-pci/6p, "
	    "480M\n"
	    "      |__ Port 1: Dev 2, If 0, Class=Mass Storage, "
	    "Driver=usb-storage, 480M\n"
	    "  --sysfs ROOT  the devices of the sysfs tree at ROOT (as\n"
	    "            ROOT/bus/usb/devices) instead of the live ones\n"
	    "  --why [BUS-PORT[:CONFIG.INTF]]  for each interface (of the\n"
	    "            device 2-1.3, or the interface 2-1.3:1.0): its\n"
	    "            class, modalias, driver and how it bound, each\n"
	    "            module whose alias matches (built in, loaded or\n"
	    "            not), authorized, and with no driver a line why:\n"
	    "  2-2.2:1.0  ic 0B/00/00 Chip/SmartCard  usb:v08E6p4433d...\n"
	    "    driver      (none)\n"
	    "    module      (none)\n"
	    "    authorized  interface 1, device 1\n"
	    "    why         no module alias matches usb:v08E6p4433d...\n"
	    "  --modules DIR  the module aliases of DIR (modules.alias,\n"
	    "            modules.builtin.alias) for --why, instead of\n"
	    "            /lib/modules/$(uname -r)\n"
	    "Names come from usb.ids ($URBSCOPE_USB_IDS, else hwdata's).\n");
}

/* ------------------------------------------------------------------------
 * Options.
 */

/* A number in base of at most max, the whole string; -1 otherwise. */
static long
num(const char *s, size_t n, int base, long max)
{
	char	 buf[16], *end;
	long	 v;

	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '-' || buf[0] == '+')
		return -1;
	v = strtol(buf, &end, base);
	if (*end != '\0' || v < 0 || v > max)
		return -1;
	return v;
}

/* -s [[bus]:][devnum], decimal, as lsusb. */
static int
parse_slot(const char *arg, struct devopts *o)
{
	const char *colon = strchr(arg, ':');

	if (colon == NULL) {
		o->devnum = (int)num(arg, strlen(arg), 10, 127);
		return o->devnum < 0 ? -1 : 0;
	}
	if (colon > arg && (o->bus = (int)num(arg, (size_t)(colon - arg), 10,
	    65535)) < 0)
		return -1;
	if (colon[1] != '\0' && (o->devnum = (int)num(colon + 1,
	    strlen(colon + 1), 10, 127)) < 0)
		return -1;
	return 0;
}

/* -d vendor:[product], hex, as lsusb. */
static int
parse_id(const char *arg, struct devopts *o)
{
	const char *colon = strchr(arg, ':');

	if (colon == NULL || colon == arg)
		return -1;
	if ((o->vid = (int)num(arg, (size_t)(colon - arg), 16, 0xffff)) < 0)
		return -1;
	if (colon[1] != '\0' && (o->pid = (int)num(colon + 1,
	    strlen(colon + 1), 16, 0xffff)) < 0)
		return -1;
	return 0;
}

static int
dv_match(const struct dv *d, const struct devopts *o)
{
	return (o->bus < 0 || (unsigned)o->bus == d->bus) &&
	    (o->devnum < 0 || (unsigned)o->devnum == d->devnum) &&
	    (o->vid < 0 || o->vid == d->vid) &&
	    (o->pid < 0 || o->pid == d->pid);
}

static int
has_intf(const struct sysfs_usb_dev *s, const char *name)
{
	size_t	 i;

	for (i = 0; i < s->nintf; i++) {
		if (strcmp(s->intf[i].name, name) == 0)
			return 1;
	}
	return 0;
}

static int
dv_cmp(const void *a, const void *b)
{
	const struct dv *x = a, *y = b;

	if (x->bus != y->bus)
		return x->bus < y->bus ? -1 : 1;
	return x->devnum < y->devnum ? -1 : x->devnum > y->devnum;
}

/* ------------------------------------------------------------------------
 * The listing.
 */

static void
dv_header(struct dv *d)
{
	const struct sysfs_usb_intf *in;
	const char	*vendor, *product;
	char		 pbuf[256], vbuf[256];
	size_t		 i;

	vendor = usbids_vendor(d->vid);
	product = NULL;
	if (d->desclen >= 18) {
		if (vendor == NULL)
			vendor = dv_string(d, d->desc[14], vbuf, sizeof vbuf);
		product = dv_string(d, d->desc[15], pbuf, sizeof pbuf);
	}
	if (product == NULL)
		product = usbids_product(d->vid, d->pid);
	printf("Bus %03u Device %03u: ID %04x:%04x%s%s%s%s\n", d->bus,
	    d->devnum, d->vid, d->pid, vendor != NULL ? " " : "",
	    vendor != NULL ? vendor : "", product != NULL ? " " : "",
	    product != NULL ? product : "");

	printf("    port %s%s, %s", d->port,
	    strncmp(d->port, "usb", 3) == 0 ? " (root hub)" : "",
	    d->speed[0] != '\0' ? d->speed : "speed unknown");
	if (d->sys == NULL)
		printf(", drivers unknown (no sysfs)");
	else if (d->sys->config == 0 && d->sys->nintf == 0)
		printf(", unconfigured");
	for (i = 0; d->sys != NULL && i < d->sys->nintf; i++) {
		in = &d->sys->intf[i];
		printf(", if %u", in->num);
		if (in->alt != 0)
			printf(" alt %u", in->alt);
		printf(" %s", in->driver[0] != '\0' ? in->driver : "-");
	}
	printf("\n");
}

static int
devices_list(struct dv *dv, size_t n, const struct devopts *o)
{
	size_t	 i, shown = 0, denied = 0;
	int	 rc, first_err = 0;

	for (i = 0; i < n; i++) {
		if (!dv_match(&dv[i], o))
			continue;
		if (o->verbose && dv[i].ld != NULL) {
			rc = libusb_open(dv[i].ld, &dv[i].h);
			if (rc != 0) {
				dv[i].h = NULL;
				if (denied++ == 0)
					first_err = rc;
			}
		}
		if (o->verbose)
			printf("\n");
		dv_header(&dv[i]);
		if (o->verbose) {
			ls_descriptors(&dv[i]);
			ls_requests(&dv[i]);
		}
		shown++;
	}
	fflush(stdout);
	if (denied > 0)
		cmd_warnx("devices: %zu device%s could not be opened (%s): "
		    "only the strings sysfs has are shown, and no device "
		    "qualifier, hub or device status; run as root", denied,
		    denied == 1 ? "" : "s", libusb_strerror(first_err));
	if (shown == 0 && n > 0) {
		cmd_warnx("devices: no device matches");
		return EXIT_INPUT;
	}
	return 0;
}

/*
 * No device at all: the same message and status whatever the listing
 * (plain, -v, -t, --why).  0, as lsusb lists nothing; 1 when -s or -d
 * selected (matched nothing, as lsusb -s says with 1).
 */
static int
devices_none(const struct devopts *o)
{
	cmd_warnx("%s", o->none);
	if (o->bus >= 0 || o->devnum >= 0 || o->vid >= 0 || o->pid >= 0)
		return EXIT_INPUT;
	return 0;
}

/*
 * A sysfs without ROOT/bus/usb (its bus/ is there) is a machine without
 * a USB controller, or with usbcore not loaded: no devices, not an error.
 * Without ROOT/bus, sysfs is not mounted at ROOT.
 */
static int
devices_no_usb(const char *root)
{
	char		 path[4096];
	struct stat	 st;

	snprintf(path, sizeof path, "%s/bus/usb", root);
	if (stat(path, &st) == 0)
		return 0;
	snprintf(path, sizeof path, "%s/bus", root);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * --why [arg]: the interfaces of the devices -s and -d select (all of
 * them), of the device arg names ("2-1.3", "usb1") or the one interface
 * ("2-1.3:1.0").
 */
static int
devices_why(const struct sysfs_usb_dev *sys, size_t nsys,
    const struct devopts *o, const char *arg)
{
	struct why_modules	 m;
	struct sbuf		 b = { 0 };
	struct dv		 d;
	char			 dir[4096], name[64];
	const char		*intf = NULL;
	size_t			 i, shown = 0, named = 0;

	if (arg != NULL) {
		snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, ":"),
		    arg);
		if (strchr(arg, ':') != NULL)
			intf = arg;
	}
	if (nsys == 0 && arg == NULL)
		return devices_none(o);
	if (o->modules != NULL)
		snprintf(dir, sizeof dir, "%s", o->modules);
	else
		why_modules_dir(NULL, dir, sizeof dir);
	if (why_modules_load(&m, dir) != 0) {
		why_modules_free(&m);
		cmd_warnx("devices: out of memory");
		return EXIT_INPUT;
	}
	if (!m.have_alias)
		cmd_warnx("devices: no modules.alias in %s: module matches "
		    "not shown", dir);
	for (i = 0; i < nsys; i++) {
		if (arg != NULL && strcmp(sys[i].name, name) != 0)
			continue;
		if (intf != NULL && !has_intf(&sys[i], intf))
			continue;
		named++;
		dv_from_sysfs(&d, &sys[i]);
		if (!dv_match(&d, o))
			continue;
		b.len = 0;
		why_device(&sys[i], intf, o->sysfs != NULL ? o->sysfs : "/sys",
		    &m, NULL, 0, &b);
		if (b.len > 0)
			fwrite(b.s, 1, b.len, stdout);
		shown++;
	}
	why_modules_free(&m);
	sb_free(&b);
	if (fflush(stdout) != 0)
		return EXIT_INPUT;
	if (arg != NULL && named == 0) {
		cmd_warnx("devices: --why %s: no such %s in %s/bus/usb/devices",
		    arg, intf != NULL ? "interface" : "device",
		    o->sysfs != NULL ? o->sysfs : "/sys");
		return EXIT_INPUT;
	}
	if (shown == 0) {
		cmd_warnx("devices: no device matches");
		return EXIT_INPUT;
	}
	return 0;
}

static int
devices_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	struct devopts		 o = { 0, 0, -1, -1, -1, -1, NULL, 0, NULL,
				    "no USB devices found" };
	struct sysfs_usb_dev	*sys = NULL;
	struct dv		*dv = NULL;
	libusb_context		*ctx = NULL;
	libusb_device		**list = NULL;
	ssize_t			 nl;
	size_t			 nsys = 0, n = 0, i;
	char			 err[4200], nousb[4200];
	int			 rc, status = 0, sysfail = 0;

	(void)ce;
	for (i = 0; i < a->nopt; i++) {
		switch (a->opt[i].ch) {
		case 'd':
			if (parse_id(a->opt[i].arg, &o) != 0) {
				cmd_warnx("devices: -d %s: want "
				    "vendor:[product] in hex, e.g. 0627:0001",
				    a->opt[i].arg);
				return EXIT_USAGE;
			}
			break;
		case 's':
			if (parse_slot(a->opt[i].arg, &o) != 0) {
				cmd_warnx("devices: -s %s: want [[bus]:]"
				    "[devnum] in decimal, e.g. 1:3",
				    a->opt[i].arg);
				return EXIT_USAGE;
			}
			break;
		case 'S':
			o.sysfs = a->opt[i].arg;
			break;
		case 'M':
			o.modules = a->opt[i].arg;
			break;
		case 'W':
			o.why = 1;
			break;
		case 't':
			o.tree = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		}
	}
	if (o.tree && (o.verbose || o.bus >= 0 || o.devnum >= 0 ||
	    o.vid >= 0 || o.pid >= 0)) {
		cmd_warnx("devices: -t shows the whole tree: no -v, -s or -d "
		    "with it");
		return EXIT_USAGE;
	}
	if (o.why && (o.verbose || o.tree)) {
		cmd_warnx("devices: --why lists interfaces: no -v or -t "
		    "with it");
		return EXIT_USAGE;
	}
	if (!o.why && a->argc > 0) {
		cmd_warnx("devices: unexpected argument '%s' (a device or "
		    "interface only after --why)", a->argv[0]);
		return EXIT_USAGE;
	}
	if (!o.why && o.modules != NULL) {
		cmd_warnx("devices: --modules is for --why");
		return EXIT_USAGE;
	}

	if (sysfs_usb_scan(o.sysfs, &sys, &nsys, err, sizeof err) != 0) {
		sys = NULL;
		nsys = 0;
		if (devices_no_usb(o.sysfs != NULL ? o.sysfs : "/sys")) {
			snprintf(nousb, sizeof nousb, "no USB devices found "
			    "(no %s/bus/usb: no USB controller, or usbcore "
			    "not loaded)", o.sysfs != NULL ? o.sysfs : "/sys");
			o.none = nousb;
		} else if (o.sysfs != NULL || o.tree || o.why) {
			/* lsusb -t has only sysfs too, and so has --why. */
			cmd_warnx("devices: %s", err);
			return EXIT_INPUT;
		} else {
			/* Live: libusb may still work; drivers unknown. */
			sysfail = 1;
		}
	}

	if (o.why) {
		status = devices_why(sys, nsys, &o, a->argc > 0 ?
		    a->argv[0] : NULL);
		sysfs_usb_free(sys, nsys);
		return status;
	}
	if (o.tree) {
		if (nsys == 0)
			return devices_none(&o);
		ls_bustree(sys, nsys);
		sysfs_usb_free(sys, nsys);
		return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
	}

	if (o.sysfs != NULL) {
		if (nsys > 0 && (dv = calloc(nsys, sizeof *dv)) == NULL)
			goto nomem;
		for (i = 0; i < nsys; i++)
			dv_from_sysfs(&dv[n++], &sys[i]);
	} else {
		if ((rc = libusb_init(&ctx)) != 0) {
			ctx = NULL;
			/* No usbfs either on a machine without USB. */
			if (o.none != nousb || sysfail)
				goto none;
			cmd_warnx("devices: cannot initialise libusb: %s "
			    "(is usbfs at /dev/bus/usb?)", libusb_strerror(rc));
			sysfs_usb_free(sys, nsys);
			return EXIT_INPUT;
		}
		nl = libusb_get_device_list(ctx, &list);
		if (nl < 0) {
			cmd_warnx("devices: cannot list the USB devices: %s",
			    libusb_strerror((int)nl));
			status = EXIT_INPUT;
			goto out;
		}
		if (nl > 0 && (dv = calloc((size_t)nl, sizeof *dv)) == NULL)
			goto nomem;
		for (i = 0; i < (size_t)nl; i++) {
			if (dv_from_libusb(&dv[n], list[i], sys, nsys) == 0)
				n++;
			else
				dv_free(&dv[n]);
		}
	}
	if (n == 0) {
none:
		if (sysfail) {
			/* Neither sysfs nor libusb: what -t and --why say. */
			cmd_warnx("devices: %s", err);
			status = EXIT_INPUT;
		} else
			status = devices_none(&o);
		goto out;
	}
	qsort(dv, n, sizeof *dv, dv_cmp);
	status = devices_list(dv, n, &o);
	goto out;

nomem:
	cmd_warnx("devices: out of memory");
	status = EXIT_INPUT;
out:
	for (i = 0; i < n; i++)
		dv_free(&dv[i]);
	free(dv);
	if (list != NULL)
		libusb_free_device_list(list, 1);
	if (ctx != NULL)
		libusb_exit(ctx);
	sysfs_usb_free(sys, nsys);
	return status;
}

static const struct option devices_longopts[] = {
	{ "modules", required_argument, NULL, 'M' },
	{ "sysfs", required_argument, NULL, 'S' },
	{ "tree", no_argument, NULL, 't' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "why", no_argument, NULL, 'W' },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_devices_entry = {
	.name = "devices",
	.usage = "[-tv] [-s [[bus]:][devnum]] [-d vendor:[product]] "
	    "[--why [BUS-PORT[:CONFIG.INTF]]]",
	.help = "list the attached USB devices (-v: descriptors, as lsusb -v; "
	    "-t: a tree, as lsusb -t; --why: why each driver bound or none "
	    "did)",
	.template = "d:s:tv",
	.longopts = devices_longopts,
	.lower = 0,
	.upper = 1,
	.extra = "only one device or interface after --why",
	.usage_fn = devices_usage,
	.exec = devices_exec,
};
