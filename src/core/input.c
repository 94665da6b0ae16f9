// SPDX-License-Identifier: MIT
// Bounded reading of input files and the check of their encoding.
#include "src/core/input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/core.h"

int rd_readInput(rdContext* ctx, const char* path, size_t limit, int is_text, char** text,
                 size_t* len, int* too_large) {
  *text = NULL;
  *len = 0;
  *too_large = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return RD_ERROR(ctx, RD_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  }
  struct stat sb;
  if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    close(fd);
    return RD_ERROR(ctx, RD_ERR_IO, "%s: cannot read: %s", path, strerror(EISDIR));
  }
  // a regular file's size sizes the buffer; pipes and devices grow it by doubling
  size_t cap = S_ISREG(sb.st_mode) && sb.st_size >= 0 && (size_t)sb.st_size < limit
                   ? (size_t)sb.st_size + 2
                   : 65536;
  cap = cap < limit + 2 ? cap : limit + 2;
  char* buf = rd_alloc(ctx, cap);
  size_t n = 0;
  int err = 0;
  while (buf) {
    if (n + 1 >= cap) {
      if (n > limit) {
        break;
      }
      size_t grown = 2 * cap < limit + 2 ? 2 * cap : limit + 2;
      char* t = rd_alloc(ctx, grown);
      if (t) {
        memcpy(t, buf, n);
      }
      rd_free(ctx, buf);
      buf = t;
      cap = grown;
      continue;
    }
    ssize_t k = read(fd, buf + n, cap - 1 - n);
    if (k < 0 && errno == EINTR) {
      continue;
    }
    if (k < 0) {
      err = errno;
      break;
    }
    if (k == 0) {
      break;
    }
    n += (size_t)k;
    if (is_text && memchr(buf + n - (size_t)k, 0, (size_t)k)) {
      break;  // text with a NUL byte is refused anyway: /dev/zero ends here
    }
  }
  close(fd);
  if (!buf) {
    return RD_ERR_NOMEM;
  }
  if (err) {
    rd_free(ctx, buf);
    return RD_ERROR(ctx, RD_ERR_IO, "%s: cannot read: %s", path, strerror(err));
  }
  if (n > limit) {
    rd_free(ctx, buf);
    *too_large = 1;
    return RD_OK;
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return RD_OK;
}


int rd_utf8Length(const unsigned char* s) {
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


// the code point of a valid sequence of n bytes
static unsigned code_point(const unsigned char* s, int n) {
  unsigned cp = s[0] & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
  for (int i = 1; i < n; i++) {
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  return cp;
}


size_t rd_textCheck(const char* text, size_t len, int* line, int* col, const char** what) {
  const unsigned char* s = (const unsigned char*)text;
  int ln = 1, cl = 1;
  const char* why = NULL;
  size_t i = 0;
  while (i < len) {
    unsigned c = s[i];
    int n = 1;
    if (c == 0) {
      why = "a NUL byte (not a text file)";
    } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      why = "a control character";
    } else if (c == 0x7f) {
      why = "a control character (DEL)";
    } else if (c >= 0x80) {
      // at most four bytes, zero-padded: a truncated sequence is invalid, nothing read past len
      unsigned char seq[5] = {0, 0, 0, 0, 0};
      memcpy(seq, s + i, len - i < 4 ? len - i : 4);
      n = rd_utf8Length(seq);
      if (!n) {
        why = "not UTF-8";
      } else {
        unsigned cp = code_point(s + i, n);
        if ((cp >= 0x80 && cp < 0xa0 && cp != 0x85) || cp == 0xfffe || cp == 0xffff) {
          why = "a character YAML does not allow";
        }
      }
    }
    if (why) {
      break;
    }
    if (c == '\n') {
      ln++;
      cl = 1;
    } else {
      cl++;
    }
    i += (size_t)n;
  }
  if (line) {
    *line = ln;
  }
  if (col) {
    *col = cl;
  }
  if (what) {
    *what = why;
  }
  return why ? i : len;
}
