/* `reach info FILE`: the rig a file describes, as a tree a user can check at a glance: each bone
 * under its parent with the joint that moves it (kind, axis, limits) and any mimic coupling, and
 * the degrees of freedom in all; for a character, its motion too (frames, rate, length). FILE is
 * a URDF, a BVH, glTF or GLB character, or JSON holding a rig (or a request with one). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json_read.h"
#include "reach/bvh.h"
#include "reach/gltf.h"
#include "rig.h"

static int depth_of(const cli_rig *rig, int bone) {
    int depth = 0;
    for (int b = rig->parents[bone]; b >= 0; b = rig->parents[b])
        depth++;
    return depth;
}

static void print_joint(FILE *out, const cli_rig *rig, int bone) {
    const reach_joint *j = &rig->joints[bone];
    if (rig->joint_names)
        fprintf(out, "  %s: %s", cli_rig_joint_name(rig, bone), cli_joint_type_name(j->type));
    else
        fprintf(out, "  %s", cli_joint_type_name(j->type));
    if (j->type == REACH_JOINT_HINGE || j->type == REACH_JOINT_PRISMATIC || j->type == REACH_JOINT_CONE)
        fprintf(out, " %s (%.6g, %.6g, %.6g)", j->type == REACH_JOINT_PRISMATIC ? "along" : "about", (double)j->axis.x,
                (double)j->axis.y, (double)j->axis.z);
    if (j->type == REACH_JOINT_HINGE) fprintf(out, " [%.6g, %.6g] rad", (double)j->min, (double)j->max);
    if (j->type == REACH_JOINT_PRISMATIC) fprintf(out, " [%.6g, %.6g]", (double)j->min, (double)j->max);
    if (j->type == REACH_JOINT_CONE) fprintf(out, " within %.6g rad", (double)j->cone_angle);
    if (j->mimic)
        fprintf(out, ", mimic: %.6g x %s %+.6g", (double)j->mimic_multiplier, cli_rig_joint_name(rig, j->mimic_leader),
                (double)j->mimic_offset);
}

static void print_rig(FILE *out, const cli_rig *rig) {
    int values = 0, followers = 0, rotations = 0;
    for (int bone = 0; bone < rig->bone_count; bone++) {
        reach_joint_type type = rig->joints[bone].type;
        values += reach_joint_has_value(type);
        followers += rig->joints[bone].mimic != 0;
        rotations += type == REACH_JOINT_BALL || type == REACH_JOINT_CONE;
    }
    fprintf(out, "%d bones, %d degrees of freedom: %d joint values", rig->bone_count,
            values - followers + 3 * rotations, values);
    if (followers) fprintf(out, " (%d mimic, following others)", followers);
    if (rotations) fprintf(out, ", %d ball or cone joints (3 each)", rotations);
    fputc('\n', out);
    for (int bone = 0; bone < rig->bone_count; bone++) {
        fprintf(out, "%*s%s", 2 * depth_of(rig, bone), "", rig->names[bone]);
        if (rig->parents[bone] >= 0 || rig->joints[bone].type != REACH_JOINT_FIXED) print_joint(out, rig, bone);
        fputc('\n', out);
    }
}

static void print_clip(FILE *out, const reach_clip *clip) {
    fprintf(out, "%d frames at %.6g frames per second, %.6g s\n", clip->frame_count, (double)clip->frame_rate,
            (double)reach_clip_duration(clip));
}

/* A BVH, glTF or GLB character: its rig as the tree, then its motion (a BVH's clip; a glTF's
 * animations, each a frame per key where its keys are evenly spaced, else 30 per second, as the
 * CLI poses them). */
static int print_character(const char *path, FILE *out, cli_error *err) {
    char full[8192], message[CLI_MESSAGE_SIZE - 16];
    cli_rig_full_path(path, full, sizeof full);
    size_t n = strlen(path);
    int is_bvh = n >= 4 && strcmp(path + n - 4, ".bvh") == 0;
    reach_rig bvh_rig;
    reach_clip bvh_clip;
    reach_gltf_character character;
    memset(&character, 0, sizeof character);
    reach_status status =
        is_bvh ? reach_bvh_read_file(full, &bvh_rig, &bvh_clip, message, sizeof message)
               : reach_gltf_read_file(full, -1, REACH_GLTF_KEY_RATE, &character, message, sizeof message);
    if (status != REACH_OK) return cli_fail(err, "%s", message);
    cli_rig rig;
    int ok = cli_rig_copy_read(is_bvh ? &bvh_rig : &character.rig, &rig, err);
    if (ok) {
        print_rig(out, &rig);
        cli_rig_free(&rig);
        if (is_bvh) {
            fputs("motion: ", out);
            print_clip(out, &bvh_clip);
        } else {
            fprintf(out, "%d animation%s\n", character.clip_count, character.clip_count == 1 ? "" : "s");
            for (int k = 0; k < character.clip_count; k++) {
                fprintf(out, "  %s: ", character.clip_names[k]);
                print_clip(out, &character.clips[k]);
            }
        }
    }
    if (is_bvh) {
        reach_rig_free(&bvh_rig);
        reach_clip_free(&bvh_clip);
    }
    reach_gltf_free(&character);
    return ok;
}

int cli_info(const char *path, const cJSON *json, FILE *out, cli_error *err) {
    if (!json && cli_is_character_path(path)) return print_character(path, out, err);
    cli_rig rig;
    int ok;
    if (!json) {
        ok = cli_rig_read_file(path, &rig, err);
    } else {
        const cJSON *rig_json = cJSON_IsObject(json) && jr_get(json, "rig") ? jr_get(json, "rig") : json;
        ok = cli_rig_read(rig_json, &rig, err);
    }
    if (!ok) return 0;
    print_rig(out, &rig);
    cli_rig_free(&rig);
    return 1;
}
