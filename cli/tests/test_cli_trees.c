/* Several targets on one tree through the iterative solvers: a two-armed figure reaches with
 * both hands, weights decide between hands that cannot both reach, hands meet ("meet"
 * targets: a closed loop), and chain_root keeps the bones above it still. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const solvers[] = {"fabrik", "ccd", "jacobian"};
#define SOLVER_COUNT 3

/* Pelvis, chest, and two arms of 0.3 + 0.3 from shoulders 0.2 to each side. The forearms start
 * bent forward (0.5 rad about y), so the hands do not start on one line through both shoulders
 * (a pose from which no rotation is preferred). */
#define FIGURE                                                                                                         \
    "{'bones':[{'name':'pelvis','position':[0,1,0]},{'name':'chest','parent':'pelvis','position':[0,0.5,0]},"          \
    "{'name':'l_arm','parent':'chest','position':[0.2,0.1,0]},"                                                        \
    "{'name':'l_fore','parent':'l_arm','position':[0.3,0,0],'rotation':[0,-0.479425538604203,0,0.8775825618903728]},"  \
    "{'name':'l_hand','parent':'l_fore','position':[0.3,0,0]},{'name':'r_arm','parent':'chest','position':[-0.2,0.1,"  \
    "0]},{'name':'r_fore','parent':'r_arm','position':[-0.3,0,0],'rotation':[0,0.479425538604203,0,"                   \
    "0.8775825618903728]},{'name':'r_hand','parent':'r_fore','position':[-0.3,0,0]}]}"
static const int figure_parents[8] = {-1, 0, 1, 2, 3, 1, 5, 6};
enum { PELVIS = 0, CHEST = 1, L_HAND = 4, R_ARM = 5, R_HAND = 7 };

static cli_run solve_figure(const char *solver, const char *chain_root, const char *targets) {
    char request[4096];
    snprintf(request, sizeof request, "{'rig':" FIGURE ",'solver':{'type':'%s'}%s,'targets':%s}", solver, chain_root,
             targets);
    return solve_ok(request);
}

static reach_vec3 world(const cJSON *result, int bone) {
    char path[64];
    snprintf(path, sizeof path, "bones[%d].world_position", bone);
    return json_vec3(result, path);
}

static void both_hands_reach(void **state) {
    (void)state;
    reach_vec3 left = reach_vec3_make(0.5, 1.9, 0.3), right = reach_vec3_make(-0.4, 1.4, 0.4);
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run run = solve_figure(solvers[s], "",
                                   "[{'bone':'l_hand','position':[0.5,1.9,0.3]},"
                                   "{'bone':'r_hand','position':[-0.4,1.4,0.4]}]");
        assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
        /* The default tolerance: 1e-4 × the moving bones (chest and both arms), about 2.15. */
        assert_true(json_number(run.json, "residual") <= 2.2e-4);
        /* residual: the larger of the two distances (to rounding) */
        double residual = json_number(run.json, "residual");
        double l = reach_vec3_distance(world(run.json, L_HAND), left);
        double r = reach_vec3_distance(world(run.json, R_HAND), right);
        assert_true(fabs((l > r ? l : r) - residual) < 1e-15);
        assert_self_consistent(run.json, figure_parents, 8);
        cli_run_free(&run);
    }
}

/* Hands pulled 4 apart cannot both arrive: the heavier target gets its hand nearer. */
static void weights_decide_a_conflict(void **state) {
    (void)state;
    reach_vec3 left = reach_vec3_make(2, 1.6, 0), right = reach_vec3_make(-2, 1.6, 0);
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run left_wins = solve_figure(solvers[s], "",
                                         "[{'bone':'l_hand','position':[2,1.6,0],'weight':10},"
                                         "{'bone':'r_hand','position':[-2,1.6,0],'weight':1}]");
        cli_run right_wins = solve_figure(solvers[s], "",
                                          "[{'bone':'l_hand','position':[2,1.6,0],'weight':1},"
                                          "{'bone':'r_hand','position':[-2,1.6,0],'weight':10}]");
        assert_true(cJSON_IsFalse(json_at(left_wins.json, "reached")));
        double l1 = reach_vec3_distance(world(left_wins.json, L_HAND), left);
        double r1 = reach_vec3_distance(world(left_wins.json, R_HAND), right);
        double l2 = reach_vec3_distance(world(right_wins.json, L_HAND), left);
        double r2 = reach_vec3_distance(world(right_wins.json, R_HAND), right);
        assert_true(l1 < r1 - 0.3);
        assert_true(r2 < l2 - 0.3);
        /* residual is the larger distance left */
        assert_true(fabs(json_number(left_wins.json, "residual") - r1) < 1e-12);
        cli_run_free(&left_wins);
        cli_run_free(&right_wins);
    }
}

/* A closed loop: the left hand meets the right one, wherever that is. */
static void hands_meet(void **state) {
    (void)state;
    const char *roots[] = {"", ",'chain_root':'chest'"};
    for (int s = 0; s < SOLVER_COUNT; s++) {
        for (int r = 0; r < 2; r++) {
            cli_run run = solve_figure(solvers[s], roots[r], "[{'bone':'l_hand','meet':'r_hand'}]");
            assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
            double gap = reach_vec3_distance(world(run.json, L_HAND), world(run.json, R_HAND));
            assert_true(fabs(gap - json_number(run.json, "residual")) < 1e-12);
            assert_true(gap <= 2.2e-4);
            assert_self_consistent(run.json, figure_parents, 8);
            cli_run_free(&run);
        }
    }
}

/* chain_root 'chest': the pelvis keeps its rest transform exactly; so does the right arm when
 * only the left hand has a target. */
static void chain_root_keeps_the_bones_above(void **state) {
    (void)state;
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run run = solve_figure(solvers[s], ",'chain_root':'chest'", "[{'bone':'l_hand','position':[0.3,1.2,0.5]}]");
        assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
        reach_transform pelvis = json_bone_local(run.json, PELVIS);
        assert_vec3_near(pelvis.translation, reach_vec3_make(0, 1, 0), 0);
        assert_true(pelvis.rotation.w == 1);
        assert_vec3_near(world(run.json, CHEST), reach_vec3_make(0, 1.5, 0), 0);
        reach_quat r_fore = json_bone_local(run.json, R_ARM + 1).rotation;
        assert_true(r_fore.y == 0.479425538604203 && r_fore.w == 0.8775825618903728);
        assert_true(json_bone_local(run.json, R_ARM).rotation.w == 1);
        cli_run_free(&run);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(both_hands_reach),
        cmocka_unit_test(weights_decide_a_conflict),
        cmocka_unit_test(hands_meet),
        cmocka_unit_test(chain_root_keeps_the_bones_above),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
