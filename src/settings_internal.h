/* How solvers take their settings: NULL means the defaults, and a struct not made by its
 * defaults function is refused (IK defaults are not zero, so a zeroed struct would otherwise
 * solve as a silent no-op). Private; never installed. */
#ifndef REACH_SETTINGS_INTERNAL_H
#define REACH_SETTINGS_INTERNAL_H

#include "reach/solver.h"

/* The value the defaults functions leave in a settings struct's made_by_defaults field. */
#define REACH__SETTINGS_TAG 0x72656163u

/* *out = the defaults for NULL, else *settings when it was made by reach_solver_default_settings;
 * REACH_ERROR_SETTINGS_NOT_INITIALIZED otherwise. */
reach_status reach__solver_settings_resolve(const reach_solver_settings *settings, reach_solver_settings *out);

#endif
