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
 *
 * Built by vm.sh on the host for the guest; exit status 0 when every
 * step worked.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/usbdevice_fs.h>
#include <math.h>
#include <sound/asound.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

static int tone(const char *pcm, int ms)
{
	struct snd_pcm_hw_params p;
	struct snd_xferi x;
	static short buf[48 * 2 * 10];	/* 10 ms */
	int fd, i, n;

	fd = open(pcm, O_RDWR);
	if (fd < 0)
		return fail(pcm);
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
		return fail("SNDRV_PCM_IOCTL_HW_PARAMS");
	if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) < 0)
		return fail("SNDRV_PCM_IOCTL_PREPARE");
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
	fprintf(stderr, "usage: classes-tool tone PCM MS\n"
	    "       classes-tool bulk DEVNODE INTF OUT-EP HEX IN-EP COUNT\n");
	return 2;
}
