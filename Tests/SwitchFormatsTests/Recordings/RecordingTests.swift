import SwitchCore
import SwitchFormats
import Testing

@Suite("Recording")
struct RecordingTests {
    func e(_ us: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> TimedEvent {
        TimedEvent(time: Instant(microseconds: us), event: InputEvent(type: type, code: code, value: value))
    }
    func press(_ us: Int64, _ code: UInt16, _ value: Int32 = 1) -> [TimedEvent] { [e(us, 1, code, value), e(us, 0, 0, 0)] }

    // MARK: rebasedForSimulation

    @Test func absoluteTimesShiftSoTheFirstEventIsAtZero() {
        let base: Int64 = 1_330_523_780_970_485
        let recording = Recording(devices: [
            Recording.Device(description: nil, events: press(base + 500, 57) + press(base + 2_000_000, 57, 0)),
            Recording.Device(description: nil, events: press(base, 28)),
        ])
        let rebased = recording.rebasedForSimulation()
        // All devices shift together, by the earliest event of any device.
        #expect(rebased.devices[0].events.map(\.time.microseconds) == [500, 500, 2_000_000, 2_000_000])
        #expect(rebased.devices[1].events.map(\.time.microseconds) == [0, 0])
        #expect(rebased.devices.map { $0.events.map(\.event) } == recording.devices.map { $0.events.map(\.event) })
        #expect(rebased.firstEventTime == .zero)
    }

    @Test func relativeTimesStay() {
        let recording = Recording(devices: [Recording.Device(description: nil, events: press(1, 57) + press(90_000_000_000, 57, 0))])
        #expect(recording.rebasedForSimulation() == recording)
    }

    /// 100 000 s is the line: above it a timestamp is taken as absolute (a clock since 1970 or a
    /// boot), at or below it as time since recording started.
    @Test func theThresholdIs100000Seconds() {
        let at = Recording(devices: [Recording.Device(description: nil, events: press(100_000_000_000, 57))])
        #expect(at.rebasedForSimulation() == at)
        let above = Recording(devices: [Recording.Device(description: nil, events: press(100_000_000_001, 57))])
        #expect(above.rebasedForSimulation().firstEventTime == .zero)
    }

    @Test func noEventsNothingToShift() {
        let empty = Recording(devices: [Recording.Device(description: DeviceDescription(name: "x"), events: [])])
        #expect(empty.firstEventTime == nil)
        #expect(empty.rebasedForSimulation() == empty)
        #expect(empty.mergedFrames().isEmpty)
        #expect(empty.eventCount == 0)
    }

    // MARK: mergedFrames

    @Test func framesMergeInTimeOrderTiesByDevice() {
        let recording = Recording(devices: [
            Recording.Device(description: nil, events: press(300, 1) + press(500, 3)),
            Recording.Device(description: nil, events: press(100, 10) + press(300, 11) + press(300, 12)),
            Recording.Device(description: nil, events: press(0, 20) + press(300, 21)),
        ])
        let merged = recording.mergedFrames()
        #expect(merged.map(\.device) == [2, 1, 0, 1, 1, 2, 0])
        #expect(merged.map(\.frame.time.microseconds) == [0, 100, 300, 300, 300, 300, 500])
        // Within one device, frames at the same time keep their order.
        #expect(merged.map { $0.frame.events.first?.code } == [20, 10, 1, 11, 12, 21, 3])
    }

    @Test func emptyReportsAreNotFramesAndAPartialFrameIsKept() {
        let events = [e(0, 0, 0, 0), e(10, 1, 57, 1), e(10, 0, 0, 0), e(20, 0, 0, 0), e(30, 1, 57, 0)]
        let merged = Recording(devices: [Recording.Device(description: nil, events: events)]).mergedFrames()
        #expect(merged.map(\.frame) == [
            InputFrame(time: Instant(microseconds: 10), events: [InputEvent(type: 1, code: 57, value: 1)]),
            InputFrame(time: Instant(microseconds: 30), events: [InputEvent(type: 1, code: 57, value: 0)]),
        ])
    }

    @Test func eventCountAddsUpDevices() {
        let recording = Recording(devices: [
            Recording.Device(description: nil, events: press(0, 1)),
            Recording.Device(description: nil, events: press(0, 2) + press(5, 2, 0)),
        ])
        #expect(recording.eventCount == 6)
    }
}
