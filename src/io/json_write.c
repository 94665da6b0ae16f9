// SPDX-License-Identifier: MIT
// JSON values written with stdio: numbers (null when not finite) and escaped strings.
#include <math.h>
#include <stdio.h>

#include "src/io/json_write.h"

// a number, or null when it is not finite (JSON has no NaN or infinity)
void rd_jsonNumber(FILE* f, double x) {
  if (isfinite(x)) {
    fprintf(f, "%.17g", x);
  } else {
    fputs("null", f);
  }
}


// length of the valid UTF-8 sequence at s, or 0 if it is not valid (overlong, surrogate,
// beyond U+10FFFF, truncated)
static int utf8_length(const unsigned char* s) {
  unsigned c = s[0];
  int n;
  unsigned cp;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) {
      return 0;
    }
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff)) {
    return 0;
  }
  return n;
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
      int n = utf8_length(s);
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
