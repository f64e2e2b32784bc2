// The D-Bus service: org.switchscan.Shell on the session bus, object /org/switchscan/Shell,
// interface org.switchscan.Shell1 (the contract: ../README.md). It wires the overlay, the windows
// and the input devices together, owns the name last on enable (so a client that sees the name
// finds everything working) and gives it up first on disable (so no call lands half torn down).

export const BUS_NAME = 'org.switchscan.Shell';
export const OBJECT_PATH = '/org/switchscan/Shell';
export const API_VERSION = 2;

const INTERFACE = `<node>
  <interface name="org.switchscan.Shell1">
    <method name="GetVersion"><arg name="shellVersion" type="s" direction="out"/><arg name="apiVersion" type="u" direction="out"/></method>
    <method name="SetScene"><arg name="json" type="s" direction="in"/></method>
    <method name="ClearScene"/>
    <method name="GetWindows"><arg name="json" type="s" direction="out"/></method>
    <method name="ActivateWindow"><arg name="id" type="u" direction="in"/><arg name="found" type="b" direction="out"/></method>
    <method name="CloseWindow"><arg name="id" type="u" direction="in"/><arg name="found" type="b" direction="out"/></method>
    <method name="PointerMove"><arg name="x" type="d" direction="in"/><arg name="y" type="d" direction="in"/></method>
    <method name="PointerButton"><arg name="button" type="u" direction="in"/><arg name="pressed" type="b" direction="in"/></method>
    <method name="PointerScroll"><arg name="dx" type="d" direction="in"/><arg name="dy" type="d" direction="in"/></method>
    <method name="Key"><arg name="keyval" type="u" direction="in"/><arg name="pressed" type="b" direction="in"/></method>
    <method name="Text"><arg name="text" type="s" direction="in"/><arg name="committed" type="b" direction="out"/></method>
    <method name="Sync"><arg name="painted" type="b" direction="out"/></method>
    <signal name="WindowsChanged"/>
  </interface>
</node>`;

/** D-Bus error names: a caller's bad argument, and anything else that went wrong inside. */
const ERROR_INVALID = 'org.switchscan.Shell1.Error.InvalidArgument';
const ERROR_FAILED = 'org.switchscan.Shell1.Error.Failed';

/**
 * The whole extension, made from the Shell's toolkit and the other shared modules (which the
 * entry file imports in its Shell's module system and hands in, as they cannot import each other):
 *   gi: {Clutter, Gio, GLib, Meta, Pango, PangoCairo, St}, Main, global, shellVersion, log, logError;
 *   modules: {scene, frames, overlay, windows, input}.
 * Returns {enable(), disable()}, what a Shell extension's enable and disable call.
 */
export function createSwitchscanShell(gi, shell, modules) {
    const {Gio, GLib} = gi;
    const {scene} = modules;
    let exported = null;
    let nameId = 0;
    const overlay = modules.overlay.createOverlay({...gi, Main: shell.Main, global: shell.global, scene, frames: modules.frames});
    const windows = modules.windows.createWindows({...gi, Main: shell.Main, global: shell.global},
        () => exported?.emit_signal('WindowsChanged', null));
    const input = modules.input.createInput({...gi, global: shell.global, Main: shell.Main});
    // The scene belongs to the client that set it last: when that client leaves the bus (it
    // ended, or crashed) the scene is cleared, so no ring stays on the screen without switchscan.
    let sceneOwner = null, sceneWatchId = 0;
    function watchSceneOwner(sender) {
        if (sender === sceneOwner)
            return;
        if (sceneWatchId)
            Gio.bus_unwatch_name(sceneWatchId);
        sceneOwner = sender;
        sceneWatchId = Gio.bus_watch_name_on_connection(Gio.DBus.session, sender, Gio.BusNameWatcherFlags.NONE, null, () => {
            overlay.show([]);
            Gio.bus_unwatch_name(sceneWatchId);
            sceneOwner = null;
            sceneWatchId = 0;
        });
    }
    const isInvalidArgument = e => e instanceof scene.SceneError || e instanceof modules.input.InputError;

    // Each method: the reply's signature (null: none) and what it does with the call's arguments.
    const methods = {
        GetVersion: ['(su)', () => [shell.shellVersion, API_VERSION]],
        SetScene: [null, ([json], invocation) => {
            overlay.show(scene.parseScene(json));
            watchSceneOwner(invocation.get_sender());
        }],
        ClearScene: [null, () => overlay.show([])],
        GetWindows: ['(s)', () => [JSON.stringify(windows.list())]],
        ActivateWindow: ['(b)', ([id]) => [windows.activate(id)]],
        CloseWindow: ['(b)', ([id]) => [windows.close(id)]],
        PointerMove: [null, ([x, y]) => input.move(x, y)],
        PointerButton: [null, ([button, pressed]) => input.button(button, pressed)],
        PointerScroll: [null, ([dx, dy]) => input.scroll(dx, dy)],
        Key: [null, ([keyval, pressed]) => input.key(keyval, pressed)],
        Text: ['(b)', ([text]) => [input.text(text)]],
    };

    // The calls that inject input: the next Sync waits for an update after them (frames.js).
    const inputs = new Set(['PointerMove', 'PointerButton', 'PointerScroll', 'Key', 'Text']);

    // Gio.DBusExportedObject calls NAMEAsync(args, invocation): every reply, error included, is ours.
    const handlers = {};
    for (const [name, [signature, run]] of Object.entries(methods)) {
        handlers[`${name}Async`] = (args, invocation) => {
            let result;
            try {
                result = run(args, invocation);
                if (inputs.has(name))
                    overlay.inputSent();
            } catch (e) {
                if (isInvalidArgument(e)) {
                    invocation.return_dbus_error(ERROR_INVALID, e.message);
                } else {
                    shell.logError(e, `switchscan: ${name} failed`);
                    invocation.return_dbus_error(ERROR_FAILED, `${name}: ${e}`);
                }
                return;
            }
            invocation.return_value(signature ? new GLib.Variant(signature, result) : null);
        };
    }

    // Sync: answered once every view of the stage finished an update that began after everything
    // asked before (input handled, and painted where a scene damaged it: the frame holding the
    // last scene, not one after it), so it is on the screen; false when that took more than a
    // second (frames.js).
    handlers.SyncAsync = (args, invocation) => {
        overlay.sync(updated => invocation.return_value(new GLib.Variant('(b)', [updated])));
    };

    return {
        enable() {
            overlay.enable();
            exported = Gio.DBusExportedObject.wrapJSObject(INTERFACE, handlers);
            exported.export(Gio.DBus.session, OBJECT_PATH);
            windows.enable();
            // The name last, once the input devices are announced: a client that sees the name
            // finds everything working, its first click included.
            input.enable(how => {
                if (how !== 'announced')
                    shell.log(`switchscan: the seat did not announce the virtual input devices within 2 s; going on`);
                nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, BUS_NAME, Gio.BusNameOwnerFlags.NONE,
                    null, () => shell.log(`switchscan: the name ${BUS_NAME} is not ours (another owner?)`));
            });
        },

        disable() {
            if (nameId)
                Gio.bus_unown_name(nameId);
            nameId = 0;
            if (sceneWatchId)
                Gio.bus_unwatch_name(sceneWatchId);
            sceneOwner = null;
            sceneWatchId = 0;
            windows.disable();
            exported?.unexport();
            exported = null;
            input.disable();
            overlay.disable();
        },
    };
}
