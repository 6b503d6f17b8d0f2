/* test_state_machine.c: the §9 state machine from C, with a stub §11 script
** host (scripts.h), for AddressSanitizer/LeakSanitizer runs:
**
**   gcc -std=c11 -g -fsanitize=address,undefined -I../../csrc -o test_state_machine \
**       test_state_machine.c ../../csrc/[a-z]*.c $(pkg-config --cflags --libs libcjson) -lm
**   (every csrc C file)
**   ./test_state_machine ../../conformance/fixtures/state-machine.obone
**
** Checks a few hand-worked facts of conformance/cases/state-machine.json and that
** a host's handles are all freed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scripts.h"
#include "state_machine.h"
#include "testutil.h"

static int failures;
#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); failures++; } \
    } while (0)

typedef struct stub { int loaded, freed, calls, destroyed; } stub;

static int32_t stub_load(void *ud, int32_t script, const char *name, const char *code)
{
    (void)script; (void)name; (void)code;
    return ((stub *)ud)->loaded++;
}
static int stub_call(void *ud, int32_t h, const char *fn, const char *args)
{
    (void)h; (void)fn; (void)args;
    ((stub *)ud)->calls++;
    return 0;
}
static void stub_free(void *ud, int32_t h) { (void)h; ((stub *)ud)->freed++; }
static void stub_destroy(void *ud) { ((stub *)ud)->destroyed++; }

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "../../conformance/fixtures/state-machine.obone";
    size_t n;
    char *text = ob_test_slurp(path, &n);
    if (!text) { fprintf(stderr, "cannot read %s\n", path); return 2; }
    ob_error err;
    ob_document *doc = ob_document_load(text, n, &err);
    free(text);
    if (!doc) { fprintf(stderr, "%s\n", err.message); return 2; }
    ob_instance *inst = ob_instance_create(doc, &err);
    CHECK(inst != NULL);
    CHECK(ob_sm_start(inst, 0) == 0);
    stub s = {0};
    ob_script_host host = {&s, stub_load, stub_call, stub_free, stub_destroy};
    ob_sm_set_script_host(inst, &host);

    /* sm/jump-oncomplete-chain: jump at step 3, land at 7, idle at 9 */
    const char *expect[] = {"idle", "idle", "jump", "jump", "jump", "jump", "land", "land", "idle"};
    int32_t jump = ob_sm_find_input(inst->sm, "jump");
    for (int k = 0; k < 9; k++) {
        if (k == 2) ob_sm_fire(inst, jump);
        ob_instance_advance(inst, 0.1);
        CHECK(strcmp(ob_sm_active_state(inst, 0), expect[k]) == 0);
    }
    /* button: click toggles waving, reports cheer at elapsed time */
    ob_sm_pointer(inst, OB_PTR_DOWN, 150, 20);
    ob_sm_pointer(inst, OB_PTR_UP, 150, 20);
    ob_instance_advance(inst, 0.1);
    int32_t ne;
    const ob_sm_event *ev = ob_sm_events(inst, &ne);
    CHECK(ne == 1 && strcmp(ob_sm_str(&inst->sm->report_pool, ev[0].name), "cheer") == 0);
    CHECK(fabs(ev[0].time - 1.0) < 1e-12);
    CHECK(strcmp(ob_sm_active_state(inst, 1), "wave") == 0);
    /* many frames: nothing grows, nothing leaks */
    ob_value v = {OB_VAL_NUMBER, 1.5, NULL};
    ob_sm_set_input(inst, ob_sm_find_input(inst->sm, "speed"), &v);
    for (int k = 0; k < 10000; k++) ob_instance_advance(inst, 1.0 / 60);
    CHECK(strcmp(ob_sm_active_state(inst, 0), "locomotion") == 0);
    /* restart keeps the host; free releases it */
    CHECK(ob_sm_start(inst, 0) == 0);
    ob_instance_advance(inst, 0.1);
    CHECK(strcmp(ob_sm_active_state(inst, 0), "idle") == 0);
    ob_instance_free(inst);
    CHECK(s.destroyed == 1 && s.loaded == s.freed);
    ob_document_free(doc);

    /* scripts: machine script loaded at start, state scripts per enter, all freed */
    static const char json[] =
        "{\"format\":\"openbone\",\"version\":1,\"skeleton\":{\"bones\":[{\"id\":\"r\"}],\"slots\":[],"
        "\"skins\":[{\"id\":\"d\",\"attachments\":{}}]},"
        "\"scripts\":[{\"id\":\"m\",\"code\":\"\"},{\"id\":\"s\",\"code\":\"\"}],"
        "\"stateMachines\":[{\"id\":\"sm\",\"scripts\":[\"m\"],"
        "\"inputs\":[{\"id\":\"go\",\"type\":\"trigger\"}],"
        "\"layers\":[{\"entry\":\"a\",\"states\":[{\"id\":\"a\",\"scripts\":[\"s\"]},"
        "{\"id\":\"b\",\"scripts\":[\"s\",\"s\"]}],"
        "\"transitions\":[{\"from\":\"@any\",\"to\":\"b\",\"conditions\":[{\"input\":\"go\"}]},"
        "{\"from\":\"b\",\"to\":\"a\",\"conditions\":[{\"input\":\"go\"}]}]}]}]}";
    doc = ob_document_load(json, sizeof json - 1, &err);
    CHECK(doc != NULL);
    if (!doc) { fprintf(stderr, "%s\n", err.message); return 1; }
    inst = ob_instance_create(doc, &err);
    CHECK(ob_sm_start(inst, 0) == 0);
    stub t = {0};
    ob_script_host h2 = {&t, stub_load, stub_call, stub_free, stub_destroy};
    ob_sm_set_script_host(inst, &h2);
    ob_instance_advance(inst, 0.1);       /* load m, onStart; enter a: load s, onStart; onUpdate ×2 */
    CHECK(t.loaded == 2 && t.calls == 4);
    ob_sm_fire(inst, 0);
    ob_instance_advance(inst, 0.1);       /* a → b: free 1, load 2 */
    CHECK(t.loaded == 4 && t.freed == 1);
    for (int k = 0; k < 1000; k++) {
        ob_sm_fire(inst, 0);
        ob_instance_advance(inst, 1.0 / 60);
    }
    ob_instance_free(inst);
    CHECK(t.destroyed == 1 && t.loaded == t.freed);
    ob_document_free(doc);
    if (failures) return 1;
    printf("test_state_machine: ok\n");
    return 0;
}
