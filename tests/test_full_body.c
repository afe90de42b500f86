/* Full-body IK on humanoids of random proportions named in every style: target sets made by
 * forward kinematics of random natural poses (hips moved and turned) reached within 1e-3 of the
 * height and 1 degree, bone lengths kept, limits held; smooth warm-started frames; hints; look-at;
 * bad input leaving the pose untouched. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_humanoid_rigs.h"

#define MAX_SCRATCH (256 * 1024)

static void make_body(test_rng *rng, int style, body *b) {
    body_make(rng, style, b);
    if (reach_humanoid_natural_joints(&b->rig.skeleton, &b->roles, b->rig.joints) != REACH_OK) fail_msg("joints");
    if (reach_skeleton_validate(&b->rig.skeleton, NULL) != REACH_OK) fail_msg("skeleton");
}

static const int part_roles[REACH_BODY_PART_COUNT] = {REACH_ROLE_HIPS,      REACH_ROLE_HEAD,
                                                      REACH_ROLE_LEFT_HAND, REACH_ROLE_RIGHT_HAND,
                                                      REACH_ROLE_LEFT_FOOT, REACH_ROLE_RIGHT_FOOT};

/* A random natural pose: each joint turned at random by up to `spread` and projected into its
 * limits; the hips moved by up to a tenth of the height and turned about up by up to `yaw`. */
static void random_natural_pose(test_rng *rng, const body *b, reach_real spread, reach_real yaw,
                                reach_transform *pose) {
    const reach_skeleton *s = &b->rig.skeleton;
    reach_pose_rest(s, pose);
    for (int i = 0; i < s->bone_count; i++) {
        reach_quat turn = reach_quat_from_axis_angle(test_unit_vec3(rng), test_uniform(rng, 0, spread));
        reach_quat want = reach_quat_mul(s->rest[i].rotation, turn);
        reach_joint_project_rotation(&b->rig.joints[i], s->rest[i].rotation, want, &pose[i].rotation);
    }
    int hips = b->roles.bones[REACH_ROLE_HIPS];
    reach_real h = b->rig.height;
    pose[hips].translation =
        reach_vec3_add(pose[hips].translation, reach_vec3_make(test_uniform(rng, -REACH_R(0.1), REACH_R(0.1)) * h,
                                                               test_uniform(rng, -REACH_R(0.1), REACH_R(0.02)) * h,
                                                               test_uniform(rng, -REACH_R(0.1), REACH_R(0.1)) * h));
    pose[hips].rotation = reach_quat_mul(
        reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), test_uniform(rng, -yaw, yaw)), pose[hips].rotation);
}

/* Targets on the hands, feet and head of a pose: positions and rotations. */
static reach_full_body_targets targets_of(const body *b, const reach_transform *pose, unsigned parts) {
    reach_transform world[PART_COUNT];
    reach_forward_kinematics(&b->rig.skeleton, pose, world);
    reach_full_body_targets t = reach_full_body_no_targets();
    for (int p = REACH_BODY_HEAD; p < REACH_BODY_PART_COUNT; p++) {
        if (!(parts & (1u << p))) continue;
        const reach_transform *w = &world[b->roles.bones[part_roles[p]]];
        t.parts[p].use_position = t.parts[p].use_rotation = 1;
        t.parts[p].position = w->translation;
        t.parts[p].rotation = w->rotation;
    }
    return t;
}

static unsigned char scratch[MAX_SCRATCH];

static reach_status solve(const body *b, const reach_full_body_targets *t, reach_transform *pose,
                          reach_full_body_result *r) {
    size_t need = reach_full_body_scratch_size(&b->rig.skeleton);
    if (need > sizeof scratch) fail_msg("scratch %zu", need);
    return reach_full_body_solve(&b->rig.skeleton, &b->roles, t, NULL, pose, scratch, need, r);
}

/* Bone lengths kept (the joints only turn) and limits held. */
static void check_pose(const body *b, const reach_transform *pose) {
    const reach_skeleton *s = &b->rig.skeleton;
    for (int i = 0; i < s->bone_count; i++)
        if (s->parents[i] >= 0)
            ASSERT_NEAR(reach_vec3_distance(pose[i].translation, s->rest[i].translation), 0, 1e-5, "bone length kept");
    if (reach_pose_limit_error(s, pose, NULL) > REACH_R(1e-3)) fail_msg("limits broken");
}

static void reachable_sets_reached(void **state) {
    (void)state;
    test_rng rng = test_rng_make(41);
    int n = test_scaled(10000), reached = 0;
    double iterations = 0;
    for (int i = 0; i < n; i++) {
        body b;
        make_body(&rng, i % STYLE_COUNT, &b);
        reach_transform goal[PART_COUNT], pose[PART_COUNT];
        random_natural_pose(&rng, &b, REACH_R(0.8), REACH_PI, goal);
        reach_full_body_targets t = targets_of(&b, goal, 0x3eu);
        reach_pose_rest(&b.rig.skeleton, pose);
        reach_full_body_result r;
        reach_status st = solve(&b, &t, pose, &r);
        if (st != REACH_OK) fail_msg("solve: %s", reach_status_string(st));
        check_pose(&b, pose);
        if (r.residual <= REACH_R(1e-3) * b.rig.height && r.angle_residual <= REACH_R(0.01745)) reached++;
        iterations += r.iterations;
    }
    print_message("reached %d of %d, mean iterations %.1f\n", reached, n, iterations / n);
    if (reached < n * 99 / 100) fail_msg("reached %d of %d", reached, n);
}

/* Targets on paths: the FK of a pose blended slowly from one random natural pose to the next.
 * Warm-started frames: no joint turns more than 10 degrees in a frame where no target moved more
 * than 1 % of the height. */
static void warm_frames_move_smoothly(void **state) {
    (void)state;
    test_rng rng = test_rng_make(42);
    int frames = test_scaled(1000) < 100 ? 100 : 1000, per_leg = 100, checked = 0, reached = 0;
    if (test_scaled(1000) < 1000) frames = 200;
    body b;
    make_body(&rng, S_MIXAMO, &b);
    const reach_skeleton *s = &b.rig.skeleton;
    reach_transform from[PART_COUNT], to[PART_COUNT], goal[PART_COUNT], pose[PART_COUNT], before[PART_COUNT];
    random_natural_pose(&rng, &b, REACH_R(0.6), REACH_R(0.3), to);
    reach_pose_rest(s, pose);
    reach_full_body_targets last = targets_of(&b, to, 0x3eu);
    reach_full_body_result r;
    assert_int_equal(solve(&b, &last, pose, &r), REACH_OK);
    reach_real worst = 0;
    for (int f = 0; f < frames; f++) {
        if (f % per_leg == 0) {
            memcpy(from, to, sizeof from);
            random_natural_pose(&rng, &b, REACH_R(0.6), REACH_R(0.3), to);
        }
        reach_real u = (reach_real)(f % per_leg + 1) / (reach_real)per_leg;
        u = u * u * (3 - 2 * u); /* ease in and out */
        for (int i = 0; i < s->bone_count; i++) {
            goal[i].rotation = reach_quat_slerp(from[i].rotation, to[i].rotation, u);
            goal[i].translation = reach_vec3_lerp(from[i].translation, to[i].translation, u);
        }
        reach_full_body_targets t = targets_of(&b, goal, 0x3eu);
        reach_real moved = 0;
        for (int p = REACH_BODY_HEAD; p < REACH_BODY_PART_COUNT; p++)
            moved = reach_max(moved, reach_vec3_distance(t.parts[p].position, last.parts[p].position));
        memcpy(before, pose, sizeof before);
        assert_int_equal(solve(&b, &t, pose, &r), REACH_OK);
        check_pose(&b, pose);
        reached += r.reached;
        last = t;
        if (moved > REACH_R(0.01) * b.rig.height) continue;
        checked++;
        for (int i = 0; i < s->bone_count; i++) {
            reach_real turn = reach_quat_angle_between(before[i].rotation, pose[i].rotation);
            worst = reach_max(worst, turn);
            if (turn > REACH_R(0.1745))
                fail_msg("frame %d: bone %s turned %g rad", f, b.rig.names[i] ? b.rig.names[i] : "?", (double)turn);
        }
    }
    print_message("%d frames checked, %d reached, largest turn %g rad\n", checked, reached, (double)worst);
    if (checked < frames / 2) fail_msg("targets moved too fast to check: %d frames", checked);
}

/* How far `point` lies off the line from a limb's root joint to its end joint (roles upper,
 * middle, end), as a vector across that line. */
static reach_vec3 limb_bend(const reach_transform *world, const body *b, const int *roles, reach_vec3 point) {
    reach_vec3 root = world[b->roles.bones[roles[0]]].translation;
    reach_vec3 end = world[b->roles.bones[roles[2]]].translation;
    reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(end, root), reach_vec3_make(0, 1, 0));
    return reach_vec3_reject(reach_vec3_sub(point, root), axis);
}

/* Hints turn the elbows and knees toward them, as far as the limits allow. */
static void hints_turn_elbows_and_knees(void **state) {
    (void)state;
    test_rng rng = test_rng_make(43);
    int n = test_scaled(500), toward = 0, total = 0;
    for (int i = 0; i < n; i++) {
        body b;
        make_body(&rng, i % STYLE_COUNT, &b);
        reach_transform goal[PART_COUNT], pose[PART_COUNT], world[PART_COUNT];
        random_natural_pose(&rng, &b, REACH_R(0.8), REACH_R(0.3), goal);
        reach_full_body_targets t = targets_of(&b, goal, 0x3cu); /* hands and feet */
        reach_forward_kinematics(&b.rig.skeleton, goal, world);
        static const int limb[4][3] = {{REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_LEFT_LOWER_ARM, REACH_ROLE_LEFT_HAND},
                                       {REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_LOWER_ARM, REACH_ROLE_RIGHT_HAND},
                                       {REACH_ROLE_LEFT_UPPER_LEG, REACH_ROLE_LEFT_LOWER_LEG, REACH_ROLE_LEFT_FOOT},
                                       {REACH_ROLE_RIGHT_UPPER_LEG, REACH_ROLE_RIGHT_LOWER_LEG, REACH_ROLE_RIGHT_FOOT}};
        for (int k = 0; k < 4; k++) {
            /* The hint: where the goal pose has the middle joint, pushed out from the limb's line. */
            reach_vec3 mid = world[b.roles.bones[limb[k][1]]].translation;
            t.parts[REACH_BODY_LEFT_HAND + k].use_hint = 1;
            t.parts[REACH_BODY_LEFT_HAND + k].hint = reach_vec3_mad(mid, limb_bend(world, &b, limb[k], mid), 4);
        }
        reach_pose_rest(&b.rig.skeleton, pose);
        reach_full_body_result r;
        assert_int_equal(solve(&b, &t, pose, &r), REACH_OK);
        check_pose(&b, pose);
        reach_transform solved[PART_COUNT];
        reach_forward_kinematics(&b.rig.skeleton, pose, solved);
        for (int k = 0; k < 4; k++) {
            reach_vec3 bend = limb_bend(solved, &b, limb[k], solved[b.roles.bones[limb[k][1]]].translation);
            reach_vec3 want = limb_bend(solved, &b, limb[k], t.parts[REACH_BODY_LEFT_HAND + k].hint);
            if (reach_vec3_length(bend) < REACH_R(0.01) * b.rig.height) continue; /* straight: no side */
            total++;
            toward += reach_vec3_dot(bend, want) > 0;
        }
    }
    print_message("%d of %d bent limbs toward their hints\n", toward, total);
    /* The turn toward a hint stops where the shoulder's or hip's cone, or the wrist's or ankle's
     * (which keeps the hand's or foot's rotation), would be left: 8 % of these limbs with gcc,
     * 11 % with clang's sanitizer build. */
    if (toward < total * 85 / 100) fail_msg("%d of %d limbs toward their hints", toward, total);
}

/* A look-at in front of the face: the head looks at it. */
static void head_looks_at(void **state) {
    (void)state;
    test_rng rng = test_rng_make(44);
    int n = test_scaled(500);
    for (int i = 0; i < n; i++) {
        body b;
        make_body(&rng, i % STYLE_COUNT, &b);
        reach_transform pose[PART_COUNT], world[PART_COUNT];
        reach_pose_rest(&b.rig.skeleton, pose);
        reach_forward_kinematics(&b.rig.skeleton, pose, world);
        reach_vec3 head = world[b.roles.bones[REACH_ROLE_HEAD]].translation;
        reach_vec3 way = reach_vec3_make(test_uniform(&rng, -REACH_R(0.4), REACH_R(0.4)),
                                         test_uniform(&rng, -REACH_R(0.4), REACH_R(0.4)), 1);
        reach_full_body_targets t = targets_of(&b, pose, 0x30u); /* feet stay */
        t.use_look_at = 1;
        t.look_at = reach_vec3_mad(head, way, 2);
        reach_full_body_result r;
        assert_int_equal(solve(&b, &t, pose, &r), REACH_OK);
        check_pose(&b, pose);
        reach_forward_kinematics(&b.rig.skeleton, pose, world);
        const reach_transform *w = &world[b.roles.bones[REACH_ROLE_HEAD]];
        reach_vec3 f = reach_quat_rotate(w->rotation, reach_vec3_make(0, 0, 1));
        reach_vec3 to = reach_vec3_normalize_safe(reach_vec3_sub(t.look_at, w->translation), f);
        ASSERT_NEAR(reach_vec3_dot(f, to), 1, 1e-5, "looks at the point");
    }
}

static void bad_input_leaves_pose_untouched(void **state) {
    (void)state;
    test_rng rng = test_rng_make(45);
    body b;
    make_body(&rng, S_PLAIN, &b);
    reach_transform pose[PART_COUNT], start[PART_COUNT];
    memset(start, 0, sizeof start); /* the rig may use fewer bones than the arrays hold */
    reach_pose_rest(&b.rig.skeleton, start);
    size_t need = reach_full_body_scratch_size(&b.rig.skeleton);
    for (int c = 0; c < 6; c++) {
        memcpy(pose, start, sizeof pose);
        reach_full_body_targets t = targets_of(&b, start, 0x3eu);
        reach_full_body_settings s = reach_full_body_default_settings();
        reach_humanoid h = b.roles;
        size_t size = need;
        reach_status expect;
        switch (c) {
        case 0:
            t.parts[REACH_BODY_LEFT_HAND].position.x = (reach_real)NAN;
            expect = REACH_ERROR_NOT_FINITE;
            break;
        case 1:
            t.parts[REACH_BODY_HEAD].rotation = reach_quat_make(0, 0, 0, 0);
            expect = REACH_ERROR_BAD_QUATERNION;
            break;
        case 2:
            memset(&s, 0, sizeof s);
            expect = REACH_ERROR_SETTINGS_NOT_INITIALIZED;
            break;
        case 3:
            size = need - 1;
            expect = REACH_ERROR_BUFFER_TOO_SMALL;
            break;
        case 4:
            h.bones[REACH_ROLE_LEFT_HAND] = -1;
            expect = REACH_ERROR_BAD_CHAIN;
            break;
        default:
            pose[3].rotation.w = (reach_real)INFINITY;
            expect = REACH_ERROR_NOT_FINITE;
            break;
        }
        reach_transform copy[PART_COUNT];
        memcpy(copy, pose, sizeof copy);
        reach_full_body_result r, untouched;
        memset(&r, 0x5a, sizeof r);
        memcpy(&untouched, &r, sizeof r);
        reach_status st = reach_full_body_solve(&b.rig.skeleton, &h, &t, &s, pose, scratch, size, &r);
        if (st != expect) fail_msg("case %d: %s", c, reach_status_string(st));
        if (!test_bytes_equal(pose, copy, sizeof pose) || !test_bytes_equal(&r, &untouched, sizeof r))
            fail_msg("case %d: written", c);
    }
    /* No targets: nothing moves. */
    memcpy(pose, start, sizeof pose);
    reach_full_body_targets none = reach_full_body_no_targets();
    reach_full_body_result r;
    assert_int_equal(solve(&b, &none, pose, &r), REACH_OK);
    if (!test_bytes_equal(pose, start, sizeof pose)) fail_msg("moved without targets");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reachable_sets_reached),          cmocka_unit_test(warm_frames_move_smoothly),
        cmocka_unit_test(hints_turn_elbows_and_knees),     cmocka_unit_test(head_looks_at),
        cmocka_unit_test(bad_input_leaves_pose_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
