#ifndef SWITCHSCAN_CEVDEV_SHIM_H
#define SWITCHSCAN_CEVDEV_SHIM_H
// What Swift cannot import from libevdev and <linux/input.h>: function-like macros, and the
// few Linux headers the live loop needs that Glibc's module map may not export.
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

// input_event_sec/usec are macros over the struct's time field (layout differs on 32-bit).
static inline long switchscan_event_sec(const struct input_event *ev) { return ev->input_event_sec; }
static inline long switchscan_event_usec(const struct input_event *ev) { return ev->input_event_usec; }

// CLOCK_MONOTONIC in microseconds: the live loop's only clock (the same clock libevdev stamps
// events with once libevdev_set_clock_id succeeded, and the one the timerfd runs on).
static inline long long switchscan_monotonic_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

// Arms a CLOCK_MONOTONIC timerfd at an absolute time in microseconds; 0 or less disarms it.
// (struct itimerspec and TFD_TIMER_ABSTIME are awkward from Swift; one call keeps it in one place.)
static inline int switchscan_timerfd_arm(int fd, long long at_us) {
    struct itimerspec spec = {0};
    if (at_us > 0) {
        spec.it_value.tv_sec = at_us / 1000000LL;
        spec.it_value.tv_nsec = (at_us % 1000000LL) * 1000;
    }
    return timerfd_settime(fd, at_us > 0 ? TFD_TIMER_ABSTIME : 0, &spec, NULL);
}

static inline int switchscan_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

// open(2) is variadic in C; Swift imports it, but a fixed-argument wrapper states the flags the
// device layer always uses: read-only, non-blocking (libevdev requires it), close-on-exec.
static inline int switchscan_open_device(const char *path) {
    return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

// A non-blocking, close-on-exec pipe (pipe2 needs _GNU_SOURCE, which the module cannot set).
static inline int switchscan_pipe(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    for (int k = 0; k < 2; k++) {
        fcntl(fds[k], F_SETFL, fcntl(fds[k], F_GETFL) | O_NONBLOCK);
        fcntl(fds[k], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

#endif
