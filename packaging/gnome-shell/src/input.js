// Synthetic pointer and keys through Clutter virtual devices, the route GNOME's own on-screen
// keyboard takes (ui/keyboard.js): no portal, no PipeWire, no consent dialog.
//
// The two devices are made once, when the extension is enabled, and kept. GNOME drops events
// that a new virtual device sends before the seat has announced it (mutter adds it on its input
// thread): enable() calls back once the seat's device-added has named both (the service owns its
// bus name only then, so a client's first click is not lost), and each device also gets a
// harmless first event at once (a pointer motion by (0, 0); Shift pressed and released).

/** Pointer buttons, numbered as X11 and Clutter number them. */
const BUTTONS = [1, 2, 3, 8, 9];
const KEY_SHIFT_L = 0xffe1;
const MAX_SCROLL_STEPS = 100;
const MAX_TEXT_CHARS = 4096;
/** How long enable() waits for the seat to announce the devices before calling back anyway. */
const ANNOUNCE_TIMEOUT_MS = 2000;

/** Thrown for an argument out of range; the message says which and what is allowed. */
export class InputError extends Error {}

/**
 * env: {Clutter, GLib, global, Main}. Returns {enable(), disable(), move(x, y), button(b, pressed),
 * scroll(dx, dy), key(keyval, pressed), text(string)}.
 */
export function createInput(env) {
    const {Clutter, GLib} = env;
    let pointer = null;
    let keyboard = null;
    let announce = null; // while enable() waits: {addedId, timeoutId}

    const now = () => GLib.get_monotonic_time();

    function seat() {
        // GNOME 46 and later reach the backend through the stage's context; 43 to 45 through Clutter.
        const context = env.global.stage.context;
        const backend = context && context.get_backend ? context.get_backend() : Clutter.get_default_backend();
        return backend.get_default_seat();
    }

    return {
        /** Makes and primes the devices; onReady(how) once the seat announced both ("announced")
         *  or after ANNOUNCE_TIMEOUT_MS ("timeout"). */
        enable(onReady) {
            const s = seat();
            const waiting = new Set([Clutter.InputDeviceType.POINTER_DEVICE, Clutter.InputDeviceType.KEYBOARD_DEVICE]);
            const finish = how => {
                if (!announce)
                    return;
                s.disconnect(announce.addedId);
                GLib.source_remove(announce.timeoutId);
                announce = null;
                onReady(how);
            };
            announce = {
                addedId: s.connect('device-added', (_seat, device) => {
                    if (device.get_device_mode() !== Clutter.InputMode.LOGICAL && waiting.delete(device.get_device_type()) && waiting.size === 0)
                        finish('announced');
                }),
                timeoutId: GLib.timeout_add(GLib.PRIORITY_DEFAULT, ANNOUNCE_TIMEOUT_MS, () => {
                    announce.timeoutId = 0;
                    finish('timeout');
                    return GLib.SOURCE_REMOVE;
                }),
            };
            pointer = s.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
            keyboard = s.create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
            pointer.notify_relative_motion(now(), 0, 0);
            keyboard.notify_keyval(now(), KEY_SHIFT_L, Clutter.KeyState.PRESSED);
            keyboard.notify_keyval(now(), KEY_SHIFT_L, Clutter.KeyState.RELEASED);
        },

        disable() {
            if (announce) {
                seat().disconnect(announce.addedId);
                if (announce.timeoutId)
                    GLib.source_remove(announce.timeoutId);
                announce = null;
            }
            // Disposing a virtual device releases what it still holds pressed.
            pointer?.run_dispose();
            keyboard?.run_dispose();
            pointer = keyboard = null;
        },

        /** Moves the pointer to desktop point (x, y) in logical pixels. */
        move(x, y) {
            if (!Number.isFinite(x) || !Number.isFinite(y))
                throw new InputError(`PointerMove: expected finite coordinates, got (${x}, ${y})`);
            pointer.notify_absolute_motion(now(), x, y);
        },

        button(button, pressed) {
            if (!BUTTONS.includes(button))
                throw new InputError(`PointerButton: button ${button} is not one of ${BUTTONS.join(', ')} (1 left, 2 middle, 3 right, 8 back, 9 forward)`);
            pointer.notify_button(now(), button, pressed ? Clutter.ButtonState.PRESSED : Clutter.ButtonState.RELEASED);
        },

        /** Scrolls by whole wheel steps: dy > 0 down, dx > 0 right (rounded; at most 100 a call). */
        scroll(dx, dy) {
            const steps = [[Math.round(dx), Clutter.ScrollDirection.RIGHT, Clutter.ScrollDirection.LEFT],
                [Math.round(dy), Clutter.ScrollDirection.DOWN, Clutter.ScrollDirection.UP]];
            for (const [n] of steps) {
                if (!Number.isFinite(n) || Math.abs(n) > MAX_SCROLL_STEPS)
                    throw new InputError(`PointerScroll: expected at most ${MAX_SCROLL_STEPS} steps each way, got (${dx}, ${dy})`);
            }
            for (const [n, forward, backward] of steps) {
                for (let i = 0; i < Math.abs(n); i++)
                    pointer.notify_discrete_scroll(now(), n > 0 ? forward : backward, Clutter.ScrollSource.WHEEL);
            }
        },

        /** Presses or releases a keysym; only keysyms of the current keymap reach the client. */
        key(keyval, pressed) {
            if (keyval <= 0 || keyval > 0x1ffffff)
                throw new InputError(`Key: ${keyval} is not a keysym`);
            keyboard.notify_keyval(now(), keyval, pressed ? Clutter.KeyState.PRESSED : Clutter.KeyState.RELEASED);
        },

        /**
         * Commits text to the focused text field through the Shell's input method, as the Shell's
         * own on-screen keyboard does for what its keymap cannot type ("é" on a US keymap); false,
         * and nothing typed, when no field has the input method's focus (then send keys).
         */
        text(string) {
            if (string.length > MAX_TEXT_CHARS)
                throw new InputError(`Text: ${string.length} characters is more than the ${MAX_TEXT_CHARS} allowed`);
            const inputMethod = env.Main.inputMethod;
            if (!inputMethod || !inputMethod.currentFocus)
                return false;
            inputMethod.commit(string);
            return true;
        },
    };
}
