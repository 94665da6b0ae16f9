// SPDX-License-Identifier: MIT
// The rodrigues program: dispatch to the subcommands, --help and --version.
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int cmd_help(int argc, char** argv);

// the subcommands; a new one is one line here, its cmd_*.c file and its prototype in cli.h
static const cliCommand commands[] = {
    {"run", cmd_run, "DECK [-o DIR] [--set KEY=VALUE]...",
     "integrate DECK, write DIR/history.csv and DIR/summary.json"},
    {"check", cmd_check, "DECK [--set KEY=VALUE]...",
     "read and compile DECK, print a summary of the model"},
    {"converge", cmd_converge, "DECK --methods LIST --dt LIST [--reference REF] [-o DIR]...",
     "errors and observed orders of methods x time steps against a reference, with plots"},
    {"sweep", cmd_sweep, "SWEEP.yaml [-o DIR] [--jobs K] [--retry-failed] [--case ID]...",
     "run the cases of a sweep file, collect their quantities in DIR/sweep.csv and .nc"},
    {"modes", cmd_modes, "DECK [-o DIR] [--count N] [--at initial|static|t=T] [--spin-rpm R]...",
     "linearize DECK at an operating point, write its modes (CSV, NetCDF, ParaView)"},
    {"campbell", cmd_campbell, "DECK --speeds FROM:TO:STEP --spin-axis X,Y,Z [-o DIR]...",
     "modes over a range of rotor speeds: the Campbell diagram (CSV, PNG, SVG)"},
    {"import", cmd_import, "beamdyn DRIVER.inp [-o DECK.yaml]",
     "convert a BeamDyn driver (with its primary and blade files) into a deck"},
    {"options", cmd_options, "", "list every option with its type, default and help"},
    {"help", cmd_help, "[COMMAND]", "show this help, or a command's"},
};

#define NCOMMAND ((int)(sizeof(commands) / sizeof(commands[0])))


static const cliCommand* find_command(const char* name) {
  for (int i = 0; i < NCOMMAND; i++) {
    if (!strcmp(commands[i].name, name)) {
      return commands + i;
    }
  }
  return NULL;
}


static void print_help(FILE* out) {
  fprintf(out,
          "usage: rodrigues COMMAND [ARGUMENTS]\n"
          "       rodrigues --help | --version\n"
          "\n"
          "Multibody dynamics of rigid and flexible systems: read a YAML input deck,\n"
          "integrate it in time, write the results.\n"
          "\n"
          "commands:\n");
  for (int i = 0; i < NCOMMAND; i++) {
    fprintf(out, "  %s%s%s\n      %s\n", commands[i].name, *commands[i].args ? " " : "",
            commands[i].args, commands[i].help);
  }
  fprintf(out,
          "\n"
          "options:\n"
          "  -h, --help     show this help ('rodrigues COMMAND --help' for a command's)\n"
          "  -V, --version  print the version\n"
          "\n"
          "exit status:\n"
          "  0  success\n"
          "  1  usage error: unknown command or option, missing argument\n"
          "  2  deck or model error: YAML syntax, unknown key, invalid value (deck or --set),\n"
          "     invalid model, method that cannot handle the model\n"
          "  3  numerical failure: initialization or a step failed (Newton, singular matrix,\n"
          "     non-finite state)\n"
          "  4  input/output error: deck unreadable, results directory or files not writable\n"
          "  5  other error: out of memory, internal error\n"
          "  interrupted (SIGINT, SIGTERM): the run keeps its rows and ends by the signal\n"
          "     (130 or 143 in a shell); a second Ctrl-C ends it at once\n"
          "\n"
          "Errors are printed as 'rodrigues: MESSAGE'; deck errors as\n"
          "'rodrigues: FILE:LINE:COLUMN: MESSAGE'. See docs/cli.md and docs/deck.md.\n");
}


static int cmd_help(int argc, char** argv) {
  if (argc <= 1 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    print_help(stdout);
    return CLI_OK;
  }
  const cliCommand* c = find_command(argv[1]);
  if (argc > 2 || !c) {
    fprintf(stderr, "rodrigues help: %s '%s'\n", argc > 2 ? "unexpected argument" : "no command",
            argc > 2 ? argv[2] : argv[1]);
    fprintf(stderr, "Try 'rodrigues --help'.\n");
    return CLI_USAGE;
  }
  if (c->fn == cmd_help) {
    return cmd_help(1, argv);
  }
  char name[64], flag[] = "--help";
  snprintf(name, sizeof(name), "%s", c->name);
  char* args[] = {name, flag, NULL};
  return c->fn(2, args);
}


int main(int argc, char** argv) {
  cli_tuneMalloc();
  if (argc < 2) {
    print_help(stderr);
    return CLI_USAGE;
  }
  const char* a = argv[1];
  int code;
  const cliCommand* c = find_command(a);
  if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
    print_help(stdout);
    code = CLI_OK;
  } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
    printf("rodrigues %s\n", rd_version());
    code = CLI_OK;
  } else if (c) {
    code = c->fn(argc - 1, argv + 1);
  } else {
    fprintf(stderr, "rodrigues: unknown %s '%s'\n", a[0] == '-' ? "option" : "command", a);
    fprintf(stderr, "Try 'rodrigues --help'.\n");
    return CLI_USAGE;
  }
  // a full disk or a closed pipe on stdout is an error too
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "rodrigues: cannot write to standard output\n");
    return code == CLI_OK ? CLI_IO : code;
  }
  return code;
}
