/* A humanoid reaching for a moving ball while its feet stay put and its head watches the ball:
 * the roles found from Mixamo-style names, natural limits per role, and full-body IK warm
 * started frame after frame; then a look-at chain of spine, neck and head on its own. */
#include <stdio.h>
#include <stdlib.h>

#include "reach/reach.h"

#define BONES 22

/* name, parent, joint offset from the parent: a 1.75-high T-pose facing +z, its left at +x. */
static const char *const names[BONES] = {
    "mixamorig:Hips",         "mixamorig:Spine",       "mixamorig:Spine1",        "mixamorig:Spine2",
    "mixamorig:Neck",         "mixamorig:Head",        "mixamorig:LeftShoulder",  "mixamorig:LeftArm",
    "mixamorig:LeftForeArm",  "mixamorig:LeftHand",    "mixamorig:RightShoulder", "mixamorig:RightArm",
    "mixamorig:RightForeArm", "mixamorig:RightHand",   "mixamorig:LeftUpLeg",     "mixamorig:LeftLeg",
    "mixamorig:LeftFoot",     "mixamorig:LeftToeBase", "mixamorig:RightUpLeg",    "mixamorig:RightLeg",
    "mixamorig:RightFoot",    "mixamorig:RightToeBase"};
static const int parents[BONES] = {-1, 0, 1, 2, 3, 4, 3, 6, 7, 8, 3, 10, 11, 12, 0, 14, 15, 16, 0, 18, 19, 20};
static const reach_real offsets[BONES][3] = {
    {0, 0.93f, 0},      {0, 0.1f, 0},   {0, 0.14f, 0},     {0, 0.14f, 0},     {0, 0.14f, 0},     {0, 0.1f, 0.02f},
    {0.03f, 0.1f, 0},   {0.14f, 0, 0},  {0.28f, 0, 0},     {0.25f, 0, 0},     {-0.03f, 0.1f, 0}, {-0.14f, 0, 0},
    {-0.28f, 0, 0},     {-0.25f, 0, 0}, {0.1f, -0.05f, 0}, {0, -0.42f, 0},    {0, -0.42f, 0},    {0, -0.05f, 0.13f},
    {-0.1f, -0.05f, 0}, {0, -0.42f, 0}, {0, -0.42f, 0},    {0, -0.05f, 0.13f}};

int main(void) {
    reach_transform rest[BONES], pose[BONES], world[BONES];
    reach_joint joints[BONES];
    for (int b = 0; b < BONES; b++) {
        rest[b] =
            reach_transform_make(reach_quat_identity(), reach_vec3_make(offsets[b][0], offsets[b][1], offsets[b][2]));
        joints[b] = reach_joint_ball();
    }
    reach_skeleton skeleton = {BONES, parents, rest, joints};
    reach_humanoid body;
    int missing = -1;
    if (reach_humanoid_find(&skeleton, names, &body, &missing) != REACH_OK) {
        printf("not a humanoid: no %s\n", reach_humanoid_role_name((reach_humanoid_role)missing));
        return 1;
    }
    /* Elbows and knees as hinges, spine and neck as narrow cones, shoulders and hips wide. */
    reach_humanoid_natural_joints(&skeleton, &body, joints);

    size_t scratch_size = reach_full_body_scratch_size(&skeleton);
    void *scratch = malloc(scratch_size);
    if (!scratch) return 1;
    reach_pose_rest(&skeleton, pose);
    reach_forward_kinematics(&skeleton, pose, world);

    /* The feet stay where they stand; the right hand follows a ball circling in front, low enough
     * that the hips must bend and drop; the head looks at it. */
    reach_full_body_targets targets = reach_full_body_no_targets();
    for (int p = REACH_BODY_LEFT_FOOT; p <= REACH_BODY_RIGHT_FOOT; p++) {
        int foot = body.bones[p == REACH_BODY_LEFT_FOOT ? REACH_ROLE_LEFT_FOOT : REACH_ROLE_RIGHT_FOOT];
        targets.parts[p].use_position = targets.parts[p].use_rotation = 1;
        targets.parts[p].position = world[foot].translation;
        targets.parts[p].rotation = world[foot].rotation;
    }
    reach_body_target *hand = &targets.parts[REACH_BODY_RIGHT_HAND];
    hand->use_position = 1;
    hand->use_hint = 1; /* the elbow out to the side and back */
    targets.use_look_at = 1;
    reach_real worst = 0;
    int reached = 0, frames = 120;
    for (int frame = 0; frame < frames; frame++) {
        reach_real a = (reach_real)frame / (reach_real)frames * 2 * REACH_PI;
        reach_vec3 ball = reach_vec3_make(REACH_R(-0.25) + REACH_R(0.2) * reach_cos(a),
                                          REACH_R(0.75) + REACH_R(0.15) * reach_sin(a), REACH_R(0.45));
        hand->position = ball;
        hand->hint = reach_vec3_make(REACH_R(-0.8), REACH_R(1.0), REACH_R(-0.3));
        targets.look_at = ball;
        reach_full_body_result result;
        reach_status status =
            reach_full_body_solve(&skeleton, &body, &targets, NULL, pose, scratch, scratch_size, &result);
        if (status != REACH_OK) {
            printf("frame %d: %s\n", frame, reach_status_string(status));
            free(scratch);
            return 1;
        }
        reached += result.reached;
        worst = reach_max(worst, result.residual);
    }
    reach_forward_kinematics(&skeleton, pose, world);
    int hips = body.bones[REACH_ROLE_HIPS];
    printf("full body: %d of %d frames reached, worst residual %.2g; hips at height %.3f (stood at %.3f)\n", reached,
           frames, (double)worst, (double)world[hips].translation.y, (double)offsets[0][1]);
    free(scratch);

    /* A look-at chain on its own: spine to head, sharing the turn, each inside its limits. */
    int chain[5] = {1, 2, 3, 4, 5};
    reach_pose_rest(&skeleton, pose);
    reach_forward_kinematics(&skeleton, pose, world);
    reach_aim_output look;
    reach_aim_chain_settings settings = reach_aim_chain_default_settings();
    reach_vec3 point = reach_vec3_make(REACH_R(1.5), REACH_R(1.2), REACH_R(1.0)); /* to the left, low */
    if (reach_aim_chain_solve(&skeleton, chain, 5, point, reach_vec3_make(0, 1, 0), &settings, pose, world, &look) !=
        REACH_OK)
        return 1;
    printf("look-at: %.3f degrees off the point, %s\n", (double)(look.error * 180 / REACH_PI),
           look.limited ? "held by the limits" : "within the limits");
    return reached == frames ? 0 : 1;
}
