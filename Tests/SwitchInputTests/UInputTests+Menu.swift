import Foundation
import SwitchCore
import SwitchInput
import Testing

/// `--inject`'s keyboard and pointer for the scanner menu (issue 23), read back from the real
/// kernel (the VM suite; the keyboard layouts come from the xkb-data it copies in).
extension UInputTests {
    func opened(_ node: String?) throws -> EvdevDevice {
        let node = try #require(node)
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: node) { usleep(10_000) }
        return try EvdevDevice(node: node, readingOwnDevice: true)
    }

    /// The events of every frame read, by name: ["KEY_LEFTCTRL 1"], ["KEY_Q 1"], ….
    func named(_ device: EvdevDevice) -> [[String]] {
        frames(device).outputs.map { out -> [String] in
            if case .frame(let f) = out { return f.events.map(\.description) }
            return ["unexpected \(out)"]
        }
    }

    /// Ctrl+A by keysym: on AZERTY the key of `a` is the one a US keyboard calls Q.
    @Test func theKeyboardTypesByKeysymThroughTheLayout() throws {
        let keyboard = try UInputKeyboard(layout: try KeyLayout(layout: "fr"))
        let reader = try opened(keyboard.node)
        #expect(reader.description.name == "switchscan keyboard")
        #expect(keyboard.send(try KeyCombo(parsing: "Ctrl+A")) == nil)
        #expect(named(reader) == [["KEY_LEFTCTRL 1"], ["KEY_Q 1"], ["KEY_Q 0"], ["KEY_LEFTCTRL 0"]])
        // A digit needs Shift on AZERTY; € is AltGr (right Alt) + E.
        #expect(keyboard.typeText("1€") == nil)
        #expect(named(reader) == [["KEY_LEFTSHIFT 1"], ["KEY_1 1"], ["KEY_1 0"], ["KEY_LEFTSHIFT 0"],
                                  ["KEY_RIGHTALT 1"], ["KEY_E 1"], ["KEY_E 0"], ["KEY_RIGHTALT 0"]])
        // The media keys; a character no key of the layout types is said, not sent.
        #expect(keyboard.send(try KeyCombo(parsing: "XF86AudioRaiseVolume")) == nil)
        #expect(named(reader) == [["KEY_VOLUMEUP 1"], ["KEY_VOLUMEUP 0"]])
        #expect(keyboard.typeText("ж") == "\"ж\": the keyboard layout fr has no key for it")
        #expect(named(reader).isEmpty)
    }

    /// The scanning keyboard's `type` lines through the output adapter (issue 18): BackSpace,
    /// the text by keysym through the layout (Shift for a capital and "!"), then the arrow.
    @Test func theOutputTypesTheKeyboardsEdits() throws {
        let output = try UInputOutput(screen: Size(width: 390, height: 844), layout: { () throws(KeyLayout.Failure) in try KeyLayout(layout: "us") })
        let keyboard = try #require(output.keyboard, "\(output.keyboardProblem ?? "")")
        let reader = try opened(keyboard.node)
        let model = ScanModel(tree: ElementTree(screen: Size(width: 390, height: 844), root: Element(id: "r")))
        let line = TranscriptLine(t: .zero, .typed(TypedText(KeyboardText.Edit(delete: 1, text: "Hi!", move: -1), key: "kbd:word:hi")))
        #expect(output.observe(line, model: model).isEmpty)
        #expect(named(reader) == [["KEY_BACKSPACE 1"], ["KEY_BACKSPACE 0"],
                                  ["KEY_LEFTSHIFT 1"], ["KEY_H 1"], ["KEY_H 0"], ["KEY_LEFTSHIFT 0"], ["KEY_I 1"], ["KEY_I 0"],
                                  ["KEY_LEFTSHIFT 1"], ["KEY_1 1"], ["KEY_1 0"], ["KEY_LEFTSHIFT 0"], ["KEY_LEFT 1"], ["KEY_LEFT 0"]])
    }

    @Test func thePointerCarriesOutTheGestures() throws {
        let pointer = try UInputPointer(screen: Size(width: 390, height: 844))
        let reader = try opened(pointer.node)
        #expect(reader.description.name == "switchscan pointer")
        #expect(reader.description.kind != .touchscreen)
        #expect(!reader.description.has(property: EventCodes.INPUT_PROP_DIRECT))
        for t in PointerGesture.ops(for: Perform(.rightClick, id: "a", label: "", point: Point(x: 30.7, y: 900)), holdTime: .zero)! {
            #expect(pointer.perform(t.op) == nil)
        }
        #expect(pointer.perform(.wheel(.down)) == nil)
        #expect(pointer.perform(.wheel(.right)) == nil)
        #expect(named(reader) == [["ABS_X 30", "ABS_Y 843"], ["BTN_RIGHT 1"], ["BTN_RIGHT 0"], ["REL_WHEEL -1"], ["REL_HWHEEL 1"]])
    }

    /// The output adapter times a drag over half a second from the loop: nothing blocks.
    @Test func theOutputRunsADragOverTime() throws {
        let output = try UInputOutput(screen: Size(width: 390, height: 844))
        let reader = try opened(output.pointer.node)
        let start = MonotonicClock.nowMicroseconds()
        let line = TranscriptLine(t: .zero, .perform(Perform(.drag(from: Point(x: 5, y: 5), to: Point(x: 105, y: 105)), id: "a", label: "")))
        #expect(output.observe(line, model: ScanModel(tree: ElementTree(screen: Size(width: 390, height: 844), root: Element(id: "r")))).isEmpty)
        #expect(MonotonicClock.nowMicroseconds() - start < 100_000)
        #expect(named(reader) == [["ABS_X 5", "ABS_Y 5"], ["BTN_LEFT 1"]])
        while let due = output.gestureDeadline {
            usleep(useconds_t(max(0, due - MonotonicClock.nowMicroseconds())))
            _ = output.dispatch(ready: [], nowMonotonic: MonotonicClock.nowMicroseconds())
        }
        let rest = named(reader)
        #expect(rest.count == 11)
        #expect(rest.last == ["BTN_LEFT 0"])
        #expect(rest[rest.count - 2] == ["ABS_X 105", "ABS_Y 105"])
        #expect(MonotonicClock.nowMicroseconds() - start >= 500_000)
    }

    /// A key perform reaches the keyboard through the output adapter (the system's layout: US in
    /// the VM, which has no /etc/default/keyboard).
    @Test func theOutputSendsKeyPerformsToTheKeyboard() throws {
        let output = try UInputOutput(screen: Size(width: 390, height: 844))
        let keyboard = try #require(output.keyboard, "\(output.keyboardProblem ?? "")")
        let reader = try opened(keyboard.node)
        let model = ScanModel(tree: ElementTree(screen: Size(width: 390, height: 844), root: Element(id: "r")))
        for keys in ["Ctrl+Shift+Z", "XF86AudioMute"] {
            #expect(output.observe(TranscriptLine(t: .zero, .perform(Perform(.key(keys), id: "a", label: ""))), model: model).isEmpty)
        }
        #expect(named(reader) == [["KEY_LEFTCTRL 1"], ["KEY_LEFTSHIFT 1"], ["KEY_Z 1"], ["KEY_Z 0"], ["KEY_LEFTSHIFT 0"], ["KEY_LEFTCTRL 0"],
                                  ["KEY_MUTE 1"], ["KEY_MUTE 0"]])
    }
}
