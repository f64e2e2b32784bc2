import Glibc
import SwitchCore
import SwitchDisplay
import SwitchInput

/// A Wayland compositor switchscan has no backend for (Weston, an unknown one: `none` in a
/// Wayland session, issue 30 point 6). Nothing can draw over its windows and nothing tells where
/// they are, so:
///
///     the highlight     none; speech says what is highlighted instead (`speaksInstead`), and a
///                       note says why
///     actions           AT-SPI's (DoAction, GrabFocus, EditableText, Value, ScrollTo), as on
///                       every backend
///     pointer, keys     where /dev/uinput is writable: a uinput absolute pointer the size of the
///                       outputs (read once from wl_output) and a uinput keyboard typing through
///                       the system's layout (SwitchInput's `UInputPointer`, `UInputKeyboard`),
///                       made at the first use; else none, and a note says how to allow them
///
/// A window's AT-SPI extents are relative to the window there and its origin is unknown, so a
/// uinput click lands where the element is only in a window at the desktop's top-left corner
/// (maximized or full screen); the note says that too. Keys do not depend on where anything is.
enum ElsewhereBackend {
    /// What the backend will do (pure: tests check it on plain values).
    struct Plan: Equatable {
        var uinput: Bool
        var notes: [String]
    }

    static let uinputPath = "/dev/uinput"

    static func plan(reason: String, uinputWritable: Bool) -> Plan {
        var notes = ["display: none (\(reason))",
                     "display: no highlight can be drawn on this compositor (switchscan draws on sway and other wlroots compositors, KDE Plasma and GNOME): "
                     + "speech says what is highlighted instead; AT-SPI actions carry out what is chosen"]
        if uinputWritable {
            notes.append("display: synthetic pointer and keys through \(uinputPath) (a uinput absolute pointer and keyboard); "
                         + "the compositor does not tell where windows are, so a click lands right only in a window at the desktop's top-left corner (maximized)")
        } else {
            notes.append("display: no synthetic pointer or keys: \(uinputPath) is not writable by this user "
                         + "(the udev rule `install.sh` installs gives the seat's user access; `switchscan devices` says how)")
        }
        return Plan(uinput: uinputWritable, notes: notes)
    }

    static func make(environment: [String: String], reason: String,
                     uinputWritable: Bool = access(ElsewhereBackend.uinputPath, W_OK) == 0) -> DisplayBackend {
        let plan = plan(reason: reason, uinputWritable: uinputWritable)
        let devices = ElsewhereDevices(environment: environment, enabled: plan.uinput)
        let backend = DisplayBackend(name: .none, notes: plan.notes, missing: { need in missing(need, devices.failure, uinput: plan.uinput) }, connect: {
            devices.open()
        }, overlay: { () throws(OverlayError) -> OverlaySurface in
            throw OverlayError("--show: no highlight can be drawn on this Wayland compositor (\(reason)); --no-show scans with speech")
        })
        backend.speaksInstead = true
        return backend
    }

    static func missing(_ need: DisplayNeed, _ failure: String?, uinput: Bool) -> String {
        let why = failure ?? (uinput ? "the uinput devices could not be made" : "\(uinputPath) is not writable by this user")
        return need.missingWords(why, windows: "this compositor does not let switchscan list or switch windows", place: " on this compositor")
    }
}

/// The uinput pointer and keyboard, made at the first use.
final class ElsewhereDevices {
    let environment: [String: String]
    let enabled: Bool
    private(set) var failure: String?

    init(environment: [String: String], enabled: Bool) {
        self.environment = environment
        self.enabled = enabled
    }

    func open() -> DisplayBackend.DesktopParts {
        guard enabled else { return DisplayBackend.DesktopParts() }
        var parts = DisplayBackend.DesktopParts()
        // The outputs' extent, for the absolute pointer's axes (the compositor maps the device
        // onto all of them).
        if let c = try? WaylandConnection(environment: environment, timeout: 2), c.layoutBounds.width > 0 {
            let b = c.layoutBounds
            let screen = Size(width: Double(b.x + b.width), height: Double(b.y + b.height))
            parts.screen = screen
            do {
                parts.pointer = UInputDisplayPointer(try UInputPointer(screen: screen))
            } catch {
                failure = "\(error)"
            }
        } else {
            failure = "the compositor did not say how large its outputs are"
        }
        do {
            parts.keys = UInputDisplayKeys(try UInputKeyboard(layout: try KeyLayout()))
        } catch {
            failure = failure ?? "\(error)"
        }
        return parts
    }
}

/// The seam's pointer over a uinput absolute pointer.
final class UInputDisplayPointer: DisplayPointer {
    private let device: UInputPointer

    init(_ device: UInputPointer) { self.device = device }

    var unavailable: DisplayFailure? { nil }

    func click(_ button: PointerButton, at point: Point) -> Result<Void, DisplayFailure> {
        for op in [PointerOp.move(point), .button(button, down: true), .button(button, down: false)] {
            if let e = device.perform(op) { return .failure(DisplayFailure(e)) }
        }
        return .success(())
    }

    func wheel(_ direction: ScrollDirection, at point: Point) -> Result<Void, DisplayFailure> {
        for op in [PointerOp.move(point), .wheel(direction)] {
            if let e = device.perform(op) { return .failure(DisplayFailure(e)) }
        }
        return .success(())
    }

    func perform(_ op: PointerOp) -> Result<Void, DisplayFailure> {
        device.perform(op).map { .failure(DisplayFailure($0)) } ?? .success(())
    }
}

/// The seam's keys over a uinput keyboard (by keysym through the system's layout).
final class UInputDisplayKeys: DisplayKeys {
    let via = "uinput"
    private let device: UInputKeyboard

    init(_ device: UInputKeyboard) { self.device = device }

    func send(_ combo: KeyCombo) -> Result<String, DisplayFailure> { LayoutKeys.send(device, combo) }

    func typeText(_ text: String) -> Result<String, DisplayFailure> { LayoutKeys.typeText(device, text) }

    func typeEdit(delete: Int, text: String, move: Int) -> Result<String, DisplayFailure> {
        LayoutKeys.typeEdit(device, delete: delete, text: text, move: move)
    }

    func finish() {}
}
