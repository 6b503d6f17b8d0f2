/* test_toon.c: the Jabbertoon runtime as a C host uses it (csrc/include/jabbertoon.h, no
** Python): a program is loaded, validated and run, poses are read, and once the program
** has started a step allocates nothing.
**
** Linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc: every allocation made while
** jt_step_to / jt_pose_read run is counted over 600 steps at 60 fps of three characters
** (0, 2 and 4 legs) running a behaviour with every motion, a chain, followers, reaches,
** loops (with waits and polls), together, windows, views and page globals; it must be 0.
** Run by `make check` (tests/c/Makefile). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/jabbertoon.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
static long counting, allocations;
void *__wrap_malloc(size_t n) { allocations += counting; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { allocations += counting; return __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { allocations += counting; return __real_realloc(p, n); }

static int failed;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); failed = 1; } } while (0)

static const char *EVERYTHING =
    "{\"v\": 1, \"kind\": \"behaviour\", \"params\": {\"speed\": \"=dur / 4\"}, \"vars\": {\"n\": 0},"
    " \"scripts\": ["
    "  {\"body\": [{\"op\": \"hop\", \"amp\": \"=20 + n\"}, {\"op\": \"gait\", \"bob\": 2, \"roll\": \"=speed\"},"
    "    {\"op\": \"swish\", \"part\": \"tail\", \"deg\": 30}, {\"op\": \"letFollow\", \"part\": \"ears\"},"
    "    {\"op\": \"forever\", \"body\": [{\"op\": \"reach\", \"part\": \"hands\", \"at\": \"head\", \"dx\": 0.1, \"hold\": 0.3},"
    "      {\"op\": \"reach\", \"to\": {\"x\": \"=40*random\", \"y\": 200}, \"over\": 0.2},"
    "      {\"op\": \"turnView\", \"to\": \"side\"}, {\"op\": \"changeVar\", \"var\": \"n\"},"
    "      {\"op\": \"for\", \"for\": 0.5, \"body\": [{\"op\": \"wave\", \"ch\": \"part:arm:1\", \"amp\": \"=g\"},"
    "         {\"op\": \"ramp\", \"ch\": \"dx\", \"by\": 5, \"over\": 1}]}]}]},"
    "  {\"body\": [{\"op\": \"forever\", \"body\": [{\"op\": \"repeat\", \"times\": 3, \"body\": [{\"op\": \"setVar\", \"var\": \"g\", \"value\": \"=g + 1\"}]},"
    "      {\"op\": \"together\", \"branches\": [[{\"op\": \"bend\", \"part\": \"body\", \"deg\": 10, \"over\": 0.25}],"
    "        [{\"op\": \"wait\", \"for\": 0.1}, {\"op\": \"view\", \"to\": \"back\"}]]},"
    "      {\"op\": \"window\", \"from\": \"=tau\", \"to\": \"=tau + 0.3\", \"body\": [{\"op\": \"chain\", \"ch\": \"part:hair\", \"segments\": 3},"
    "         {\"op\": \"follow\", \"ch\": [\"part:hand:1\", \"mouth\"], \"source\": \"part:tail\", \"hz\": 4}]},"
    "      {\"op\": \"while\", \"cond\": \"=0\"}, {\"op\": \"set\", \"ch\": \"mood\", \"to\": \"happy\"}]}]},"
    "  {\"hat\": {\"on\": \"key\"}, \"body\": [{\"op\": \"shake\", \"deg\": 3}]}"
    "]}";

static int hundredth(void *ud, const char *text, const jt_speech_opts *opts, double *seconds, char *why, size_t whycap)
{
    (void)ud, (void)text, (void)opts, (void)why, (void)whycap;
    *seconds = 0.01;  /* every line 0.01 s: the loop runs 60,000 lines */
    return 0;
}

int main(void)
{
    /* a program with errors: the diagnostics name the places */
    const char *bad = "{\"v\": 1, \"kind\": \"behaviour\", \"scripts\": [{\"body\": [{\"op\": \"set\", \"ch\": \"part:Arm\", \"to\": \"=x\"}]}]}";
    jt_diags *d = NULL;
    jt_program *p = jt_program_load(bad, strlen(bad), &d);
    CHECK(!p && jt_diags_errors(d) == 1, "the bad program is rejected");
    CHECK(d && !strncmp(jt_diags_get(d, 0)->message, "scripts.0.body.0.ch: ", 21), "%s", jt_diags_get(d, 0)->message);
    jt_diags_free(d);

    p = jt_program_load(EVERYTHING, strlen(EVERYTHING), &d);
    if (!p) {
        for (int i = 0; i < jt_diags_count(d); i++) printf("  %s\n", jt_diags_get(d, i)->message);
        printf("FAIL: the program does not load\n");
        return 1;
    }
    jt_diags_free(d);
    CHECK(!strcmp(jt_program_kind(p), "behaviour"), "kind");

    jt_runtime_def def = jt_runtime_def_default();
    def.seed = 3;
    jt_runtime *rt = jt_runtime_create(&def);
    CHECK(rt != NULL, "runtime");
    const char *ids[3] = {"zero", "two", "four"};
    int legs[3] = {0, 2, 4};
    for (int i = 0; i < 3; i++) CHECK(jt_add_character(rt, ids[i], legs[i]) == JT_OK, "add");
    CHECK(jt_global_set(rt, "g", 1) == JT_OK, "global");
    {  /* a behaviour failing at once (a name nothing holds) is not started */
        const char *fails = "{\"v\": 1, \"kind\": \"behaviour\", \"scripts\": [{\"body\": [{\"op\": \"set\", \"ch\": \"dx\", \"to\": \"=nowhere\"}]}]}";
        jt_program *f = jt_program_load(fails, strlen(fails), NULL);
        CHECK(f && jt_start_behaviour(rt, "zero", f, 8, NULL, 0, NULL) == JT_ERR_RUN, "fails at once");
        CHECK(strstr(jt_runtime_error(rt), "nowhere") != NULL, "%s", jt_runtime_error(rt));
        jt_program_free(f);
    }
    uint64_t inst[3];
    for (int i = 0; i < 3; i++) {
        jt_param speed = {"speed", 2};
        jt_status st = jt_start_behaviour(rt, ids[i], p, 8, i == 1 ? &speed : NULL, i == 1, &inst[i]);
        CHECK(st == JT_OK, "start %s: %s", ids[i], jt_runtime_error(rt));
    }
    CHECK(jt_step_to(rt, 1.0 / 60) == JT_OK, "first step: %s", jt_runtime_error(rt));
    jt_pose pose;
    CHECK(jt_pose_read(rt, 1, &pose) == JT_OK, "pose");
    long nch = 0;
    allocations = 0;
    for (int k = 2; k <= 600; k++) {
        counting = 1;
        jt_status st = jt_step_to(rt, k / 60.0);
        for (int i = 0; i < 3; i++) {
            jt_pose_read(rt, i, &pose);
            nch += pose.nchannels + pose.nreach;
        }
        if (k % 97 == 0) jt_emit(rt, "key", NULL, "a", NULL);  /* a hat restart: no allocation in the threads */
        counting = 0;
        if (st != JT_OK) {
            printf("FAIL step %d: %s\n", k, jt_runtime_error(rt));
            return 1;
        }
    }
    printf("%s 600 steps of 3 characters: %ld pose channels read, %ld allocations\n",
           allocations == 0 ? "ok  " : "FAIL", nch, allocations);
    failed |= allocations != 0;

    /* values a C host reads: a hop's crouch, a ramp, the pose's channels by name */
    const char *hop = "{\"v\": 1, \"kind\": \"behaviour\", \"scripts\": [{\"body\": [{\"op\": \"hop\", \"hz\": 1},"
                      "{\"op\": \"setPart\", \"part\": \"arms\", \"deg\": 80}]}]}";
    jt_program *q = jt_program_load(hop, strlen(hop), NULL);
    jt_runtime *r2 = jt_runtime_create(NULL);
    jt_add_character(r2, "c", 2);
    CHECK(q && jt_start_behaviour(r2, "c", q, INFINITY, NULL, 0, NULL) == JT_OK, "hop");
    jt_step_to(r2, 0.06);  /* cyc 0.06: k = 0.5, dy = 3, sx = 1.04 */
    jt_pose_read(r2, jt_character_index(r2, "c"), &pose);
    CHECK(fabs(pose.dy - 3) < 1e-12 && fabs(pose.sx - 1.04) < 1e-12, "hop crouch %g %g", pose.dy, pose.sx);
    int seen = 0;
    for (int i = 0; i < pose.nchannels; i++) {
        int lift, side, index;
        const char *role;
        jt_channel_parts(r2, pose.channel[i], &lift, &role, &side, &index);
        if (!strcmp(role, "arm") && !lift && index < 0) seen += side * pose.value[i] == 80;
    }
    CHECK(seen == 2, "both arms raised outward (%d)", seen);
    CHECK(jt_step_to(r2, 0.01) == JT_ERR_ARGUMENT, "time only moves forward");
    CHECK(jt_start_behaviour(r2, "nobody", q, INFINITY, NULL, 0, NULL) == JT_ERR_ARGUMENT, "unknown character");
    jt_runtime_free(r2);
    jt_program_free(q);

    {  /* a cartoon from C: planned, played, its timeline and frames read */
        const char *story =
            "{\"v\": 1, \"kind\": \"cartoon\", \"cast\": {\"A\": \"a\"}, \"places\": {\"park\": \"park.png\"},"
            " \"scripts\": [{\"hat\": {\"on\": \"scene\", \"name\": \"s\", \"place\": \"park\"}, \"body\": ["
            "  {\"op\": \"enter\", \"who\": \"A\", \"over\": 1}, {\"op\": \"say\", \"who\": \"A\", \"text\": \"Hello\"}]}]}";
        jt_runtime *r3 = jt_runtime_create(NULL);
        double dur = 0;
        CHECK(jt_start_cartoon(r3, story, strlen(story), NULL, 0, &dur) == JT_OK, "cartoon: %s", jt_runtime_error(r3));
        CHECK(dur == 1.6, "duration %g (enter 1 s + the default 0.6 s line)", dur);  /* max(0.06*5 + 0.25, 0.6) */
        CHECK(jt_timeline_count(r3) == 3, "records %d", jt_timeline_count(r3));
        jt_step_to(r3, 1.2);
        jt_stage_view sv;
        jt_placement pl;
        jt_stage_read(r3, &sv);
        jt_placement_read(r3, 0, &pl);
        CHECK(sv.caption && !strcmp(sv.caption, "Hello") && !strcmp(sv.background, "park.png"), "frame");
        CHECK(pl.visible && pl.talking && fabs(pl.x - 0.5) < 1e-12, "placement x %g", pl.x);
        CHECK(jt_start_cartoon(r3, story, strlen(story), NULL, 0, NULL) == JT_ERR_ARGUMENT, "one at a time");
        jt_runtime_free(r3);
    }

    {  /* §7.7: a 10-minute loop of does / does ... for / say / caption ... for / together, played at 24 fps:
       ** 60,000 behaviours started and stopped, 150,000 records, and the steps allocate nothing but the
       ** timeline's amortised growth (each doubling) */
        const char *bob = "{\"v\": 1, \"kind\": \"behaviour\", \"params\": {\"h\": 10}, \"scripts\": [{\"body\": [{\"op\": \"bob\", \"amp\": \"=h\"}]}]}";
        char loop[2048];
        snprintf(loop, sizeof loop,
                 "{\"v\": 1, \"kind\": \"cartoon\", \"cast\": {\"A\": \"a\", \"B\": \"b\"}, \"scripts\": [{\"hat\": {\"on\": \"scene\", \"name\": \"s\"},"
                 " \"body\": [{\"op\": \"for\", \"for\": 600, \"body\": [{\"op\": \"forever\", \"body\": ["
                 "{\"op\": \"does\", \"who\": \"A\", \"behaviour\": %s}, {\"op\": \"does\", \"who\": \"B\", \"behaviour\": %s, \"for\": 0.02},"
                 "{\"op\": \"say\", \"who\": \"A\", \"text\": \"a\"}, {\"op\": \"caption\", \"text\": \"c\", \"for\": 0.005},"
                 "{\"op\": \"together\", \"branches\": [[{\"op\": \"say\", \"who\": \"B\", \"text\": \"b\"}]]}]}]}]}]}",
                 bob, bob);
        jt_runtime_def d4 = jt_runtime_def_default();
        d4.speech = hundredth;
        jt_runtime *r4 = jt_runtime_create(&d4);
        double dur = 0;
        CHECK(jt_start_cartoon(r4, loop, strlen(loop), NULL, 0, &dur) == JT_OK, "loop: %s", jt_runtime_error(r4));
        CHECK(dur == 600, "loop duration %g", dur);
        jt_step_to(r4, 1.0 / 24);
        jt_stage_view sv;
        jt_placement pl;
        allocations = 0;
        long read = 0;
        for (int k = 2; k <= 14400; k++) {
            counting = 1;
            jt_status st = jt_step_to(r4, k / 24.0);
            jt_stage_read(r4, &sv);
            jt_placement_read(r4, 0, &pl);
            jt_pose_read(r4, 1, &pose);
            read += pose.dy != 0;
            counting = 0;
            if (st != JT_OK) {
                printf("FAIL loop step %d: %s\n", k, jt_runtime_error(r4));
                return 1;
            }
        }
        int nrec = jt_timeline_count(r4);
        printf("%s 14,400 frames of the 10-minute does loop (%d records, %ld frames bobbing): %ld allocations\n",
               allocations <= 64 ? "ok  " : "FAIL", nrec, read, allocations);
        failed |= allocations > 64 || read == 0 || nrec < 150000;
        jt_runtime_free(r4);
    }

    for (int i = 0; i < 3; i++) jt_stop_behaviour(rt, inst[i]);
    jt_pose_read(rt, 2, &pose);
    CHECK(pose.nchannels == 0 && pose.nreach == 0 && pose.dx == 0 && !pose.mood, "stopped");
    jt_runtime_free(rt);
    jt_program_free(p);
    if (!failed) printf("ok   the C API\n");
    return failed;
}
