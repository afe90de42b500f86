// The public headers compile as C++ and link against the C library.
#include "reach/reach.h"

int main() {
    reach_two_bone_input in{};
    in.root = reach_vec3_make(0, 0, 0);
    in.mid = reach_vec3_make(1, 0, 0);
    in.end = reach_vec3_make(2, 0, 0);
    in.target = reach_vec3_make(1, 1, 0);
    reach_two_bone_output out{};
    return reach_two_bone_solve(&in, nullptr, &out) == REACH_OK && out.reached ? 0 : 1;
}
