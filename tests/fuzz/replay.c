// SPDX-License-Identifier: MIT
// A fuzz target without libFuzzer: runs it once on every file named on the command line (or in
// a directory named there), in order. The test suite replays the seed corpus and every input
// that ever broke something (tests/fuzz/regressions) this way, with any compiler, under the
// sanitizers in the ASan build. Prints "N passed, 0 failed"; a failing input crashes.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

static int run_file(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return -1;
  }
  size_t cap = 1 << 16, n = 0;
  unsigned char* buf = malloc(cap);
  size_t k;
  while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) {
      cap *= 2;
      buf = realloc(buf, cap);
    }
  }
  fclose(f);
  if (!buf) {
    return -1;
  }
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 1;
}


static int not_hidden(const struct dirent* e) {
  return e->d_name[0] != '.';
}


// run every file under path (a file or a directory, searched recursively, in name order)
static void run_path(const char* path, int* passed, int* failed) {
  struct stat sb;
  if (stat(path, &sb) != 0) {
    perror(path);
    ++*failed;
    return;
  }
  if (!S_ISDIR(sb.st_mode)) {
    int r = run_file(path);
    *passed += r > 0;
    *failed += r < 0;
    return;
  }
  struct dirent** list = NULL;
  int n = scandir(path, &list, not_hidden, alphasort);
  for (int j = 0; j < n; j++) {
    char sub[4096];
    snprintf(sub, sizeof(sub), "%s/%s", path, list[j]->d_name);
    free(list[j]);
    run_path(sub, passed, failed);
  }
  free(list);
}


int main(int argc, char** argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int passed = 0, failed = 0;
  for (int i = 1; i < argc; i++) {
    run_path(argv[i], &passed, &failed);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
