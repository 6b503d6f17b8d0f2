/* testutil.h: helpers shared by the C checkers (tests/c) and bench/load_driver.c. */
#ifndef OB_TESTUTIL_H
#define OB_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* xorshift64 (Marsaglia 13, 7, 17): the next value of *state, which must not be 0;
** the checkers' reproducible random inputs */
static inline uint64_t ob_test_xorshift64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* The whole file at path, NUL-terminated (the terminator not counted in
** *len, which may be NULL); NULL when it cannot be opened or read. */
static inline char *ob_test_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    char *buf = n >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (!buf) return NULL;
    buf[n] = '\0';
    if (len) *len = (size_t)n;
    return buf;
}

#endif
