/* The scratch arena every solver family lays its working arrays out on. Private; never
 * installed. */
#ifndef REACH_ARENA_H
#define REACH_ARENA_H

#include <stddef.h>

/* Hands out aligned pieces of the caller's scratch. With base NULL it only counts, so the size
 * query and the solve run the same layout code and cannot disagree. */
typedef struct reach__arena {
    unsigned char *base;
    size_t used;
} reach__arena;

#define REACH__ARENA_ALIGN 16

reach__arena reach__arena_make(void *base);
/* Inline: a solve lays out a score of arrays, and a call for each cost as much as the rest of
 * the layout. */
static inline void *reach__arena_take(reach__arena *arena, size_t count, size_t size) {
    void *piece = arena->base ? arena->base + arena->used : NULL;
    size_t bytes = count * size;
    arena->used += (bytes + (REACH__ARENA_ALIGN - 1)) & ~(size_t)(REACH__ARENA_ALIGN - 1);
    return piece;
}
/* Bytes to ask the caller for: what the layout used plus room to align an unaligned base. */
size_t reach__arena_need(const reach__arena *arena);

#endif
