/* The tree a URDF's records describe, checked, and the rig built from it: one bone per link,
 * root first, depth first, each carrying the joint that leads into it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "urdf_internal.h"

#define PI 3.14159265358979323846

/* Names sorted for lookups: a file of n links costs n log n, not n² (hostile files are big). */
typedef struct name_index {
    const char *name;
    int index;
} name_index;

static int compare_names(const void *a, const void *b) {
    const name_index *x = a, *y = b;
    int order = strcmp(x->name, y->name);
    return order ? order : (x->index > y->index) - (x->index < y->index);
}

static int lookup(const name_index *sorted, int count, const char *name) {
    int lo = 0, hi = count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int order = strcmp(sorted[mid].name, name);
        if (order == 0) return sorted[mid].index;
        if (order < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

typedef struct tree {
    const urdf_document *doc;
    name_index *links, *joints;      /* sorted */
    int *parent_joint;               /* per link: the joint whose child it is, -1 for none */
    int *first_child, *next_sibling; /* per joint: children of a link in file order */
    int *order;                      /* links in bone order */
    int *bone_of_link;
    int *leader;                 /* per joint: the first leader of a mimic joint, -1 for none */
    double *multiplier, *offset; /* per joint: the composed coupling */
    char *error;
    size_t error_size;
} tree;

static reach_status sort_names(tree *t, int by_joint) {
    const urdf_document *doc = t->doc;
    int count = by_joint ? doc->joint_count : doc->link_count;
    name_index *sorted = by_joint ? t->joints : t->links;
    for (int i = 0; i < count; ++i) {
        sorted[i].name = by_joint ? doc->joints[i].name : doc->links[i].name;
        sorted[i].index = i;
    }
    qsort(sorted, (size_t)count, sizeof *sorted, compare_names);
    for (int i = 1; i < count; ++i) {
        if (strcmp(sorted[i - 1].name, sorted[i].name) != 0) continue;
        int second = sorted[i].index;
        urdf_error(t->error, t->error_size, "line %d: a second %s named '%s'",
                   by_joint ? doc->joints[second].line : doc->links[second].line, by_joint ? "joint" : "link",
                   sorted[i].name);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    return REACH_OK;
}

/* Each joint's parent and child name links; each link has one parent at most. */
static reach_status connect_links(tree *t) {
    const urdf_document *doc = t->doc;
    for (int l = 0; l < doc->link_count; ++l)
        t->parent_joint[l] = -1;
    for (int j = 0; j < doc->joint_count; ++j) {
        const urdf_joint *joint = &doc->joints[j];
        if (!joint->parent || !joint->child) {
            urdf_error(t->error, t->error_size, "line %d: joint '%s' has no <%s>", joint->line, joint->name,
                       joint->parent ? "child" : "parent");
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        int parent = lookup(t->links, doc->link_count, joint->parent);
        int child = lookup(t->links, doc->link_count, joint->child);
        if (parent < 0 || child < 0) {
            urdf_error(t->error, t->error_size, "line %d: joint '%s' names a link '%s' that is not defined",
                       joint->line, joint->name, parent < 0 ? joint->parent : joint->child);
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        if (t->parent_joint[child] >= 0) {
            urdf_error(t->error, t->error_size, "line %d: link '%s' has two parents (joints '%s' and '%s')",
                       joint->line, joint->child, doc->joints[t->parent_joint[child]].name, joint->name);
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        t->parent_joint[child] = j;
    }
    return REACH_OK;
}

/* The one root, then every link depth first (an explicit stack: chains may be long). */
static reach_status order_links(tree *t) {
    const urdf_document *doc = t->doc;
    int root = -1;
    for (int l = 0; l < doc->link_count; ++l) {
        if (t->parent_joint[l] >= 0) continue;
        if (root >= 0) {
            urdf_error(t->error, t->error_size, "line %d: two root links, '%s' and '%s' (a robot has one)",
                       doc->links[l].line, doc->links[root].name, doc->links[l].name);
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        root = l;
    }
    if (root < 0) {
        urdf_error(t->error, t->error_size, "the joints form a cycle: no link is the root");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    /* Children of each link in file order: the lists are built backwards, newest first. */
    for (int l = 0; l < doc->link_count; ++l)
        t->first_child[l] = -1;
    for (int j = doc->joint_count - 1; j >= 0; --j) {
        int parent = lookup(t->links, doc->link_count, doc->joints[j].parent);
        t->next_sibling[j] = t->first_child[parent];
        t->first_child[parent] = j;
    }
    /* order doubles as the stack: links are taken from its top and their children pushed in
     * reverse so the first child comes out first. */
    int *stack = t->bone_of_link; /* scratch until the order is known */
    int top = 0, count = 0;
    stack[top++] = root;
    while (top > 0) {
        int link = stack[--top];
        t->order[count++] = link;
        int pushed = top;
        for (int j = t->first_child[link]; j >= 0; j = t->next_sibling[j])
            stack[top++] = lookup(t->links, doc->link_count, doc->joints[j].child);
        for (int a = pushed, b = top - 1; a < b; ++a, --b) {
            int swap = stack[a];
            stack[a] = stack[b];
            stack[b] = swap;
        }
    }
    if (count < doc->link_count) {
        /* Every link but the root has one parent: those the root does not reach hang on a cycle. */
        for (int l = 0; l < doc->link_count; ++l)
            t->bone_of_link[l] = -1;
        for (int k = 0; k < count; ++k)
            t->bone_of_link[t->order[k]] = k;
        for (int l = 0; l < doc->link_count; ++l)
            if (t->bone_of_link[l] < 0) {
                urdf_error(t->error, t->error_size, "line %d: the joints form a cycle through link '%s'",
                           doc->links[l].line, doc->links[l].name);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
    }
    for (int k = 0; k < count; ++k)
        t->bone_of_link[t->order[k]] = k;
    return REACH_OK;
}

static int has_value(urdf_joint_type type) { return type != URDF_FIXED; }

/* Each mimic joint's first leader and composed coupling: following a follower is following its
 * leader, value = m1 (m2 x + o2) + o1. */
static reach_status resolve_mimic(tree *t) {
    const urdf_document *doc = t->doc;
    for (int j = 0; j < doc->joint_count; ++j) {
        const urdf_joint *joint = &doc->joints[j];
        t->leader[j] = -1;
        t->multiplier[j] = 1;
        t->offset[j] = 0;
        if (!joint->mimic_joint) continue;
        if (!has_value(joint->type)) {
            urdf_error(t->error, t->error_size, "line %d: joint '%s' is fixed and cannot mimic", joint->mimic_line,
                       joint->name);
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        int at = j, steps = 0;
        double multiplier = 1, offset = 0;
        while (doc->joints[at].mimic_joint) {
            const urdf_joint *follower = &doc->joints[at];
            int leader = lookup(t->joints, doc->joint_count, follower->mimic_joint);
            if (leader < 0) {
                urdf_error(t->error, t->error_size, "line %d: joint '%s' mimics a joint '%s' that is not defined",
                           follower->mimic_line, follower->name, follower->mimic_joint);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            if (++steps > doc->joint_count) {
                urdf_error(t->error, t->error_size, "line %d: the mimic joints of '%s' form a cycle", joint->mimic_line,
                           joint->name);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            if (!has_value(doc->joints[leader].type)) {
                urdf_error(t->error, t->error_size, "line %d: joint '%s' mimics '%s', a fixed joint",
                           follower->mimic_line, follower->name, doc->joints[leader].name);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            offset += multiplier * follower->offset;
            multiplier *= follower->multiplier;
            at = leader;
        }
        if (!isfinite(multiplier) || !isfinite(offset)) {
            urdf_error(t->error, t->error_size, "line %d: joint '%s': its composed mimic coupling overflows",
                       joint->mimic_line, joint->name);
            return REACH_ERROR_NOT_FINITE;
        }
        t->leader[j] = at;
        t->multiplier[j] = multiplier;
        t->offset[j] = offset;
    }
    return REACH_OK;
}

/* URDF's fixed-axis roll, pitch, yaw: Rz(yaw) · Ry(pitch) · Rx(roll). */
static reach_quat rpy_rotation(const double rpy[3]) {
    double cr = cos(rpy[0] / 2), sr = sin(rpy[0] / 2);
    double cp = cos(rpy[1] / 2), sp = sin(rpy[1] / 2);
    double cy = cos(rpy[2] / 2), sy = sin(rpy[2] / 2);
    double x = sr * cp * cy - cr * sp * sy;
    double y = cr * sp * cy + sr * cp * sy;
    double z = cr * cp * sy - sr * sp * cy;
    double w = cr * cp * cy + sr * sp * sy;
    double n = sqrt(x * x + y * y + z * z + w * w);
    return reach_quat_make((reach_real)(x / n), (reach_real)(y / n), (reach_real)(z / n), (reach_real)(w / n));
}

static reach_status joint_of(const tree *t, int j, reach_joint *out) {
    const urdf_joint *joint = &t->doc->joints[j];
    double length =
        sqrt(joint->axis[0] * joint->axis[0] + joint->axis[1] * joint->axis[1] + joint->axis[2] * joint->axis[2]);
    /* A fixed joint's axis means nothing (files give fixed joints zero axes): only a moving
     * joint's must be made unit. */
    if (has_value(joint->type) && !(length > 0 && isfinite(length))) {
        urdf_error(t->error, t->error_size, "line %d: joint '%s': its <axis> is zero or cannot be made unit",
                   joint->line, joint->name);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (!has_value(joint->type)) length = 1;
    reach_vec3 axis = reach_vec3_make((reach_real)(joint->axis[0] / length), (reach_real)(joint->axis[1] / length),
                                      (reach_real)(joint->axis[2] / length));
    if ((joint->type == URDF_REVOLUTE || joint->type == URDF_PRISMATIC) && !joint->has_limit) {
        urdf_error(t->error, t->error_size, "line %d: joint '%s' has no <limit>", joint->line, joint->name);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (joint->has_limit && joint->type != URDF_CONTINUOUS && joint->type != URDF_FIXED &&
        joint->lower > joint->upper) {
        urdf_error(t->error, t->error_size, "line %d: joint '%s': limit lower %g is above upper %g", joint->line,
                   joint->name, joint->lower, joint->upper);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    switch (joint->type) {
    case URDF_REVOLUTE: {
        /* Beyond a turn either way every rotation is already in the range. */
        double lower = fmax(joint->lower, -2 * PI), upper = fmin(joint->upper, 2 * PI);
        if (lower > upper) lower = upper = joint->lower > 0 ? 2 * PI : -2 * PI;
        *out = reach_joint_hinge(axis, (reach_real)lower, (reach_real)upper);
        break;
    }
    case URDF_CONTINUOUS: *out = reach_joint_hinge(axis, (reach_real)-PI, (reach_real)PI); break;
    case URDF_PRISMATIC: {
        reach_real lower = (reach_real)joint->lower, upper = (reach_real)joint->upper;
        if (!reach_is_finite(lower) || !reach_is_finite(upper)) {
            urdf_error(t->error, t->error_size, "line %d: joint '%s': limits beyond the range of reach_real",
                       joint->line, joint->name);
            return REACH_ERROR_NOT_FINITE;
        }
        *out = reach_joint_prismatic(axis, lower, upper);
        break;
    }
    default: *out = reach_joint_fixed(); break;
    }
    if (t->leader[j] >= 0) {
        int leader_link = lookup(t->links, t->doc->link_count, t->doc->joints[t->leader[j]].child);
        reach_real multiplier = (reach_real)t->multiplier[j], offset = (reach_real)t->offset[j];
        if (!reach_is_finite(multiplier) || !reach_is_finite(offset)) {
            urdf_error(t->error, t->error_size, "line %d: joint '%s': its mimic coupling is beyond reach_real",
                       joint->line, joint->name);
            return REACH_ERROR_NOT_FINITE;
        }
        *out = reach_joint_mimic(*out, t->bone_of_link[leader_link], multiplier, offset);
    }
    return REACH_OK;
}

static char *duplicate(const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (copy) memcpy(copy, text, n);
    return copy;
}

static reach_status fill_rig(const tree *t, reach_rig *rig) {
    const urdf_document *doc = t->doc;
    int n = doc->link_count;
    size_t count = (size_t)n;
    rig->bone_count = n;
    rig->bone_names = calloc(count, sizeof *rig->bone_names);
    rig->joint_names = calloc(count, sizeof *rig->joint_names);
    rig->parents = calloc(count, sizeof *rig->parents);
    rig->rest = calloc(count, sizeof *rig->rest);
    rig->joints = calloc(count, sizeof *rig->joints);
    if (!rig->bone_names || !rig->joint_names || !rig->parents || !rig->rest || !rig->joints) goto out_of_memory;
    for (int b = 0; b < n; ++b) {
        int link = t->order[b];
        int j = t->parent_joint[link];
        rig->bone_names[b] = duplicate(doc->links[link].name);
        if (!rig->bone_names[b]) goto out_of_memory;
        if (j < 0) {
            rig->parents[b] = -1;
            rig->rest[b] = reach_transform_identity();
            rig->joints[b] = reach_joint_fixed();
            continue;
        }
        const urdf_joint *joint = &doc->joints[j];
        rig->joint_names[b] = duplicate(joint->name);
        if (!rig->joint_names[b]) goto out_of_memory;
        rig->parents[b] = t->bone_of_link[lookup(t->links, n, joint->parent)];
        reach_vec3 xyz =
            reach_vec3_make((reach_real)joint->xyz[0], (reach_real)joint->xyz[1], (reach_real)joint->xyz[2]);
        if (!reach_vec3_is_finite(xyz)) {
            urdf_error(t->error, t->error_size, "line %d: joint '%s': origin beyond the range of reach_real",
                       joint->line, joint->name);
            return REACH_ERROR_NOT_FINITE;
        }
        rig->rest[b] = reach_transform_make(rpy_rotation(joint->rpy), xyz);
        reach_status st = joint_of(t, j, &rig->joints[b]);
        if (st != REACH_OK) return st;
    }
    rig->skeleton.bone_count = n;
    rig->skeleton.parents = rig->parents;
    rig->skeleton.rest = rig->rest;
    rig->skeleton.joints = rig->joints;
    int bad_bone = -1;
    reach_status st = reach_skeleton_validate(&rig->skeleton, &bad_bone);
    if (st != REACH_OK)
        urdf_error(t->error, t->error_size, "link '%s': %s", rig->bone_names[bad_bone], reach_status_string(st));
    return st;
out_of_memory:
    urdf_error(t->error, t->error_size, "out of memory");
    return REACH_ERROR_INVALID_ARGUMENT;
}

reach_status urdf_build_rig(const urdf_document *doc, reach_rig *rig, char *error, size_t error_size) {
    if (doc->link_count == 0) {
        urdf_error(error, error_size, "the robot has no links");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    size_t links = (size_t)doc->link_count, joints = (size_t)doc->joint_count + 1;
    tree t = {doc, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, error, error_size};
    t.links = malloc(links * sizeof *t.links);
    t.joints = malloc(joints * sizeof *t.joints);
    t.parent_joint = malloc(links * sizeof(int));
    t.first_child = malloc(links * sizeof(int));
    t.next_sibling = malloc(joints * sizeof(int));
    t.order = malloc(links * sizeof(int));
    t.bone_of_link = malloc(links * sizeof(int));
    t.leader = malloc(joints * sizeof(int));
    t.multiplier = malloc(joints * sizeof(double));
    t.offset = malloc(joints * sizeof(double));
    reach_status st = REACH_OK;
    if (!t.links || !t.joints || !t.parent_joint || !t.first_child || !t.next_sibling || !t.order || !t.bone_of_link ||
        !t.leader || !t.multiplier || !t.offset) {
        urdf_error(error, error_size, "out of memory");
        st = REACH_ERROR_INVALID_ARGUMENT;
    }
    if (st == REACH_OK) st = sort_names(&t, 0);
    if (st == REACH_OK) st = sort_names(&t, 1);
    if (st == REACH_OK) st = connect_links(&t);
    if (st == REACH_OK) st = order_links(&t);
    if (st == REACH_OK) st = resolve_mimic(&t);
    if (st == REACH_OK) st = fill_rig(&t, rig);
    free(t.links);
    free(t.joints);
    free(t.parent_joint);
    free(t.first_child);
    free(t.next_sibling);
    free(t.order);
    free(t.bone_of_link);
    free(t.leader);
    free(t.multiplier);
    free(t.offset);
    return st;
}
