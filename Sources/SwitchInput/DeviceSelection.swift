import SwitchCore

/// How a user names a device: a node path, a `vendor:product` pair in hex (`046d:c52b`, as
/// `lsusb` prints it), or a name (exact, else a unique case-insensitive part of one).
public enum DeviceSelector: Equatable, Sendable, CustomStringConvertible {
    case path(String)
    case vendorProduct(vendor: UInt16, product: UInt16)
    case name(String)

    public init(_ text: String) {
        if text.hasPrefix("/") {
            self = .path(text)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ $0.count == 4 }),
           let v = UInt16(parts[0], radix: 16), let p = UInt16(parts[1], radix: 16) {
            self = .vendorProduct(vendor: v, product: p)
            return
        }
        self = .name(text)
    }

    public var description: String {
        switch self {
        case .path(let p): return p
        case .vendorProduct(let v, let p):
            return DeviceDescription(name: "", vendor: v, product: p).vendorProduct
        case .name(let n): return "\"\(n)\""
        }
    }
}

/// A device the live engine will read, and why.
public struct SelectedDevice: Equatable, Sendable {
    public var node: String
    public var description: DeviceDescription
    /// Named by `--device` or the profile's `devices` (so grabbing it is the user's choice).
    public var explicit: Bool
    /// Why it was picked, for the stderr note ("has KEY_SPACE", "matches \"switch\"").
    public var reason: String

    public init(node: String, description: DeviceDescription, explicit: Bool, reason: String) {
        self.node = node
        self.description = description
        self.explicit = explicit
        self.reason = reason
    }
}

/// Whether to grab each selected device, with a warning when the answer protects the user.
public struct GrabDecision: Equatable, Sendable {
    public var grab: Bool
    public var warning: String?

    public init(grab: Bool, warning: String? = nil) {
        self.grab = grab
        self.warning = warning
    }
}

/// Picks devices from the readable nodes (pure: the shell enumerates, this decides).
public enum DeviceSelection {
    /// Resolves named selectors. `origin(k)` names where selector k came from, for errors
    /// ("--device \"foo\"", "profile.json: devices[1]"). A vendor:product pair picks every node
    /// of that device (a receiver exposes several). Unreadable nodes are mentioned when nothing
    /// matched, since the device may be among them.
    public static func resolve(_ selectors: [DeviceSelector], origin: (Int) -> String,
                               entries: [DeviceEntry]) throws(InputError) -> [SelectedDevice] {
        let readable = entries.compactMap { e in e.description.map { (node: e.node, description: $0) } }
        var picked: [SelectedDevice] = []
        func add(_ node: String, _ d: DeviceDescription, _ reason: String) {
            if !picked.contains(where: { $0.node == node }) {
                picked.append(SelectedDevice(node: node, description: d, explicit: true, reason: reason))
            }
        }
        for (k, selector) in selectors.enumerated() {
            func fail(_ message: String) -> InputError { InputError(file: origin(k), message: message) }
            switch selector {
            case .path(let path):
                if let e = entries.first(where: { $0.node == path }) {
                    switch e.result {
                    case .success(let d): add(path, d, "named by path")
                    case .failure(let err): throw fail(err.reason)
                    }
                } else {
                    throw fail("\(path): no such input device node" + available(readable))
                }
            case .vendorProduct(let v, let p):
                let matches = readable.filter { $0.description.vendor == v && $0.description.product == p }
                if matches.isEmpty { throw fail("no input device has id \(selector)" + available(readable) + unreadableNote(entries)) }
                for m in matches { add(m.node, m.description, "id \(selector)") }
            case .name(let name):
                let exact = readable.filter { $0.description.name == name }
                if !exact.isEmpty {
                    for m in exact { add(m.node, m.description, "named \"\(name)\"") }
                    continue
                }
                let lower = name.lowercased()
                let partial = readable.filter { $0.description.name.lowercased().contains(lower) }
                let names = Set(partial.map(\.description.name))
                if names.isEmpty { throw fail("no input device is named like \"\(name)\"" + available(readable) + unreadableNote(entries)) }
                if names.count > 1 {
                    throw fail("\"\(name)\" matches several devices: " + names.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                               + "; give more of the name, the node path or vendor:product")
                }
                for m in partial { add(m.node, m.description, "name contains \"\(name)\"") }
            }
        }
        return picked
    }

    /// Without names: every readable device that has one of the profile's switch keys, plus the
    /// touchscreens when the profile uses touch (touch accommodations changed, touch as a switch,
    /// or touches passed on to a virtual touchscreen).
    public static func automatic(profile: Profile, entries: [DeviceEntry]) -> [SelectedDevice] {
        let usesTouch = profile.touchAccommodations != TouchAccommodations() || profile.passesTouch
        var picked: [SelectedDevice] = []
        for e in entries {
            guard let d = e.description else { continue }
            let keys = profile.switches.filter { d.has(type: EventCodes.EV_KEY, code: $0.code) }.map(\.keyName)
            if !keys.isEmpty {
                picked.append(SelectedDevice(node: e.node, description: d, explicit: false, reason: "has " + keys.joined(separator: ", ")))
            } else if usesTouch && d.isTouchscreen {
                picked.append(SelectedDevice(node: e.node, description: d, explicit: false, reason: "touchscreen"))
            }
        }
        return picked
    }

    /// `--grab`: grab every selected device, except a full keyboard picked automatically when
    /// grabbing it would leave no full keyboard ungrabbed (the user would be locked out). A full
    /// keyboard the user named is grabbed, with a warning.
    public static func grabDecisions(_ selected: [SelectedDevice], entries: [DeviceEntry]) -> [GrabDecision] {
        let keyboards = entries.filter { $0.description?.kind.contains(.keyboard) ?? false }.map(\.node)
        var grabbed = Set<String>()
        var out: [GrabDecision] = []
        for s in selected {
            guard s.description.kind.contains(.keyboard) else {
                out.append(GrabDecision(grab: true, warning: nil))
                grabbed.insert(s.node)
                continue
            }
            if s.explicit {
                grabbed.insert(s.node)
                out.append(GrabDecision(grab: true, warning: "grabbing \(s.node) \"\(s.description.name)\", a full keyboard: its keys will not reach other programs until switchscan ends"))
                continue
            }
            let othersFree = keyboards.contains { $0 != s.node && !grabbed.contains($0) }
            if othersFree {
                grabbed.insert(s.node)
                out.append(GrabDecision(grab: true, warning: nil))
            } else {
                out.append(GrabDecision(grab: false, warning: "not grabbing \(s.node) \"\(s.description.name)\": it looks like your only full keyboard (name it with --device to grab it anyway)"))
            }
        }
        return out
    }

    /// The devices to read only for the pause chord (safety exit): every readable device that
    /// has a key of each of the chord's parts and is not already selected (a selected keyboard's
    /// chord is seen through its own frames). Never grabbed.
    public static func chordWatch(_ chord: KeyChord?, selected: [SelectedDevice], entries: [DeviceEntry]) -> [SelectedDevice] {
        guard let chord else { return [] }
        let taken = Set(selected.map(\.node))
        return entries.compactMap { e in
            guard let d = e.description, !taken.contains(e.node), canType(chord, on: d) else { return nil }
            return SelectedDevice(node: e.node, description: d, explicit: false, reason: "pause chord \(chord)")
        }
    }

    /// Whether `device` has a key for each of the chord's parts.
    public static func canType(_ chord: KeyChord, on device: DeviceDescription) -> Bool {
        chord.parts.allSatisfy { $0.codes.contains { device.has(type: EventCodes.EV_KEY, code: $0) } }
    }

    /// Why the pause chord is read nowhere (nil when one of the devices `read` can type it): the
    /// keyboards that cannot be opened (a user given only the switches by the udev rule, outside
    /// the `input` group), with the fix that applies to the first; or no keyboard at all. The
    /// chord is never read some other way (an X or compositor key grab would see it only while
    /// that session has the focus, and not when a grabbed keyboard is the one typing it): the long
    /// hold on a switch stays the way out.
    public static func chordUnreadNote(_ chord: KeyChord?, read: [DeviceDescription], entries: [DeviceEntry]) -> String? {
        guard let chord, !read.contains(where: { canType(chord, on: $0) }) else { return nil }
        // What a node that cannot be opened is comes from sysfs; one sysfs does not describe
        // either may be a keyboard.
        let closed = entries.filter { e in
            guard e.error != nil else { return false }
            guard let d = DeviceAccess.sysfsDirectory(node: e.node).flatMap(DeviceAccess.describe(sysfs:)) else { return true }
            return canType(chord, on: d)
        }
        guard let first = closed.first else {
            return "the pause chord \(chord) is not read: no keyboard is plugged in"
        }
        let nodes = closed.map(\.node).joined(separator: ", ")
        return "the pause chord \(chord) is not read: \(nodes) cannot be opened (\(DeviceAccess.advice(node: first.node)))"
    }

    private static func available(_ readable: [(node: String, description: DeviceDescription)]) -> String {
        if readable.isEmpty { return "; no readable input devices (see `switchscan devices`)" }
        return "; devices: " + readable.map { "\($0.node) \"\($0.description.name)\" \($0.description.vendorProduct)" }.joined(separator: ", ")
    }

    private static func unreadableNote(_ entries: [DeviceEntry]) -> String {
        let n = entries.filter { $0.error != nil }.count
        return n == 0 ? "" : " (\(n) more could not be opened; see `switchscan devices`)"
    }
}
