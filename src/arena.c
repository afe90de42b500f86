/* The scratch arena: aligned pieces of the caller's memory, or, with no memory, the count of
 * what a layout would take. */
#include <stdint.h>

#include "arena.h"

reach__arena reach__arena_make(void *base) {
    reach__arena arena;
    arena.used = 0;
    arena.base = NULL;
    if (base) {
        uintptr_t address = (uintptr_t)base;
        uintptr_t aligned = (address + (REACH__ARENA_ALIGN - 1)) & ~(uintptr_t)(REACH__ARENA_ALIGN - 1);
        arena.base = (unsigned char *)base + (aligned - address);
    }
    return arena;
}

void *reach__arena_take(reach__arena *arena, size_t count, size_t size) {
    void *piece = arena->base ? arena->base + arena->used : NULL;
    size_t bytes = count * size;
    arena->used += (bytes + (REACH__ARENA_ALIGN - 1)) & ~(size_t)(REACH__ARENA_ALIGN - 1);
    return piece;
}

size_t reach__arena_need(const reach__arena *arena) { return arena->used + (REACH__ARENA_ALIGN - 1); }
