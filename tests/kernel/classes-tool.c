/*
 * tests/kernel/classes-tool.c - class traffic the guest of
 * `vm.sh --devices classes` cannot make with busybox alone (it has no
 * alsa-lib, pcscd or libmtp), straight through the kernel's interfaces:
 *
 *   classes-tool tone PCM MS
 *       plays MS milliseconds of a 1 kHz tone, 48 kHz stereo S16_LE, on
 *       the ALSA PCM node PCM (e.g. /dev/snd/pcmC0D0p), with the raw
 *       ioctls: snd-usb-audio then selects the streaming alternate
 *       setting, sets the sample rate and streams isochronous OUT data
 *   classes-tool bulk DEVNODE INTF OUT-EP HEX IN-EP COUNT
 *       claims interface INTF of the usbfs node DEVNODE (e.g.
 *       /dev/bus/usb/002/005), writes the bytes HEX to bulk endpoint
 *       OUT-EP, then makes COUNT reads of up to 512 bytes from IN-EP,
 *       printing what came back in hex (a CCID or MTP command and its
 *       answer)
 *   classes-tool break TTY
 *       sends a break (tcsendbreak) on the serial port TTY (e.g.
 *       /dev/ttyACM0): cdc-acm sends SEND_BREAK on and off
 *   classes-tool modem TTY LINES
 *       sets the modem control lines of TTY to LINES (dtr, rts, both or
 *       none): cdc-acm sends SET_CONTROL_LINE_STATE
 *   classes-tool usbip VUDC VHCI PORT
 *       wires the usbip virtual device controller whose sysfs folder is
 *       VUDC (e.g. /sys/devices/platform/usbip-vudc.0, a gadget bound to
 *       it) to port PORT of the usbip virtual host controller VHCI (e.g.
 *       /sys/devices/platform/vhci_hcd.0) through a local socket pair, as
 *       `usbip attach` would through TCP, then waits for a signal (the
 *       kernel holds the sockets)
 *   classes-tool uvc-gadget VIDEODEV SECONDS
 *       the user-space half of a UVC gadget function (usb_f_uvc) whose
 *       V4L2 node is VIDEODEV, for SECONDS: subscribing to its events lets
 *       the gadget connect, and each class request the host sends is
 *       answered (GET_INFO: 3; the streaming probe and commit controls:
 *       format 1, frame 1, 333333 x 100 ns, 38400 bytes a frame, 1024
 *       bytes a payload; other GETs: zeros; SETs: accepted); it never
 *       streams
 *
 * Built by vm.sh on the host for the guest; exit status 0 when every
 * step worked.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/g_uvc.h>
#include <linux/usb/video.h>
#include <linux/usbdevice_fs.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <math.h>
#include <sound/asound.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <termios.h>
#include <unistd.h>

static int fail(const char *what)
{
	fprintf(stderr, "classes-tool: %s: %s\n", what, strerror(errno));
	return 1;
}

static void mask_set(struct snd_pcm_hw_params *p, int param, unsigned v)
{
	struct snd_mask *m = &p->masks[param - SNDRV_PCM_HW_PARAM_FIRST_MASK];

	memset(m, 0, sizeof *m);
	m->bits[v / 32] = 1u << (v % 32);
}

static void interval_set(struct snd_pcm_hw_params *p, int param, unsigned v)
{
	struct snd_interval *i =
	    &p->intervals[param - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];

	memset(i, 0, sizeof *i);
	i->min = i->max = v;
	i->integer = 1;
}

/* pcm_open PCM: PCM opened and set to 48 kHz stereo S16_LE, or -1 */
static int pcm_open(const char *pcm)
{
	struct snd_pcm_hw_params p;
	int fd, i;

	fd = open(pcm, O_RDWR);
	if (fd < 0)
		return fail(pcm), -1;
	memset(&p, 0, sizeof p);
	for (i = 0; i <= SNDRV_PCM_HW_PARAM_LAST_MASK -
	    SNDRV_PCM_HW_PARAM_FIRST_MASK; i++)
		memset(&p.masks[i], 0xff, sizeof p.masks[i]);
	for (i = 0; i <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL -
	    SNDRV_PCM_HW_PARAM_FIRST_INTERVAL; i++)
		p.intervals[i].max = ~0u;
	p.rmask = ~0u;
	mask_set(&p, SNDRV_PCM_HW_PARAM_ACCESS,
	    SNDRV_PCM_ACCESS_RW_INTERLEAVED);
	mask_set(&p, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_LE);
	mask_set(&p, SNDRV_PCM_HW_PARAM_SUBFORMAT, SNDRV_PCM_SUBFORMAT_STD);
	interval_set(&p, SNDRV_PCM_HW_PARAM_CHANNELS, 2);
	interval_set(&p, SNDRV_PCM_HW_PARAM_RATE, 48000);
	if (ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p) < 0)
		return fail("SNDRV_PCM_IOCTL_HW_PARAMS"), -1;
	if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) < 0)
		return fail("SNDRV_PCM_IOCTL_PREPARE"), -1;
	return fd;
}

static int tone(const char *pcm, int ms)
{
	struct snd_xferi x;
	static short buf[48 * 2 * 10];	/* 10 ms */
	int fd, i, n;

	fd = pcm_open(pcm);
	if (fd < 0)
		return 1;
	for (i = 0; i < 480; i++)
		buf[2 * i] = buf[2 * i + 1] =
		    (short)(8000 * sin(2 * M_PI * i / 48.0));
	for (n = 0; n < ms; n += 10) {
		x.result = 0;
		x.buf = buf;
		x.frames = 480;
		if (ioctl(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x) < 0)
			return fail("SNDRV_PCM_IOCTL_WRITEI_FRAMES");
	}
	if (ioctl(fd, SNDRV_PCM_IOCTL_DRAIN) < 0)
		return fail("SNDRV_PCM_IOCTL_DRAIN");
	close(fd);
	printf("tone: %d ms played\n", n);
	return 0;
}

static int sendbreak(const char *tty)
{
	int fd = open(tty, O_RDWR | O_NOCTTY);

	if (fd < 0)
		return fail(tty);
	if (tcsendbreak(fd, 0) < 0)
		return fail("tcsendbreak");
	close(fd);
	printf("break: sent on %s\n", tty);
	return 0;
}

static int modem(const char *tty, const char *lines)
{
	int fd = open(tty, O_RDWR | O_NOCTTY), set = 0, all = TIOCM_DTR |
	    TIOCM_RTS;

	if (fd < 0)
		return fail(tty);
	if (strcmp(lines, "dtr") == 0 || strcmp(lines, "both") == 0)
		set |= TIOCM_DTR;
	if (strcmp(lines, "rts") == 0 || strcmp(lines, "both") == 0)
		set |= TIOCM_RTS;
	all &= ~set;
	if (ioctl(fd, TIOCMBIC, &all) < 0 || ioctl(fd, TIOCMBIS, &set) < 0)
		return fail("TIOCMBIC/TIOCMBIS");
	usleep(200000);
	close(fd);
	printf("modem: %s on %s\n", lines, tty);
	return 0;
}

/* put FILE TEXT: write TEXT to the sysfs attribute FILE */
static int put(const char *dir, const char *file, const char *text)
{
	char path[512];
	int fd;
	ssize_t n;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return fail(path);
	n = write(fd, text, strlen(text));
	if (n < 0)
		return fail(path);
	close(fd);
	return 0;
}

static int usbip(const char *vudc, const char *vhci, const char *port)
{
	char text[64];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return fail("socketpair");
	snprintf(text, sizeof text, "%d", sv[0]);
	if (put(vudc, "usbip_sockfd", text))
		return 1;
	/* port, socket, device id (bus 1 device 2), USB_SPEED_HIGH */
	snprintf(text, sizeof text, "%s %d %d 3", port, sv[1], 1 << 16 | 2);
	if (put(vhci, "attach", text))
		return 1;
	printf("usbip: %s attached to %s port %s\n", vudc, vhci, port);
	fflush(stdout);
	pause();
	return 0;
}

static int uvc_gadget(const char *dev, int seconds)
{
	static const int types[] = {
		UVC_EVENT_CONNECT, UVC_EVENT_DISCONNECT, UVC_EVENT_SETUP,
		UVC_EVENT_DATA, UVC_EVENT_STREAMON, UVC_EVENT_STREAMOFF
	};
	struct v4l2_event_subscription sub;
	struct v4l2_event ev;
	struct uvc_event *u = (struct uvc_event *)&ev.u.data;
	struct uvc_request_data r;
	struct uvc_streaming_control c;
	struct pollfd pfd;
	time_t end = time(NULL) + seconds;
	unsigned i, len;
	int fd = open(dev, O_RDWR | O_NONBLOCK);

	if (fd < 0)
		return fail(dev);
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		memset(&sub, 0, sizeof sub);
		sub.type = types[i];
		if (ioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub) < 0)
			return fail("VIDIOC_SUBSCRIBE_EVENT");
	}
	printf("uvc-gadget: %s subscribed\n", dev);
	fflush(stdout);
	while (time(NULL) < end) {
		pfd.fd = fd;
		pfd.events = POLLPRI;
		if (poll(&pfd, 1, 500) <= 0)
			continue;
		if (ioctl(fd, VIDIOC_DQEVENT, &ev) < 0)
			continue;
		if (ev.type != UVC_EVENT_SETUP) {
			printf("uvc-gadget: event %u\n",
			    ev.type - UVC_EVENT_FIRST);
			fflush(stdout);
			continue;
		}
		memset(&r, 0, sizeof r);
		len = u->req.wLength;
		if (len > sizeof r.data)
			len = sizeof r.data;
		r.length = len;
		if (u->req.bRequestType & 0x80) {
			if (u->req.bRequest == UVC_GET_INFO)
				r.data[0] = 3;
			else if (len >= 26 && (u->req.wValue >> 8 ==
			    UVC_VS_PROBE_CONTROL || u->req.wValue >> 8 ==
			    UVC_VS_COMMIT_CONTROL)) {
				memset(&c, 0, sizeof c);
				c.bmHint = 1;
				c.bFormatIndex = 1;
				c.bFrameIndex = 1;
				c.dwFrameInterval = 333333;
				c.dwMaxVideoFrameSize = 38400;
				c.dwMaxPayloadTransferSize = 1024;
				memcpy(r.data, &c, len < sizeof c ? len :
				    sizeof c);
			}
		}
		printf("uvc-gadget: %02x %02x %04x %04x %u\n",
		    u->req.bRequestType, u->req.bRequest, u->req.wValue,
		    u->req.wIndex, u->req.wLength);
		fflush(stdout);
		if (ioctl(fd, UVCIOC_SEND_RESPONSE, &r) < 0)
			fail("UVCIOC_SEND_RESPONSE");
	}
	close(fd);
	return 0;
}

static int bulk(char **av)
{
	unsigned char out[512], in[512];
	struct usbdevfs_bulktransfer b;
	unsigned intf = strtoul(av[1], NULL, 0);
	const char *hex = av[3];
	int fd, n = 0, r, i, count = atoi(av[5]);

	while (hex[0] && hex[1] && n < (int)sizeof out) {
		sscanf(hex, "%2hhx", &out[n++]);
		hex += 2;
	}
	fd = open(av[0], O_RDWR);
	if (fd < 0)
		return fail(av[0]);
	if (ioctl(fd, USBDEVFS_CLAIMINTERFACE, &intf) < 0)
		return fail("USBDEVFS_CLAIMINTERFACE");
	b.ep = strtoul(av[2], NULL, 0);
	b.len = n;
	b.timeout = 2000;
	b.data = out;
	if (ioctl(fd, USBDEVFS_BULK, &b) < 0)
		return fail("USBDEVFS_BULK out");
	while (count-- > 0) {
		b.ep = strtoul(av[4], NULL, 0);
		b.len = sizeof in;
		b.data = in;
		r = ioctl(fd, USBDEVFS_BULK, &b);
		if (r < 0)
			return fail("USBDEVFS_BULK in");
		printf("in %d:", r);
		for (i = 0; i < r; i++)
			printf(" %02x", in[i]);
		printf("\n");
	}
	close(fd);
	return 0;
}

int main(int ac, char **av)
{
	if (ac == 4 && strcmp(av[1], "tone") == 0)
		return tone(av[2], atoi(av[3]));
	if (ac == 8 && strcmp(av[1], "bulk") == 0)
		return bulk(av + 2);
	if (ac == 3 && strcmp(av[1], "break") == 0)
		return sendbreak(av[2]);
	if (ac == 4 && strcmp(av[1], "modem") == 0)
		return modem(av[2], av[3]);
	if (ac == 5 && strcmp(av[1], "usbip") == 0)
		return usbip(av[2], av[3], av[4]);
	if (ac == 4 && strcmp(av[1], "uvc-gadget") == 0)
		return uvc_gadget(av[2], atoi(av[3]));
	fprintf(stderr, "usage: classes-tool tone PCM MS\n"
	    "       classes-tool bulk DEVNODE INTF OUT-EP HEX IN-EP COUNT\n"
	    "       classes-tool break TTY\n"
	    "       classes-tool modem TTY dtr|rts|both|none\n"
	    "       classes-tool usbip VUDC VHCI PORT\n"
	    "       classes-tool uvc-gadget VIDEODEV SECONDS\n");
	return 2;
}
