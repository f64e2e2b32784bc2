// The project's one wall around X11, used by the X11 display backend only
// (Sources/SwitchDisplayServers/X11): Xlib, the SHAPE extension and Xft for the on-screen
// highlight, XTest for the live desktop's fallbacks (a real pointer click where an element has no
// accessible action, the Escape key), the scanner menu's gestures and keys, and XKB to send keys
// by keysym through the current layout. (The tests' own X clients use it too.)
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/XTest.h>
#include <X11/XKBlib.h>
#include <X11/Xft/Xft.h>

// Every X connection of the process is opened here: Xlib's thread support goes on before the
// first connection (libX11 1.8 does it in a constructor, older ones do not; the test runner and a
// presenter may use connections from several threads). XInitThreads returns at once when it ran.
static inline Display *cx11_open_display(const char *name) {
    XInitThreads();
    return XOpenDisplay(name);
}

// Xlib's accessors are macros, which Swift cannot import.
static inline int cx11_default_screen(Display *d) { return DefaultScreen(d); }
static inline Window cx11_root_window(Display *d, int screen) { return RootWindow(d, screen); }
static inline int cx11_display_width(Display *d, int screen) { return DisplayWidth(d, screen); }
static inline int cx11_display_height(Display *d, int screen) { return DisplayHeight(d, screen); }
static inline Visual *cx11_default_visual(Display *d, int screen) { return DefaultVisual(d, screen); }
static inline Colormap cx11_default_colormap(Display *d, int screen) { return DefaultColormap(d, screen); }
static inline int cx11_default_depth(Display *d, int screen) { return DefaultDepth(d, screen); }
static inline int cx11_connection_number(Display *d) { return ConnectionNumber(d); }

// Reading pixels back (tests and the benchmark compare screenshots): XGetPixel and
// XDestroyImage are macros over the image's function table.
static inline unsigned long cx11_get_pixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }
static inline void cx11_destroy_image(XImage *image) { XDestroyImage(image); }

// Xft keeps closed fonts for reuse and frees them in its close-display hook, which runs after
// Xrender's: freeing their glyph sets then re-registers the closing display with Xrender, and
// the next display opened at the same address inherits that stale entry (freed extension codes:
// RENDER requests go out with a garbage opcode and _XReply waits for ever, or aborts with
// "Extra reply data still left in queue"). With no unreferenced fonts kept, XftFontClose frees
// a font at once, while the display is whole.
static inline void cx11_xft_free_closed_fonts_at_once(Display *d) {
    FcPattern *p = FcPatternCreate();
    if (!p) return;
    FcPatternAddInteger(p, XFT_MAX_UNREF_FONTS, 0);
    XftDefaultSet(d, p);  // takes the pattern
}

// Moves the pointer to (x, y) on the default screen and clicks `button` (1 = left) through XTest.
static inline int cx11_xtest_click(Display *d, int x, int y, unsigned button) {
    int ok = XTestFakeMotionEvent(d, DefaultScreen(d), x, y, CurrentTime)
          && XTestFakeButtonEvent(d, button, True, CurrentTime)
          && XTestFakeButtonEvent(d, button, False, CurrentTime);
    XSync(d, False);
    return ok;
}

// XTest present on this display?
static inline int cx11_has_xtest(Display *d) {
    int ev, err, major, minor;
    return XTestQueryExtension(d, &ev, &err, &major, &minor);
}

// --- Keys by keysym through the current layout, and pointer gestures (issue 23) ---

static inline int cx11_xtest_keycode(Display *d, unsigned code, int down) {
    return XTestFakeKeyEvent(d, code, down ? True : False, CurrentTime);
}
static inline int cx11_xtest_button(Display *d, unsigned button, int down) {
    return XTestFakeButtonEvent(d, button, down ? True : False, CurrentTime);
}
static inline int cx11_xtest_motion(Display *d, int x, int y) {
    return XTestFakeMotionEvent(d, DefaultScreen(d), x, y, CurrentTime);
}
static inline void cx11_sync(Display *d) { XSync(d, False); }

// The keyboard's current group (the layout in use, 0 … 3).
static inline int cx11_xkb_group(Display *d) {
    XkbStateRec s;
    if (XkbGetState(d, XkbUseCoreKbd, &s) != Success) return 0;
    return s.group;
}

// The keycode and the modifiers (a real modifier mask) that type `keysym` in `group` of the
// current keymap, the level with the fewest modifiers; 0 when no key of that group has it. A key
// with fewer groups wraps the group (XKB's default). `levelOut`: the level found.
static inline int cx11_xkb_lookup(Display *d, unsigned long keysym, int group, unsigned *keycodeOut, unsigned *modsOut) {
    XkbDescPtr desc = XkbGetMap(d, XkbAllClientInfoMask, XkbUseCoreKbd);
    if (!desc) return 0;
    int found = 0, bestCount = 99;
    for (int kc = desc->min_key_code; kc <= desc->max_key_code; kc++) {
        int groups = XkbKeyNumGroups(desc, kc);
        if (groups <= 0) continue;
        int g = group % groups;
        XkbKeyTypePtr type = XkbKeyKeyType(desc, kc, g);
        int width = XkbKeyGroupWidth(desc, kc, g);
        for (int level = 0; level < width; level++) {
            if (XkbKeySymEntry(desc, kc, level, g) != keysym) continue;
            unsigned mods = 0;
            int reachable = level == 0;
            for (int e = 0; e < type->map_count && !reachable; e++) {
                if (type->map[e].active && type->map[e].level == level) {
                    mods = type->map[e].mods.mask;
                    reachable = 1;
                }
            }
            if (!reachable) continue;
            int count = __builtin_popcount(mods);
            if (count < bestCount) {
                bestCount = count;
                *keycodeOut = (unsigned)kc;
                *modsOut = mods;
                found = 1;
            }
        }
    }
    XkbFreeKeyboard(desc, 0, True);
    return found;
}

// A key that sets real modifier `bit` (0 Shift … 7 Mod5); 0 when none does.
static inline unsigned cx11_modifier_keycode(Display *d, int bit) {
    XModifierKeymap *map = XGetModifierMapping(d);
    if (!map) return 0;
    unsigned found = 0;
    for (int k = 0; k < map->max_keypermod && !found; k++) found = map->modifiermap[bit * map->max_keypermod + k];
    XFreeModifiermap(map);
    return found;
}

// Keycodes with no keysym at all (spare: a keysym the layout lacks is mapped onto one of them,
// as xdotool does), highest first, at most `max`; returns how many.
static inline int cx11_spare_keycodes(Display *d, unsigned *out, int max) {
    int min_kc = 0, max_kc = 0, per = 0, n = 0;
    XDisplayKeycodes(d, &min_kc, &max_kc);
    KeySym *syms = XGetKeyboardMapping(d, (KeyCode)min_kc, max_kc - min_kc + 1, &per);
    if (!syms) return 0;
    for (int kc = max_kc; kc >= min_kc && n < max; kc--) {
        int empty = 1;
        for (int i = 0; i < per && empty; i++) if (syms[(kc - min_kc) * per + i] != NoSymbol) empty = 0;
        if (empty) out[n++] = (unsigned)kc;
    }
    XFree(syms);
    return n;
}

// Maps `keycode` to `keysym` at its first two levels (NoSymbol: back to no keysym).
static inline void cx11_map_keycode(Display *d, unsigned keycode, unsigned long keysym) {
    KeySym syms[2] = { keysym, keysym };
    XChangeKeyboardMapping(d, (int)keycode, 2, syms, 1);
    XSync(d, False);
}

// An EWMH or ICCCM client message about window `w` (what pagers send, and what a window manager
// understands): to the root window with SubstructureRedirect|SubstructureNotify (`to_root`:
// _NET_ACTIVE_WINDOW, _NET_CLOSE_WINDOW), or to `w` itself (WM_PROTOCOLS with WM_DELETE_WINDOW
// when no window manager runs). The union XEvent cannot be built from Swift.
static inline int cx11_client_message(Display *d, Window root, Window w, Atom type, long d0, long d1, long d2, int to_root) {
    XEvent e = {0};
    e.xclient.type = ClientMessage;
    e.xclient.window = w;
    e.xclient.message_type = type;
    e.xclient.format = 32;
    e.xclient.data.l[0] = d0;
    e.xclient.data.l[1] = d1;
    e.xclient.data.l[2] = d2;
    Status ok = to_root
        ? XSendEvent(d, root, False, SubstructureRedirectMask | SubstructureNotifyMask, &e)
        : XSendEvent(d, w, False, NoEventMask, &e);
    XSync(d, False);
    return ok != 0;
}
