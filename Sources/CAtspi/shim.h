#ifndef SWITCHSCAN_CATSPI_SHIM_H
#define SWITCHSCAN_CATSPI_SHIM_H
// libatspi (at-spi2-core), the libdbus it speaks through, and GLib's main context, for the live
// desktop (Sources/SwitchDesktop). atspi-2.pc omits gobject-2.0, so the module map links it.
// What Swift cannot reach directly: struct fields behind casts (an accessible's bus name, path
// and connection), and a few typed appends for libdbus's variadic or void* APIs.
#include <atspi/atspi.h>
#include <dbus/dbus.h>
#include <glib.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

// An accessible is an AtspiObject: its application's bus name, its object path, and the
// connection libatspi talks to it on (the a11y bus, or a peer-to-peer one once the application
// gave its address).
static inline const char *switchscan_atspi_bus_name(AtspiAccessible *a) {
    AtspiObject *o = (AtspiObject *)a;
    return o && o->app ? o->app->bus_name : NULL;
}
static inline const char *switchscan_atspi_path(AtspiAccessible *a) {
    return a ? ((AtspiObject *)a)->path : NULL;
}
static inline DBusConnection *switchscan_atspi_connection(AtspiAccessible *a) {
    AtspiObject *o = (AtspiObject *)a;
    return o && o->app ? o->app->bus : NULL;
}

// The event callback owns its event.
static inline void switchscan_atspi_event_free(AtspiEvent *e) { g_boxed_free(ATSPI_TYPE_EVENT, e); }

// Appends to a method call being built.
static inline int switchscan_dbus_append_u32(DBusMessageIter *it, uint32_t v) {
    return dbus_message_iter_append_basic(it, DBUS_TYPE_UINT32, &v);
}
static inline int switchscan_dbus_append_i32(DBusMessageIter *it, int32_t v) {
    return dbus_message_iter_append_basic(it, DBUS_TYPE_INT32, &v);
}
static inline int switchscan_dbus_append_string(DBusMessageIter *it, const char *v) {
    return dbus_message_iter_append_basic(it, DBUS_TYPE_STRING, &v);
}
// A variant holding a double (org.freedesktop.DBus.Properties.Set of Value.CurrentValue).
static inline int switchscan_dbus_append_variant_double(DBusMessageIter *it, double v) {
    DBusMessageIter sub;
    if (!dbus_message_iter_open_container(it, DBUS_TYPE_VARIANT, "d", &sub)) return 0;
    if (!dbus_message_iter_append_basic(&sub, DBUS_TYPE_DOUBLE, &v)) return 0;
    return dbus_message_iter_close_container(it, &sub);
}

static inline int switchscan_dbus_append_variant_bool(DBusMessageIter *it, int v) {
    DBusMessageIter sub;
    dbus_bool_t b = v ? TRUE : FALSE;
    if (!dbus_message_iter_open_container(it, DBUS_TYPE_VARIANT, "b", &sub)) return 0;
    if (!dbus_message_iter_append_basic(&sub, DBUS_TYPE_BOOLEAN, &b)) return 0;
    return dbus_message_iter_close_container(it, &sub);
}

// The session bus (shared with libatspi, which found the a11y bus through it); NULL without one.
static inline DBusConnection *switchscan_dbus_session_bus(void) {
    DBusError err;
    dbus_error_init(&err);
    DBusConnection *c = dbus_bus_get(DBUS_BUS_SESSION, &err);
    dbus_error_free(&err);
    return c;
}

// The arguments of Collection.GetMatches asking for the SHOWING direct children of a node, in
// canonical order, at most `count`: how the reader lists a table that manages its descendants
// (thousands of rows) without walking them all. The rule marshalled as libatspi does:
// (states ai, match, attributes a{ss}, match, roles ai[4], match, interfaces as, match, invert b).
static inline int switchscan_dbus_append_showing_children_query(DBusMessageIter *it, int32_t count) {
    DBusMessageIter rule, arr;
    int32_t states[2] = { 1 << ATSPI_STATE_SHOWING, 0 };
    int32_t all = ATSPI_Collection_MATCH_ALL, zero = 0;
    uint32_t sort = ATSPI_Collection_SORT_ORDER_CANONICAL;
    dbus_bool_t no = FALSE;
    if (!dbus_message_iter_open_container(it, DBUS_TYPE_STRUCT, NULL, &rule)) return 0;
    dbus_message_iter_open_container(&rule, DBUS_TYPE_ARRAY, "i", &arr);
    dbus_message_iter_append_basic(&arr, DBUS_TYPE_INT32, &states[0]);
    dbus_message_iter_append_basic(&arr, DBUS_TYPE_INT32, &states[1]);
    dbus_message_iter_close_container(&rule, &arr);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_INT32, &all);
    dbus_message_iter_open_container(&rule, DBUS_TYPE_ARRAY, "{ss}", &arr);
    dbus_message_iter_close_container(&rule, &arr);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_INT32, &all);
    dbus_message_iter_open_container(&rule, DBUS_TYPE_ARRAY, "i", &arr);
    for (int k = 0; k < 4; k++) dbus_message_iter_append_basic(&arr, DBUS_TYPE_INT32, &zero);
    dbus_message_iter_close_container(&rule, &arr);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_INT32, &all);
    dbus_message_iter_open_container(&rule, DBUS_TYPE_ARRAY, "s", &arr);
    dbus_message_iter_close_container(&rule, &arr);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_INT32, &all);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_BOOLEAN, &no);
    dbus_message_iter_close_container(it, &rule);
    dbus_message_iter_append_basic(it, DBUS_TYPE_UINT32, &sort);
    dbus_message_iter_append_basic(it, DBUS_TYPE_INT32, &count);
    return dbus_message_iter_append_basic(it, DBUS_TYPE_BOOLEAN, &no);
}

// The arguments of Collection.GetMatches for any rule the web reader asks (Read/WebReader.swift):
// a state set (64 bits as two words, low first) with its match type, no attributes, a role set
// (128 bits as four words: role r is bit r % 32 of word r / 32) with its match type, no
// interfaces, not inverted; canonical (document) order, at most `count` (0: all), `traverse`
// (into the descendants, not only the children).
static inline int switchscan_dbus_append_match(DBusMessageIter *it, uint32_t states_lo, uint32_t states_hi, int32_t state_match,
                                               uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3, int32_t role_match,
                                               int32_t count, int traverse) {
    DBusMessageIter rule, arr;
    int32_t words[4];
    int32_t all = ATSPI_Collection_MATCH_ALL;
    uint32_t sort = ATSPI_Collection_SORT_ORDER_CANONICAL;
    dbus_bool_t no = FALSE, deep = traverse ? TRUE : FALSE;
    if (!dbus_message_iter_open_container(it, DBUS_TYPE_STRUCT, NULL, &rule)) return 0;
    dbus_message_iter_open_container(&rule, DBUS_TYPE_ARRAY, "i", &arr);
    words[0] = (int32_t)states_lo; words[1] = (int32_t)states_hi;
    for (int k = 0; k < 2; k++) dbus_message_iter_append_basic(&arr, DBUS_TYPE_INT32, &words[k]);
    dbus_message_iter_close_container(&rule, &arr);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_INT32, &state_match);
    dbus_message_iter_open_container(&rule, DBUS_TYPE_ARRAY, "{ss}", &arr);
    dbus_message_iter_close_container(&rule, &arr);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_INT32, &all);
    dbus_message_iter_open_container(&rule, DBUS_TYPE_ARRAY, "i", &arr);
    words[0] = (int32_t)r0; words[1] = (int32_t)r1; words[2] = (int32_t)r2; words[3] = (int32_t)r3;
    for (int k = 0; k < 4; k++) dbus_message_iter_append_basic(&arr, DBUS_TYPE_INT32, &words[k]);
    dbus_message_iter_close_container(&rule, &arr);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_INT32, &role_match);
    dbus_message_iter_open_container(&rule, DBUS_TYPE_ARRAY, "s", &arr);
    dbus_message_iter_close_container(&rule, &arr);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_INT32, &all);
    dbus_message_iter_append_basic(&rule, DBUS_TYPE_BOOLEAN, &no);
    dbus_message_iter_close_container(it, &rule);
    dbus_message_iter_append_basic(it, DBUS_TYPE_UINT32, &sort);
    dbus_message_iter_append_basic(it, DBUS_TYPE_INT32, &count);
    return dbus_message_iter_append_basic(it, DBUS_TYPE_BOOLEAN, &deep);
}

// Reads a basic value of the iterator's current type into 8 bytes (ints, bool, double) or a
// string pointer (string, object path, signature), valid while the message lives.
typedef union { uint64_t u64; int64_t i64; double d; uint32_t u32; int32_t i32; const char *s; } switchscan_dbus_basic;
static inline switchscan_dbus_basic switchscan_dbus_get_basic(DBusMessageIter *it) {
    switchscan_dbus_basic v;
    v.u64 = 0;
    dbus_message_iter_get_basic(it, &v);
    return v;
}

// The address of the bus `c` is connected to, from its socket's peer (the bus daemon's listening
// socket): "unix:path=…" or "unix:abstract=…"; NULL for anything else. The live desktop opens a
// second connection to exactly the accessibility bus libatspi found (through AT_SPI_BUS_ADDRESS,
// the X root window or the session bus), for its events. g_free the result.
static inline char *switchscan_dbus_peer_address(DBusConnection *c) {
    int fd = -1;
    struct sockaddr_un a;
    socklen_t n = sizeof a;
    memset(&a, 0, sizeof a);
    if (!c || !dbus_connection_get_socket(c, &fd) || getpeername(fd, (struct sockaddr *)&a, &n) != 0 || a.sun_family != AF_UNIX) return NULL;
    size_t len = n > offsetof(struct sockaddr_un, sun_path) ? n - offsetof(struct sockaddr_un, sun_path) : 0;
    if (len == 0) return NULL;
    char name[sizeof a.sun_path + 1];
    memset(name, 0, sizeof name);
    int abstract = a.sun_path[0] == 0;
    if (abstract) memcpy(name, a.sun_path + 1, len - 1); else memcpy(name, a.sun_path, strnlen(a.sun_path, len));
    char *escaped = dbus_address_escape_value(name);
    if (!escaped) return NULL;
    char *address = g_strconcat(abstract ? "unix:abstract=" : "unix:path=", escaped, NULL);
    dbus_free(escaped);
    return address;
}

#endif
