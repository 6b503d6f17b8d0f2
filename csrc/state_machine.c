/* state_machine.c: §9 state machines.  SCAFFOLD: the state-machine issue fills this file. */
#include "instance.h"

int ob_sm_create(ob_instance *inst) { (void)inst; return 0; }
void ob_sm_free(ob_instance *inst) { (void)inst; }
int ob_sm_advance(ob_instance *inst, double dt) { (void)inst; (void)dt; return 0; }
