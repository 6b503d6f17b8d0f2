/* py_drawlist.c: Instance methods of the drawlist concern.  SCAFFOLD: filled by its issue. */
#include "obpy.h"

PyMethodDef obpy_draw_methods[] = {{NULL, NULL, 0, NULL}};
PyGetSetDef obpy_draw_getset[] = {{NULL, NULL, NULL, NULL, NULL}};
PyMethodDef obpy_draw_functions[] = {{NULL, NULL, 0, NULL}};
