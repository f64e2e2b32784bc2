import Glibc
import SwitchCore

/// Why a node cannot be read and which of the two fixes applies: switchscan's udev rule
/// (`70-switchscan.rules`: `TAG+="uaccess"` on switch-like devices and joysticks, so the user at
/// the seat can read them) or the `input` group (every input device, for full keyboards, pointers,
/// touchscreens, or a login that is not the seat's).
///
/// The node cannot be opened, so what it is comes from sysfs (`/sys/class/input/eventN/device`:
/// the same capability bitmaps udev's `input_id` reads), and whether the rule was applied from
/// udev's database (`/run/udev/data/c13:N`, tag `uaccess`).
public enum DeviceAccess {
    public static let ruleName = "70-switchscan.rules"
    /// Where udev reads rules (systemd's udev: /etc, /run, /usr/local/lib, /usr/lib, /lib).
    public static let ruleDirectories = ["/etc/udev/rules.d", "/run/udev/rules.d", "/usr/local/lib/udev/rules.d",
                                         "/usr/lib/udev/rules.d", "/lib/udev/rules.d"]

    static let inputGroup = "add yourself to the `input` group (sudo usermod -aG input $USER) and log in again"
    static let reload = "sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input --action=change"

    /// What the user can do about EACCES/EPERM on `node`.
    public static func advice(node: String) -> String {
        let sysfs = sysfsDirectory(node: node)
        let description = sysfs.flatMap(describe(sysfs:))
        return advice(kind: description?.kind, ids: description?.vendorProduct, tagged: sysfs.map(uaccessTagged(sysfs:)) ?? false,
                      installedRule: installedRule())
    }

    /// Whether the rule gives a device of this kind to the user at the seat (without configuration).
    public static func ruleApplies(to kind: DeviceKind) -> Bool {
        !kind.contains(.keyboard) && (kind.contains(.gamepad) || (kind.contains(.switchButtons) && kind.isDisjoint(with: [.pointer, .touchscreen])))
    }

    /// The sentence for a device of `kind` (nil: sysfs unreadable), tagged `uaccess` by udev or
    /// not, with the rule installed at `installedRule` or not installed.
    public static func advice(kind: DeviceKind?, ids: String?, tagged: Bool, installedRule: String?) -> String {
        if tagged {
            return "permission denied although udev gives this device to the user at the seat (uaccess): you are not that user now (a remote login, or another session at the screen); run switchscan in the session at the screen, or \(inputGroup)"
        }
        guard let kind else {
            return "permission denied: \(inputGroup); for a switch interface, switchscan's udev rule (\(ruleName)) gives it to the user at the seat instead"
        }
        if ruleApplies(to: kind) {
            let what = kind.contains(.gamepad) ? "a joystick or gamepad" : "a switch-like device"
            if let installedRule {
                return "permission denied: \(what); switchscan's udev rule (\(installedRule)) has not been applied to it yet: \(reload) (or unplug it and plug it in), then log in at the screen; or \(inputGroup)"
            }
            return "permission denied: \(what); install switchscan's udev rule (\(ruleName): scripts/install.sh or the switchscan .deb), which gives it to the user at the seat; or \(inputGroup)"
        }
        let what = kind.contains(.keyboard) ? "a full keyboard" : kind.contains(.touchscreen) ? "a touchscreen"
            : kind.contains(.pointer) ? "a pointer" : "not a switch-like device"
        let configure = ids.map { " (id \($0))" } ?? ""
        return "permission denied: \(what), which switchscan's udev rule leaves alone: \(inputGroup); or mark it as a switch for the rule with ENV{SWITCHSCAN_SWITCH}=\"1\"\(configure) in a local udev rule (see \"Access without root\" in the manual, docs/install.md)"
    }

    /// The first installed copy of the rule, if any.
    public static func installedRule(in directories: [String] = ruleDirectories) -> String? {
        directories.map { $0 + "/" + ruleName }.first { access($0, F_OK) == 0 }
    }

    /// `/sys/class/input/eventN` for a node (following a by-id or by-path link to it).
    static func sysfsDirectory(node: String) -> String? {
        var name = node.split(separator: "/").last.map(String.init) ?? node
        if !name.hasPrefix("event") {
            var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard realpath(node, &resolved) != nil else { return nil }
            name = resolved.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.split(separator: "/").last.map(String.init) ?? ""
        }
        return name.hasPrefix("event") ? "/sys/class/input/\(name)" : nil
    }

    /// The device's name as sysfs has it, without opening the node; nil when sysfs does not say.
    static func sysfsName(node: String) -> String? {
        sysfsDirectory(node: node).flatMap { readAttribute($0 + "/device/name") }
    }

    /// A description from sysfs: name, ids, properties and the codes per type (no axis ranges,
    /// which sysfs does not show); nil when it cannot be read.
    static func describe(sysfs: String) -> DeviceDescription? {
        let device = sysfs + "/device"
        guard let ev = readAttribute(device + "/capabilities/ev") else { return nil }
        var codes: [UInt16: Set<UInt16>] = [:]
        let types = bitmap(ev)
        for (name, type) in [("key", EventCodes.EV_KEY), ("rel", EventCodes.EV_REL), ("abs", EventCodes.EV_ABS), ("msc", EventCodes.EV_MSC),
                             ("sw", EventCodes.EV_SW), ("led", EventCodes.EV_LED), ("snd", EventCodes.EV_SND), ("ff", EventCodes.EV_FF)]
        where types.contains(type) {
            let set = readAttribute(device + "/capabilities/" + name).map(bitmap) ?? []
            if !set.isEmpty { codes[type] = set }
        }
        func id(_ key: String) -> UInt16 { readAttribute(device + "/id/" + key).flatMap { UInt16($0, radix: 16) } ?? 0 }
        return DeviceDescription(name: readAttribute(device + "/name") ?? "", bus: id("bustype"), vendor: id("vendor"), product: id("product"),
                                 version: id("version"), properties: readAttribute(device + "/properties").map(bitmap) ?? [], codes: codes)
    }

    /// Whether udev tagged the node `uaccess` (its database entry, `/run/udev/data/c<major>:<minor>`).
    static func uaccessTagged(sysfs: String) -> Bool {
        guard let dev = readAttribute(sysfs + "/dev"), let data = readAttribute("/run/udev/data/c" + dev) else { return false }
        return data.split(separator: "\n").contains { $0 == "G:uaccess" || $0 == "Q:uaccess" }
    }

    /// A sysfs bitmap ("120013", or "207f47ffffffffe 0" over several 64-bit words, the highest
    /// first) as the set of bit numbers.
    static func bitmap(_ text: String) -> Set<UInt16> {
        var set = Set<UInt16>()
        for (index, word) in text.split(separator: " ").reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { return [] }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { set.insert(UInt16(index * 64 + bit)) }
        }
        return set
    }

    /// A small file's text without its trailing newline; nil when it cannot be read.
    static func readAttribute(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
