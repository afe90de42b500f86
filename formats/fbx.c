/* FBX characters: the arguments checked, files read into memory, a failed read left empty. The
 * reading itself is fbx_read.c's (through assimp). */
#include <stdlib.h>
#include <string.h>

#include "fbx_internal.h"
#include "file_text.h"
#include "rig_build.h"

void reach_fbx_free(reach_fbx_character *character) {
    if (!character) return;
    reach_rig_free(&character->rig);
    formats_free_clips(character->clips, character->clip_names, character->clip_count);
    free(character->inverse_bind);
    memset(character, 0, sizeof *character);
}

reach_status reach_fbx_read(const unsigned char *data, size_t length, reach_real sample_rate,
                            reach_fbx_character *character, char *error, size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if (character) memset(character, 0, sizeof *character);
    if (!character || (!data && length > 0) || !(sample_rate >= 0) || !reach_is_finite(sample_rate)) {
        formats_error(error, error_size, "no data or no character given, or a sample rate that is no rate");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    reach_status st = fbx_read_scene(data ? data : (const unsigned char *)"", length,
                                     sample_rate == 0 ? (reach_real)30 : sample_rate, character, error, error_size);
    if (st != REACH_OK) reach_fbx_free(character);
    return st;
}

reach_status reach_fbx_read_file(const char *path, reach_real sample_rate, reach_fbx_character *character, char *error,
                                 size_t error_size) {
    if (character) memset(character, 0, sizeof *character);
    if (!path || !character) {
        formats_error(error, error_size, "no path or no character given");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    char *bytes;
    size_t length;
    reach_status st = formats_read_text(path, &bytes, &length, error, error_size);
    if (st != REACH_OK) return st;
    st = reach_fbx_read((const unsigned char *)bytes, length, sample_rate, character, error, error_size);
    free(bytes);
    if (st != REACH_OK) formats_prefix_path(path, error, error_size);
    return st;
}
