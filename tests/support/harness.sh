# SPDX-License-Identifier: MIT
# The harness of the shell tests (sourced; the shell twin of tests/test_macros.h):
#   pass                      counts a check that passed
#   fail MESSAGE...           counts a failure and prints "FAIL: MESSAGE"
#   check WHAT COMMAND...     runs COMMAND: a pass if it succeeds, else "FAIL: WHAT"
#   check_quiet WHAT COMMAND...  the same, COMMAND's output shown only when it fails
#   summary                   prints "N passed, M failed"; true if none failed (the exit status)
passed=0
failed=0

pass() {
  passed=$((passed + 1))
}

fail() {
  failed=$((failed + 1))
  echo "FAIL: $*"
}

check() {
  what=$1
  shift
  if "$@"; then pass; else fail "$what"; fi
}

check_quiet() {
  what=$1
  shift
  log=$(mktemp "${TMPDIR:-/tmp}/rd_check.XXXXXX")
  if "$@" >"$log" 2>&1; then
    pass
  else
    fail "$what"
    cat "$log"
  fi
  rm -f "$log"
}

summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
