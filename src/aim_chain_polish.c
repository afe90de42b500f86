/* The aim chain's last step. Where two limits hold at once (a cone and a twist, or two joints at
 * their cone rims) turning one bone at a time and clamping crawls along the rims, so the error
 * left is taken down by projected Gauss-Newton steps on the chain's last bones together. Each
 * bone is moved in its joint's own terms, a swing s (a turn about an axis across the joint's axis,
 * |s| <= the cone) then a twist about the axis (within its range), so the limits are a disk and an
 * interval: a step that would leave one slides along it (the active set), and the step's end is
 * put back by the exact nearest point in those terms. */
#include "aim_internal.h"
#include "internal.h"
#include "reach/limits.h"

/* The bones moved together: the chain's last ones with a share that can turn. */
#define POLISH_BONES  8
#define POLISH_PARAMS (3 * POLISH_BONES)
/* Steps tried from each start, kept or not. */
#define POLISH_STEPS 64
/* The change (rad) by which the Jacobian is differenced: large enough for float's rounding. */
#define POLISH_DELTA REACH_R(1e-3)
/* How near a limit (rad) a value counts as on it. */
#define POLISH_ON_LIMIT REACH_R(1e-6)

typedef struct polish_bone {
    int k;                   /* chain index */
    reach_vec3 axis, e1, e2; /* the joint's axis and two across it, in the rest frame */
    reach_real swing_max;    /* the disk's radius: the cone, 0 for a hinge, pi for a ball */
    int twist_bounded;
    reach_real twist_min, twist_max;
} polish_bone;

typedef struct polish {
    const reach__aim_chain *c;
    polish_bone bones[POLISH_BONES]; /* first to last along the chain */
    int n;
} polish;

/* The last bone's aim error as a turn: about the line that would take its forward axis to the
 * target, by the angle between them. */
static reach_vec3 aim_residual(const reach__aim_chain *c) {
    const reach_transform *last = &c->world[c->bones[c->count - 1]];
    reach_vec3 origin = reach_vec3_add(last->translation, reach_quat_rotate(last->rotation, c->offset));
    reach_vec3 way = reach_vec3_sub(c->target, origin);
    reach_real scale = reach_vec3_max_abs(way);
    if (!(scale > 0)) return reach_vec3_zero();
    way = reach_vec3_scale(way, 1 / scale);
    reach_vec3 f = reach_quat_rotate(last->rotation, c->forward);
    reach_vec3 across = reach_vec3_cross(f, way);
    reach_real sine = reach_vec3_length(across);
    if (!(sine > 0)) return reach_vec3_zero();
    return reach_vec3_scale(across, reach_atan2(sine, reach_vec3_dot(f, way)) / sine);
}

/* Which bones move, and their joints in swing and twist terms; 0 when none can. */
static int polish_setup(polish *p, const reach__aim_chain *c, const reach_real *shares) {
    p->c = c;
    p->n = 0;
    for (int k = c->count - 1; k >= 0 && p->n < POLISH_BONES; k--) {
        int bone = c->bones[k];
        reach_joint joint = reach_skeleton_joint(c->skeleton, bone);
        if ((shares && !(shares[k] > 0)) || joint.type == REACH_JOINT_PRISMATIC || joint.type == REACH_JOINT_FIXED)
            continue;
        polish_bone *b = &p->bones[p->n++];
        b->k = k;
        b->axis = joint.type == REACH_JOINT_BALL ? reach_vec3_make(0, 1, 0)
                                                 : reach_vec3_normalize_safe(joint.axis, reach_vec3_make(0, 1, 0));
        b->e1 = reach_vec3_any_perpendicular(b->axis);
        b->e2 = reach_vec3_cross(b->axis, b->e1);
        b->swing_max = joint.type == REACH_JOINT_CONE    ? joint.cone_angle
                       : joint.type == REACH_JOINT_HINGE ? 0
                                                         : REACH_PI;
        b->twist_bounded = joint.type == REACH_JOINT_HINGE || (joint.type == REACH_JOINT_CONE && joint.has_twist);
        b->twist_min = joint.type == REACH_JOINT_HINGE ? joint.min : joint.twist_min;
        b->twist_max = joint.type == REACH_JOINT_HINGE ? joint.max : joint.twist_max;
    }
    for (int i = 0; i < p->n / 2; i++) {
        polish_bone t = p->bones[i];
        p->bones[i] = p->bones[p->n - 1 - i];
        p->bones[p->n - 1 - i] = t;
    }
    return p->n > 0;
}

/* The pose's values for each moved bone: swing (two across the axis) and twist. */
static void read_values(const polish *p, reach_real *v) {
    const reach__aim_chain *c = p->c;
    for (int i = 0; i < p->n; i++) {
        const polish_bone *b = &p->bones[i];
        int bone = c->bones[b->k];
        reach_quat delta = reach_quat_normalize_safe(
            reach_quat_mul(reach_quat_conjugate(c->skeleton->rest[bone].rotation), c->local[bone].rotation));
        reach_quat swing, twist;
        reach_quat_swing_twist(delta, b->axis, &swing, &twist);
        if (swing.w < 0) swing = reach_quat_neg(swing);
        reach_vec3 about = reach_vec3_normalize_safe(reach_vec3_make(swing.x, swing.y, swing.z), reach_vec3_zero());
        reach_vec3 s = reach_vec3_scale(about, reach_quat_angle(swing));
        v[3 * i] = reach_vec3_dot(s, b->e1);
        v[3 * i + 1] = reach_vec3_dot(s, b->e2);
        v[3 * i + 2] = reach_quat_twist_angle(twist, b->axis);
    }
}

/* The nearest values the limits allow: the swing into its disk, the twist into its range. */
static void clamp_values(const polish *p, reach_real *v) {
    for (int i = 0; i < p->n; i++) {
        const polish_bone *b = &p->bones[i];
        reach_real radius = reach_sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1]);
        if (radius > b->swing_max) {
            reach_real scale = radius > 0 ? b->swing_max / radius : 0;
            v[3 * i] *= scale;
            v[3 * i + 1] *= scale;
        }
        if (b->twist_bounded) v[3 * i + 2] = reach_clamp(v[3 * i + 2], b->twist_min, b->twist_max);
    }
}

/* Poses the moved bones by their values and carries the change down the chain. */
static void write_values(const polish *p, const reach_real *v) {
    const reach__aim_chain *c = p->c;
    for (int i = 0; i < p->n; i++) {
        const polish_bone *b = &p->bones[i];
        int bone = c->bones[b->k];
        reach_vec3 s = reach_vec3_add(reach_vec3_scale(b->e1, v[3 * i]), reach_vec3_scale(b->e2, v[3 * i + 1]));
        reach_real angle = reach_vec3_length(s);
        reach_quat swing =
            angle > 0 ? reach_quat_from_axis_angle(reach_vec3_scale(s, 1 / angle), angle) : reach_quat_identity();
        reach_quat twist = reach_quat_from_axis_angle(b->axis, v[3 * i + 2]);
        c->local[bone].rotation =
            reach_quat_normalize_safe(reach_quat_mul(c->skeleton->rest[bone].rotation, reach_quat_mul(swing, twist)));
    }
    for (int k = p->bones[0].k; k < c->count; k++) {
        int b = c->bones[k], parent = c->skeleton->parents[b];
        c->world[b] = parent >= 0 ? reach_transform_mul(c->world[parent], c->local[b]) : c->local[b];
    }
}

static reach_vec3 residual_at(const polish *p, const reach_real *v) {
    write_values(p, v);
    return aim_residual(p->c);
}

/* d(residual)/d(value), by central differences (limits are not applied here). */
static void jacobian(const polish *p, reach_real *v, reach_vec3 *column) {
    for (int j = 0; j < 3 * p->n; j++) {
        reach_real keep = v[j];
        v[j] = keep + POLISH_DELTA;
        reach_vec3 ahead = residual_at(p, v);
        v[j] = keep - POLISH_DELTA;
        reach_vec3 behind = residual_at(p, v);
        v[j] = keep;
        column[j] = reach_vec3_scale(reach_vec3_sub(ahead, behind), 1 / (2 * POLISH_DELTA));
    }
    write_values(p, v);
}

/* x = -(Σ c cᵀ + λI)⁻¹ r over the given columns: the damped least-norm step is then cᵀx each. */
static reach_vec3 damped_dual(const reach_vec3 *columns, int count, reach_vec3 r, reach_real lambda) {
    reach_vec3 row[3] = {reach_vec3_make(lambda, 0, 0), reach_vec3_make(0, lambda, 0), reach_vec3_make(0, 0, lambda)};
    for (int j = 0; j < count; j++) {
        reach_vec3 u = columns[j];
        row[0] = reach_vec3_mad(row[0], u, u.x);
        row[1] = reach_vec3_mad(row[1], u, u.y);
        row[2] = reach_vec3_mad(row[2], u, u.z);
    }
    reach_vec3 c0 = reach_vec3_cross(row[1], row[2]), c1 = reach_vec3_cross(row[2], row[0]),
               c2 = reach_vec3_cross(row[0], row[1]);
    reach_real det = reach_vec3_dot(row[0], c0);
    if (!(det > 0)) return reach_vec3_zero();
    reach_vec3 sum =
        reach_vec3_add(reach_vec3_add(reach_vec3_scale(c0, r.x), reach_vec3_scale(c1, r.y)), reach_vec3_scale(c2, r.z));
    return reach_vec3_scale(sum, -1 / det);
}

/* The step in values: a damped Gauss-Newton step in which a twist at a bound that the step would
 * pass is held, and a swing on its rim that the step would take outward moves only along the rim. */
static void constrained_step(const polish *p, const reach_real *v, const reach_vec3 *column, reach_vec3 r,
                             reach_real lambda, reach_real *step) {
    /* Per bone: the swing free (0), along the rim (1) or held (2); the twist free (0) or held (1). */
    int swing_mode[POLISH_BONES], twist_held[POLISH_BONES];
    reach_real tangent[POLISH_BONES][2];
    for (int i = 0; i < p->n; i++) {
        swing_mode[i] = p->bones[i].swing_max > 0 ? 0 : 2;
        twist_held[i] = 0;
        tangent[i][0] = -v[3 * i + 1];
        tangent[i][1] = v[3 * i];
        reach_real length = reach_sqrt(tangent[i][0] * tangent[i][0] + tangent[i][1] * tangent[i][1]);
        if (length > 0) {
            tangent[i][0] /= length;
            tangent[i][1] /= length;
        }
    }
    for (int round = 0; round <= 2 * p->n; round++) {
        /* The columns in use, with the directions in values they stand for. */
        reach_vec3 used[POLISH_PARAMS];
        reach_real direction[POLISH_PARAMS][3];
        int owner[POLISH_PARAMS], count = 0;
        for (int i = 0; i < p->n; i++) {
            const reach_vec3 *col = &column[3 * i];
            if (swing_mode[i] == 0) {
                for (int a = 0; a < 2; a++) {
                    used[count] = col[a];
                    direction[count][0] = a == 0;
                    direction[count][1] = a == 1;
                    direction[count][2] = 0;
                    owner[count++] = i;
                }
            } else if (swing_mode[i] == 1) {
                used[count] =
                    reach_vec3_add(reach_vec3_scale(col[0], tangent[i][0]), reach_vec3_scale(col[1], tangent[i][1]));
                direction[count][0] = tangent[i][0];
                direction[count][1] = tangent[i][1];
                direction[count][2] = 0;
                owner[count++] = i;
            }
            if (!twist_held[i]) {
                used[count] = col[2];
                direction[count][0] = direction[count][1] = 0;
                direction[count][2] = 1;
                owner[count++] = i;
            }
        }
        reach_vec3 x = damped_dual(used, count, r, lambda);
        for (int j = 0; j < 3 * p->n; j++)
            step[j] = 0;
        for (int u = 0; u < count; u++) {
            reach_real amount = reach_vec3_dot(used[u], x);
            for (int a = 0; a < 3; a++)
                step[3 * owner[u] + a] += amount * direction[u][a];
        }
        int changed = 0;
        for (int i = 0; i < p->n; i++) {
            const polish_bone *b = &p->bones[i];
            const reach_real *vi = &v[3 * i], *si = &step[3 * i];
            if (swing_mode[i] == 0 && reach_sqrt(vi[0] * vi[0] + vi[1] * vi[1]) >= b->swing_max - POLISH_ON_LIMIT &&
                vi[0] * si[0] + vi[1] * si[1] > 0) {
                swing_mode[i] = 1;
                changed = 1;
            }
            if (!twist_held[i] && b->twist_bounded &&
                ((vi[2] >= b->twist_max - POLISH_ON_LIMIT && si[2] > 0) ||
                 (vi[2] <= b->twist_min + POLISH_ON_LIMIT && si[2] < 0))) {
                twist_held[i] = 1;
                changed = 1;
            }
        }
        if (!changed) return;
    }
}

/* Damped steps from v while they lower the error; v ends at the best values found. */
static reach_real gauss_newton(const polish *p, reach_real *v, reach_real error) {
    reach_vec3 column[POLISH_PARAMS];
    reach_real step[POLISH_PARAMS], tried[POLISH_PARAMS];
    reach_real lambda = -1;
    int fresh = 0; /* the Jacobian is of v */
    for (int s = 0; s < POLISH_STEPS && error > p->c->aim->tolerance; s++) {
        reach_vec3 r = residual_at(p, v);
        if (!fresh) {
            jacobian(p, v, column);
            fresh = 1;
            if (lambda < 0) {
                reach_real trace = 0;
                for (int j = 0; j < 3 * p->n; j++)
                    trace += reach_vec3_length_sq(column[j]);
                lambda = REACH_R(1e-3) * trace + REACH_R(1e-20);
            }
        }
        constrained_step(p, v, column, r, lambda, step);
        for (int j = 0; j < 3 * p->n; j++)
            tried[j] = v[j] + step[j];
        clamp_values(p, tried);
        reach_real e = reach_vec3_length(residual_at(p, tried));
        if (e < error) {
            error = e;
            for (int j = 0; j < 3 * p->n; j++)
                v[j] = tried[j];
            fresh = 0;
            lambda = reach_max(lambda * REACH_R(0.25), REACH_R(1e-20));
        } else {
            lambda *= 8;
        }
    }
    write_values(p, v);
    return error;
}

reach_real reach__aim_chain_polish(const reach__aim_chain *c, const reach_real *shares) {
    polish p;
    reach_real error = reach__aim_chain_error(c);
    if (!polish_setup(&p, c, shares)) return error;
    reach_real v[POLISH_PARAMS], again[POLISH_PARAMS];
    read_values(&p, v);
    clamp_values(&p, v);
    error = gauss_newton(&p, v, reach_vec3_length(residual_at(&p, v)));
    /* A stall short of the aim may be a local minimum of the limited chain: start once more from
     * the moved bones' rest pose (the middle of their limits) and keep the better end. */
    if (error > c->aim->tolerance) {
        for (int j = 0; j < 3 * p.n; j++)
            again[j] = 0;
        clamp_values(&p, again);
        reach_real other = gauss_newton(&p, again, reach_vec3_length(residual_at(&p, again)));
        if (other < error) return other;
        write_values(&p, v);
    }
    return error;
}
