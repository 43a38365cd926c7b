/*
 * tests/fuzz/fuzz-scenario.c - the scenario language of `urbscope sim`:
 * any text parsed as a scenario file, and a bad line reported.
 */
#include <stdlib.h>

#include "hcd/machine.h"
#include "samples/samples.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_scenario *sc = NULL;
	char		*text, err[512];

	sim_register(&sample_catalog);	/* the model and driver names */
	if ((text = malloc(size + 1)) == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	if (sim_scenario_parse(text, "fuzz.scn", &sc, err, sizeof err) == 0)
		sim_scenario_free(sc);
	else if (err[0] == '\0')
		abort();
	free(text);
	return 0;
}
