/* rng.h: §8.8 the particle generator: mulberry32 seeded with the FNV-1a hash
** of the slot name (§12: 32-bit integer maths, wrap mod 2^32; the hash runs
** over UTF-16 code units). */
#ifndef OB_RNG_H
#define OB_RNG_H

#include <stdint.h>

/* §8.8 fnv1a over the UTF-16 code units of a UTF-8 string (surrogate pairs
** for code points above U+FFFF; a malformed byte counts as U+FFFD). */
uint32_t ob_fnv1a_utf16(const char *utf8);

/* §8.8 mulberry32 next(): advances *state, returns a double in [0, 1). */
double ob_rng_next(uint32_t *state);

/* §8.8 between(a, b): always consumes one number. */
static inline double ob_rng_between(uint32_t *state, double a, double b)
{
    return a + (b - a) * ob_rng_next(state);
}

/* §8.8 range([a, b]): a without consuming when a == b. */
static inline double ob_rng_range(uint32_t *state, double a, double b)
{
    return a == b ? a : a + (b - a) * ob_rng_next(state);
}

#endif
