// vmgate.so: an LD_PRELOAD gate for the VM's fault tests. It holds a program inside one chosen
// open(2) of one path, so the test can change the world (unplug the device) between the
// program's enumeration of the node and its open of it: a race made reproducible. It mocks
// nothing: once the gate opens, the real open(2) runs against the real kernel.
//
//   VMGATE_PATH=/dev/input/event1  the path to gate
//   VMGATE_NTH=2                   which open of it (1 = the first)
//   VMGATE_READY=/tmp/gate.ready   created when the program is held at the gate
//   VMGATE_GO=/tmp/gate.go         the gate opens when this file exists (gives up after 30 s)
//
// Build: gcc -O2 -shared -fPIC -o vmgate.so vmgate.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int seen;

static void gate(const char *path) {
    const char *want = getenv("VMGATE_PATH");
    if (!want || !path || strcmp(want, path) != 0) return;
    const char *nth = getenv("VMGATE_NTH");
    if (++seen != (nth ? atoi(nth) : 1)) return;
    const char *ready = getenv("VMGATE_READY"), *go = getenv("VMGATE_GO");
    if (ready) { int fd = creat(ready, 0644); if (fd >= 0) close(fd); }
    for (int i = 0; go && i < 3000 && access(go, F_OK) != 0; i++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

#define FORWARD(name, ...) \
    static int (*real)(const char *, int, ...); \
    if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name); \
    gate(path); \
    return real(__VA_ARGS__);

static mode_t mode_of(int flags, va_list ap) { return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0; }

int open(const char *path, int flags, ...) { va_list ap; va_start(ap, flags); mode_t m = mode_of(flags, ap); va_end(ap); FORWARD("open", path, flags, m) }
int open64(const char *path, int flags, ...) { va_list ap; va_start(ap, flags); mode_t m = mode_of(flags, ap); va_end(ap); FORWARD("open64", path, flags, m) }
int __open_2(const char *path, int flags) { FORWARD("__open_2", path, flags) }
int __open64_2(const char *path, int flags) { FORWARD("__open64_2", path, flags) }
