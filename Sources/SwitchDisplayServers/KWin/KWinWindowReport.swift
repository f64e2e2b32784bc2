import Foundation
import SwitchCore
import SwitchDisplay

/// One window as switchscan's KWin script reports it (`Windows(s json)`,
/// packaging/kwin/README.md): KWin's own rectangles in logical desktop pixels.
public struct KWinWindow: Equatable, Sendable {
    /// KWin's `internalId`, a UUID string ("{6b1f…}").
    public var id: String
    public var pid: Int32
    public var caption: String
    public var resourceClass: String
    public var active: Bool
    /// "normal", "dialog", "popup", "dock", "desktop" or "other".
    public var type: String
    /// The client's surface (`bufferGeometry`): where GTK 3's and Qt 5's AT-SPI coordinates start.
    public var buffer: Rect
    /// The window with KWin's decorations (`frameGeometry`).
    public var frame: Rect
    /// The client area (`clientGeometry`), when KWin says.
    public var client: Rect?

    public init(id: String, pid: Int32, caption: String, resourceClass: String = "", active: Bool = false, type: String = "normal",
                buffer: Rect, frame: Rect? = nil, client: Rect? = nil) {
        self.id = id
        self.pid = pid
        self.caption = caption
        self.resourceClass = resourceClass
        self.active = active
        self.type = type
        self.buffer = buffer
        self.frame = frame ?? buffer
        self.client = client
    }

    /// A window a pager lists: an application's own (not a panel, the desktop or a popup menu).
    public var isListed: Bool { type == "normal" || type == "dialog" }
}

extension KWinWindow: Toplevel {
    public var toplevelPid: Int32 { pid }
    public var toplevelTitle: String { caption }
    public var toplevelBuffer: Rect { buffer }
    public var toplevelFrame: Rect { frame }
    public var toplevelFocused: Bool { active }
}

/// The script's report, read (pure: JSON text in, windows or the place that is wrong out).
public enum KWinWindowReport {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The largest report read (a desktop with thousands of windows is far below it).
    public static let maxBytes = 4 << 20

    /// The windows of a `Windows(s json)` call, in KWin's stacking order.
    public static func parse(_ text: String) -> Result<[KWinWindow], Failure> {
        guard text.utf8.count <= maxBytes else {
            return .failure(Failure(description: "the KWin script's window report is \(text.utf8.count) bytes, more than \(maxBytes)"))
        }
        let items: [Item]
        do {
            items = try JSONDecoder().decode([Item].self, from: Data(text.utf8))
        } catch let DecodingError.keyNotFound(key, context) {
            return .failure(Failure(description: "the KWin script's window report: \(path(context.codingPath + [key])): missing"))
        } catch let DecodingError.typeMismatch(type, context) {
            return .failure(Failure(description: "the KWin script's window report: \(path(context.codingPath)): expected \(type)"))
        } catch let DecodingError.valueNotFound(type, context) {
            return .failure(Failure(description: "the KWin script's window report: \(path(context.codingPath)): expected \(type), got null"))
        } catch {
            return .failure(Failure(description: "the KWin script's window report is not JSON: \(text.prefix(80))"))
        }
        return .success(items.map { i in
            KWinWindow(id: i.id, pid: i.pid, caption: i.caption, resourceClass: i.resourceClass ?? "", active: i.active ?? false,
                       type: i.type ?? "other", buffer: i.buffer.rect, frame: i.frame?.rect ?? i.buffer.rect, client: i.client?.rect)
        })
    }

    /// "[2].buffer.w".
    static func path(_ keys: [CodingKey]) -> String {
        var out = ""
        for k in keys {
            if let n = k.intValue { out += "[\(n)]" } else { out += (out.isEmpty ? "" : ".") + k.stringValue }
        }
        return out.isEmpty ? "the top level" : out
    }

    private struct Item: Decodable {
        var id: String
        var pid: Int32
        var caption: String
        var resourceClass: String?
        var active: Bool?
        var type: String?
        var buffer: Box
        var frame: Box?
        var client: Box?
    }

    private struct Box: Decodable {
        var x: Double, y: Double, w: Double, h: Double
        var rect: Rect { Rect(x: x, y: y, width: w, height: h) }
    }
}

/// What switchscan knows of KWin's windows, from the script's last report (pure): the Windows
/// page's list, the window origins by process, and the numbers the seam's ids carry (a UUID gets
/// the next number the first time it is seen, kept for the run). switchscan's own windows (the
/// overlay's layer surfaces, which KWin 5.27 reports as normal windows without a caption) are
/// left out.
public struct KWinWindowTable: Sendable {
    public private(set) var windows: [KWinWindow] = []
    private var numbers: [String: UInt64] = [:]
    private var uuids: [UInt64: String] = [:]
    private var nextNumber: UInt64 = 1
    private let ownPid: Int32?

    /// `ownPid`: this process (its windows are not the desktop's).
    public init(ownPid: Int32? = nil) {
        self.ownPid = ownPid
    }

    /// Takes a new report; true when anything a pager or the origins see changed.
    @discardableResult
    public mutating func update(_ all: [KWinWindow]) -> Bool {
        let report = all.filter { $0.pid != ownPid }
        for w in report where numbers[w.id] == nil {
            numbers[w.id] = nextNumber
            uuids[nextNumber] = w.id
            nextNumber += 1
        }
        guard report != windows else { return false }
        windows = report
        return true
    }

    public func id(of w: KWinWindow) -> DisplayWindowID {
        DisplayWindowID(backend: DisplayBackendName.kwin.rawValue, number: numbers[w.id] ?? 0)
    }

    /// KWin's UUID behind a seam id (nil: not one of ours, or never reported).
    public func uuid(of id: DisplayWindowID) -> String? {
        id.backend == DisplayBackendName.kwin.rawValue ? uuids[id.number] : nil
    }

    /// The pager's list (applications' windows), bottom first; frames are the client areas (the
    /// buffer where KWin gives none).
    public var list: [DisplayWindow] {
        windows.filter(\.isListed).map { w in
            DisplayWindow(id: id(of: w), pid: w.pid, title: w.caption, frame: w.client ?? w.buffer)
        }
    }

    public var active: DisplayWindowID? { windows.last { $0.active }.map(id(of:)) }

    /// Where the window of `pid` titled `title` has its AT-SPI coordinates start
    /// (`ToplevelOrigin`): among the process's windows, the one with that caption, else the one
    /// whose buffer or frame is `size`, else the only one, else the active one, else the top one.
    public func origin(pid: Int32?, title: String, size: Size?) -> Point? {
        ToplevelOrigin.origin(in: windows.filter { $0.type != "dock" && $0.type != "desktop" }, pid: pid, title: title, size: size)
    }
}
