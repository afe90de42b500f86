/* Retargeting onto hinges (a robot): the carried pose's role rotations brought into chains of
 * hinges, and the solve's start eased from the last frame toward them (see retarget_frame.c). */
#include "internal.h"
#include "reach/limits.h"
#include "retarget_internal.h"

/* Sweeps of coordinate descent over a chain's hinges: three settle a yaw-roll-pitch hip. */
#define SWEEPS 3
/* The longest chain of hinges ahead of a role's bone (a hip's or shoulder's three, a wrist's two). */
#define MAX_CHAIN 8

/* The hinges chain[0 .. count) (parents first, ending on a role's bone) turned, one at a time and
 * within their limits, so that the last one's world rotation comes nearest `want`: each hinge takes
 * the twist about its axis of the turn it lacks, A⁻¹ · want · B⁻¹, with A the rotation above it and
 * B below. `parent` is the world rotation above the chain. */
static void fit_chain(const reach_skeleton *s, const int *chain, int count, reach_quat parent, reach_quat want,
                      reach_transform *local) {
    /* A lone hinge (a knee, an elbow) sees the same turn at every sweep: one settles it. */
    int sweeps = count > 1 ? SWEEPS : 1;
    for (int sweep = 0; sweep < sweeps; sweep++) {
        for (int k = 0; k < count; k++) {
            reach_quat above = parent;
            for (int i = 0; i < k; i++)
                above = reach_quat_mul(above, local[chain[i]].rotation);
            reach_quat below = reach_quat_identity();
            for (int i = k + 1; i < count; i++)
                below = reach_quat_mul(below, local[chain[i]].rotation);
            int bone = chain[k];
            reach_joint joint = reach_skeleton_joint(s, bone);
            reach_quat rest = s->rest[bone].rotation;
            reach_quat lack = reach_quat_mul(reach_quat_mul(reach_quat_conjugate(reach_quat_mul(above, rest)), want),
                                             reach_quat_conjugate(below));
            reach_real angle = reach_angle_clamp(reach_quat_twist_angle(lack, joint.axis), joint.min, joint.max);
            local[bone].rotation = reach_quat_mul(rest, reach_quat_from_axis_angle(joint.axis, angle));
        }
    }
}

void reach__retarget_project_hinges(reach_retarget *r) {
    const reach_skeleton *s = &r->target.skeleton;
    reach_transform *local = r->projected, *world = r->projected_world;
    for (int b = 0; b < s->bone_count; b++) {
        local[b] = r->carried[b];
        reach_joint joint = reach_skeleton_joint(s, b);
        if (joint.type == REACH_JOINT_HINGE && r->bone_role[b] >= 0) {
            /* The hinges without roles just above this role's bone turn with it. */
            int chain[MAX_CHAIN] = {b}, count = 1;
            for (int c = s->parents[b]; c >= 0 && count < MAX_CHAIN; c = s->parents[c]) {
                if (reach_skeleton_joint(s, c).type != REACH_JOINT_HINGE || r->bone_role[c] >= 0) break;
                chain[count++] = c;
            }
            for (int i = 0; i < count / 2; i++) {
                int t = chain[i];
                chain[i] = chain[count - 1 - i];
                chain[count - 1 - i] = t;
            }
            int top = s->parents[chain[0]];
            reach_quat parent = top >= 0 ? world[top].rotation : reach_quat_identity();
            fit_chain(s, chain, count, parent, r->target.world[b].rotation, local);
            for (int i = 0; i < count; i++) {
                int c = chain[i], p = s->parents[c];
                world[c] = p >= 0 ? reach_transform_mul(world[p], local[c]) : local[c];
            }
            continue;
        }
        reach_joint_project_local(&joint, &s->rest[b], &local[b]);
        int p = s->parents[b];
        world[b] = p >= 0 ? reach_transform_mul(world[p], local[b]) : local[b];
    }
    reach_pose_apply_mimic(s, local);
}

/* Per frame, a hinge moves this share of the way from its last value toward the carried one
 * before the solve: the carried rotations keep the redundant joints (a waist's yaw against the
 * shoulders') from drifting, and the last frame keeps the values continuous. */
#define EASE REACH_R(0.25)

void reach__retarget_hinge_start(reach_retarget *r) {
    const reach_skeleton *s = &r->target.skeleton;
    int count = r->value_count;
    for (int b = 0; b < s->bone_count; b++)
        r->work[b] = r->previous[b];
    reach_pose_get_values(s, r->previous, r->values_last);
    reach_pose_get_values(s, r->projected, r->values_carried);
    for (int v = 0; v < count; v++) {
        reach_real gap = r->values_carried[v] - r->values_last[v];
        if (gap > REACH_PI) gap -= 2 * REACH_PI;
        if (gap < -REACH_PI) gap += 2 * REACH_PI;
        r->values_last[v] += EASE * gap;
    }
    reach_pose_set_values(s, r->values_last, count, 1, r->work);
    for (int b = 0; b < s->bone_count; b++)
        if (s->parents[b] < 0) r->work[b] = r->projected[b];
}
