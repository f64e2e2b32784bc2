#!/usr/bin/python3
"""The scroll tests' GTK3 application (issue 19; Debian's /usr/bin/python3 with python3-gi and
gir1.2-gtk-3.0): a window at (0, 0), 400x300, holding a scrolled tree view "Rows" of 100 rows
("Row 1" … "Row 100"), twelve of them in view, and its scroll bar "Rows scroll bar" (named
for the checker, which reads its Value). Activating a row (a double click, or the cell's action) sets the window's title to
"Activated: <row>".
"""
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gtk, Gdk

win = Gtk.Window(title="List test")
win.set_default_size(400, 300)
win.move(0, 0)
store = Gtk.ListStore(str)
for k in range(1, 101):
    store.append(["Row %d" % k])
tree = Gtk.TreeView(model=store)
tree.append_column(Gtk.TreeViewColumn("Name", Gtk.CellRendererText(), text=0))
tree.get_accessible().set_name("Rows")
tree.connect("row-activated", lambda _t, path, _c: win.set_title("Activated: " + store[path][0]))
pane = Gtk.ScrolledWindow()
pane.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.ALWAYS)
pane.add(tree)
pane.get_vscrollbar().get_accessible().set_name("Rows scroll bar")
win.add(pane)

def mapped(*_):
    win.get_window().focus(Gdk.CURRENT_TIME)
    print("ready", flush=True)
    return False

win.connect("destroy", Gtk.main_quit)
win.connect("map-event", mapped)
win.show_all()
Gtk.main()
