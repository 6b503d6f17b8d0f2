/* fuzz_binary.c: libFuzzer harness for the .obonb decoder (csrc/binary.c).
** Any input must decode or fail cleanly (no crash, leak or UB); a decoded
** value must survive encode → decode unchanged, and its JSON text must
** parse back to the same value.  Build: make fuzz_binary (this directory). */
#include "binary.h"

#include <stdlib.h>
#include <string.h>

/* Exact equality: types, key order, numbers (bitwise when bits is set, so
** -0 ≠ 0; JSON text writes -0 as 0), strings. */
static int same(const cJSON *a, const cJSON *b, int bits)
{
    if ((a->type & 0xFF) != (b->type & 0xFF)) return 0;
    switch (a->type & 0xFF) {
    case cJSON_Number:
        if (!bits) return a->valuedouble == b->valuedouble;
        return memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) == 0;
    case cJSON_String:
        return strcmp(a->valuestring, b->valuestring) == 0;
    case cJSON_Array:
    case cJSON_Object: {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next) {
            if ((a->type & 0xFF) == cJSON_Object && strcmp(x->string, y->string) != 0) return 0;
            if (!same(x, y, bits)) return 0;
        }
        return x == NULL && y == NULL;
    }
    default:
        return 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    size_t n = 0;
    uint8_t *enc;
    cJSON *v, *back, *parsed;
    char *json;

    v = ob_binary_decode(data, size, err, sizeof err);
    {   /* the pooled decoder (ob_document_load's fast path) agrees: value or message */
        char perr[256] = "";
        ob_binary_pool pool = {0};
        cJSON *pv = ob_binary_decode_pooled(data, size, perr, sizeof perr, &pool);
        if (v ? !pv || !same(v, pv, 1) : pv != NULL || strcmp(err, perr) != 0) abort();
        ob_binary_pool_free(&pool);
    }
    if (!v) {
        if (strncmp(err, "binary: offset ", 15) != 0) abort();  /* every error names its offset */
        return 0;
    }
    enc = ob_binary_encode(v, &n, err, sizeof err);
    if (!enc) abort();
    back = ob_binary_decode(enc, n, err, sizeof err);
    if (!back) abort();
    if (!cJSON_Compare(v, back, 1) || !same(v, back, 1)) abort();
    /* encoding is deterministic: the re-encoded value encodes identically */
    {
        size_t n2 = 0;
        uint8_t *enc2 = ob_binary_encode(back, &n2, err, sizeof err);
        if (!enc2 || n2 != n || memcmp(enc, enc2, n) != 0) abort();
        free(enc2);
    }
    json = ob_json_write(v, (int)(size & 1));
    if (!json) abort();
    parsed = cJSON_Parse(json);
    if (!parsed || !same(v, parsed, 0)) abort();
    cJSON_Delete(parsed);
    free(json);
    cJSON_Delete(back);
    free(enc);
    cJSON_Delete(v);
    return 0;
}
