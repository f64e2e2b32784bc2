#!/usr/bin/python3
"""The Wayland tests' application (Debian's /usr/bin/python3 with python3-gi), GTK 3 or GTK 4:

  "Press me"   push button: each click renames it "Pressed N" (read back through AT-SPI)
  "Type here"  text entry (its accessible name)
  "Target"     push button painted #FF00FF edge to edge (no border, padding, margin or shadow),
               so where AT-SPI says it is can be checked against a screenshot to the pixel
  "Close me"   quits

Options: --gtk 3|4 (default 3), --title T (default "Wayland test"), --size WxH (default 400x300),
--name N (the application's name on the accessibility bus, default "wlapp.py"), --headerbar (a
GtkHeaderBar as the title bar: the window draws its own decorations and shadows, as GNOME
applications do, whatever the compositor offers), --fixed (not resizable: tiled, sway centres it in
its tile), --keys (GTK 3: every key the window receives is printed as "key NAME MODIFIERS", e.g.
"key a control", "key XF86AudioRaiseVolume": keys that carry no character read back by keysym).
Prints "ready" once the window is mapped, "clicked N" after each click and "text T" after each
change of the entry.
"""
import argparse
import gi

ap = argparse.ArgumentParser()
ap.add_argument("--gtk", default="3", choices=["3", "4"])
ap.add_argument("--title", default="Wayland test")
ap.add_argument("--size", default="400x300")
ap.add_argument("--name", default="wlapp.py")
ap.add_argument("--headerbar", action="store_true")
ap.add_argument("--fixed", action="store_true")
ap.add_argument("--keys", action="store_true")
args = ap.parse_args()
gi.require_version("Gtk", args.gtk + ".0")
from gi.repository import Gtk, GLib
# The application's name on the accessibility bus (GTK 4 says "Unnamed" without one).
GLib.set_prgname(args.name)
GLib.set_application_name(args.name)

CSS = b"""
#target { background-image: none; background-color: #ff00ff; color: #ff00ff; border: none;
          border-radius: 0; box-shadow: none; outline: none; padding: 0; margin: 0;
          min-height: 40px; text-shadow: none; }
"""
width, height = (int(v) for v in args.size.split("x"))
gtk4 = args.gtk == "4"
win = Gtk.Window(title=args.title)
if args.headerbar:
    bar = Gtk.HeaderBar()
    if gtk4:
        bar.set_show_title_buttons(True)
    else:
        bar.set_show_close_button(True)
        bar.set_title(args.title)
    win.set_titlebar(bar)
win.set_default_size(width, height)
if args.fixed:
    win.set_size_request(width, height)
    win.set_resizable(False)

provider = Gtk.CssProvider()
provider.load_from_data(CSS)
if gtk4:
    Gtk.StyleContext.add_provider_for_display(win.get_display(), provider, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
else:
    Gtk.StyleContext.add_provider_for_screen(win.get_screen(), provider, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=10)
for side in ("top", "bottom", "start", "end"):
    getattr(box, "set_margin_" + side)(20)

count = [0]
def pressed(button):
    count[0] += 1
    button.set_label("Pressed %d" % count[0])
    print("clicked %d" % count[0], flush=True)
press = Gtk.Button(label="Press me")
press.connect("clicked", pressed)

entry = Gtk.Entry()
def changed(e):
    print("text " + e.get_text(), flush=True)
entry.connect("changed", changed)

target = Gtk.Button(label="Target")
target.set_name("target")

close = Gtk.Button(label="Close me")

if gtk4:
    entry.update_property([Gtk.AccessibleProperty.LABEL], ["Type here"])
    for w in (press, entry, target, close):
        box.append(w)
    win.set_child(box)
    loop = GLib.MainLoop()
    close.connect("clicked", lambda _b: win.destroy())
    win.connect("destroy", lambda _w: loop.quit())
    def mapped(_w):
        print("ready", flush=True)
    win.connect("map", mapped)
    win.present()
    loop.run()
else:
    entry.get_accessible().set_name("Type here")
    for w in (press, entry, target, close):
        box.pack_start(w, False, False, 0)
    win.add(box)
    close.connect("clicked", lambda _b: Gtk.main_quit())
    win.connect("destroy", Gtk.main_quit)
    win.connect("map-event", lambda *_: (print("ready", flush=True), False)[1])
    if args.keys:
        from gi.repository import Gdk
        def key(_w, ev):
            mods = [n for n, m in (("control", Gdk.ModifierType.CONTROL_MASK), ("shift", Gdk.ModifierType.SHIFT_MASK),
                                   ("alt", Gdk.ModifierType.MOD1_MASK)) if ev.state & m]
            print(" ".join(["key", Gdk.keyval_name(ev.keyval) or hex(ev.keyval)] + mods), flush=True)
            return False   # the focused widget still gets it
        win.connect("key-press-event", key)
    win.show_all()
    Gtk.main()
