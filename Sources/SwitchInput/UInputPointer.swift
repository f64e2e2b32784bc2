internal import CEvdev
import SwitchCore

/// `--inject`'s pointer (issue 23): a uinput absolute pointer the size of the screen, like a VM's
/// tablet (ABS_X/Y without INPUT_PROP_DIRECT: a pointer, not a touchscreen), with the left, right
/// and middle buttons and both wheels. It carries out `PointerGesture`'s operations; the adapter
/// times them (`TimedSteps`).
public final class UInputPointer {
    public static let deviceName = "switchscan pointer"
    private let device: UInputDevice
    private let width: Int32, height: Int32

    public init(screen: Size) throws(DeviceError) {
        let plan = InjectionPlan(screen: screen)
        width = plan.width
        height = plan.height
        device = try UInputDevice(name: UInputPointer.deviceName, product: 0x0003) { [width = plan.width, height = plan.height] dev in
            libevdev_enable_event_type(dev, UInt32(EV_KEY))
            for code in [BTN_LEFT, BTN_RIGHT, BTN_MIDDLE] { libevdev_enable_event_code(dev, UInt32(EV_KEY), UInt32(code), nil) }
            libevdev_enable_event_type(dev, UInt32(EV_REL))
            for code in [REL_WHEEL, REL_HWHEEL] { libevdev_enable_event_code(dev, UInt32(EV_REL), UInt32(code), nil) }
            libevdev_enable_event_type(dev, UInt32(EV_ABS))
            for (code, size) in [(ABS_X, width), (ABS_Y, height)] {
                var info = input_absinfo(value: 0, minimum: 0, maximum: size - 1, fuzz: 0, flat: 0, resolution: 0)
                libevdev_enable_event_code(dev, UInt32(EV_ABS), UInt32(code), &info)
            }
        }
    }

    public var node: String? { device.node }

    /// One operation as one frame; the message of a failed write.
    public func perform(_ op: PointerOp) -> String? {
        switch op {
        case .move(let p):
            return device.write([(UInt16(EV_ABS), UInt16(ABS_X), clamp(p.x, width)), (UInt16(EV_ABS), UInt16(ABS_Y), clamp(p.y, height))])
        case .button(let b, let down):
            let code = b == .left ? BTN_LEFT : b == .right ? BTN_RIGHT : BTN_MIDDLE
            return device.write([(UInt16(EV_KEY), UInt16(code), down ? 1 : 0)])
        case .wheel(let d):
            // Wheel up is +1 (away from the person), right is +1.
            let (code, value): (Int32, Int32) = switch d {
            case .up, .top: (REL_WHEEL, 1)
            case .down, .bottom: (REL_WHEEL, -1)
            case .left: (REL_HWHEEL, -1)
            case .right: (REL_HWHEEL, 1)
            }
            return device.write([(UInt16(EV_REL), UInt16(code), value)])
        }
    }

    private func clamp(_ v: Double, _ size: Int32) -> Int32 {
        guard v.isFinite else { return 0 }
        return Int32(min(Double(size - 1), max(0, v.rounded(.down))))
    }
}
