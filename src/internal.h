/* Private helpers shared by the library's source files. Never installed. */
#ifndef REACH_INTERNAL_H
#define REACH_INTERNAL_H

#include <assert.h>

#include "reach/status.h"

/* Programmer errors trip this in debug builds; define REACH_ASSERT when building reach to
 * route them elsewhere. Release builds still return REACH_ERROR_INVALID_ARGUMENT. */
#ifndef REACH_ASSERT
#define REACH_ASSERT(condition) assert(condition)
#endif

/* For required pointers and counts: assert in debug, report in release. */
#define REACH_CHECK_ARG(condition)                                                                                     \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            REACH_ASSERT(!"reach: invalid argument: " #condition);                                                     \
            return REACH_ERROR_INVALID_ARGUMENT;                                                                       \
        }                                                                                                              \
    } while (0)

struct reach_two_bone_options;
reach_status reach__two_bone_check_options(const struct reach_two_bone_options *options);

#endif
