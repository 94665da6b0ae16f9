// SPDX-License-Identifier: MIT
// Atomic file replacement shared by the history, summary, checkpoint and VTK writers.
#include "src/core/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
  // a name of its own beside the target (two writers of one file never share it)
  size_t size = strlen(path) + sizeof(".XXXXXX") + 1;
  char* name = rd_alloc(ctx, size);
  if (!name) {
    return NULL;
  }
  memcpy(name, path, dirlen);
  snprintf(name + dirlen, size - dirlen, ".%s.XXXXXX", base);
  int fd = mkstemp(name);
  FILE* f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!f) {
    int err = errno;
    if (fd >= 0) {
      close(fd);
      remove(name);
    }
    // the target's name in the message: the temporary one means nothing to the reader
    RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': %s", path, strerror(err));
    rd_free(ctx, name);
    return NULL;
  }
  // mkstemp makes the file 0600; results are as readable as any file the user creates
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
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
