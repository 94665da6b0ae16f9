// SPDX-License-Identifier: MIT
// JSON values written with stdio: numbers (null when not finite) and escaped strings.
#include <math.h>
#include <stdio.h>

#include "src/io/json_write.h"

#include "src/core/input.h"

// a number, or null when it is not finite (JSON has no NaN or infinity)
void rd_jsonNumber(FILE* f, double x) {
  if (isfinite(x)) {
    fprintf(f, "%.17g", x);
  } else {
    fputs("null", f);
  }
}


// a JSON string: quotes, backslashes and control characters escaped; bytes that are not valid
// UTF-8 become U+FFFD so that the file always parses
void rd_jsonString(FILE* f, const char* str) {
  const unsigned char* s = (const unsigned char*)str;
  fputc('"', f);
  while (*s) {
    unsigned c = *s;
    if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc((int)c, f);
      s++;
    } else if (c == '\n') {
      fputs("\\n", f);
      s++;
    } else if (c == '\t') {
      fputs("\\t", f);
      s++;
    } else if (c == '\r') {
      fputs("\\r", f);
      s++;
    } else if (c < 0x20 || c == 0x7f) {
      fprintf(f, "\\u%04x", c);
      s++;
    } else if (c < 0x80) {
      fputc((int)c, f);
      s++;
    } else {
      int n = rd_utf8Length(s);
      if (n) {
        fwrite(s, 1, (size_t)n, f);
        s += n;
      } else {
        fputs("\\ufffd", f);
        s++;
      }
    }
  }
  fputc('"', f);
}


void rd_jsonKey(FILE* f, int indent, const char* key) {
  fprintf(f, "%*s", indent, "");
  rd_jsonString(f, key);
  fputs(": ", f);
}
