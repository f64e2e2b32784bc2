// switchscan's KWin script: reports every window to switchscan over D-Bus on every change, and
// activates or closes a window when switchscan asks (the contract: README.md beside this file).
//
// Installed as PREFIX/share/switchscan/kwin/switchscan-windows.js; switchscan loads it with
// org.kde.KWin /Scripting loadScript(path, "switchscan") and runs it, after its own D-Bus name
// org.switchscan.KWinHelper is on the session bus.
//
// KWin 5.27 (Plasma 5) and KWin 6 (Plasma 6) both: Plasma 6 renamed clients to windows
// (clientList -> windowList, activeClient -> activeWindow, clientAdded -> windowAdded, ...);
// which one runs is told by what `workspace` has, at run time.
//
// Reports: Windows(s json) with a JSON array, one object per window in stacking order:
//   {"id": internalId, "pid", "caption", "resourceClass", "active", "type",
//    "buffer": {x, y, w, h}, "frame": {...}, "client": {...} or null}
// Requests: a long poll. The script calls NextRequest() → s; switchscan answers when it has a
// request ({"serial": n, "op": "activate"|"close", "id": internalId}) or with "" within 20 s (KWin
// drops a call's reply after 25 s, and a dropped reply would end the poll); the script carries it
// out, calls Result(s serial, b found) and polls again.
var SERVICE = "org.switchscan.KWinHelper";
var PATH = "/org/switchscan/KWinHelper";
var IFACE = "org.switchscan.KWinHelper";

var plasma6 = typeof workspace.windowList === "function";

function allWindows() {
    return plasma6 ? workspace.windowList() : workspace.clientList();
}

function activeWindow() {
    return plasma6 ? workspace.activeWindow : workspace.activeClient;
}

function activate(w) {
    if (plasma6)
        workspace.activeWindow = w;
    else
        workspace.activeClient = w;
}

function rect(g) {
    return g ? {x: g.x, y: g.y, w: g.width, h: g.height} : null;
}

function typeOf(w) {
    if (w.normalWindow) return "normal";
    if (w.dialog) return "dialog";
    if (w.popupWindow) return "popup";
    if (w.dock) return "dock";
    if (w.desktopWindow) return "desktop";
    return "other";
}

function describe(w, active) {
    return {
        id: String(w.internalId),
        pid: w.pid,
        caption: String(w.caption),
        resourceClass: String(w.resourceClass),
        active: w === active,
        type: typeOf(w),
        buffer: rect(w.bufferGeometry),
        frame: rect(w.frameGeometry),
        client: w.clientGeometry !== undefined ? rect(w.clientGeometry) : null
    };
}

function report() {
    var list = allWindows();
    var active = activeWindow();
    var out = [];
    for (var i = 0; i < list.length; i++) {
        if (!list[i].deleted)
            out.push(describe(list[i], active));
    }
    callDBus(SERVICE, PATH, IFACE, "Windows", JSON.stringify(out));
}

function watch(w) {
    w.frameGeometryChanged.connect(report);
    if (w.bufferGeometryChanged)
        w.bufferGeometryChanged.connect(report);
    w.captionChanged.connect(report);
}

function handle(text) {
    if (!text)
        return;
    var request;
    try {
        request = JSON.parse(text);
    } catch (e) {
        print("switchscan: a request that is not JSON: " + text);
        return;
    }
    var list = allWindows();
    var found = null;
    for (var i = 0; i < list.length; i++) {
        if (String(list[i].internalId) === request.id)
            found = list[i];
    }
    if (found && request.op === "activate")
        activate(found);
    else if (found && request.op === "close")
        found.closeWindow();
    callDBus(SERVICE, PATH, IFACE, "Result", String(request.serial), found !== null && (request.op === "activate" || request.op === "close"));
}

function poll() {
    callDBus(SERVICE, PATH, IFACE, "NextRequest", function (text) {
        handle(text);
        poll();
    });
}

var existing = allWindows();
for (var i = 0; i < existing.length; i++)
    watch(existing[i]);
if (plasma6) {
    workspace.windowAdded.connect(function (w) { watch(w); report(); });
    workspace.windowRemoved.connect(report);
    workspace.windowActivated.connect(report);
} else {
    workspace.clientAdded.connect(function (w) { watch(w); report(); });
    workspace.clientRemoved.connect(report);
    workspace.clientActivated.connect(report);
}
report();
poll();
