#!/usr/bin/python3
"""The scanner menu's live tests' GTK3 application (issue 23; Debian's /usr/bin/python3 with
python3-gi and gir1.2-gtk-3.0). A fixed window at (0, 0), 480x400, widgets at fixed places
(GtkFixed), each with a fixed accessible name:

  "Text"          entry holding "hello switch", with the keyboard focus (its right-click menu:
                  GTK's own, Cut … Select All)
  "Fruit"         tree view of Apples, Bananas, Cherries: activating a row (a double click) sets
                  the label below it to "Activated: <fruit>"
  "Level"         horizontal scale 0..100 at (20, 230), 400 wide, starting at 50 (its knob is its
                  centre), no value drawn
  "Drop here"     a button at (340, 280) under the scale's right end: a drag's drop target

Prints "ready" once the window is mapped and focused.
"""
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gtk, Gdk

win = Gtk.Window(title="Menu test")
win.set_default_size(480, 400)
win.move(0, 0)
fixed = Gtk.Fixed()
win.add(fixed)

entry = Gtk.Entry(text="hello switch")
entry.set_size_request(300, 30)
entry.get_accessible().set_name("Text")
fixed.put(entry, 20, 20)

store = Gtk.ListStore(str)
for fruit in ("Apples", "Bananas", "Cherries"):
    store.append([fruit])
tree = Gtk.TreeView(model=store)
tree.append_column(Gtk.TreeViewColumn("Fruit", Gtk.CellRendererText(), text=0))
tree.set_size_request(300, 110)
tree.get_accessible().set_name("Fruit")
fixed.put(tree, 20, 70)
activated = Gtk.Label(label="Activated: none", xalign=0)
tree.connect("row-activated", lambda _t, path, _c: activated.set_text("Activated: " + store[path][0]))
fixed.put(activated, 20, 190)

scale = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1)
scale.set_draw_value(False)
scale.set_value(50)
scale.set_size_request(400, 40)
scale.get_accessible().set_name("Level")
fixed.put(scale, 20, 230)

drop = Gtk.Button(label="Drop here")
drop.set_size_request(80, 30)
fixed.put(drop, 340, 280)

def mapped(*_):
    entry.grab_focus()
    win.get_window().focus(Gdk.CURRENT_TIME)
    print("ready", flush=True)
    return False

win.connect("destroy", Gtk.main_quit)
win.connect("map-event", mapped)
win.show_all()
Gtk.main()
