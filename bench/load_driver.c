/* load_driver.c: document load time, openbone against spine-c 4.2, in one process
** (bench/bench_load.py builds and runs it; spine-c is exported from a spine-runtimes git
** copy into a scratch directory, never into this repository).
**
**     load_driver ROUNDS NAME SPINE.json OBONE.obone OBONB.obonb [NAME ...]
**
** Per rig and round, interleaved: spine-c spSkeletonJson_readSkeletonData on the Spine JSON
** text (+ spSkeletonData_dispose, outside the timed part), openbone ob_document_load on the
** imported document's JSON text and on its .obonb bytes (+ ob_document_free, outside), and
** the system cJSON's cJSON_ParseWithLength alone on that JSON text (+ cJSON_Delete, outside):
** the part of a .obone load the brief fixes (cJSON is required), so that the rest, our
** post-parse work, is .obone minus it; and cJSON_ParseWithLength alone on the rig's own Spine
** JSON text, the same rig in fewer, shorter numbers than its .obone holds: a floor under any
** .obone load that cJSON parses.
** Files are read into memory once; times are thread CPU time per load, a batch of loads
** per sample so that a sample lasts >= 2 ms.  Prints one JSON object per rig with the
** per-round samples in µs.
**
** spine-c needs an attachment loader: this one gives every region and mesh a dummy texture
** region (no atlas), as ../shared/bench/spine-c/harness.c does; spine-core 4.2
** (SkeletonJson.c) is the behaviour reference for what the loader is asked. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <spine/extension.h>
#include <spine/spine.h>

#include <cjson/cJSON.h>

#include "openbone.h"
#include "../tests/c/testutil.h"  /* ob_test_slurp, shared with the C checkers */

void _spAtlasPage_createTexture(spAtlasPage *self, const char *path) { (void)self; (void)path; }
void _spAtlasPage_disposeTexture(spAtlasPage *self) { (void)self; }
char *_spUtil_readFile(const char *path, int *length) { return _spReadFile(path, length); }

static spTextureRegion *region_of(float w, float h)
{
    spTextureRegion *r = calloc(1, sizeof *r);
    r->u2 = r->v2 = 1;
    r->width = r->originalWidth = w > 1 ? (int)w : 1;
    r->height = r->originalHeight = h > 1 ? (int)h : 1;
    return r;
}

static void give_regions(spSequence *seq)
{
    for (int i = 0; i < seq->regions->size; i++) seq->regions->items[i] = region_of(1, 1);
}

static spAttachment *loader_create(spAttachmentLoader *self, spSkin *skin, spAttachmentType type, const char *name,
                                   const char *path, spSequence *sequence)
{
    (void)self; (void)skin; (void)path;
    if (type == SP_ATTACHMENT_REGION) {
        spRegionAttachment *a = spRegionAttachment_create(name);
        if (sequence) give_regions(sequence);
        else a->region = region_of(1, 1);
        return SUPER(a);
    }
    if (type == SP_ATTACHMENT_MESH || type == SP_ATTACHMENT_LINKED_MESH) {
        spMeshAttachment *a = spMeshAttachment_create(name);
        if (sequence) give_regions(sequence);
        else a->region = region_of(1, 1);
        return SUPER(SUPER(a));
    }
    if (type == SP_ATTACHMENT_BOUNDING_BOX) return SUPER(SUPER(spBoundingBoxAttachment_create(name)));
    if (type == SP_ATTACHMENT_PATH) return SUPER(SUPER(spPathAttachment_create(name)));
    if (type == SP_ATTACHMENT_POINT) return SUPER(spPointAttachment_create(name));
    if (type == SP_ATTACHMENT_CLIPPING) return SUPER(SUPER(spClippingAttachment_create(name)));
    return NULL;
}

static void loader_configure(spAttachmentLoader *self, spAttachment *att)
{
    (void)self;
    if (att->type == SP_ATTACHMENT_REGION) {
        spRegionAttachment *a = (spRegionAttachment *)att;
        if (a->region) spRegionAttachment_updateRegion(a);
    } else if (att->type == SP_ATTACHMENT_MESH || att->type == SP_ATTACHMENT_LINKED_MESH) {
        spMeshAttachment *a = (spMeshAttachment *)att;
        if (a->region) spMeshAttachment_updateRegion(a);
    }
}

static void loader_dispose(spAttachmentLoader *self) { _spAttachmentLoader_deinit(self); }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define MAX_BATCH 4096

/* One sample: µs per load over `batch` loads (dispose/free not timed). */
static double time_spine(const char *json, int batch, spSkeletonData **keep)
{
    double t = 0;
    for (int i = 0; i < batch; i++) {
        spAttachmentLoader *loader = NEW(spAttachmentLoader);
        _spAttachmentLoader_init(loader, loader_dispose, loader_create, loader_configure, 0);
        spSkeletonJson *sj = spSkeletonJson_createWithLoader(loader);
        double t0 = now();
        spSkeletonData *d = spSkeletonJson_readSkeletonData(sj, json);
        t += now() - t0;
        if (!d) {
            fprintf(stderr, "spine-c: %s\n", sj->error ? sj->error : "failed");
            exit(1);
        }
        spSkeletonJson_dispose(sj);
        spAttachmentLoader_dispose(loader);
        if (keep && i == 0) *keep = d;
        else spSkeletonData_dispose(d);
    }
    return t / batch * 1e6;
}

static double time_ob(const char *data, size_t len, int batch)
{
    double t = 0;
    for (int i = 0; i < batch; i++) {
        ob_error err;
        double t0 = now();
        ob_document *d = ob_document_load(data, len, &err);
        t += now() - t0;
        if (!d) {
            fprintf(stderr, "openbone: %s\n", err.message);
            exit(1);
        }
        ob_document_free(d);
    }
    return t / batch * 1e6;
}

static double time_cjson(const char *data, size_t len, int batch)
{
    double t = 0;
    for (int i = 0; i < batch; i++) {
        double t0 = now();
        cJSON *v = cJSON_ParseWithLength(data, len);
        t += now() - t0;
        if (!v) {
            fprintf(stderr, "cJSON: parse failed\n");
            exit(1);
        }
        cJSON_Delete(v);
    }
    return t / batch * 1e6;
}

static int batch_for(double us) { int b = (int)(2000 / (us > 1 ? us : 1)) + 1; return b > MAX_BATCH ? MAX_BATCH : b; }

int main(int argc, char **argv)
{
    if (argc < 6 || (argc - 2) % 4) {
        fprintf(stderr, "usage: load_driver ROUNDS NAME SPINE.json OBONE.obone OBONB.obonb [...]\n");
        return 2;
    }
    int rounds = atoi(argv[1]);
    for (int a = 2; a + 3 < argc; a += 4) {
        size_t ls = 0, lj = 0, lb = 0;
        char *spine = ob_test_slurp(argv[a + 1], &ls), *obj = ob_test_slurp(argv[a + 2], &lj), *obb = ob_test_slurp(argv[a + 3], &lb);
        if (!spine || !obj || !obb) {
            fprintf(stderr, "cannot read the files of %s\n", argv[a]);
            return 1;
        }
        /* warm-up, and the batch sizes */
        spSkeletonData *sd = NULL;
        int bs = batch_for(time_spine(spine, 1, &sd)), bj = batch_for(time_ob(obj, lj, 1)),
            bb = batch_for(time_ob(obb, lb, 1)), bc = batch_for(time_cjson(obj, lj, 1)),
            bcs = batch_for(time_cjson(spine, ls, 1));
        int bones = sd->bonesCount, anims = sd->animationsCount;
        spSkeletonData_dispose(sd);
        printf("{\"rig\": \"%s\", \"bones\": %d, \"animations\": %d, \"spine_json_bytes\": %zu, "
               "\"obone_bytes\": %zu, \"obonb_bytes\": %zu, \"spine\": [",
               argv[a], bones, anims, ls, lj, lb);
        enum { K = 5 };
        double *s = calloc((size_t)rounds * K, sizeof *s);
        for (int r = 0; r < rounds; r++) {  /* interleaved, the order rotating */
            for (int k = 0; k < K; k++) {
                int which = (k + r) % K;
                if (which == 0) s[K * r] = time_spine(spine, bs, NULL);
                else if (which == 1) s[K * r + 1] = time_ob(obj, lj, bj);
                else if (which == 2) s[K * r + 2] = time_ob(obb, lb, bb);
                else if (which == 3) s[K * r + 3] = time_cjson(obj, lj, bc);
                else s[K * r + 4] = time_cjson(spine, ls, bcs);
            }
        }
        for (int k = 0; k < K; k++) {
            if (k == 1) printf("], \"obone\": [");
            if (k == 2) printf("], \"obonb\": [");
            if (k == 3) printf("], \"cjson\": [");
            if (k == 4) printf("], \"cjson_spine_text\": [");
            for (int r = 0; r < rounds; r++) printf("%s%.3f", r ? ", " : "", s[K * r + k]);
        }
        printf("]}\n");
        fflush(stdout);
        free(s);
        free(spine);
        free(obj);
        free(obb);
    }
    return 0;
}
