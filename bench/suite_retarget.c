/* The retargeting suite (reach::formats, for the robot's URDF): a walk on the 25-bone humanoid
 * (humanoid25.h; a compass gait whose stance foot stays exactly where it was put, 600 frames at
 * 60 frames a second) carried onto
 *   retarget/character   the humanoid with other proportions (1.15 times as tall, legs 1.1,
 *                        arms 0.9 and trunk 1.05 times that)
 *   retarget/robot       the tests' 29-hinge humanoid robot (formats/tests/retarget_robot.h),
 *                        read from its URDF text, +z up and +x forward
 * in frames a second on one core, each pass the whole clip from a restarted state. Beside
 * them, from a checked run before timing: the largest slide of a planted target foot in a frame
 * (% of its leg) and the mean distance of head, hands and feet from where the source's are (head
 * and feet from the hips, hands from the shoulders, each scaled by its own limb; % of the height). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "humanoid25.h"
#include "reach/reach.h"
#include "reach/urdf.h"
#include "retarget_robot.h"
#include "suites.h"

#define FRAMES    600
#define RATE      60.0
#define MAX_BONES 64
#define STEP      0.5 /* metres a step, half a second each */
#define LEG       0.84

typedef struct body {
    int parents[MAX_BONES];
    reach_transform rest[MAX_BONES];
    reach_joint joints[MAX_BONES];
    const char *names[MAX_BONES];
    reach_skeleton skeleton;
    reach_humanoid roles;
} body;

typedef struct retarget_bench {
    const body *source;
    const reach_skeleton *target;
    const reach_humanoid *target_roles;
    reach_retarget_settings settings;
    void *memory;
    size_t memory_size;
    reach_transform (*poses)[MAX_BONES];
    reach_retarget_result results[FRAMES];
} retarget_bench;

static reach_transform source_clip[FRAMES][HUMANOID25_BONES];

/* scale: all lengths; legs, arms, trunk: those parts' on top. */
static int make_body(body *b, reach_real scale, reach_real legs, reach_real arms, reach_real trunk) {
    for (int i = 0; i < HUMANOID25_BONES; i++) {
        const humanoid25_part *p = &humanoid25[i];
        reach_real s = scale * (i >= 15 ? legs : i >= 8 && i != 11 ? arms : i >= 1 && i <= 6 ? trunk : 1);
        b->parents[i] = p->parent;
        b->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(p->x * s, p->y * s, p->z * s));
        b->joints[i] = reach_joint_ball();
        b->names[i] = p->name;
    }
    b->rest[0].translation.y = scale * legs * REACH_R(0.95);
    reach_skeleton s = {HUMANOID25_BONES, b->parents, b->rest, b->joints};
    b->skeleton = s;
    return reach_humanoid_find(&b->skeleton, b->names, &b->roles, NULL) == REACH_OK;
}

static reach_quat about_x(double angle) {
    return reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), (reach_real)angle);
}

/* The compass gait: the stance leg straight, turning about its planted foot; the swing leg
 * from the last footprint to the next, its knee bent on the way; feet kept level; arms hanging
 * and swinging against the legs. */
static void make_walk(const body *b) {
    double reach_angle = asin(STEP / 2 / LEG);
    for (int f = 0; f < FRAMES; f++) {
        double t = f / RATE, steps = t / 0.5;
        int k = (int)steps;
        double u = steps - k, ease = u * u * (3 - 2 * u);
        reach_transform *pose = source_clip[f];
        reach_pose_rest(&b->skeleton, pose);
        double stance = asin((0.5 - u) * STEP / LEG);
        double swing = -reach_angle + 2 * reach_angle * ease, knee = 0.7 * sin(3.14159265358979 * u);
        pose[0].translation =
            reach_vec3_make(0, (reach_real)(0.06 + 0.05 + LEG * cos(stance)), (reach_real)(steps * STEP));
        int stance_leg = k % 2 ? 20 : 15, swing_leg = k % 2 ? 15 : 20;
        pose[stance_leg].rotation = about_x(-stance);
        pose[stance_leg + 2].rotation = about_x(stance);
        pose[swing_leg].rotation = about_x(-swing);
        pose[swing_leg + 1].rotation = about_x(knee);
        pose[swing_leg + 2].rotation = about_x(swing - knee);
        double arm = 0.35 * sin(3.14159265358979 * steps);
        pose[8].rotation =
            reach_quat_mul(about_x(arm), reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(-1.25)));
        pose[12].rotation =
            reach_quat_mul(about_x(-arm), reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(1.25)));
    }
}

static void pass(void *data) {
    retarget_bench *r = data;
    reach_retarget *state = NULL;
    reach_retarget_init(&r->source->skeleton, &r->source->roles, r->target, r->target_roles, &r->settings, r->memory,
                        r->memory_size, &state, NULL, NULL);
    for (int f = 0; f < FRAMES; f++)
        reach_retarget_frame(state, source_clip[f], (reach_real)(1 / RATE), r->poses[f], &r->results[f]);
    bench_consume((double)r->poses[FRAMES - 1][0].translation.z);
}

/* Each key point, the point it is measured from, and the two bones of its limb's length. */
static const int keys[5][4] = {
    {REACH_ROLE_HEAD, REACH_ROLE_HIPS, REACH_ROLE_HIPS, REACH_ROLE_HEAD},
    {REACH_ROLE_LEFT_HAND, REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_LEFT_LOWER_ARM},
    {REACH_ROLE_RIGHT_HAND, REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_LOWER_ARM},
    {REACH_ROLE_LEFT_FOOT, REACH_ROLE_HIPS, REACH_ROLE_LEFT_UPPER_LEG, REACH_ROLE_LEFT_LOWER_LEG},
    {REACH_ROLE_RIGHT_FOOT, REACH_ROLE_HIPS, REACH_ROLE_RIGHT_UPPER_LEG, REACH_ROLE_RIGHT_LOWER_LEG}};

static double limb(const reach_transform *rest, const int *bones, const int *key) {
    reach_vec3 end = rest[bones[key[0]]].translation, root = rest[bones[key[2]]].translation;
    if (key[3] == key[0]) return (double)reach_vec3_distance(root, end);
    reach_vec3 middle = rest[bones[key[3]]].translation;
    return (double)(reach_vec3_distance(root, middle) + reach_vec3_distance(middle, end));
}

/* The mean key-point error (% of the height) and the largest planted-foot slide (% of the leg). */
static void measure(const retarget_bench *r, reach_quat axes, reach_vec3 up, double *error, double *slide) {
    reach_transform rest[MAX_BONES], source_rest[MAX_BONES], world[MAX_BONES], last[MAX_BONES], sw[MAX_BONES];
    reach_forward_kinematics(r->target, r->target->rest, rest);
    reach_forward_kinematics(&r->source->skeleton, r->source->skeleton.rest, source_rest);
    const int *tb = r->target_roles->bones, *sb = r->source->roles.bones;
    double low = (double)reach_vec3_dot(rest[0].translation, up);
    for (int b = 1; b < r->target->bone_count; b++)
        low = fmin(low, (double)reach_vec3_dot(rest[b].translation, up));
    double height = (double)reach_vec3_dot(rest[tb[REACH_ROLE_HEAD]].translation, up) - low;
    double leg = limb(rest, tb, keys[3]), scale[5], sum = 0;
    for (int k = 0; k < 5; k++)
        scale[k] = limb(rest, tb, keys[k]) / limb(source_rest, sb, keys[k]);
    *slide = 0;
    for (int f = 0; f < FRAMES; f++) {
        reach_forward_kinematics(&r->source->skeleton, source_clip[f], sw);
        reach_forward_kinematics(r->target, r->poses[f], world);
        for (int k = 0; k < 5; k++) {
            reach_vec3 want = reach_vec3_scale(
                reach_quat_rotate(axes, reach_vec3_sub(sw[sb[keys[k][0]]].translation, sw[sb[keys[k][1]]].translation)),
                (reach_real)scale[k]);
            reach_vec3 got = reach_vec3_sub(world[tb[keys[k][0]]].translation, world[tb[keys[k][1]]].translation);
            sum += (double)reach_vec3_distance(want, got);
        }
        for (int side = 0; side < 2 && f > 0; side++) {
            int foot = tb[side ? REACH_ROLE_RIGHT_FOOT : REACH_ROLE_LEFT_FOOT];
            if (r->results[f].planted[side] && r->results[f - 1].planted[side])
                *slide =
                    fmax(*slide, (double)reach_vec3_distance(world[foot].translation, last[foot].translation) / leg);
        }
        memcpy(last, world, sizeof last);
    }
    *error = 100 * sum / (5.0 * FRAMES) / height;
    *slide *= 100;
}

static int set_up(retarget_bench *r, const body *source, const reach_skeleton *target, const reach_humanoid *roles,
                  reach_retarget_settings settings) {
    r->source = source;
    r->target = target;
    r->target_roles = roles;
    r->settings = settings;
    r->memory_size = reach_retarget_memory_size(&source->skeleton, target);
    r->memory = bench_aligned_calloc(64, r->memory_size);
    r->poses = bench_calloc(FRAMES, sizeof *r->poses);
    reach_retarget *state = NULL;
    return target->bone_count <= MAX_BONES &&
           reach_retarget_init(&source->skeleton, &source->roles, target, roles, &settings, r->memory, r->memory_size,
                               &state, NULL, NULL) == REACH_OK;
}

void bench_suite_retarget(bench_run *run) {
    if (!bench_wants(run, "retarget")) return;
    static body source, character;
    static retarget_bench onto_character, onto_robot;
    static char text[16384];
    reach_rig robot;
    char message[256];
    size_t length = robot_urdf(text, sizeof text);
    int ok = make_body(&source, 1, 1, 1, 1) &&
             make_body(&character, REACH_R(1.15), REACH_R(1.1), REACH_R(0.9), REACH_R(1.05)) && length < sizeof text &&
             reach_urdf_read(text, length, &robot, message, sizeof message) == REACH_OK;
    bench_check(run, ok, "the retargeting bodies and the robot's URDF");
    if (!ok) return;
    reach_humanoid robot_roles_found = robot_roles(&robot);
    make_walk(&source);
    reach_retarget_settings robot_settings = reach_retarget_default_settings();
    robot_settings.target_up = reach_vec3_make(0, 0, 1);
    robot_settings.target_forward = reach_vec3_make(1, 0, 0);
    ok = set_up(&onto_character, &source, &character.skeleton, &character.roles, reach_retarget_default_settings()) &&
         set_up(&onto_robot, &source, &robot.skeleton, &robot_roles_found, robot_settings);
    bench_check(run, ok, "the retargetings set up");
    if (ok) {
        pass(&onto_character);
        pass(&onto_robot);
        double error, slide;
        measure(&onto_character, reach_quat_identity(), reach_vec3_make(0, 1, 0), &error, &slide);
        bench_record_value(run, "retarget/character/key_point_error", "% height", error);
        bench_record_value(run, "retarget/character/foot_slide", "% leg", slide);
        bench_check(run, error <= 4 && slide < 0.2, "onto the character: key points within 4 %, feet still");
        reach_quat axes = reach_quat_from_axis_angle(
            reach_vec3_normalize_safe(reach_vec3_make(1, 1, 1), reach_vec3_zero()), REACH_R(2.0943951023931953));
        measure(&onto_robot, axes, reach_vec3_make(0, 0, 1), &error, &slide);
        bench_record_value(run, "retarget/robot/key_point_error", "% height", error);
        bench_record_value(run, "retarget/robot/foot_slide", "% leg", slide);
        bench_check(run, error <= 10 && slide < 0.2, "onto the robot: key points within 10 %, feet still");
        const bench_timed timed[] = {
            {"retarget/character", "frames/s", pass, &onto_character, FRAMES},
            {"retarget/robot", "frames/s", pass, &onto_robot, FRAMES},
        };
        bench_time(run, timed, 2);
    }
    free(onto_character.memory);
    free(onto_character.poses);
    free(onto_robot.memory);
    free(onto_robot.poses);
    reach_rig_free(&robot);
}
