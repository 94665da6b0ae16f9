// SPDX-License-Identifier: MIT
// rodrigues import: convert another code's input files into a deck (BeamDyn for now).
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: rodrigues import beamdyn DRIVER.inp [-o DECK.yaml]\n"
    "\n"
    "Read an OpenFAST BeamDyn (v5) driver file, the primary input file it names and the\n"
    "blade file the primary names, and write the equivalent deck (standard output without\n"
    "-o). The deck reads back into the same model; see docs/import.md for the frame\n"
    "conversions and what is not supported.\n"
    "\n"
    "  -o, --output DECK  write the deck to DECK (replaced only when complete)\n"
    "  -h, --help         show this help\n";

static int usage_error(const char* what, const char* arg) {
  fprintf(stderr, "rodrigues import: %s%s%s%s\n", what, arg ? " '" : "", arg ? arg : "",
          arg ? "'" : "");
  fprintf(stderr, "Try 'rodrigues import --help'.\n");
  return CLI_USAGE;
}


int cmd_import(int argc, char** argv) {
  const char *format = NULL, *driver = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      fputs(usage, stdout);
      return CLI_OK;
    } else if (!strcmp(s, "-o") || !strcmp(s, "--output")) {
      if (i + 1 >= argc) {
        return usage_error("missing file after", s);
      }
      out = argv[++i];
    } else if (s[0] == '-' && s[1]) {
      return usage_error("unknown option", s);
    } else if (!format) {
      format = s;
    } else if (!driver) {
      driver = s;
    } else {
      return usage_error("unexpected argument", s);
    }
  }
  if (!format || strcmp(format, "beamdyn")) {
    return usage_error(format ? "unknown format (known: beamdyn)" : "missing format", format);
  }
  if (!driver) {
    return usage_error("missing driver file", NULL);
  }
  rdContext* ctx = NULL;
  if (rd_createContext(&ctx, NULL) != RD_OK) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  char tmp[4096];
  FILE* f = stdout;
  if (out) {
    if (snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= (int)sizeof(tmp) || !(f = fopen(tmp, "w"))) {
      fprintf(stderr, "rodrigues: %s: cannot write\n", out);
      rd_destroyContext(&ctx);
      return CLI_IO;
    }
  }
  int st = rd_importBeamDynDeck(ctx, driver, f);
  int code = st == RD_OK ? CLI_OK : cli_fail(ctx, st, 0);
  if (out) {
    if (fclose(f) != 0 && code == CLI_OK) {
      fprintf(stderr, "rodrigues: %s: cannot write\n", out);
      code = CLI_IO;
    }
    if (code == CLI_OK && rename(tmp, out) != 0) {
      fprintf(stderr, "rodrigues: %s: cannot write\n", out);
      code = CLI_IO;
    }
    if (code != CLI_OK) {
      remove(tmp);
    }
  }
  rd_destroyContext(&ctx);
  return code;
}
