#ifndef SWITCHSCAN_CEVDEV_SHIM_H
#define SWITCHSCAN_CEVDEV_SHIM_H
// What Swift cannot import from libevdev and <linux/input.h>: function-like macros.
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <sys/ioctl.h>

// input_event_sec/usec are macros over the struct's time field (layout differs on 32-bit).
static inline long switchscan_event_sec(const struct input_event *ev) { return ev->input_event_sec; }
static inline long switchscan_event_usec(const struct input_event *ev) { return ev->input_event_usec; }

#endif
