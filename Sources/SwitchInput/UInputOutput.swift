internal import CEvdev
import Glibc
import SwitchCore

/// The `--inject` devices: a uinput absolute pointer the size of the tree's screen (ABS_X/Y,
/// BTN_TOUCH, BTN_LEFT, INPUT_PROP_DIRECT: desktops treat it as a touchscreen) plus KEY_ESC, for
/// activations and escape; and for the scanner menu (issue 23) a keyboard (`UInputKeyboard`, keys
/// by keysym through the system's layout) and a pointer (`UInputPointer`, the gestures, timed by
/// the loop). Created at start so a missing /dev/uinput fails before anything runs.
public final class UInputOutput {
    public static let deviceName = "switchscan output"
    private let template: OpaquePointer
    private let uinput: OpaquePointer
    public let plan: InjectionPlan
    public let pointer: UInputPointer
    /// nil when the keyboard layout could not be compiled (`keyboardProblem` says why).
    public let keyboard: UInputKeyboard?
    public let keyboardProblem: String?
    private let gestures = TimedSteps<PointerOp>()

    public init(screen: Size, holdTime: Interval = MenuSettings().holdTime, layout: () throws(KeyLayout.Failure) -> KeyLayout = { () throws(KeyLayout.Failure) in try KeyLayout() }) throws(DeviceError) {
        plan = InjectionPlan(screen: screen, holdTime: holdTime)
        pointer = try UInputPointer(screen: screen)
        do {
            keyboard = try UInputKeyboard(layout: try layout())
            keyboardProblem = nil
        } catch let e as DeviceError {
            throw e
        } catch {
            keyboard = nil
            keyboardProblem = "\(error)"
        }
        guard let dev = libevdev_new() else { throw DeviceError(node: "/dev/uinput", operation: .uinput, errno: ENOMEM) }
        libevdev_set_name(dev, UInputOutput.deviceName)
        libevdev_set_id_bustype(dev, Int32(BUS_VIRTUAL))
        libevdev_set_id_vendor(dev, 0x5353)   // "SS"
        libevdev_set_id_product(dev, 0x0001)
        libevdev_enable_property(dev, UInt32(INPUT_PROP_DIRECT))
        libevdev_enable_event_type(dev, UInt32(EV_KEY))
        for code in [BTN_TOUCH, BTN_LEFT, KEY_ESC] { libevdev_enable_event_code(dev, UInt32(EV_KEY), UInt32(code), nil) }
        libevdev_enable_event_type(dev, UInt32(EV_ABS))
        for (code, size) in [(ABS_X, plan.width), (ABS_Y, plan.height)] {
            var info = input_absinfo(value: 0, minimum: 0, maximum: size - 1, fuzz: 0, flat: 0, resolution: 0)
            libevdev_enable_event_code(dev, UInt32(EV_ABS), UInt32(code), &info)
        }
        var ui: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &ui)
        guard rc == 0, let ui else {
            libevdev_free(dev)
            throw DeviceError(node: "/dev/uinput", operation: .uinput, errno: rc)
        }
        template = dev
        uinput = ui
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        libevdev_free(template)
    }

    /// The node the output device got (`/dev/input/eventN`), when the kernel says.
    public var node: String? { libevdev_uinput_get_devnode(uinput).map { String(cString: $0) } }

    /// Performs the steps; returns the messages of steps that need an application bridge, and
    /// of writes that failed.
    public func perform(_ steps: [InjectionStep]) -> [String] {
        var messages: [String] = []
        for step in steps {
            switch step {
            case .tap(let x, let y):
                if let e = write([(EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y), (EV_KEY, BTN_TOUCH, 1)]) { messages.append(e) }
                if let e = write([(EV_KEY, BTN_TOUCH, 0)]) { messages.append(e) }
            case .key(let code):
                if let e = write([(EV_KEY, Int32(code), 1)]) { messages.append(e) }
                if let e = write([(EV_KEY, Int32(code), 0)]) { messages.append(e) }
            case .needsBridge(let message):
                messages.append(message)
            case .keys(let combo):
                guard let keyboard else { messages.append("\(combo) not sent: \(keyboardProblem ?? "no keyboard")"); continue }
                if let e = keyboard.send(combo) { messages.append(e) }
            case .edit(let e):
                guard let keyboard else { messages.append("typing not sent: \(keyboardProblem ?? "no keyboard")"); continue }
                if let m = keyboard.typeEdit(delete: e.delete, text: e.text, move: e.move) { messages.append("typing: " + m) }
            case .pointer(let ops):
                gestures.schedule(ops.map { ($0.after, $0.op) }, now: MonotonicClock.nowMicroseconds())
                messages += runGestures(now: MonotonicClock.nowMicroseconds())
            }
        }
        return messages
    }

    /// The pointer operations due at `now`, carried out; the messages of failed writes.
    func runGestures(now: Int64) -> [String] {
        gestures.takeDue(now).compactMap { pointer.perform($0) }
    }

    /// When the next pointer operation is due (CLOCK_MONOTONIC µs).
    public var gestureDeadline: Int64? { gestures.deadline }

    /// One frame: the events, then SYN_REPORT.
    private func write(_ events: [(Int32, Int32, Int32)]) -> String? {
        for (type, code, value) in events + [(EV_SYN, SYN_REPORT, 0)] {
            let rc = libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
            if rc != 0 { return "cannot write to the output device: \(String(cString: strerror(-rc)))" }
        }
        return nil
    }
}

/// `--inject` as a performer of the live loop: every perform line becomes device input; what it
/// cannot do (or a failed write) is a note on stderr.
extension UInputOutput: LoopAdapter {
    public var name: String { "inject" }

    public func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        perform(plan.steps(for: line)).map { .log($0) }
    }

    public func prepare(nowMonotonic: Int64) -> LoopInterest { LoopInterest(deadline: gestures.deadline) }

    public func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        runGestures(now: nowMonotonic).map { .log($0) }
    }

    /// No button stays down when the loop ends.
    public func finish() {
        for op in gestures.takeAll() {
            if case .button(_, down: false) = op { _ = pointer.perform(op) }
        }
    }
}
