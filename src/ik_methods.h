/* The spokes: what FABRIK (fabrik.c) and CCD (ccd.c) each supply, and the tables the hub
 * (ik_methods.c) builds from them. Only the hub calls a method's functions; a method never calls
 * another's. Private; never installed. */
#ifndef REACH_IK_METHODS_H
#define REACH_IK_METHODS_H

#include "ik_driver.h"

/* One FABRIK iteration on any solve: both passes, or on a free chain its positions-only form. */
int reach__fabrik_iterate(reach__ik *ik);

/* One CCD sweep, tips to root. */
int reach__ccd_sweep(reach__ik *ik);

extern const reach__ik_method reach__fabrik_method;
extern const reach__ik_method reach__ccd_method;

#endif
