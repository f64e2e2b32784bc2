#ifndef SWITCHSCAN_CDBUS_SHIM_H
#define SWITCHSCAN_CDBUS_SHIM_H
// libdbus for the display backends' session-bus client (Sources/SwitchDisplayServers/SessionBus):
// the GNOME Shell extension's API, KWin's scripting, the name owners they come and go by. What
// Swift cannot reach directly: the variadic or void* append/get calls (typed wrappers here),
// and an eventfd for the client's own wakeups.
#include <dbus/dbus.h>
#include <stdint.h>
#include <sys/eventfd.h>

static inline int switchscan_bus_append_string(DBusMessageIter *it, const char *v) {
    return dbus_message_iter_append_basic(it, DBUS_TYPE_STRING, &v);
}
static inline int switchscan_bus_append_object_path(DBusMessageIter *it, const char *v) {
    return dbus_message_iter_append_basic(it, DBUS_TYPE_OBJECT_PATH, &v);
}
static inline int switchscan_bus_append_uint32(DBusMessageIter *it, uint32_t v) {
    return dbus_message_iter_append_basic(it, DBUS_TYPE_UINT32, &v);
}
static inline int switchscan_bus_append_int32(DBusMessageIter *it, int32_t v) {
    return dbus_message_iter_append_basic(it, DBUS_TYPE_INT32, &v);
}
static inline int switchscan_bus_append_double(DBusMessageIter *it, double v) {
    return dbus_message_iter_append_basic(it, DBUS_TYPE_DOUBLE, &v);
}
static inline int switchscan_bus_append_bool(DBusMessageIter *it, int v) {
    dbus_bool_t b = v ? TRUE : FALSE;
    return dbus_message_iter_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

// The basic value at the iterator: strings (and object paths) as a pointer valid while the
// message lives; numbers widened into 8 bytes.
static inline const char *switchscan_bus_get_string(DBusMessageIter *it) {
    const char *s = NULL;
    dbus_message_iter_get_basic(it, &s);
    return s;
}
static inline uint64_t switchscan_bus_get_bits(DBusMessageIter *it) {
    union { uint64_t u64; double d; uint32_t u32; int32_t i32; dbus_bool_t b; } v;
    v.u64 = 0;
    dbus_message_iter_get_basic(it, &v);
    return v.u64;
}
static inline double switchscan_bus_get_double(DBusMessageIter *it) {
    double d = 0;
    dbus_message_iter_get_basic(it, &d);
    return d;
}

// The connection's socket (the bus daemon's end; what the loop waits on).
static inline int switchscan_bus_socket(DBusConnection *c) {
    int fd = -1;
    return dbus_connection_get_unix_fd(c, &fd) ? fd : -1;
}

static inline int switchscan_bus_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
#endif
