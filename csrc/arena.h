/* arena.h: the document's memory.  Everything a document holds (structs,
** arrays, strings) is bump-allocated from a few large blocks and freed at
** once with the document: no per-object free, no pointer webs to untangle. */
#ifndef OB_ARENA_H
#define OB_ARENA_H

#include <stddef.h>

typedef struct ob_arena_block ob_arena_block;

typedef struct ob_arena {
    ob_arena_block *head;
    size_t used;      /* bytes used in head */
    size_t total;     /* bytes handed out, for statistics */
} ob_arena;

/* Zeroed memory aligned for any type; NULL when memory runs out. */
void *ob_arena_alloc(ob_arena *a, size_t size);
/* ob_arena_alloc(n * size) with overflow checking. */
void *ob_arena_array(ob_arena *a, size_t n, size_t size);
/* A NUL-terminated copy of s (len bytes). */
char *ob_arena_strndup(ob_arena *a, const char *s, size_t len);
char *ob_arena_strdup(ob_arena *a, const char *s);
void ob_arena_free(ob_arena *a);

#endif
