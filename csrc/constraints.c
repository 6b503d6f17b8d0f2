/* constraints.c: §7 dispatch (IK, transform, path, physics) and §7.5 sliders.
** SCAFFOLD: the constraints issue fills this file. */
#include "instance.h"

int ob_constraints_create(ob_instance *inst) { (void)inst; return 0; }
void ob_constraints_free(ob_instance *inst) { (void)inst; }
void ob_sliders_apply(ob_instance *inst) { (void)inst; }
void ob_constraint_apply(ob_instance *inst, int32_t c, double dt) { (void)inst; (void)c; (void)dt; }
