/* Result-code descriptions. */
#include "reach/status.h"

const char *reach_status_string(reach_status status) {
    switch (status) {
    case REACH_OK: return "ok";
    case REACH_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case REACH_ERROR_NOT_FINITE: return "input is NaN or infinite";
    case REACH_ERROR_OUT_OF_RANGE: return "input is too large to compute with";
    case REACH_ERROR_ZERO_LENGTH: return "bone has zero length";
    case REACH_ERROR_BAD_QUATERNION: return "quaternion has zero length, or a rest rotation is not of unit length";
    case REACH_ERROR_BAD_PARENT: return "parent index is out of range or does not precede its child";
    case REACH_ERROR_BAD_JOINT: return "joint axis or limits are invalid";
    case REACH_ERROR_BAD_CHAIN: return "bones do not form a chain of the required shape";
    case REACH_ERROR_BUFFER_TOO_SMALL: return "buffer is too small";
    case REACH_ERROR_SETTINGS_NOT_INITIALIZED:
        return "settings were not made by their defaults function (start from reach_*_default_settings)";
    }
    return "unknown status";
}
