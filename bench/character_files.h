/* The character files the files suite reads, made in memory (character_files.c). */
#ifndef REACH_BENCH_CHARACTER_FILES_H
#define REACH_BENCH_CHARACTER_FILES_H

#include <stddef.h>

#define BENCH_FILE_JOINTS 60

typedef struct bench_file {
    char *bytes; /* the caller frees them; NULL when the file could not be made */
    size_t length;
    int joints, frames;
} bench_file;

/* The 60-joint character and `frames` frames of its motion at 30 per second, as BVH (End Sites
 * aside: every joint a JOINT) and as GLB. */
bench_file bench_character_bvh(int frames);
bench_file bench_character_glb(int frames);

#endif
