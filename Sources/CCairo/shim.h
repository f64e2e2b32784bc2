#ifndef SWITCHSCAN_CCAIRO_SHIM_H
#define SWITCHSCAN_CCAIRO_SHIM_H
// The wall around cairo and Pango for the Wayland overlay (Sources/SwitchDisplayServers/Wayland):
// cairo draws the overlay scene into image surfaces over wl_shm buffers, Pango lays text out in
// DejaVu Sans (the font the X11 overlay's Xft draws with) and measures it. Everything needed is
// a plain function; nothing here but the headers.
#include <cairo.h>
#include <pango/pangocairo.h>
#endif
