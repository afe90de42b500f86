/* Three-point mode: 2 000 frames of a head and two hands wandering over a humanoid of random
 * proportions. Planted feet never slide, never float or sink; stepping feet stay above the
 * ground; the feet step when the body moves away and stay near their places under it. */
#include <math.h>
#include <string.h>

#include "test_humanoid_rigs.h"

static unsigned char scratch[256 * 1024];

static reach_vec3 foot_position(const humanoid_rig *rig, const reach_humanoid *roles, const reach_transform *pose,
                                int i) {
    reach_transform world[PART_COUNT];
    reach_forward_kinematics(&rig->skeleton, pose, world);
    return world[roles->bones[i ? REACH_ROLE_RIGHT_FOOT : REACH_ROLE_LEFT_FOOT]].translation;
}

static void wandering_head_and_hands(void **state) {
    (void)state;
    test_rng rng = test_rng_make(51);
    for (int style = 0; style < STYLE_COUNT; style++) {
        humanoid_rig rig;
        humanoid_rig_make(&rng, style, &rig);
        reach_humanoid roles;
        assert_int_equal(reach_humanoid_find(&rig.skeleton, rig.names, &roles, NULL), REACH_OK);
        assert_int_equal(reach_humanoid_natural_joints(&rig.skeleton, &roles, rig.joints), REACH_OK);
        reach_transform pose[PART_COUNT], world[PART_COUNT];
        reach_pose_rest(&rig.skeleton, pose);
        reach_forward_kinematics(&rig.skeleton, pose, world);
        reach_three_point_settings settings = reach_three_point_default_settings();
        reach_three_point_state walk;
        assert_int_equal(reach_three_point_init(&rig.skeleton, &roles, &settings, pose, &walk), REACH_OK);
        size_t need = reach_full_body_scratch_size(&rig.skeleton);
        assert_true(need <= sizeof scratch);
        reach_real h = rig.height, tol = REACH_R(1e-3) * h, dt = (reach_real)1 / 60;
        reach_vec3 head0 = world[roles.bones[REACH_ROLE_HEAD]].translation;
        reach_vec3 hand0[2] = {world[roles.bones[REACH_ROLE_LEFT_HAND]].translation,
                               world[roles.bones[REACH_ROLE_RIGHT_HAND]].translation};
        reach_real phase[4];
        for (int k = 0; k < 4; k++)
            phase[k] = test_uniform(&rng, 0, 6);
        int frames = test_scaled(2000) < 2000 ? 300 : 2000, reached = 0;
        reach_real lag = 0;
        reach_vec3 last_foot[2] = {foot_position(&rig, &roles, pose, 0), foot_position(&rig, &roles, pose, 1)};
        reach_real last_phase[2] = {0, 0};
        for (int f = 0; f < frames; f++) {
            reach_real time = (reach_real)f * dt;
            /* The head drifts about (under a quarter of the height a second), turns, and stays 3 to
             * 11 % of the height below its standing height (standing straight, the head cannot move
             * across without coming down); the hands wave in front of the chest. */
            reach_real yaw = REACH_R(0.7) * (reach_sin(REACH_R(0.3) * time + phase[0]) - reach_sin(phase[0]));
            reach_body_target head;
            memset(&head, 0, sizeof head);
            head.use_position = head.use_rotation = 1;
            head.position = reach_vec3_add(
                head0,
                reach_vec3_make(REACH_R(0.6) * h * (reach_sin(REACH_R(0.25) * time + phase[1]) - reach_sin(phase[1])),
                                -h * (REACH_R(0.03) + REACH_R(0.04) * (1 - reach_cos(REACH_R(0.5) * time + phase[2]))),
                                REACH_R(0.8) * h * (reach_sin(REACH_R(0.2) * time + phase[3]) - reach_sin(phase[3]))));
            head.rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), yaw);
            reach_body_target hands[2];
            for (int i = 0; i < 2; i++) {
                memset(&hands[i], 0, sizeof hands[i]);
                hands[i].use_position = 1;
                reach_vec3 rest = reach_vec3_sub(hand0[i], head0);
                reach_vec3 in_front =
                    reach_vec3_make(rest.x * REACH_R(0.4), REACH_R(-0.3) * h,
                                    REACH_R(0.2) * h + REACH_R(0.05) * h * reach_sin(time * 2 + (reach_real)i));
                hands[i].position = reach_vec3_add(head.position, reach_quat_rotate(head.rotation, in_front));
            }
            reach_full_body_result r;
            reach_status st = reach_three_point_solve(&rig.skeleton, &roles, &settings, &head, &hands[0], &hands[1], dt,
                                                      &walk, pose, scratch, need, &r);
            if (st != REACH_OK) fail_msg("frame %d: %s", f, reach_status_string(st));
            reached += r.residual <= tol && r.angle_residual <= REACH_R(0.01745);
            for (int i = 0; i < 2; i++) {
                reach_vec3 foot = foot_position(&rig, &roles, pose, i);
                reach_real ground = settings.ground_height + walk.ankle_height;
                if (walk.phase[i] == 0 && last_phase[i] == 0) {
                    if (reach_vec3_distance(foot, last_foot[i]) > tol)
                        fail_msg("style %d frame %d (reached %d, residual %g h): planted foot %d slid %g", style, f,
                                 r.reached, (double)(r.residual / h), i,
                                 (double)reach_vec3_distance(foot, last_foot[i]));
                    ASSERT_NEAR(foot.y, ground, tol, "a planted foot on the ground");
                }
                if (foot.y < ground - tol) fail_msg("frame %d: foot %d below the ground", f, i);
                last_foot[i] = foot;
                last_phase[i] = walk.phase[i];
            }
            /* The feet keep up: their midpoint stays under the head. */
            reach_vec3 mid = reach_vec3_scale(reach_vec3_add(last_foot[0], last_foot[1]), REACH_R(0.5));
            reach_real behind = reach_sqrt((mid.x - head.position.x) * (mid.x - head.position.x) +
                                           (mid.z - head.position.z) * (mid.z - head.position.z));
            lag = reach_max(lag, behind);
        }
        if (walk.steps < frames / 200) fail_msg("style %d: %d steps in %d frames", style, walk.steps, frames);
        if (reached < frames * 99 / 100) fail_msg("style %d: %d of %d frames reached", style, reached, frames);
        print_message(
            "style %d: %d steps, %d of %d frames reached, feet at most %.3f of the height from under the head\n", style,
            walk.steps, reached, frames, (double)(lag / h));
        if (lag > REACH_R(0.2) * h)
            fail_msg("style %d: the feet fell %g of the height behind", style, (double)(lag / h));
    }
}

static void bad_input_leaves_state_untouched(void **state) {
    (void)state;
    test_rng rng = test_rng_make(52);
    humanoid_rig rig;
    humanoid_rig_make(&rng, S_PLAIN, &rig);
    reach_humanoid roles;
    assert_int_equal(reach_humanoid_find(&rig.skeleton, rig.names, &roles, NULL), REACH_OK);
    reach_transform pose[PART_COUNT];
    reach_pose_rest(&rig.skeleton, pose);
    reach_three_point_state walk, before;
    assert_int_equal(reach_three_point_init(&rig.skeleton, &roles, NULL, pose, &walk), REACH_OK);
    before = walk;
    reach_body_target head, hand;
    memset(&head, 0, sizeof head);
    memset(&hand, 0, sizeof hand);
    head.use_position = 1;
    head.position = reach_vec3_make(0, (reach_real)NAN, 0);
    size_t need = reach_full_body_scratch_size(&rig.skeleton);
    assert_int_equal(reach_three_point_solve(&rig.skeleton, &roles, NULL, &head, &hand, &hand, REACH_R(0.01), &walk,
                                             pose, scratch, need, NULL),
                     REACH_ERROR_NOT_FINITE);
    head.position = reach_vec3_make(0, 1, 0);
    assert_int_equal(
        reach_three_point_solve(&rig.skeleton, &roles, NULL, &head, &hand, &hand, 0, &walk, pose, scratch, need, NULL),
        REACH_ERROR_INVALID_ARGUMENT);
    reach_three_point_settings zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    assert_int_equal(reach_three_point_solve(&rig.skeleton, &roles, &zeroed, &head, &hand, &hand, REACH_R(0.01), &walk,
                                             pose, scratch, need, NULL),
                     REACH_ERROR_SETTINGS_NOT_INITIALIZED);
    if (!test_bytes_equal(&walk, &before, sizeof walk)) fail_msg("state written on error");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wandering_head_and_hands),
        cmocka_unit_test(bad_input_leaves_state_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
