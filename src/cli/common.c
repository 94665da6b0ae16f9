// SPDX-License-Identifier: MIT
// Argument parsing, deck loading and error reporting shared by the subcommands.
#include <errno.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

void cli_tuneMalloc(void) {
#if defined(M_MXFAST)
  mallopt(M_MXFAST, 0);
#endif
}


double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


char* cli_join(const char* dir, const char* name) {
  size_t n = strlen(dir);
  char* p = malloc(n + strlen(name) + 2);
  if (p) {
    sprintf(p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
  }
  return p;
}


int cli_usageError(const char* cmd, const char* what, const char* arg) {
  fprintf(stderr, "rodrigues %s: %s%s%s%s\n", cmd, what, arg ? " '" : "", arg ? arg : "",
          arg ? "'" : "");
  fprintf(stderr, "Try 'rodrigues %s --help'.\n", cmd);
  return CLI_USAGE;
}


int cli_parseDeckArgs(int argc, char** argv, int allow_output, cliDeckArgs* a) {
  memset(a, 0, sizeof(*a));
  const char* cmd = argv[0];
  a->set = malloc((size_t)(argc > 0 ? argc : 1) * sizeof(*a->set));
  if (!a->set) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  int only_operands = 0;
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    if (only_operands || s[0] != '-' || !s[1]) {
      if (a->deck) {
        return cli_usageError(cmd, "more than one deck given:", s);
      }
      a->deck = s;
    } else if (!strcmp(s, "--")) {
      only_operands = 1;
    } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      a->help = 1;
    } else if (!strcmp(s, "--set") || !strcmp(s, "-s")) {
      if (i + 1 >= argc) {
        return cli_usageError(cmd, "missing KEY=VALUE after", s);
      }
      a->set[a->nset++] = argv[++i];
    } else if (!strncmp(s, "--set=", 6)) {
      a->set[a->nset++] = s + 6;
    } else if (allow_output && (!strcmp(s, "-o") || !strcmp(s, "--output"))) {
      if (i + 1 >= argc) {
        return cli_usageError(cmd, "missing directory after", s);
      }
      a->outdir = argv[++i];
    } else if (allow_output && !strncmp(s, "--output=", 9)) {
      a->outdir = s + 9;
    } else if (allow_output && (!strcmp(s, "--checkpoint") || !strcmp(s, "--resume"))) {
      if (i + 1 >= argc || !*argv[i + 1]) {
        return cli_usageError(cmd, "missing file after", s);
      }
      *(s[2] == 'c' ? &a->checkpoint : &a->resume) = argv[++i];
    } else if (allow_output && !strcmp(s, "--checkpoint-every")) {
      if (i + 1 >= argc || !*argv[i + 1]) {
        return cli_usageError(cmd, "missing interval after", s);
      }
      a->every = argv[++i];
    } else if (allow_output && !strcmp(s, "--resume-changed")) {
      a->resume_changed = 1;
    } else {
      return cli_usageError(cmd, "unknown option", s);
    }
  }
  if (a->outdir && !*a->outdir) {
    return cli_usageError(cmd, "empty output directory", NULL);
  }
  if (!a->deck && !a->help) {
    return cli_usageError(cmd, "missing the deck file", NULL);
  }
  if (a->every && !a->checkpoint) {
    return cli_usageError(cmd, "--checkpoint-every needs --checkpoint FILE", NULL);
  }
  if (a->resume_changed && !a->resume) {
    return cli_usageError(cmd, "--resume-changed needs --resume FILE", NULL);
  }
  return CLI_OK;
}


void cli_freeDeckArgs(cliDeckArgs* a) {
  free((void*)a->set);
  a->set = NULL;
  a->nset = 0;
}


int cli_exitCode(int status, int running) {
  switch (status) {
    case RD_OK:
      return CLI_OK;
    case RD_ERR_DECK:
    case RD_ERR_MODEL:
    case RD_ERR_UNSUPPORTED:
      return CLI_DECK;
    case RD_ERR_ARG:
      // before the run an invalid argument can only come from the deck or a --set
      return running ? CLI_OTHER : CLI_DECK;
    case RD_ERR_NUMERIC:
    case RD_ERR_CALLBACK:
      return CLI_NUMERIC;
    case RD_ERR_IO:
      return CLI_IO;
    default:
      // > 0: a recoverable failure that could not be recovered
      return status > 0 ? CLI_NUMERIC : CLI_OTHER;
  }
}


// where cli_error keeps its messages while they are captured
static char* capture_buf = NULL;
static size_t capture_size = 0;


void cli_captureErrors(char* buf, size_t size) {
  capture_buf = buf && size ? buf : NULL;
  capture_size = capture_buf ? size : 0;
  if (capture_buf) {
    capture_buf[0] = '\0';
  }
}


void cli_error(const char* fmt, ...) {
  char msg[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (!capture_buf) {
    fprintf(stderr, "rodrigues: %s\n", msg);
  } else if (!capture_buf[0]) {
    snprintf(capture_buf, capture_size, "%s", msg);
  }
}


int cli_fail(const rdContext* ctx, int status, int running) {
  const char* msg = ctx ? rd_lastError(ctx) : "";
  if (!msg || !*msg) {
    msg = rd_statusString(status);
  }
  cli_error("%s", msg);
  return cli_exitCode(status, running);
}


void cli_warning(const char* message, void* user) {
  // a command that reads the deck once per run (converge) warns once in all
  static char last[1024];
  (void)user;
  if (strncmp(message, last, sizeof(last) - 1)) {
    fprintf(stderr, "rodrigues: warning: %s\n", message);
    snprintf(last, sizeof(last), "%s", message);
  }
}


int cli_loadModel(const char* deck, const char* const* set, int nset, cliSession* s) {
  memset(s, 0, sizeof(*s));
  int st = rd_createContext(&s->ctx, NULL);
  if (st != RD_OK) {
    return cli_fail(NULL, st, 0);
  }
  rd_setWarningHandler(s->ctx, cli_warning, NULL);
  rdSpec* spec = NULL;
  st = rd_readDeck(s->ctx, deck, set, nset, &spec);
  if (st == RD_OK) {
    st = rd_compile(spec, &s->model);
  }
  rd_destroySpec(&spec);
  return st == RD_OK ? CLI_OK : cli_fail(s->ctx, st, 0);
}


int cli_openSession(const cliDeckArgs* a, cliSession* s) {
  int code = cli_loadModel(a->deck, a->set, a->nset, s);
  if (code != CLI_OK) {
    return code;
  }
  int st = rd_createData(s->model, &s->data);
  return st == RD_OK ? CLI_OK : cli_fail(s->ctx, st, 0);
}


void cli_closeSession(cliSession* s) {
  rd_destroyData(&s->data);
  rd_destroyModel(&s->model);
  rd_destroyContext(&s->ctx);
}


int cli_startDeckCommand(int argc, char** argv, int allow_output, const char* usage,
                         cliDeckArgs* args, cliSession* s) {
  memset(s, 0, sizeof(*s));
  int code = cli_parseDeckArgs(argc, argv, allow_output, args);
  if (code == CLI_OK && args->help) {
    fputs(usage, stdout);
    return CLI_OK;
  }
  return code == CLI_OK ? cli_openSession(args, s) : code;
}


void cli_endDeckCommand(cliDeckArgs* args, cliSession* s) {
  cli_closeSession(s);
  cli_freeDeckArgs(args);
}


int cli_makeDirs(char* path, size_t* created) {
  size_t ignored;
  created = created ? created : &ignored;
  *created = 0;
  size_t n = strlen(path);
  for (size_t i = 1; i <= n; i++) {
    if ((path[i] != '/' && path[i] != '\0') || path[i - 1] == '/') {
      continue;
    }
    char c = path[i];
    path[i] = '\0';
    if (mkdir(path, 0777) == 0) {
      if (!*created) {
        *created = i;
      }
    } else if (errno != EEXIST) {
      cli_error("cannot create directory '%s': %s", path, strerror(errno));
      path[i] = c;
      return -1;
    }
    path[i] = c;
  }
  struct stat sb;
  int err = stat(path, &sb) != 0 ? errno : !S_ISDIR(sb.st_mode) ? ENOTDIR : 0;
  if (err) {
    cli_error("cannot create directory '%s': %s", path, strerror(err));
    return -1;
  }
  return 0;
}


void cli_removeDirs(char* path, size_t created) {
  if (!created) {
    return;
  }
  size_t n = strlen(path);
  while (n >= created && rmdir(path) == 0) {
    while (n > 0 && path[n - 1] != '/') {
      n--;
    }
    while (n > 0 && path[n - 1] == '/') {
      n--;
    }
    path[n] = '\0';
  }
}


char* cli_outputDir(const char* deck, const char* dir, const char* prefix) {
  char* out;
  if (dir) {
    out = malloc(strlen(dir) + 1);
    if (out) {
      strcpy(out, dir);
      size_t n = strlen(out);
      while (n > 1 && out[n - 1] == '/') {
        out[--n] = '\0';
      }
    }
    return out;
  }
  const char* base = strrchr(deck, '/');
  base = base ? base + 1 : deck;
  size_t n = strlen(base);
  if (n > 5 && !strcmp(base + n - 5, ".yaml")) {
    n -= 5;
  } else if (n > 4 && !strcmp(base + n - 4, ".yml")) {
    n -= 4;
  }
  out = malloc(strlen("out/") + strlen(prefix) + n + 1);
  if (out) {
    sprintf(out, "out/%s%.*s", prefix, (int)n, base);
  }
  return out;
}


int cli_parseInterval(const char* cmd, const char* text, double* every, int* wall) {
  char* end = NULL;
  double x = strtod(text, &end);
  double unit = 0;
  if (end && end != text) {
    unit = !*end                                      ? 1
           : !strcmp(end, "s")                        ? 1
           : !strcmp(end, "min") || !strcmp(end, "m") ? 60
           : !strcmp(end, "h")                        ? 3600
                                                      : 0;
  }
  if (!(unit > 0) || !(x > 0) || !isfinite(x)) {
    return cli_usageError(cmd,
                          "--checkpoint-every takes a positive time, 0.5 (simulated) or "
                          "30s, 5min, 2h (wall clock), not",
                          text);
  }
  *every = x * unit;
  *wall = *end != '\0';
  return CLI_OK;
}
