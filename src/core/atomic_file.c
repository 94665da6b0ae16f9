// SPDX-License-Identifier: MIT
// Atomic file replacement shared by the history, summary and checkpoint writers.
#include "src/core/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "src/core/core.h"

FILE* rd_atomicOpen(rdContext* ctx, const char* path, char** tmp) {
  *tmp = NULL;
  const char* slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  const char* base = path + dirlen;
  if (!*base) {
    RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': it names a directory", path);
    return NULL;
  }
  size_t size = strlen(path) + sizeof("..partial");
  char* name = rd_alloc(ctx, size);
  if (!name) {
    return NULL;
  }
  memcpy(name, path, dirlen);
  snprintf(name + dirlen, size - dirlen, ".%s.partial", base);
  FILE* f = fopen(name, "wb");
  if (!f) {
    RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': %s", name, strerror(errno));
    rd_free(ctx, name);
    return NULL;
  }
  *tmp = name;
  return f;
}


// make the directory entry of a renamed file durable; best effort
static void sync_dir(const char* path) {
  const char* slash = strrchr(path, '/');
  char dir[4096];
  size_t n = slash ? (size_t)(slash - path) : 0;
  if (n >= sizeof(dir)) {
    return;
  }
  memcpy(dir, slash ? path : ".", slash ? n : 1);
  dir[slash ? (n ? n : 1) : 1] = '\0';
  if (slash && n == 0) {
    dir[0] = '/';
  }
  int fd = open(dir, O_RDONLY);
  if (fd >= 0) {
    (void)fsync(fd);
    close(fd);
  }
}


int rd_atomicCommit(rdContext* ctx, FILE* f, const char* tmp, const char* path, int failed) {
  int err = 0;
  errno = 0;
  if (failed || fflush(f) != 0 || ferror(f)) {
    err = errno ? errno : EIO;
  } else if (fsync(fileno(f)) != 0) {
    err = errno;
  }
  if (fclose(f) != 0 && !err) {
    err = errno ? errno : EIO;
  }
  if (err) {
    remove(tmp);
    return RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': %s", tmp, strerror(err));
  }
  if (rename(tmp, path) != 0) {
    err = errno;
    remove(tmp);
    return RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': %s", path, strerror(err));
  }
  sync_dir(path);
  return RD_OK;
}


int rd_atomicAbort(rdContext* ctx, FILE* f, const char* tmp) {
  if (f) {
    fclose(f);
  }
  if (remove(tmp) != 0 && errno != ENOENT) {
    return RD_ERROR(ctx, RD_ERR_IO, "cannot remove '%s': %s", tmp, strerror(errno));
  }
  return RD_OK;
}
