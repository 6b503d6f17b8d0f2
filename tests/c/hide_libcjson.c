/* hide_libcjson.c: an rtld-audit module (LD_AUDIT, see rtld-audit(7)) that hides the system's
** cJSON from the dynamic loader: every search for a file named libcjson.so* fails, so a program
** started with LD_AUDIT=hide_libcjson.so loads cJSON only if it carries its own copy under another
** name (auditwheel's openbone.libs/libcjson-<hash>.so.*).  Used by tests/tools/check_wheel.py.
*/
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <string.h>

unsigned int la_version(unsigned int version) {
    return version < LAV_CURRENT ? version : LAV_CURRENT;
}

char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag) {
    (void)cookie;
    (void)flag;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    return strncmp(base, "libcjson.so", 11) == 0 ? NULL : (char *)name;
}
