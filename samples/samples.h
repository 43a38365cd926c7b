/*
 * samples/samples.h - urbscope's catalog of simulated hardware and
 * drivers (samples/samples.c): what a program hands sim_register() so
 * that scenarios can plug these models and load these drivers by name.
 */
#ifndef SAMPLES_SAMPLES_H
#define SAMPLES_SAMPLES_H

#include "hcd/machine.h"

extern const struct sim_catalog sample_catalog;

#endif /* SAMPLES_SAMPLES_H */
