/* animation_state.c: §6 AnimationState (tracks, queue, mixing) and the §10
** audio director it owns.  SCAFFOLD: the animation issue fills this file. */
#include "instance.h"

int ob_anim_state_create(ob_instance *inst) { (void)inst; return 0; }
void ob_anim_state_free(ob_instance *inst) { (void)inst; }
void ob_anim_state_update(ob_instance *inst, double dt) { (void)inst; (void)dt; }
void ob_anim_state_apply(ob_instance *inst) { (void)inst; }
