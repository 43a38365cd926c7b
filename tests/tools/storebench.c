/*
 * tests/tools/storebench.c - the TUI's record store on a big file, for
 * make bench: storebench FILE.  Loads the index, then times reaching
 * records far apart (forward, back, forward: each replays from the
 * nearest checkpoint, not from record 1) and a backward search through
 * everything for text that is not there.  Prints one line each.
 */
#include <stdio.h>
#include <stdlib.h>

#include "capture/capture.h"
#include "tui/tui-model.h"

static double
now(void)
{
	return cap_clock_s();
}

int
main(int argc, char **argv)
{
	struct tui_store *st;
	struct tui_model m;
	char		 err[600];
	double		 t;
	uint64_t	 n, at[4], before;
	size_t		 k;

	if (argc != 2) {
		fprintf(stderr, "usage: storebench FILE\n");
		return 2;
	}
	if (tui_store_open(argv[1], &st, err, sizeof err) != 0) {
		fprintf(stderr, "storebench: %s\n", err);
		return 1;
	}
	tui_model_init(&m, tui_store_fetch, st);
	m.scan = tui_store_scan;
	t = now();
	if (tui_store_load(st, &m, NULL, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "storebench: %s\n", err);
		return 1;
	}
	n = m.n;
	printf("index: %llu records in %.3f s\n", (unsigned long long)n,
	    now() - t);
	at[0] = n * 9 / 10;
	at[1] = n / 10;
	at[2] = n / 2;
	at[3] = n - 1;
	for (k = 0; k < 4; k++) {
		before = tui_store_replayed(st);
		t = now();
		if (tui_store_fetch(st, at[k]) == NULL) {
			fprintf(stderr, "storebench: record %llu: not read\n",
			    (unsigned long long)at[k]);
			return 1;
		}
		printf("jump to record %llu: %.1f ms, %llu records read\n",
		    (unsigned long long)at[k], (now() - t) * 1e3,
		    (unsigned long long)(tui_store_replayed(st) - before));
	}
	tui_model_set_rows(&m, 40);
	tui_model_end(&m);
	before = tui_store_replayed(st);
	t = now();
	if (tui_model_search(&m, "no such text anywhere", -1) != -1) {
		fprintf(stderr, "storebench: the search found something\n");
		return 1;
	}
	printf("search backward through %llu records: %.3f s, %llu records "
	    "read\n", (unsigned long long)n, now() - t,
	    (unsigned long long)(tui_store_replayed(st) - before));
	tui_model_free(&m);
	tui_store_free(st);
	return 0;
}
