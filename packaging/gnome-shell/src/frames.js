// The Shell's frames, as switchscan needs them: the overlay's change painted in the next frame
// the Shell can make, not at its next 60 Hz slot, and `Sync` answered when the frame holding
// everything asked before it has been painted.
//
// Mutter paints each view (monitor) when its frame clock says (clutter-frame-clock.c): a change
// waits for the update slot of the first vblank at least the expected render time away (the
// recent frames' worst, plus 2 ms), and a change that comes while a frame is being painted waits
// for it. When the overlay changed, `hurry` asks every view's clock for an update now, as Mutter
// does for updates it wants on the screen at once (43: an X11 client's frame not asked for by a
// resize, meta-window-actor-x11.c; 45: a failed direct scanout, meta-onscreen-native.c; 46: a VRR
// surface's commit, meta-compositor-view-native.c).
// What that changes where: on a virtual monitor (headless, as in the tests and the benchmark, and
// GNOME Remote Desktop's sessions) a frame counts as presented when painted, and without
// measured render times the slot is 0 to about 10 ms away at 60 Hz: the ring is shown that much
// sooner. On a real display the page flip still waits for the vblank: the ring reaches the glass
// a frame sooner only when the change came within the estimate's margin before a vblank (the
// paint made it, the slot would have aimed at the next one); otherwise at the same vblank,
// painted earlier (`Sync` then answers earlier than the glass shows it, as it always answered
// before the vblank). On a VRR display the refresh comes at once. No frame is added in flight
// (a clock with a flip pending dispatches right after it instead of at its slot). The cost: what
// a window commits between the hurried paint and the slot waits for the next frame, and a
// window's frame and the ring that would have shared a paint may take two: at most once per
// overlay change (a scan step, about once a second while scanning). Only the overlay's own
// changes hurry a frame; input, and every other actor of the Shell, keep Mutter's pacing.
//
// `Sync`'s wait, by serial: every scene change takes the next serial (a Sync after input too); each view's
// update records the serial it began at. `Sync` is answered once every view has FINISHED an
// update (input handled, layout, painted where damaged) that BEGAN at or after the serial of the
// last thing asked; at once if that is so already. After input, it asks for an update that begins
// after the `Sync` itself (the input thread hands the events to the Shell's main loop meanwhile).
// The stage's signals are listened to only while something is waiting to be painted.
//
//     scene changed        serial + 1; every view hurried (below); listening
//     input call           the next Sync asks for a later update
//     Sync                 after input: serial + 1; answered at once if every view finished an
//                          update that began at ≥ serial; else an update scheduled (at its slot,
//                          not hurried) and answered when that is so (true), or after 1 s (false)
//     before-update(view)  began[view] = serial
//     after-update(view)   finished[view] = began[view]; the waits that are met answered;
//                          nothing waiting and every view up to date: not listening
//
// GNOME 45 and later: Clutter.StageView.schedule_update_now() (re-times a frame already scheduled
// for later too). GNOME 43 and 44 have no such method, and a view's frame clock is reachable only
// as a Clutter.Timeline's `frame-clock` (the clock of the view its actor is on): one 1×1 probe
// actor per monitor, painted at opacity 0, gives each; 43's schedule_update_now() does nothing to
// a clock already scheduled, so the clock is inhibited around it (inhibiting a scheduled clock
// unschedules it; uninhibiting schedules the pending update now): 45's behaviour, no more.

/**
 * env: {Clutter, GLib, Main, global}; layer(): the overlay's layer (the probes' parent).
 * Returns {enable(), disable(), changed(), inputSent(), sync(done)}.
 */
export function createFrames(env, layer) {
    const {Clutter, GLib, Main} = env;
    const stage = env.global.stage;
    let serial = 0;
    let inputUnsynced = false;
    let began = new Map(), finished = new Map();
    let waits = [];          // {target, done, timeoutId}
    let signals = [];
    let probes = [];         // GNOME 43, 44: {actor, timeline}
    let monitorsId = 0;

    const views = () => stage.peek_stage_views();
    const upToDate = target => views().every(v => (finished.get(v) ?? -1) >= target);

    function listen() {
        if (signals.length)
            return;
        signals = [
            stage.connect('before-update', (_s, view) => began.set(view, serial)),
            stage.connect('after-update', (_s, view) => {
                if (began.has(view))
                    finished.set(view, began.get(view));
                answer();
            }),
        ];
    }

    // What each view finished is kept while not listening: no update can begin at a later serial
    // unseen (a change or a Sync listens before anything is scheduled).
    function unlisten() {
        signals.forEach(id => stage.disconnect(id));
        signals = [];
    }

    function answer() {
        const met = waits.filter(w => upToDate(w.target));
        waits = waits.filter(w => !met.includes(w));
        met.forEach(w => finish(w, true));
        if (!waits.length && upToDate(serial))
            unlisten();
    }

    function finish(wait, painted) {
        if (wait.timeoutId)
            GLib.source_remove(wait.timeoutId);
        wait.timeoutId = 0;
        wait.done(painted);
    }

    /** The monitors changed: the probes go (made again when needed), and the views' records. */
    function monitorsChanged() {
        probes.forEach(p => p.actor.destroy());
        probes = [];
        began = new Map();
        finished = new Map();
    }

    /** GNOME 43, 44: each monitor's frame clock, through a probe actor on it. */
    function probeClocks() {
        if (!probes.length && layer()) {
            for (const m of Main.layoutManager.monitors) {
                const actor = new Clutter.Actor({reactive: false, opacity: 0, x: m.x, y: m.y, width: 1, height: 1});
                layer().add_child(actor);
                probes.push({actor, timeline: new Clutter.Timeline({actor, duration: 1000})});
            }
        }
        return [...new Set(probes.map(p => p.timeline.frame_clock).filter(c => c))];
    }

    /** Every view's next update now (the overlay changed). */
    function hurry() {
        const all = views();
        if (all.length && all.every(v => typeof v.schedule_update_now === 'function')) {
            all.forEach(v => v.schedule_update_now());
            return;
        }
        for (const clock of probeClocks()) {
            clock.inhibit();
            clock.schedule_update_now();
            clock.uninhibit();
        }
    }

    return {
        enable() {
            monitorsId = Main.layoutManager.connect('monitors-changed', monitorsChanged);
        },

        disable() {
            if (monitorsId)
                Main.layoutManager.disconnect(monitorsId);
            monitorsId = 0;
            monitorsChanged();
            const left = waits;
            waits = [];
            left.forEach(w => finish(w, false));
            unlisten();
        },

        /** The overlay changed what it shows: painted in the next frame each view can make. */
        changed() {
            serial++;
            listen();
            hurry();
        },

        /** An input call was handled: the next Sync waits for an update that begins after it. */
        inputSent() {
            inputUnsynced = true;
        },

        /**
         * done(true) once every view has finished an update that began after everything asked
         * before (at once if that is so); done(false) after a second without.
         */
        sync(done) {
            listen();
            if (inputUnsynced) {
                inputUnsynced = false;
                serial++;
            }
            const wait = {target: serial, done, timeoutId: 0};
            if (upToDate(wait.target)) {
                answer();
                done(true);
                return;
            }
            // An update of its own slot (a view nothing damaged is not painted again): what was
            // asked may have scheduled none (input), or it was before anyone listened.
            stage.schedule_update();
            wait.timeoutId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 1000, () => {
                wait.timeoutId = 0;
                waits = waits.filter(w => w !== wait);
                wait.done(false);
                if (!waits.length && upToDate(serial))
                    unlisten();
                return GLib.SOURCE_REMOVE;
            });
            waits.push(wait);
        },
    };
}
