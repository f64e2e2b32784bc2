// switchscan's Shell extension, GNOME 45 and later entry (ES modules). The logic is shared with
// the GNOME 43 entry (../gnome-43/extension.js): build.sh puts ../src/*.js beside this file as
// they are, and the right metadata.json (docs: ../README.md).
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import Pango from 'gi://Pango';
import PangoCairo from 'gi://PangoCairo';
import St from 'gi://St';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as Config from 'resource:///org/gnome/shell/misc/config.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import * as scene from './scene.js';
import * as frames from './frames.js';
import * as overlay from './overlay.js';
import * as windows from './windows.js';
import * as input from './input.js';
import {createSwitchscanShell} from './service.js';

export default class SwitchscanExtension extends Extension {
    enable() {
        this._logic = createSwitchscanShell(
            {Clutter, Gio, GLib, Meta, Pango, PangoCairo, St},
            {Main, global, shellVersion: Config.PACKAGE_VERSION, log: m => console.log(m), logError},
            {scene, frames, overlay, windows, input});
        this._logic.enable();
    }

    disable() {
        this._logic?.disable();
        this._logic = null;
    }
}
