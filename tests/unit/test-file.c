/*
 * tests/unit/test-file.c - minors of USB_MAJOR (core/file.c):
 * first-fit allocation from minor_base, names relative to the base, the
 * class device and its "dev" attribute, exhaustion and double
 * registration under both profiles, reuse after deregistration, and
 * usb_open's dispatch through the user side (core/vfs.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "machine.h"

/* The driver events of kinds this file looks at, copied. */
struct tev {
	enum drv_kind	 kind;
	int		 minor;
	int		 result;
	char		 driver[32];
	char		 func[32];
	char		 text[160];
};

static struct tev	 evs[256];
static size_t		 nevs;

static void
tev_sink(void *arg, const struct drv_event *ev)
{
	struct tev	*t;

	machine_event(arg, ev);
	if (ev->kind != DRV_REGISTER_DEV && ev->kind != DRV_DEREGISTER_DEV &&
	    ev->kind != DRV_OPEN && ev->kind != DRV_RELEASE)
		return;
	if (nevs == sizeof evs / sizeof evs[0])
		return;
	t = &evs[nevs++];
	memset(t, 0, sizeof *t);
	t->kind = ev->kind;
	t->minor = ev->minor;
	t->result = ev->result;
	snprintf(t->driver, sizeof t->driver, "%s", ev->driver != NULL ?
	    ev->driver : "");
	snprintf(t->func, sizeof t->func, "%s", ev->func != NULL ? ev->func :
	    "");
	snprintf(t->text, sizeof t->text, "%s", ev->text != NULL ? ev->text :
	    "");
}

/* The last event of kind, or NULL. */
static struct tev *
tev_last(enum drv_kind kind)
{
	size_t	 i;

	for (i = nevs; i > 0; i--) {
		if (evs[i - 1].kind == kind)
			return &evs[i - 1];
	}
	return NULL;
}

/* A machine with the loopback device configured on port 1, plus fake
 * interfaces to fill the minor table with. */
struct fx {
	struct machine	*m;
	struct usb_interface *intf;	/* loopback's interface 0 */
	struct usb_interface fake[MAX_USB_MINORS];
};

static int
fx_setup(void **state)
{
	struct fx	*f = calloc(1, sizeof *f);
	struct usb_device *dev;
	int		 i;

	assert_non_null(f);
	assert_non_null(f->m = machine_new());
	f->m->sim->sink.event = tev_sink;
	nevs = 0;
	assert_int_equal(machine_plug(f->m, 1, "loopback"), 0);
	machine_run(f->m, 3000);
	assert_non_null(dev = machine_device(f->m, 1));
	assert_int_equal(dev->state, USB_STATE_CONFIGURED);
	assert_non_null(f->intf = dev->actconfig->interface[0]);
	assert_int_equal(f->intf->minor, -1);
	for (i = 0; i < MAX_USB_MINORS; i++) {
		f->fake[i].minor = -1;
		snprintf(f->fake[i].name, sizeof f->fake[i].name, "9-9:1.%d",
		    i);
	}
	*state = f;
	return 0;
}

static int
fx_teardown(void **state)
{
	struct fx	*f = *state;

	machine_free(f->m);
	free(f);
	return 0;
}

/* File operations that record what they were called with. */
static struct {
	int		 opens, releases, reads, writes, ioctls;
	unsigned int	 rdev;
	int		 minor;
	const void	*f_op;
	char		 driver[32], func[32];
	int		 open_ret;
} calls;

static const struct file_operations test_fops;

static int
t_open(struct inode *inode, struct file *file)
{
	const char	*driver, *func;

	calls.opens++;
	calls.rdev = inode->i_rdev;
	calls.minor = (int)iminor(inode);
	calls.f_op = file->f_op;
	core_current_driver(&driver, &func);
	snprintf(calls.driver, sizeof calls.driver, "%s", driver ? driver :
	    "");
	snprintf(calls.func, sizeof calls.func, "%s", func ? func : "");
	file->private_data = &calls;
	return calls.open_ret;
}

static int
t_release(struct inode *inode, struct file *file)
{
	(void)inode;
	assert_ptr_equal(file->private_data, &calls);
	calls.releases++;
	return 0;
}

static ssize_t
t_read(struct file *file, char *buf, size_t count, loff_t *ppos)
{
	static const char msg[] = "hello";

	(void)file;
	calls.reads++;
	if (count > sizeof msg)
		count = sizeof msg;
	if (copy_to_user(buf, msg, count) != 0)
		return -EFAULT;
	*ppos += (loff_t)count;
	return (ssize_t)count;
}

static ssize_t
t_write(struct file *file, const char *buf, size_t count, loff_t *ppos)
{
	char	 tmp[16];

	(void)file;
	(void)ppos;
	calls.writes++;
	if (count > sizeof tmp)
		count = sizeof tmp;
	if (copy_from_user(tmp, buf, count) != 0)
		return -EFAULT;
	return (ssize_t)count;
}

static int
t_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
    unsigned long arg)
{
	(void)inode;
	(void)file;
	calls.ioctls++;
	return (int)(cmd + arg);
}

static const struct file_operations test_fops = {
	.open = t_open,
	.release = t_release,
	.read = t_read,
	.write = t_write,
	.ioctl = t_ioctl,
};

static struct usb_class_driver skel_class = {
	.name = "usb/skel%d",
	.fops = &test_fops,
	.mode = 0666,
	.minor_base = 192,
};

/* usb_register_dev as a driver's probe calls it. */
static int
reg(struct usb_interface *intf, struct usb_class_driver *cd)
{
	int	 ret;

	core_enter_driver("tdrv", "probe");
	ret = usb_register_dev(intf, cd);
	core_leave_driver();
	return ret;
}

static void
dereg(struct usb_interface *intf, struct usb_class_driver *cd)
{
	core_enter_driver("tdrv", "disconnect");
	usb_deregister_dev(intf, cd);
	core_leave_driver();
}

struct listing {
	int		 n;
	char		 path[8][64];
	char		 dev[8][16];
	char		 driver[8][16];
	char		 name[8][32];
	unsigned int	 mode[8];
	int		 minor[8];
};

static void
list_cb(void *arg, const struct vfs_entry *e)
{
	struct listing	*l = arg;

	if (l->n >= 8)
		return;
	snprintf(l->path[l->n], sizeof l->path[0], "%s", e->path);
	snprintf(l->dev[l->n], sizeof l->dev[0], "%s", e->dev);
	snprintf(l->driver[l->n], sizeof l->driver[0], "%s",
	    e->driver != NULL ? e->driver : "");
	snprintf(l->name[l->n], sizeof l->name[0], "%s", e->name);
	l->mode[l->n] = e->mode;
	l->minor[l->n] = e->minor;
	l->n++;
}

static void
test_order_and_names(void **state)
{
	struct fx	*f = *state;
	struct listing	 l;
	struct tev	*t;
	char		 buf[32];

	assert_int_equal(reg(f->intf, &skel_class), 0);
	assert_int_equal(f->intf->minor, 192);
	assert_true(core_intf_has_minor(f->intf));
	t = tev_last(DRV_REGISTER_DEV);
	assert_non_null(t);
	assert_int_equal(t->minor, 192);
	assert_int_equal(t->result, 0);
	assert_string_equal(t->driver, "tdrv");
	assert_non_null(strstr(t->text, "base=192"));
	assert_non_null(strstr(t->text, "node=/dev/usb/skel0"));

	/* the next one is first free upward, named relative to the base */
	assert_int_equal(reg(&f->fake[0], &skel_class), 0);
	assert_int_equal(f->fake[0].minor, 193);

	memset(&l, 0, sizeof l);
	assert_int_equal(vfs_list(f->m->sim, list_cb, &l), 4);
	assert_string_equal(l.path[0], "/dev/usb/skel0");
	assert_string_equal(l.path[1], "/sys/class/usbmisc/skel0");
	assert_string_equal(l.dev[1], "180:192");
	assert_string_equal(l.driver[0], "tdrv");
	assert_string_equal(l.name[0], "usb/skel0");
	assert_int_equal(l.mode[0], 0600);	/* modern: mode ignored */
	assert_string_equal(l.path[2], "/dev/usb/skel1");
	assert_string_equal(l.path[3], "/sys/class/usbmisc/skel1");
	assert_string_equal(l.dev[3], "180:193");
	assert_int_equal(vfs_read_attr(f->m->sim,
	    "/sys/class/usbmisc/skel1/dev", buf, sizeof buf), 8);
	assert_string_equal(buf, "180:193\n");
	assert_int_equal(vfs_read_attr(f->m->sim, "/sys/class/usbmisc/x/dev",
	    buf, sizeof buf), -ENOENT);

	/* a base of 0 and a name without a directory */
	{
		struct usb_class_driver hid = {
			.name = "hiddev%d", .fops = &test_fops,
		};

		assert_int_equal(reg(&f->fake[1], &hid), 0);
		assert_int_equal(f->fake[1].minor, 0);
		assert_int_equal(reg(&f->fake[2], &hid), 0);
		assert_int_equal(f->fake[2].minor, 1);
		assert_int_equal(vfs_read_attr(f->m->sim,
		    "/sys/class/usbmisc/hiddev1/dev", buf, sizeof buf), 6);
		assert_string_equal(buf, "180:1\n");
	}
}

static void
test_bad_class_driver(void **state)
{
	struct fx	*f = *state;
	struct usb_class_driver none = { .name = "usb/x%d", .minor_base = 0 };

	assert_int_equal(reg(f->intf, &none), -EINVAL);
	assert_int_equal(f->intf->minor, -1);
	assert_int_equal(tev_last(DRV_REGISTER_DEV)->result, -EINVAL);
	assert_false(core_intf_has_minor(f->intf));
}

/* Fill minors 250..255, then one more. */
static void
fill_to_full(struct fx *f, int expect)
{
	struct usb_class_driver cd = {
		.name = "usb/lp%d", .fops = &test_fops, .mode = 0644,
		.minor_base = 250,
	};
	int		 i;

	for (i = 0; i < 6; i++) {
		assert_int_equal(reg(&f->fake[i], &cd), 0);
		assert_int_equal(f->fake[i].minor, 250 + i);
	}
	assert_int_equal(reg(&f->fake[6], &cd), expect);
	assert_int_equal(f->fake[6].minor, -1);
	assert_int_equal(tev_last(DRV_REGISTER_DEV)->result, expect);
}

static void
test_full_modern(void **state)
{
	fill_to_full(*state, -EXFULL);
}

static void
test_full_260(void **state)
{
	struct fx	*f = *state;
	struct listing	 l;

	assert_int_equal(core_set_profile(f->m->sim, CORE_PROFILE_260), 0);
	fill_to_full(f, -EINVAL);
	/* 2.6.0's class is "usb" */
	memset(&l, 0, sizeof l);
	vfs_list(f->m->sim, list_cb, &l);
	assert_string_equal(l.path[1], "/sys/class/usb/lp0");
	assert_int_equal(l.mode[0], 0644);	/* 2.6.0: devfs mode */
	assert_int_equal(core_set_profile(f->m->sim, 7), -EINVAL);
}

static void
test_twice(void **state)
{
	struct fx	*f = *state;

	/* modern: -EADDRINUSE, the first minor stays */
	assert_int_equal(reg(f->intf, &skel_class), 0);
	assert_int_equal(reg(f->intf, &skel_class), -EADDRINUSE);
	assert_int_equal(f->intf->minor, 192);
	dereg(f->intf, &skel_class);
	assert_int_equal(f->intf->minor, -1);

	/* 2.6.0 does not check: a second minor, the first one leaks */
	core_set_profile(f->m->sim, CORE_PROFILE_260);
	assert_int_equal(reg(f->intf, &skel_class), 0);
	assert_int_equal(reg(f->intf, &skel_class), 0);
	assert_int_equal(f->intf->minor, 193);
	dereg(f->intf, &skel_class);
	assert_int_equal(f->intf->minor, -1);
	assert_true(core_intf_has_minor(f->intf));	/* 192 leaked */
}

static void
test_reuse(void **state)
{
	struct fx	*f = *state;
	struct tev	*t;

	assert_int_equal(reg(f->intf, &skel_class), 0);
	assert_int_equal(reg(&f->fake[0], &skel_class), 0);
	dereg(f->intf, &skel_class);
	assert_int_equal(f->intf->minor, -1);
	assert_false(core_intf_has_minor(f->intf));
	t = tev_last(DRV_DEREGISTER_DEV);
	assert_non_null(t);
	assert_int_equal(t->minor, 192);
	assert_string_equal(t->driver, "tdrv");
	/* first fit again: 192, "skel0" */
	assert_int_equal(reg(&f->fake[1], &skel_class), 0);
	assert_int_equal(f->fake[1].minor, 192);
	assert_non_null(strstr(tev_last(DRV_REGISTER_DEV)->text,
	    "/dev/usb/skel0"));
	/* deregistering an interface without a minor does nothing */
	dereg(f->intf, &skel_class);
	assert_int_equal(tev_last(DRV_DEREGISTER_DEV)->minor, 192);
}

/* A node name given back at one minor and taken again at another opens
 * the live one. */
static void
test_stale_node(void **state)
{
	struct fx	*f = *state;
	struct usb_class_driver low = {
		.name = "usb/skel%d", .fops = &test_fops, .minor_base = 100,
	};
	int		 fd;

	memset(&calls, 0, sizeof calls);
	assert_int_equal(reg(&f->fake[0], &low), 0);
	assert_int_equal(f->fake[0].minor, 100);
	dereg(&f->fake[0], &low);
	assert_int_equal(vfs_open(f->m->sim, "/dev/usb/skel0"), -ENODEV);
	assert_int_equal(reg(&f->fake[1], &skel_class), 0);
	assert_int_equal(f->fake[1].minor, 192);
	fd = vfs_open(f->m->sim, "/dev/usb/skel0");
	assert_true(fd >= 0);
	assert_int_equal(calls.minor, 192);
	assert_int_equal(vfs_close(fd), 0);
}

static void
test_open(void **state)
{
	struct fx	*f = *state;
	struct tev	*t;
	char		 buf[16];
	int		 fd;

	memset(&calls, 0, sizeof calls);
	assert_int_equal(reg(&f->fake[0], &skel_class), 0);	/* 192 */
	assert_int_equal(reg(f->intf, &skel_class), 0);		/* 193 */
	assert_int_equal(vfs_open(f->m->sim, "/dev/usb/skel2"), -ENOENT);

	fd = vfs_open(f->m->sim, "/dev/usb/skel1");
	assert_true(fd >= 0);
	assert_int_equal(calls.opens, 1);
	assert_int_equal(calls.rdev, 180u << 8 | 193);
	assert_int_equal(calls.minor, 193);
	assert_ptr_equal(calls.f_op, &test_fops);
	assert_string_equal(calls.driver, "tdrv");
	assert_string_equal(calls.func, "open");
	t = tev_last(DRV_OPEN);
	assert_int_equal(t->minor, 193);
	assert_int_equal(t->result, 0);
	assert_string_equal(t->driver, "tdrv");

	assert_int_equal(vfs_read(fd, buf, sizeof buf), 6);
	assert_string_equal(buf, "hello");
	assert_int_equal(vfs_write(fd, "abc", 3), 3);
	assert_int_equal(vfs_ioctl(fd, 5, 2), 7);
	assert_int_equal(calls.reads + calls.writes + calls.ioctls, 3);

	/* the device goes; the open file stays the driver's business */
	dereg(f->intf, &skel_class);
	assert_int_equal(vfs_read(fd, buf, sizeof buf), 6);
	assert_int_equal(vfs_close(fd), 0);
	assert_int_equal(calls.releases, 1);
	assert_int_equal(tev_last(DRV_RELEASE)->minor, 193);
	assert_int_equal(vfs_close(fd), -EBADF);
	assert_int_equal(vfs_read(fd, buf, sizeof buf), -EBADF);

	/* the node stays (static /dev), its minor has no fops: -ENODEV */
	assert_int_equal(vfs_open(f->m->sim, "/dev/usb/skel1"), -ENODEV);
	assert_int_equal(tev_last(DRV_OPEN)->result, -ENODEV);
	assert_int_equal(calls.opens, 1);

	/* open's error is the open's result, no descriptor */
	calls.open_ret = -EBUSY;
	assert_int_equal(vfs_open(f->m->sim, "/dev/usb/skel0"), -EBUSY);
	assert_int_equal(tev_last(DRV_OPEN)->result, -EBUSY);
}

/* A minor never given back stays taken after its interface is gone. */
static void
test_leak_after_unplug(void **state)
{
	struct fx	*f = *state;
	struct usb_interface *gone = f->intf;
	struct listing	 l;

	assert_int_equal(reg(f->intf, &skel_class), 0);
	machine_unplug(f->m, 1);
	machine_run(f->m, 500);
	assert_null(machine_device(f->m, 1));
	assert_false(core_intf_has_minor(gone));
	memset(&l, 0, sizeof l);
	assert_int_equal(vfs_list(f->m->sim, list_cb, &l), 2);
	assert_int_equal(l.minor[0], 192);
	/* the next registration gets 193 */
	assert_int_equal(reg(&f->fake[0], &skel_class), 0);
	assert_int_equal(f->fake[0].minor, 193);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t)	cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
		T(test_order_and_names),
		T(test_bad_class_driver),
		T(test_full_modern),
		T(test_full_260),
		T(test_twice),
		T(test_reuse),
		T(test_stale_node),
		T(test_open),
		T(test_leak_after_unplug),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
