/*
 * samples/devices/replay.h - between the replay model (replay.c) and its
 * mass-storage part (replay-msc.c).  Nothing else includes it.
 */
#ifndef SAMPLES_DEVICES_REPLAY_H
#define SAMPLES_DEVICES_REPLAY_H

#include <stdint.h>

#include "samples/devices/devices.h"

/* A divergence said, as the replay model says them (a bounded number). */
void		 rp_note(struct usb_devmodel *dm, const char *fmt, ...)
		     __attribute__((format(printf, 2, 3)));

struct rp_msc;

struct rp_msc	*rp_msc_new(void);
void		 rp_msc_free(struct rp_msc *m);
/*
 * A bulk transfer of the recording, in recorded order: its direction, the
 * bytes captured (cap of them, of actual), its status and record number.
 * Commands and blocks are found in them whatever the endpoints; -1 when
 * out of memory.
 */
int		 rp_msc_record(struct rp_msc *m, int in, const uint8_t *data,
		     uint32_t cap, uint32_t actual, int32_t status,
		     uint64_t recno);
/* After the last record: the blocks sorted, the figures for the user. */
void		 rp_msc_done(struct rp_msc *m, struct usb_devmodel *dm);
/* Serve Bulk-Only Transport on endpoints in_ep and out_ep from now on. */
void		 rp_msc_start(struct rp_msc *m, int in_ep, int out_ep);
int		 rp_msc_started(const struct rp_msc *m, int ep);
/* The host's transactions on those endpoints, as data_in and data_out. */
int		 rp_msc_in(struct rp_msc *m, uint8_t *buf, size_t max);
int		 rp_msc_out(struct rp_msc *m, struct usb_devmodel *dm,
		     const uint8_t *buf, size_t len);
/* Bulk-Only Mass Storage Reset or a bus reset: ready for a CBW. */
void		 rp_msc_reset(struct rp_msc *m);

#endif /* SAMPLES_DEVICES_REPLAY_H */
