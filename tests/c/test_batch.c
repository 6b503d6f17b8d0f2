/* test_batch.c: csrc/batch.c through the public C API (ob_batch_*): many
** instances stepped per call give exactly the bytes (ob_instance_snapshot)
** that stepping each alone gives, for any thread count; refused calls move
** nothing; a call allocates nothing once the first call of its size ran.
** Linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc to count. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "include/openbone.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
static long counting, allocations;
void *__wrap_malloc(size_t n) { allocations += counting; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { allocations += counting; return __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { allocations += counting; return __real_realloc(p, n); }

static int failures = 0, checks = 0;
#define CHECK(cond, ...) do { checks++; if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

#define N 37
static const double DTS[] = {1 / 60.0, 1 / 30.0, 0, 0.37, -0.05, 2.5, 1e-9, 1 / 60.0};
#define NDT (sizeof DTS / sizeof *DTS)

static ob_document *load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { printf("cannot read %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) exit(2);
    fclose(f);
    ob_error err;
    ob_document *doc = ob_document_load(buf, (size_t)n, &err);
    free(buf);
    if (!doc) { printf("%s: %s\n", path, err.message); exit(2); }
    return doc;
}

static void crowd(const ob_document *doc, ob_instance **out)
{
    int na = ob_document_animation_count(doc);
    for (int i = 0; i < N; i++) {
        ob_error err;
        out[i] = ob_instance_create(doc, &err);
        ob_instance_set_animation(out[i], 0, i % na, 1, 0);
        ob_instance_advance(out[i], (i % 7) * 0.11);
    }
}

static unsigned char *snap(const ob_instance *inst, size_t *len)
{
    ob_error err;
    ob_instance_snapshot(inst, NULL, 0, len, &err);
    unsigned char *b = malloc(*len);
    ob_instance_snapshot(inst, b, *len, len, &err);
    return b;
}

static int same_state(ob_instance *a, ob_instance *b)
{
    size_t la, lb;
    unsigned char *sa = snap(a, &la), *sb = snap(b, &lb);
    int same = la == lb && memcmp(sa, sb, la) == 0;
    free(sa);
    free(sb);
    return same;
}

int main(int argc, char **argv)
{
    ob_document *doc = load(argc > 1 ? argv[1] : "../../examples/hero.obone");
    ob_instance *alone[N], *together[N];
    crowd(doc, alone);
    for (int i = 0; i < N; i++)
        for (size_t k = 0; k < NDT; k++) ob_instance_advance(alone[i], DTS[k]);
    const int thread_counts[] = {1, 2, 3, 8, 0};
    for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
        ob_error err;
        ob_batch *b = ob_batch_create(thread_counts[t], &err);
        CHECK(b, "create %d: %s", thread_counts[t], err.message);
        if (!b) continue;
        CHECK(ob_batch_threads(b) == (thread_counts[t] ? thread_counts[t] : ob_batch_threads(b)) &&
              ob_batch_threads(b) >= 1, "threads");
        crowd(doc, together);
        for (size_t k = 0; k < NDT; k++) {
            if (k == 1) counting = 1;  /* after the first call of this size: nothing allocated */
            if (k % 2 == 1) {  /* past the workers' 50 us spin: they sleep, and the call wakes them */
                struct timespec ms = {0, 1000000};
                nanosleep(&ms, NULL);
            }
            CHECK(ob_batch_advance(b, together, N, DTS[k], &err) == OB_OK, "advance: %s", err.message);
        }
        counting = 0;
        CHECK(allocations == 0, "%ld allocations in ob_batch_advance (threads %d)", allocations, thread_counts[t]);
        allocations = 0;
        int same = 1;
        for (int i = 0; i < N; i++) same &= same_state(together[i], alone[i]);
        CHECK(same, "threads %d: a batch-stepped instance differs from one stepped alone", thread_counts[t]);
        /* stats: every instance counted once per call */
        uint64_t items = 0;
        for (int s = 0; s < ob_batch_threads(b); s++) {
            double cpu;
            uint64_t k;
            CHECK(ob_batch_thread_stats(b, s, &cpu, &k) == OB_OK && cpu >= 0, "stats");
            items += k;
        }
        CHECK(items == (uint64_t)N * NDT, "stats count %llu instance-steps", (unsigned long long)items);
        CHECK(ob_batch_thread_stats(b, -1, NULL, NULL) == OB_ERR_ARGUMENT, "stats slot -1");
        for (int i = 0; i < N; i++) ob_instance_free(together[i]);
        ob_batch_free(b);
    }

    /* bake: equals ob_instance_bake per instance */
    {
        ob_error err;
        ob_batch *b = ob_batch_create(2, &err);
        ob_instance *ref[N];
        crowd(doc, together);
        crowd(doc, ref);
        int nb = ob_document_bone_count(doc), steps = 11;
        double *outs[N], *expect = malloc(sizeof(double) * 6 * (size_t)nb * (size_t)steps);
        for (int i = 0; i < N; i++) outs[i] = malloc(sizeof(double) * 6 * (size_t)nb * (size_t)steps);
        CHECK(ob_batch_bake(b, together, N, 1 / 30.0, steps, outs, &err) == OB_OK, "bake: %s", err.message);
        int same = 1;
        for (int i = 0; i < N; i++) {
            ob_instance_bake(ref[i], 1 / 30.0, steps, expect);
            same &= memcmp(expect, outs[i], sizeof(double) * 6 * (size_t)nb * (size_t)steps) == 0;
            same &= same_state(ref[i], together[i]);
        }
        CHECK(same, "ob_batch_bake differs from ob_instance_bake");

        /* refused calls: nothing moves */
        size_t l0;
        unsigned char *before = snap(together[0], &l0);
        ob_instance *dup[3] = {together[0], together[1], together[0]};
        CHECK(ob_batch_advance(b, dup, 3, 0.1, &err) == OB_ERR_ARGUMENT && strstr(err.message, "instance 2 is instance 0"),
              "duplicate: %s", err.message);
        ob_instance *hole[3] = {together[0], NULL, together[1]};
        CHECK(ob_batch_advance(b, hole, 3, 0.1, &err) == OB_ERR_ARGUMENT && strstr(err.message, "instance 1 is NULL"),
              "NULL: %s", err.message);
        CHECK(ob_batch_advance(b, together, N, NAN, &err) == OB_ERR_ARGUMENT, "NaN dt");
        CHECK(ob_batch_advance(b, together, N, INFINITY, &err) == OB_ERR_ARGUMENT, "inf dt");
        CHECK(ob_batch_advance(b, together, N, 2e9, &err) == OB_ERR_ARGUMENT, "huge dt");
        CHECK(ob_batch_advance(b, NULL, 3, 0.1, &err) == OB_ERR_ARGUMENT, "no array");
        CHECK(ob_batch_bake(b, together, N, 0.1, -1, outs, &err) == OB_ERR_ARGUMENT, "steps -1");
        CHECK(ob_batch_bake(b, together, N, 0.1, 2, NULL, &err) == OB_ERR_ARGUMENT, "no outputs");
        double *holes[N];
        memcpy(holes, outs, sizeof holes);
        holes[5] = NULL;
        CHECK(ob_batch_bake(b, together, N, 0.1, 2, holes, &err) == OB_ERR_ARGUMENT, "a NULL output");
        CHECK(ob_batch_advance(b, together, 0, 0.1, &err) == OB_OK, "empty call");
        size_t l1;
        unsigned char *after = snap(together[0], &l1);
        CHECK(l0 == l1 && memcmp(before, after, l0) == 0, "a refused call moved an instance");
        free(before);
        free(after);
        CHECK(!ob_batch_create(-1, &err) && err.status == OB_ERR_ARGUMENT, "threads -1");
        CHECK(!ob_batch_create(257, &err) && err.status == OB_ERR_ARGUMENT, "threads 257");
        for (int i = 0; i < N; i++) {
            free(outs[i]);
            ob_instance_free(together[i]);
            ob_instance_free(ref[i]);
        }
        free(expect);
        ob_batch_free(b);
    }
    for (int i = 0; i < N; i++) ob_instance_free(alone[i]);
    ob_document_free(doc);
    printf("%s   %d checks of ob_batch (threads 1, 2, 3, 8, cores)\n", failures ? "FAIL" : "ok", checks);
    return failures ? 1 : 0;
}
