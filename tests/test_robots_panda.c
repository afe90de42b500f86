/* The Jacobian solvers on the Franka Emika Panda: ROBOT_POSES random reachable 6-D tool poses, every
 * method and the robust mode (see robots/robot_runs.h). */
#include "test_support.h"
#include "robots/robot_runs.h"

static void test_panda_poses(void **state) {
    (void)state;
    test_robot r;
    robot_panda(&r);
    robot_all_methods(&r, 0xfa4da);
}

static void test_panda_dls_from_mid_range(void **state) {
    (void)state;
    test_robot r;
    robot_panda(&r);
    robot_dls_from_mid_range(&r, 0xfa4da, 69.9);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_panda_poses),
        cmocka_unit_test(test_panda_dls_from_mid_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
