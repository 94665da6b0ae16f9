// SPDX-License-Identifier: MIT
// The results directory of `rodrigues run`: a lock against a second run, the run's own
// DIR/incomplete/ where it writes, and the publication of a successful run's files into DIR.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

// the lock file's name in DIR
#define LOCK_NAME ".rodrigues.lock"

// outputs of a run besides history.csv and summary.json, in the order they are published (the
// frames before the index that lists them)
static const char* const outputs[] = {"vtk", "results.pvd", "history.nc"};
#define NOUTPUT 3


int cli_lockDir(const char* dir, int* fd) {
  char* path = cli_join(dir, LOCK_NAME);
  if (!path) {
    cli_error("out of memory");
    return -1;
  }
  *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (*fd < 0) {
    cli_error("cannot create '%s': %s", path, strerror(errno));
    free(path);
    return -1;
  }
  // a POSIX record lock: the kernel drops it when the process ends, however it ends
  struct flock fl;
  memset(&fl, 0, sizeof(fl));
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  if (fcntl(*fd, F_SETLK, &fl) != 0) {
    int err = errno;
    struct flock who = fl;
    long pid = fcntl(*fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK ? (long)who.l_pid : 0;
    if (err == EACCES || err == EAGAIN) {
      cli_error("'%s' is being written by another run (process %ld)", dir, pid);
    } else {
      cli_error("cannot lock '%s': %s", path, strerror(err));
    }
    close(*fd);
    *fd = -1;
    free(path);
    return -1;
  }
  free(path);
  // the holder's process id, for people looking (the lock itself is what counts)
  char pid[32];
  int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
  if (ftruncate(*fd, 0) != 0 || write(*fd, pid, (size_t)n) != n) {
    // not fatal: the lock is held
  }
  return 0;
}


int cli_removeTree(const char* path) {
  struct stat sb;
  if (lstat(path, &sb) != 0) {
    return errno == ENOENT ? 0 : -1;
  }
  if (!S_ISDIR(sb.st_mode)) {
    return remove(path);
  }
  DIR* d = opendir(path);
  if (!d) {
    return -1;
  }
  struct dirent* e;
  int st = 0;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) {
      continue;
    }
    char* sub = cli_join(path, e->d_name);
    st |= sub ? cli_removeTree(sub) : -1;
    free(sub);
  }
  closedir(d);
  return rmdir(path) == 0 ? st : -1;
}


int cli_makeStaging(const char* staging, int keep_history) {
  if (!keep_history) {
    if (cli_removeTree(staging) != 0) {
      fprintf(stderr, "rodrigues: cannot remove the earlier '%s': %s\n", staging, strerror(errno));
      return -1;
    }
  } else {
    // the history is continued; what cannot be continued starts again
    for (int k = 0; k < NOUTPUT; k++) {
      char* p = cli_join(staging, outputs[k]);
      if (!p || cli_removeTree(p) != 0) {
        fprintf(stderr, "rodrigues: cannot remove '%s': %s\n", p ? p : outputs[k], strerror(errno));
        free(p);
        return -1;
      }
      free(p);
    }
  }
  if (mkdir(staging, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "rodrigues: cannot create directory '%s': %s\n", staging, strerror(errno));
    return -1;
  }
  return 0;
}


// rename staging/name to dir/name (replacing it); a directory in the way goes aside first
static int publish_one(const char* dir, const char* staging, const char* name) {
  char* from = cli_join(staging, name);
  char* to = cli_join(dir, name);
  char* aside = cli_join(staging, "replaced");
  int st = from && to && aside ? 0 : -1;
  struct stat sb;
  if (st == 0 && lstat(to, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    st = cli_removeTree(aside) == 0 && rename(to, aside) == 0 ? 0 : -1;
  }
  if (st == 0 && lstat(from, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    st = rename(from, to);
  } else if (st == 0 && lstat(from, &sb) == 0) {
    // a file is linked into DIR and stays in the run's directory until all are published: a
    // run killed in between is resumed from there and publishes again
    char* tmp = cli_join(dir, ".rodrigues.publish");
    st = tmp ? 0 : -1;
    if (st == 0) {
      remove(tmp);
      st = link(from, tmp) == 0 ? rename(tmp, to) : rename(from, to);
    }
    free(tmp);
  } else if (st == 0) {
    // this run made no such output: the earlier run's goes, so that DIR is one run's set
    st = cli_removeTree(to);
  }
  if (st != 0) {
    fprintf(stderr, "rodrigues: cannot move '%s' to '%s': %s\n", from ? from : name, to ? to : dir,
            strerror(errno));
  }
  free(from);
  free(to);
  free(aside);
  return st;
}


int cli_publish(const char* dir, const char* staging) {
  for (int k = 0; k < NOUTPUT; k++) {
    if (publish_one(dir, staging, outputs[k]) != 0) {
      return -1;
    }
  }
  // summary.json last: it says the set is complete
  if (publish_one(dir, staging, "history.csv") != 0 ||
      publish_one(dir, staging, "summary.json") != 0) {
    return -1;
  }
  // make the renames durable, then the rest of the run's directory goes
  int fd = open(dir, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    (void)fsync(fd);
    close(fd);
  }
  if (cli_removeTree(staging) != 0) {
    fprintf(stderr, "rodrigues: warning: cannot remove '%s': %s\n", staging, strerror(errno));
  }
  return 0;
}
