/* Aim a chain (spine → neck → head): each bone in turn takes its share of the turn that aims the
 * last bone's ray, inside its joint's limits; sweeps from the last bone back then take up what
 * the limits left (see include/reach/aim.h). */
#include "aim_internal.h"
#include "internal.h"
#include "settings_internal.h"
#include "reach/limits.h"

reach_aim_chain_settings reach_aim_chain_default_settings(void) {
    reach_aim_chain_settings s;
    s.aim = reach_aim_default_settings();
    s.shares = NULL;
    s.iterations = 64;
    s.made_by_defaults = REACH__SETTINGS_TAG;
    return s;
}

static reach_quat parent_rotation(const reach__aim_chain *c, int k) {
    int parent = c->skeleton->parents[c->bones[k]];
    return parent >= 0 ? c->world[parent].rotation : reach_quat_identity();
}

int reach__aim_chain_set_rotation(const reach__aim_chain *c, int k, reach_quat rotation) {
    int bone = c->bones[k];
    reach_joint joint = reach_skeleton_joint(c->skeleton, bone);
    reach_quat wanted = reach_quat_mul(reach_quat_conjugate(parent_rotation(c, k)), rotation);
    reach_quat allowed;
    int clamped = reach_joint_project_rotation(&joint, c->skeleton->rest[bone].rotation, wanted, &allowed);
    c->local[bone].rotation = allowed;
    if (joint.type == REACH_JOINT_PRISMATIC || joint.type == REACH_JOINT_FIXED)
        c->local[bone].translation = c->skeleton->rest[bone].translation;
    for (int j = k; j < c->count; j++) {
        int b = c->bones[j], parent = c->skeleton->parents[b];
        c->world[b] = parent >= 0 ? reach_transform_mul(c->world[parent], c->local[b]) : c->local[b];
    }
    return clamped;
}

/* Turns chain bone k by `fraction` of the turn that aims the last bone's ray at the target (the
 * last bone's roll toward the pole included when k is the last). Returns nonzero on a clamp. */
static int aim_bone(const reach__aim_chain *c, int k, reach_real fraction) {
    const reach_transform *last = &c->world[c->bones[c->count - 1]];
    const reach_transform *self = &c->world[c->bones[k]];
    reach_quat inverse = reach_quat_conjugate(self->rotation);
    reach_vec3 origin = reach_vec3_add(last->translation, reach_quat_rotate(last->rotation, c->offset));
    reach_vec3 forward = reach_quat_rotate(inverse, reach_quat_rotate(last->rotation, c->forward));
    reach_vec3 up = reach_quat_rotate(inverse, reach_quat_rotate(last->rotation, c->up));
    reach_vec3 offset = reach_quat_rotate(inverse, reach_vec3_sub(origin, self->translation));
    reach_quat aimed;
    reach_vec3 axis;
    if (!reach__aim_turn(self->rotation, self->translation, c->target, forward, offset, up, &aimed, &axis))
        return reach__aim_chain_set_rotation(c, k, self->rotation);
    if (k == c->count - 1) {
        reach_real roll = c->aim->keep_up ? reach__aim_roll(aimed, axis, up, c->pole) : 0;
        if (roll + c->aim->twist_angle != 0)
            aimed = reach_quat_normalize_safe(
                reach_quat_mul(reach_quat_from_axis_angle(axis, roll + c->aim->twist_angle), aimed));
    }
    if (fraction < 1) aimed = reach_quat_normalize_safe(reach_quat_slerp(self->rotation, aimed, fraction));
    return reach__aim_chain_set_rotation(c, k, aimed);
}

reach_real reach__aim_chain_error(const reach__aim_chain *c) {
    const reach_transform *last = &c->world[c->bones[c->count - 1]];
    return reach__aim_error(last->rotation, last->translation, c->target, c->forward, c->offset);
}

static reach_status check_aim_chain(const reach_skeleton *skeleton, const int *chain, int count,
                                    const reach_aim_chain_settings *s) {
    for (int k = 0; k < count; k++) {
        if (chain[k] < 0 || chain[k] >= skeleton->bone_count) return REACH_ERROR_BAD_CHAIN;
        int parent = skeleton->parents[chain[k]];
        if (parent >= chain[k] || parent < -1) return REACH_ERROR_BAD_PARENT;
        if (k > 0 && parent != chain[k - 1]) return REACH_ERROR_BAD_CHAIN;
    }
    if (s->iterations < 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (s->shares) {
        reach_real sum = 0;
        for (int k = 0; k < count; k++) {
            if (!reach_is_finite(s->shares[k])) return REACH_ERROR_NOT_FINITE;
            if (s->shares[k] < 0) return REACH_ERROR_INVALID_ARGUMENT;
            sum += s->shares[k];
        }
        if (!(sum > 0) || !reach_is_finite(sum)) return REACH_ERROR_INVALID_ARGUMENT;
    }
    return REACH_OK;
}

static reach_status check_aim_pose(const reach_skeleton *skeleton, const int *chain, int count,
                                   const reach_transform *local, const reach_transform *world, reach_vec3 target) {
    int first_parent = skeleton->parents[chain[0]];
    for (int k = -1; k < count; k++) {
        int bone = k < 0 ? first_parent : chain[k];
        if (bone < 0) continue;
        const reach_transform *w = &world[bone];
        if (!reach_quat_is_finite(w->rotation) || !reach_vec3_is_finite(w->translation)) return REACH_ERROR_NOT_FINITE;
        if (reach_quat_dot(w->rotation, w->rotation) == 0) return REACH_ERROR_BAD_QUATERNION;
        if (!reach_vec3_is_finite(reach_vec3_sub(target, w->translation))) return REACH_ERROR_OUT_OF_RANGE;
        if (k < 0) continue;
        if (!reach_quat_is_finite(local[bone].rotation) || !reach_vec3_is_finite(local[bone].translation))
            return REACH_ERROR_NOT_FINITE;
    }
    return REACH_OK;
}

reach_status reach_aim_chain_solve(const reach_skeleton *skeleton, const int *chain, int count, reach_vec3 target,
                                   reach_vec3 pole, const reach_aim_chain_settings *settings, reach_transform *local,
                                   reach_transform *world, reach_aim_output *out) {
    REACH_CHECK_ARG(skeleton && skeleton->parents && skeleton->rest && chain && count >= 1 && local && world);
    reach_aim_chain_settings s = settings ? *settings : reach_aim_chain_default_settings();
    if (s.made_by_defaults != REACH__SETTINGS_TAG) return REACH_ERROR_SETTINGS_NOT_INITIALIZED;
    reach__aim_chain c;
    reach_status status = reach__aim_check_settings(&s.aim, &c.forward, &c.up);
    if (status != REACH_OK) return status;
    if ((status = check_aim_chain(skeleton, chain, count, &s)) != REACH_OK) return status;
    if (!reach_vec3_is_finite(target) || !reach_vec3_is_finite(pole)) return REACH_ERROR_NOT_FINITE;
    if (s.aim.keep_up && reach_vec3_max_abs(pole) == 0) return REACH_ERROR_INVALID_ARGUMENT;
    if ((status = check_aim_pose(skeleton, chain, count, local, world, target)) != REACH_OK) return status;

    c.skeleton = skeleton;
    c.bones = chain;
    c.count = count;
    c.local = local;
    c.world = world;
    c.target = target;
    c.pole = pole;
    c.offset = s.aim.offset;
    c.aim = &s.aim;
    /* Rotations are used as unit quaternions from here on; the chain's world transforms are
     * rebuilt from its parent's, so a caller's unnormalised ones cannot skew the turn. */
    for (int k = 0; k < count; k++) {
        int bone = chain[k];
        local[bone].rotation = reach_quat_normalize_safe(local[bone].rotation);
        world[bone].rotation = reach_quat_normalize_safe(world[bone].rotation);
    }
    reach_quat start = world[chain[count - 1]].rotation;

    /* The shared pass: each bone its share of what is left, times the weight. */
    reach_real left = 0;
    for (int k = 0; k < count; k++)
        left += s.shares ? s.shares[k] : 1;
    int limited = 0;
    for (int k = 0; k < count; k++) {
        reach_real share = s.shares ? s.shares[k] : 1;
        reach_real fraction = (k == count - 1 || !(left > 0)) ? 1 : share / left;
        left -= share;
        limited |= aim_bone(&c, k, fraction * s.aim.weight);
    }
    /* What the limits left, taken up from the last bone back (a partial weight asks for less
     * than the aim, so there is nothing to take up). */
    if (s.aim.weight == 1) {
        for (int sweep = 0; sweep < s.iterations && limited && reach__aim_chain_error(&c) > s.aim.tolerance; sweep++) {
            limited = 0;
            for (int k = count - 1; k >= 0; k--)
                if (!s.shares || s.shares[k] > 0) limited |= aim_bone(&c, k, 1);
        }
        /* The sweeps crawl where two limits hold at once: all the last bones together. */
        if (s.iterations > 0 && reach__aim_chain_error(&c) > s.aim.tolerance) reach__aim_chain_polish(&c, s.shares);
    }
    if (out) {
        const reach_transform *last = &world[chain[count - 1]];
        out->rotation = last->rotation;
        out->correction = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(start), last->rotation));
        out->error = reach__aim_chain_error(&c);
        out->reached = out->error <= s.aim.tolerance;
        out->limited = limited;
    }
    return REACH_OK;
}
