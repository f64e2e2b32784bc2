import Glibc
import SwitchCore
import SwitchInput

/// Which devices `run` and `record` read: `--device` options, else the profile's `devices`, else
/// (for `run`) every device with one of the profile's switch keys plus touchscreens when touch is
/// used. Bad names are `InputError`s (exit status 2).
enum DevicePicking {
    static func pick(options: [String], profile: Profile?, profileFile: String?) throws(InputError) -> (selected: [SelectedDevice], entries: [DeviceEntry]) {
        var entries = DeviceEnumeration.entries()
        let named = !options.isEmpty ? options : (profile?.devices ?? [])
        let selectors = named.map(DeviceSelector.init)
        // A path outside /dev/input (a by-id link, a test node) is opened directly.
        for case .path(let p) in selectors where !entries.contains(where: { $0.node == p }) {
            entries.append(DeviceEnumeration.entry(node: p))
        }
        if !named.isEmpty {
            let fromOptions = !options.isEmpty
            let selected = try DeviceSelection.resolve(selectors, origin: { k in
                fromOptions ? "--device \(options[k])" : "\(profileFile ?? "profile"): devices[\(k)]"
            }, entries: entries)
            return (selected, entries)
        }
        guard let profile else {
            throw InputError(file: "--device", message: "name the device (a node path, a name or vendor:product; see `switchscan devices`)")
        }
        let selected = DeviceSelection.automatic(profile: profile, entries: entries)
        if selected.isEmpty {
            let keys = profile.switches.map(\.keyName).joined(separator: ", ")
            let errors = entries.compactMap(\.error)
            if entries.isEmpty {
                // Naming a device cannot help where there is none: say what is missing.
                throw InputError(file: DeviceEnumeration.inputDirectory, message: DevicePicking.noDevices)
            }
            var message = profile.switches.isEmpty && profile.passesTouch ? "no touchscreen among the input devices (the profile only passes touches on)"
                : "no input device has the profile's switch keys (\(keys.isEmpty ? "none" : keys))"
            if let e = errors.first { message += "; \(errors.count) could not be opened (\(e.reason))" }
            message += "; name one with --device (see `switchscan devices`)"
            throw InputError(file: profileFile ?? "profile", message: message)
        }
        return (selected, entries)
    }
}

extension DevicePicking {
    /// Why there is no device at all: no evdev directory (a container, a machine without input
    /// devices), or one that holds no event node.
    static var noDevices: String {
        var st = stat()
        if stat(DeviceEnumeration.inputDirectory, &st) != 0 {
            return "does not exist: this system has no evdev input devices (a container, or a virtual machine without them); switchscan reads switches through evdev"
        }
        return "holds no event device (no switch, keyboard or touchscreen is plugged in, or none is visible here)"
    }
}

/// A note on stderr, prefixed like every other message of the tool.
func note(_ message: String) {
    printError("switchscan: " + message)
}
