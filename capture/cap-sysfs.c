/*
 * capture/cap-sysfs.c - the USB devices the running kernel knows, read
 * from sysfs (Documentation/ABI/stable/sysfs-bus-usb and
 * .../testing/sysfs-bus-usb): ROOT/bus/usb/devices holds one symlink per
 * device ("usb1", "1-2", "1-1.4") and per interface of its active
 * configuration ("1-2:1.0", root hubs "1-0:1.0").
 *
 * Devices come and go while we read: a file that is missing or unreadable
 * leaves its field at the default (0 or ""), an entry that vanished is
 * skipped.  Only an absent devices directory is an error.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfs.h"

/* A sysfs "descriptors" file is at most 64 KiB per configuration. */
#define SYSFS_DESC_MAX	(1024U * 1024)

/* Copy src into dst of size bytes, cut if need be: names are short. */
static void
copy(char *dst, size_t size, const char *src)
{
	size_t	 n = strlen(src);

	if (n > size - 1)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Read a text attribute of the entry open at dfd into buf, without its
 * trailing newline; "" when it is missing.  Returns the length.
 */
static size_t
attr_read(int dfd, const char *name, char *buf, size_t size)
{
	ssize_t	 n;
	size_t	 len = 0;
	int	 fd;

	buf[0] = '\0';
	if ((fd = openat(dfd, name, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return len;
}

/* An attribute as a number in base (sysfs pads some with spaces). */
static unsigned long
attr_num(int dfd, const char *name, int base, unsigned long dflt)
{
	char		 buf[64], *end;
	unsigned long	 v;

	if (attr_read(dfd, name, buf, sizeof buf) == 0)
		return dflt;
	errno = 0;
	v = strtoul(buf, &end, base);
	if (errno != 0 || end == buf)
		return dflt;
	return v;
}

/* "authorized" (Documentation/ABI/testing/sysfs-bus-usb): 1, 0 or -1. */
static int
attr_authorized(int dfd)
{
	unsigned long	 v = attr_num(dfd, "authorized", 10, 2);

	return v == 0 || v == 1 ? (int)v : -1;
}

/*
 * The basename of the symlink at name ("driver", or a root hub's
 * "../driver": its controller's): the bound driver, or "".
 */
static void
attr_driver(int dfd, const char *name, char *buf, size_t size)
{
	char	 link[512], *slash;
	ssize_t	 n;

	buf[0] = '\0';
	n = readlinkat(dfd, name, link, sizeof link - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	slash = strrchr(link, '/');
	copy(buf, size, slash != NULL ? slash + 1 : link);
}

/* The binary "descriptors" file, whole; NULL/0 when absent. */
static void
attr_descriptors(int dfd, struct sysfs_usb_dev *d)
{
	uint8_t	*buf = NULL, *nb;
	size_t	 len = 0, cap = 0;
	ssize_t	 n;
	int	 fd;

	if ((fd = openat(dfd, "descriptors", O_RDONLY | O_CLOEXEC)) == -1)
		return;
	for (;;) {
		if (len == cap) {
			if (cap >= SYSFS_DESC_MAX)
				break;
			cap = cap == 0 ? 4096 : cap * 2;
			if ((nb = realloc(buf, cap)) == NULL)
				break;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (len == 0) {
		free(buf);
		return;
	}
	d->desc = buf;
	d->desclen = len;
}

static void
read_device(int dfd, const char *name, struct sysfs_usb_dev *d)
{
	memset(d, 0, sizeof *d);
	copy(d->name, sizeof d->name, name);
	d->busnum = (unsigned)attr_num(dfd, "busnum", 10, 0);
	d->devnum = (unsigned)attr_num(dfd, "devnum", 10, 0);
	attr_read(dfd, "devpath", d->devpath, sizeof d->devpath);
	attr_read(dfd, "speed", d->speed_str, sizeof d->speed_str);
	d->speed = (unsigned)strtoul(d->speed_str, NULL, 10);
	d->vid = (uint16_t)attr_num(dfd, "idVendor", 16, 0);
	d->pid = (uint16_t)attr_num(dfd, "idProduct", 16, 0);
	d->devclass = (uint8_t)attr_num(dfd, "bDeviceClass", 16, 0);
	/* Empty while unconfigured. */
	d->config = (int)attr_num(dfd, "bConfigurationValue", 10, 0);
	attr_driver(dfd, "driver", d->driver, sizeof d->driver);
	d->maxchild = (unsigned)attr_num(dfd, "maxchild", 10, 0);
	d->authorized = attr_authorized(dfd);
	if (strncmp(name, "usb", 3) == 0)
		attr_driver(dfd, "../driver", d->hcd, sizeof d->hcd);
	attr_read(dfd, "manufacturer", d->manufacturer,
	    sizeof d->manufacturer);
	attr_read(dfd, "product", d->product, sizeof d->product);
	attr_read(dfd, "serial", d->serial, sizeof d->serial);
	attr_descriptors(dfd, d);

	/* Older kernels lack busnum/devnum on some entries: the name says. */
	if (d->busnum == 0 && sscanf(name, "usb%u", &d->busnum) != 1)
		sscanf(name, "%u-", &d->busnum);
	if (d->devpath[0] == '\0' && strncmp(name, "usb", 3) == 0)
		snprintf(d->devpath, sizeof d->devpath, "0");
}

static void
read_intf(int dfd, const char *name, struct sysfs_usb_intf *in)
{
	memset(in, 0, sizeof *in);
	copy(in->name, sizeof in->name, name);
	/* bInterfaceNumber is "%02x", bAlternateSetting "%2d". */
	in->num = (uint8_t)attr_num(dfd, "bInterfaceNumber", 16, 0);
	in->alt = (uint8_t)attr_num(dfd, "bAlternateSetting", 10, 0);
	in->cls = (uint8_t)attr_num(dfd, "bInterfaceClass", 16, 0);
	in->subcls = (uint8_t)attr_num(dfd, "bInterfaceSubClass", 16, 0);
	in->proto = (uint8_t)attr_num(dfd, "bInterfaceProtocol", 16, 0);
	attr_driver(dfd, "driver", in->driver, sizeof in->driver);
	attr_read(dfd, "modalias", in->modalias, sizeof in->modalias);
	in->authorized = attr_authorized(dfd);
	/* driver_override_show writes "(null)" when none is set. */
	attr_read(dfd, "driver_override", in->driver_override,
	    sizeof in->driver_override);
	if (strcmp(in->driver_override, "(null)") == 0)
		in->driver_override[0] = '\0';
}

/*
 * The device an interface entry belongs to: "1-2:1.0" -> "1-2", a root
 * hub's "1-0:1.0" -> "usb1".
 */
static void
intf_parent(const char *name, char *out, size_t size)
{
	size_t	 n = strcspn(name, ":");
	unsigned bus;
	char	 rest[8];

	if (sscanf(name, "%u-%7[^:]", &bus, rest) == 2 &&
	    strcmp(rest, "0") == 0) {
		snprintf(out, size, "usb%u", bus);
		return;
	}
	snprintf(out, size, "%.*s", (int)n, name);
}

static int
dev_cmp(const void *a, const void *b)
{
	const struct sysfs_usb_dev *x = a, *y = b;

	if (x->busnum != y->busnum)
		return x->busnum < y->busnum ? -1 : 1;
	if (x->devnum != y->devnum)
		return x->devnum < y->devnum ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int
intf_cmp(const void *a, const void *b)
{
	const struct sysfs_usb_intf *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Append to a growing array of elements of size sz. */
static void *
grow(void *arr, size_t n, size_t *cap, size_t sz)
{
	void	*na;

	if (n < *cap)
		return arr;
	*cap = *cap == 0 ? 16 : *cap * 2;
	if ((na = realloc(arr, *cap * sz)) == NULL)
		return NULL;
	return na;
}

int
sysfs_usb_scan(const char *root, struct sysfs_usb_dev **out, size_t *n,
    char *err, size_t errlen)
{
	struct sysfs_usb_dev	*devs = NULL, *nd;
	struct sysfs_usb_intf	*intfs = NULL, *ni;
	struct dirent		*de;
	DIR			*dir;
	char			 path[4096], parent[64];
	size_t			 ndev = 0, devcap = 0, nintf = 0;
	size_t			 intfcap = 0, i, k;
	int			 dfd;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof path, "%s/bus/usb/devices",
	    root != NULL ? root : "/sys");
	if ((dir = opendir(path)) == NULL) {
		if (errno == ENOENT || errno == ENOTDIR)
			snprintf(err, errlen, "%s: no such directory (is sysfs "
			    "mounted?)", path);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		/* Follows the symlink; fails for an entry just removed. */
		dfd = openat(dirfd(dir), de->d_name,
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd == -1)
			continue;
		if (strchr(de->d_name, ':') == NULL) {
			nd = grow(devs, ndev, &devcap, sizeof *devs);
			if (nd == NULL)
				goto nomem;
			devs = nd;
			read_device(dfd, de->d_name, &devs[ndev++]);
		} else {
			ni = grow(intfs, nintf, &intfcap, sizeof *intfs);
			if (ni == NULL)
				goto nomem;
			intfs = ni;
			read_intf(dfd, de->d_name, &intfs[nintf++]);
		}
		close(dfd);
	}
	closedir(dir);

	for (k = 0; k < nintf; k++) {
		intf_parent(intfs[k].name, parent, sizeof parent);
		for (i = 0; i < ndev; i++) {
			if (strcmp(devs[i].name, parent) != 0)
				continue;
			if (devs[i].nintf < SYSFS_USB_MAXINTF)
				devs[i].intf[devs[i].nintf++] = intfs[k];
			break;
		}
	}
	free(intfs);
	for (i = 0; i < ndev; i++)
		qsort(devs[i].intf, devs[i].nintf, sizeof devs[i].intf[0],
		    intf_cmp);
	if (ndev > 0)
		qsort(devs, ndev, sizeof *devs, dev_cmp);
	*out = devs;
	*n = ndev;
	return 0;

nomem:
	close(dfd);
	closedir(dir);
	free(intfs);
	sysfs_usb_free(devs, ndev);
	snprintf(err, errlen, "%s: out of memory", path);
	return -1;
}

size_t
sysfs_attr(const char *path, char *buf, size_t size)
{
	return attr_read(AT_FDCWD, path, buf, size);
}

void
sysfs_link_name(const char *path, char *buf, size_t size)
{
	attr_driver(AT_FDCWD, path, buf, size);
}

void
sysfs_usb_free(struct sysfs_usb_dev *devs, size_t n)
{
	size_t	 i;

	if (devs == NULL)
		return;
	for (i = 0; i < n; i++)
		free(devs[i].desc);
	free(devs);
}
