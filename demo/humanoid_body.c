#include "humanoid_body.h"

#include <stdlib.h>

#include "scenery3d.h"

_Static_assert(DEMO_BODY_BONES == REACH_ROLE_COUNT, "one bone per role");

/* Bone b has role b and is named as the role is ("left_upper_arm"): reach_humanoid_find reads
 * the roles back from those plain names. */
static const int parents[DEMO_BODY_BONES] = {-1, 0,  1,  2, 3,  4,  3,  6, 7,  8,  3,
                                             10, 11, 12, 0, 14, 15, 16, 0, 18, 19, 20};
/* Joint offsets from the parent, metres: the foot joint (ankle) stands 0.08 above the sole. */
static const double offsets[DEMO_BODY_BONES][3] = {
    {0, 0.97, 0},     {0, 0.1, 0},   {0, 0.14, 0},    {0, 0.14, 0},    {0, 0.14, 0},    {0, 0.1, 0.02},
    {0.03, 0.1, 0},   {0.14, 0, 0},  {0.28, 0, 0},    {0.25, 0, 0},    {-0.03, 0.1, 0}, {-0.14, 0, 0},
    {-0.28, 0, 0},    {-0.25, 0, 0}, {0.1, -0.05, 0}, {0, -0.42, 0},   {0, -0.42, 0},   {0, -0.06, 0.13},
    {-0.1, -0.05, 0}, {0, -0.42, 0}, {0, -0.42, 0},   {0, -0.06, 0.13}};

static reach_vec3 vec3(double x, double y, double z) {
    return reach_vec3_make((reach_real)x, (reach_real)y, (reach_real)z);
}

reach_status demo_body_init(demo_body *body) {
    for (int b = 0; b < DEMO_BODY_BONES; b++) {
        body->rest[b] = reach_transform_make(reach_quat_identity(), vec3(offsets[b][0], offsets[b][1], offsets[b][2]));
        body->joints[b] = reach_joint_ball();
    }
    reach_skeleton skeleton = {DEMO_BODY_BONES, parents, body->rest, body->joints};
    body->skeleton = skeleton;
    const char *names[DEMO_BODY_BONES];
    for (int b = 0; b < DEMO_BODY_BONES; b++)
        names[b] = reach_humanoid_role_name((reach_humanoid_role)b);
    reach_status status = reach_humanoid_find(&body->skeleton, names, &body->roles, NULL);
    if (status == REACH_OK) status = reach_humanoid_natural_joints(&body->skeleton, &body->roles, body->joints);
    if (status == REACH_OK && reach_full_body_scratch_size(&body->skeleton) > sizeof body->scratch)
        status = REACH_ERROR_BUFFER_TOO_SMALL;
    reach_pose_rest(&body->skeleton, body->pose);
    demo_body_update(body);
    return status;
}

int demo_body_bone(const demo_body *body, reach_humanoid_role role) { return body->roles.bones[role]; }

void demo_body_update(demo_body *body) { reach_forward_kinematics(&body->skeleton, body->pose, body->world); }

reach_status demo_body_solve(demo_body *body, const reach_full_body_targets *targets, reach_full_body_result *result) {
    reach_status status = reach_full_body_solve(&body->skeleton, &body->roles, targets, NULL, body->pose, body->scratch,
                                                sizeof body->scratch, result);
    demo_body_update(body);
    return status;
}

/* A point in a bone's frame, in world space. */
static reach_vec3 on_bone(const demo_body *body, int bone, double x, double y, double z) {
    const reach_transform *w = &body->world[bone];
    return reach_vec3_add(w->translation, reach_quat_rotate(w->rotation, vec3(x, y, z)));
}

reach_vec3 demo_body_eyes(const demo_body *body) {
    return on_bone(body, demo_body_bone(body, REACH_ROLE_HEAD), 0, 0.1, 0.08);
}

/* What is drawn: a bone from a to b, or (radius > 0) a disc at a; sorted by depth. */
typedef struct body_part {
    reach_vec3 a, b;
    double width, radius, distance;
    demo_colour colour;
} body_part;

#define MAX_PARTS (DEMO_BODY_BONES + 8)

static int farther_first(const void *a, const void *b) {
    double da = ((const body_part *)a)->distance, db = ((const body_part *)b)->distance;
    return (da < db) - (da > db);
}

static int is_right(reach_humanoid_role role) {
    return (role >= REACH_ROLE_RIGHT_SHOULDER && role <= REACH_ROLE_RIGHT_HAND) ||
           (role >= REACH_ROLE_RIGHT_UPPER_LEG && role <= REACH_ROLE_RIGHT_TOES);
}

/* Bone widths, metres: the trunk thick, the limbs thinner toward their ends. */
static double width_of(reach_humanoid_role role) {
    switch (role) {
    case REACH_ROLE_SPINE:
    case REACH_ROLE_CHEST:
    case REACH_ROLE_UPPER_CHEST: return 0.16;
    case REACH_ROLE_NECK:
    case REACH_ROLE_HEAD: return 0.07;
    case REACH_ROLE_LEFT_UPPER_LEG:
    case REACH_ROLE_RIGHT_UPPER_LEG: return 0.1;
    case REACH_ROLE_LEFT_LOWER_LEG:
    case REACH_ROLE_RIGHT_LOWER_LEG: return 0.085;
    case REACH_ROLE_LEFT_UPPER_ARM:
    case REACH_ROLE_RIGHT_UPPER_ARM: return 0.07;
    default: return 0.06;
    }
}

static reach_humanoid_role role_of(const demo_body *body, int bone) {
    for (int r = 0; r < REACH_ROLE_COUNT; r++)
        if (body->roles.bones[r] == bone) return (reach_humanoid_role)r;
    return REACH_ROLE_HIPS;
}

static int collect(const demo_body *body, demo_colour left, demo_colour right, body_part *parts) {
    int n = 0;
    for (int b = 1; b < DEMO_BODY_BONES; b++) {
        /* A bone is drawn from its parent's joint to its own: the bone of the parent's role. */
        reach_humanoid_role role = role_of(body, parents[b]);
        if (role == REACH_ROLE_HIPS) role = role_of(body, b) == REACH_ROLE_SPINE ? REACH_ROLE_SPINE : REACH_ROLE_HIPS;
        body_part p = {body->world[parents[b]].translation,      body->world[b].translation, width_of(role), 0, 0,
                       is_right(role_of(body, b)) ? right : left};
        if (role == REACH_ROLE_HIPS) p.width = 0.12;
        parts[n++] = p;
    }
    /* Hands, toes and the head: short bones past the last joints, and the skull. */
    static const struct {
        reach_humanoid_role role;
        double x, y, z, width;
    } ends[] = {{REACH_ROLE_LEFT_HAND, 0.14, 0, 0, 0.055},     {REACH_ROLE_RIGHT_HAND, -0.14, 0, 0, 0.055},
                {REACH_ROLE_LEFT_TOES, 0, 0, 0.06, 0.055},     {REACH_ROLE_RIGHT_TOES, 0, 0, 0.06, 0.055},
                {REACH_ROLE_LEFT_FOOT, 0, -0.05, -0.06, 0.06}, {REACH_ROLE_RIGHT_FOOT, 0, -0.05, -0.06, 0.06}};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        int bone = demo_body_bone(body, ends[k].role);
        body_part p = {body->world[bone].translation,
                       on_bone(body, bone, ends[k].x, ends[k].y, ends[k].z),
                       ends[k].width,
                       0,
                       0,
                       is_right(ends[k].role) ? right : left};
        parts[n++] = p;
    }
    int head = demo_body_bone(body, REACH_ROLE_HEAD);
    body_part skull = {on_bone(body, head, 0, 0.1, 0.01), reach_vec3_zero(), 0, 0.11, 0, left};
    parts[n++] = skull;
    return n;
}

static void draw_part(demo_canvas *canvas, const demo_camera *camera, const body_part *p, const demo_body *body) {
    demo_point a, b;
    if (!demo_camera_project(camera, p->a, &a, NULL)) return;
    double scale = demo_camera_scale_at(camera, p->a);
    if (p->radius > 0) {
        demo_draw_joint(canvas, a, p->radius * scale, DEMO_SOLID_TOP);
        demo_draw_circle(canvas, a, p->radius * scale, 2, p->colour, 0);
        /* The face: a short stroke from the skull toward where the head looks. */
        demo_point nose;
        int head = demo_body_bone(body, REACH_ROLE_HEAD);
        if (demo_camera_project(camera, on_bone(body, head, 0, 0.1, 0.13), &nose, NULL))
            demo_draw_segment(canvas, a, nose, 0.04 * scale, p->colour, 1);
        return;
    }
    if (!demo_camera_project(camera, p->b, &b, NULL)) return;
    demo_draw_bone(canvas, a, b, p->width * scale, p->colour);
}

void demo_body_draw(demo_canvas *canvas, const demo_camera *camera, const demo_body *body, demo_colour left,
                    demo_colour right) {
    body_part parts[MAX_PARTS];
    int n = collect(body, left, right, parts);
    for (int i = 0; i < n; i++) {
        reach_vec3 middle =
            parts[i].radius > 0 ? parts[i].a : reach_vec3_scale(reach_vec3_add(parts[i].a, parts[i].b), 0.5f);
        parts[i].distance = demo_camera_distance(camera, middle);
    }
    qsort(parts, (size_t)n, sizeof parts[0], farther_first);
    for (int i = 0; i < n; i++)
        draw_part(canvas, camera, &parts[i], body);
}
