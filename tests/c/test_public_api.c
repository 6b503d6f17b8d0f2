/* test_public_api.c: the public C API (csrc/include/openbone.h) end to end,
** as an embedding host uses it: load, animate, bake, draw, state machine,
** errors.  Expected values come from the fixtures' definitions (and the
** property that bake equals repeated advances). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/openbone.h"

static int failures = 0, checks = 0;
#define CHECK(cond, ...) do { checks++; if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (len) *len = (size_t)n;
    return buf;
}

static ob_document *load(const char *path)
{
    size_t n;
    char *data = slurp(path, &n);
    if (!data) { printf("cannot read %s\n", path); exit(2); }
    ob_error err;
    ob_document *doc = ob_document_load(data, n, &err);
    free(data);
    if (!doc) { printf("%s: %s\n", path, err.message); exit(2); }
    return doc;
}

static void test_errors(void)
{
    ob_error err;
    const char *bad = "{\"format\":\"openbone\",\"skeleton\":{\"bones\":[{\"rotation\":\"ninety\"}]}}";
    CHECK(!ob_document_load(bad, strlen(bad), &err), "a bad document loads");
    CHECK(err.status == OB_ERR_SCHEMA && strcmp(err.message, "skeleton.bones[0].rotation: expected a number, got \"ninety\"") == 0,
          "message: %s", err.message);
    CHECK(!ob_document_load("OBNB\x01\x05", 6, &err) && err.status == OB_ERR_SYNTAX, "truncated binary: %s", err.message);
}

static void test_animation_and_draw(const char *root)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/hero.obone", root);
    ob_document *doc = load(path);
    int walk = ob_document_find_animation(doc, "walk");
    CHECK(walk >= 0, "walk animation");
    ob_error err;
    ob_instance *a = ob_instance_create(doc, &err), *b = ob_instance_create(doc, &err);
    CHECK(ob_instance_set_animation(a, 0, walk, 1, 0) == OB_OK, "set_animation");
    CHECK(ob_instance_set_animation(a, 99, walk, 1, 0) == OB_ERR_ARGUMENT, "bad track");
    CHECK(ob_instance_set_animation(a, 0, 12345, 1, 0) == OB_ERR_ARGUMENT, "bad animation");
    ob_instance_set_animation(b, 0, walk, 1, 0);
    int nb = ob_document_bone_count(doc), steps = 45;
    double *baked = malloc(sizeof(double) * 6 * (size_t)nb * (size_t)steps);
    ob_instance_bake(a, 1.0 / 30, steps, baked);
    int same = 1;
    for (int i = 0; i < steps; i++) {  /* bake = the same advances done one by one */
        ob_instance_advance(b, 1.0 / 30);
        same &= memcmp(baked + (size_t)i * 6 * (size_t)nb, ob_instance_world(b), sizeof(double) * 6 * (size_t)nb) == 0;
    }
    CHECK(same, "bake equals repeated advances");
    CHECK(ob_instance_time(a) == ob_instance_time(b), "clocks agree");
    /* issue 21: non-finite or enormous dt is refused and changes nothing */
    double t = ob_instance_time(a), x = ob_instance_world(a)[4];
    CHECK(ob_instance_advance(a, NAN) == OB_ERR_ARGUMENT && ob_instance_advance(a, INFINITY) == OB_ERR_ARGUMENT &&
              ob_instance_advance(a, -INFINITY) == OB_ERR_ARGUMENT && ob_instance_advance(a, 2 * OB_MAX_DT) == OB_ERR_ARGUMENT,
          "bad dt refused");
    CHECK(ob_instance_bake(a, NAN, 3, baked) == OB_ERR_ARGUMENT && ob_instance_bake(a, 0.1, -1, baked) == OB_ERR_ARGUMENT,
          "bad bake refused");
    CHECK(ob_instance_time(a) == t && ob_instance_world(a)[4] == x, "nothing changed");
    CHECK(ob_instance_advance(a, OB_MAX_DT) == OB_OK && ob_instance_time(a) == t + OB_MAX_DT, "1e9 s accepted");

    int n = ob_instance_draw(a);
    CHECK(n > 0, "draw items: %d", n);
    for (int i = 0; i < n; i++) {
        ob_draw_item_info it;
        CHECK(ob_instance_draw_item(a, i, &it) == OB_OK, "item %d", i);
        CHECK(it.vertex_count > 0 && it.index_count % 3 == 0, "item %d shape", i);
        for (int k = 0; k < it.index_count; k++)
            CHECK(it.indices[k] - (uint32_t)it.first_vertex < (uint32_t)it.vertex_count, "item %d index %d", i, k);
        for (int k = 0; k < 2 * it.vertex_count; k++) CHECK(isfinite(it.vertices[k]), "item %d vertex", i);
        CHECK(strcmp(it.type, "region") == 0 || strcmp(it.type, "mesh") == 0, "hero draws regions and a mesh: %s", it.type);
    }
    ob_draw_item_info it;
    CHECK(ob_instance_draw_item(a, n, &it) == OB_ERR_ARGUMENT, "item out of range");
    /* world vertices only: the hero's items are all regions and meshes with alpha 1,
    ** so the entries are the draw items' vertices, in the same order, bit for bit */
    CHECK(ob_instance_world_vertices_entry(a, 0, NULL, NULL, NULL, NULL) == OB_ERR_ARGUMENT, "no entries yet");
    int nw = ob_instance_world_vertices(a);
    CHECK(nw == n, "world vertex entries %d, draw items %d", nw, n);
    for (int i = 0; i < nw && i < n; i++) {
        int slot, att, nv;
        const float *v;
        CHECK(ob_instance_world_vertices_entry(a, i, &slot, &att, &nv, &v) == OB_OK, "entry %d", i);
        CHECK(ob_instance_draw_item(a, i, &it) == OB_OK, "item %d", i);
        CHECK(slot == it.slot && att == it.attachment && nv == it.vertex_count, "entry %d is item %d", i, i);
        CHECK(memcmp(v, it.vertices, 2 * (size_t)nv * sizeof *v) == 0, "entry %d vertices", i);
    }
    CHECK(ob_instance_world_vertices_entry(a, nw, NULL, NULL, NULL, NULL) == OB_ERR_ARGUMENT, "entry out of range");
    CHECK(ob_instance_clear_track(a, 0) == OB_OK, "clear_track");
    free(baked);
    ob_instance_free(a);
    ob_instance_free(b);
    ob_document_free(doc);
}

static void test_state_machine(const char *root)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/conformance/fixtures/state-machine.obone", root);
    ob_document *doc = load(path);
    int m = ob_document_find_state_machine(doc, "character");
    CHECK(m >= 0 && ob_document_state_machine_count(doc) >= 1, "machine");
    ob_error err;
    ob_instance *inst = ob_instance_create(doc, &err);
    CHECK(ob_instance_find_input(inst, "speed") == -1, "no machine runs yet");
    CHECK(ob_instance_start_state_machine(inst, m) == OB_OK, "start");
    int speed = ob_instance_find_input(inst, "speed");
    CHECK(speed >= 0, "speed input");
    ob_instance_advance(inst, 0.05);
    const char *s = ob_instance_active_state(inst, 0);
    CHECK(s && strcmp(s, "idle") == 0, "entry state idle: %s", s ? s : "(null)");
    /* the fixture's transition idle → locomotion when speed > 0.1 */
    CHECK(ob_instance_set_input_number(inst, speed, 0.5) == OB_OK, "set speed");
    ob_instance_advance(inst, 0.05);
    s = ob_instance_active_state(inst, 0);
    CHECK(s && strcmp(s, "locomotion") == 0, "speed 0.5 ⇒ locomotion: %s", s ? s : "(null)");
    CHECK(ob_instance_set_input_number(inst, 999, 1) == OB_ERR_ARGUMENT, "bad input index");
    CHECK(ob_instance_pointer(inst, OB_POINTER_MOVE, 0, 0) == OB_OK, "pointer");
    CHECK(ob_instance_pointer(inst, OB_POINTER_MOVE, NAN, 0) == OB_ERR_ARGUMENT, "NaN pointer refused");
    ob_instance_free(inst);
    ob_document_free(doc);
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "../..";
    test_errors();
    test_animation_and_draw(root);
    test_state_machine(root);
    printf("test_public_api: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
