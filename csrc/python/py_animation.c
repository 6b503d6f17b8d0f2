/* py_animation.c: Instance methods of the animation concern.  SCAFFOLD: filled by its issue. */
#include "obpy.h"

PyMethodDef obpy_animation_methods[] = {{NULL, NULL, 0, NULL}};
PyGetSetDef obpy_animation_getset[] = {{NULL, NULL, NULL, NULL, NULL}};
PyMethodDef obpy_animation_functions[] = {{NULL, NULL, 0, NULL}};
