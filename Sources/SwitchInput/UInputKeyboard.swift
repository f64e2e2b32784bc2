internal import CEvdev
import SwitchCore

/// `--inject`'s keyboard (issue 23): a uinput device, "switchscan keyboard", with every key of a
/// keyboard and the media keys. Key combinations and text go by keysym through the system's layout
/// (`KeyLayout`). `run` never reads a device named "switchscan …", so a synthetic Enter never
/// selects.
public final class UInputKeyboard {
    public static let deviceName = "switchscan keyboard"
    private let device: UInputDevice
    public let layout: KeyLayout
    private let typing: LayoutTyping

    public init(layout: KeyLayout) throws(DeviceError) {
        self.layout = layout
        device = try UInputDevice(name: UInputKeyboard.deviceName, product: 0x0002) { dev in
            libevdev_enable_event_type(dev, UInt32(EV_KEY))
            // KEY_ESC … KEY_MICMUTE: the keyboard keys, the media and device keys.
            for code in UInt32(KEY_ESC)...UInt32(KEY_MICMUTE) { libevdev_enable_event_code(dev, UInt32(EV_KEY), code, nil) }
        }
        typing = LayoutTyping(layout: layout) { [device] code, down in device.write([(UInt16(EV_KEY), code, down ? 1 : 0)]) }
    }

    public var node: String? { device.node }

    /// Presses a combination (`LayoutTyping`); each key change is a frame of its own, as a
    /// keyboard sends them.
    public func send(_ combo: KeyCombo) -> String? { typing.send(combo) }

    /// Types `text` character by character; the message of the first character it cannot type.
    public func typeText(_ text: String) -> String? { typing.typeText(text) }

    /// BackSpace `delete` times, the text, then Left or Right `move` times (issue 18).
    public func typeEdit(delete: Int, text: String, move: Int) -> String? { typing.typeEdit(delete: delete, text: text, move: move) }

}
