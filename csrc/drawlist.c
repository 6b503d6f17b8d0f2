/* drawlist.c: §8.4 the draw list.  SCAFFOLD: the draw-list issue fills this file. */
#include "instance.h"

int ob_draw_state_create(ob_instance *inst) { (void)inst; return 0; }
void ob_draw_state_free(ob_instance *inst) { (void)inst; }
