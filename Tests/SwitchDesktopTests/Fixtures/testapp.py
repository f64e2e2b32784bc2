#!/usr/bin/python3
"""switchscan's own GTK3 test application (Debian's /usr/bin/python3 with python3-gi and
gir1.2-gtk-3.0). A fixed window at (0, 0), 480x600, with one widget of each kind the desktop tests
drive, each with a fixed accessible name:

  "Count"          push button: the label below it says "Clicked N times"
  "Bold"           toggle button
  "Volume"         slider 0..100, step 5, starts at 40
  "Name"           text entry, labelled by the label "Name" (LABELLED_BY; the entry has no name)
  "General"/"Advanced"/"About"   notebook tabs, one button on each page ("Apply", "Reset", "Credits")
  "Open dialog"    opens the modal dialog "Confirm" (at 120, 200) with "Remember" (check box),
                   "Cancel" and "OK"; either button closes it
  "Add row"        appends a button "Row N" to the list "Rows" (gtk_container_add)
  "Quit"           quits

Options: --title T (window title, default "Switch test"); --rows-max N (keep at most N rows: the
oldest goes when a row is added beyond it, so repeated changes keep the window's size);
--freeze SECS (a last button "Freeze": 0.3 s after it is clicked a helper stops this process
with SIGSTOP, and continues it SECS later: an application that does not answer, at a moment a
test chooses, after the click itself was answered);
--add-every MS (add a row every MS milliseconds and print "changed <CLOCK_MONOTONIC µs> <rows>"
after each: the benchmark's UI changes); --add-count N (stop after N such rows); --add-when PATH
(start adding only once PATH exists: a test starts the changes when its run is ready to see
them); --shift-every MS (show and hide the heading in turn every MS milliseconds, so every widget
below it moves up or down, and print "changed <CLOCK_MONOTONIC µs>" after each: the display
benchmark's moves of the highlighted widget). Prints "ready" once the window is mapped.
"""
import argparse
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Atk", "1.0")
from gi.repository import Gtk, Atk, GLib

ap = argparse.ArgumentParser()
ap.add_argument("--title", default="Switch test")
ap.add_argument("--rows-max", type=int, default=0)
ap.add_argument("--add-every", type=int, default=0)
ap.add_argument("--add-count", type=int, default=0)
ap.add_argument("--add-when", default="")
ap.add_argument("--freeze", type=float, default=0)
ap.add_argument("--shift-every", type=int, default=0)
args = ap.parse_args()

win = Gtk.Window(title=args.title)
win.set_default_size(480, 600)
win.move(0, 0)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4, margin=8)
win.add(box)

count = [0]
status = Gtk.Label(label="Clicked 0 times", xalign=0)
def on_count(_b):
    count[0] += 1
    status.set_text("Clicked %d times" % count[0])
b_count = Gtk.Button(label="Count")
b_count.connect("clicked", on_count)

bold = Gtk.ToggleButton(label="Bold")

scale = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 5)
scale.set_value(40)
scale.get_accessible().set_name("Volume")

name_row = Gtk.Box(spacing=6)
name_label = Gtk.Label(label="Name")
entry = Gtk.Entry()
name_label.set_mnemonic_widget(entry)   # LABELLED_BY / LABEL_FOR relations; the entry stays unnamed
name_row.pack_start(name_label, False, False, 0)
name_row.pack_start(entry, True, True, 0)

notebook = Gtk.Notebook()
for tab, button in (("General", "Apply"), ("Advanced", "Reset"), ("About", "Credits")):
    page = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, margin=6)
    page.pack_start(Gtk.Button(label=button), False, False, 0)
    notebook.append_page(page, Gtk.Label(label=tab))

def on_dialog(_b):
    d = Gtk.Dialog(title="Confirm", transient_for=win, modal=True)
    d.move(120, 200)
    d.get_content_area().add(Gtk.CheckButton(label="Remember"))
    d.add_button("Cancel", Gtk.ResponseType.CANCEL)
    d.add_button("OK", Gtk.ResponseType.OK)
    d.connect("response", lambda dlg, _r: dlg.destroy())
    d.show_all()
b_dialog = Gtk.Button(label="Open dialog")
b_dialog.connect("clicked", on_dialog)

rows = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
rows.get_accessible().set_name("Rows")
added = [0]
def add_row():
    added[0] += 1
    row = Gtk.Button(label="Row %d" % added[0])
    rows.add(row)   # gtk_container_add: emits children-changed (pack_start would not)
    row.show()
    kids = rows.get_children()
    if args.rows_max and len(kids) > args.rows_max:
        kids[0].destroy()
b_add = Gtk.Button(label="Add row")
b_add.connect("clicked", lambda _b: add_row())

b_quit = Gtk.Button(label="Quit")
b_quit.connect("clicked", lambda _b: Gtk.main_quit())

heading = Gtk.Label(label="Switch test", xalign=0)
heading.get_accessible().set_role(Atk.Role.HEADING)
for w in (heading, b_count, status, bold, scale, name_row, notebook, b_dialog, b_add, rows, b_quit):
    box.pack_start(w, False, False, 0)

if args.freeze:
    import os, subprocess
    def freeze(_b):
        pid = os.getpid()
        subprocess.Popen(["/bin/sh", "-c", "sleep 0.3; kill -STOP %d; sleep %g; kill -CONT %d" % (pid, args.freeze, pid)])
    b_freeze = Gtk.Button(label="Freeze")
    b_freeze.connect("clicked", freeze)
    box.pack_start(b_freeze, False, False, 0)

if args.add_every:
    import os
    def tick():
        if args.add_when and not os.path.exists(args.add_when):
            return True
        add_row()
        print("changed %d %d" % (GLib.get_monotonic_time(), len(rows.get_children())), flush=True)
        return not args.add_count or added[0] < args.add_count
    GLib.timeout_add(args.add_every, tick)

if args.shift_every:
    def shift():
        heading.set_visible(not heading.get_visible())
        print("changed %d" % GLib.get_monotonic_time(), flush=True)
        return True
    GLib.timeout_add(args.shift_every, shift)

win.connect("destroy", Gtk.main_quit)
win.connect("map-event", lambda *_: (print("ready", flush=True), False)[1])
win.show_all()
Gtk.main()
