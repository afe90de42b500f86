/* Whole IK problems from fuzzer bytes, shared by the FABRIK, CCD and Jacobian targets: a skeleton
 * (chain or tree), a starting pose, targets and solver settings. One flags byte chooses, part by
 * part, between a well-formed construction, so the fuzzer gets past validation into the solvers,
 * and raw values, so validation sees everything. Well-formed still means any finite number:
 * zero and huge bone lengths, subnormals and 1e±30 all pass validation and must be solved. */
#ifndef REACH_FUZZ_RIG_H
#define REACH_FUZZ_RIG_H

#include "fuzz_input.h"

#define FUZZ_MAX_BONES   16
#define FUZZ_MAX_TARGETS 4

/* Parts built from raw values (bits of the flags byte). */
enum {
    FUZZ_RAW_PARENTS = 1,
    FUZZ_RAW_REST = 2,
    FUZZ_RAW_JOINTS = 4,
    FUZZ_RAW_POSE = 8,
    FUZZ_RAW_TARGETS = 16,
    FUZZ_RAW_SETTINGS = 32
};

typedef struct fuzz_rig {
    int parents[FUZZ_MAX_BONES];
    reach_transform rest[FUZZ_MAX_BONES];
    reach_joint joints[FUZZ_MAX_BONES];
    reach_skeleton skeleton;
    reach_transform pose[FUZZ_MAX_BONES];
    reach_target targets[FUZZ_MAX_TARGETS];
    int target_count;
    reach_solver_settings settings;
    int use_settings;  /* 0: the solver gets NULL (its defaults) */
    unsigned raw;      /* FUZZ_RAW_* bits */
    int straight_rest; /* well-formed bones whose rest lays each child straight on along its parent
                          (twisted about the link at most), solved from that rest: FABRIK's arc start */
} fuzz_rig;

/* A finite value from the same mix as fuzz_real: NaN and infinities become 1. */
static inline reach_real fuzz_finite(fuzz_input *in) {
    reach_real x = fuzz_real(in);
    return reach_is_finite(x) ? x : 1;
}

static inline reach_vec3 fuzz_finite_vec3(fuzz_input *in) {
    reach_real x = fuzz_finite(in), y = fuzz_finite(in), z = fuzz_finite(in);
    return reach_vec3_make(x, y, z);
}

/* A unit quaternion, or the identity when the bytes give no usable direction. */
static inline reach_quat fuzz_unit_quat(fuzz_input *in) { return reach_quat_normalize_safe(fuzz_quat(in)); }

static inline reach_vec3 fuzz_unit_vec3(fuzz_input *in) {
    return reach_vec3_normalize_safe(fuzz_finite_vec3(in), reach_vec3_make(0, 0, 1));
}

/* An angle in [lo, hi] on a grid of 256 steps, ends included. */
static inline reach_real fuzz_angle(fuzz_input *in, reach_real lo, reach_real hi) {
    return lo + (hi - lo) * (reach_real)fuzz_byte(in) / 255;
}

static inline int fuzz_int(fuzz_input *in) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v = (v << 8) | fuzz_byte(in);
    return (int)(int32_t)v;
}

static inline reach_joint fuzz_raw_joint(fuzz_input *in) {
    reach_joint j = reach_joint_ball();
    uint8_t kind = fuzz_byte(in);
    j.type = (reach_joint_type)(kind % 6); /* one past the last type: must be rejected */
    j.axis = fuzz_vec3(in);
    j.min = fuzz_real(in);
    j.max = fuzz_real(in);
    j.cone_angle = fuzz_real(in);
    j.has_twist = kind >> 7;
    j.twist_min = fuzz_real(in);
    j.twist_max = fuzz_real(in);
    return j;
}

/* A joint that validation accepts: every type, ranges anywhere inside what is allowed
 * (empty ranges and full turns included). */
static inline reach_joint fuzz_valid_joint(fuzz_input *in) {
    uint8_t kind = fuzz_byte(in);
    reach_vec3 axis = fuzz_unit_vec3(in);
    switch (kind % 5) {
    case 0: return reach_joint_ball();
    case 1: {
        reach_real a = fuzz_angle(in, -2 * REACH_PI, 2 * REACH_PI), b = fuzz_angle(in, -2 * REACH_PI, 2 * REACH_PI);
        return reach_joint_hinge(axis, reach_min(a, b), reach_max(a, b));
    }
    case 2: {
        reach_real cone = fuzz_angle(in, 0, REACH_PI);
        if (!(kind & 0x80)) return reach_joint_cone(axis, cone);
        reach_real a = fuzz_angle(in, -REACH_PI, REACH_PI), b = fuzz_angle(in, -REACH_PI, REACH_PI);
        return reach_joint_cone_twist(axis, cone, reach_min(a, b), reach_max(a, b));
    }
    case 3: {
        reach_real a = fuzz_finite(in), b = fuzz_finite(in);
        return reach_joint_prismatic(axis, reach_min(a, b), reach_max(a, b));
    }
    default: return reach_joint_fixed();
    }
}

static inline void fuzz_rig_skeleton(fuzz_rig *r, fuzz_input *in, int count) {
    for (int i = 0; i < count; ++i) {
        uint8_t p = fuzz_byte(in);
        if (r->raw & FUZZ_RAW_PARENTS)
            r->parents[i] = (int)p % (FUZZ_MAX_BONES + 2) - 2;
        else if (i == 0 || p == 255)
            r->parents[i] = -1; /* a root; several roots make a forest */
        else
            r->parents[i] = p < 128 ? i - 1 : (int)p % i; /* mostly chains, some trees */
        if (r->raw & FUZZ_RAW_REST) {
            r->rest[i] = fuzz_transform(in);
        } else if (r->straight_rest && i > 0) {
            /* Along +y, turned only about +y: each link runs on along its parent's. */
            reach_quat q = fuzz_unit_quat(in);
            reach_real length = reach_fabs(fuzz_finite(in));
            r->rest[i] = reach_transform_make(reach_quat_normalize_safe(reach_quat_make(0, q.y, 0, q.w)),
                                              reach_vec3_make(0, length, 0));
        } else {
            reach_quat q = fuzz_unit_quat(in);
            r->rest[i] = reach_transform_make(q, fuzz_finite_vec3(in));
        }
        r->joints[i] = (r->raw & FUZZ_RAW_JOINTS) ? fuzz_raw_joint(in) : fuzz_valid_joint(in);
    }
    r->skeleton.bone_count = count;
    r->skeleton.parents = r->parents;
    r->skeleton.rest = r->rest;
    r->skeleton.joints = (fuzz_byte(in) & 3) ? r->joints : NULL;
}

/* Well-formed poses start inside every joint's limits, turned away from rest; a straight rest
 * starts at the rest itself, which may lie outside a range that leaves out zero. */
static inline void fuzz_rig_pose(fuzz_rig *r, fuzz_input *in) {
    for (int i = 0; i < r->skeleton.bone_count; ++i) {
        if (r->straight_rest && !(r->raw & FUZZ_RAW_POSE)) {
            r->pose[i] = r->rest[i];
            continue;
        }
        if (r->raw & FUZZ_RAW_POSE) {
            r->pose[i] = fuzz_transform(in);
            continue;
        }
        reach_joint joint = reach_skeleton_joint(&r->skeleton, i);
        r->pose[i] = r->rest[i];
        r->pose[i].rotation = reach_quat_normalize_safe(reach_quat_mul(r->rest[i].rotation, fuzz_unit_quat(in)));
        if (joint.type == REACH_JOINT_PRISMATIC)
            r->pose[i].translation = reach_vec3_mad(
                r->pose[i].translation, reach_quat_rotate(r->pose[i].rotation, joint.axis), fuzz_finite(in));
        reach_joint_project_local(&joint, &r->rest[i], &r->pose[i]);
    }
}

/* Where a well-formed target points: anywhere, or onto a joint of the starting pose (the
 * coincident points where directions vanish), or a hair away from one. */
static inline reach_vec3 fuzz_target_position(const fuzz_rig *r, fuzz_input *in, const reach_transform *world) {
    uint8_t how = fuzz_byte(in);
    int bone = (int)fuzz_byte(in) % r->skeleton.bone_count;
    switch (how % 4) {
    case 0: return world[bone].translation;
    case 1: return reach_vec3_add(world[bone].translation, reach_vec3_scale(fuzz_unit_vec3(in), REACH_R(1e-6)));
    default: return fuzz_finite_vec3(in);
    }
}

static inline void fuzz_rig_targets(fuzz_rig *r, fuzz_input *in) {
    int n = r->skeleton.bone_count;
    reach_transform world[FUZZ_MAX_BONES];
    for (int i = 0; i < n; ++i) {
        world[i] = r->pose[i];
        world[i].rotation = reach_quat_normalize_safe(world[i].rotation);
        int p = r->parents[i];
        if (p >= 0 && p < i) world[i] = reach_transform_mul(world[p], world[i]);
    }
    r->target_count = (int)fuzz_byte(in) % (FUZZ_MAX_TARGETS + 1);
    for (int k = 0; k < r->target_count; ++k) {
        reach_target *t = &r->targets[k];
        uint8_t flags = fuzz_byte(in);
        if (r->raw & FUZZ_RAW_TARGETS) {
            t->kind = (reach_target_kind)(flags % 3);
            t->bone = (int)fuzz_byte(in) - 4;
            t->position = fuzz_vec3(in);
            t->orientation = fuzz_quat(in);
            t->use_orientation = (flags >> 2) & 1;
            t->meet_bone = (int)fuzz_byte(in) - 4;
            t->weight = fuzz_real(in);
            continue;
        }
        int bone = (int)fuzz_byte(in) % n;
        *t = reach_target_position(bone, fuzz_target_position(r, in, world));
        if ((flags & 7) == 0 && n > 1) {
            t->kind = REACH_TARGET_MEET;
            t->meet_bone = (t->bone + 1 + (int)fuzz_byte(in) % (n - 1)) % n;
        }
        if (flags & 8) {
            t->use_orientation = 1;
            t->orientation = (flags & 16) ? world[(int)fuzz_byte(in) % n].rotation : fuzz_unit_quat(in);
        }
        if (flags & 32) {
            static const reach_real weights[] = {REACH_R(0.5), 2, REACH_R(1e-3), REACH_R(1e3), REACH_R(1e-30)};
            t->weight = weights[fuzz_byte(in) % 5];
        }
    }
}

static inline void fuzz_rig_settings(fuzz_rig *r, fuzz_input *in) {
    reach_solver_settings *s = &r->settings;
    *s = reach_solver_default_settings();
    uint8_t flags = fuzz_byte(in);
    r->use_settings = (flags & 1) == 0;
    if (r->raw & FUZZ_RAW_SETTINGS) {
        /* Iteration caps stay small so a run is about inputs, not about patience. */
        s->max_iterations = (int)(int8_t)fuzz_byte(in);
        s->tolerance = fuzz_real(in);
        s->angle_tolerance = fuzz_real(in);
        s->root_bone = (int)fuzz_byte(in) - 4;
        s->fabrik_move_root = flags >> 7;
        s->ccd_max_step = fuzz_real(in);
        s->jacobian_method = (reach_jacobian_method)(fuzz_byte(in) % 6);
        s->damping = fuzz_real(in);
        s->null_space = (flags >> 6) & 1;
        s->restarts = (int)(int8_t)fuzz_byte(in) % 8;
        s->seed = (uint64_t)fuzz_int(in);
        return;
    }
    s->max_iterations = (int)fuzz_byte(in) % 65;
    if (flags & 2) s->tolerance = reach_fabs(fuzz_finite(in));
    if (flags & 4) s->angle_tolerance = reach_fabs(fuzz_finite(in));
    if ((flags & 8) && r->target_count > 0) {
        /* An ancestor of the first effector: a valid root for it. */
        int bone = r->targets[0].bone, up = (int)fuzz_byte(in) % 4;
        while (up-- > 0 && bone >= 0 && bone < r->skeleton.bone_count && r->parents[bone] >= 0)
            bone = r->parents[bone];
        s->root_bone = bone;
    }
    s->fabrik_move_root = (flags >> 4) & 1;
    if (flags & 32) s->ccd_max_step = reach_fabs(fuzz_finite(in));
    uint8_t jacobian = fuzz_byte(in);
    s->jacobian_method = (reach_jacobian_method)(jacobian % 4);
    if (jacobian & 4) s->damping = reach_fabs(fuzz_finite(in));
    s->null_space = (jacobian >> 3) & 1;
    s->restarts = (jacobian >> 4) % 4;
    s->seed = (uint64_t)fuzz_byte(in);
}

/* Everything from the bytes, in a fixed order so that each byte keeps its meaning when the
 * fuzzer changes the ones after it. */
static inline void fuzz_rig_make(fuzz_rig *r, fuzz_input *in) {
    memset(r, 0, sizeof *r);
    r->raw = fuzz_byte(in);
    /* Raw parts only one time in four each, or almost nothing would pass validation; a straight
     * rest solved from itself one time in eight (bits the earlier corpus inputs leave clear). */
    uint8_t mode = fuzz_byte(in);
    if (mode & 3) r->raw = 0;
    r->straight_rest = (mode & 0x1c) == 0x1c;
    int count = 1 + (int)fuzz_byte(in) % FUZZ_MAX_BONES;
    fuzz_rig_skeleton(r, in, count);
    fuzz_rig_pose(r, in);
    fuzz_rig_targets(r, in);
    fuzz_rig_settings(r, in);
}

#endif
