/* director.c: §7 scenes and cartoons (the director instance). */
#include "rt.h"

void jt_director_free(jt_runtime *rt) { (void)rt; }
int jt_director_timer_stale(const jt_event *e) { (void)e; return 1; }
void jt_director_close_scope(jt_instance *in, uint64_t scope, double now) { (void)in; (void)scope; (void)now; }
void jt_director_freeze(jt_instance *in, int32_t slot, uint32_t serial, double now) { (void)in; (void)slot; (void)serial; (void)now; }
int jt_director_exec(jt_runtime *rt, jt_thread *th, const jt_block *b, double now) { (void)rt; (void)th; (void)b; (void)now; return R_CONTINUE; }
void jt_director_stop_all(jt_runtime *rt, jt_instance *in, jt_thread *th, double now) { (void)rt; (void)in; (void)th; (void)now; }
void jt_director_script_ended(jt_runtime *rt, jt_instance *in, int script, double now) { (void)rt; (void)in; (void)script; (void)now; }
int jt_director_timer(jt_runtime *rt, const jt_event *e) { (void)rt; (void)e; return 0; }
int jt_director_after_step(jt_runtime *rt) { (void)rt; return 0; }
const char *jt_director_mood(jt_runtime *rt, jt_character *c, uint64_t *seq) { (void)rt; (void)c; (void)seq; return NULL; }
