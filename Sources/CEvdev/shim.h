#ifndef SWITCHSCAN_CEVDEV_SHIM_H
#define SWITCHSCAN_CEVDEV_SHIM_H
// What Swift cannot import from libevdev and <linux/input.h>: function-like macros, and the
// few Linux headers the live loop needs that Glibc's module map may not export.
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/epoll.h>
#include <stdint.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/socket.h>

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

static inline long long switchscan_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
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

// epoll: struct epoll_event is packed on x86-64, which Swift imports badly; these take and give
// plain values. The live loop registers its fds once and waits on all of them in one call whose
// cost does not grow with the number of fds (poll(2) re-registers every fd on every call).
static inline int switchscan_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int switchscan_epoll_add(int ep, int fd, uint64_t token) {
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = token};
    return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

// For the loop's adapters (GLib's descriptors): any poll(2) event mask, added or changed.
// poll(2)'s POLLIN/POLLOUT/POLLPRI/POLLERR/POLLHUP have the values of the EPOLL* bits.
static inline int switchscan_epoll_watch(int ep, int fd, uint32_t events, uint64_t token, int change) {
    struct epoll_event ev = {.events = events, .data.u64 = token};
    return epoll_ctl(ep, change ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &ev);
}

static inline int switchscan_epoll_remove(int ep, int fd) {
    struct epoll_event ev = {0};
    return epoll_ctl(ep, EPOLL_CTL_DEL, fd, &ev);
}

// Waits (timeout_ms -1: forever) and copies up to `max` ready fds' tokens and event bits out.
// Returns their count, 0 on EINTR, -1 on another error (errno set).
static inline int switchscan_epoll_wait(int ep, uint64_t *tokens, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event ready[16];
    if (max > 16) max = 16;
    int n = epoll_wait(ep, ready, max, timeout_ms);
    if (n < 0) return errno == EINTR ? 0 : -1;
    for (int k = 0; k < n; k++) { tokens[k] = ready[k].data.u64; events[k] = ready[k].events; }
    return n;
}

static inline uint32_t switchscan_epoll_in(void) { return EPOLLIN; }
static inline uint32_t switchscan_epoll_hangup(void) { return EPOLLHUP | EPOLLERR; }

// The live loop's output without ever waiting for a reader (OutputQueue). A pipe or FIFO is
// reopened through /proc/self/fd as a new, non-blocking open file description of the same pipe:
// the description the shell made, shared with other processes, keeps its flags. A socket (the
// journal's stream) is written with MSG_DONTWAIT. Returns the fd to write and sets *mode (1 pipe,
// 2 socket); -1 when `fd` is to be written as it is (a file, a terminal: *mode 0).
static inline int switchscan_nonblocking_output(int fd, int *mode) {
    struct stat st;
    *mode = 0;
    if (fstat(fd, &st) != 0) return -1;
    if (S_ISFIFO(st.st_mode)) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        int own = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (own < 0) return -1;
        *mode = 1;
        return own;
    }
    if (S_ISSOCK(st.st_mode)) { *mode = 2; return fd; }
    return -1;
}

// One write that never waits (mode as above); -1 with errno EAGAIN when the reader is behind.
static inline long switchscan_write_nowait(int fd, const void *buf, unsigned long n, int mode) {
    if (mode == 2) return send(fd, buf, n, MSG_DONTWAIT);
    return write(fd, buf, n);
}

// Waits up to `ms` for `fd` to take more bytes: 1 when it can, 0 on timeout, -1 on error.
static inline int switchscan_wait_writable(int fd, int ms) {
    struct pollfd p = {fd, POLLOUT, 0};
    int n = poll(&p, 1, ms);
    if (n > 0 && (p.revents & (POLLERR | POLLHUP))) return -1;
    return n;
}

#endif
