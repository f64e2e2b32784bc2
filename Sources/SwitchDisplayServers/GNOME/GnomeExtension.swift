import Foundation
import SwitchCore
import SwitchDisplay

/// switchscan's GNOME Shell extension as the backend speaks to it (its API:
/// packaging/gnome-shell/README.md), and what the Shell itself says of it: the names, the
/// windows' JSON read, and the words `run` uses when the extension is not there (pure).
enum GnomeExtension {
    static let uuid = "switchscan@switchscan.org"
    static let busName = "org.switchscan.Shell"
    static let path = "/org/switchscan/Shell"
    static let interface = "org.switchscan.Shell1"
    /// The command that turns it on, as a note gives it.
    static let enableCommand = "gnome-extensions enable \(uuid)"
    /// The Shell on the session bus (it going away ends the run) and its extensions API
    /// (`GetExtensionInfo`, what `gnome-extensions info` asks).
    static let shellName = "org.gnome.Shell"
    static let shellPath = "/org/gnome/Shell"
    static let extensionsInterface = "org.gnome.Shell.Extensions"

    /// Where an extension is, for the Shell: `state` of `GetExtensionInfo` (js/misc/extensionUtils.js:
    /// ENABLED 1, DISABLED 2, ERROR 3, OUT_OF_DATE 4, DOWNLOADING 5, INITIALIZED 6, UNINSTALLED 99),
    /// with its folder and error; `unknown` when the Shell has no such extension (an empty answer).
    enum ShellState: Equatable, Sendable {
        case enabled(path: String)
        case disabled(path: String)
        case failed(path: String, error: String)
        case outOfDate(path: String)
        case unknown
        /// The Shell could not be asked (why).
        case unasked(String)

        /// From `GetExtensionInfo`'s dictionary.
        init(info: [String: BusValue]) {
            let path = info["path"]?.string ?? ""
            guard let state = info["state"]?.double else {
                self = .unknown
                return
            }
            switch Int(state) {
            case 1: self = .enabled(path: path)
            case 3: self = .failed(path: path, error: info["error"]?.string ?? "")
            case 4: self = .outOfDate(path: path)
            case 99: self = .unknown
            default: self = .disabled(path: path)  // disabled, initialized (loaded, not enabled), downloading
            }
        }
    }

    /// What `run` says when the extension does not answer on the bus: why, and the command that
    /// helps (`installed`: where this switchscan's own copy is, when it is installed). The run
    /// then goes on with AT-SPI actions alone.
    static func missingNote(_ state: ShellState, installed: String?, shellVersion: String?) -> String {
        let without = "no highlight, and clicks, keys and the Windows page only where AT-SPI has an action; scanning goes on with AT-SPI actions"
        let name = "GNOME Shell extension \(uuid)"
        let place = installed.map { " (installed in \($0))" } ?? ""
        switch state {
        case .disabled(let path):
            return "the \(name) (\(path.isEmpty ? installed ?? "installed" : path)) is not enabled: \(without). To turn it on: \(enableCommand)"
        case .enabled(let path):
            return "the \(name) (\(path)) is enabled but does not answer on the session bus (\(busName)): \(without). "
                + "Turn it off and on again: gnome-extensions disable \(uuid) && \(enableCommand)"
        case .failed(let path, let error):
            return "the \(name) (\(path)) failed in GNOME Shell\(error.isEmpty ? "" : ": \(error)"): \(without). "
                + "What the Shell said: journalctl --user -b /usr/bin/gnome-shell"
        case .outOfDate(let path):
            return "the \(name) (\(path)) was made for another GNOME Shell than this one\(shellVersion.map { " (\($0))" } ?? ""): \(without). "
                + "Install switchscan again (its install puts the form for this Shell in place), log out and in, then: \(enableCommand)"
        case .unknown where installed != nil:
            return "the \(name)\(place) is not loaded by this GNOME Shell (it looks for extensions when you log in): \(without). "
                + "Log out and in again, then: \(enableCommand)"
        case .unknown:
            return "the \(name) is not installed: \(without). scripts/install.sh and the .deb put it in "
                + "PREFIX/share/gnome-shell/extensions/\(uuid); then log out and in, and: \(enableCommand)"
        case .unasked(let why):
            return "the \(name) does not answer on the session bus (\(busName)), and GNOME Shell could not say why (\(why)): \(without). "
                + "To turn it on: \(enableCommand)"
        }
    }

    /// Where this switchscan's own copy of the extension is installed: PREFIX/share/gnome-shell/
    /// extensions/UUID beside PREFIX/bin/switchscan (`executable`: the binary's real path), when
    /// `exists` says so.
    static func installedPlace(executable: String?, exists: (String) -> Bool) -> String? {
        guard let executable else { return nil }
        let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent().path
        let place = prefix + "/share/gnome-shell/extensions/" + uuid
        return exists(place + "/metadata.json") ? place : nil
    }

    // MARK: Windows

    /// One window as `GetWindows` gives it (logical desktop pixels).
    struct Window: Equatable, Sendable {
        var id: UInt32
        var pid: Int32
        var title: String
        var wmClass: String
        var focused: Bool
        /// The Meta.WindowType in lower case ("normal", "dialog", "modal_dialog", "popup_menu" …).
        var type: String
        /// The client's whole surface (client-side shadows included).
        var buffer: Rect
        /// The window as the Shell frames it (no shadows; decorations included).
        var frame: Rect

        /// A window a pager lists.
        var isListed: Bool { ["normal", "dialog", "modal_dialog"].contains(type) }
    }

    /// The most `GetWindows` text read (thousands of windows are far below it).
    static let maxWindowsBytes = 4 << 20

    /// `GetWindows`' JSON, bottom of the stack first; or what is wrong with it, in one line.
    static func windows(_ json: String) -> Result<[Window], DisplayFailure> {
        guard json.utf8.count <= maxWindowsBytes else {
            return .failure(DisplayFailure("the extension's window list is \(json.utf8.count) bytes, more than \(maxWindowsBytes)"))
        }
        struct Box: Decodable { var x, y, w, h: Double }
        struct Item: Decodable {
            var id: UInt32
            var pid: Int32
            var title: String?
            var wmClass: String?
            var focused: Bool?
            var type: String?
            var buffer: Box
            var frame: Box
        }
        do {
            let items = try JSONDecoder().decode([Item].self, from: Data(json.utf8))
            let rect = { (b: Box) in Rect(x: b.x, y: b.y, width: b.w, height: b.h) }
            return .success(items.map {
                Window(id: $0.id, pid: $0.pid, title: $0.title ?? "", wmClass: $0.wmClass ?? "", focused: $0.focused ?? false,
                       type: $0.type ?? "normal", buffer: rect($0.buffer), frame: rect($0.frame))
            })
        } catch {
            return .failure(DisplayFailure("the extension's window list cannot be read (\(error)): \(json.prefix(80))"))
        }
    }
}

extension GnomeExtension.Window: Toplevel {
    var toplevelPid: Int32 { pid }
    var toplevelTitle: String { title }
    var toplevelBuffer: Rect { buffer }
    var toplevelFrame: Rect { frame }
    var toplevelFocused: Bool { focused }
}
