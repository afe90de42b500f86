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

size_t reach__arena_need(const reach__arena *arena) { return arena->used + (REACH__ARENA_ALIGN - 1); }
