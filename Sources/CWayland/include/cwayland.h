#ifndef SWITCHSCAN_CWAYLAND_H
#define SWITCHSCAN_CWAYLAND_H
// The project's one wall around libwayland-client and the protocol code wayland-scanner generated
// from the descriptions in ../protocols (scripts/wayland/gen-protocols.sh): the wlroots routes
// (layer shell, virtual pointer and keyboard, foreign toplevels), xdg-output, and KWin's fake
// input. The generated requests are static inline functions over libwayland's variadic
// wl_proxy_marshal_flags, so Swift calls them directly; listeners are built in Swift. What Swift
// cannot do is below, each with its reason.
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "fake-input-client-protocol.h"

// An interface description by its protocol name (what wl_registry.global announces), for
// wl_registry_bind: libwayland keeps the pointer, and Swift can only copy a C `const` global,
// never take its address. NULL for an interface this module does not carry.
static inline const struct wl_interface *cwl_interface_named(const char *name) {
    static const struct wl_interface *const known[] = {
        &wl_compositor_interface, &wl_shm_interface, &wl_seat_interface, &wl_output_interface,
        &zxdg_output_manager_v1_interface, &zwlr_layer_shell_v1_interface,
        &zwlr_virtual_pointer_manager_v1_interface, &zwp_virtual_keyboard_manager_v1_interface,
        &zwlr_foreign_toplevel_manager_v1_interface, &org_kde_kwin_fake_input_interface,
        &xdg_wm_base_interface,
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i]->name, name) == 0) return known[i];
    return NULL;
}

// The highest version of an interface this module's generated code knows (a bind asks for at
// most this, and at most what the compositor announced); 0 when unknown.
static inline uint32_t cwl_interface_version(const char *name) {
    const struct wl_interface *i = cwl_interface_named(name);
    return i ? (uint32_t)i->version : 0;
}

// Anonymous shared memory for wl_shm pools and keymaps: glibc declares memfd_create only with
// _GNU_SOURCE, which Swift's Glibc module is not built with, so through syscall(2) (flag 1 is
// MFD_CLOEXEC). Sealing is not needed: the compositor only reads.
static inline int cwl_memfd(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1u);
}

#endif
