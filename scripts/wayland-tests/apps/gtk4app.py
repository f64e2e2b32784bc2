#!/usr/bin/python3
"""The Wayland tests' GTK 4 application (Debian's python3-gi, gir1.2-gtk-4.0; GDK_BACKEND=wayland).
A window "GTK4 test", 400x300, with the button "GTK4 press" (pressing it renames it
"GTK4 pressed N") and an entry. GTK 4.8 reports a button's content box, not its border box, over
AT-SPI: the tests measure it."""
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk, GLib

# GTK 4 names itself on the a11y bus by the application name ("Unnamed" without one).
GLib.set_prgname("gtk4app.py")
GLib.set_application_name("gtk4app.py")
loop = GLib.MainLoop()
win = Gtk.Window(title="GTK4 test")
win.set_default_size(400, 300)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
for side in ("top", "bottom", "start", "end"):
    getattr(box, "set_margin_" + side)(24)
box.append(Gtk.Label(label="GTK 4 target"))
button = Gtk.Button(label="GTK4 press")
presses = [0]
def pressed(_b):
    presses[0] += 1
    button.set_label("GTK4 pressed %d" % presses[0])
button.connect("clicked", pressed)
box.append(button)
box.append(Gtk.Entry())
win.set_child(box)
win.connect("close-request", lambda *_: (loop.quit(), False)[1])
win.present()
print("ready", flush=True)
loop.run()
