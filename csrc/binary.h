/* binary.h: the .obonb encoding (file format § Binary documents, runtime §2)
** and a JSON writer with JavaScript number formatting. */
#ifndef OB_BINARY_H
#define OB_BINARY_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

/* True when data starts with the magic "OBNB". */
int ob_binary_is_binary(const uint8_t *data, size_t len);

/* Decodes a whole .obonb buffer into a cJSON value (the caller frees it with
** cJSON_Delete).  Float32 values become Number(f.toPrecision(7)); tag 10
** becomes "data:<mime>;base64,<bytes>".  On error returns NULL and writes a
** message naming the byte offset into err (errcap bytes). */
cJSON *ob_binary_decode(const uint8_t *data, size_t len, char *err, size_t errcap);

/* The same tree with its nodes and strings in *pool (zero-initialised by the
** caller), which the caller frees with ob_binary_pool_free, never the tree with
** cJSON_Delete; the tree must not be edited (a read-only, load-once tree:
** several times faster to build and to drop, issue 17).  Duplicate keys are
** already resolved (first position, last value). */
typedef struct ob_binary_pool {
    struct ob_binary_pool_block *head;
    size_t first;   /* the first block's size (0: the default); decode sets it from the input */
} ob_binary_pool;

/* issue 17: the arrays and objects of a tree ob_document_load reads (the
** pooled decoder's, or cJSON_Parse's once its duplicate keys are resolved)
** carry their element count in valueint, marked by this bit of type, which
** cJSON's own functions ignore (they test type & 0xFF).  Such a tree must not
** be edited.  ob_json_count: that count, or cJSON_GetArraySize's walk. */
#define OB_JSON_COUNTED (1 << 12)
static inline int ob_json_count(const cJSON *v)
{
    return (v->type & OB_JSON_COUNTED) ? v->valueint : cJSON_GetArraySize(v);
}
cJSON *ob_binary_decode_pooled(const uint8_t *data, size_t len, char *err, size_t errcap, ob_binary_pool *pool);
void ob_binary_pool_free(ob_binary_pool *pool);

/* Encodes a cJSON value as .obonb.  Returns a malloc'd buffer (*len bytes) or
** NULL on out-of-memory / unencodable input (message in err).  Lossless:
** decoding the result gives the same value back. */
uint8_t *ob_binary_encode(const cJSON *value, size_t *len, char *err, size_t errcap);

/* WHATWG UTF-8 decoding with replacement (TextDecoder): the length of s[0..n)
** once every maximal invalid subpart is replaced by U+FFFD; the repaired text
** goes to out when not NULL; *bad counts the replacements and *first is the
** offset of the first (n when none), each when not NULL. */
size_t ob_utf8_repair(const uint8_t *s, size_t n, char *out, size_t *bad, size_t *first);

/* Writes a cJSON value as JSON text the way JSON.stringify does (numbers in
** JavaScript's shortest form; pretty = 2-space indentation like
** JSON.stringify(v, null, 2)).  Returns a malloc'd NUL-terminated string. */
char *ob_json_write(const cJSON *value, int pretty);

#endif
