#!/usr/bin/python3
"""switchscan's GTK3 application for the typing tests (Debian's /usr/bin/python3 with python3-gi
and gir1.2-gtk-3.0). A fixed window at (0, 0), 600x500, top to bottom:

  "Notes"      a GtkTextView (multi-line; AT-SPI EditableText)
  "Locked"     a GtkEntry that refuses text: its insert-text handler stops every insertion
               (an application that refuses text)
  "Key log"    a focusable drawing area that takes key events and has no Text and no
               EditableText (an application without EditableText: only key events reach it); it
               has the keyboard focus at the start. Each character it receives is appended to the
               label below it, "Received: …", and printed as "key <char>"
  "Clear"      a button: empties the key log

Prints "ready" once the window is mapped and the key log has the focus.
"""
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gtk, Gdk, GLib

win = Gtk.Window(title="Typing test")
win.set_default_size(600, 500)
win.move(0, 0)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6, margin=8)
win.add(box)

notes = Gtk.TextView()
notes.set_size_request(-1, 120)
notes.get_accessible().set_name("Notes")

locked = Gtk.Entry()
locked.get_accessible().set_name("Locked")
locked.connect("insert-text", lambda e, *_: e.stop_emission_by_name("insert-text"))

received = Gtk.Label(label="Received: ", xalign=0)
area = Gtk.DrawingArea()
area.set_size_request(-1, 80)
area.set_can_focus(True)
area.add_events(Gdk.EventMask.KEY_PRESS_MASK | Gdk.EventMask.BUTTON_PRESS_MASK)
area.get_accessible().set_name("Key log")

def on_key(_w, ev):
    c = Gdk.keyval_to_unicode(ev.keyval)
    if c >= 32:
        received.set_text(received.get_text() + chr(c))
        print("key " + chr(c), flush=True)
    return True
area.connect("key-press-event", on_key)
area.connect("draw", lambda w, cr: (cr.set_source_rgb(0.9, 0.9, 0.8), cr.paint(), False)[2])

clear = Gtk.Button(label="Clear")
clear.connect("clicked", lambda _b: received.set_text("Received: "))

for w in (notes, locked, area, received, clear):
    box.pack_start(w, False, False, 0)

def mapped(*_):
    # Once: on Wayland (sway) present() maps the window again, and the handler would run forever.
    win.disconnect_by_func(mapped)
    area.grab_focus()
    win.present()
    GLib.timeout_add(200, lambda: (print("ready", flush=True), False)[1])
    return False

win.connect("destroy", Gtk.main_quit)
win.connect("map-event", mapped)
win.show_all()
Gtk.main()
