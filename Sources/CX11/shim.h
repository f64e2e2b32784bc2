// Xlib, the SHAPE extension and Xft for the on-screen highlight (Sources/SwitchOverlay).
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/shape.h>
#include <X11/Xft/Xft.h>

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
