// The overlay: one layer in the Shell's top chrome (above every window and popup), taking no
// input, holding the scene as actors that are kept and changed in place from scene to scene.
//
// A scene is split by scenePieces (scene.js): a filled rectangle on whole pixels, and each band
// of a ring, is a plain Clutter actor with a background colour; text, pies, dashes and anything
// off whole pixels go to one St.DrawingArea painted with cairo, sized to them. A new scene
// reuses the actors of the last one in order: only what changed is touched (a moved ring band
// gets a new position, a panel that stayed is not repainted), so Mutter repaints only the
// damaged region (where the ring was and where it is now), and the layer itself never moves
// (no chrome region update, no relayout above it). A scene that changed anything on the screen
// is painted in the next frame each view can make, not at its next 60 Hz slot, and `sync`
// waits for the frame that holds it (frames.js).
//
// Click-through twice over: the chrome is added with affectsInputRegion false, and no actor is
// reactive, so Clutter's pick (which routes every Wayland pointer event) passes them by.

/**
 * env: {Clutter, St, Pango, PangoCairo, GLib, Main, global, scene: {scenePieces, sceneBounds, paintScene},
 * frames: {createFrames}} (frames.js: a change painted in the next frame, and Sync's wait).
 * Returns {enable(), disable(), show(shapes), inputSent(), sync(done)}; show([]) clears.
 */
export function createOverlay(env) {
    const {Clutter, St, Pango, PangoCairo, GLib, Main} = env;
    let layer = null;
    let pango = null;
    // The actors made so far, each with what it shows now; those not in the scene are hidden.
    let solids = [];    // {actor, x, y, w, h, color}
    let canvases = [];  // {area, shapes, key, box}
    let order = [];     // the actors shown, bottom first
    let changed = false; // this show() changed something on the screen
    const frames = env.frames.createFrames(env, () => layer);

    function setIfChanged(record, actor, p) {
        if (record.x !== p.x || record.y !== p.y) {
            actor.set_position(p.x, p.y);
            changed = true;
        }
        if (record.w !== p.w || record.h !== p.h) {
            actor.set_size(p.w, p.h);
            changed = true;
        }
        Object.assign(record, {x: p.x, y: p.y, w: p.w, h: p.h});
    }

    function useSolid(i, p) {
        if (!solids[i]) {
            const actor = new Clutter.Actor({reactive: false, visible: false});
            layer.add_child(actor);
            solids[i] = {actor, x: null, y: null, w: null, h: null, color: ''};
        }
        const record = solids[i];
        setIfChanged(record, record.actor, p);
        const color = p.color.join(',');
        if (record.color !== color) {
            const [red, green, blue, alpha] = p.color;
            record.actor.set_background_color(new Clutter.Color({red, green, blue, alpha}));
            record.color = color;
            changed = true;
        }
        return record.actor;
    }

    function useCanvas(i, p) {
        if (!canvases[i]) {
            const area = new St.DrawingArea({reactive: false, visible: false});
            const record = {area, shapes: [], key: '', x: null, y: null, w: null, h: null};
            area.connect('repaint', a => {
                const cr = a.get_context();
                try {
                    env.scene.paintScene(cr, record.shapes, record.x, record.y, Pango, PangoCairo);
                } finally {
                    cr.$dispose();
                }
            });
            layer.add_child(area);
            canvases[i] = record;
        }
        const record = canvases[i];
        const key = JSON.stringify(p.shapes);
        if (record.key !== key) {
            const box = env.scene.sceneBounds(p.shapes, pango, Pango);
            record.shapes = p.shapes;
            record.key = key;
            setIfChanged(record, record.area, box);
            record.area.queue_repaint();
            changed = true;
        }
        return record.area;
    }

    return {
        enable() {
            // The layer stays at (0, 0) with no size of its own: its children paint where they
            // are placed, and moving them changes no allocation the chrome tracks.
            layer = new Clutter.Actor({name: 'switchscan-overlay', reactive: false, x: 0, y: 0, width: 0, height: 0});
            Main.layoutManager.addTopChrome(layer, {affectsInputRegion: false});
            pango = PangoCairo.FontMap.get_default().create_context();
            frames.enable();
        },

        disable() {
            frames.disable();
            if (layer) {
                Main.layoutManager.removeChrome(layer);
                layer.destroy();
            }
            layer = null;
            pango = null;
            solids = [];
            canvases = [];
            order = [];
        },

        /** done(true) once what was asked before is painted, false after a second without (frames.js). */
        sync(done) {
            frames.sync(done);
        },

        /** An input call was handled (the next sync waits for an update after it). */
        inputSent() {
            frames.inputSent();
        },

        /** Replaces the whole scene (checked shapes from parseScene), changing only what differs. */
        show(shapes) {
            changed = false;
            let s = 0, c = 0;
            const shown = env.scene.scenePieces(shapes).map(p => p.kind === 'solid' ? useSolid(s++, p) : useCanvas(c++, p));
            // Paint order: restacked only when it differs from the last scene's.
            if (shown.length !== order.length || shown.some((a, i) => a !== order[i])) {
                changed = true;
                shown.forEach((actor, i) => {
                    if (i === 0)
                        layer.set_child_below_sibling(actor, null);
                    else
                        layer.set_child_above_sibling(actor, shown[i - 1]);
                });
            }
            const visible = new Set(shown);
            for (const actor of [...solids.map(r => r.actor), ...canvases.map(r => r.area)]) {
                if (actor.visible !== visible.has(actor)) {
                    actor.visible = visible.has(actor);
                    changed = true;
                }
            }
            order = shown;
            if (changed)
                frames.changed();
        },
    };
}
