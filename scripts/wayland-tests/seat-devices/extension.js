// The headless seat's own pointer and keyboard (a test-only GNOME Shell 43 extension that
// run-gnome.sh installs and enables first): a real desktop's seat always has a mouse and a
// keyboard, GNOME Shell --headless has none but what extensions make. Without these, disabling
// switchscan's extension takes the seat's pointer capability away and every client drops its
// wl_pointer; enabled again, a client binds a new one a round trip later, and a click sent the
// moment the extension is back is lost by the client (seen under load: 3 clicks of 12), which no
// real desktop does. These devices send nothing.
const {Clutter} = imports.gi;

let pointer = null;
let keyboard = null;

function init() {
}

function enable() {
    const seat = Clutter.get_default_backend().get_default_seat();
    pointer = seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
    keyboard = seat.create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
}

function disable() {
    pointer?.run_dispose();
    keyboard?.run_dispose();
    pointer = keyboard = null;
}
