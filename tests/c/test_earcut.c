/* test_earcut.c: checks csrc/earcut.c against earcut 3.2.4's own output.
**
** Reads fixtures.json and generated.json from the reference directory
** (argv[1], else REF_DIR from the Makefile), triangulates every case and
** compares the indices exactly: same triangles, same order.  Every case runs
** twice on one shared context (forwards, then backwards) so that state left
** over from an earlier call would show up as a mismatch.
*/
#include "earcut.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef REF_DIR
#define REF_DIR "../data/earcut"
#endif

typedef struct tcase {
    char name[128];
    double *xy;
    size_t n;
    uint32_t *holes;
    size_t n_holes;
    uint32_t *expect;
    size_t n_expect;
} tcase;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[len] = 0;
    fclose(f);
    return buf;
}

static uint32_t *uint_array(const cJSON *a, size_t *n)
{
    *n = (size_t)cJSON_GetArraySize(a);
    uint32_t *v = malloc((*n ? *n : 1) * sizeof *v);
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a) v[i++] = (uint32_t)e->valuedouble;
    return v;
}

/* Appends the cases of one reference file; returns the new count or -1. */
static int load_cases(const char *dir, const char *file, tcase **cases, int count)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *text = read_file(path);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!cJSON_IsArray(root)) {
        fprintf(stderr, "%s: not a JSON array\n", path);
        cJSON_Delete(root);
        return -1;
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, root) {
        *cases = realloc(*cases, (size_t)(count + 1) * sizeof **cases);
        tcase *t = &(*cases)[count++];
        memset(t, 0, sizeof *t);
        snprintf(t->name, sizeof t->name, "%s",
                 cJSON_GetStringValue(cJSON_GetObjectItem(c, "name")));
        const cJSON *v = cJSON_GetObjectItem(c, "vertices");
        size_t nc = (size_t)cJSON_GetArraySize(v), i = 0;
        t->n = nc / 2;
        t->xy = malloc((nc ? nc : 1) * sizeof(double));
        const cJSON *e;
        cJSON_ArrayForEach(e, v) t->xy[i++] = e->valuedouble;
        t->holes = uint_array(cJSON_GetObjectItem(c, "holes"), &t->n_holes);
        t->expect = uint_array(cJSON_GetObjectItem(c, "triangles"), &t->n_expect);
    }
    cJSON_Delete(root);
    return count;
}

static int check(ob_earcut_ctx *ctx, const tcase *t, int verbose)
{
    const uint32_t *got;
    size_t n_got;
    if (ob_earcut(ctx, t->xy, t->n, t->holes, t->n_holes, &got, &n_got) != 0) {
        printf("FAIL %s: ob_earcut returned -1\n", t->name);
        return 0;
    }
    size_t i = 0;
    while (i < n_got && i < t->n_expect && got[i] == t->expect[i]) i++;
    if (i == n_got && i == t->n_expect) return 1;
    if (verbose) {
        printf("FAIL %s (%zu vertices, %zu holes): %zu indices, expected %zu; first "
               "difference at %zu", t->name, t->n, t->n_holes, n_got, t->n_expect, i);
        if (i < n_got && i < t->n_expect)
            printf(" (got %u, expected %u)", (unsigned)got[i], (unsigned)t->expect[i]);
        printf("\n");
    }
    return 0;
}

/* Inputs outside the reference data must not crash or read out of range. */
static int check_edge_inputs(ob_earcut_ctx *ctx)
{
    const uint32_t *out;
    size_t n;
    int ok = 1;
    const double sq[] = {0, 0, 10, 0, 10, 10, 0, 10, 2, 2, 8, 2, 8, 8};
    const uint32_t holes_bad[] = {4, 4, 9};       /* empty ring, then past the end */
    const uint32_t holes_zero[] = {0};             /* empty outer ring */
    ok &= ob_earcut(ctx, NULL, 0, NULL, 0, &out, &n) == 0 && n == 0;
    ok &= ob_earcut(ctx, sq, 7, holes_bad, 3, &out, &n) == 0 && n % 3 == 0;
    ok &= ob_earcut(ctx, sq, 7, holes_zero, 1, &out, &n) == 0 && n == 0;
    ok &= ob_earcut(ctx, sq, 4, NULL, 0, &out, &n) == 0 && n == 6;
    ob_earcut_ctx_free(NULL);
    if (!ok) printf("FAIL edge inputs\n");
    return ok;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : REF_DIR;
    tcase *cases = NULL;
    int n = load_cases(dir, "fixtures.json", &cases, 0);
    if (n >= 0) n = load_cases(dir, "generated.json", &cases, n);
    if (n < 0) return 2;

    ob_earcut_ctx *ctx = ob_earcut_ctx_create();
    if (!ctx) return 2;

    int passed = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        if (check(ctx, &cases[i], 1)) passed++;
        else failed++;
    }
    /* second pass, backwards, on the warm context */
    int unstable = 0;
    for (int i = n - 1; i >= 0; i--)
        if (!check(ctx, &cases[i], 0) && check(ctx, &cases[i], 0)) {
            printf("FAIL %s: result depends on the previous call\n", cases[i].name);
            unstable++;
        }
    int edge_ok = check_edge_inputs(ctx);

    printf("%d passed, %d failed\n", passed, failed);
    for (int i = 0; i < n; i++) {
        free(cases[i].xy);
        free(cases[i].holes);
        free(cases[i].expect);
    }
    free(cases);
    ob_earcut_ctx_free(ctx);
    return failed || unstable || !edge_ok ? 1 : 0;
}
