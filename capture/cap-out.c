/*
 * capture/cap-out.c - buffered output for the sinks: records are copied
 * into one buffer and handed to write() in large pieces.  Short writes are
 * resumed; the first failure (ENOSPC, EIO, EPIPE ...) is kept in err and
 * every later call fails, so a sink reports it once, at the record where
 * it happened or at close.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

#define CAP_OUT_SIZE	(256 * 1024)

int
cap_out_open(struct cap_out *out, const char *path)
{
	int	 fd, saved;

	memset(out, 0, sizeof *out);
	out->fd = -1;
	if (strcmp(path, "-") == 0)
		fd = STDOUT_FILENO;
	else if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) == -1)
		return -UE_OPEN;
	if ((out->buf = malloc(CAP_OUT_SIZE)) == NULL) {
		saved = errno;
		if (fd != STDOUT_FILENO)
			close(fd);
		errno = saved;
		return -UE_NOMEM;
	}
	out->fd = fd;
	out->own_fd = fd != STDOUT_FILENO;
	out->size = CAP_OUT_SIZE;
	return 0;
}

/* write() all of p, resuming short writes. */
static int
cap_out_put(struct cap_out *out, const uint8_t *p, size_t n)
{
	ssize_t	 w;

	while (n > 0) {
		w = write(out->fd, p, n);
		if (w == -1) {
			if (errno == EINTR)
				continue;
			out->err = errno;
			return -UE_IO;
		}
		if (w == 0) {
			/* A regular file that takes nothing is full. */
			out->err = ENOSPC;
			return -UE_IO;
		}
		out->written += (uint64_t)w;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
cap_out_flush(struct cap_out *out)
{
	int	 rc;

	if (out->err != 0)
		return -UE_IO;
	if (out->used == 0)
		return 0;
	rc = cap_out_put(out, out->buf, out->used);
	out->used = 0;
	return rc;
}

int
cap_out_write(struct cap_out *out, const void *p, size_t n)
{
	if (out->err != 0)
		return -UE_IO;
	if (n == 0)
		return 0;
	if (n > out->size - out->used) {
		if (cap_out_flush(out) != 0)
			return -UE_IO;
		if (n >= out->size)
			return cap_out_put(out, p, n);
	}
	memcpy(out->buf + out->used, p, n);
	out->used += n;
	return 0;
}

int
cap_out_close(struct cap_out *out)
{
	int	 rc;

	rc = cap_out_flush(out);
	if (out->own_fd && out->fd != -1) {
		if (close(out->fd) == -1 && rc == 0) {
			out->err = errno;
			rc = -UE_IO;
		}
	}
	out->fd = -1;
	free(out->buf);
	out->buf = NULL;
	out->size = out->used = 0;
	return rc;
}
