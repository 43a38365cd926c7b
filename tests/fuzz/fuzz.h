/*
 * tests/fuzz/fuzz.h - what every fuzz target shares.  A target is one
 * LLVMFuzzerTestOneInput(); built with clang -fsanitize=fuzzer it is a
 * libFuzzer binary (make fuzz), built with replay.c it runs the inputs
 * named on its command line once each (make test, under ASan and UBSan).
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int	 LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* FUZZ_H */
