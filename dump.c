#define main test_main
#include "test_loaders.c"
#undef main
int main(void){ const char *docs[] = {ANIMS, MACHINE}; for (int k=0;k<2;k++){ char *s=q(docs[k]); printf("%s\n", s); free(s);} return 0; }
