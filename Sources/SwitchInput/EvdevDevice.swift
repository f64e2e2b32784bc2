internal import CEvdev
import Glibc
import SwitchCore

/// One raw result of `libevdev_next_event`, in the order libevdev gives them. Times are the
/// event's own timestamp in µs (the kernel's, or a umockdev file's).
public enum DeviceRead: Equatable, Sendable {
    /// A normal event (SYN_REPORT included).
    case event(InputEvent, kernelMicroseconds: Int64)
    /// SYN_DROPPED: the kernel's buffer overflowed; libevdev resyncs next.
    case dropped(kernelMicroseconds: Int64)
    /// One event of the delta libevdev synthesises after SYN_DROPPED.
    case syncEvent(InputEvent, kernelMicroseconds: Int64)
    /// The delta is complete (`-EAGAIN` in sync mode).
    case syncDone
    /// Nothing more to read now (`-EAGAIN`).
    case drained
    /// The device is gone (`-ENODEV`, or another read error), with the errno.
    case gone(errno: Int32)
}

/// An open evdev node read through libevdev. It owns both the `struct libevdev *` and the fd:
/// `libevdev_free` does not close the fd, so `deinit` releases the grab, frees and closes.
public final class EvdevDevice {
    public let node: String
    public let description: DeviceDescription
    /// True when the events carry CLOCK_MONOTONIC stamps (`libevdev_set_clock_id` succeeded).
    public private(set) var monotonicTimestamps = false
    public private(set) var isGrabbed = false
    public let fileDescriptor: Int32
    private let handle: OpaquePointer

    /// Opens `node` read-only and non-blocking and reads its description. A device switchscan
    /// made (`switchscan …`: its virtual touchscreen, keyboard, pointer, output) is refused
    /// before it is opened when sysfs names it, and after otherwise: what switchscan writes
    /// must never come back to it as input.
    public convenience init(node: String) throws(DeviceError) {
        try self.init(node: node, readingOwnDevice: false)
    }

    /// `readingOwnDevice`: the tests that read back what switchscan wrote.
    package init(node: String, readingOwnDevice: Bool) throws(DeviceError) {
        if !readingOwnDevice, let name = DeviceAccess.sysfsName(node: node), DeviceEnumeration.isOwnDevice(name: name) {
            throw DeviceError(node: node, operation: .own, errno: 0, advice: name)
        }
        let fd = switchscan_open_device(node)
        if fd < 0 {
            let e = errno
            throw DeviceError(node: node, operation: .open, errno: e, advice: e == EACCES || e == EPERM ? DeviceAccess.advice(node: node) : nil)
        }
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else {
            close(fd)
            throw DeviceError(node: node, operation: .describe, errno: rc)
        }
        let description = EvdevDevice.describe(dev)
        if !readingOwnDevice, DeviceEnumeration.isOwnDevice(name: description.name) {
            libevdev_free(dev)
            close(fd)
            throw DeviceError(node: node, operation: .own, errno: 0, advice: description.name)
        }
        self.node = node
        self.fileDescriptor = fd
        self.handle = dev
        self.description = description
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        libevdev_free(handle)
        close(fileDescriptor)
    }

    /// Asks for CLOCK_MONOTONIC timestamps. Not fatal when refused (umockdev answers ENOENT):
    /// returns the errno, and events are then stamped when read.
    @discardableResult
    public func useMonotonicClock() -> Int32? {
        let rc = libevdev_set_clock_id(handle, CLOCK_MONOTONIC)
        monotonicTimestamps = rc == 0
        return rc == 0 ? nil : -rc
    }

    /// `useMonotonicClock`, with the note for stderr when it is refused: "<node>: cannot set
    /// CLOCK_MONOTONIC timestamps (<reason>); <fallback>".
    public func useMonotonicClock(fallback: String) -> String? {
        guard let err = useMonotonicClock() else { return nil }
        return "\(node): cannot set CLOCK_MONOTONIC timestamps (\(String(cString: strerror(err)))); \(fallback)"
    }

    /// EVIOCGRAB: this program becomes the only reader, so a switch's key stops typing into apps.
    public func grab() throws(DeviceError) {
        let rc = libevdev_grab(handle, LIBEVDEV_GRAB)
        if rc != 0 { throw DeviceError(node: node, operation: .grab, errno: rc) }
        isGrabbed = true
    }

    public func ungrab() {
        guard isGrabbed else { return }
        _ = libevdev_grab(handle, LIBEVDEV_UNGRAB)
        isGrabbed = false
    }

    /// Reads until nothing is left (`-EAGAIN`) or the device is gone, handing every result to
    /// `sink` in order. After SYN_DROPPED it reads libevdev's delta in sync mode until `-EAGAIN`
    /// (`.syncDone`), then goes on in normal mode. Ends with `.drained` or `.gone`.
    public func drain(_ sink: (DeviceRead) -> Void) { drain(syncing: false, sink) }

    /// `drain`, from libevdev's delta when `syncing` (after `readFrame` ended with `.dropped`).
    func drain(syncing startSyncing: Bool, _ sink: (DeviceRead) -> Void) {
        var ev = input_event()
        var syncing = startSyncing
        let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
        let sync = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
        while true {
            let flags = syncing ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
            let rc = libevdev_next_event(handle, UInt32(flags), &ev)
            LoopStamps.mark(.firstEvent)
            let time = Int64(switchscan_event_sec(&ev)) * 1_000_000 + Int64(switchscan_event_usec(&ev))
            let event = InputEvent(type: ev.type, code: ev.code, value: ev.value)
            switch rc {
            case success:
                LoopStamps.source(time)
                sink(.event(event, kernelMicroseconds: time))
            case sync:
                if syncing {
                    sink(.syncEvent(event, kernelMicroseconds: time))
                } else {
                    syncing = true
                    sink(.dropped(kernelMicroseconds: time))
                }
            case -EAGAIN:
                if syncing {
                    syncing = false
                    sink(.syncDone)
                } else {
                    sink(.drained)
                    return
                }
            case -EINTR:
                continue
            default:
                sink(.gone(errno: rc < 0 ? -rc : EIO))
                return
            }
        }
    }

    /// Touch passthrough's live route: reads in normal mode, appending each event and its stamp
    /// (µs), up to and including a `SYN_REPORT`. nil when one was read; else what ended the read
    /// instead, as `drain` says it (`.drained`, `.dropped`: go on with `drain(syncing: true)`,
    /// `.gone`). No closure and no result per event: a gesture's frame is read on the way to the
    /// virtual touchscreen.
    func readFrame(into events: inout [InputEvent], stamps: inout [Int64]) -> DeviceRead? {
        var ev = input_event()
        while true {
            let rc = libevdev_next_event(handle, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &ev)
            LoopStamps.mark(.firstEvent)
            let time = Int64(switchscan_event_sec(&ev)) * 1_000_000 + Int64(switchscan_event_usec(&ev))
            switch rc {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
                LoopStamps.source(time)
                events.append(InputEvent(type: ev.type, code: ev.code, value: ev.value))
                stamps.append(time)
                if ev.type == EventCodes.EV_SYN && ev.code == EventCodes.SYN_REPORT { return nil }
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue): return .dropped(kernelMicroseconds: time)
            case -EAGAIN: return .drained
            case -EINTR: continue
            default: return .gone(errno: rc < 0 ? -rc : EIO)
            }
        }
    }

    /// The description libevdev read from the node: ids, properties, codes per type (EV_SYN
    /// left out, as in evemu's parser), absinfo.
    static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        var codes: [UInt16: Set<UInt16>] = [:]
        var absInfo: [UInt16: DeviceDescription.AbsInfo] = [:]
        for type in 1..<UInt32(EV_CNT) where libevdev_has_event_type(dev, type) != 0 {
            let maxCode = libevdev_event_type_get_max(type)
            guard maxCode >= 0 else { continue }
            var set = Set<UInt16>()
            for code in 0...UInt32(maxCode) where libevdev_has_event_code(dev, type, code) != 0 {
                set.insert(UInt16(code))
            }
            if !set.isEmpty { codes[UInt16(type)] = set }
        }
        for code in codes[EventCodes.EV_ABS] ?? [] {
            if let a = libevdev_get_abs_info(dev, UInt32(code)) {
                absInfo[code] = DeviceDescription.AbsInfo(value: a.pointee.value, minimum: a.pointee.minimum, maximum: a.pointee.maximum,
                                                          fuzz: a.pointee.fuzz, flat: a.pointee.flat, resolution: a.pointee.resolution)
            }
        }
        var props = Set<UInt16>()
        for p in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, p) != 0 { props.insert(UInt16(p)) }
        let name = libevdev_get_name(dev).map { String(cString: $0) } ?? ""
        return DeviceDescription(name: name, bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
                                 vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
                                 product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
                                 version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)),
                                 properties: props, codes: codes, absInfo: absInfo)
    }
}
