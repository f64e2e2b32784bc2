// switchscan's Shell extension, GNOME 43 and 44 entry (`imports.*` modules). The logic is shared
// with the GNOME 45+ entry (../gnome-45/extension.js): build.sh puts ../src/*.js beside this file,
// made into `imports.*` modules, and the right metadata.json (docs: ../README.md).
/* exported init */
const {Clutter, Gio, GLib, Meta, Pango, PangoCairo, St} = imports.gi;
const Main = imports.ui.main;
const Config = imports.misc.config;
const Me = imports.misc.extensionUtils.getCurrentExtension();

class SwitchscanExtension {
    enable() {
        this._logic = Me.imports.service.createSwitchscanShell(
            {Clutter, Gio, GLib, Meta, Pango, PangoCairo, St},
            {Main, global, shellVersion: Config.PACKAGE_VERSION, log: m => console.log(m), logError},
            {scene: Me.imports.scene, frames: Me.imports.frames, overlay: Me.imports.overlay, windows: Me.imports.windows, input: Me.imports.input});
        this._logic.enable();
    }

    disable() {
        this._logic?.disable();
        this._logic = null;
    }
}

function init() {
    return new SwitchscanExtension();
}
