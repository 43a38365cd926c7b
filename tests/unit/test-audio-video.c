/*
 * tests/unit/test-audio-video.c - decode/dec-audio.c and dec-video.c: the
 * class descriptors of QEMU's usb-audio (UAC 1) as Linux 6.1 read them
 * (tests/data/linux61-classes/qemu-usb-audio.pcap record 10), of capgen's
 * UAC 2 headset with MIDI (samples/uac2-headset.pcap record 85) and UVC
 * 1.1 webcam (samples/uvc-webcam.pcapng record 85); audio class requests
 * (volume, mute, UAC 2 ranges and clock), USB-MIDI events, video requests
 * (probe and commit, GET_INFO, the request error code), status interrupts
 * and payload headers; every truncation, in heap buffers of the exact
 * size so that ASan catches any over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decode/decode.h"
#include "tree.h"

#define UAC1_CFG "09027100020104c03209040000000101040509240100012b0001010c24" \
	"020101010002030000060d24060201020100020002000709240303010300020809" \
	"040100000102000909040101010102000a072401010001000b2402010202100180" \
	"bb000905010dc00001000007250100000000"
#define UAC2_CFG "0902d6000301008032080b000201002000090400000001012000092401" \
	"00020458000008240a100307000008240b1101100300112402010101001102030000" \
	"000000000012240602010f0000000c0000000c0000000010240905341201020203" \
	"0000000000000c24030302030005110000000904010000010220000904010101" \
	"01022000102401010501010000000203000000000624020104180705010d880104" \
	"0825010000000000090402000101030000072401000124000624020101000924" \
	"030202010101000905020200020000000525010101"
#define UVC_CFG "0902330102010080fa080b00020e03000209040000010e0100020d2401" \
	"10014f00006cdc0201011224020101020000000000000000030a00020c24050201" \
	"0040027f1500001b240603dd880f8a1cba49548a25f78759f6175c040102020f00" \
	"0009240304010100030007058303100006052503100009040100000e0200000f24" \
	"0102a5008100040201000100000b2406010201010000000022240701008002e001" \
	"000077010000ca08006009001516050002151605002a2c0a0026240702000005d0" \
	"02000065040000ca0800201c0015160500001516050080969800151605001b2404" \
	"02015955593200001000800000aa00389b7110010000000022240501008002e001" \
	"000065040000ca08006009002a2c0a00022a2c0a0040420f0006240d0101040904" \
	"0101010e02000007058105000401"

#define NODES	2048

struct tree {
	struct dec_node	 node[NODES];
	char		 arena[32768];
	struct dec_tree	 t;
};

static int
setup_tree(void **state)
{
	*state = calloc(1, sizeof (struct tree));
	return *state == NULL ? -1 : 0;
}

static int
teardown_tree(void **state)
{
	free(*state);
	return 0;
}

static struct dec_tree *
tree_new(struct tree *tr)
{
	dec_tree_init(&tr->t, tr->node, NODES, tr->arena, sizeof tr->arena);
	tr->t.all_bits = 1;
	return &tr->t;
}

static size_t
unhex(const char *s, uint8_t *out, size_t max)
{
	size_t	 n = 0;
	unsigned v;

	while (s[0] != '\0' && s[1] != '\0' && n < max) {
		sscanf(s, "%2x", &v);
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

/* The k-th node (0 = first) whose field is abbrev, or NULL. */
static const struct dec_node *
find(const struct dec_tree *t, const char *abbrev, int k)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->node[i].f != NULL && t->node[i].f->abbrev != NULL &&
		    strcmp(t->node[i].f->abbrev, abbrev) == 0 && k-- == 0)
			return &t->node[i];
	}
	return NULL;
}

static uint64_t
val(const struct dec_tree *t, const char *abbrev, int k)
{
	const struct dec_node *n = find(t, abbrev, k);

	if (n == NULL)
		print_error("no field %s (%d)\n", abbrev, k);
	assert_non_null(n);
	return n->value;
}

static const char *
str(const struct dec_tree *t, const char *abbrev, int k)
{
	const struct dec_node *n = find(t, abbrev, k);

	assert_non_null(n);
	assert_non_null(n->str);
	return n->str;
}

/* How many nodes have this field. */
static int
count(const struct dec_tree *t, const char *abbrev)
{
	int	 k = 0;

	while (find(t, abbrev, k) != NULL)
		k++;
	return k;
}

/* Every node on the data lies inside its k bytes. */
static void
in_bounds(const struct dec_tree *t, size_t k)
{
	size_t	 j;

	for (j = 0; j < t->n; j++) {
		if (t->node[j].buf == DB_DATA)
			assert_true(t->node[j].off + t->node[j].len <= k);
	}
}

static struct dec_tree *
desc(void **state, const char *hex, uint8_t *b, size_t max, size_t *n)
{
	struct dec_tree	*t = tree_new(*state);

	*n = unhex(hex, b, max);
	dec_desc_tree(b, *n, NULL, t);
	assert_int_equal(t->overflow, 0);
	return t;
}

/* QEMU's usb-audio: lsusb -v (tests/data/linux61-classes/lsusb-v.txt)
 * and tshark 4.0 read the same values. */
static void
test_uac1_descriptors(void **state)
{
	uint8_t		 b[512];
	size_t		 n;
	struct dec_tree	*t = desc(state, UAC1_CFG, b, sizeof b, &n);

	assert_int_equal(n, 113);
	label(t, "Class-specific Audio Control Interface Descriptor: Header "
	    "Descriptor", 0);
	label(t, "Class-specific Audio Control Interface Descriptor: Feature "
	    "unit descriptor", 0);
	label(t, "Class-specific Audio Streaming Interface Descriptor: "
	    "Format type descriptor", 0);
	label(t, "Class-specific Audio Streaming Endpoint Descriptor", 0);
	assert_int_equal(val(t, "usbaudio.ac_if_hdr.bcdADC", 0), 100);
	assert_int_equal(val(t, "usbaudio.ac_if_hdr.wTotalLength", 0), 43);
	assert_int_equal(val(t, "usbaudio.ac_if_hdr.baInterfaceNr", 0), 1);
	assert_int_equal(val(t, "usbaudio.ac_if_input.wTerminalType", 0),
	    0x0101);
	assert_int_equal(val(t, "usbaudio.ac_if_input.wChannelConfig", 0), 3);
	assert_int_equal(val(t, "usbaudio.ac_if_input.wChannelConfig.d1", 0),
	    1);
	assert_int_equal(val(t, "usbaudio.ac_if_input.iTerminal", 0), 6);
	/* no UAC 2 field in a UAC 1 descriptor */
	assert_null(find(t, "usbaudio.ac_if_input.bCSourceID", 0));
	assert_null(find(t, "usbaudio.ac_if_input.bmChannelConfig", 0));
	/* the feature unit: three channels of 2-byte controls */
	assert_int_equal(val(t, "usbaudio.ac_if_fu.bControlSize", 0), 2);
	assert_int_equal(count(t, "usbaudio.ac_if_fu.bmaControl"), 6);
	assert_int_equal(val(t, "usbaudio.ac_if_fu.bmaControl", 0), 0x01);
	assert_int_equal(val(t, "usbaudio.ac_if_fu.bmaControls.d0", 0), 1);
	assert_int_equal(val(t, "usbaudio.ac_if_fu.bmaControls.d1", 1), 1);
	assert_int_equal(val(t, "usbaudio.ac_if_fu.iFeature", 0), 7);
	assert_int_equal(val(t, "usbaudio.ac_if_output.wTerminalType", 0),
	    0x0301);
	assert_int_equal(val(t, "usbaudio.ac_if_output.bSourceID", 0), 2);
	assert_int_equal(val(t, "usbaudio.as_if_gen.wFormatTag", 0), 1);
	assert_int_equal(val(t, "usbaudio.as_if_ft.bNrChannels", 0), 2);
	assert_int_equal(val(t, "usbaudio.as_if_ft.bBitResolution", 0), 16);
	assert_int_equal(val(t, "usbaudio.as_if_ft.tSamFreq", 0), 48000);
	assert_int_equal(val(t, "usbaudio.as_ep_gen.bLockDelayUnits", 0), 0);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
}

static void
test_uac2_descriptors(void **state)
{
	uint8_t		 b[512];
	size_t		 n;
	struct dec_tree	*t = desc(state, UAC2_CFG, b, sizeof b, &n);

	assert_int_equal(n, 214);
	assert_int_equal(val(t, "usbaudio.ac_if_hdr.bcdADC", 0), 200);
	assert_int_equal(val(t, "usbaudio.ac_if_hdr.bCategory", 0), 0x04);
	assert_null(find(t, "usbaudio.ac_if_hdr.bInCollection", 0));
	assert_int_equal(val(t, "usbaudio.ac_if_clksrc.bClockID", 0), 16);
	assert_int_equal(val(t, "usbaudio.ac_if_clksrc.bmAttributes.type", 0),
	    3);
	assert_int_equal(val(t, "usbaudio.ac_if_clksrc.bmControls.freq", 0),
	    3);
	assert_int_equal(val(t,
	    "usbaudio.ac_if_clksrc.bmControls.validity", 0), 1);
	assert_int_equal(val(t, "usbaudio.ac_if_clksel.baCSourceID", 0), 16);
	assert_int_equal(val(t, "usbaudio.ac_if_input.bCSourceID", 0), 17);
	assert_int_equal(val(t, "usbaudio.ac_if_input.bmChannelConfig", 0),
	    3);
	assert_int_equal(count(t, "usbaudio.ac_if_fu.bmaControl_v2"), 3);
	assert_int_equal(val(t, "usbaudio.ac_if_fu.bmaControl_v2", 0), 0x0f);
	assert_int_equal(val(t, "usbaudio.ac_if_fu.bmaControls_v2.d1", 1), 3);
	assert_null(find(t, "usbaudio.ac_if_fu.bControlSize", 0));
	/* UAC 2 numbers the extension unit 9 */
	label(t, "Class-specific Audio Control Interface Descriptor: "
	    "Extension unit descriptor", 0);
	assert_int_equal(val(t, "usbaudio.ac_if_xu.bUnitID", 0), 5);
	assert_int_equal(val(t, "usbaudio.ac_if_xu.wExtensionCode", 0),
	    0x1234);
	assert_int_equal(val(t, "usbaudio.ac_if_output.bCSourceID", 0), 17);
	assert_int_equal(val(t, "usbaudio.as_if_gen.bmFormats.d0", 0), 1);
	assert_int_equal(val(t, "usbaudio.as_if_ft.bSubslotSize", 0), 4);
	assert_int_equal(val(t, "usbaudio.as_if_ft.bBitResolution", 0), 24);
	assert_int_equal(val(t, "usbaudio.as_ep_gen.bmControls", 0), 0);
	/* MIDI streaming */
	assert_int_equal(val(t, "usbaudio.ms_if_hdr.bcdADC", 0), 100);
	assert_int_equal(val(t, "usbaudio.ms_if_hdr.wTotalLength", 0), 36);
	assert_int_equal(val(t, "usbaudio.ms_if_midi_out.baSourceID", 0), 1);
	assert_int_equal(val(t, "usbaudio.ms_ep_gen.baAssocJackID", 0), 1);
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
}

/* UAC 1 numbers its units otherwise (A.5): 7 is a processing unit, not
 * UAC 2's effect unit; a feature unit whose bLength does not fit its
 * controls is flagged, nothing after it read. */
static void
test_uac1_units(void **state)
{
	/* configuration, AC interface, header, processing unit (up/down
	 * mix, 1 pin from 1, 2 channels), a feature unit of bLength 10 */
	static const char cfg[] = "090234000101008032" "090400000001010000"
	    "092401000122000101" "0f2407010100010102030000010000"
	    "0a240602010201000300";
	uint8_t		 b[64];
	size_t		 n;
	struct dec_tree	*t = desc(state, cfg, b, sizeof b, &n);

	label(t, "Class-specific Audio Control Interface Descriptor: "
	    "Processing unit descriptor", 0);
	assert_int_equal(val(t, "usbaudio.ac_if_pu.wProcessType", 0), 0x0001);
	assert_int_equal(val(t, "usbaudio.ac_if_pu.bNrChannels", 0), 2);
	assert_non_null(find(t, "usbaudio.ac_if_fu.bControlSize", 0));
	assert_null(find(t, "usbaudio.ac_if_fu.bmaControls", 0));
	assert_null(find(t, "usbaudio.ac_if_fu.iFeature", 0));
	assert_int_equal(flagged(t, DN_BAD), 1);
}

static void
test_uvc_descriptors(void **state)
{
	uint8_t		 b[512];
	size_t		 n;
	struct dec_tree	*t = desc(state, UVC_CFG, b, sizeof b, &n);

	assert_int_equal(n, 307);
	label(t, "VC INTERFACE descriptor: Header", 0);
	label(t, "VC INTERFACE descriptor: Input Terminal (entity 1)", 0);
	label(t, "VC INTERFACE descriptor: Extension Unit (entity 3)", 0);
	label(t, "VS INTERFACE descriptor: Frame MJPEG 2: 1280x720", 0);
	label(t, "VC ENDPOINT descriptor: Interrupt", 0);
	assert_int_equal(val(t, "usbvideo.bcdUVC", 0), 0x0110);
	assert_int_equal(val(t, "usbvideo.totalLength", 0), 79);
	assert_int_equal(val(t, "usbvideo.probe.clockFrequency", 0),
	    48000000);
	assert_int_equal(val(t, "usbvideo.terminal.type", 0), 0x0201);
	assert_int_equal(val(t, "usbvideo.availableControls", 0), 0x02000a);
	assert_int_equal(val(t, "usbvideo.camera.control.D17", 0), 1);
	assert_int_equal(val(t, "usbvideo.processor.maxMultiplier", 0),
	    16384);
	assert_int_equal(val(t, "usbvideo.availableControls", 1), 0x157f);
	/* a 2-byte bmControls has no bits past 15 (bitmask_len) */
	assert_non_null(find(t, "usbvideo.processor.control.D15", 0));
	assert_null(find(t, "usbvideo.processor.control.D16", 0));
	assert_int_equal(val(t, "usbvideo.processor.standards", 0), 0);
	assert_string_equal(str(t, "usbvideo.extension.guid", 0),
	    "8a0f88dd-ba1c-5449-8a25-f78759f6175c");
	assert_int_equal(val(t, "usbvideo.extension.numControls", 0), 4);
	assert_int_equal(val(t, "usbvideo.sourceID", 1), 3);
	assert_int_equal(val(t, "usbvideo.ep.maxInterruptSize", 0), 16);
	assert_int_equal(val(t, "usbvideo.streaming.numFormats", 0), 2);
	assert_int_equal(val(t, "usbvideo.streaming.triggerSupport", 0), 1);
	assert_int_equal(count(t, "usbvideo.streaming.control.D0"), 2);
	assert_string_equal(str(t, "usbvideo.format.guid", 0),
	    "32595559-0000-0010-8000-00aa00389b71");
	assert_int_equal(val(t, "usbvideo.frame.width", 1), 1280);
	assert_int_equal(val(t, "usbvideo.frame.interval.type", 1), 0);
	assert_int_equal(val(t, "usbvideo.frame.interval.step", 0), 333333);
	assert_int_equal(count(t, "usbvideo.frame.interval"), 4);
	assert_int_equal(val(t, "usbvideo.color.matrixCoefficients", 0), 4);
	assert_null(find(t, "usbvideo.descriptor_data", 0));
	/* no audio field in a video configuration */
	assert_null(find(t, "usbaudio.ac_if_subtype", 0));
	assert_int_equal(flagged(t, DN_BAD | DN_CUT), 0);
}

/* Every cut of the three configurations: no over-read, nodes in bounds. */
static void
test_descriptor_truncations(void **state)
{
	static const char *const cfgs[] = { UAC1_CFG, UAC2_CFG, UVC_CFG };
	struct dec_tree	*t;
	uint8_t		 b[512], *p;
	size_t		 n, k, i;

	for (i = 0; i < 3; i++) {
		n = unhex(cfgs[i], b, sizeof b);
		for (k = 0; k <= n; k++) {
			assert_non_null(p = malloc(k ? k : 1));
			memcpy(p, b, k);
			t = tree_new(*state);
			dec_desc_tree(p, k, NULL, t);
			in_bounds(t, k);
			free(p);
		}
	}
	/* the UVC camera terminal cut inside its bmControls */
	n = unhex(UVC_CFG, b, sizeof b);
	assert_non_null(p = malloc(56));
	memcpy(p, b, 56);
	t = tree_new(*state);
	dec_desc_tree(p, 56, NULL, t);
	free(p);
	assert_non_null(find(t, "usbvideo.availableControls", 0));
	assert_true(flagged(t, DN_CUT) > 0);
	assert_int_equal(flagged(t, DN_BAD), 0);
}

/* ------------------------------------------------------------------------
 * Class requests and data.
 */

struct rec {
	struct urb_rec	 r;
	struct dec_info	 info;
	uint8_t		 cfg[512];
};

/* A record of interface intf (class cls, subclass sub, protocol proto)
 * of a device with configuration hex; the control request setup (NULL:
 * none). */
static void
rec_init(struct rec *x, const char *hex, int intf, int cls, int sub,
    int proto, const uint8_t *setup, int type, int xfer, const uint8_t *data,
    uint32_t len)
{
	memset(x, 0, sizeof *x);
	x->info.cfg_len = unhex(hex, x->cfg, sizeof x->cfg);
	x->info.cfg = x->cfg;
	x->r.type = (uint8_t)type;
	x->r.xfer_type = (uint8_t)xfer;
	x->r.epnum = setup != NULL && (setup[0] & 0x80) ? 0x80 : 0;
	x->r.data = data;
	x->r.data_len = len;
	x->r.len_urb = len;
	x->info.flags = DI_CLASS;
	x->info.intf = (int16_t)intf;
	x->info.cls = (uint8_t)cls;
	x->info.subcls = (uint8_t)sub;
	x->info.proto = (uint8_t)proto;
	if (setup != NULL) {
		memcpy(x->r.setup, setup, 8);
		dec_setup(setup, &x->info.setup);
		x->info.flags |= DI_SETUP;
	}
}

static void
summary(const struct rec *x, char *out, size_t size)
{
	struct sbuf	 b = { NULL, 0, 0, 0 };

	out[0] = '\0';
	if (dec_class_summary(&x->r, &x->info, &b) && b.s != NULL)
		snprintf(out, size, "%s", b.s);
	sb_free(&b);
}

static void
test_uac1_requests(void **state)
{
	/* qemu-usb-audio.pcap records 41/42 and 47: GET_MAX and SET_RES
	 * of the volume of channel 1 of feature unit 2 */
	static const uint8_t get_max[8] = { 0xa1, 0x83, 1, 2, 0, 2, 2, 0 };
	static const uint8_t set_res[8] = { 0x21, 0x04, 1, 2, 0, 2, 2, 0 };
	static const uint8_t get_mute[8] = { 0xa1, 0x81, 0, 1, 0, 2, 1, 0 };
	static const uint8_t v8db[2] = { 0x00, 0x08 }, v[2] = { 0x44, 0x00 },
	    off[1] = { 0 };
	struct rec	*x = calloc(1, sizeof *x);
	struct dec_tree	*t;
	struct dec_setup s;
	char		 out[128];

	assert_non_null(x);
	rec_init(x, UAC1_CFG, 0, 1, 1, 4, get_max, 'C', XFER_CTRL, v8db, 2);
	summary(x, out, sizeof out);
	assert_string_equal(out, "volume ch 1 8.00 dB");
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_non_null(find(t, "usb.control.Response", 0));
	assert_int_equal(val(t, "usbaudio.request.volume", 0), 0x0800);
	dec_setup_summary_class(&x->info.setup, 0x01, out, sizeof out);
	assert_string_equal(out, "GET_MAX intf 0 unit 2 cs 0x02 ch 1 len 2");

	rec_init(x, UAC1_CFG, 0, 1, 1, 4, set_res, 'S', XFER_CTRL, v, 2);
	summary(x, out, sizeof out);
	assert_string_equal(out, "volume ch 1 0.26 dB");
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_non_null(find(t, "usb.data_fragment", 0));
	/* its completion has no data for the class */
	rec_init(x, UAC1_CFG, 0, 1, 1, 4, set_res, 'C', XFER_CTRL, NULL, 0);
	assert_int_equal(dec_class_tree(&x->r, &x->info, tree_new(*state)),
	    0);

	rec_init(x, UAC1_CFG, 0, 1, 1, 4, get_mute, 'C', XFER_CTRL, off, 1);
	summary(x, out, sizeof out);
	assert_string_equal(out, "mute off master");

	/* the sampling frequency of an endpoint (samples/iso.pcap 102) */
	dec_setup((const uint8_t[8]){ 0x22, 0x01, 0, 1, 0x81, 0, 3, 0 }, &s);
	dec_setup_summary_class(&s, 0x01, out, sizeof out);
	assert_string_equal(out, "SET_CUR ep 0x81 cs 0x01 len 3");
	rec_init(x, UAC1_CFG, 1, 1, 2, 0,
	    (const uint8_t[8]){ 0x22, 0x01, 0, 1, 0x81, 0, 3, 0 }, 'S',
	    XFER_CTRL, (const uint8_t[3]){ 0x80, 0xbb, 0 }, 3);
	summary(x, out, sizeof out);
	assert_string_equal(out, "sampling frequency 48000 Hz");
	free(x);
}

static void
test_uac2_requests(void **state)
{
	static const uint8_t get_range[8] = { 0xa1, 0x02, 0, 1, 0, 16, 26, 0 };
	static const uint8_t ranges[26] = {
		2, 0, 0x44, 0xac, 0, 0, 0x44, 0xac, 0, 0, 0, 0, 0, 0,
		0x80, 0xbb, 0, 0, 0x80, 0xbb, 0, 0, 0, 0, 0, 0
	};
	static const uint8_t vol_range[8] = { 0xa1, 0x02, 1, 2, 0, 2, 8, 0 };
	static const uint8_t vr[8] = { 1, 0, 0x00, 0xc0, 0, 0, 0x80, 0 };
	static const uint8_t valid[8] = { 0xa1, 0x01, 0, 2, 0, 16, 1, 0 };
	struct rec	*x = calloc(1, sizeof *x);
	struct dec_tree	*t;
	char		 out[160];
	uint8_t		*p;
	uint32_t	 k;

	assert_non_null(x);
	rec_init(x, UAC2_CFG, 0, 1, 1, 0x20, get_range, 'C', XFER_CTRL,
	    ranges, 26);
	summary(x, out, sizeof out);
	assert_string_equal(out, "sampling frequency, 2 ranges: "
	    "44100..44100 48000..48000");
	dec_setup_summary_class(&x->info.setup, 0x01, out, sizeof out);
	assert_string_equal(out, "GET_RANGE intf 0 unit 16 cs 0x01 len 26");
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_int_equal(val(t, "usbaudio.request.wNumSubRanges", 0), 2);
	assert_int_equal(val(t, "usbaudio.request.range.max", 1), 48000);

	rec_init(x, UAC2_CFG, 0, 1, 1, 0x20, vol_range, 'C', XFER_CTRL, vr, 8);
	summary(x, out, sizeof out);
	assert_string_equal(out, "volume, 1 range: -64.00 dB..0.00 dB");
	t = tree_new(*state);
	dec_class_tree(&x->r, &x->info, t);
	assert_int_equal((int64_t)val(t, "usbaudio.request.range.min", 0),
	    -16384);

	rec_init(x, UAC2_CFG, 0, 1, 1, 0x20, valid, 'C', XFER_CTRL,
	    (const uint8_t[1]){ 1 }, 1);
	summary(x, out, sizeof out);
	assert_string_equal(out, "clock valid");

	/* every cut of the ranges */
	for (k = 1; k <= 26; k++) {
		assert_non_null(p = malloc(k));
		memcpy(p, ranges, k);
		rec_init(x, UAC2_CFG, 0, 1, 1, 0x20, get_range, 'C', XFER_CTRL,
		    p, k);
		summary(x, out, sizeof out);
		t = tree_new(*state);
		assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
		in_bounds(t, k);
		if (k > 2 && (k - 2) % 12 != 0)
			assert_int_equal(flagged(t, DN_CUT), 1);
		free(p);
	}
	free(x);
}

static void
test_midi(void **state)
{
	/* samples/uac2-headset.pcap record 132 */
	static const uint8_t ev[12] = {
		0x08, 0x80, 0x3c, 0x00, 0x0c, 0xc0, 0x05, 0x00,
		0x0f, 0xf8, 0x00, 0x00
	};
	struct rec	*x = calloc(1, sizeof *x);
	struct dec_tree	*t = tree_new(*state);
	char		 out[160];

	assert_non_null(x);
	rec_init(x, UAC2_CFG, 2, 1, 3, 0, NULL, 'S', XFER_BULK, ev, 12);
	x->r.epnum = 0x02;
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_int_equal(count(t, "usbaudio.midi.event"), 3);
	assert_int_equal(val(t, "usbaudio.midi.code_index", 1), 0x0c);
	assert_int_equal(find(t, "usbaudio.midi.event", 1)->len, 2);
	assert_int_equal(find(t, "usbaudio.midi.padding", 1)->len, 2);
	summary(x, out, sizeof out);
	assert_string_equal(out, "USB-MIDI cable 0 Note-off: 80 3c 00; "
	    "cable 0 Program Change: c0 05; cable 0 Single Byte: f8");
	free(x);
}

/* The probe control of UVC 1.1 (34 bytes) and 1.0 (26). */
static void
test_uvc_probe(void **state)
{
	static const uint8_t get_cur[8] = { 0xa1, 0x81, 0, 1, 1, 0, 34, 0 };
	static const uint8_t set_commit[8] = { 0x21, 0x01, 0, 2, 1, 0, 34, 0 };
	uint8_t		 pr[34], *p;
	struct rec	*x = calloc(1, sizeof *x);
	struct dec_tree	*t;
	char		 out[160];
	uint32_t	 k;

	assert_non_null(x);
	memset(pr, 0, sizeof pr);
	pr[0] = 1;
	pr[2] = 1;
	pr[3] = 2;
	pr[4] = 0x15, pr[5] = 0x16, pr[6] = 0x05;	/* 333333 */
	pr[18] = 0x00, pr[19] = 0x60, pr[20] = 0x09;	/* 614400 */
	pr[22] = 0x00, pr[23] = 0x04;			/* 1024 */
	pr[26] = 0x00, pr[27] = 0x6c, pr[28] = 0xdc, pr[29] = 0x02;
	pr[30] = 3;
	rec_init(x, UVC_CFG, 1, 0x0e, 2, 0, get_cur, 'C', XFER_CTRL, pr, 34);
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_int_equal(val(t, "usbvideo.control.interface", 0), 1);
	assert_int_equal(val(t, "usbvideo.control.selector", 0), 1);
	assert_int_equal(val(t, "usbvideo.probe.hint.D0", 0), 1);
	assert_int_equal(val(t, "usbvideo.frame.index", 0), 2);
	assert_int_equal(val(t, "usbvideo.frame.interval", 0), 333333);
	assert_int_equal(val(t, "usbvideo.probe.maxPayloadTransferSize", 0),
	    1024);
	assert_int_equal(val(t, "usbvideo.probe.clockFrequency", 0),
	    48000000);
	assert_int_equal(val(t, "usbvideo.probe.framing.D1", 0), 1);
	summary(x, out, sizeof out);
	assert_string_equal(out, "probe: format 1 frame 2, 30.00 fps, "
	    "max frame 614400 B, max payload 1024 B");
	/* UVC 1.0: 26 bytes, no clock */
	rec_init(x, UVC_CFG, 1, 0x0e, 2, 0, set_commit, 'S', XFER_CTRL, pr,
	    26);
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_non_null(find(t, "usb.data_fragment", 0));
	assert_null(find(t, "usbvideo.probe.clockFrequency", 0));
	assert_null(find(t, "usbvideo.control_data", 0));
	/* every cut */
	for (k = 1; k <= 34; k++) {
		assert_non_null(p = malloc(k));
		memcpy(p, pr, k);
		rec_init(x, UVC_CFG, 1, 0x0e, 2, 0, get_cur, 'C', XFER_CTRL, p,
		    k);
		summary(x, out, sizeof out);
		t = tree_new(*state);
		assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
		in_bounds(t, k);
		if (k < 26 || (k > 26 && k < 34))
			assert_int_equal(flagged(t, DN_CUT), 1);
		free(p);
	}
	free(x);
}

static void
test_uvc_controls(void **state)
{
	static const uint8_t info[8] = { 0xa1, 0x86, 0, 2, 0, 2, 1, 0 };
	static const uint8_t err[8] = { 0xa1, 0x81, 0, 2, 0, 0, 1, 0 };
	static const uint8_t stall[8] = { 0xa1, 0x81, 0, 5, 0, 3, 4, 0 };
	static const uint8_t def[8] = { 0xa1, 0x87, 0, 2, 0, 2, 2, 0 };
	struct rec	*x = calloc(1, sizeof *x);
	struct dec_tree	*t;
	char		 out[160];

	assert_non_null(x);
	rec_init(x, UVC_CFG, 0, 0x0e, 1, 0, info, 'C', XFER_CTRL,
	    (const uint8_t[1]){ 0x03 }, 1);
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_int_equal(val(t, "usbvideo.control.entity", 0), 2);
	assert_int_equal(val(t, "usbvideo.control.info.D1", 0), 1);
	summary(x, out, sizeof out);
	assert_string_equal(out, "Brightness: info 0x03: GET SET");

	rec_init(x, UVC_CFG, 0, 0x0e, 1, 0, err, 'C', XFER_CTRL,
	    (const uint8_t[1]){ 0x06 }, 1);
	t = tree_new(*state);
	dec_class_tree(&x->r, &x->info, t);
	assert_int_equal(val(t, "usbvideo.reqerror.code", 0), 6);
	summary(x, out, sizeof out);
	assert_string_equal(out, "request error: Invalid control");

	rec_init(x, UVC_CFG, 0, 0x0e, 1, 0, def, 'C', XFER_CTRL,
	    (const uint8_t[2]){ 128, 0 }, 2);
	t = tree_new(*state);
	dec_class_tree(&x->r, &x->info, t);
	assert_int_equal(val(t, "usbvideo.control.value.default", 0), 128);
	summary(x, out, sizeof out);
	assert_string_equal(out, "Brightness: value 128");
	/* the camera terminal's controls; an extension unit's unnamed */
	x->info.setup.wIndex = 1 << 8;
	summary(x, out, sizeof out);
	assert_string_equal(out, "Auto-Exposure Mode: value 128");
	x->info.setup.wIndex = 3 << 8;
	summary(x, out, sizeof out);
	assert_string_equal(out, "value 128");

	/* a STALLed request: the control it was, without data */
	rec_init(x, UVC_CFG, 0, 0x0e, 1, 0, stall, 'C', XFER_CTRL, NULL, 0);
	x->r.status = -32;
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_int_equal(val(t, "usbvideo.control.selector", 0), 5);
	assert_int_equal(val(t, "usbvideo.control.entity", 0), 3);
	dec_setup_summary_class(&x->info.setup, 0x0e, out, sizeof out);
	assert_string_equal(out, "GET_CUR intf 0 unit 3 cs 0x05 len 4");
	free(x);
}

static void
test_uvc_status(void **state)
{
	static const uint8_t vc[6] = { 0x01, 2, 0x00, 0x02, 0x00, 140 };
	static const uint8_t vs[4] = { 0x02, 1, 0x00, 0x01 };
	struct rec	*x = calloc(1, sizeof *x);
	struct dec_tree	*t;
	char		 out[160];
	uint8_t		*p;
	uint32_t	 k;

	assert_non_null(x);
	rec_init(x, UVC_CFG, 0, 0x0e, 1, 0, NULL, 'C', XFER_INT, vc, 6);
	x->r.epnum = 0x83;
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_int_equal(val(t, "usbvideo.interrupt.statusType", 0), 1);
	assert_int_equal(val(t, "usbvideo.control.value.cur", 0), 140);
	summary(x, out, sizeof out);
	assert_string_equal(out, "status from VideoControl Interface, "
	    "entity 2: Brightness Value change to 140");
	rec_init(x, UVC_CFG, 0, 0x0e, 1, 0, NULL, 'C', XFER_INT, vs, 4);
	x->r.epnum = 0x83;
	summary(x, out, sizeof out);
	assert_string_equal(out, "status from VideoStreaming Interface, "
	    "entity 1: button pressed");
	for (k = 1; k <= 6; k++) {
		assert_non_null(p = malloc(k));
		memcpy(p, vc, k);
		rec_init(x, UVC_CFG, 0, 0x0e, 1, 0, NULL, 'C', XFER_INT, p, k);
		x->r.epnum = 0x83;
		summary(x, out, sizeof out);
		t = tree_new(*state);
		dec_class_tree(&x->r, &x->info, t);
		in_bounds(t, k);
		free(p);
	}
	free(x);
}

/* ISO packets with payload headers (UVC 1.5 2.4.3.3). */
static void
test_uvc_payloads(void **state)
{
	struct urb_iso	 iso[3];
	struct rec	*x = calloc(1, sizeof *x);
	struct dec_tree	*t;
	uint8_t		*p;
	char		 out[160];
	uint32_t	 k;

	assert_non_null(x);
	assert_non_null(p = calloc(1, 64));
	/* 12-byte header with PTS and SCR, 20 bytes of data */
	p[0] = 12;
	p[1] = 0x8d;
	p[2] = 0x10;
	p[10] = 0xff;
	p[11] = 0xff;		/* SOF counter 0x7ff */
	/* a 2-byte header ending the frame, 10 bytes of data */
	p[32] = 2;
	p[33] = 0x83;
	/* a header longer than its packet */
	p[44] = 40;
	iso[0] = (struct urb_iso){ 0, 0, 32, 0 };
	iso[1] = (struct urb_iso){ 0, 32, 12, 0 };
	iso[2] = (struct urb_iso){ 0, 44, 20, 0 };
	rec_init(x, UVC_CFG, 1, 0x0e, 2, 0, NULL, 'C', XFER_ISO, p, 64);
	x->r.epnum = 0x81;
	x->r.iso = iso;
	x->r.niso = 3;
	t = tree_new(*state);
	assert_int_equal(dec_class_tree(&x->r, &x->info, t), 1);
	assert_int_equal(count(t, "usbvideo.payload.bHeaderLength"), 2);
	assert_int_equal(val(t, "usbvideo.payload.dwPresentationTime", 0),
	    0x10);
	assert_int_equal(val(t, "usbvideo.payload.scr.sof", 0), 0x7ff);
	assert_int_equal(val(t, "usbvideo.payload.bmHeaderInfo.eof", 1), 1);
	assert_int_equal(val(t, "usbvideo.payload.data_len", 1), 10);
	summary(x, out, sizeof out);
	assert_string_equal(out, "UVC 2 payloads, 30 bytes of video, FID 1, "
	    "end of frame");
	/* every cut of the first packet's header */
	for (k = 0; k <= 12; k++) {
		iso[0].len = k;
		t = tree_new(*state);
		dec_class_tree(&x->r, &x->info, t);
		in_bounds(t, 64);
		summary(x, out, sizeof out);
	}
	free(p);
	free(x);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup_tree, teardown_tree)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_uac1_descriptors),
		T(test_uac2_descriptors),
		T(test_uac1_units),
		T(test_uvc_descriptors),
		T(test_descriptor_truncations),
		T(test_uac1_requests),
		T(test_uac2_requests),
		T(test_midi),
		T(test_uvc_probe),
		T(test_uvc_controls),
		T(test_uvc_status),
		T(test_uvc_payloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
