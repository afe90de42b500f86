/* The glTF reader on hostile GLB containers: the input follows the magic "glTF", so every run
 * exercises the header and chunk checks (fuzz_gltf_check.h says what is checked). */
#include "fuzz_gltf_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unsigned char *glb = malloc(size + 4);
    if (!glb) return 0;
    memcpy(glb, "glTF", 4);
    if (size) memcpy(glb + 4, data, size);
    gltf_fuzz_one(glb, size + 4);
    free(glb);
    return 0;
}
