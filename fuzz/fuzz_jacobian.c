/* Fuzzes the Jacobian family (transpose, pseudoinverse, DLS, SDLS, with limit locking, the null
 * space and seeded restarts) on fuzzed skeletons, targets and settings: the shared contract in
 * fuzz_check.h. Also the Jacobian itself on the same problem: an error leaves the matrix
 * untouched, and success names a bone in range for every column. */
#include "fuzz_check.h"

/* Rows: 6 per target; columns: 3 per bone. */
#define MAX_ENTRIES (6 * FUZZ_MAX_TARGETS * 3 * FUZZ_MAX_BONES)

static void check_matrix(const fuzz_rig *r, fuzz_input *in) {
    const reach_skeleton *sk = &r->skeleton;
    size_t need = reach_jacobian_scratch_size(sk, r->target_count);
    unsigned char *scratch = malloc(need > 0 ? need : 1);
    FUZZ_REQUIRE(scratch != NULL);
    int root = (int)fuzz_byte(in) % (sk->bone_count + 1) - 1;
    int rows = -7, columns = -7;
    reach_status st = reach_jacobian_dimensions(sk, r->targets, r->target_count, root, &rows, &columns, scratch, need);
    if (st != REACH_OK) {
        FUZZ_REQUIRE(rows == -7 && columns == -7);
        free(scratch);
        return;
    }
    FUZZ_REQUIRE(rows >= 0 && rows <= 6 * r->target_count && columns >= 0 && columns <= 3 * sk->bone_count);
    reach_real matrix[MAX_ENTRIES], untouched[MAX_ENTRIES];
    int bones[3 * FUZZ_MAX_BONES];
    memset(matrix, 0x5a, sizeof matrix);
    memcpy(untouched, matrix, sizeof matrix);
    st = reach_jacobian_matrix(sk, r->targets, r->target_count, root, r->pose, matrix, bones, scratch, need);
    free(scratch);
    if (st != REACH_OK) {
        FUZZ_REQUIRE(memcmp(matrix, untouched, sizeof matrix) == 0);
        return;
    }
    /* Nothing written past rows × columns. */
    size_t used = (size_t)rows * (size_t)columns;
    FUZZ_REQUIRE(memcmp(matrix + used, untouched + used, sizeof matrix - used * sizeof matrix[0]) == 0);
    for (int c = 0; c < columns; ++c)
        FUZZ_REQUIRE(bones[c] >= 0 && bones[c] < sk->bone_count);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    fuzz_rig rig;
    fuzz_rig_make(&rig, &in);
    if (fuzz_byte(&in) & 1) check_matrix(&rig, &in);
    fuzz_solve_and_check(&rig, reach_jacobian_solve, reach_jacobian_scratch_size, 0, &in);
    return 0;
}
