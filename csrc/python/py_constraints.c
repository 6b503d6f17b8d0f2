/* py_constraints.c: Instance methods of the constraints concern.  SCAFFOLD: filled by its issue. */
#include "obpy.h"

PyMethodDef obpy_constraint_methods[] = {{NULL, NULL, 0, NULL}};
PyGetSetDef obpy_constraint_getset[] = {{NULL, NULL, NULL, NULL, NULL}};

