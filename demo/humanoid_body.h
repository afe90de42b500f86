/* The humanoid of the 3-D character scenes: 22 bones with plain role names, 1.75 high in a
 * T-pose facing +z (its left at +x), y up, soles on y = 0; roles found from the names, natural
 * limits per role, and scratch for full-body solves. Drawn in perspective as thick bones sorted
 * far to near, with a head, hands and feet. */
#ifndef DEMO_HUMANOID_BODY_H
#define DEMO_HUMANOID_BODY_H

#include <reach/reach.h>

#include "projection.h"

#define DEMO_BODY_BONES 22

typedef struct demo_body {
    reach_transform rest[DEMO_BODY_BONES], pose[DEMO_BODY_BONES], world[DEMO_BODY_BONES];
    reach_joint joints[DEMO_BODY_BONES];
    reach_skeleton skeleton;
    reach_humanoid roles;
    double scratch[32768]; /* full-body scratch: 256 KiB, more than this body needs in double */
} demo_body;

/* The rest pose, roles and natural limits; pose and world at rest. */
reach_status demo_body_init(demo_body *body);

/* The bone of a role. */
int demo_body_bone(const demo_body *body, reach_humanoid_role role);

/* world from pose. */
void demo_body_update(demo_body *body);

/* One full-body solve of the pose (warm started), world updated. */
reach_status demo_body_solve(demo_body *body, const reach_full_body_targets *targets, reach_full_body_result *result);

/* The point the head looks from (between the eyes) and its forward axis, in world space. */
reach_vec3 demo_body_eyes(const demo_body *body);

/* The body from world: limbs of the character's right in `right`, its left and trunk in `left`. */
void demo_body_draw(demo_canvas *canvas, const demo_camera *camera, const demo_body *body, demo_colour left,
                    demo_colour right);

#endif
