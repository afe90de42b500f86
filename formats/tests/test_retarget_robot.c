/* Retargeting onto a humanoid robot read from a URDF the test writes (retarget_robot.h: 29 hinges
 * with limits, +z up, +x forward): the test's walk (retarget_walk.h) on a CMU-named T-pose body
 * carried over. Head, hands and feet relative to the hips as the source's scaled by the heights
 * (mean error at most 10 % of the height), limits held, no joint value and no turn of the floating
 * base jumping more than 0.3 rad between frames at 60 frames a second, planted feet still and on
 * the ground, the same bytes on a second run. */
#include <math.h>
#include <stdlib.h>

#include "reach/limits.h"
#include "reach/retarget.h"
#include "reach/urdf.h"
#include "retarget_robot.h"
#include "retarget_walk.h"

#define FRAMES     180
#define RATE       REACH_R(60.0)
#define MAX_LINKS  64
#define MAX_VALUES 64

static body source;
static walk_clip clip;
static reach_rig robot;
static reach_humanoid roles;
static reach_transform poses[FRAMES][MAX_LINKS];
static reach_retarget_result results[FRAMES];
static unsigned char memory[1 << 20];
static reach_retarget *retarget;

static int set_up(void **state) {
    (void)state;
    test_rng rng = test_rng_make(27);
    body_make(&rng, S_CMU, &source);
    if (reach_humanoid_natural_joints(&source.rig.skeleton, &source.roles, source.rig.joints) != REACH_OK)
        fail_msg("natural joints");
    walk_clip_make(&source.rig, &source.roles, FRAMES, RATE, &clip);
    static char text[16384];
    size_t length = robot_urdf(text, sizeof text);
    if (length >= sizeof text) fail_msg("URDF text too long");
    char error[256];
    if (reach_urdf_read(text, length, &robot, error, sizeof error) != REACH_OK) fail_msg("%s", error);
    if (robot.bone_count > MAX_LINKS) fail_msg("links");
    roles = robot_roles(&robot);
    return 0;
}

static int tear_down(void **state) {
    (void)state;
    reach_rig_free(&robot);
    return 0;
}

static reach_retarget_settings robot_settings(void) {
    reach_retarget_settings s = reach_retarget_default_settings();
    s.target_up = reach_vec3_make(0, 0, 1);
    s.target_forward = reach_vec3_make(1, 0, 0);
    return s;
}

static void run(void) {
    size_t need = reach_retarget_memory_size(&source.rig.skeleton, &robot.skeleton);
    if (need > sizeof memory) fail_msg("memory %zu", need);
    reach_retarget_settings s = robot_settings();
    int bad_role = -1, bad_side = -1;
    if (reach_retarget_init(&source.rig.skeleton, &source.roles, &robot.skeleton, &roles, &s, memory, need, &retarget,
                            &bad_role, &bad_side) != REACH_OK)
        fail_msg("init: role %d side %d", bad_role, bad_side);
    for (int f = 0; f < FRAMES; f++)
        if (reach_retarget_frame(retarget, clip.poses[f], 1 / RATE, poses[f], &results[f]) != REACH_OK)
            fail_msg("frame %d", f);
}

static reach_real lowest_z(const reach_transform *world, int count) {
    reach_real z = world[0].translation.z;
    for (int i = 1; i < count; i++)
        z = reach_min(z, world[i].translation.z);
    return z;
}

static const int key_roles[5] = {REACH_ROLE_HEAD, REACH_ROLE_LEFT_HAND, REACH_ROLE_RIGHT_HAND, REACH_ROLE_LEFT_FOOT,
                                 REACH_ROLE_RIGHT_FOOT};

static void key_points_as_the_source(void **state) {
    (void)state;
    run();
    reach_transform rest[MAX_LINKS], world[MAX_LINKS], sw[PART_COUNT];
    reach_forward_kinematics(&robot.skeleton, robot.skeleton.rest, rest);
    reach_real height = rest[roles.bones[REACH_ROLE_HEAD]].translation.z - lowest_z(rest, robot.bone_count);
    double scale = (double)(height / source.rig.height), sum = 0;
    /* y up, z forward onto z up, x forward: a third of a turn about (1, 1, 1). */
    reach_quat axes = reach_quat_from_axis_angle(reach_vec3_normalize_safe(reach_vec3_make(1, 1, 1), reach_vec3_zero()),
                                                 REACH_R(2.0943951023931953));
    for (int f = 0; f < FRAMES; f++) {
        reach_forward_kinematics(&source.rig.skeleton, clip.poses[f], sw);
        reach_forward_kinematics(&robot.skeleton, poses[f], world);
        reach_vec3 sh = sw[source.roles.bones[REACH_ROLE_HIPS]].translation;
        reach_vec3 th = world[roles.bones[REACH_ROLE_HIPS]].translation;
        for (int k = 0; k < 5; k++) {
            reach_vec3 want = reach_vec3_scale(
                reach_quat_rotate(axes, reach_vec3_sub(sw[source.roles.bones[key_roles[k]]].translation, sh)),
                (reach_real)scale);
            sum += (double)reach_vec3_distance(want, reach_vec3_sub(world[roles.bones[key_roles[k]]].translation, th));
        }
    }
    double error = sum / (5.0 * FRAMES) / (double)height;
    print_message("    key-point error: %.4f of the height (%d hinges)\n", error,
                  reach_skeleton_value_count(&robot.skeleton));
    if (error > 0.10) fail_msg("key points off by %.4f of the height on average", error);
}

static void limits_held_and_smooth(void **state) {
    (void)state;
    run();
    const reach_skeleton *solved = reach_retarget_target_skeleton(retarget);
    int count = reach_skeleton_value_count(&robot.skeleton);
    assert_true(count >= 29 && count <= MAX_VALUES);
    reach_real values[MAX_VALUES], last[MAX_VALUES];
    double worst_jump = 0, worst_limit = 0;
    int hips = roles.bones[REACH_ROLE_HIPS];
    for (int f = 0; f < FRAMES; f++) {
        worst_limit = fmax(worst_limit, (double)reach_pose_limit_error(solved, poses[f], NULL));
        reach_pose_get_values(&robot.skeleton, poses[f], values);
        if (f > 0) {
            for (int v = 0; v < count; v++)
                worst_jump = fmax(worst_jump, fabs((double)(values[v] - last[v])));
            worst_jump = fmax(worst_jump,
                              (double)reach_quat_angle_between(poses[f][hips].rotation, poses[f - 1][hips].rotation));
        }
        memcpy(last, values, sizeof last);
    }
    print_message("    largest joint jump in a frame: %.3f rad; largest limit error %.2g\n", worst_jump, worst_limit);
    if (worst_limit > 1e-4) fail_msg("a limit broken by %.3g", worst_limit);
    if (worst_jump > 0.3) fail_msg("a joint jumped %.3f rad in one frame", worst_jump);
}

static void planted_feet_held(void **state) {
    (void)state;
    run();
    reach_transform rest[MAX_LINKS], world[MAX_LINKS], last[MAX_LINKS];
    reach_forward_kinematics(&robot.skeleton, robot.skeleton.rest, rest);
    reach_real ground = lowest_z(rest, robot.bone_count);
    const int *b = roles.bones;
    reach_real leg =
        reach_vec3_distance(rest[b[REACH_ROLE_LEFT_UPPER_LEG]].translation,
                            rest[b[REACH_ROLE_LEFT_LOWER_LEG]].translation) +
        reach_vec3_distance(rest[b[REACH_ROLE_LEFT_LOWER_LEG]].translation, rest[b[REACH_ROLE_LEFT_FOOT]].translation);
    int truth = 0, found = 0;
    double slide = 0, off_ground = 0, sink = 0;
    for (int f = 0; f < FRAMES; f++) {
        reach_forward_kinematics(&robot.skeleton, poses[f], world);
        for (int side = 0; side < 2; side++) {
            int foot = b[side ? REACH_ROLE_RIGHT_FOOT : REACH_ROLE_LEFT_FOOT];
            reach_real rest_height = rest[foot].translation.z - ground, height = world[foot].translation.z - ground;
            truth += clip.planted[f][side];
            found += clip.planted[f][side] && results[f].planted[side];
            sink = fmax(sink, (double)((rest_height - height) / leg));
            if (!results[f].planted[side]) continue;
            off_ground = fmax(off_ground, fabs((double)((height - rest_height) / leg)));
            if (f > 0 && results[f - 1].planted[side])
                slide =
                    fmax(slide, (double)(reach_vec3_distance(world[foot].translation, last[foot].translation) / leg));
        }
        memcpy(last, world, sizeof last);
    }
    print_message("    planted frames found: %d of %d; slide %.5f, off the ground %.5f, sink %.5f of the leg\n", found,
                  truth, slide, off_ground, sink);
    if (found < truth * 8 / 10) fail_msg("only %d of %d planted frames kept", found, truth);
    if (slide >= 0.002) fail_msg("a planted foot slid %.5f of the leg in a frame", slide);
    if (off_ground > 0.005) fail_msg("a planted foot stood %.5f of the leg off the ground", off_ground);
    if (sink > 0.005) fail_msg("a foot sank %.5f of the leg", sink);
}

static reach_transform first_run[FRAMES][MAX_LINKS];

static void same_bytes(void **state) {
    (void)state;
    run();
    memcpy(first_run, poses, sizeof first_run);
    run();
    assert_true(test_bytes_equal(first_run, poses, sizeof poses));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(key_points_as_the_source),
        cmocka_unit_test(limits_held_and_smooth),
        cmocka_unit_test(planted_feet_held),
        cmocka_unit_test(same_bytes),
    };
    return cmocka_run_group_tests(tests, set_up, tear_down);
}
