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
