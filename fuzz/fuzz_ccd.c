/* Fuzzes CCD on fuzzed skeletons, targets and settings: the shared contract in fuzz_check.h. */
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    fuzz_rig rig;
    fuzz_rig_make(&rig, &in);
    fuzz_solve_and_check(&rig, reach_ccd_solve, reach_ccd_scratch_size, 0, &in);
    return 0;
}
