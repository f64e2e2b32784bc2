import Glibc
import SwitchCore

/// One `/dev/input/event*` node: its description, or why it could not be read.
public struct DeviceEntry: Sendable, Equatable {
    public var node: String
    public var result: Result<DeviceDescription, DeviceError>

    public init(node: String, result: Result<DeviceDescription, DeviceError>) {
        self.node = node
        self.result = result
    }

    public var description: DeviceDescription? { if case .success(let d) = result { return d }; return nil }
    public var error: DeviceError? { if case .failure(let e) = result { return e }; return nil }
}

/// Lists the evdev nodes. `opendir`/`readdir` on purpose: glibc's `glob()` and `scandir()` use an
/// internal opendir that umockdev does not intercept, so they would see no emulated nodes.
public enum DeviceEnumeration {
    public static let inputDirectory = "/dev/input"

    /// The `event*` node paths in `directory`, in number order (event2 before event10); empty
    /// when the directory does not exist. Devices switchscan made (`switchscan …`, named so in
    /// sysfs) are left out: switchscan never opens them.
    public static func nodes(in directory: String = inputDirectory) -> [String] {
        allNodes(in: directory).filter { node in
            !(DeviceAccess.sysfsName(node: node).map(isOwnDevice(name:)) ?? false)
        }
    }

    /// Whether a device is one switchscan made (`switchscan output`, `switchscan keyboard`,
    /// `switchscan pointer` …): what it writes must never come back as input (a synthetic Enter
    /// would select).
    public static func isOwnDevice(name: String) -> Bool { VirtualTouchscreenLayout.isOwnDevice(name: name) }

    private static func allNodes(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("event"), Int(name.dropFirst(5)) != nil { names.append(name) }
        }
        names.sort { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
        return names.map { directory + "/" + $0 }
    }

    /// Opens every node briefly and reads its description.
    public static func entries(in directory: String = inputDirectory) -> [DeviceEntry] {
        nodes(in: directory).map(entry(node:))
    }

    public static func entry(node: String) -> DeviceEntry {
        do {
            let device = try EvdevDevice(node: node)
            return DeviceEntry(node: node, result: .success(device.description))
        } catch {
            return DeviceEntry(node: node, result: .failure(error))
        }
    }
}
