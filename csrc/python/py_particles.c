/* py_particles.c: Instance methods of the particles concern.  SCAFFOLD: filled by its issue. */
#include "obpy.h"

PyMethodDef obpy_particle_methods[] = {{NULL, NULL, 0, NULL}};
PyGetSetDef obpy_particle_getset[] = {{NULL, NULL, NULL, NULL, NULL}};

