/* The retargeting state (see include/reach/retarget.h), laid out in the caller's memory. Private;
 * never installed. */
#ifndef REACH_RETARGET_INTERNAL_H
#define REACH_RETARGET_INTERNAL_H

#include "reach/retarget.h"

/* The source's and the target's measures, from their rest poses. */
typedef struct retarget_body {
    reach_skeleton skeleton;
    reach_humanoid roles;
    reach_vec3 up;
    reach_real leg;          /* hip joint to foot joint, the mean of both legs */
    reach_real trunk;        /* hips joint to head joint */
    reach_real arm;          /* upper arm joint to hand joint, the mean of both arms */
    reach_real foot_rest[2]; /* each foot joint's height above the lowest joint, at rest */
    reach_transform *rest_world;
    reach_transform *world;
} retarget_body;

struct reach_retarget {
    reach_retarget_settings settings;
    retarget_body source, target;
    reach_quat axes;                    /* source world -> target world */
    reach_quat align[REACH_ROLE_COUNT]; /* turns the target's rest bone onto the source's rest direction */
    reach_real leg_scale, trunk_scale, arm_scale;
    reach_real source_ground, target_ground;
    reach_real source_stand;    /* the source's foot joints' lowest height above its ground so far */
    int robot;                  /* the target has hinges: warm started, hands by position */
    reach_joint *joints;        /* the target's joints, fixed roots made free */
    int *bone_role;             /* the role each target bone plays; -1 none */
    reach_transform *carried;   /* the pose of step 1 */
    reach_transform *projected; /* a robot: the carried pose brought into its hinges */
    reach_transform *projected_world;
    int value_count;
    reach_real *values_last, *values_carried;
    reach_transform *previous; /* the last frame's answer */
    reach_transform *work;
    void *body_scratch;
    size_t body_scratch_size;
    /* The solve part by part (retarget_solve.c). */
    reach_real height;            /* the target's hips to head plus hips to a foot, at rest */
    int trunk_root;               /* the first bone below the hips toward the head; -1 none */
    int chain_root[4];            /* each limb's first bone below the trunk (arms, then legs) */
    reach_transform *solve_world; /* the world transforms of work */
    void *chain_scratch;
    size_t chain_scratch_size;
    /* Between frames. */
    int frames;
    reach_vec3 last_foot[2]; /* the source's foot joints last frame */
    int planted[2];
    reach_vec3 anchor[2];       /* where a planted target foot stays */
    reach_vec3 release[2];      /* a lifted foot's offset from its free place, fading */
    reach_real release_left[2]; /* seconds until it has faded */
};

/* A robot: r->projected from the carried pose (r->target.world holding its world transforms). */
void reach__retarget_project_hinges(reach_retarget *r);
/* A robot: the solve's start in r->work, the last frame eased toward r->projected. */
void reach__retarget_hinge_start(reach_retarget *r);

/* The role `bone` plays; -1 none. */
int reach__retarget_role_of(const reach_humanoid *roles, int bone);
/* The trunk's and the limbs' chains of the target (r->target's skeleton and roles set). */
void reach__retarget_find_chains(reach_retarget *r);
/* Solves r->work (the start) for the targets, chain by chain (the hands' targets follow the
 * shoulders as the trunk moves them); *out as the full-body solve reports. */
reach_status reach__retarget_solve(reach_retarget *r, const reach_full_body_targets *targets,
                                   reach_full_body_result *out);

/* Lays the state out on memory (NULL: only counts); returns the bytes needed. */
size_t reach__retarget_lay_out(const reach_skeleton *source, const reach_skeleton *target, void *memory,
                               reach_retarget **out);

#endif
