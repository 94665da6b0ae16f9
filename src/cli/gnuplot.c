// SPDX-License-Identifier: MIT
// What the figures of the commands share: gnuplot strings, line colours, running gnuplot.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

void cli_gnuplotQuoted(FILE* f, const char* s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'') {
      fputc('\'', f);
    }
    fputc(*s, f);
  }
  fputc('\'', f);
}


// line colours, distinct enough for a dozen lines
static const char* const colors[] = {"#000000", "#e41a1c", "#377eb8", "#4daf4a",
                                     "#984ea3", "#ff7f00", "#a65628", "#f781bf",
                                     "#17becf", "#999999", "#bcbd22", "#1f3a93"};
#define NCOLOR ((int)(sizeof(colors) / sizeof(colors[0])))


const char* cli_plotColor(int k) {
  return colors[(k % NCOLOR + NCOLOR) % NCOLOR];
}


// 1 if `prog` is an executable file in a directory of PATH
static int in_path(const char* prog) {
  const char* path = getenv("PATH");
  if (!path) {
    path = "/usr/bin:/bin";
  }
  char buf[4096];
  while (*path) {
    size_t n = strcspn(path, ":");
    if (n > 0 && n + strlen(prog) + 2 < sizeof(buf)) {
      snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
      if (access(buf, X_OK) == 0) {
        return 1;
      }
    }
    path += n + (path[n] == ':');
  }
  return 0;
}


int cli_runGnuplot(const char* script, const char* cmd) {
  if (!in_path("gnuplot")) {
    fprintf(stderr, "rodrigues %s: gnuplot not found in PATH: no plots drawn (the script is %s)\n",
            cmd, script);
    return 1;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "rodrigues %s: cannot start gnuplot: %s\n", cmd, strerror(errno));
    return -1;
  }
  if (pid == 0) {
    char* args[] = {"gnuplot", (char*)script, NULL};
    execvp("gnuplot", args);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "rodrigues %s: gnuplot failed on %s\n", cmd, script);
    return -1;
  }
  return 0;
}
