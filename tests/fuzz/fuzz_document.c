/* fuzz_document.c: libFuzzer harness for the whole load path (§2): JSON or
** binary bytes → ob_document_load → an instance → a few frames with every
** skin, then the first animation (looping) and the first state machine
** through hostile time steps (issue 21): huge, negative, NaN, ±inf and one
** taken from the input's last bytes.  Any crash, leak, hang or sanitizer
** report is a bug: bad input must only ever produce an ob_error, and a
** refused dt must change nothing.
**
** A structure-aware mutator helps libFuzzer past the JSON syntax: when the
** input parses as JSON, one node of the tree is changed (a number made
** extreme, NaN-like or negative, a string swapped for another string of the
** document so ids point elsewhere, an array element duplicated or dropped, a
** member deleted, a value replaced by one of another type) and the tree is
** printed back; otherwise libFuzzer's byte mutations run. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "include/openbone.h"

/* issue 22: past the loader, on an instance of its own: up to four animations on
** track 0, cross-faded into each other with the next one queued on track 1 (§5/§6:
** timelines, mixing and the constraints they key), the draw list after each; then
** the first state machine (§9) with its inputs set and fired (errors for missing
** indices are fine), pointer events queued, a few frames and the draw list. */
static void play(const ob_document *doc)
{
    ob_error err;
    ob_instance *inst = ob_instance_create(doc, &err);
    if (!inst) return;
    int anims = ob_document_animation_count(doc);
    for (int a = 0; a < anims && a < 4; a++) {
        ob_instance_set_animation(inst, 0, a, a & 1, 0.1);
        if (anims > 1) ob_instance_add_animation(inst, 1, (a + 1) % anims, 0, 0.2, 0.1);
        for (int f = 0; f < 4; f++) ob_instance_advance(inst, f == 2 ? 0.3 : 1.0 / 30);
        ob_instance_draw(inst);
    }
    ob_instance_free(inst);
    if (ob_document_state_machine_count(doc) <= 0 || !(inst = ob_instance_create(doc, &err))) return;
    if (ob_instance_start_state_machine(inst, 0) == OB_OK) {
        for (int f = 0; f < 6; f++) {
            ob_instance_set_input_number(inst, f % 4, f * 0.5 - 1);
            ob_instance_set_input_bool(inst, (f + 1) % 4, f & 1);
            ob_instance_fire(inst, (f + 2) % 4);
            ob_instance_pointer(inst, (ob_pointer_type)(f % 3), 10.0 * f - 20, 5.0 * f - 10);
            ob_instance_advance(inst, f == 3 ? 0.4 : 1.0 / 30);
        }
        ob_instance_draw(inst);
    }
    ob_instance_free(inst);
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* issue 21: time steps an application should never send, and one from the
** input (its last 8 bytes as a double: any bit pattern, NaN payloads too).
** Accepted steps must return OB_OK; refused ones OB_ERR_ARGUMENT with the
** clock unchanged. */
static void hostile_steps(const ob_document *doc, ob_instance *inst, const uint8_t *data, size_t size, int machine)
{
    double mine = 0;
    if (size >= 8) memcpy(&mine, data + size - 8, 8);
    const double steps[] = {1.0 / 60, 1e9, -0.25, NAN, INFINITY, -INFINITY, 1e300, -1e9, 7.3, 1e-300, 0, mine,
                            1.0 / 60, 123456.789, 1.0 / 60};
    if (!machine && ob_document_animation_count(doc) > 0) ob_instance_set_animation(inst, 0, 0, 1, 0);
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
        double before = ob_instance_time(inst);
        ob_status st = ob_instance_advance(inst, steps[k]);
        int ok = fabs(steps[k]) <= OB_MAX_DT;
        if (ok ? st != OB_OK : st != OB_ERR_ARGUMENT || ob_instance_time(inst) != before) abort();
    }
    double world[6 * 4];
    if (ob_document_bone_count(doc) <= 4 && ob_instance_bake(inst, NAN, 1, world) != OB_ERR_ARGUMENT) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ob_error err;
    ob_document *doc = ob_document_load(data, size, &err);
    if (!doc) return 0;
    play(doc);
    ob_instance *inst = ob_instance_create(doc, &err);
    if (inst) {
        int skins = ob_document_skin_count(doc);
        for (int s = -1; s < skins && s < 4; s++) {
            ob_instance_set_skin(inst, s);
            ob_instance_advance(inst, 1.0 / 60);
            ob_instance_advance(inst, 0.25);
        }
        hostile_steps(doc, inst, data, size, 0);
        ob_instance_free(inst);
        if (ob_document_state_machine_count(doc) > 0 && (inst = ob_instance_create(doc, &err))) {
            if (ob_instance_start_state_machine(inst, 0) == OB_OK) hostile_steps(doc, inst, data, size, 1);
            ob_instance_free(inst);
        }
    }
    ob_document_free(doc);
    return 0;
}

/* xorshift, seeded by libFuzzer per call: no global state */
static uint32_t next(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x ? x : 0x9e3779b9u;
}

static int count_nodes(const cJSON *n)
{
    int k = 1;
    for (const cJSON *c = n->child; c; c = c->next) k += count_nodes(c);
    return k;
}

static cJSON *nth_node(cJSON *n, int *k)
{
    if ((*k)-- == 0) return n;
    for (cJSON *c = n->child; c; c = c->next) {
        cJSON *r = nth_node(c, k);
        if (r) return r;
    }
    return NULL;
}

static cJSON *parent_of(cJSON *root, cJSON *node)
{
    for (cJSON *c = root->child; c; c = c->next) {
        if (c == node) return root;
        cJSON *p = parent_of(c, node);
        if (p) return p;
    }
    return NULL;
}

static void mutate_tree(cJSON *root, uint32_t *s)
{
    static const double numbers[] = {0, -0.0, 1, -1, 0.5, 1e-9, 1e9, 1e300, -1e300, 65536, 2147483648.0,
                                     4294967296.0, 9007199254740993.0, 360, -720, 1e-320};
    int total = count_nodes(root);
    int k = (int)(next(s) % (uint32_t)total);
    cJSON *node = nth_node(root, &k);
    if (!node) return;
    cJSON *parent = parent_of(root, node);
    switch (next(s) % 6) {
    case 0: /* an extreme number */
        if (cJSON_IsNumber(node)) cJSON_SetNumberHelper(node, numbers[next(s) % (sizeof numbers / sizeof *numbers)]);
        break;
    case 1: /* scale a number */
        if (cJSON_IsNumber(node)) cJSON_SetNumberHelper(node, node->valuedouble * ((int)(next(s) % 7) - 3));
        break;
    case 2: { /* swap a string for another string of the document (ids point elsewhere) */
        int k2 = (int)(next(s) % (uint32_t)total);
        cJSON *other = nth_node(root, &k2);
        if (cJSON_IsString(node) && other && cJSON_IsString(other) && other != node) {
            char *copy = strdup(other->valuestring);
            if (copy) {
                cJSON_free(node->valuestring);
                node->valuestring = copy;
            }
        }
        break;
    }
    case 3: /* drop the node */
        if (parent) cJSON_Delete(cJSON_DetachItemViaPointer(parent, node));
        break;
    case 4: /* duplicate an array element */
        if (parent && cJSON_IsArray(parent)) cJSON_AddItemToArray(parent, cJSON_Duplicate(node, 1));
        break;
    default: { /* a value of another type */
        if (!parent) break;
        cJSON *repl;
        switch (next(s) % 5) {
        case 0: repl = cJSON_CreateNull(); break;
        case 1: repl = cJSON_CreateString("x"); break;
        case 2: repl = cJSON_CreateArray(); break;
        case 3: repl = cJSON_CreateObject(); break;
        default: repl = cJSON_CreateBool(next(s) & 1); break;
        }
        if (repl) cJSON_ReplaceItemViaPointer(parent, node, repl);
        break;
    }
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t s = seed ? seed : 1;
    if (next(&s) % 4 != 0) {
        cJSON *root = cJSON_ParseWithLength((const char *)data, size);
        if (root) {
            int rounds = 1 + (int)(next(&s) % 3);
            for (int i = 0; i < rounds; i++) mutate_tree(root, &s);
            char *text = cJSON_PrintUnformatted(root);
            cJSON_Delete(root);
            if (text) {
                size_t n = strlen(text);
                if (n <= max_size) {
                    memcpy(data, text, n);
                    free(text);
                    return n;
                }
                free(text);
            }
        }
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
