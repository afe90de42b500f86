/* The files suite (reach::formats): reading characters and clips, next to assimp reading the same
 * bytes in the same run (aiImportFileFromMemory, no post-processing), when the build has assimp.
 *   files/character_gltf/reach    MB/s: a 60-joint character with a 100-frame animation as GLB,
 *                                 read to a rig and its clip sampled at 30 per second
 *   files/character_bvh/reach     MB/s: the same character and motion as BVH
 *   files/clip_bvh/reach          frames/s: the character with a 10 000-frame clip as BVH
 *   files/clip_bvh/reach_mb       MB/s: the same reads, in bytes
 *   files/.../assimp              the same files read by assimp
 * The files are made by the bench itself (character_files.c). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "character_files.h"
#include "reach/bvh.h"
#include "reach/gltf.h"
#include "suites.h"
#ifdef REACH_BENCH_ASSIMP
#include <assimp/cimport.h>
#include <assimp/scene.h>
#endif

#define CHARACTER_FRAMES 100
#define CLIP_FRAMES      10000

typedef struct file_read {
    const bench_file *file;
    const char *hint; /* assimp's format hint */
} file_read;

static void read_gltf(void *data) {
    const file_read *r = data;
    reach_gltf_character c;
    reach_gltf_read((const unsigned char *)r->file->bytes, r->file->length, NULL, -1, 30, &c, NULL, 0);
    bench_consume((double)c.rig.bone_count);
    reach_gltf_free(&c);
}

static void read_bvh(void *data) {
    const file_read *r = data;
    reach_rig rig;
    reach_clip clip;
    reach_bvh_read(r->file->bytes, r->file->length, &rig, &clip, NULL, 0);
    bench_consume((double)clip.frame_count);
    reach_rig_free(&rig);
    reach_clip_free(&clip);
}

#ifdef REACH_BENCH_ASSIMP
static void read_assimp(void *data) {
    const file_read *r = data;
    const struct aiScene *scene = aiImportFileFromMemory(r->file->bytes, (unsigned)r->file->length, 0, r->hint);
    bench_consume(scene ? (double)scene->mNumAnimations : -1);
    aiReleaseImport(scene);
}
#endif

/* Both readers check out on the file before anything is timed. */
static void check_file(bench_run *run, const file_read *r, int gltf) {
    bench_check(run, r->file->bytes != NULL, "files: the bench makes its file");
    char error[256];
    int bones = 0, frames = 0;
    if (gltf) {
        reach_gltf_character c;
        if (reach_gltf_read((const unsigned char *)r->file->bytes, r->file->length, NULL, -1, 30, &c, error,
                            sizeof error) == REACH_OK &&
            c.clip_count == 1)
            bones = c.rig.bone_count, frames = c.clips[0].frame_count;
        reach_gltf_free(&c);
    } else {
        reach_rig rig;
        reach_clip clip;
        if (reach_bvh_read(r->file->bytes, r->file->length, &rig, &clip, error, sizeof error) == REACH_OK)
            bones = rig.bone_count, frames = clip.frame_count;
        reach_rig_free(&rig);
        reach_clip_free(&clip);
    }
    /* A glTF's key times are floats: the last, 99/30 s, falls a hair short of the 100th frame. */
    bench_check(run, bones == r->file->joints && frames >= r->file->frames - gltf && frames <= r->file->frames,
                "files: reach reads every joint and frame of the bench's file");
#ifdef REACH_BENCH_ASSIMP
    const struct aiScene *scene = aiImportFileFromMemory(r->file->bytes, (unsigned)r->file->length, 0, r->hint);
    bench_check(run, scene && scene->mNumAnimations == 1, "files: assimp reads the bench's file and its animation");
    aiReleaseImport(scene);
#endif
}

static void time_file(bench_run *run, const char *name, const file_read *r, int gltf, const char *unit, double items) {
    char reach_name[64], assimp_name[64], ratio[80];
    snprintf(reach_name, sizeof reach_name, "files/%s/reach", name);
    snprintf(assimp_name, sizeof assimp_name, "files/%s/assimp", name);
    snprintf(ratio, sizeof ratio, "files/%s/reach_over_assimp", name);
    if (!bench_wants(run, reach_name) && !bench_wants(run, assimp_name)) return;
    check_file(run, r, gltf);
    bench_timed timed[] = {
        {reach_name, unit, gltf ? read_gltf : read_bvh, (void *)r, items},
#ifdef REACH_BENCH_ASSIMP
        {assimp_name, unit, read_assimp, (void *)r, items},
#endif
    };
    bench_time(run, timed, (int)(sizeof timed / sizeof timed[0]));
    bench_ratio(run, ratio, reach_name, assimp_name);
}

/* A figure in MB/s from one in frames/s of the same reads. */
static void record_bytes(bench_run *run, const char *frames_name, const char *name, double mb_per_frame) {
    const bench_stats *frames = bench_find(run, frames_name);
    if (!frames) return;
    bench_stats bytes = {frames->median * mb_per_frame, frames->min * mb_per_frame, frames->max * mb_per_frame,
                         frames->repeats};
    bench_record(run, name, "MB/s", bytes);
}

void bench_suite_files(bench_run *run) {
    bench_file glb = bench_character_glb(CHARACTER_FRAMES), bvh = bench_character_bvh(CHARACTER_FRAMES);
    int clip_frames = bench_is_quick(run) ? CLIP_FRAMES / 10 : CLIP_FRAMES;
    bench_file clip = bench_character_bvh(clip_frames);
    file_read glb_read = {&glb, "glb"}, bvh_read = {&bvh, "bvh"}, clip_read = {&clip, "bvh"};
    time_file(run, "character_gltf", &glb_read, 1, "MB/s", (double)glb.length / 1e6);
    time_file(run, "character_bvh", &bvh_read, 0, "MB/s", (double)bvh.length / 1e6);
    time_file(run, "clip_bvh", &clip_read, 0, "frames/s", clip_frames);
    double mb_per_frame = (double)clip.length / 1e6 / clip_frames;
    record_bytes(run, "files/clip_bvh/reach", "files/clip_bvh/reach_mb", mb_per_frame);
    record_bytes(run, "files/clip_bvh/assimp", "files/clip_bvh/assimp_mb", mb_per_frame);
    free(glb.bytes);
    free(bvh.bytes);
    free(clip.bytes);
}
