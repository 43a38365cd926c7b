/*
 * core/file.c - minors of USB_MAJOR and the virtual devfs/sysfs
 * (drivers/usb/core/file.c, in its 2.6.0 and modern forms): the
 * table of MAX_USB_MINORS file operations filled first-fit from a class
 * driver's minor_base, the node /dev/NAME and the class device
 * /sys/class/{usb,usbmisc}/BASENAME with its "dev" attribute, usb_open's
 * dispatch, and the user side of core/vfs.h.
 *
 * The two profiles differ as usb_register_dev does in the two kernels: a
 * full table is -EINVAL in 2.6.0 and -EXFULL in modern kernels; an
 * interface that registers twice gets -EADDRINUSE in modern kernels,
 * while 2.6.0 hands it a second minor (the first one leaks); a class
 * device name already taken makes modern registration fail (-EEXIST,
 * device_create) and is skipped silently by 2.6.0.
 *
 * /dev behaves like a static, mknod'ed /dev: a node stays after its minor
 * was given back, and opening it then fails with -ENODEV, as usb_open
 * does for a minor without file operations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hcd.h"

#define MINOR_NAME_SIZE	32		/* 2.6.0's BUS_ID_SIZE was 20 */

struct usb_minor {
	const struct file_operations *fops;	/* NULL: free */
	struct usb_interface *intf;		/* owner; NULL once freed */
	const char	*driver;		/* the registering driver */
	char		 intfname[32];
	uint16_t	 busnum;
	uint8_t		 devnum;
	int16_t		 ifnum;
	int		 used;			/* ever registered: node kept */
	unsigned int	 mode;
	char		 name[MINOR_NAME_SIZE];	/* "usb/skel0" */
	char		 node[MINOR_NAME_SIZE + 8];	/* "/dev/usb/skel0" */
	char		 cls[MINOR_NAME_SIZE + 24];	/* or "": no class
							 * device */
	char		 dev[16];		/* "180:192" */
};

struct vfs_file {
	int		 used;
	int		 minor;
	const char	*driver;
	struct inode	 inode;
	struct file	 file;
};

static struct usb_core *
file_core(struct sim *s)
{
	struct usb_core	*c;

	if ((c = usb_core_get(s)) == NULL)
		return NULL;
	if (c->minors == NULL &&
	    (c->minors = calloc(MAX_USB_MINORS, sizeof *c->minors)) == NULL)
		return NULL;
	if (c->files == NULL &&
	    (c->files = calloc(VFS_MAX_FILES, sizeof *c->files)) == NULL)
		return NULL;
	return c;
}

void
file_core_free(struct usb_core *c)
{
	free(c->minors);
	free(c->files);
	c->minors = NULL;
	c->files = NULL;
}

int
core_set_profile(struct sim *s, int profile)
{
	struct usb_core	*c;
	struct drv_event ev;
	char		 text[64];

	if (profile != CORE_PROFILE_MODERN && profile != CORE_PROFILE_260)
		return -EINVAL;
	if ((c = usb_core_get(s)) == NULL)
		return -ENOMEM;
	c->profile = profile;
	/* the log says which profile runs */
	snprintf(text, sizeof text, "usbcore: behaviour profile %s",
	    profile == CORE_PROFILE_260 ? "2.6.0" : "modern");
	core_event_init(&ev, DRV_LOG, NULL, NULL);
	ev.driver = "usbcore";
	ev.func = "core_set_profile";
	ev.text = text;
	core_event_emit(&ev);
	return 0;
}

int
core_profile(void)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;

	return c != NULL ? c->profile : CORE_PROFILE_MODERN;
}

int
core_intf_has_minor(struct usb_interface *intf)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;
	int		 i;

	if (intf == NULL || c == NULL || c->minors == NULL)
		return 0;
	for (i = 0; i < MAX_USB_MINORS; i++) {
		if (c->minors[i].fops != NULL && c->minors[i].intf == intf)
			return 1;
	}
	return 0;
}

void
file_intf_gone(struct usb_interface *intf)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;
	int		 i;

	if (intf == NULL || c == NULL || c->minors == NULL)
		return;
	for (i = 0; i < MAX_USB_MINORS; i++) {
		if (c->minors[i].intf == intf)
			c->minors[i].intf = NULL;
	}
}

/*
 * The class driver's name format with n, as the kernel's sprintf would
 * give it for the formats drivers use ("usb/skel%d", "hiddev%d"): %d,
 * %i and %u take n, %% is a '%', anything else is copied.  The format is
 * the driver's, so it is never handed to printf.  0, or -ENAMETOOLONG.
 */
static int
minor_name(char *buf, size_t size, const char *fmt, int n)
{
	char		 num[16];
	size_t		 len = 0, k;
	const char	*p, *add;

	for (p = fmt; *p != '\0'; p++) {
		add = NULL;
		if (p[0] == '%' && (p[1] == 'd' || p[1] == 'i' ||
		    p[1] == 'u')) {
			snprintf(num, sizeof num, "%d", n);
			add = num;
			p++;
		} else if (p[0] == '%' && p[1] == '%')
			p++;
		k = add != NULL ? strlen(add) : 1;
		if (len + k >= size)
			return -ENAMETOOLONG;
		if (add != NULL)
			memcpy(buf + len, add, k);
		else
			buf[len] = *p;
		len += k;
	}
	buf[len] = '\0';
	return 0;
}

/* DRV_REGISTER_DEV / DRV_DEREGISTER_DEV, with their log lines. */
static void
minor_event(enum drv_kind kind, struct usb_interface *intf,
    const struct usb_class_driver *cd, int minor, const char *node, int ret)
{
	struct drv_event ev;
	char		 text[256];

	if (kind == DRV_REGISTER_DEV)
		snprintf(text, sizeof text, "register_dev intf=%s base=%d "
		    "dyn=0 -> minor=%d node=%s ret=%d", intf->name,
		    cd != NULL ? cd->minor_base : -1, minor,
		    node != NULL ? node : "-", ret);
	else
		snprintf(text, sizeof text, "deregister_dev intf=%s minor=%d "
		    "node=%s", intf->name, minor, node != NULL ? node : "-");
	core_event_init(&ev, kind, NULL, intf);
	ev.minor = minor;
	ev.result = ret;
	ev.text = text;
	core_event_emit(&ev);
}

/*
 * Give intf the first free minor from class_driver->minor_base, first
 * fit as in 2.6.0 and modern kernels.  0, -EINVAL (no fops; 2.6.0: table
 * full), -EXFULL (modern: table full), -EADDRINUSE (modern: intf has a
 * minor), -EEXIST (modern: class device name taken), -ENAMETOOLONG,
 * -ENOMEM.
 */
int
usb_register_dev(struct usb_interface *intf,
    struct usb_class_driver *class_driver)
{
	struct usb_core	*c = file_core(core_sim());
	struct usb_minor *m = NULL;
	const char	*driver = NULL, *base;
	char		 name[MINOR_NAME_SIZE], cls[MINOR_NAME_SIZE + 24];
	int		 minor = -1, i, modern, ret;

	if (intf == NULL)
		return -EINVAL;
	modern = core_profile() == CORE_PROFILE_MODERN;
	if (c == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	if (class_driver == NULL || class_driver->fops == NULL ||
	    class_driver->name == NULL) {
		ret = -EINVAL;
		goto fail;
	}
	if (modern && intf->minor >= 0) {
		ret = -EADDRINUSE;
		goto fail;
	}
	/* 2.6.0 forgets a minor intf already has: it leaks */
	for (i = class_driver->minor_base; i >= 0 && i < MAX_USB_MINORS; i++) {
		if (c->minors[i].fops == NULL) {
			minor = i;
			break;
		}
	}
	if (minor < 0) {
		ret = modern ? -EXFULL : -EINVAL;
		goto fail;
	}
	if ((ret = minor_name(name, sizeof name, class_driver->name,
	    minor - class_driver->minor_base)) != 0)
		goto fail;
	base = strrchr(name, '/') != NULL ? strrchr(name, '/') + 1 : name;
	snprintf(cls, sizeof cls, "/sys/class/%s/%s", modern ? "usbmisc" :
	    "usb", base);
	for (i = 0; i < MAX_USB_MINORS; i++) {
		if (c->minors[i].fops != NULL &&
		    strcmp(c->minors[i].cls, cls) == 0)
			break;
	}
	if (i < MAX_USB_MINORS) {
		if (modern) {
			ret = -EEXIST;	/* device_create failed */
			goto fail;
		}
		cls[0] = '\0';		/* 2.6.0: no class device, still 0 */
	}

	m = &c->minors[minor];
	memset(m, 0, sizeof *m);
	(void)core_current_driver(&driver, NULL);
	if (driver == NULL && intf->driver != NULL)
		driver = intf->driver->name;
	m->fops = class_driver->fops;
	m->intf = intf;
	m->driver = driver;
	m->used = 1;
	/* 2.6.0's devfs_mk_cdev honours mode; modern kernels ignore it */
	m->mode = modern ? 0600 : class_driver->mode;
	snprintf(m->intfname, sizeof m->intfname, "%s", intf->name);
	if (intf->usbdev != NULL) {
		m->busnum = (uint16_t)(intf->usbdev->bus != NULL ?
		    intf->usbdev->bus->busnum : 0);
		m->devnum = (uint8_t)intf->usbdev->devnum;
	}
	m->ifnum = intf->cur_altsetting != NULL ?
	    intf->cur_altsetting->desc.bInterfaceNumber : -1;
	memcpy(m->name, name, sizeof m->name);
	snprintf(m->node, sizeof m->node, "/dev/%s", name);
	memcpy(m->cls, cls, sizeof m->cls);
	snprintf(m->dev, sizeof m->dev, "%d:%d", USB_MAJOR, minor);
	intf->minor = minor;
	minor_event(DRV_REGISTER_DEV, intf, class_driver, minor, m->node, 0);
	return 0;
fail:
	if (ret != -EADDRINUSE)
		intf->minor = -1;	/* 2.6.0: even one it had */
	minor_event(DRV_REGISTER_DEV, intf, class_driver, -1, NULL, ret);
	return ret;
}

/* Give intf's minor back; the node stays (static /dev), the class
 * device goes.  Nothing when intf has no minor. */
void
usb_deregister_dev(struct usb_interface *intf,
    struct usb_class_driver *class_driver)
{
	struct usb_core	*c = file_core(core_sim());
	struct usb_minor *m;
	int		 minor;

	if (intf == NULL || (minor = intf->minor) < 0 ||
	    minor >= MAX_USB_MINORS || c == NULL)
		return;
	m = &c->minors[minor];
	minor_event(DRV_DEREGISTER_DEV, intf, class_driver, minor, m->node,
	    0);
	m->fops = NULL;
	m->intf = NULL;
	m->cls[0] = '\0';
	intf->minor = -1;
}

unsigned long
copy_to_user(void *to, const void *from, unsigned long n)
{
	if (n == 0)
		return 0;
	if (to == NULL || from == NULL)
		return n;		/* nothing copied: -EFAULT */
	memcpy(to, from, n);
	return 0;
}

unsigned long
copy_from_user(void *to, const void *from, unsigned long n)
{
	return copy_to_user(to, from, n);
}

/* ------------------------------------------------------------------------
 * The user side (core/vfs.h).
 */

/* DRV_OPEN / DRV_RELEASE, with usb_open's log line. */
static void
file_event(enum drv_kind kind, const struct usb_minor *m, int minor,
    const char *driver, int ret)
{
	struct drv_event ev;
	char		 text[160];

	snprintf(text, sizeof text, "%s minor=%d fops=%s ret=%d",
	    kind == DRV_OPEN ? "usb_open" : "release", minor,
	    driver != NULL ? driver : "-", ret);
	core_event_init(&ev, kind, NULL, NULL);
	if (m != NULL && m->used) {
		ev.busnum = m->busnum;
		ev.devnum = m->devnum;
		ev.intf = m->ifnum;
	}
	ev.driver = driver;
	ev.func = kind == DRV_OPEN ? "open" : "release";
	ev.minor = minor;
	ev.result = ret;
	ev.text = text;
	core_event_emit(&ev);
}

/* Call the driver's file operation func on f: inside, events are its
 * minor's interface's. */
static void
file_enter(const struct vfs_file *f, const char *func)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;
	const struct usb_minor *m = NULL;

	if (c != NULL && c->minors != NULL)
		m = &c->minors[f->minor];
	if (m != NULL && m->used)
		core_enter_file(f->driver, func, m->busnum, m->devnum,
		    m->ifnum);
	else
		core_enter_driver(f->driver, func);
}

int
vfs_open(struct sim *s, const char *path)
{
	struct usb_core	*c = file_core(s);
	struct usb_minor *m = NULL;
	struct vfs_file	*f;
	int		 fd, minor, ret = 0;

	if (c == NULL)
		return -ENOMEM;
	if (path == NULL)
		return -EFAULT;
	/* a live node first; a stale one of the same name only after */
	for (minor = 0; minor < 2 * MAX_USB_MINORS; minor++) {
		m = &c->minors[minor % MAX_USB_MINORS];
		if (m->used && (m->fops != NULL || minor >= MAX_USB_MINORS) &&
		    strcmp(m->node, path) == 0)
			break;
	}
	if (minor == 2 * MAX_USB_MINORS)
		return -ENOENT;
	minor %= MAX_USB_MINORS;
	if (m->fops == NULL) {
		/* usb_open: no file operations for this minor */
		file_event(DRV_OPEN, m, minor, NULL, -ENODEV);
		return -ENODEV;
	}
	for (fd = 0; fd < VFS_MAX_FILES && c->files[fd].used; fd++)
		continue;
	if (fd == VFS_MAX_FILES)
		return -EMFILE;
	f = &c->files[fd];
	memset(f, 0, sizeof *f);
	f->minor = minor;
	f->driver = m->driver;
	f->inode.i_rdev = (unsigned int)(USB_MAJOR << 8 | minor);
	f->file.f_op = m->fops;
	if (f->file.f_op->open != NULL) {
		file_enter(f, "open");
		ret = f->file.f_op->open(&f->inode, &f->file);
		core_leave_driver();
	}
	file_event(DRV_OPEN, m, minor, f->driver, ret);
	if (ret != 0)
		return ret;
	f->used = 1;
	return fd;
}

static struct vfs_file *
vfs_file(int fd)
{
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;

	if (c == NULL || c->files == NULL || fd < 0 || fd >= VFS_MAX_FILES ||
	    !c->files[fd].used)
		return NULL;
	return &c->files[fd];
}

ssize_t
vfs_read(int fd, void *buf, size_t count)
{
	struct vfs_file	*f;
	ssize_t		 n;

	if ((f = vfs_file(fd)) == NULL)
		return -EBADF;
	if (f->file.f_op == NULL || f->file.f_op->read == NULL)
		return -EINVAL;
	file_enter(f, "read");
	n = f->file.f_op->read(&f->file, buf, count, &f->file.f_pos);
	core_leave_driver();
	return n;
}

ssize_t
vfs_write(int fd, const void *buf, size_t count)
{
	struct vfs_file	*f;
	ssize_t		 n;

	if ((f = vfs_file(fd)) == NULL)
		return -EBADF;
	if (f->file.f_op == NULL || f->file.f_op->write == NULL)
		return -EINVAL;
	file_enter(f, "write");
	n = f->file.f_op->write(&f->file, buf, count, &f->file.f_pos);
	core_leave_driver();
	return n;
}

int
vfs_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	struct vfs_file	*f;
	int		 ret;

	if ((f = vfs_file(fd)) == NULL)
		return -EBADF;
	if (f->file.f_op == NULL || f->file.f_op->ioctl == NULL)
		return -ENOTTY;
	file_enter(f, "ioctl");
	ret = f->file.f_op->ioctl(&f->inode, &f->file, cmd, arg);
	core_leave_driver();
	return ret;
}

int
vfs_close(int fd)
{
	struct vfs_file	*f;
	struct sim	*s = core_sim();
	struct usb_core	*c = s != NULL ? s->core : NULL;
	const struct usb_minor *m = NULL;
	int		 ret = 0;

	if ((f = vfs_file(fd)) == NULL)
		return -EBADF;
	if (f->file.f_op != NULL && f->file.f_op->release != NULL) {
		file_enter(f, "release");
		ret = f->file.f_op->release(&f->inode, &f->file);
		core_leave_driver();
	}
	if (c != NULL && c->minors != NULL)
		m = &c->minors[f->minor];
	file_event(DRV_RELEASE, m, f->minor, f->driver, ret);
	memset(f, 0, sizeof *f);
	return ret;
}

int
vfs_list(struct sim *s, void (*cb)(void *arg, const struct vfs_entry *e),
    void *arg)
{
	struct usb_core	*c = s != NULL ? s->core : NULL;
	struct usb_minor *m;
	struct vfs_entry e;
	int		 i, n = 0;

	if (c == NULL || c->minors == NULL)
		return 0;
	for (i = 0; i < MAX_USB_MINORS; i++) {
		m = &c->minors[i];
		if (m->fops == NULL)
			continue;
		memset(&e, 0, sizeof e);
		e.minor = i;
		e.name = m->name;
		e.node = m->node;
		e.mode = m->mode;
		e.dev = m->dev;
		e.driver = m->driver;
		e.intf = m->intfname;
		e.path = m->node;
		if (cb != NULL)
			cb(arg, &e);
		n++;
		if (m->cls[0] == '\0')
			continue;
		e.path = m->cls;
		e.is_class = 1;
		if (cb != NULL)
			cb(arg, &e);
		n++;
	}
	return n;
}

int
vfs_read_attr(struct sim *s, const char *path, char *buf, size_t size)
{
	struct usb_core	*c = s != NULL ? s->core : NULL;
	struct usb_minor *m;
	size_t		 len;
	int		 i;

	if (c == NULL || c->minors == NULL || path == NULL || size == 0)
		return -ENOENT;
	for (i = 0; i < MAX_USB_MINORS; i++) {
		m = &c->minors[i];
		len = strlen(m->cls);
		if (m->fops == NULL || len == 0 ||
		    strncmp(path, m->cls, len) != 0 ||
		    strcmp(path + len, "/dev") != 0)
			continue;
		return snprintf(buf, size, "%s\n", m->dev);
	}
	return -ENOENT;
}
