#!/usr/bin/python3
"""A hostile application on the accessibility bus (issue 19's robustness tests, HostileTreeTests):
it speaks AT-SPI itself over D-Bus (Debian's /usr/bin/python3 with python3-gi; no toolkit), so its
tree can be what no toolkit would publish. One window "Hostile" (0, 0, 800, 600) holding, by MODE:

  cycle    a panel that holds a panel that holds the first one again (and the window, and itself):
           a node that is its own descendant; buttons "Inside" and "OK" once each
  million  a list with a million children ("Row 0" … "Row 999999", buttons 20 px high; the first
           30 show); GetChildren lists them all (a 20 MB reply, made when first asked); then a button "OK"
  longname a button whose name is 10 MB ("Long é" then "é" repeated: two bytes each) and "OK"
  deep     a chain of 100,000 panels, each inside the one before, a button "Deep" at the bottom;
           then a button "OK"

  hostile-app.py MODE READY_FILE   (READY_FILE is written once the registry has embedded it)

Every object answers the Accessible, Component and Action calls switchscan and libatspi make;
anything else gets an error. The application's name is "Hostile".
"""
import os, struct, sys
import gi
from gi.repository import Gio, GLib

mode, ready_file = sys.argv[1], sys.argv[2]
ROOT = "/org/a11y/atspi/accessible/root"

APPLICATION, FRAME, LIST, PANEL, PUSH_BUTTON = 75, 23, 31, 39, 43
ACTIVE, ENABLED, FOCUSABLE, SENSITIVE, SHOWING, VISIBLE = 1, 8, 11, 24, 25, 30

def states(*bits):
    words = [0, 0]
    for b in bits:
        words[b // 32] |= 1 << (b % 32)
    return words

SHOWN = states(ENABLED, SENSITIVE, SHOWING, VISIBLE)
BUTTON = states(ENABLED, SENSITIVE, SHOWING, VISIBLE, FOCUSABLE)
HIDDEN_BUTTON = states(ENABLED, SENSITIVE, VISIBLE, FOCUSABLE)

class Node:
    def __init__(self, role, name, st, extents, children=(), parent=ROOT):
        self.role, self.name, self.states, self.extents = role, name, st, extents
        self.children, self.parent = list(children), parent
        self.name_variant = None  # made once: a 10 MB name is not encoded again at every call

nodes = {
    ROOT: Node(APPLICATION, "Hostile", states(), (0, 0, 0, 0), ["/w"], parent=None),
}
window = Node(FRAME, "Hostile", states(ACTIVE, ENABLED, SENSITIVE, SHOWING, VISIBLE), (0, 0, 800, 600))
nodes["/w"] = window
ok = Node(PUSH_BUTTON, "OK", BUTTON, (700, 560, 80, 30), parent="/w")
nodes["/ok"] = ok

million = None
if mode == "cycle":
    nodes["/a"] = Node(PANEL, "", SHOWN, (0, 0, 800, 500), ["/b", "/inside"], parent="/w")
    nodes["/b"] = Node(PANEL, "", SHOWN, (0, 0, 800, 500), ["/a", "/w", "/b", "/inside"], parent="/a")
    nodes["/inside"] = Node(PUSH_BUTTON, "Inside", BUTTON, (10, 10, 100, 30), parent="/b")
    window.children = ["/a", "/ok"]
elif mode == "million":
    million = 1_000_000
    nodes["/l"] = Node(LIST, "Rows", SHOWN, (0, 0, 800, 600), parent="/w")
    window.children = ["/l", "/ok"]
elif mode == "longname":
    nodes["/big"] = Node(PUSH_BUTTON, "Long é" + "é" * (5 * 1024 * 1024 - 3), BUTTON, (10, 10, 300, 30), parent="/w")
    window.children = ["/big", "/ok"]
elif mode == "deep":
    depth = 100_000
    for k in range(depth):
        nodes["/d/%d" % k] = Node(PANEL, "", SHOWN, (0, 0, 800, 500), ["/d/%d" % (k + 1)], parent="/w" if k == 0 else "/d/%d" % (k - 1))
    nodes["/d/%d" % depth] = Node(PUSH_BUTTON, "Deep", BUTTON, (10, 10, 100, 30), parent="/d/%d" % (depth - 1))
    window.children = ["/d/0", "/ok"]
else:
    sys.exit("unknown mode " + mode)

def row(path):
    """The list's rows are made on demand: /r/N."""
    if million and path.startswith("/r/"):
        try:
            k = int(path[3:])
        except ValueError:
            return None
        if 0 <= k < million:
            return Node(PUSH_BUTTON, "Row %d" % k, BUTTON if k < 30 else HIDDEN_BUTTON, (0, 20 * k, 800, 20), parent="/l")
    return None

def node(path):
    return nodes.get(path) or row(path)

address = os.environ.get("AT_SPI_BUS_ADDRESS")
if not address:
    session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    address = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                                GLib.VariantType("(s)"), 0, -1, None).unpack()[0]
conn = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
me = conn.get_unique_name()

def children_reply_million():
    """(a(so)) of the million rows, serialized by hand (GLib.Variant from a Python list of a million
    tuples takes tens of seconds): GVariant's format, each (so) element then its framing offset,
    then the array's offsets table."""
    name = me.encode() + b"\0"
    parts, ends, size = [], [], 0
    for k in range(million):
        path = b"/r/%d\0" % k
        el = name + path + bytes([len(name)])
        parts.append(el)
        size += len(el)
        ends.append(size)
    width = 1 if size + million <= 0xFF else 2 if size + 2 * million <= 0xFFFF else 4
    fmt = {1: "B", 2: "H", 4: "I"}[width]
    data = b"".join(parts) + struct.pack("<%d%s" % (million, fmt), *ends)
    return GLib.Variant.new_from_bytes(GLib.VariantType("(a(so))"), GLib.Bytes.new(data), False)

million_reply = None  # made when first asked for (switchscan never asks)

def ref(path):
    return (me, path) if path else ("", "/org/a11y/atspi/null")

def children(path, n):
    if path == "/l" and million:
        return None  # the big reply
    return GLib.Variant("(a(so))", ([ref(c) for c in n.children],))

def child_count(path, n):
    return million if path == "/l" and million else len(n.children)

def interfaces(n):
    i = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"]
    if n.role == PUSH_BUTTON:
        i.append("org.a11y.atspi.Action")
    if n.role == APPLICATION:
        i.append("org.a11y.atspi.Application")
    return i

def prop(path, n, iface, name):
    if iface == "org.a11y.atspi.Accessible":
        if name == "Name":
            if n.name_variant is None:
                n.name_variant = GLib.Variant("s", n.name)
            return n.name_variant
        if name == "Description": return GLib.Variant("s", "")
        if name == "ChildCount": return GLib.Variant("i", child_count(path, n))
        if name == "Parent": return GLib.Variant("(so)", ref(n.parent))
        if name == "Locale": return GLib.Variant("s", "C")
        if name == "AccessibleId": return GLib.Variant("s", "")
        if name == "HelpText": return GLib.Variant("s", "")
    if iface == "org.a11y.atspi.Application" and path == ROOT:
        if name == "ToolkitName": return GLib.Variant("s", "hostile")
        if name == "Version": return GLib.Variant("s", "1")
        if name == "AtspiVersion": return GLib.Variant("s", "2.1")
        if name == "Id": return GLib.Variant("i", 1)
    return None

def answer(msg):
    path, iface, member = msg.get_path(), msg.get_interface(), msg.get_member()
    body = msg.get_body()
    args = body.unpack() if body is not None else ()
    n = node(path)
    if n is None:
        return ("org.freedesktop.DBus.Error.UnknownObject", "no object at " + path)
    if iface == "org.freedesktop.DBus.Properties":
        if member == "Get":
            v = prop(path, n, args[0], args[1])
            return GLib.Variant("(v)", (v,)) if v is not None else ("org.freedesktop.DBus.Error.UnknownProperty", args[1])
        if member == "GetAll":
            names = ["Name", "Description", "ChildCount", "Parent", "Locale", "AccessibleId"] if args[0] == "org.a11y.atspi.Accessible" else \
                    ["ToolkitName", "Version", "AtspiVersion", "Id"]
            d = {k: prop(path, n, args[0], k) for k in names}
            return GLib.Variant("(a{sv})", ({k: v for k, v in d.items() if v is not None},))
    if iface == "org.a11y.atspi.Accessible":
        if member == "GetRole": return GLib.Variant("(u)", (n.role,))
        if member == "GetState": return GLib.Variant("(au)", (n.states,))
        if member == "GetInterfaces": return GLib.Variant("(as)", (interfaces(n),))
        if member == "GetChildren": return children(path, n)
        if member == "GetChildAtIndex":
            k = args[0]
            if path == "/l" and million:
                return GLib.Variant("((so))", (ref("/r/%d" % k if 0 <= k < million else None),))
            return GLib.Variant("((so))", (ref(n.children[k] if 0 <= k < len(n.children) else None),))
        if member == "GetIndexInParent":
            p = node(n.parent) if n.parent else None
            return GLib.Variant("(i)", (p.children.index(path) if p and path in p.children else (int(path[3:]) if path.startswith("/r/") else -1),))
        if member == "GetAttributes": return GLib.Variant("(a{ss})", ({},))
        if member == "GetRelationSet": return GLib.Variant("(a(ua(so)))", ([],))
        if member == "GetApplication": return GLib.Variant("((so))", (ref(ROOT),))
        if member == "GetRoleName": return GLib.Variant("(s)", ("",))
        if member == "GetLocalizedRoleName": return GLib.Variant("(s)", ("",))
    if iface == "org.a11y.atspi.Component":
        if member == "GetExtents": return GLib.Variant("((iiii))", (n.extents,))
        if member == "GetPosition": return GLib.Variant("(ii)", n.extents[:2])
        if member == "GetSize": return GLib.Variant("(ii)", n.extents[2:])
        if member in ("GrabFocus", "ScrollTo"): return GLib.Variant("(b)", (True,))
    if iface == "org.a11y.atspi.Action" and n.role == PUSH_BUTTON:
        if member == "GetActions": return GLib.Variant("(a(sss))", ([("click", "", "")],))
        if member == "GetNActions": return GLib.Variant("(i)", (1,))
        if member == "GetName": return GLib.Variant("(s)", ("click",))
        if member == "DoAction": return GLib.Variant("(b)", (True,))
    return ("org.freedesktop.DBus.Error.UnknownMethod", "%s.%s" % (iface, member))

def on_message(connection, msg, incoming):
    if not incoming or msg.get_message_type() != Gio.DBusMessageType.METHOD_CALL:
        return msg
    if msg.get_interface() in ("org.freedesktop.DBus.Peer",):
        return msg
    try:
        out = answer(msg)
        if out is None:
            global million_reply
            if million_reply is None:
                million_reply = children_reply_million()
            reply = msg.new_method_reply()
            reply.set_body(million_reply)
        elif isinstance(out, tuple):
            reply = msg.new_method_error_literal(out[0], out[1])
        else:
            reply = msg.new_method_reply()
            reply.set_body(out)
    except Exception as e:  # a bug here must not look like a hang
        reply = msg.new_method_error_literal("org.freedesktop.DBus.Error.Failed", repr(e))
    if not msg.get_flags() & Gio.DBusMessageFlags.NO_REPLY_EXPECTED:
        connection.send_message(reply, Gio.DBusSendMessageFlags.NONE)
    return None

conn.add_filter(on_message)
conn.call_sync("org.a11y.atspi.Registry", ROOT, "org.a11y.atspi.Socket", "Embed",
               GLib.Variant("((so))", ((me, ROOT),)), GLib.VariantType("((so))"), 0, 10000, None)
with open(ready_file, "w") as f:
    f.write("ready\n")
GLib.MainLoop().run()
