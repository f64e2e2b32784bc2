#ifndef SWITCHSCAN_CXTEST_SHIM_H
#define SWITCHSCAN_CXTEST_SHIM_H
// Xlib + XTest for the live desktop's fallbacks: a real pointer click where an element has no
// accessible action, the Escape key, and the screen's size. Macros and Bool arguments wrapped.
#include <X11/Xlib.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

static inline int switchscan_x_screen_width(Display *d) { return DisplayWidth(d, DefaultScreen(d)); }
static inline int switchscan_x_screen_height(Display *d) { return DisplayHeight(d, DefaultScreen(d)); }

// Moves the pointer to (x, y) on the default screen and clicks `button` (1 = left).
static inline int switchscan_x_click(Display *d, int x, int y, unsigned button) {
    int ok = XTestFakeMotionEvent(d, DefaultScreen(d), x, y, CurrentTime)
          && XTestFakeButtonEvent(d, button, True, CurrentTime)
          && XTestFakeButtonEvent(d, button, False, CurrentTime);
    XSync(d, False);
    return ok;
}

// Presses and releases the key of `keysym` (e.g. XK_Escape); 0 when the keyboard has no such key.
static inline int switchscan_x_key(Display *d, unsigned long keysym) {
    KeyCode code = XKeysymToKeycode(d, keysym);
    if (code == 0) return 0;
    int ok = XTestFakeKeyEvent(d, code, True, CurrentTime) && XTestFakeKeyEvent(d, code, False, CurrentTime);
    XSync(d, False);
    return ok;
}

static inline unsigned long switchscan_x_escape_keysym(void) { return XK_Escape; }

// XTest present on this display?
static inline int switchscan_x_has_xtest(Display *d) {
    int ev, err, major, minor;
    return XTestQueryExtension(d, &ev, &err, &major, &minor);
}
#endif
