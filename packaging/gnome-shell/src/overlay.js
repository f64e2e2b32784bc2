// The overlay: one St.DrawingArea in the Shell's top chrome (above every window and popup),
// taking no input, sized to the scene's bounds and painted with the scene's cairo painter.
//
// Click-through twice over: the chrome is added with affectsInputRegion false, and the actor is
// not reactive, so Clutter's pick (which routes every Wayland pointer event) passes it by.

/**
 * env: {St, Pango, PangoCairo, GLib, Main, global, scene: {sceneBounds, paintScene}}.
 * Returns {enable(), disable(), show(shapes), afterNextPaint(done)}; show([]) clears.
 */
export function createOverlay(env) {
    const {St, Pango, PangoCairo, GLib, Main} = env;
    let area = null;
    let shapes = [];
    let origin = {x: 0, y: 0};
    let pango = null;

    function repaint(drawingArea) {
        const cr = drawingArea.get_context();
        try {
            env.scene.paintScene(cr, shapes, origin.x, origin.y, Pango, PangoCairo);
        } finally {
            cr.$dispose();
        }
    }

    return {
        enable() {
            area = new St.DrawingArea({name: 'switchscan-overlay', reactive: false, visible: false});
            area.connect('repaint', repaint);
            Main.layoutManager.addTopChrome(area, {affectsInputRegion: false});
            pango = PangoCairo.FontMap.get_default().create_context();
        },

        disable() {
            if (area) {
                Main.layoutManager.removeChrome(area);
                area.destroy();
            }
            area = null;
            pango = null;
            shapes = [];
        },

        /**
         * Calls done(true) once the stage has painted a frame from now on (one is queued), or
         * done(false) after a second without one.
         */
        afterNextPaint(done) {
            const stage = env.global.stage;
            let paintId = 0, timeoutId = 0;
            const finish = painted => {
                if (paintId)
                    stage.disconnect(paintId);
                if (timeoutId)
                    GLib.source_remove(timeoutId);
                paintId = timeoutId = 0;
                done(painted);
            };
            paintId = stage.connect('after-paint', () => finish(true));
            timeoutId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 1000, () => {
                timeoutId = 0;
                finish(false);
                return GLib.SOURCE_REMOVE;
            });
            stage.queue_redraw();
        },

        /** Replaces the whole scene (checked shapes from parseScene). */
        show(newShapes) {
            shapes = newShapes;
            const box = env.scene.sceneBounds(shapes, pango, Pango);
            if (!box) {
                area.hide();
                return;
            }
            origin = box;
            area.set_position(box.x, box.y);
            area.set_size(box.w, box.h);
            area.queue_repaint();
            area.show();
        },
    };
}
