// vmdev: uinput devices and evdev readers for the VM tests (real kernel, real uinput), in C
// against libevdev so it needs nothing but libevdev inside the VM.
//
//   vmdev serve              commands on stdin, one per line (a FIFO), replies on stdout:
//     create switch|touch|keyboard NAME -> "created K /dev/input/eventN" (K = 0, 1, … in creation
//                                   order); a switch has KEY_SPACE and KEY_ENTER; a touch screen is
//                                   1920x1080, protocol B, 10 slots; a keyboard has KEY_ESC…KEY_F12
//                                   (letters, digits, modifiers, Space, Enter)
//     destroy K                     unplug device K
//     key K CODE VALUE              one EV_KEY event + SYN_REPORT
//     tap K X Y                     protocol-B touch down at (X, Y), 50 ms, up
//     flood K N                     N press/release frames as fast as possible, ending pressed
//     presses K CODE N GAP_MS       N presses of CODE, one every GAP_MS (held half of it)
//     sleep MS
//     touch K SLOT TID X Y          protocol-B contact TID down in SLOT at (X, Y) (BTN_TOUCH 1 too)
//     move K SLOT X Y               that slot's contact moves to (X, Y)
//     move2 K X0 Y0 X1 Y1           slots 0 and 1 move in one frame (two fingers)
//     lift K SLOT [LAST]            that slot's contact lifts (LAST 1: BTN_TOUCH 0 too)
//     glide K SLOT X0 Y0 X1 Y1 MS N  N moves from (X0, Y0) to (X1, Y1) over MS ms (a slow swipe)
//   vmdev read NODE MS [N]   print "TYPE CODE VALUE" (names) for each event on NODE for MS ms
//                            (or until N events), CLOCK_MONOTONIC stamps as "sec.usec" first;
//                            "reading NODE" on stderr once it reads
//   vmdev grabtest NODE      "busy" if another fd holds EVIOCGRAB, "free" if we could grab it
//   vmdev hold NODE MS       grab NODE, print "holding", keep the grab MS ms
//   vmdev now                CLOCK_MONOTONIC in microseconds
//   vmdev stamp              copy stdin to stdout, each line prefixed with CLOCK_MONOTONIC µs at read
//   vmdev drain NODE MS      read NODE for MS ms as a bare libevdev loop, print the event count
//   (serve) stream K HZ MS   a moving protocol-B contact on touch device K, HZ frames a second
//   vmdev forward NODE [WAIT] (bench) a bare libevdev → uinput loop: grabs NODE, mirrors it as a
//                            uinput device named "bare " + its name, and writes every event it reads
//                            there (libevdev_uinput_write_event), until killed; "forwarding NODE" once
//                            ready. WAIT is how it sleeps: "poll" (the default, the anchor): poll(2) on
//                            NODE alone; "epoll": epoll_wait(2) on NODE alone; "poll4": poll(2) on NODE
//                            and what a tool that can be stopped, time and see hotplug also watches (a
//                            pipe, a timerfd, an inotify watch of /dev/input), none of which fires
//   vmdev touchlat N GAP_MS [WARMUP [SCREEN]]  (bench) a touchscreen ("Bench Touchscreen"); for
//                            each "go LABEL NAME" line on stdin: one contact down, WARMUP moves
//                            (not timed), N moves GAP_MS apart, lift; each move's latency is the
//                            kernel stamp of the device named NAME's matching frame minus
//                            CLOCK_MONOTONIC just before the move was written; "lat LABEL K US"
//                            per move, then "done LABEL". SCREEN 1: its frames are what a real
//                            touchscreen's kernel driver sends (input_mt_sync_frame's pointer
//                            emulation: ABS_X/Y and BTN_TOUCH follow the contact); 0: only the
//                            multitouch events"
//   vmdev latency N GAP_MS   (bench) a new switch; N presses per "go LABEL" line on stdin, then
//                            the kernel stamp of each press; see bench-inside.sh
//   (faults, vm-faults.sh)
//   vmdev storm PID SIG HZ MS  send signal SIG to PID HZ times a second for MS ms; prints "sent N"
//   vmdev nofile PID N       set PID's soft RLIMIT_NOFILE to N (prlimit); prints the old soft limit
//   vmdev stall GO FILE [PIPE_SIZE]  a reader that stops reading: sets its stdin pipe's size, reads
//                            nothing until the file GO exists (60 s at most), then copies stdin
//                            to FILE until its end
//
// Build: gcc -O2 -o vmdev vmdev.c $(pkg-config --cflags --libs libevdev)
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static struct libevdev_uinput *make(const char *kind, const char *name) {
    struct libevdev *d = libevdev_new();
    libevdev_set_name(d, name);
    libevdev_set_id_bustype(d, BUS_USB);
    libevdev_set_id_vendor(d, 0x1234);
    if (strcmp(kind, "keyboard") == 0) {
        libevdev_set_id_product(d, 0x6001);
        for (int code = KEY_ESC; code <= KEY_F12; code++) libevdev_enable_event_code(d, EV_KEY, code, NULL);
    } else if (strcmp(kind, "touch") == 0) {
        libevdev_set_id_product(d, 0x7001);
        libevdev_enable_property(d, INPUT_PROP_DIRECT);
        libevdev_enable_event_code(d, EV_KEY, BTN_TOUCH, NULL);
        struct input_absinfo xy = {.minimum = 0, .maximum = 1919, .resolution = 10};
        struct input_absinfo yy = {.minimum = 0, .maximum = 1079, .resolution = 10};
        struct input_absinfo slot = {.minimum = 0, .maximum = 9};
        struct input_absinfo tid = {.minimum = 0, .maximum = 65535};
        libevdev_enable_event_code(d, EV_ABS, ABS_X, &xy);
        libevdev_enable_event_code(d, EV_ABS, ABS_Y, &yy);
        libevdev_enable_event_code(d, EV_ABS, ABS_MT_SLOT, &slot);
        libevdev_enable_event_code(d, EV_ABS, ABS_MT_POSITION_X, &xy);
        libevdev_enable_event_code(d, EV_ABS, ABS_MT_POSITION_Y, &yy);
        libevdev_enable_event_code(d, EV_ABS, ABS_MT_TRACKING_ID, &tid);
    } else {
        libevdev_set_id_product(d, 0x5001);
        libevdev_enable_event_code(d, EV_KEY, KEY_SPACE, NULL);
        libevdev_enable_event_code(d, EV_KEY, KEY_ENTER, NULL);
    }
    struct libevdev_uinput *ui = NULL;
    int rc = libevdev_uinput_create_from_device(d, LIBEVDEV_UINPUT_OPEN_MANAGED, &ui);
    libevdev_free(d);
    if (rc != 0) {
        fprintf(stderr, "vmdev: cannot create %s: %s\n", name, strerror(-rc));
        return NULL;
    }
    return ui;
}

static void emit(struct libevdev_uinput *ui, int type, int code, int value) {
    libevdev_uinput_write_event(ui, type, code, value);
}

static int serve(void) {
    struct libevdev_uinput *devs[64] = {0};
    int n = 0;
    char line[256];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        char cmd[32], a[128];
        int k, x, y, gap, tid, x0, y0, x1, y1;
        if (sscanf(line, "%31s", cmd) != 1) continue;
        if (strcmp(cmd, "create") == 0) {
            char kind[16];
            if (sscanf(line, "create %15s %127[^\n]", kind, a) != 2 || n >= 64) { printf("error\n"); continue; }
            devs[n] = make(kind, a);
            if (!devs[n]) { printf("error\n"); continue; }
            sleep_ms(200);  // let devtmpfs create the node
            printf("created %d %s\n", n, libevdev_uinput_get_devnode(devs[n]) ? libevdev_uinput_get_devnode(devs[n]) : "?");
            n++;
        } else if (sscanf(line, "destroy %d", &k) == 1 && k < n && devs[k]) {
            libevdev_uinput_destroy(devs[k]);
            devs[k] = NULL;
            printf("destroyed %d\n", k);
        } else if (sscanf(line, "key %d %d %d", &k, &x, &y) == 3 && k < n && devs[k]) {
            emit(devs[k], EV_KEY, x, y);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
        } else if (sscanf(line, "tap %d %d %d", &k, &x, &y) == 3 && k < n && devs[k]) {
            emit(devs[k], EV_ABS, ABS_MT_TRACKING_ID, 1);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_X, x);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_Y, y);
            emit(devs[k], EV_KEY, BTN_TOUCH, 1);
            emit(devs[k], EV_ABS, ABS_X, x);
            emit(devs[k], EV_ABS, ABS_Y, y);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
            sleep_ms(50);
            emit(devs[k], EV_ABS, ABS_MT_TRACKING_ID, -1);
            emit(devs[k], EV_KEY, BTN_TOUCH, 0);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
        } else if (sscanf(line, "touch %d %d %d %d %d", &k, &x, &y, &gap, &tid) == 5 && k < n && devs[k]) {
            emit(devs[k], EV_ABS, ABS_MT_SLOT, x);
            emit(devs[k], EV_ABS, ABS_MT_TRACKING_ID, y);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_X, gap);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_Y, tid);
            emit(devs[k], EV_KEY, BTN_TOUCH, 1);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
        } else if (sscanf(line, "move2 %d %d %d %d %d", &k, &x, &y, &gap, &tid) == 5 && k < n && devs[k]) {
            emit(devs[k], EV_ABS, ABS_MT_SLOT, 0);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_X, x);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_Y, y);
            emit(devs[k], EV_ABS, ABS_MT_SLOT, 1);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_X, gap);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_Y, tid);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
        } else if (sscanf(line, "move %d %d %d %d", &k, &x, &y, &gap) == 4 && k < n && devs[k]) {
            emit(devs[k], EV_ABS, ABS_MT_SLOT, x);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_X, y);
            emit(devs[k], EV_ABS, ABS_MT_POSITION_Y, gap);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
        } else if (sscanf(line, "lift %d %d", &k, &x) == 2 && k < n && devs[k]) {
            int last = 0;
            sscanf(line, "lift %*d %*d %d", &last);
            emit(devs[k], EV_ABS, ABS_MT_SLOT, x);
            emit(devs[k], EV_ABS, ABS_MT_TRACKING_ID, -1);
            if (last) emit(devs[k], EV_KEY, BTN_TOUCH, 0);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
        } else if (sscanf(line, "glide %d %d %d %d %d %d %d %d", &k, &x, &x0, &y0, &x1, &y1, &gap, &tid) == 8 && k < n && devs[k] && tid > 0) {
            emit(devs[k], EV_ABS, ABS_MT_SLOT, x);
            for (int i = 1; i <= tid; i++) {
                sleep_ms(gap / tid);
                emit(devs[k], EV_ABS, ABS_MT_POSITION_X, x0 + (x1 - x0) * i / tid);
                emit(devs[k], EV_ABS, ABS_MT_POSITION_Y, y0 + (y1 - y0) * i / tid);
                emit(devs[k], EV_SYN, SYN_REPORT, 0);
            }
            printf("glided %d\n", k);
        } else if (sscanf(line, "flood %d %d", &k, &x) == 2 && k < n && devs[k]) {
            for (int i = 0; i < x; i++) {
                emit(devs[k], EV_KEY, KEY_SPACE, 1);
                emit(devs[k], EV_SYN, SYN_REPORT, 0);
                emit(devs[k], EV_KEY, KEY_SPACE, 0);
                emit(devs[k], EV_SYN, SYN_REPORT, 0);
            }
            emit(devs[k], EV_KEY, KEY_SPACE, 1);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
            printf("flooded %d\n", k);
        } else if (sscanf(line, "stream %d %d %d", &k, &x, &y) == 3 && k < n && devs[k] && x > 0) {
            long long period = 1000000LL / x, next = now_us();
            emit(devs[k], EV_ABS, ABS_MT_TRACKING_ID, 5);
            emit(devs[k], EV_KEY, BTN_TOUCH, 1);
            for (long i = 0; i < (long)x * y / 1000; i++) {
                int px = 500 + (int)(i % 400), py = 300 + (int)((i / 2) % 300);
                emit(devs[k], EV_ABS, ABS_MT_POSITION_X, px);
                emit(devs[k], EV_ABS, ABS_MT_POSITION_Y, py);
                emit(devs[k], EV_ABS, ABS_X, px);
                emit(devs[k], EV_ABS, ABS_Y, py);
                emit(devs[k], EV_SYN, SYN_REPORT, 0);
                next += period;
                long long wait = next - now_us();
                if (wait > 0) { struct timespec ts = {wait / 1000000, (wait % 1000000) * 1000}; nanosleep(&ts, NULL); }
            }
            emit(devs[k], EV_ABS, ABS_MT_TRACKING_ID, -1);
            emit(devs[k], EV_KEY, BTN_TOUCH, 0);
            emit(devs[k], EV_SYN, SYN_REPORT, 0);
            printf("streamed %d\n", k);
        } else if (sscanf(line, "presses %d %d %d %d", &k, &x, &y, &gap) == 4 && k < n && devs[k]) {
            for (int i = 0; i < y; i++) {
                emit(devs[k], EV_KEY, x, 1);
                emit(devs[k], EV_SYN, SYN_REPORT, 0);
                sleep_ms(gap / 2);
                emit(devs[k], EV_KEY, x, 0);
                emit(devs[k], EV_SYN, SYN_REPORT, 0);
                sleep_ms(gap - gap / 2);
            }
            printf("pressed %d\n", k);
        } else if (sscanf(line, "sleep %d", &x) == 1) {
            sleep_ms(x);
        } else {
            printf("error: %s", line);
        }
    }
    for (int i = 0; i < n; i++) if (devs[i]) libevdev_uinput_destroy(devs[i]);
    return 0;
}

/* Reads NODE for MS milliseconds (or MAX events): prints every event, or with print == 0 only how
   many there were at the end ("drain", for the benchmark's stream readers). */
static int read_node(const char *node, long ms, long max, int print) {
    int fd = open(node, O_RDONLY | O_NONBLOCK);
    struct libevdev *d = NULL;
    if (fd < 0 || libevdev_new_from_fd(fd, &d) != 0) { fprintf(stderr, "vmdev: cannot open %s\n", node); return 1; }
    libevdev_set_clock_id(d, CLOCK_MONOTONIC);
    setvbuf(stdout, NULL, _IOLBF, 0);
    fprintf(stderr, "reading %s\n", node);  // ready: a test may make its events now
    long long end = now_us() + ms * 1000LL;
    long count = 0;
    while (now_us() < end && (max <= 0 || count < max)) {
        struct pollfd p = {fd, POLLIN, 0};
        poll(&p, 1, (int)((end - now_us()) / 1000) + 1);
        struct input_event ev;
        int rc;
        while ((rc = libevdev_next_event(d, LIBEVDEV_READ_FLAG_NORMAL, &ev)) >= 0) {
            if (print) printf("%ld.%06ld %s %s %d\n", (long)ev.input_event_sec, (long)ev.input_event_usec, libevdev_event_type_get_name(ev.type),
                   libevdev_event_code_get_name(ev.type, ev.code) ? libevdev_event_code_get_name(ev.type, ev.code) : "?", ev.value);
            count++;
        }
        if (rc != -EAGAIN) break;  // the device is gone: stop (polling it would spin)
    }
    if (!print) printf("%ld events\n", count);
    libevdev_free(d);
    close(fd);
    return 0;
}

static int hold(const char *node, long ms) {
    int fd = open(node, O_RDONLY | O_NONBLOCK);
    struct libevdev *d = NULL;
    if (fd < 0 || libevdev_new_from_fd(fd, &d) != 0 || libevdev_grab(d, LIBEVDEV_GRAB) != 0) { printf("error\n"); return 1; }
    printf("holding\n");
    fflush(stdout);
    sleep_ms(ms);
    libevdev_free(d);
    close(fd);
    return 0;
}

static int grabtest(const char *node) {
    int fd = open(node, O_RDONLY | O_NONBLOCK);
    struct libevdev *d = NULL;
    if (fd < 0 || libevdev_new_from_fd(fd, &d) != 0) { printf("error\n"); return 1; }
    int rc = libevdev_grab(d, LIBEVDEV_GRAB);
    printf("%s\n", rc == -EBUSY ? "busy" : rc == 0 ? "free" : "error");
    if (rc == 0) libevdev_grab(d, LIBEVDEV_UNGRAB);
    libevdev_free(d);
    close(fd);
    return 0;
}

// bench: a switch ("Bench Switch"); for each "go LABEL" line on stdin, N press/release pairs
// GAP_MS apart, then "done LABEL" and one "press LABEL K KERNEL_US" line per press. KERNEL_US is
// the kernel's CLOCK_MONOTONIC stamp of the press, read back from this program's own evdev client
// of the node: the kernel stamps an event once and hands it to every client inside the write, so
// it is exactly the time the reader under test gets (readers must not grab the node). The stamps
// are kept in memory while pressing, so the driver does no I/O while the reader works.
static int latency(int n, int gap) {
    struct libevdev_uinput *ui = make("switch", "Bench Switch");
    if (!ui) return 1;
    sleep_ms(300);
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *node = libevdev_uinput_get_devnode(ui);
    int fd = open(node, O_RDONLY | O_NONBLOCK);
    struct libevdev *own = NULL;
    if (fd < 0 || libevdev_new_from_fd(fd, &own) != 0 || libevdev_set_clock_id(own, CLOCK_MONOTONIC) != 0) {
        fprintf(stderr, "vmdev: cannot read back %s\n", node);
        return 1;
    }
    printf("node %s\n", node);
    long long *stamps = calloc((size_t)n, sizeof *stamps);
    char line[128], label[64];
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "go %63s", label) != 1) continue;
        for (int i = 0; i < n; i++) {
            emit(ui, EV_KEY, KEY_SPACE, 1);
            emit(ui, EV_SYN, SYN_REPORT, 0);
            struct input_event ev;
            stamps[i] = 0;
            while (libevdev_next_event(own, LIBEVDEV_READ_FLAG_NORMAL, &ev) >= 0)
                if (ev.type == EV_KEY && ev.code == KEY_SPACE && ev.value == 1)
                    stamps[i] = (long long)ev.input_event_sec * 1000000LL + ev.input_event_usec;
            sleep_ms(gap / 2);
            emit(ui, EV_KEY, KEY_SPACE, 0);
            emit(ui, EV_SYN, SYN_REPORT, 0);
            while (libevdev_next_event(own, LIBEVDEV_READ_FLAG_NORMAL, &ev) >= 0) {}
            sleep_ms(gap - gap / 2);
        }
        sleep_ms(300);
        for (int i = 0; i < n; i++) printf("press %s %d %lld\n", label, i, stamps[i]);
        printf("done %s\n", label);
    }
    libevdev_free(own);
    close(fd);
    libevdev_uinput_destroy(ui);
    return 0;
}

/* The name of /dev/input/eventN from sysfs. */
static int sysfs_name(const char *node, char *out, size_t size) {
    const char *base = strrchr(node, '/');
    char path[256];
    snprintf(path, sizeof path, "/sys/class/input/%s/device/name", base ? base + 1 : node);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (!fgets(out, (int)size, f)) { fclose(f); return -1; }
    fclose(f);
    out[strcspn(out, "\n")] = 0;
    return 0;
}

/* The node of the input device named NAME, waiting up to 5 s for it. */
static int find_node(const char *name, char *node, size_t size) {
    for (int tries = 0; tries < 500; tries++) {
        for (int i = 0; i < 64; i++) {
            char n[64], got[256];
            snprintf(n, sizeof n, "/dev/input/event%d", i);
            if (sysfs_name(n, got, sizeof got) == 0 && strcmp(got, name) == 0 && access(n, R_OK) == 0) {
                snprintf(node, size, "%s", n);
                return 0;
            }
        }
        sleep_ms(10);
    }
    return -1;
}

static int forward(const char *node, const char *wait) {
    int fd = open(node, O_RDONLY | O_NONBLOCK);
    struct libevdev *d = NULL;
    if (fd < 0 || libevdev_new_from_fd(fd, &d) != 0 || libevdev_grab(d, LIBEVDEV_GRAB) != 0) { fprintf(stderr, "vmdev: cannot grab %s\n", node); return 1; }
    char name[300];
    snprintf(name, sizeof name, "bare %s", libevdev_get_name(d));
    libevdev_set_name(d, name);
    struct libevdev_uinput *ui = NULL;
    if (libevdev_uinput_create_from_device(d, LIBEVDEV_UINPUT_OPEN_MANAGED, &ui) != 0) { fprintf(stderr, "vmdev: cannot create the mirror\n"); return 1; }
    // The sets each WAIT sleeps on (the pipe, timer and watch never fire; they are only watched).
    int use_epoll = strcmp(wait, "epoll") == 0, nfds = strcmp(wait, "poll4") == 0 ? 4 : 1;
    int pipes[2] = {-1, -1};
    struct pollfd fds[4] = {{fd, POLLIN, 0}};
    if (nfds == 4) {
        if (pipe(pipes) != 0) return 1;
        fds[1] = (struct pollfd){pipes[0], POLLIN, 0};
        fds[2] = (struct pollfd){timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), POLLIN, 0};
        int watch = inotify_init1(IN_CLOEXEC);
        inotify_add_watch(watch, "/dev/input", IN_CREATE | IN_DELETE);
        fds[3] = (struct pollfd){watch, POLLIN, 0};
    }
    int ep = -1;
    if (use_epoll) {
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
        ep = epoll_create1(EPOLL_CLOEXEC);
        if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) return 1;
    }
    printf("forwarding %s\n", node);
    fflush(stdout);
    for (;;) {
        if (use_epoll) {
            struct epoll_event ready[4];
            epoll_wait(ep, ready, 4, -1);
        } else {
            poll(fds, (nfds_t)nfds, -1);
        }
        struct input_event ev;
        int rc;
        while ((rc = libevdev_next_event(d, LIBEVDEV_READ_FLAG_NORMAL, &ev)) == LIBEVDEV_READ_STATUS_SUCCESS)
            libevdev_uinput_write_event(ui, ev.type, ev.code, ev.value);
        if (rc != -EAGAIN && rc != LIBEVDEV_READ_STATUS_SYNC) break;
    }
    libevdev_uinput_destroy(ui);
    return 0;
}

/* One frame from `fd` (up to its SYN_REPORT), its kernel stamp in µs; -1 after 2 s without one. */
static long long next_frame(int fd, struct libevdev *d) {
    long long end = now_us() + 2000000LL;
    while (now_us() < end) {
        struct input_event ev;
        int rc;
        while ((rc = libevdev_next_event(d, LIBEVDEV_READ_FLAG_NORMAL, &ev)) == LIBEVDEV_READ_STATUS_SUCCESS)
            if (ev.type == EV_SYN && ev.code == SYN_REPORT) return (long long)ev.input_event_sec * 1000000LL + ev.input_event_usec;
        struct pollfd p = {fd, POLLIN, 0};
        poll(&p, 1, 100);
    }
    return -1;
}

static int touchlat(int n, int gap, int warmup, int screen) {
    struct libevdev_uinput *ui = make("touch", "Bench Touchscreen");
    if (!ui) return 1;
    sleep_ms(300);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("node %s\n", libevdev_uinput_get_devnode(ui));
    long long *lat = calloc((size_t)n, sizeof *lat);
    char line[256], label[64], target[200];
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "go %63s %199[^\n]", label, target) != 2) continue;
        char node[64];
        if (find_node(target, node, sizeof node) != 0) { printf("error: no device named %s\n", target); continue; }
        int fd = open(node, O_RDONLY | O_NONBLOCK);
        struct libevdev *d = NULL;
        if (fd < 0 || libevdev_new_from_fd(fd, &d) != 0 || libevdev_set_clock_id(d, CLOCK_MONOTONIC) != 0) { printf("error: cannot read %s\n", node); continue; }
        emit(ui, EV_ABS, ABS_MT_SLOT, 0);
        emit(ui, EV_ABS, ABS_MT_TRACKING_ID, 1);
        emit(ui, EV_ABS, ABS_MT_POSITION_X, 500);
        emit(ui, EV_ABS, ABS_MT_POSITION_Y, 500);
        emit(ui, EV_KEY, BTN_TOUCH, 1);
        if (screen) { emit(ui, EV_ABS, ABS_X, 500); emit(ui, EV_ABS, ABS_Y, 500); }
        emit(ui, EV_SYN, SYN_REPORT, 0);
        next_frame(fd, d);
        for (int i = -warmup; i < n; i++) {
            sleep_ms(gap);
            long long t0 = now_us();
            emit(ui, EV_ABS, ABS_MT_POSITION_X, 600 + (i % 2) * 10);
            if (screen) emit(ui, EV_ABS, ABS_X, 600 + (i % 2) * 10);
            emit(ui, EV_SYN, SYN_REPORT, 0);
            long long k = next_frame(fd, d);
            if (i >= 0) lat[i] = k < 0 ? -1 : k - t0;
        }
        emit(ui, EV_ABS, ABS_MT_TRACKING_ID, -1);
        emit(ui, EV_KEY, BTN_TOUCH, 0);
        emit(ui, EV_SYN, SYN_REPORT, 0);
        next_frame(fd, d);
        libevdev_free(d);
        close(fd);
        for (int i = 0; i < n; i++) printf("lat %s %d %lld\n", label, i, lat[i]);
        printf("done %s\n", label);
    }
    libevdev_uinput_destroy(ui);
    return 0;
}

static int stamp(void) {
    char line[4096];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) printf("%lld %s", now_us(), line);
    return 0;
}

static int storm(int pid, int sig, int hz, long ms) {
    long long period = 1000000LL / hz, next = now_us(), end = now_us() + ms * 1000LL;
    long sent = 0;
    while (now_us() < end) {
        if (kill(pid, sig) != 0) break;
        sent++;
        next += period;
        long long wait = next - now_us();
        if (wait > 0) { struct timespec ts = {wait / 1000000, (wait % 1000000) * 1000}; nanosleep(&ts, NULL); }
    }
    printf("sent %ld\n", sent);
    return 0;
}

static int nofile(int pid, long n) {
    struct rlimit old, lim;
    if (prlimit(pid, RLIMIT_NOFILE, NULL, &old) != 0) { perror("prlimit"); return 1; }
    lim.rlim_cur = (rlim_t)n;
    lim.rlim_max = old.rlim_max;
    if (prlimit(pid, RLIMIT_NOFILE, &lim, NULL) != 0) { perror("prlimit"); return 1; }
    printf("%ld\n", (long)old.rlim_cur);
    return 0;
}

static int stall(const char *go, const char *path, long size) {
    if (size > 0 && fcntl(0, F_SETPIPE_SZ, (int)size) < 0) perror("vmdev: F_SETPIPE_SZ");
    printf("stalling\n");
    fflush(stdout);
    for (int i = 0; i < 6000 && access(go, F_OK) != 0; i++) sleep_ms(10);
    FILE *out = fopen(path, "w");
    if (!out) return 1;
    char buf[4096];
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) if (n > 0) fwrite(buf, 1, (size_t)n, out);
    fclose(out);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "stamp") == 0) return stamp();
    if (argc == 4 && strcmp(argv[1], "drain") == 0) return read_node(argv[2], atol(argv[3]), 0, 0);
    if (argc >= 2 && strcmp(argv[1], "serve") == 0) return serve();
    if (argc >= 4 && strcmp(argv[1], "read") == 0) return read_node(argv[2], atol(argv[3]), argc > 4 ? atol(argv[4]) : 0, 1);
    if (argc == 3 && strcmp(argv[1], "grabtest") == 0) return grabtest(argv[2]);
    if (argc == 4 && strcmp(argv[1], "hold") == 0) return hold(argv[2], atol(argv[3]));
    if (argc == 2 && strcmp(argv[1], "now") == 0) { printf("%lld\n", now_us()); return 0; }
    if (argc == 4 && strcmp(argv[1], "latency") == 0) return latency(atoi(argv[2]), atoi(argv[3]));
    if (argc >= 4 && strcmp(argv[1], "touchlat") == 0) return touchlat(atoi(argv[2]), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 0, argc > 5 ? atoi(argv[5]) : 0);
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "forward") == 0) {
        const char *wait = argc == 4 ? argv[3] : "poll";
        if (strcmp(wait, "poll") != 0 && strcmp(wait, "epoll") != 0 && strcmp(wait, "poll4") != 0) { fprintf(stderr, "vmdev: forward: WAIT is poll, epoll or poll4, not %s\n", wait); return 2; }
        return forward(argv[2], wait);
    }
    if (argc == 6 && strcmp(argv[1], "storm") == 0) return storm(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atol(argv[5]));
    if (argc == 4 && strcmp(argv[1], "nofile") == 0) return nofile(atoi(argv[2]), atol(argv[3]));
    if (argc >= 4 && strcmp(argv[1], "stall") == 0) return stall(argv[2], argv[3], argc > 4 ? atol(argv[4]) : 0);
    fprintf(stderr, "usage: vmdev serve | read NODE MS [N] | grabtest NODE | hold NODE MS | now | stamp | drain NODE MS | latency N GAP_MS | storm PID SIG HZ MS | nofile PID N | stall GO FILE [SIZE]\n");
    return 2;
}
