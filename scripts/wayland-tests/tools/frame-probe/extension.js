// Frame probe (a diagnostic GNOME Shell 43 extension, run.sh installs it; not a test): stamps, in
// CLOCK_MONOTONIC µs, of the stage's before-update, before-paint, after-paint and after-update,
// and with FRAME_PROBE_STALLS=1 the main loop's stalls (a 2 ms high-priority timer's lateness over
// 2 ms: "stall <due> <late µs>"), appended once a second to $FRAME_PROBE_OUT.
const {GLib, Gio} = imports.gi;
let lines = [], path = null;
function stamp(what) { lines.push(`${what} ${GLib.get_monotonic_time()}`); }
function flush() {
    if (lines.length === 0) return GLib.SOURCE_CONTINUE;
    const f = Gio.File.new_for_path(path);
    const s = f.append_to(Gio.FileCreateFlags.NONE, null);
    s.write_all(lines.join('\n') + '\n', null); s.close(null);
    lines = [];
    return GLib.SOURCE_CONTINUE;
}
function init() {}
function enable() {
    path = GLib.getenv('FRAME_PROBE_OUT') || '/tmp/frame-probe.txt';
    for (const sig of ['before-update', 'before-paint', 'after-paint', 'after-update'])
        global.stage.connect(sig, () => stamp(sig));
    if (GLib.getenv('FRAME_PROBE_STALLS') === '1') {
        let due = GLib.get_monotonic_time() + 2000;
        GLib.timeout_add(GLib.PRIORITY_HIGH, 2, () => {
            const now = GLib.get_monotonic_time();
            if (now - due > 2000)
                lines.push(`stall ${due} ${now - due}`);
            due = now + 2000;
            return GLib.SOURCE_CONTINUE;
        });
    }
    GLib.timeout_add(GLib.PRIORITY_LOW, 1000, flush);
}
function disable() {}   // the session ends with the Shell
