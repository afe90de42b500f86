/* The Jacobian solvers on the KUKA LBR iiwa 14 R820: ROBOT_POSES random reachable 6-D tool poses, every
 * method and the robust mode (see robots/robot_runs.h). */
#include "test_support.h"
#include "robots/robot_runs.h"

static void test_iiwa14_poses(void **state) {
    (void)state;
    test_robot r;
    robot_iiwa14(&r);
    robot_all_methods(&r, 0x1114);
}

static void test_iiwa14_dls_from_mid_range(void **state) {
    (void)state;
    test_robot r;
    robot_iiwa14(&r);
    robot_dls_from_mid_range(&r, 0x1114, 91.6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iiwa14_poses),
        cmocka_unit_test(test_iiwa14_dls_from_mid_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
