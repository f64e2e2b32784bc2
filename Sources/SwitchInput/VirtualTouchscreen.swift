internal import CEvdev
import Glibc
import SwitchCore

/// Touch passthrough's output: a uinput touchscreen that mirrors the grabbed real one
/// (`VirtualTouchscreenLayout`: protocol B, the source's axes and ids, `switchscan ` + its name),
/// which the compositor and libinput take for a real touchscreen. The live loop creates it when
/// it takes the touchscreen (the grab) and closes it when it gives it back (exit, the safety
/// exit's pause, unplug); the kernel removes it with its descriptor if switchscan is killed.
///
/// A frame is written with one write(2) of all its events (uinput takes several per write), so
/// a frame passed live costs one syscall.
///
/// Removing it right after a lift would lose that lift for every reader that has not read it yet
/// (the kernel's evdev refuses reads of a removed device, buffered events and all), so `close`
/// leaves readers `readGrace` after the last frame before it removes the device.
public final class VirtualTouchscreen {
    /// How long readers get to read the last frames before the device is removed.
    public static let readGrace = Interval.milliseconds(20)

    public let layout: VirtualTouchscreenLayout
    private var encoder: VirtualTouchEncoder
    /// The uinput device; nil once closed.
    private var device: UInputDevice?
    private let fd: Int32
    private var events: [InputEvent] = []
    /// The kernel's form of a frame, filled in place (no array to grow per frame).
    private var buffer = UnsafeMutablePointer<input_event>.allocate(capacity: 64)
    private var bufferCapacity = 64
    /// CLOCK_MONOTONIC µs of the last frame written.
    private var lastWrite: Int64 = 0

    /// Creates the device. Throws `DeviceError` (operation `.uinput`) when /dev/uinput is
    /// missing or not writable.
    public init(mirroring source: DeviceDescription) throws(DeviceError) {
        layout = VirtualTouchscreenLayout(mirroring: source)
        encoder = layout.encoder()
        let d = layout.description
        let device = try UInputDevice(name: d.name, bus: d.bus, vendor: d.vendor, product: d.product, version: d.version) { dev in
            for p in d.properties { libevdev_enable_property(dev, UInt32(p)) }
            for (type, codes) in d.codes {
                libevdev_enable_event_type(dev, UInt32(type))
                for code in codes.sorted() {
                    if type == EventCodes.EV_ABS, let a = d.absInfo[code] {
                        var info = input_absinfo(value: a.value, minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat, resolution: a.resolution)
                        libevdev_enable_event_code(dev, UInt32(type), UInt32(code), &info)
                    } else {
                        libevdev_enable_event_code(dev, UInt32(type), UInt32(code), nil)
                    }
                }
            }
        }
        self.device = device
        fd = device.fileDescriptor
    }

    deinit {
        close()
        buffer.deallocate()
    }

    public var name: String { layout.description.name }

    /// Why a virtual touchscreen could not be created here (`/dev/uinput` missing or not
    /// writable); nil when it can.
    public static func accessProblem(path: String = "/dev/uinput") -> DeviceError? {
        access(path, W_OK) == 0 ? nil : DeviceError(node: path, operation: .uinput, errno: errno)
    }

    /// The node the kernel gave it (`/dev/input/eventN`).
    public var node: String? { device?.node }

    public var isOpen: Bool { device != nil }

    /// One frame of touch passthrough; nil, or why it could not be written.
    @discardableResult
    public func write(_ frame: [VirtualTouch]) -> String? {
        guard device != nil else { return nil }
        events.removeAll(keepingCapacity: true)
        encoder.encode(frame, into: &events)
        return writeEvents(events)
    }

    /// What `forwardLive` did with a frame.
    public enum LiveForward: Equatable {
        /// Not a frame that only moves live contacts: nothing written (the engine decides).
        case notLive
        /// Its moves are written (or it changed nothing).
        case forwarded
        /// Its moves could not be written: why.
        case failed(String)
    }

    /// Touch passthrough's fast path (`LiveTouchRoute`): a frame of the real touchscreen (its
    /// events, `SYN_REPORT` included) written at once when it only moves contacts passing live.
    public func forwardLive(_ frame: [InputEvent], route: inout LiveTouchRoute) -> LiveForward {
        guard device != nil else { return .notLive }
        events.removeAll(keepingCapacity: true)
        guard encoder.forwardLive(frame, route: &route, into: &events) else { return .notLive }
        LoopStamps.mark(.encoded)
        return writeEvents(events).map { .failed($0) } ?? .forwarded
    }

    /// Lifts every finger still down on it, then removes the device (the kernel unplugs it:
    /// libinput and the compositor see it go).
    public func close() {
        guard device != nil else { return }
        _ = writeEvents(encoder.liftAll())
        let wait = lastWrite + VirtualTouchscreen.readGrace.microseconds - MonotonicClock.nowMicroseconds()
        if lastWrite > 0, wait > 0 { usleep(useconds_t(wait)) }
        device = nil  // its deinit destroys the uinput device
    }

    private func writeEvents(_ events: [InputEvent]) -> String? {
        guard !events.isEmpty else { return nil }
        if events.count > bufferCapacity {
            buffer.deallocate()
            bufferCapacity = events.count
            buffer = .allocate(capacity: bufferCapacity)
        }
        for k in events.indices {
            var ev = input_event()
            ev.type = events[k].type
            ev.code = events[k].code
            ev.value = events[k].value
            buffer[k] = ev
        }
        let size = MemoryLayout<input_event>.stride * events.count
        while true {
            LoopStamps.mark(.beforeWrite)
            let n = Glibc.write(fd, buffer, size)
            LoopStamps.mark(.afterWrite)
            if n == size {
                lastWrite = MonotonicClock.nowMicroseconds()
                return nil
            }
            if n < 0 && errno == EINTR { continue }
            return "cannot write to the virtual touchscreen: " + (n < 0 ? String(cString: strerror(errno)) : "short write")
        }
    }
}
