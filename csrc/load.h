/* load.h: helpers for turning the parsed JSON value into document structs.
**
** A loader walks the cJSON tree once.  It tracks the JSON path it is at, so
** every error names its place (`skeleton.bones[3].rotation: expected a
** number, got "ninety"`); the first error ends the load (ob_fail long-jumps
** back to ob_document_load, which frees the arena and the tree).  Object
** members are read with ob_get, which returns the LAST member of that name,
** as JavaScript's JSON.parse keeps the last duplicate key.
*/
#ifndef OB_LOAD_H
#define OB_LOAD_H

#include <setjmp.h>
#include <cjson/cJSON.h>
#include "binary.h"
#include "document.h"

/* An open-addressing hash table of array positions (issue 21: look-ups by
** id or name during a load are O(1) expected, not a linear search).  Entries
** with equal keys are found in insertion order; callers insert the first
** occurrence only, so a look-up answers "the first that matches". */
typedef struct ob_htab {
    uint64_t *hash;
    int32_t *index;   /* -1: empty */
    uint32_t cap;     /* a power of two, or 0 */
    int32_t used;
} ob_htab;

/* One cached id index of an array of structs holding a `const char *` at offset. */
typedef struct ob_id_cache {
    const void *array;
    int32_t count;
    size_t stride, offset;
    ob_htab tab;
} ob_id_cache;
#define OB_ID_CACHES 24

typedef struct ob_loader {
    ob_document *doc;
    ob_error *err;
    jmp_buf fail;
    /* the path as a stack of frames (a key, or an index when key is NULL),
    ** written out as text only for a message (issue 17: it moves at every
    ** element of every array); path holds that text, truncated */
    struct ob_path_frame { const char *key; int32_t index; } frames[256];
    size_t depth;                     /* frames pushed (those past 256 are not kept) */
    char path[384];
    /* interned attachment names and channels: growable, copied into the
    ** arena when the load ends */
    const char **names; int32_t name_count, name_cap;
    struct ob_channel_key { int32_t target, property; const char *id, *att; } *channels;
    int32_t channel_count, channel_cap;
    const char **warnings; int32_t warning_count, warning_cap;
    uint64_t seed;                    /* of the string hashes: this loader's address */
    ob_htab name_tab, channel_tab;    /* over names[] and channels[] */
    ob_id_cache ids[OB_ID_CACHES];    /* ob_lookup's indexes, built on first use */
    int32_t id_count;
} ob_loader;

/* Frees the loader's hash tables. */
void ob_loader_free_tables(ob_loader *L);
/* The seeded hash of a C string (ob_str_hash: with the loader's seed). */
uint64_t ob_str_hash_seeded(uint64_t seed, const char *s);
uint64_t ob_str_hash(const ob_loader *L, const char *s);
/* Table primitives (0 / -1 when out of memory). */
int ob_htab_add(ob_htab *t, uint64_t hash, int32_t index);
int32_t ob_htab_find(const ob_htab *t, uint64_t hash, int (*eq)(const void *ctx, int32_t index), const void *ctx);
void ob_htab_free(ob_htab *t);
/* The first element of array[0..count) (structs of `stride` bytes holding a
** `const char *` at `offset`) equal to key, -1 when none or key is NULL:
** ob_find_id's answer through a hashed index built once per array and count.
** Fails the load when out of memory. */
int32_t ob_lookup(ob_loader *L, const void *array, int32_t count, size_t stride, size_t offset, const char *key);
#define OB_LOOKUP_ID(L, arr, count, key) ob_lookup((L), (arr), (count), sizeof *(arr), 0, (key))

/* Path bookkeeping: push returns a mark to pop back to.  A key must stay
** valid until popped (a literal, or a string of the tree). */
size_t ob_path_key(ob_loader *L, const char *key);
size_t ob_path_index(ob_loader *L, int32_t index);
void ob_path_pop(ob_loader *L, size_t mark);

/* Ends the load with a message prefixed by the current path (and `.key` when
** key is not NULL). */
_Noreturn void ob_fail(ob_loader *L, const char *key, const char *fmt, ...);
/* Ends the load: "<path>.<key>: expected <what>, got <value>". */
_Noreturn void ob_fail_type(ob_loader *L, const char *key, const char *what, const cJSON *got);
/* Records a warning ("<path>: message") for `openbone validate` (§2 leniency). */
void ob_warn(ob_loader *L, const char *key, const char *fmt, ...);

void *ob_alloc(ob_loader *L, size_t n, size_t size);  /* zeroed, arena; fails the load on OOM */
const char *ob_strdup(ob_loader *L, const char *s);

/* Member access.  A missing member and JSON null both count as absent.
** Inline (issue 17: these run for every member of every key). */
static inline const cJSON *ob_get(const cJSON *obj, const char *key)
{
    if (!obj || (obj->type & 0xFF) != cJSON_Object) return NULL;
    /* keys are unique: ob_document_load resolved duplicates first (last wins,
    ** as in JS), so the first match is the only one.  The first byte is
    ** compared inline: most keys differ there (strcmp calls were 8% of a load) */
    const char k0 = key[0];
    for (const cJSON *c = obj->child; c; c = c->next) {
        const char *s = c->string;
        if (!s || s[0] != k0) continue;
        size_t i = 1;  /* keys are short: a byte loop beats a strcmp call */
        while (s[i] == key[i] && key[i]) i++;
        if (s[i] == key[i]) return (c->type & 0xFF) == cJSON_NULL ? NULL : c;
    }
    return NULL;
}
static inline int ob_has(const cJSON *obj, const char *key) { return ob_get(obj, key) != NULL; }

static inline double ob_num(ob_loader *L, const cJSON *obj, const char *key, double def)
{
    const cJSON *v = ob_get(obj, key);
    if (!v) return def;
    if ((v->type & 0xFF) != cJSON_Number) ob_fail_type(L, key, "a number", v);
    return v->valuedouble;
}
/* A number that must be present. */
static inline double ob_num_req(ob_loader *L, const cJSON *obj, const char *key)
{
    const cJSON *v = ob_get(obj, key);
    if (!v || (v->type & 0xFF) != cJSON_Number) ob_fail_type(L, key, "a number", v);
    return v->valuedouble;
}
/* Strings: def when absent; anything else than a string fails. */
const char *ob_str(ob_loader *L, const cJSON *obj, const char *key, const char *def);
/* An id reference: a string (numbers are accepted and written as JS would). */
const char *ob_ref(ob_loader *L, const cJSON *obj, const char *key);
/* The same id, not copied: the tree's text (or buf, OB_JSNUM_CAP bytes, for
** a number), valid while the tree is; for ids only looked up (issue 17). */
const char *ob_ref_peek(ob_loader *L, const cJSON *obj, const char *key, char *buf);
/* Booleans: true/false; absent ⇒ def; numbers by JS truthiness. */
int ob_bool(ob_loader *L, const cJSON *obj, const char *key, int def);
/* Arrays / objects: NULL when absent. */
const cJSON *ob_arr(ob_loader *L, const cJSON *obj, const char *key);
const cJSON *ob_obj(ob_loader *L, const cJSON *obj, const char *key);
/* An element of an array that must be an object. */
void ob_expect_object(ob_loader *L, const cJSON *item);
/* A [min, max] range (§8.8). */
ob_range ob_range_get(ob_loader *L, const cJSON *obj, const char *key, ob_range def);
/* A list of numbers: *count set, arena copy (NULL when absent/empty). */
double *ob_num_list(ob_loader *L, const cJSON *obj, const char *key, int32_t *count);

/* §4.5 parseHex into rgba; fails the load when the text is not a colour. */
void ob_parse_hex(ob_loader *L, const char *key, const char *text, double rgba[4]);
/* A colour member: absent ⇒ def copied. Returns 1 when present. */
int ob_color(ob_loader *L, const cJSON *obj, const char *key, const double def[4], double out[4]);
/* An untyped JSON scalar (number, bool, string, null) as an ob_value. */
ob_value ob_value_get(ob_loader *L, const cJSON *obj, const char *key);

/* Interned attachment names (names that change at run time). */
int32_t ob_intern_name(ob_loader *L, const char *name);
/* Interned timeline channel (§5.1a "keys" matching). */
int32_t ob_intern_channel(ob_loader *L, int target, int property, const char *id, const char *att);

/* Section loaders (document.c, load_animation.c, load_state_machine.c). */
void ob_load_skeleton(ob_loader *L, const cJSON *root);
void ob_load_events(ob_loader *L, const cJSON *root);
void ob_load_animations(ob_loader *L, const cJSON *root);
void ob_load_audio(ob_loader *L, const cJSON *root);
void ob_load_scripts(ob_loader *L, const cJSON *root);
void ob_load_state_machines(ob_loader *L, const cJSON *root);
void ob_load_sliders(ob_loader *L, const cJSON *skeleton);

/* Enum lookups shared by loaders: -1 when the text is unknown. */
int ob_parse_property(const char *s);
int ob_parse_inherit(const char *s);

#endif
