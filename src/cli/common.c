// SPDX-License-Identifier: MIT
// Argument parsing, deck loading and error reporting shared by the subcommands.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

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


static int usage_error(const char* cmd, const char* what, const char* arg) {
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
        return usage_error(cmd, "more than one deck given:", s);
      }
      a->deck = s;
    } else if (!strcmp(s, "--")) {
      only_operands = 1;
    } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      a->help = 1;
    } else if (!strcmp(s, "--set") || !strcmp(s, "-s")) {
      if (i + 1 >= argc) {
        return usage_error(cmd, "missing KEY=VALUE after", s);
      }
      a->set[a->nset++] = argv[++i];
    } else if (!strncmp(s, "--set=", 6)) {
      a->set[a->nset++] = s + 6;
    } else if (allow_output && (!strcmp(s, "-o") || !strcmp(s, "--output"))) {
      if (i + 1 >= argc) {
        return usage_error(cmd, "missing directory after", s);
      }
      a->outdir = argv[++i];
    } else if (allow_output && !strncmp(s, "--output=", 9)) {
      a->outdir = s + 9;
    } else if (allow_output && (!strcmp(s, "--checkpoint") || !strcmp(s, "--resume"))) {
      if (i + 1 >= argc || !*argv[i + 1]) {
        return usage_error(cmd, "missing file after", s);
      }
      *(s[2] == 'c' ? &a->checkpoint : &a->resume) = argv[++i];
    } else {
      return usage_error(cmd, "unknown option", s);
    }
  }
  if (a->outdir && !*a->outdir) {
    return usage_error(cmd, "empty output directory", NULL);
  }
  if (!a->deck && !a->help) {
    return usage_error(cmd, "missing the deck file", NULL);
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


int cli_fail(const rdContext* ctx, int status, int running) {
  const char* msg = ctx ? rd_lastError(ctx) : "";
  if (!msg || !*msg) {
    msg = rd_statusString(status);
  }
  fprintf(stderr, "rodrigues: %s\n", msg);
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


int cli_openSession(const cliDeckArgs* a, cliSession* s) {
  memset(s, 0, sizeof(*s));
  int st = rd_createContext(&s->ctx, NULL);
  if (st != RD_OK) {
    return cli_fail(NULL, st, 0);
  }
  rd_setWarningHandler(s->ctx, cli_warning, NULL);
  rdSpec* spec = NULL;
  st = rd_readDeck(s->ctx, a->deck, a->set, a->nset, &spec);
  if (st == RD_OK) {
    st = rd_compile(spec, &s->model);
  }
  rd_destroySpec(&spec);
  if (st == RD_OK) {
    st = rd_createData(s->model, &s->data);
  }
  return st == RD_OK ? CLI_OK : cli_fail(s->ctx, st, 0);
}


void cli_closeSession(cliSession* s) {
  rd_destroyData(&s->data);
  rd_destroyModel(&s->model);
  rd_destroyContext(&s->ctx);
}
