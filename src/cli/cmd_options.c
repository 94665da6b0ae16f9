// SPDX-License-Identifier: MIT
// rodrigues options: list every solver and output option with its type, default and help.
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: rodrigues options\n"
    "\n"
    "List every option with its type, default and a one-line help. Set them in the deck\n"
    "('solver:' and 'output:' sections) or on the command line with --set KEY=VALUE.\n";

int cmd_options(int argc, char** argv) {
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    fputs(usage, stdout);
    return CLI_OK;
  }
  if (argc > 1) {
    fprintf(stderr, "rodrigues options: unexpected argument '%s'\n", argv[1]);
    fprintf(stderr, "Try 'rodrigues options --help'.\n");
    return CLI_USAGE;
  }
  int n = rd_optionList(0, NULL, NULL, NULL, NULL);
  int wkey = (int)strlen("KEY"), wtype = (int)strlen("TYPE"), wdef = (int)strlen("DEFAULT");
  for (int i = 0; i < n; i++) {
    const char *key = "", *type = "", *def = "";
    rd_optionList(i, &key, &type, &def, NULL);
    wkey = (int)strlen(key) > wkey ? (int)strlen(key) : wkey;
    wtype = (int)strlen(type) > wtype ? (int)strlen(type) : wtype;
    wdef = (int)strlen(def) > wdef ? (int)strlen(def) : wdef;
  }
  printf("%-*s  %-*s  %-*s  %s\n", wkey, "KEY", wtype, "TYPE", wdef, "DEFAULT", "HELP");
  for (int i = 0; i < n; i++) {
    const char *key = "", *type = "", *def = "", *help = "";
    rd_optionList(i, &key, &type, &def, &help);
    printf("%-*s  %-*s  %-*s  %s\n", wkey, key, wtype, type, wdef, def, help ? help : "");
  }
  printf("\nsolver.method values:");
  for (int k = 0; rd_methodName(k); k++) {
    printf(" %s", rd_methodName(k));
  }
  printf("\n");
  return CLI_OK;
}
