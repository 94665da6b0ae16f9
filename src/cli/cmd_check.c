// SPDX-License-Identifier: MIT
// rodrigues check: read and compile a deck, create its data, print a summary of the model.
#include <stdio.h>

#include "cli.h"

static const char usage[] =
    "usage: rodrigues check DECK [--set KEY=VALUE]...\n"
    "\n"
    "Read DECK, compile it and create the simulation data, so that syntax errors, invalid\n"
    "values and methods that cannot handle the model are all reported, then print a\n"
    "one-screen summary of the model. Nothing is integrated and no file is written.\n"
    "\n"
    "  -s, --set KEY=VALUE  override a deck value before it is read (repeatable)\n"
    "  -h, --help           show this help\n";

int cmd_check(int argc, char** argv) {
  cliDeckArgs args;
  cliSession s;
  int code = cli_startDeckCommand(argc, argv, 0, usage, &args, &s);
  if (code == CLI_OK && !args.help) {
    int st = rd_checkModel(s.model);
    if (st != RD_OK) {
      code = cli_fail(s.ctx, st, 0);
    } else {
      printf("%s: ok\n", args.deck);
      rd_printModel(s.model, stdout);
    }
  }
  cli_endDeckCommand(&args, &s);
  return code;
}
