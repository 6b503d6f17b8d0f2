/* test_width.c: one build gives the same bits whatever the vector width
** (issue 17, csrc/obtrig.h): the pose of every document on the command line,
** stepped through its first animations, printed as a hash of the world
** matrices and world vertices of every frame.  tests/test_trig_width.py
** builds this with the runtime dispatch (the AVX2 clones where the CPU has
** AVX2), with -DOB_NO_DISPATCH (the SSE2 baseline everywhere) and with
** -DOB_NO_DISPATCH -mavx2 (AVX2 everywhere), and compares the outputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/openbone.h"
#include "testutil.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int a = 1; a < argc; a++) {
        size_t len = 0;
        char *text = ob_test_slurp(argv[a], &len);
        ob_error err;
        ob_document *doc = text ? ob_document_load(text, len, &err) : NULL;
        free(text);
        if (!doc) { printf("FAIL %s: cannot load\n", argv[a]); failed = 1; continue; }
        int nb = ob_document_bone_count(doc), na = ob_document_animation_count(doc);
        for (int an = 0; an < (na < 4 ? na : 4); an++) {
            ob_instance *inst = ob_instance_create(doc, &err);
            if (!inst) { printf("FAIL %s: cannot create\n", argv[a]); failed = 1; break; }
            if (ob_document_skin_count(doc) > 1) ob_instance_set_skin(inst, 1);
            ob_instance_set_animation(inst, 0, an, 1, 0);
            uint64_t h = 0xcbf29ce484222325ULL;
            for (int f = 0; f < 90; f++) {
                ob_instance_advance(inst, 1 / 30.0);
                h = fnv(h, ob_instance_world(inst), (size_t)nb * 6 * sizeof(double));
                int ne = ob_instance_world_vertices(inst);
                for (int e = 0; e < ne; e++) {
                    int slot, att, vc;
                    const float *v;
                    if (ob_instance_world_vertices_entry(inst, e, &slot, &att, &vc, &v) == OB_OK)
                        h = fnv(h, v, (size_t)vc * 2 * sizeof(float));
                }
            }
            printf("%s animation %d: %016llx\n", argv[a], an, (unsigned long long)h);
            ob_instance_free(inst);
        }
        ob_document_free(doc);
    }
    return failed;
}
