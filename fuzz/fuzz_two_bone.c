/* Fuzzes the two-bone solvers (3-D, 2-D, rig). Invariants: no crash or sanitizer report; an
 * error leaves the output byte for byte as it was; success gives finite output whose bones
 * keep their lengths (relative to the chain) and whose residual is the end's true distance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"

#ifdef REACH_DOUBLE
#define LENGTH_TOL 1e-9
#else
#define LENGTH_TOL 1e-3
#endif

static reach_two_bone_settings fuzz_options(fuzz_input *in) {
    reach_two_bone_settings o = reach_two_bone_default_settings();
    uint8_t flags = fuzz_byte(in);
    if (flags & 1) o.weight = fuzz_real(in);
    if (flags & 2) o.soft_distance = fuzz_real(in);
    if (flags & 4) o.max_stretch = fuzz_real(in);
    if (flags & 8) o.tolerance = fuzz_real(in);
    o.rotations = (flags & 16) == 0;
    return o;
}

static double dist(reach_vec3 a, reach_vec3 b) {
    double dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y, dz = (double)a.z - (double)b.z;
    return fuzz_norm3(dx, dy, dz);
}

static void check_3d(fuzz_input *in) {
    reach_two_bone_input limb;
    limb.root = fuzz_vec3(in);
    limb.mid = fuzz_vec3(in);
    limb.end = fuzz_vec3(in);
    limb.target = fuzz_vec3(in);
    limb.pole = fuzz_vec3(in);
    limb.use_pole = fuzz_byte(in) & 1;
    reach_two_bone_settings opt = fuzz_options(in);
    reach_two_bone_output out, before;
    memset(&out, 0xa5, sizeof out);
    before = out;
    if (reach_two_bone_solve(&limb, &opt, &out) != REACH_OK) {
        FUZZ_REQUIRE(memcmp(&out, &before, sizeof out) == 0);
        return;
    }
    FUZZ_REQUIRE(reach_vec3_is_finite(out.mid) && reach_vec3_is_finite(out.end));
    FUZZ_REQUIRE(reach_quat_is_finite(out.root_rotation) && reach_quat_is_finite(out.mid_rotation));
    FUZZ_REQUIRE(reach_is_finite(out.residual) && out.residual >= 0);
    double l1 = dist(limb.mid, limb.root), l2 = dist(limb.end, limb.mid);
    double chain = (double)out.upper_length + (double)out.lower_length;
    /* Lengths are kept to the chain's relative precision plus the rounding of the output
     * coordinates themselves. */
    double coordinates = fmax(fmax(fabs((double)out.mid.x), fabs((double)out.mid.y)), fabs((double)out.mid.z));
    coordinates =
        fmax(coordinates, fmax(fmax(fabs((double)out.end.x), fabs((double)out.end.y)), fabs((double)out.end.z)));
    double slack = LENGTH_TOL * chain + 8 * (double)REACH_REAL_EPSILON * coordinates;
    /* In double the check itself is exact enough; past 1e150 its squares would overflow. */
    if (isfinite(l1 * l1) && isfinite(l2 * l2) && l1 * l1 > 0 && l2 * l2 > 0 && opt.weight == 1 &&
        opt.max_stretch == 1) {
        if (!(fabs(dist(out.mid, limb.root) - l1) <= slack && fabs(dist(out.end, out.mid) - l2) <= slack))
            fprintf(stderr, "bones %.17g and %.17g came out %.17g and %.17g (slack %g)\n", l1, l2,
                    dist(out.mid, limb.root), dist(out.end, out.mid), slack);
        FUZZ_REQUIRE(fabs(dist(out.mid, limb.root) - l1) <= slack);
        FUZZ_REQUIRE(fabs(dist(out.end, out.mid) - l2) <= slack);
    }
}

static void check_2d(fuzz_input *in) {
    reach_two_bone_2d_input limb;
    reach_vec3 a = fuzz_vec3(in), b = fuzz_vec3(in), c = fuzz_vec3(in);
    limb.root = reach_vec2_make(a.x, a.y);
    limb.mid = reach_vec2_make(a.z, b.x);
    limb.end = reach_vec2_make(b.y, b.z);
    limb.target = reach_vec2_make(c.x, c.y);
    limb.bend = (fuzz_byte(in) & 1) ? REACH_BEND_CCW : REACH_BEND_CW;
    reach_two_bone_settings opt = fuzz_options(in);
    reach_two_bone_2d_output out, before;
    memset(&out, 0xa5, sizeof out);
    before = out;
    if (reach_two_bone_solve_2d(&limb, &opt, &out) != REACH_OK) {
        FUZZ_REQUIRE(memcmp(&out, &before, sizeof out) == 0);
        return;
    }
    FUZZ_REQUIRE(reach_vec2_is_finite(out.mid) && reach_vec2_is_finite(out.end) &&
                 reach_vec2_is_finite(out.mid_mirror));
    FUZZ_REQUIRE(reach_vec2_is_finite(out.root_rotation) && reach_vec2_is_finite(out.mid_rotation));
}

static void check_rig(fuzz_input *in) {
    reach_two_bone_rig_input rig = fuzz_rig_limb(in);
    reach_two_bone_settings opt = fuzz_options(in);
    reach_two_bone_rig_output out, before;
    memset(&out, 0xa5, sizeof out);
    before = out;
    if (reach_two_bone_solve_rig(&rig, &opt, &out) != REACH_OK) {
        FUZZ_REQUIRE(memcmp(&out, &before, sizeof out) == 0);
        return;
    }
    FUZZ_REQUIRE(reach_quat_is_finite(out.root_rotation) && reach_quat_is_finite(out.mid_rotation) &&
                 reach_quat_is_finite(out.end_rotation));
    FUZZ_REQUIRE(reach_vec3_is_finite(out.mid) && reach_vec3_is_finite(out.end));
    FUZZ_REQUIRE(reach_vec3_is_finite(out.mid_translation) && reach_vec3_is_finite(out.end_translation));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    switch (fuzz_byte(&in) % 3) {
    case 0: check_3d(&in); break;
    case 1: check_2d(&in); break;
    default: check_rig(&in); break;
    }
    return 0;
}
