/* arena.c: bump allocation in blocks (see arena.h). */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define OB_ARENA_BLOCK (64 * 1024)
#define OB_ARENA_ALIGN 16

struct ob_arena_block {
    ob_arena_block *next;
    size_t size;
    _Alignas(16) unsigned char data[];
};

/* Blocks are zeroed when allocated and never reused, so every allocation is. */
static void *bump(ob_arena *a, size_t size)
{
    size = (size + OB_ARENA_ALIGN - 1) & ~(size_t)(OB_ARENA_ALIGN - 1);
    if (size == 0) size = OB_ARENA_ALIGN;
    if (!a->head || a->head->size - a->used < size) {
        size_t bsize = size > OB_ARENA_BLOCK ? size : OB_ARENA_BLOCK;
        if (bsize > SIZE_MAX - sizeof(ob_arena_block)) return NULL;
        /* calloc: glibc leaves freshly mapped memory as the kernel zeroed it,
        ** so most blocks are never cleared twice (issue 17: load time) */
        ob_arena_block *b = calloc(1, sizeof(ob_arena_block) + bsize);
        if (!b) return NULL;
        b->size = bsize;
        if (a->head && size > OB_ARENA_BLOCK) {
            /* a big one-off: keep the current head for small allocations */
            b->next = a->head->next;
            a->head->next = b;
            a->total += size;
            return b->data;
        }
        b->next = a->head;
        a->head = b;
        a->used = 0;
    }
    void *p = a->head->data + a->used;
    a->used += size;
    a->total += size;
    return p;
}

void *ob_arena_alloc(ob_arena *a, size_t size) { return bump(a, size); }

void *ob_arena_array(ob_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return ob_arena_alloc(a, n * size);
}

char *ob_arena_strndup(ob_arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX) return NULL;
    char *p = bump(a, len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

char *ob_arena_strdup(ob_arena *a, const char *s)
{
    return ob_arena_strndup(a, s, strlen(s));
}

void ob_arena_free(ob_arena *a)
{
    ob_arena_block *b = a->head;
    while (b) {
        ob_arena_block *n = b->next;
        free(b);
        b = n;
    }
    a->head = NULL;
    a->used = a->total = 0;
}
