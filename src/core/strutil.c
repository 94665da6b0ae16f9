// SPDX-License-Identifier: MIT
// Small text helpers: edit distance for did-you-mean hints, strict number parsing.
#include "src/core/strutil.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rd_editDistance(const char* a, const char* b) {
  enum { CAP = 64 };
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (la > CAP || lb > CAP) {
    return CAP;
  }
  int row[CAP + 1];
  for (int j = 0; j <= lb; j++) {
    row[j] = j;
  }
  for (int i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = i;
    for (int j = 1; j <= lb; j++) {
      int up = row[j];
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int best = diag + cost;
      if (row[j] + 1 < best) {
        best = row[j] + 1;
      }
      if (row[j - 1] + 1 < best) {
        best = row[j - 1] + 1;
      }
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}


const char* rd_closestName(const char* s, const char* const* list, int n) {
  const char* best = NULL;
  int bestd = 1 << 20;
  for (int i = 0; i < n; i++) {
    int d = rd_editDistance(s, list[i]);
    if (d < bestd) {
      bestd = d;
      best = list[i];
    }
  }
  int len = (int)strlen(s);
  if (best && (bestd <= 2 || bestd * 3 <= len)) {
    return best;
  }
  return NULL;
}


int rd_isDecimal(const char* s) {
  while (*s == ' ' || *s == '\t') {
    s++;
  }
  s += *s == '+' || *s == '-';
  int digits = 0;
  for (; isdigit((unsigned char)*s); s++) {
    digits++;
  }
  if (*s == '.') {
    for (s++; isdigit((unsigned char)*s); s++) {
      digits++;
    }
  }
  if (!digits) {
    return 0;
  }
  if (*s == 'e' || *s == 'E') {
    s++;
    s += *s == '+' || *s == '-';
    if (!isdigit((unsigned char)*s)) {
      return 0;
    }
    while (isdigit((unsigned char)*s)) {
      s++;
    }
  }
  while (*s == ' ' || *s == '\t') {
    s++;
  }
  return *s == '\0';
}


int rd_parseReal(const char* s, double* out) {
  if (!s || !*s || !rd_isDecimal(s)) {
    return -1;
  }
  char* end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  while (end && (*end == ' ' || *end == '\t')) {
    end++;
  }
  if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    return -1;
  }
  *out = v;
  return 0;
}


int rd_parseInt(const char* s, int* out) {
  if (!s || !*s) {
    return -1;
  }
  char* end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < INT_MIN || v > INT_MAX) {
    return -1;
  }
  *out = (int)v;
  return 0;
}


int rd_pathBeside(char* out, int size, const char* base, const char* rel) {
  const char* slash = strrchr(base, '/');
  int dir = (rel[0] == '/' || !slash) ? 0 : (int)(slash - base) + 1;
  int n = snprintf(out, (size_t)size, "%.*s%s", dir, base, rel);
  return n < 0 || n >= size ? -1 : 0;
}
