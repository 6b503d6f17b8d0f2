/* load_scene.c: §7 scene programs: cast, places, scene hats and scene blocks. */
#include "load.h"

int jt_scene_block(loader *L, const char *op, const cJSON *b, bvec *out)
{
    (void)b; (void)out;
    jt_err(L, "op", "%s: scenes are not built yet", op);
    return 0;
}

void jt_scene_program(loader *L, const cJSON *root) { (void)L; (void)root; }
void jt_scene_hat(loader *L, const cJSON *hat, jt_script *s) { (void)L; (void)hat; (void)s; }
void jt_scene_finish(loader *L) { (void)L; }
