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
void *reach__arena_take(reach__arena *arena, size_t count, size_t size);
/* Bytes to ask the caller for: what the layout used plus room to align an unaligned base. */
size_t reach__arena_need(const reach__arena *arena);

#endif
