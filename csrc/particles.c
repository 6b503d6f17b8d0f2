/* particles.c: §8.8 particle emitters.  SCAFFOLD: the particles issue fills this file. */
#include "instance.h"

int ob_particles_create(ob_instance *inst) { (void)inst; return 0; }
void ob_particles_free(ob_instance *inst) { (void)inst; }
void ob_particles_advance(ob_instance *inst, double dt) { (void)inst; (void)dt; }
