/* The README's example: a leg reaching for a foot target, its knee bending toward a pole. */
#include <stdio.h>

#include "reach/reach.h"

int main(void) {
    reach_two_bone_input leg = {0};
    leg.root = reach_vec3_make(0, 1, 0);            /* hip */
    leg.mid = reach_vec3_make(0, REACH_R(0.55), 0); /* knee */
    leg.end = reach_vec3_make(0, REACH_R(0.1), 0);  /* ankle */
    leg.target = reach_vec3_make(REACH_R(0.2), REACH_R(0.3), REACH_R(0.3));
    leg.pole = reach_vec3_make(0, REACH_R(0.5), 2); /* the knee points forward, toward +z */
    leg.use_pole = 1;

    reach_two_bone_settings options = reach_two_bone_default_settings();
    reach_two_bone_output pose;
    reach_status status = reach_two_bone_solve(&leg, &options, &pose);
    if (status != REACH_OK) {
        fprintf(stderr, "solve failed: %s\n", reach_status_string(status));
        return 1;
    }
    printf("knee  (%.3f, %.3f, %.3f)\n", (double)pose.mid.x, (double)pose.mid.y, (double)pose.mid.z);
    printf("ankle (%.3f, %.3f, %.3f) reached=%d residual=%.2g\n", (double)pose.end.x, (double)pose.end.y,
           (double)pose.end.z, pose.reached, (double)pose.residual);
    return pose.reached ? 0 : 1;
}
