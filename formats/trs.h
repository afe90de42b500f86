/* Node transforms as translation, rotation and scale, shared by the readers of scene formats
 * (glTF, and FBX through assimp): matrices split into them, uniform scales folded into the
 * translations below (reach's skeletons have no scale), and keys sampled between frames. */
#ifndef REACH_FORMATS_TRS_H
#define REACH_FORMATS_TRS_H

#include "reach/skeleton.h"

typedef struct formats_trs {
    double t[3], r[4], s[3]; /* r is x, y, z, w */
} formats_trs;

/* Makes q (4 numbers) unit length; the caller has checked it is not zero. */
void formats_normalize4(double *q);

/* How a matrix splits (formats_decompose). */
typedef enum formats_decomposed {
    FORMATS_DECOMPOSED = 0,
    FORMATS_NO_TRANSFORM, /* a zero scale, or a last row that is not (0, 0, 0, 1) */
    FORMATS_SHEARED       /* shear or a mirror, which a skeleton cannot hold */
} formats_decomposed;

/* A matrix (16 numbers, column-major) into translation, rotation and per-axis scale. */
formats_decomposed formats_decompose(const double *m, formats_trs *out);

/* Bones' local transforms from their TRS (bone_count of them, parents before children), each
 * uniform scale folded into the translations below it, so every world position and rotation is
 * the file's. Returns the first bone whose scale cannot be folded (non-uniform, zero or negative,
 * with bones below it: has_children), or -1. scale receives each bone's accumulated scale. */
int formats_fold_scales(int bone_count, const int *bone_parent, const int *has_children, const formats_trs *local,
                        reach_transform *out, double *scale);

/* The value at `time` of keys (count of them, times increasing or equal, `width` numbers each: 4
 * for a rotation, slerped along the shorter arc, otherwise interpolated linearly; step holds the
 * key before). Before the first key the first value, after the last the last. A time within
 * snap seconds of a key (or within the float32 rounding of its time) takes that key. */
void formats_sample_keys(const double *times, const double *values, int count, int width, int step, double time,
                         double snap, double *out);

#endif
