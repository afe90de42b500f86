/* A build of reach without assimp (REACH_FORMATS_ASSIMP=OFF, or no libassimp-dev): the FBX
 * functions stay, and every file is refused saying why. */
#include "fbx_internal.h"
#include "file_text.h"

int reach_fbx_available(void) { return 0; }

reach_status fbx_read_scene(const unsigned char *data, size_t length, reach_real sample_rate,
                            reach_fbx_character *character, char *error, size_t error_size) {
    (void)data, (void)length, (void)sample_rate, (void)character;
    formats_error(error, error_size, "this build of reach reads no FBX (it was built without assimp)");
    return REACH_ERROR_INVALID_ARGUMENT;
}
