// The windows: listed with their buffer and frame rectangles, activated, closed, and watched so
// that one WindowsChanged follows any burst of changes (created, closed, moved, resized, retitled,
// focus), coalesced to one per main-loop turn (a window dragged across the screen sends one per
// frame at most, not one per position-changed).

/**
 * env: {GLib, Meta, Main, global}; onChanged: called (coalesced) after the windows changed.
 * Returns {enable(), disable(), list(), activate(id), close(id)}.
 */
export function createWindows(env, onChanged) {
    const {GLib, Meta, Main} = env;
    const display = env.global.display;
    const watched = new Map(); // Meta.Window -> its signal handler ids
    let displayIds = [];
    let idleId = 0;

    function changed() {
        if (idleId)
            return;
        idleId = GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
            idleId = 0;
            onChanged();
            return GLib.SOURCE_REMOVE;
        });
    }

    function unwatch(win) {
        for (const id of watched.get(win) ?? [])
            win.disconnect(id);
        watched.delete(win);
    }

    function watch(win) {
        if (watched.has(win))
            return;
        watched.set(win, [
            win.connect('position-changed', changed),
            win.connect('size-changed', changed),
            win.connect('notify::title', changed),
            win.connect('unmanaged', () => {
                unwatch(win);
                changed();
            }),
        ]);
    }

    const typeNames = new Map(Object.entries(Meta.WindowType).map(([name, value]) => [value, name.toLowerCase()]));
    const rect = r => ({x: r.x, y: r.y, w: r.width, h: r.height});

    function windowById(id) {
        return env.global.get_window_actors().map(a => a.get_meta_window()).find(w => w && Number(w.get_id()) === id) ?? null;
    }

    return {
        enable() {
            displayIds = [
                display.connect('window-created', (_d, win) => {
                    watch(win);
                    changed();
                }),
                display.connect('notify::focus-window', changed),
            ];
            for (const actor of env.global.get_window_actors())
                watch(actor.get_meta_window());
        },

        disable() {
            for (const id of displayIds)
                display.disconnect(id);
            displayIds = [];
            for (const win of [...watched.keys()])
                unwatch(win);
            if (idleId)
                GLib.source_remove(idleId);
            idleId = 0;
        },

        /** Every window with an actor, bottom of the stack first. */
        list() {
            return env.global.get_window_actors().map(a => a.get_meta_window()).filter(w => w).map(w => {
                const frame = w.get_frame_rect();
                const client = w.frame_rect_to_client_rect(frame);
                return {
                    id: Number(w.get_id()),
                    pid: w.get_pid(),
                    title: w.get_title() ?? '',
                    wmClass: w.get_wm_class() ?? '',
                    focused: w.has_focus(),
                    type: typeNames.get(w.get_window_type()) ?? 'unknown',
                    monitor: w.get_monitor(),
                    buffer: rect(w.get_buffer_rect()),
                    frame: rect(frame),
                    client: {w: client.width, h: client.height},
                };
            });
        },

        /** Raises and focuses the window (leaving the overview, switching workspace); false if none has `id`. */
        activate(id) {
            const win = windowById(id);
            if (!win)
                return false;
            Main.activateWindow(win, env.global.get_current_time());
            return true;
        },

        /** Asks the window to close (as its close button would); false if none has `id`. */
        close(id) {
            const win = windowById(id);
            if (!win)
                return false;
            win.delete(env.global.get_current_time());
            return true;
        },
    };
}
