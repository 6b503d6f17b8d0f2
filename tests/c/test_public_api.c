/* test_public_api.c: the public C API (csrc/include/openbone.h) end to end,
** as an embedding host uses it: load, animate, bake, draw, state machine,
** errors.  Expected values come from the fixtures' definitions (and the
** property that bake equals repeated advances). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/openbone.h"
#include "testutil.h"

static int failures = 0, checks = 0;
#define CHECK(cond, ...) do { checks++; if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static ob_document *load(const char *path)
{
    size_t n;
    char *data = ob_test_slurp(path, &n);
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

/* the instance layer (layer.c): offsets, limits, reaches, placement, as a host uses them */
static void test_layer(const char *root)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/hero.obone", root);
    ob_document *doc = load(path);
    ob_error err;
    ob_instance *inst = ob_instance_create(doc, &err);
    int head = ob_document_find_bone(doc, "head"), up = ob_document_find_bone(doc, "upper_arm_r"),
        lo = ob_document_find_bone(doc, "lower_arm_r"), torso = ob_document_find_bone(doc, "torso");
    const double *w = ob_instance_world(inst);
    double a0 = atan2(w[6 * head + 2], w[6 * head]) * 57.29577951308232;
    ob_bone_offset o = ob_default_bone_offset();
    o.rotation = 30;
    CHECK(ob_instance_set_bone_offset(inst, head, &o) == OB_OK, "set offset");
    ob_instance_update_world_transform(inst);
    double a1 = atan2(w[6 * head + 2], w[6 * head]) * 57.29577951308232;
    CHECK(fabs(a1 - a0 - 30) < 1e-9, "head turned %.12f", a1 - a0);
    CHECK(ob_instance_set_joint_limit(inst, head, -5, 5, OB_LIMIT_FROM_SETUP) == OB_OK, "limit");
    ob_instance_update_world_transform(inst);
    a1 = atan2(w[6 * head + 2], w[6 * head]) * 57.29577951308232;
    CHECK(fabs(a1 - a0 - 5) < 1e-9, "head clamped to 5: %.12f", a1 - a0);
    double lmin, lmax;
    ob_limit_from from;
    CHECK(ob_instance_get_joint_limit(inst, head, &lmin, &lmax, &from) == 1 && lmin == -5 && lmax == 5 &&
          from == OB_LIMIT_FROM_SETUP, "get limit");
    CHECK(ob_instance_get_joint_limit(inst, torso, NULL, NULL, NULL) == 0, "no limit");
    /* reach: the tip (lower_arm_r's end, 26 along it) onto a point 30 from the shoulder (arm 28 + 26) */
    ob_reach_def r = ob_default_reach_def();
    r.upper = up, r.lower = lo, r.x = w[6 * up + 4] + 18, r.y = w[6 * up + 5] - 24;
    CHECK(ob_instance_set_reach(inst, &r) == OB_OK, "set reach");
    ob_instance_update_world_transform(inst);
    const double *L = &w[6 * lo];
    double tx = L[0] * 26 + L[4], ty = L[2] * 26 + L[5];
    CHECK(fabs(tx - r.x) < 1e-6 && fabs(ty - r.y) < 1e-6, "tip (%.9f, %.9f) at (%.9f, %.9f)", tx, ty, r.x, r.y);
    CHECK(ob_instance_reach_count(inst) == 1, "one reach");
    ob_reach_def got;
    CHECK(ob_instance_get_reach(inst, 0, &got) == OB_OK && got.upper == up && got.weight == 1, "get reach");
    r.lower = head;
    CHECK(ob_instance_set_reach(inst, &r) == OB_ERR_ARGUMENT, "lower not below upper");
    r.lower = lo, r.weight = NAN;
    CHECK(ob_instance_set_reach(inst, &r) == OB_ERR_ARGUMENT, "NaN weight");
    o.rotation = INFINITY;
    CHECK(ob_instance_set_bone_offset(inst, head, &o) == OB_ERR_ARGUMENT, "infinite offset");
    CHECK(ob_instance_set_bone_offset(inst, 9999, &o) == OB_ERR_ARGUMENT, "bad bone");
    CHECK(ob_instance_set_joint_limit(inst, head, 3, 2, OB_LIMIT_FROM_POSE) == OB_ERR_ARGUMENT, "min > max");
    /* cleared: the same bits as an instance that never had a layer */
    ob_instance_clear_layer(inst);
    ob_instance *plain = ob_instance_create(doc, &err);
    ob_instance_update_world_transform(inst);
    CHECK(memcmp(w, ob_instance_world(plain), sizeof(double) * 6 * (size_t)ob_document_bone_count(doc)) == 0,
          "an empty layer changes nothing");
    ob_instance_set_placement(inst, 10, 0, -1, 1);
    ob_instance_update_world_transform(inst);
    const double *p = ob_instance_world(plain);
    CHECK(fabs(w[6 * head + 4] - (10 - p[6 * head + 4])) < 1e-9 && fabs(w[6 * head + 5] - p[6 * head + 5]) < 1e-9,
          "placement mirrors x");
    ob_instance_free(plain);
    ob_instance_free(inst);
    ob_document_free(doc);
}

/* ob_instance_copy / _snapshot / _restore: the copy and the restored instance follow
** the original bit for bit (a state machine with inputs and pointers, and the hero's
** walk with physics-free IK), and a bad snapshot is an error that changes nothing. */
static void test_copy_and_snapshot(const char *root)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/conformance/fixtures/state-machine.obone", root);
    ob_document *doc = load(path);
    ob_error err;
    ob_instance *a = ob_instance_create(doc, &err);
    CHECK(ob_instance_start_state_machine(a, ob_document_find_state_machine(doc, "character")) == OB_OK, "start");
    int speed = ob_instance_find_input(a, "speed");
    for (int k = 0; k < 10; k++) {
        ob_instance_set_input_number(a, speed, k * 0.1);
        ob_instance_pointer(a, OB_POINTER_MOVE, k, -k);
        ob_instance_advance(a, 1.0 / 60);
    }
    ob_instance *b = ob_instance_copy(a, &err);
    CHECK(b != NULL, "copy: %s", b ? "" : err.message);
    size_t n = 0;
    CHECK(ob_instance_snapshot(a, NULL, 0, &n, &err) == OB_OK && n > 0, "snapshot size");
    unsigned char *snap = malloc(n);
    CHECK(ob_instance_snapshot(a, snap, n, &n, &err) == OB_OK, "snapshot");
    ob_instance *c = ob_instance_create(doc, &err);
    CHECK(ob_instance_restore(c, snap, n, &err) == OB_OK, "restore: %s", err.message);
    const double *w0 = ob_instance_world(c);
    double before = w0[4];
    CHECK(ob_instance_restore(c, snap, n - 1, &err) == OB_ERR_FORMAT, "truncated snapshot refused");
    snap[n - 1] ^= 0x5a;
    CHECK(ob_instance_restore(c, snap, n, &err) == OB_ERR_FORMAT && strstr(err.message, "checksum"), "corrupt: %s",
          err.message);
    CHECK(ob_instance_world(c)[4] == before, "a refused snapshot changes nothing");
    int nb = ob_document_bone_count(doc), same = 1;
    for (int k = 0; k < 60; k++) {
        ob_instance *all[3] = {a, b, c};
        for (int i = 0; i < 3; i++) {
            ob_instance_set_input_number(all[i], speed, (k % 7) * 0.2);
            if (k % 5 == 0) ob_instance_pointer(all[i], OB_POINTER_DOWN, 3, 4);
            ob_instance_advance(all[i], 1.0 / 60);
        }
        same &= memcmp(ob_instance_world(a), ob_instance_world(b), 6 * (size_t)nb * sizeof(double)) == 0;
        same &= memcmp(ob_instance_world(a), ob_instance_world(c), 6 * (size_t)nb * sizeof(double)) == 0;
        const char *sa = ob_instance_active_state(a, 0), *sb = ob_instance_active_state(b, 0);
        same &= (sa == NULL) == (sb == NULL) && (!sa || strcmp(sa, sb) == 0);
    }
    CHECK(same, "copy and restored instance follow the original bit for bit");
    CHECK(ob_instance_time(a) == ob_instance_time(b) && ob_instance_time(a) == ob_instance_time(c), "clocks");
    free(snap);
    ob_instance_free(a);
    ob_instance_free(b);
    ob_instance_free(c);
    ob_document_free(doc);
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "../..";
    test_errors();
    test_animation_and_draw(root);
    test_state_machine(root);
    test_layer(root);
    test_copy_and_snapshot(root);
    printf("test_public_api: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
