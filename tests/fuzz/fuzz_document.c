/* fuzz_document.c: libFuzzer harness for the whole load path (§2): JSON or
** binary bytes → ob_document_load → an instance → a few frames with every
** skin.  Any crash, leak, hang or sanitizer report is a bug: bad input must
** only ever produce an ob_error. */
#include <stddef.h>
#include <stdint.h>

#include "include/openbone.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ob_error err;
    ob_document *doc = ob_document_load(data, size, &err);
    if (!doc) return 0;
    ob_instance *inst = ob_instance_create(doc, &err);
    if (inst) {
        int skins = ob_document_skin_count(doc);
        for (int s = -1; s < skins && s < 4; s++) {
            ob_instance_set_skin(inst, s);
            ob_instance_advance(inst, 1.0 / 60);
            ob_instance_advance(inst, 0.25);
        }
        ob_instance_free(inst);
    }
    ob_document_free(doc);
    return 0;
}
