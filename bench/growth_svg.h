/* The growth plot: how FABRIK's and CCD's time per solve and iterations grow with the number
 * of bones (the fabrik/N/single and ccd/N/single figures of this run), as a small SVG file. */
#ifndef REACH_BENCH_GROWTH_SVG_H
#define REACH_BENCH_GROWTH_SVG_H

#include "bench.h"

/* Writes the plot of the figures this run recorded; 0 when the file cannot be written. */
int growth_svg_write(const bench_run *run, const char *path);

#endif
