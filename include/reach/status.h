/** @file
 * reach — result codes.
 *
 * Errors come in two tiers. What can happen at run time with data from a file or a user
 * (non-finite numbers, a zero-length bone, a broken hierarchy) is reported with a
 * reach_status, and the function leaves every output untouched. Programmer errors (a NULL
 * pointer where the documentation requires one) return REACH_ERROR_INVALID_ARGUMENT too; build
 * reach with REACH_ENABLE_ASSERT defined to stop at them instead, through REACH_ASSERT (assert()
 * unless you define it to route them to your engine's own handler). */
#ifndef REACH_STATUS_H
#define REACH_STATUS_H

#include "config.h"

REACH_EXTERN_C_BEGIN

typedef enum reach_status {
    REACH_OK = 0,
    /** A required pointer was NULL, a count was negative, or an option was out of its range. */
    REACH_ERROR_INVALID_ARGUMENT,
    /** An input number was NaN or infinite. */
    REACH_ERROR_NOT_FINITE,
    /** Inputs were finite but so large that their differences overflow reach_real. */
    REACH_ERROR_OUT_OF_RANGE,
    /** A bone that needs a length has none (relative to its chain, see REACH_ZERO_LENGTH_RATIO). */
    REACH_ERROR_ZERO_LENGTH,
    /** A rotation quaternion had zero length, or a skeleton's rest rotation was not of unit
     * length (reach_skeleton_validate); poses and targets may hold any non-zero quaternion. */
    REACH_ERROR_BAD_QUATERNION,
    /** A parent index was out of range or did not come before its child. */
    REACH_ERROR_BAD_PARENT,
    /** A joint axis was zero, or a joint's limits were inverted or out of range. */
    REACH_ERROR_BAD_JOINT,
    /** The bones asked for do not form a chain of the required shape. */
    REACH_ERROR_BAD_CHAIN,
    /** A caller-supplied buffer was too small; the size query says how much is needed. */
    REACH_ERROR_BUFFER_TOO_SMALL,
    /** A settings struct was not made by its defaults function (a zeroed struct, say): IK
     * defaults are not zero, so such settings are refused rather than solved as a no-op. */
    REACH_ERROR_SETTINGS_NOT_INITIALIZED
} reach_status;

/** A short English description of a status, for messages. Never NULL. */
REACH_API const char *reach_status_string(reach_status status);

REACH_EXTERN_C_END

#endif
