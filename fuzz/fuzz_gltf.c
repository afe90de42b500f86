/* The glTF reader on hostile JSON text (fuzz_gltf_check.h says what is checked). */
#include "fuzz_gltf_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    gltf_fuzz_one(data, size);
    return 0;
}
