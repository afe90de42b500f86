/* Private helpers shared by the library's source files. Never installed. */
#ifndef REACH_INTERNAL_H
#define REACH_INTERNAL_H

#include <stdlib.h>

#include "reach/status.h"
#include "reach/vecmath.h"

/* Programmer errors (a NULL where a pointer is required, a negative count) always return
 * REACH_ERROR_INVALID_ARGUMENT. Building reach with REACH_ENABLE_ASSERT also stops there, through
 * REACH_ASSERT, which an engine may define to route it to its own handler. */
#ifdef REACH_ENABLE_ASSERT
#ifndef REACH_ASSERT
/* Not assert(): release builds define NDEBUG, and the option must work there too. */
#define REACH_ASSERT(condition) ((condition) ? (void)0 : abort())
#endif
#else
#undef REACH_ASSERT
#define REACH_ASSERT(condition) ((void)0)
#endif

/* For required pointers and counts: report, and stop first under REACH_ENABLE_ASSERT. */
#define REACH_CHECK_ARG(condition)                                                                                     \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            REACH_ASSERT(!"reach: invalid argument: " #condition);                                                     \
            return REACH_ERROR_INVALID_ARGUMENT;                                                                       \
        }                                                                                                              \
    } while (0)

/* For the checks in front of a fast path that nearly every call passes. Saying so keeps the
 * compiler from taking the work behind them for cold code, which it would leave the small vector
 * and quaternion helpers out of line in. */
#if defined(__GNUC__)
#define REACH_USUALLY(condition) __builtin_expect(!!(condition), 1)
#else
#define REACH_USUALLY(condition) (condition)
#endif

/* For a small helper called from a hot loop and from a few cold places, which the compiler would
 * otherwise keep out of line for all of them. */
#if defined(__GNUC__)
#define REACH_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define REACH_ALWAYS_INLINE inline
#endif

/* Whether a rotation in a caller's pose (or a squared length) is of unit length to rounding: a
 * rotation of another length turns a bone alike in the solvers (which normalise it) but not in
 * the caller's forward kinematics, so a pose with one is written back made unit even when it
 * already reaches. */
static inline int reach__square_is_unit(reach_real square) { return reach_fabs(square - 1) <= 8 * REACH_REAL_EPSILON; }
static inline int reach__quat_is_unit(reach_quat q) { return reach__square_is_unit(reach_quat_dot(q, q)); }

struct reach_two_bone_settings;
reach_status reach__two_bone_check_settings(const struct reach_two_bone_settings *options);
/* Whether the options are the ones the two-bone solvers' short paths handle, valid as they are:
 * soft IK, stretch and weight at their defaults, any finite tolerance. */
int reach__two_bone_settings_ordinary(const struct reach_two_bone_settings *options);
/* Whether this machine runs the batch kernels of the instruction set reach_batch_isa names so
 * ("scalar", and any name this build has no test for, always). */
int reach__batch_isa_runs(const char *name);

#endif
