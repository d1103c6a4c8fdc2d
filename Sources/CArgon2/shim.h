#include <argon2.h>
#include <malloc.h>

/* Makes blocks of 1 MiB and more always come from mmap, so argon2's 19 MiB go back to the system when freed.
   glibc's adaptive threshold would otherwise raise itself after the first free and keep such a block in every
   thread's arena for good. Called once, before the first hash. */
static inline void frontdoor_return_large_blocks(void) { mallopt(M_MMAP_THRESHOLD, 1 << 20); }
