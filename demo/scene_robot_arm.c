/* A UR5 built from its published Denavit–Hartenberg table (reach/dh.h), or read from a URDF file
 * (reach/urdf.h, the robot_urdf scene), tracks a 6-D path: the tool's position goes round a
 * figure-eight in front of the robot while its orientation rocks and turns, and the Jacobian
 * solver (selectively damped least squares) follows it frame by frame, warm-started from the
 * last pose. Drawn in perspective: the links between the joint
 * frames, each joint's axis, the target frame (dashed) and the tool frame (solid), the path and
 * a few of its frames, and the path's shadow on the floor. */
#include <math.h>
#include <stdio.h>

#include "reach/urdf.h"
#include "readout.h"
#include "replay.h"
#include "scene.h"
#include "scenery3d.h"

#define PI           3.14159265358979323846
#define LOOP         8.0
#define STEP         0.04
#define JOINTS       6
#define BONES        (JOINTS + 2) /* the URDF's: base link, six joints, tool */
#define SCRATCH      (16 * 1024)
#define INFO_W       196
#define PATH_SAMPLES 120
#define PATH_FRAMES  8

/* UR5, standard DH, metres and radians: a, alpha, d. Every joint turns ±2π. */
static const double dh_a[JOINTS] = {0, -0.425, -0.39225, 0, 0, 0};
static const double dh_alpha[JOINTS] = {PI / 2, 0, 0, PI / 2, -PI / 2, 0};
static const double dh_d[JOINTS] = {0.089159, 0, 0, 0.10915, 0.09465, 0.0823};

/* A ready pose, tool pointing down in front of the robot: where the path is centred. */
static const double ready[JOINTS] = {0, -1.2, 1.6, -1.97, -1.57, 0};

static reach_vec3 vec3(double x, double y, double z) {
    return reach_vec3_make((reach_real)x, (reach_real)y, (reach_real)z);
}

typedef struct robot {
    int from_urdf; /* read from REACH_DEMO_UR5_URDF rather than built from the DH table */
    int parents[BONES];
    reach_transform rest[BONES];
    reach_joint joints[BONES];
    reach_skeleton skeleton;
    int first, tool; /* the bones of the first joint and of the tool: 0 and 6 (DH), 1 and 7 (URDF) */
    reach_transform pose[BONES];
    reach_transform home_tool; /* the tool's world transform in the ready pose */
    reach_solve_result result;
    demo_replay replay;
} robot;

static robot dh_arm = {0, .replay = {STEP, 0, 0, 0}}, urdf_arm = {1, .replay = {STEP, 0, 0, 0}};
static double scratch[SCRATCH / sizeof(double)];

static reach_status build_from_dh(robot *r) {
    reach_dh_row rows[JOINTS];
    for (int i = 0; i < JOINTS; i++) {
        rows[i] = reach_dh_default_row();
        rows[i].a = (reach_real)dh_a[i];
        rows[i].alpha = (reach_real)dh_alpha[i];
        rows[i].d = (reach_real)dh_d[i];
        rows[i].min = (reach_real)(-2 * PI);
        rows[i].max = (reach_real)(2 * PI);
    }
    reach_dh_table table = {REACH_DH_STANDARD, JOINTS, rows, NULL};
    r->first = 0;
    r->tool = JOINTS;
    return reach_dh_build(&table, r->parents, r->rest, r->joints, BONES, &r->skeleton, NULL);
}

/* The same UR5 written as a URDF with the DH frames as link frames (cli/examples/ur5.urdf). */
static reach_status build_from_urdf(robot *r) {
    reach_rig rig;
    reach_status status = reach_urdf_read_file(REACH_DEMO_UR5_URDF, &rig, NULL, 0);
    if (status != REACH_OK) return status;
    int tool = reach_rig_find_bone(&rig, "tool0");
    if (rig.bone_count != BONES || tool != BONES - 1) status = REACH_ERROR_BAD_CHAIN;
    for (int i = 0; status == REACH_OK && i < BONES; i++) {
        r->parents[i] = rig.parents[i];
        r->rest[i] = rig.rest[i];
        r->joints[i] = rig.joints[i];
    }
    reach_rig_free(&rig);
    r->skeleton = (reach_skeleton){BONES, r->parents, r->rest, r->joints};
    r->first = 1;
    r->tool = BONES - 1;
    return status;
}

static reach_status build(robot *r) {
    reach_status status = r->from_urdf ? build_from_urdf(r) : build_from_dh(r);
    if (status != REACH_OK) return status;
    reach_pose_rest(&r->skeleton, r->pose);
    reach_real values[JOINTS];
    for (int i = 0; i < JOINTS; i++)
        values[i] = (reach_real)ready[i];
    status = reach_pose_set_values(&r->skeleton, values, JOINTS, 0, r->pose);
    reach_transform world[BONES];
    reach_forward_kinematics(&r->skeleton, r->pose, world);
    r->home_tool = world[r->tool];
    return status;
}

/* The 6-D path: a figure-eight across the front of the robot, bobbing up and down, while the
 * tool tilts side to side and turns about the vertical. Both close after LOOP seconds. */
static reach_transform target_at(const robot *r, double t) {
    double a = 2 * PI * t / LOOP;
    reach_vec3 offset = vec3(0.1 * sin(2 * a), 0.24 * sin(a), 0.07 * sin(2 * a + 0.8));
    reach_quat turn = reach_quat_from_axis_angle(vec3(0, 0, 1), (reach_real)(0.5 * sin(a)));
    reach_quat tilt = reach_quat_from_axis_angle(vec3(1, 0, 0), (reach_real)(0.35 * sin(2 * a)));
    reach_quat rotation = reach_quat_mul(turn, reach_quat_mul(tilt, r->home_tool.rotation));
    return reach_transform_make(rotation, reach_vec3_add(r->home_tool.translation, offset));
}

static reach_status solve(robot *r, double t) {
    reach_transform goal = target_at(r, t);
    reach_target target = reach_target_position(r->tool, goal.translation);
    target.use_orientation = 1;
    target.orientation = goal.rotation;
    reach_solver_settings settings = reach_solver_default_settings();
    settings.jacobian_method = REACH_JACOBIAN_SDLS;
    settings.tolerance = (reach_real)1e-5; /* metres: ten microns */
    if (reach_jacobian_scratch_size(&r->skeleton, 1) > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
    return reach_jacobian_solve(&r->skeleton, &target, 1, &settings, r->pose, scratch, sizeof scratch, &r->result);
}

static reach_status advance(robot *r, double t) {
    int first, last;
    demo_replay_range(&r->replay, t, &first, &last);
    for (int k = first; k <= last; k++) {
        if (demo_replay_is_start(&r->replay, k)) {
            reach_status status = build(r);
            if (status != REACH_OK) return status;
        }
        reach_status status = solve(r, k * STEP);
        if (status != REACH_OK) return status;
    }
    return REACH_OK;
}

/* ---- drawing ---------------------------------------------------------------------------- */

static int project(const demo_camera *camera, reach_vec3 world_point, demo_point *pixel) {
    return demo_camera_project(camera, demo_from_z_up(world_point), pixel, NULL);
}

static void frame_axes(const demo_canvas *canvas, const demo_camera *camera, reach_transform frame, double length,
                       double width, int dashed) {
    reach_vec3 axes[3];
    for (int i = 0; i < 3; i++) {
        reach_vec3 unit = vec3(i == 0, i == 1, i == 2);
        axes[i] = demo_from_z_up(reach_quat_rotate(frame.rotation, unit));
    }
    demo_draw_frame_axes((demo_canvas *)canvas, camera, demo_from_z_up(frame.translation), axes, length, width, dashed);
}

static void draw_path(const robot *arm, demo_canvas *canvas, const demo_camera *camera) {
    cairo_t *cr = canvas->cr;
    /* Its shadow on the floor first, then the path itself. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i <= PATH_SAMPLES; i++) {
            reach_vec3 p = target_at(arm, LOOP * i / PATH_SAMPLES).translation;
            if (pass == 0) p.z = 0;
            demo_point pixel;
            if (project(camera, p, &pixel)) cairo_line_to(cr, pixel.x, pixel.y);
        }
        demo_set_colour(cr, pass == 0 ? DEMO_GRID : DEMO_GUIDE, 1);
        cairo_set_line_width(cr, pass == 0 ? 2 : 1.5);
        cairo_stroke(cr);
    }
    for (int i = 0; i < PATH_FRAMES; i++)
        frame_axes(canvas, camera, target_at(arm, LOOP * i / PATH_FRAMES), 0.04, 1.2, 0);
}

/* world: the joint frames from the first joint's bone on, the tool's last. */
static void draw_robot(demo_canvas *canvas, const demo_camera *camera, const reach_transform *world) {
    demo_point base, points[JOINTS + 1];
    project(camera, vec3(0, 0, 0), &base);
    for (int i = 0; i <= JOINTS; i++)
        project(camera, world[i].translation, &points[i]);
    double scale = demo_camera_scale_at(camera, demo_from_z_up(world[2].translation));
    demo_draw_bone(canvas, base, points[0], 0.09 * scale, DEMO_ROOT);
    for (int i = 0; i < JOINTS; i++) {
        /* Each joint's housing: a short thick stroke along its axis (the bone's z). */
        reach_vec3 axis = reach_quat_rotate(world[i].rotation, vec3(0, 0, 1));
        reach_vec3 half = reach_vec3_scale(axis, (reach_real)(i < 3 ? 0.07 : 0.04));
        demo_point a, b;
        if (project(camera, reach_vec3_sub(world[i].translation, half), &a) &&
            project(camera, reach_vec3_add(world[i].translation, half), &b))
            demo_draw_bone(canvas, a, b, (i < 3 ? 0.1 : 0.06) * scale, DEMO_SOLID_TOP);
        demo_draw_bone(canvas, points[i], points[i + 1], (i < 3 ? 0.06 : 0.045) * scale, DEMO_BONE);
        demo_draw_joint(canvas, points[i], 0.02 * scale, DEMO_JOINT);
    }
}

static void draw_info(const robot *arm, demo_canvas *canvas, double t) {
    demo_colour colour;
    /* The path stays inside the arm's workspace: a miss is never for want of reach. */
    const char *status = demo_solve_status(&arm->result, 0, &colour);
    demo_info info = demo_info_begin(canvas, INFO_W, 84, "Jacobian, SDLS", status, colour);
    char value[48];
    snprintf(value, sizeof value, "%d", arm->result.iterations);
    demo_info_row(&info, "iterations", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%.4f mm", 1000 * (double)arm->result.residual);
    demo_info_row(&info, "position", value, colour);
    snprintf(value, sizeof value, "%.4f°", (double)arm->result.angle_residual * 180 / PI);
    demo_info_row(&info, "orientation", value, colour);
    reach_real values[JOINTS];
    reach_pose_get_values(&arm->skeleton, arm->pose, values);
    info.y += 8;
    for (int i = 0; i < JOINTS; i++) {
        char label[16];
        snprintf(label, sizeof label, "joint %d", i + 1);
        double degrees = (double)values[i] * 180 / PI;
        snprintf(value, sizeof value, "%+7.1f°", fabs(degrees) < 0.05 ? 0.0 : degrees);
        demo_info_row(&info, label, value, DEMO_TEXT);
    }
    snprintf(value, sizeof value, "t = %.2f s", t);
    demo_info_note(&info, value);
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "links"},
    {DEMO_MARK_LINE, DEMO_SOLID_TOP, "joint axes"},
    {DEMO_MARK_THIN, DEMO_AXIS_X, "x"},
    {DEMO_MARK_THIN, DEMO_AXIS_Y, "y"},
    {DEMO_MARK_THIN, DEMO_AXIS_Z, "z: tool frame"},
    {DEMO_MARK_DASHED, DEMO_GUIDE, "target frame (dashed)"},
};

static reach_status draw_arm(robot *arm, demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = advance(arm, frame->time);
    if (status != REACH_OK) return status;
    double t = demo_replay_step_at(&arm->replay, frame->time) * STEP;
    double view_width = canvas->width - INFO_W - DEMO_MARGIN;
    double top = DEMO_HEADER_HEIGHT, height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    demo_camera camera =
        demo_camera_look_at(demo_from_z_up(vec3(-1.25, -1.65, 1.0)), demo_from_z_up(vec3(-0.3, 0.0, 0.28)),
                            vec3(0, 1, 0), 780, view_width / 2, top + height / 2);
    demo_draw_ground_grid(canvas, &camera, -1.1, 0.5, -0.8, 0.8, 0.1);
    demo_box pedestal = {vec3(-0.075, 0, -0.075), vec3(0.075, 0.02, 0.075)};
    demo_draw_boxes(canvas, &camera, &pedestal, 1);
    draw_path(arm, canvas, &camera);
    reach_transform world[BONES];
    reach_forward_kinematics(&arm->skeleton, arm->pose, world);
    draw_robot(canvas, &camera, world + arm->first);
    frame_axes(canvas, &camera, target_at(arm, t), 0.17, 2, 1);
    frame_axes(canvas, &camera, world[arm->tool], 0.13, 3, 0);
    draw_info(arm, canvas, t);
    return REACH_OK;
}

static reach_status draw_robot_arm(demo_canvas *canvas, const demo_frame *frame) {
    return draw_arm(&dh_arm, canvas, frame);
}

static reach_status draw_robot_urdf(demo_canvas *canvas, const demo_frame *frame) {
    return draw_arm(&urdf_arm, canvas, frame);
}

const demo_scene demo_scene_robot_arm = {
    .name = "robot_arm",
    .title = "Jacobian IK: a UR5 tracking a 6-D path",
    .subtitle = "Built from its DH table; the tool frame (solid) follows the target frame (dashed), position and "
                "orientation.",
    .caption = "A UR5 robot arm built from its Denavit–Hartenberg parameters follows a figure-eight of tool "
               "positions and orientations with the selectively damped least squares Jacobian solver, warm-started "
               "every frame: its tool frame stays on the target frame.",
    .draw = draw_robot_arm,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LOOP,
    .frame_delay_cs = 4,
    .still_time = 1.6,
};

const demo_scene demo_scene_robot_urdf = {
    .name = "robot_urdf",
    .title = "Jacobian IK: a UR5 read from a URDF tracking a 6-D path",
    .subtitle = "Read from cli/examples/ur5.urdf; the tool frame (solid) follows the target frame (dashed).",
    .caption = "The same UR5 read from a URDF file by the formats library (links as bones, each carrying the joint "
               "that leads into it) follows the same figure-eight of tool poses with the selectively damped least "
               "squares Jacobian solver: the rig from the file moves as the one from the DH table.",
    .draw = draw_robot_urdf,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LOOP,
    .frame_delay_cs = 4,
    .still_time = 1.6,
};
