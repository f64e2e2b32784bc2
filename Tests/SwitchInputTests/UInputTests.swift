import Foundation
import SwitchCore
import SwitchInput
import Testing

/// The `--inject` device and the read path on a real kernel: they need a writable /dev/uinput,
/// so they run in the VM (`scripts/device-tests/vm-test.sh` runs this suite there) and are
/// skipped elsewhere.
@Suite(.serialized, .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/uinput"), "needs a writable /dev/uinput (runs in scripts/device-tests/vm-test.sh)"))
struct UInputTests {
    /// Waits for the output device's node and opens it.
    func openOutput(_ output: UInputOutput) throws -> EvdevDevice {
        let node = try #require(output.node)
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: node) { usleep(10_000) }
        return try EvdevDevice(node: node, readingOwnDevice: true)
    }

    func frames(_ device: EvdevDevice) -> (outputs: [FrameAssembler.Output], dropped: Bool) {
        var assembler = FrameAssembler()
        var outputs: [FrameAssembler.Output] = []
        var dropped = false
        device.drain { read in
            let event: FrameAssembler.Event
            switch read {
            case .event(let e, let k): event = .event(e, at: Instant(microseconds: k))
            case .dropped(let k): event = .dropped(at: Instant(microseconds: k)); dropped = true
            case .syncEvent(let e, let k): event = .syncEvent(e, at: Instant(microseconds: k))
            case .syncDone: event = .syncDone
            case .drained: event = .drained
            case .gone: event = .gone
            }
            outputs += assembler.handle(event, at: .zero)
        }
        return (outputs, dropped)
    }

    @Test func theOutputDeviceIsAScreenSizedTouchscreen() throws {
        let output = try UInputOutput(screen: Size(width: 390, height: 844))
        let reader = try openOutput(output)
        let d = reader.description
        #expect(d.name == "switchscan output")
        #expect(d.kind == .touchscreen)
        #expect(d.absInfo[EventCodes.ABS_X]?.maximum == 389)
        #expect(d.absInfo[EventCodes.ABS_Y]?.maximum == 843)
        #expect(d.has(type: EventCodes.EV_KEY, code: EventCodes.KEY_ESC))
        #expect(d.has(type: EventCodes.EV_KEY, code: EventCodes.BTN_LEFT))
        #expect(d.has(property: EventCodes.INPUT_PROP_DIRECT))
    }

    /// A tap is a touch down at the point and a touch up, a key a press and a release, each its
    /// own frame; a step that needs an application is only reported.
    @Test func tapsAndKeysAreReadBack() throws {
        let output = try UInputOutput(screen: Size(width: 390, height: 844))
        let reader = try openOutput(output)
        #expect(reader.useMonotonicClock() == nil)
        let messages = output.perform([.tap(x: 100, y: 200), .key(EventCodes.KEY_ESC), .needsBridge("custom action")])
        #expect(messages == ["custom action"])
        let events = frames(reader).outputs.map { out -> [String] in
            if case .frame(let f) = out { return f.events.map(\.description) }
            return ["unexpected \(out)"]
        }
        #expect(events == [["ABS_X 100", "ABS_Y 200", "BTN_TOUCH 1"], ["BTN_TOUCH 0"], ["KEY_ESC 1"], ["KEY_ESC 0"]])
    }

    /// A reader that falls behind gets SYN_DROPPED; the resync delta brings it to the device's
    /// current state (the last tap's position, the touch up).
    @Test func aFloodIsResynced() throws {
        let output = try UInputOutput(screen: Size(width: 1000, height: 1000))
        let reader = try openOutput(output)
        _ = output.perform((0..<300).map { .tap(x: Int32($0), y: 5) })
        let (outputs, dropped) = frames(reader)
        #expect(dropped)
        #expect(outputs.contains { if case .resync = $0 { return true }; return false })
        var x: Int32?, touch: Int32?
        for out in outputs {
            let frame: InputFrame
            switch out {
            case .frame(let f), .resync(let f): frame = f
            case .removed: continue
            }
            for e in frame.events where e.type == EventCodes.EV_ABS && e.code == EventCodes.ABS_X { x = e.value }
            for e in frame.events where e.type == EventCodes.EV_KEY && e.code == EventCodes.BTN_TOUCH { touch = e.value }
        }
        #expect(x == 299)
        #expect(touch != 1)
    }

    /// A real panel's description (protocol B, pressure, a resolution, I2C ids).
    static let panel = DeviceDescription(
        name: "ELAN Touchscreen", bus: 0x18, vendor: 0x04f3, product: 0x2a1c, version: 0x0100,
        properties: [EventCodes.INPUT_PROP_DIRECT],
        codes: [EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X,
                                    EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID, 0x3a],
                EventCodes.EV_KEY: [EventCodes.BTN_TOUCH]],
        absInfo: [EventCodes.ABS_X: .init(minimum: 0, maximum: 3839, resolution: 12), EventCodes.ABS_Y: .init(minimum: 0, maximum: 2159, resolution: 12),
                  EventCodes.ABS_MT_SLOT: .init(minimum: 0, maximum: 9),
                  EventCodes.ABS_MT_POSITION_X: .init(minimum: 0, maximum: 3839, resolution: 12),
                  EventCodes.ABS_MT_POSITION_Y: .init(minimum: 0, maximum: 2159, resolution: 12),
                  EventCodes.ABS_MT_TRACKING_ID: .init(minimum: 0, maximum: 65535), 0x3a: .init(minimum: 0, maximum: 255)])

    func openVirtual(_ vt: VirtualTouchscreen) throws -> EvdevDevice {
        let node = try #require(vt.node)
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: node) { usleep(10_000) }
        return try EvdevDevice(node: node, readingOwnDevice: true)
    }

    /// What libevdev reads from the virtual touchscreen is the layout: the kernel kept every
    /// axis, range, resolution, id and the property.
    @Test func theVirtualTouchscreenIsTheLayoutOnTheKernel() throws {
        let vt = try VirtualTouchscreen(mirroring: Self.panel)
        let d = try openVirtual(vt).description
        #expect(d == vt.layout.description)
        #expect(d.name == "switchscan ELAN Touchscreen" && d.kind == .touchscreen)
    }

    /// Frames come out as protocol B; closing lifts the finger still down, then unplugs. The
    /// node is refused to everyone but the tests (switchscan never reads its own devices).
    @Test func framesReadBackAndCloseLiftsBeforeTheDeviceGoes() throws {
        let vt = try VirtualTouchscreen(mirroring: Self.panel)
        let reader = try openVirtual(vt)
        let node = try #require(vt.node)
        #expect(throws: DeviceError.self) { try EvdevDevice(node: node) }
        #expect(vt.write([.down(0, RawTouch(x: 100, y: 200, axes: [0x3a: 40]))]) == nil)
        #expect(vt.write([.move(0, RawTouch(x: 150, y: 200))]) == nil)
        var outputs = frames(reader).outputs
        // Closed on another thread while this one reads as a compositor would: the lift comes
        // before the removal (`readGrace`).
        let closing = Unchecked(vt)
        let closed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            closing.value.close()
            closed.signal()
        }
        var fds = [pollfd(fd: reader.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        while outputs.last != .removed, poll(&fds, 1, 2000) == 1 { outputs += frames(reader).outputs }
        closed.wait()
        #expect(!vt.isOpen)
        let events = outputs.map { out -> [String] in
            if case .frame(let f) = out { return f.events.map(\.description) }
            return ["\(out)"]
        }
        #expect(events == [
            ["ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 100", "ABS_MT_POSITION_Y 200", "ABS_MT_PRESSURE 40", "BTN_TOUCH 1", "ABS_X 100", "ABS_Y 200"],
            ["ABS_MT_POSITION_X 150", "ABS_X 150"],
            ["ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0"],
            ["removed"],
        ])
    }

    /// A reference that crosses to the closing thread (the test keeps the object alive).
    final class Unchecked<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }

    @Test func removalIsSeenOnTheFd() throws {
        var output: UInputOutput? = try UInputOutput(screen: Size(width: 10, height: 10))
        let reader = try openOutput(try #require(output))
        output = nil  // libevdev_uinput_destroy: the kernel unplugs the device
        var fds = [pollfd(fd: reader.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&fds, 1, 2000) == 1)
        #expect(frames(reader).outputs.last == .removed)
    }
}
