/* py_state_machine.c: Instance methods of the state_machine concern.  SCAFFOLD: filled by its issue. */
#include "obpy.h"

PyMethodDef obpy_sm_methods[] = {{NULL, NULL, 0, NULL}};
PyGetSetDef obpy_sm_getset[] = {{NULL, NULL, NULL, NULL, NULL}};

