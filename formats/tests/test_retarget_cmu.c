/* Retargeting a real motion-capture walk (CMU subject 12, trial 1: 524 frames at 120 frames a
 * second, in ../shared/data) onto a Mixamo-named body of the test's and onto the test's humanoid
 * robot (retarget_robot.h). Roles found from the CMU names; the source's ground the lowest joint
 * over the clip; the file's first frame, the actor's T-pose, left out. Planted target feet held
 * (under 0.2 % of the leg a frame, on the ground within 0.5 %), joints turning under 0.3 rad a
 * frame, robot limits held, and head and feet relative to the hips and hands relative to the
 * shoulders as the source's, each scaled by its own limb (the trunk, the legs, the arms): the
 * skeleton of this conversion puts its head joint low on the neck, so its height measures
 * something else than a body's (mean error at most 4 % of the height on the body, 10 % on the
 * robot). Skipped, saying so, when the data folder is absent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reach/bvh.h"
#include "reach/limits.h"
#include "reach/retarget.h"
#include "reach/urdf.h"
#include "retarget_robot.h"
#include "test_humanoid_rigs.h"

#define MAX_FRAMES 600
#define MAX_BONES  64
/* The conversion's frame 0 is the actor's T-pose, not the walk. */
#define FIRST 1

static reach_rig cmu;
static reach_clip walk;
static reach_humanoid cmu_roles;
static reach_transform poses[MAX_FRAMES][MAX_BONES];
static reach_retarget_result results[MAX_FRAMES];
static unsigned char memory[1 << 20];
static int present;

static reach_real lowest_along(const reach_transform *world, int count, reach_vec3 up) {
    reach_real low = reach_vec3_dot(world[0].translation, up);
    for (int i = 1; i < count; i++)
        low = reach_min(low, reach_vec3_dot(world[i].translation, up));
    return low;
}

static int set_up(void **state) {
    (void)state;
    char path[512], error[256];
    snprintf(path, sizeof path, "%s/bvh/cmu_12_01_walk.bvh", REACH_SHARED_DATA);
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fclose(f);
    if (reach_bvh_read_file(path, &cmu, &walk, error, sizeof error) != REACH_OK) fail_msg("%s", error);
    if (walk.frame_count > MAX_FRAMES || cmu.bone_count > MAX_BONES) fail_msg("clip too large for the test");
    int missing = -1;
    if (reach_humanoid_find(&cmu.skeleton, (const char *const *)cmu.bone_names, &cmu_roles, &missing) != REACH_OK)
        fail_msg("CMU roles: %s missing", reach_humanoid_role_name((reach_humanoid_role)missing));
    present = 1;
    return 0;
}

static int tear_down(void **state) {
    (void)state;
    reach_rig_free(&cmu);
    reach_clip_free(&walk);
    return 0;
}

static void skip_when_absent(void) {
    if (present) return;
    print_message("skipped: %s/bvh/cmu_12_01_walk.bvh is absent (the real clips live in ../shared/data)\n",
                  REACH_SHARED_DATA);
    skip();
}

/* The walk onto target; the source's ground is the lowest joint over the whole clip. */
static void run(const reach_skeleton *target, const reach_humanoid *roles, reach_retarget_settings settings) {
    reach_transform world[MAX_BONES];
    reach_real ground = 0;
    for (int f = FIRST; f < walk.frame_count; f++) {
        reach_forward_kinematics(&cmu.skeleton, reach_clip_frame(&walk, f), world);
        reach_real low = lowest_along(world, cmu.bone_count, reach_vec3_make(0, 1, 0));
        ground = f == FIRST ? low : reach_min(ground, low);
    }
    settings.source_ground_given = 1;
    settings.source_ground = ground;
    size_t need = reach_retarget_memory_size(&cmu.skeleton, target);
    if (need > sizeof memory) fail_msg("memory %zu", need);
    reach_retarget *r = NULL;
    int bad_role = -1, bad_side = -1;
    if (reach_retarget_init(&cmu.skeleton, &cmu_roles, target, roles, &settings, memory, need, &r, &bad_role,
                            &bad_side) != REACH_OK)
        fail_msg("init: role %d side %d", bad_role, bad_side);
    for (int f = FIRST; f < walk.frame_count; f++)
        if (reach_retarget_frame(r, reach_clip_frame(&walk, f), 1 / walk.frame_rate, poses[f], &results[f]) != REACH_OK)
            fail_msg("frame %d", f);
}

/* Each key point, the point it is measured from, and the limb whose length scales it. */
static const int key_roles[5][4] = {
    {REACH_ROLE_HEAD, REACH_ROLE_HIPS, REACH_ROLE_HIPS, REACH_ROLE_HEAD},
    {REACH_ROLE_LEFT_HAND, REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_LEFT_LOWER_ARM},
    {REACH_ROLE_RIGHT_HAND, REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_LOWER_ARM},
    {REACH_ROLE_LEFT_FOOT, REACH_ROLE_HIPS, REACH_ROLE_LEFT_UPPER_LEG, REACH_ROLE_LEFT_LOWER_LEG},
    {REACH_ROLE_RIGHT_FOOT, REACH_ROLE_HIPS, REACH_ROLE_RIGHT_UPPER_LEG, REACH_ROLE_RIGHT_LOWER_LEG}};

/* A key point's limb length at rest: from its limb's root through its middle (if any) to it. */
static reach_real limb(const reach_transform *rest, const int *bones, const int *key) {
    reach_vec3 end = rest[bones[key[0]]].translation, root = rest[bones[key[2]]].translation;
    if (key[3] == key[0]) return reach_vec3_distance(root, end);
    reach_vec3 middle = rest[bones[key[3]]].translation;
    return reach_vec3_distance(root, middle) + reach_vec3_distance(middle, end);
}

/* Key points, planted feet and turns of a run onto target (up its up axis, axes the turn from the
 * source's world to its). */
static void check(const reach_skeleton *target, const reach_humanoid *roles, reach_vec3 up, reach_quat axes,
                  double most_error) {
    reach_transform rest[MAX_BONES], world[MAX_BONES], last[MAX_BONES], sw[MAX_BONES], source_rest[MAX_BONES];
    reach_forward_kinematics(target, target->rest, rest);
    reach_forward_kinematics(&cmu.skeleton, cmu.skeleton.rest, source_rest);
    reach_real ground = lowest_along(rest, target->bone_count, up);
    reach_real height = reach_vec3_dot(rest[roles->bones[REACH_ROLE_HEAD]].translation, up) - ground;
    const int *b = roles->bones;
    reach_real leg = limb(rest, b, key_roles[3]);
    reach_real scale[5];
    for (int k = 0; k < 5; k++)
        scale[k] = limb(rest, b, key_roles[k]) / limb(source_rest, cmu_roles.bones, key_roles[k]);
    double sum = 0, slide = 0, off_ground = 0, turn = 0;
    int planted = 0;
    for (int f = FIRST; f < walk.frame_count; f++) {
        reach_forward_kinematics(&cmu.skeleton, reach_clip_frame(&walk, f), sw);
        reach_forward_kinematics(target, poses[f], world);
        for (int k = 0; k < 5; k++) {
            const int *key = key_roles[k];
            reach_vec3 from = sw[cmu_roles.bones[key[1]]].translation;
            reach_vec3 want = reach_vec3_scale(
                reach_quat_rotate(axes, reach_vec3_sub(sw[cmu_roles.bones[key[0]]].translation, from)), scale[k]);
            reach_vec3 got = reach_vec3_sub(world[b[key[0]]].translation, world[b[key[1]]].translation);
            sum += (double)reach_vec3_distance(want, got);
        }
        for (int side = 0; side < 2; side++) {
            int foot = b[side ? REACH_ROLE_RIGHT_FOOT : REACH_ROLE_LEFT_FOOT];
            if (!results[f].planted[side]) continue;
            planted++;
            off_ground = fmax(off_ground, fabs((double)((reach_vec3_dot(world[foot].translation, up) -
                                                         reach_vec3_dot(rest[foot].translation, up)) /
                                                        leg)));
            if (f > FIRST && results[f - 1].planted[side])
                slide =
                    fmax(slide, (double)(reach_vec3_distance(world[foot].translation, last[foot].translation) / leg));
        }
        if (f > FIRST)
            for (int i = 0; i < target->bone_count; i++)
                turn = fmax(turn, (double)reach_quat_angle_between(poses[f][i].rotation, poses[f - 1][i].rotation));
        memcpy(last, world, sizeof last);
    }
    int frames = walk.frame_count - FIRST;
    double error = sum / (5.0 * frames) / (double)height;
    print_message("    key-point error %.4f of the height; %d planted foot frames of %d, slide %.5f, off the ground "
                  "%.5f of the leg; largest turn %.3f rad a frame\n",
                  error, planted, 2 * frames, slide, off_ground, turn);
    if (planted < frames / 2) fail_msg("only %d planted foot frames in a walk", planted);
    if (slide >= 0.002) fail_msg("a planted foot slid %.5f of the leg in a frame", slide);
    if (off_ground > 0.005) fail_msg("a planted foot stood %.5f of the leg off the ground", off_ground);
    if (turn > 0.3) fail_msg("a joint turned %.3f rad in a frame", turn);
    if (error > most_error) fail_msg("key points off by %.4f of the height on average", error);
}

static void onto_a_body(void **state) {
    (void)state;
    skip_when_absent();
    test_rng rng = test_rng_make(12);
    body target;
    body_make(&rng, S_MIXAMO, &target);
    run(&target.rig.skeleton, &target.roles, reach_retarget_default_settings());
    check(&target.rig.skeleton, &target.roles, reach_vec3_make(0, 1, 0), reach_quat_identity(), 0.04);
}

static void onto_the_robot(void **state) {
    (void)state;
    skip_when_absent();
    static char text[16384];
    char error[256];
    reach_rig robot;
    size_t length = robot_urdf(text, sizeof text);
    if (reach_urdf_read(text, length, &robot, error, sizeof error) != REACH_OK) fail_msg("%s", error);
    reach_humanoid roles = robot_roles(&robot);
    reach_retarget_settings s = reach_retarget_default_settings();
    s.target_up = reach_vec3_make(0, 0, 1);
    s.target_forward = reach_vec3_make(1, 0, 0);
    run(&robot.skeleton, &roles, s);
    reach_quat axes = reach_quat_from_axis_angle(reach_vec3_normalize_safe(reach_vec3_make(1, 1, 1), reach_vec3_zero()),
                                                 REACH_R(2.0943951023931953));
    check(&robot.skeleton, &roles, reach_vec3_make(0, 0, 1), axes, 0.10);
    /* The robot's limits hold on the skeleton it is solved on (its base floating). */
    double worst = 0;
    size_t need = reach_retarget_memory_size(&cmu.skeleton, &robot.skeleton);
    reach_retarget *r = NULL;
    assert_int_equal(
        reach_retarget_init(&cmu.skeleton, &cmu_roles, &robot.skeleton, &roles, &s, memory, need, &r, NULL, NULL),
        REACH_OK);
    for (int f = FIRST; f < walk.frame_count; f++)
        worst = fmax(worst, (double)reach_pose_limit_error(reach_retarget_target_skeleton(r), poses[f], NULL));
    if (worst > 1e-4) fail_msg("a limit broken by %.3g", worst);
    reach_rig_free(&robot);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(onto_a_body),
        cmocka_unit_test(onto_the_robot),
    };
    return cmocka_run_group_tests(tests, set_up, tear_down);
}
