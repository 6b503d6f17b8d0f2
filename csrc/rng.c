/* rng.c: §8.8 mulberry32 and FNV-1a over UTF-16 code units. */
#include "rng.h"

/* Decodes one UTF-8 sequence at *p (advancing it); malformed ⇒ U+FFFD. */
static uint32_t utf8_next(const unsigned char **p)
{
    const unsigned char *s = *p;
    uint32_t c = s[0];
    int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0) { *p = s + 1; return 0xFFFD; }
    if (n == 0) { *p = s + 1; return c; }
    c &= 0x3Fu >> n;
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xC0) != 0x80) { *p = s + i; return 0xFFFD; }
        c = c << 6 | (s[i] & 0x3Fu);
    }
    *p = s + n + 1;
    return c;
}

static uint32_t fnv_unit(uint32_t h, uint32_t unit)
{
    return (h ^ unit) * 0x01000193u;  /* §8.8 h = imul(h XOR unit, 0x01000193) */
}

uint32_t ob_fnv1a_utf16(const char *utf8)
{
    uint32_t h = 0x811c9dc5u;  /* §8.8 */
    const unsigned char *p = (const unsigned char *)utf8;
    while (p && *p) {
        uint32_t c = utf8_next(&p);
        if (c >= 0x10000 && c <= 0x10FFFF) {  /* a surrogate pair: two code units */
            c -= 0x10000;
            h = fnv_unit(h, 0xD800u + (c >> 10));
            h = fnv_unit(h, 0xDC00u + (c & 0x3FFu));
        } else {
            h = fnv_unit(h, c > 0x10FFFF ? 0xFFFDu : c);
        }
    }
    return h;
}

double ob_rng_next(uint32_t *state)
{
    /* §8.8 mulberry32: every operation mod 2^32 (uint32_t arithmetic) */
    uint32_t s = *state + 0x6D2B79F5u;
    *state = s;
    uint32_t t = s;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}
