/* Motion retargeting (reach/retarget.h): one walk, synthesised here on the benches' 25-bone
 * humanoid (a compass gait: the stance leg straight and turning about its planted foot, the swing
 * leg bending its knee on the way to the next footprint, arms swinging against the legs), carried
 * every 1/60 s onto a character of other proportions and rest pose (short legs, long arms, arms
 * hanging at rest) and onto the tests' 29-hinge humanoid robot, read from its URDF (+z up, +x
 * forward). The three walk side by side at one scale on one floor, each on its own lane: the
 * camera follows each figure's hips, so the lane's floor slides under it at the figure's own
 * speed (the target's travel is the source's scaled by the ratio of leg lengths) and a foot held
 * planted stands still on its grid. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "humanoid25.h"
#include "reach/urdf.h"
#include "replay.h"
#include "retarget_robot.h"
#include "scene.h"
#include "scenery3d.h"

#define PI        3.14159265358979323846
#define RATE      60.0 /* retargeted frames a second */
#define STEP_TIME 0.5  /* seconds a step: the gait repeats every second */
#define STRIDE    0.5  /* metres a step */
#define MAX_BONES 64
#define FIGURES   3
/* The lanes: their spacing across the view, and each lane's floor around its figure. */
#define LANE_SPACING 2.3
#define LANE_HALF    0.7
#define LANE_BEHIND  1.4
#define LANE_AHEAD   1.4

/* A body built from the humanoid25 table, each part's lengths scaled: the skeleton and its roles
 * over the arrays after them. */
typedef struct built_body {
    reach_skeleton skeleton;
    reach_humanoid roles;
    int parents[HUMANOID25_BONES];
    reach_transform rest[HUMANOID25_BONES];
    reach_joint joints[HUMANOID25_BONES];
    const char *names[HUMANOID25_BONES];
} built_body;

/* What is drawn of one figure: its skeleton, its pose, how its world maps onto its lane. */
typedef struct figure {
    const reach_skeleton *skeleton;
    const reach_humanoid *roles;
    reach_transform pose[MAX_BONES];
    int planted[2];
    int z_up;      /* a URDF robot: +z up, +x forward, +y left */
    double ground; /* its ground along its up axis */
    double speed;  /* its hips' mean speed, metres a second */
    demo_colour colour;
    const char *name, *detail;
} figure;

static built_body source, character;
static reach_rig robot;
static reach_humanoid robot_role_bones;
static figure figures[FIGURES];
static reach_retarget *onto_character, *onto_robot;
static _Alignas(64) unsigned char character_memory[1 << 19], robot_memory[1 << 19];
static reach_transform source_pose[HUMANOID25_BONES];
static demo_replay replay = {1 / RATE, (int)RATE, 0, 0};
static int configured;

static reach_vec3 vec3(double x, double y, double z) {
    return reach_vec3_make((reach_real)x, (reach_real)y, (reach_real)z);
}

static reach_quat turn(double x, double y, double z, double angle) {
    return reach_quat_from_axis_angle(vec3(x, y, z), (reach_real)angle);
}

/* Which share of the body a humanoid25 bone belongs to: 0 trunk and head, 1 arm, 2 leg. */
static int body_share(const char *name) {
    if (strstr(name, "leg") || strstr(name, "foot") || strstr(name, "toes")) return 2;
    if (strstr(name, "arm") || strstr(name, "hand")) return 1;
    return 0;
}

/* shares: the trunk's, the arms' and the legs' length factors; arms_down: radians the upper arms
 * hang from the T-pose at rest. */
static reach_status build_body(built_body *b, const double shares[3], double arms_down) {
    for (int i = 0; i < HUMANOID25_BONES; i++) {
        const humanoid25_part *part = &humanoid25[i];
        double k = shares[body_share(part->name)];
        b->names[i] = part->name;
        b->parents[i] = part->parent;
        b->joints[i] = reach_joint_ball();
        b->rest[i] = reach_transform_make(reach_quat_identity(),
                                          vec3((double)part->x * k, (double)part->y * k, (double)part->z * k));
        if (strstr(part->name, "upper_arm")) b->rest[i].rotation = turn(0, 0, 1, part->x > 0 ? -arms_down : arms_down);
    }
    /* The hips stand where the legs reach: their height is a leg's. */
    b->rest[0].translation.y = (reach_real)(humanoid25[0].y * shares[2]);
    b->skeleton = (reach_skeleton){HUMANOID25_BONES, b->parents, b->rest, b->joints};
    return reach_humanoid_find(&b->skeleton, b->names, &b->roles, NULL);
}

/* The source's walk at time t (any sign): a compass gait of STRIDE-long steps. */
static void walk_pose(double t, reach_transform *pose) {
    const int *bone = source.roles.bones;
    reach_transform rest[HUMANOID25_BONES];
    reach_forward_kinematics(&source.skeleton, source.rest, rest);
    reach_vec3 hip = rest[bone[REACH_ROLE_LEFT_UPPER_LEG]].translation;
    double ankle = (double)rest[bone[REACH_ROLE_LEFT_FOOT]].translation.y;
    double leg = (double)hip.y - ankle, half_angle = asin(STRIDE / 2 / leg);
    double steps = t / STEP_TIME, k = floor(steps), u = steps - k;
    /* Stance: the hips pass over the foot at mid-step; angles about +x put the foot behind. */
    double stance = asin((u - 0.5) * STRIDE / leg);
    double ease = u * u * (3 - 2 * u);
    double swing = half_angle - 2 * half_angle * ease, knee = 0.75 * sin(PI * u);
    int left_stands = ((long)k & 1) == 0;
    int stance_leg = bone[left_stands ? REACH_ROLE_LEFT_UPPER_LEG : REACH_ROLE_RIGHT_UPPER_LEG];
    int swing_leg = bone[left_stands ? REACH_ROLE_RIGHT_UPPER_LEG : REACH_ROLE_LEFT_UPPER_LEG];
    int stance_foot = bone[left_stands ? REACH_ROLE_LEFT_FOOT : REACH_ROLE_RIGHT_FOOT];
    int swing_knee = bone[left_stands ? REACH_ROLE_RIGHT_LOWER_LEG : REACH_ROLE_LEFT_LOWER_LEG];
    int swing_foot = bone[left_stands ? REACH_ROLE_RIGHT_FOOT : REACH_ROLE_LEFT_FOOT];
    reach_pose_rest(&source.skeleton, pose);
    pose[0].translation.y = (reach_real)((double)source.rest[0].translation.y - leg + leg * cos(stance));
    pose[0].translation.z = (reach_real)(steps * STRIDE);
    pose[stance_leg].rotation = turn(1, 0, 0, stance);
    pose[stance_foot].rotation = turn(1, 0, 0, -stance);
    pose[swing_leg].rotation = turn(1, 0, 0, swing);
    pose[swing_knee].rotation = turn(1, 0, 0, knee);
    pose[swing_foot].rotation = turn(1, 0, 0, -swing - knee);
    /* Arms down from the T-pose, each swinging forward with the other side's leg, elbows a little
     * bent, more on the forward swing. */
    double arm = 0.3 * sin(PI * steps);
    for (int side = 0; side < 2; side++) {
        double sign = side ? -1 : 1;
        int upper = bone[side ? REACH_ROLE_RIGHT_UPPER_ARM : REACH_ROLE_LEFT_UPPER_ARM];
        pose[upper].rotation = reach_quat_mul(turn(1, 0, 0, -sign * arm), turn(0, 0, 1, -sign * 1.3));
        pose[bone[side ? REACH_ROLE_RIGHT_LOWER_ARM : REACH_ROLE_LEFT_LOWER_ARM]].rotation =
            turn(0, 1, 0, sign * 0.25 + 0.15 * sin(PI * steps));
    }
}

static reach_status start_retarget(const reach_skeleton *target, const reach_humanoid *roles,
                                   const reach_retarget_settings *settings, void *memory, size_t size,
                                   reach_retarget **out) {
    if (reach_retarget_memory_size(&source.skeleton, target) > size) return REACH_ERROR_BUFFER_TOO_SMALL;
    return reach_retarget_init(&source.skeleton, &source.roles, target, roles, settings, memory, size, out, NULL, NULL);
}

static void set_figure(figure *f, const reach_skeleton *skeleton, const reach_humanoid *roles,
                       const reach_retarget *retarget, demo_colour colour, const char *name, const char *detail) {
    reach_real scale = 1, ground = 0;
    if (retarget) reach_retarget_measures(retarget, &scale, NULL, &ground);
    f->skeleton = skeleton;
    f->roles = roles;
    f->z_up = skeleton == reach_retarget_target_skeleton(onto_robot);
    f->ground = (double)ground;
    f->speed = (double)scale * STRIDE / STEP_TIME;
    f->colour = colour;
    f->name = name;
    f->detail = detail;
    reach_pose_rest(skeleton, f->pose);
}

static reach_status configure(void) {
    static const double plain[3] = {1, 1, 1}, stocky[3] = {1.12, 1.15, 0.78};
    reach_status status = build_body(&source, plain, 0);
    if (status == REACH_OK) status = build_body(&character, stocky, 0.75);
    static char text[16384];
    size_t length = robot_urdf(text, sizeof text);
    if (status == REACH_OK && length >= sizeof text) status = REACH_ERROR_BUFFER_TOO_SMALL;
    char message[256];
    if (status == REACH_OK) status = reach_urdf_read(text, length, &robot, message, sizeof message);
    if (status != REACH_OK) return status;
    robot_role_bones = robot_roles(&robot);
    reach_retarget_settings robot_settings = reach_retarget_default_settings();
    robot_settings.target_up = vec3(0, 0, 1);
    robot_settings.target_forward = vec3(1, 0, 0);
    /* Solved to a millionth of its height, not the default's half-thousandth: within the default the
     * redundant arm hinges settle a little differently each lap (where each limb's solve stops
     * depends on where it started), and the picture a lap on would not be the first frame's. */
    robot_settings.body.tolerance = REACH_R(1e-6);
    status = start_retarget(&character.skeleton, &character.roles, NULL, character_memory, sizeof character_memory,
                            &onto_character);
    if (status == REACH_OK)
        status = start_retarget(&robot.skeleton, &robot_role_bones, &robot_settings, robot_memory, sizeof robot_memory,
                                &onto_robot);
    if (status != REACH_OK) return status;
    if (reach_retarget_target_skeleton(onto_robot)->bone_count > MAX_BONES) return REACH_ERROR_BUFFER_TOO_SMALL;
    set_figure(&figures[0], &source.skeleton, &source.roles, NULL, DEMO_BONE, "source", "25 bones, T-pose, 1.80 m");
    set_figure(&figures[1], reach_retarget_target_skeleton(onto_character), &character.roles, onto_character, DEMO_POLE,
               "character", "legs ×0.78, arms ×1.15, A-pose");
    set_figure(&figures[2], reach_retarget_target_skeleton(onto_robot), &robot_role_bones, onto_robot, DEMO_ROOT,
               "robot (URDF)", "29 hinges with limits, z up");
    configured = 1;
    return REACH_OK;
}

/* Steps the clip and both retargetings to step k. */
static reach_status advance(int k) {
    if (demo_replay_is_start(&replay, k)) {
        reach_retarget_restart(onto_character);
        reach_retarget_restart(onto_robot);
    }
    walk_pose(k / RATE, source_pose);
    memcpy(figures[0].pose, source_pose, sizeof source_pose);
    reach_retarget_result result;
    reach_status status =
        reach_retarget_frame(onto_character, source_pose, (reach_real)(1 / RATE), figures[1].pose, &result);
    if (status != REACH_OK) return status;
    /* The source's contacts are the ones the retargeting found in it. */
    for (int side = 0; side < 2; side++)
        figures[0].planted[side] = figures[1].planted[side] = result.planted[side];
    status = reach_retarget_frame(onto_robot, source_pose, (reach_real)(1 / RATE), figures[2].pose, &result);
    for (int side = 0; side < 2; side++)
        figures[2].planted[side] = result.planted[side];
    return status;
}

/* The camera looks at the middle lane from ahead and to the figures' left, a little above. */
static demo_camera camera_for(const demo_canvas *canvas) {
    double top = DEMO_HEADER_HEIGHT, height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    reach_vec3 centre = vec3(0, 0.8, 0);
    return demo_camera_look_at(reach_vec3_add(centre, vec3(8.0, 1.9, 5.6)), centre, vec3(0, 1, 0), 1200,
                               canvas->width / 2.0, top + height * 0.45);
}

/* A lane's origin on the floor: the lanes are spread along the camera's right. */
static reach_vec3 lane_origin(const demo_camera *camera, int lane) {
    reach_vec3 across =
        reach_vec3_normalize_safe(vec3((double)camera->right.x, 0, (double)camera->right.z), vec3(1, 0, 0));
    return reach_vec3_scale(across, (reach_real)((lane - 1) * LANE_SPACING));
}

/* A figure's point in the scenery: onto y up, its ground at 0, its lane, its hips' travel taken
 * away (so the figure stays in view and its lane's floor moves instead). */
static reach_vec3 to_scene(const figure *f, reach_vec3 origin, double travel, reach_vec3 p) {
    reach_vec3 q = f->z_up ? vec3((double)p.y, (double)p.z - f->ground, (double)p.x)
                           : vec3((double)p.x, (double)p.y - f->ground, (double)p.z);
    return reach_vec3_add(origin, reach_vec3_sub(q, vec3(0, 0, travel)));
}

static void floor_quad(demo_canvas *canvas, const demo_camera *camera, reach_vec3 origin) {
    reach_vec3 corners[4] = {reach_vec3_add(origin, vec3(-LANE_HALF, 0, -LANE_BEHIND)),
                             reach_vec3_add(origin, vec3(LANE_HALF, 0, -LANE_BEHIND)),
                             reach_vec3_add(origin, vec3(LANE_HALF, 0, LANE_AHEAD)),
                             reach_vec3_add(origin, vec3(-LANE_HALF, 0, LANE_AHEAD))};
    if (!demo_polygon_path_3d(canvas, camera, corners, 4)) return;
    demo_set_colour(canvas->cr, DEMO_PANEL, 1);
    cairo_fill(canvas->cr);
}

static void floor_line(demo_canvas *canvas, const demo_camera *camera, reach_vec3 a, reach_vec3 b) {
    demo_point pa, pb;
    if (!demo_camera_project(camera, a, &pa, NULL) || !demo_camera_project(camera, b, &pb, NULL)) return;
    cairo_move_to(canvas->cr, pa.x, pa.y);
    cairo_line_to(canvas->cr, pb.x, pb.y);
}

/* The lane's floor: a strip whose cross lines, every half of the figure's step, slide back as the
 * figure walks. */
static void draw_lane(demo_canvas *canvas, const demo_camera *camera, const figure *f, reach_vec3 origin,
                      double travel) {
    floor_quad(canvas, camera, origin);
    double spacing = f->speed * STEP_TIME / 2;
    double first = ceil((travel - LANE_BEHIND) / spacing) * spacing;
    for (double z = first; z <= travel + LANE_AHEAD + 1e-9; z += spacing)
        floor_line(canvas, camera, reach_vec3_add(origin, vec3(-LANE_HALF, 0, z - travel)),
                   reach_vec3_add(origin, vec3(LANE_HALF, 0, z - travel)));
    for (int side = -1; side <= 1; side += 2)
        floor_line(canvas, camera, reach_vec3_add(origin, vec3(side * LANE_HALF, 0, -LANE_BEHIND)),
                   reach_vec3_add(origin, vec3(side * LANE_HALF, 0, LANE_AHEAD)));
    demo_set_colour(canvas->cr, DEMO_GRID, 1);
    cairo_set_line_width(canvas->cr, 1);
    cairo_stroke(canvas->cr);
}

/* The bone whose parent is `bone`, or -1: where a head ends. */
static int first_child(const reach_skeleton *s, int bone) {
    for (int b = 0; b < s->bone_count; b++)
        if (s->parents[b] == bone) return b;
    return -1;
}

/* Under each foot, on the floor: a disc while the foot is held planted, a ring while it swings. */
static void draw_feet(demo_canvas *canvas, const demo_camera *camera, const figure *f, const reach_vec3 *world) {
    for (int side = 0; side < 2; side++) {
        reach_vec3 foot = world[f->roles->bones[side ? REACH_ROLE_RIGHT_FOOT : REACH_ROLE_LEFT_FOOT]];
        foot.y = 0;
        demo_point at;
        if (!demo_camera_project(camera, foot, &at, NULL)) continue;
        double radius = 0.07 * demo_camera_scale_at(camera, foot);
        if (f->planted[side])
            demo_draw_joint(canvas, at, radius, DEMO_TARGET);
        else
            demo_draw_circle(canvas, at, radius, 1.5, DEMO_TARGET, 0);
    }
}

/* The joints marked with a dot: a robot's hinges; a character's shoulders, elbows, wrists, hips,
 * knees and ankles (its spine's many balls would hide the bones). */
static int marks_joint(const figure *f, int bone) {
    if (f->z_up) return f->skeleton->joints[bone].type == REACH_JOINT_HINGE;
    static const int limb_roles[] = {REACH_ROLE_LEFT_UPPER_ARM,  REACH_ROLE_LEFT_LOWER_ARM,  REACH_ROLE_LEFT_HAND,
                                     REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_LOWER_ARM, REACH_ROLE_RIGHT_HAND,
                                     REACH_ROLE_LEFT_UPPER_LEG,  REACH_ROLE_LEFT_LOWER_LEG,  REACH_ROLE_LEFT_FOOT,
                                     REACH_ROLE_RIGHT_UPPER_LEG, REACH_ROLE_RIGHT_LOWER_LEG, REACH_ROLE_RIGHT_FOOT};
    for (size_t i = 0; i < sizeof limb_roles / sizeof limb_roles[0]; i++)
        if (f->roles->bones[limb_roles[i]] == bone) return 1;
    return 0;
}

/* Bones far from the eye first, so the near leg and arm cross over the far ones. */
static void draw_figure(demo_canvas *canvas, const demo_camera *camera, const figure *f, reach_vec3 origin,
                        double travel) {
    const reach_skeleton *s = f->skeleton;
    reach_transform world_pose[MAX_BONES];
    reach_vec3 world[MAX_BONES];
    demo_point pixel[MAX_BONES];
    int seen[MAX_BONES] = {0};
    reach_forward_kinematics(s, f->pose, world_pose);
    for (int b = 0; b < s->bone_count; b++) {
        world[b] = to_scene(f, origin, travel, world_pose[b].translation);
        seen[b] = demo_camera_project(camera, world[b], &pixel[b], NULL);
    }
    demo_draw_shadow(canvas, camera, vec3((double)world[0].x, 0, (double)world[0].z), 0.45);
    draw_feet(canvas, camera, f, world);
    demo_depth_item order[MAX_BONES];
    int count = 0;
    for (int b = 1; b < s->bone_count; b++) {
        int p = s->parents[b];
        if (!seen[b] || !seen[p] || reach_vec3_distance(world[b], world[p]) < (reach_real)1e-3) continue;
        order[count].index = b;
        order[count++].distance =
            demo_camera_distance(camera, reach_vec3_scale(reach_vec3_add(world[b], world[p]), (reach_real)0.5));
    }
    demo_sort_far_first(order, count);
    double scale = demo_camera_scale_at(camera, world[0]);
    double width = (f->z_up ? 0.075 : 0.055) * scale;
    for (int i = 0; i < count; i++) {
        int b = order[i].index;
        demo_draw_bone(canvas, pixel[s->parents[b]], pixel[b], width, f->colour);
    }
    for (int b = 0; b < s->bone_count; b++)
        if (seen[b] && marks_joint(f, b))
            demo_draw_joint(canvas, pixel[b], (f->z_up ? 0.04 : 0.035) * scale, DEMO_JOINT);
    int head = f->roles->bones[REACH_ROLE_HEAD], top = first_child(s, head);
    if (head >= 0 && top >= 0 && seen[head] && seen[top]) {
        demo_point centre = {(pixel[head].x + pixel[top].x) / 2, (pixel[head].y + pixel[top].y) / 2};
        demo_draw_joint(canvas, centre, 0.1 * scale, f->colour);
    }
}

/* Under the figure, in a row above the legend: its name and what it is. */
static void draw_caption(demo_canvas *canvas, const demo_camera *camera, const figure *f, reach_vec3 origin) {
    demo_point at;
    if (!demo_camera_project(camera, origin, &at, NULL)) return;
    double y = canvas->height - DEMO_FOOTER_HEIGHT - 34;
    demo_draw_text(canvas, at.x, y, f->name, 14, f->colour, DEMO_ALIGN_CENTRE, 1);
    demo_draw_text(canvas, at.x, y + 17, f->detail, 11, DEMO_TEXT_MUTED, DEMO_ALIGN_CENTRE, 0);
}

static reach_status draw_retarget(demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = configured ? REACH_OK : configure();
    int first = 0, last = -1;
    if (status == REACH_OK) demo_replay_range(&replay, frame->time, &first, &last);
    for (int k = first; k <= last && status == REACH_OK; k++)
        status = advance(k);
    if (status != REACH_OK) return status;
    double t = demo_replay_step_at(&replay, frame->time) / RATE;
    demo_camera camera = camera_for(canvas);
    for (int i = 0; i < FIGURES; i++)
        draw_lane(canvas, &camera, &figures[i], lane_origin(&camera, i), figures[i].speed * t);
    for (int i = 0; i < FIGURES; i++) {
        reach_vec3 origin = lane_origin(&camera, i);
        draw_figure(canvas, &camera, &figures[i], origin, figures[i].speed * t);
        draw_caption(canvas, &camera, &figures[i], origin);
    }
    return REACH_OK;
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "source"},     {DEMO_MARK_LINE, DEMO_POLE, "character"},
    {DEMO_MARK_LINE, DEMO_ROOT, "robot"},      {DEMO_MARK_DOT, DEMO_JOINT, "joints, hinges"},
    {DEMO_MARK_DOT, DEMO_TARGET, "foot held"}, {DEMO_MARK_CIRCLE, DEMO_TARGET, "foot swinging"},
};

const demo_scene demo_scene_retarget = {
    .name = "retarget",
    .title = "Retargeting: one walk on three bodies",
    .subtitle =
        "A synthesised walk carried onto a character of other proportions and a URDF robot, 60 frames a second.",
    .caption = "One walk (left) retargeted frame by frame onto a short-legged, long-armed character in an A-pose "
               "and onto a 29-hinge humanoid robot read from URDF: each lane's floor slides at its figure's speed, "
               "and a foot held planted (filled disc) stands still on it.",
    .draw = draw_retarget,
    DEMO_LEGEND(legend),
    .width = 900,
    .height = 520,
    .duration = 3.0,
    .frame_delay_cs = 5,
    .still_time = 1.15,
};
