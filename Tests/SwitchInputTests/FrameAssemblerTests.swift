import SwitchCore
import SwitchInput
import Testing

/// The cases of `FrameAssembler`'s header timeline, one test each.
@Suite struct FrameAssemblerTests {
    let space1 = InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: 1)
    let space0 = InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: 0)
    let syn = InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)
    let absX = InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_X, value: 10)
    let absY = InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_Y, value: 20)
    func t(_ ms: Int64) -> Instant { Instant(microseconds: ms * 1000) }

    func run(_ events: [FrameAssembler.Event]) -> [FrameAssembler.Output] {
        var a = FrameAssembler()
        return events.flatMap { a.handle($0, at: .zero) }
    }

    @Test func normalReads() {
        #expect(run([.event(space1, at: t(5)), .event(syn, at: t(5)), .drained])
                == [.frame(InputFrame(time: t(5), events: [space1]))])
    }

    @Test func splitOverReads() {
        #expect(run([.event(absX, at: t(1)), .drained, .event(absY, at: t(2)), .event(syn, at: t(3))])
                == [.frame(InputFrame(time: t(3), events: [absX, absY]))])
    }

    @Test func emptyReport() {
        #expect(run([.event(syn, at: t(1)), .drained]) == [])
    }

    @Test func autorepeatFramesAreFrames() {
        let repeat2 = InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: 2)
        let synRepeat = InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 1)
        #expect(run([.event(repeat2, at: t(250)), .event(synRepeat, at: t(250))])
                == [.frame(InputFrame(time: t(250), events: [repeat2]))])
    }

    @Test func overflow() {
        #expect(run([.event(absX, at: t(1)), .dropped(at: t(2)), .syncEvent(space0, at: t(2)), .syncEvent(syn, at: t(2)), .syncDone,
                     .event(space1, at: t(9)), .event(syn, at: t(9)), .drained])
                == [.frame(InputFrame(time: t(2), events: [absX])),
                    .resync(InputFrame(time: t(2), events: [space0])),
                    .frame(InputFrame(time: t(9), events: [space1]))])
    }

    @Test func overflowWithNothingPartial() {
        #expect(run([.dropped(at: t(2)), .syncEvent(space0, at: t(3)), .syncDone])
                == [.resync(InputFrame(time: t(3), events: [space0]))])
    }

    @Test func dropInADrop() {
        #expect(run([.dropped(at: t(1)), .syncEvent(absX, at: t(1)), .dropped(at: t(4)), .syncEvent(absY, at: t(4)), .syncDone])
                == [.resync(InputFrame(time: t(1), events: [absX])), .resync(InputFrame(time: t(4), events: [absY]))])
    }

    @Test func normalInASync() {
        #expect(run([.dropped(at: t(1)), .syncEvent(absX, at: t(1)), .event(space1, at: t(5)), .event(syn, at: t(5))])
                == [.resync(InputFrame(time: t(1), events: [absX])), .frame(InputFrame(time: t(5), events: [space1]))])
    }

    @Test func emptyDelta() {
        #expect(run([.dropped(at: t(1)), .syncEvent(syn, at: t(1)), .syncDone]) == [])
    }

    @Test func drainedWhileSyncingEndsTheDelta() {
        #expect(run([.dropped(at: t(1)), .syncEvent(absX, at: t(1)), .drained])
                == [.resync(InputFrame(time: t(1), events: [absX]))])
    }

    @Test func syncEventWithoutDropStartsADelta() {
        #expect(run([.event(absY, at: t(1)), .syncEvent(absX, at: t(2)), .syncDone])
                == [.frame(InputFrame(time: t(2), events: [absY])), .resync(InputFrame(time: t(2), events: [absX]))])
    }

    @Test func unplugged() {
        #expect(run([.event(absX, at: t(1)), .gone]) == [.removed])
    }

    @Test func unpluggedWhileSyncing() {
        #expect(run([.dropped(at: t(1)), .syncEvent(absX, at: t(1)), .gone]) == [.removed])
    }

    @Test func afterRemoval() {
        var a = FrameAssembler()
        _ = a.handle(.gone, at: .zero)
        let later: [FrameAssembler.Event] = [.event(space1, at: t(1)), .event(syn, at: t(1)), .dropped(at: t(2)),
                                              .syncEvent(absX, at: t(2)), .syncDone, .drained, .gone]
        #expect(later.flatMap { a.handle($0, at: .zero) } == [])
        #expect(a.state == .removed)
        a.reset()
        #expect(a.handle(.event(space1, at: t(3)), at: .zero) == [])
        #expect(a.handle(.event(syn, at: t(3)), at: .zero) == [.frame(InputFrame(time: t(3), events: [space1]))])
    }
}

@Suite struct EventStamperTests {
    let s = EventStamper(engineStart: 1_000_000)

    @Test func monotonicStampsAreKernelTimeMinusStart() {
        #expect(s.instant(kernelMicroseconds: 1_250_000, readMicroseconds: 1_300_000, monotonicTimestamps: true) == Instant(microseconds: 250_000))
    }

    @Test func otherwiseTheReadTime() {
        // Without the wall clock at the read, a CLOCK_REALTIME stamp (or umockdev's file time)
        // says nothing about the engine's clock.
        #expect(s.instant(kernelMicroseconds: 1_700_000_000_000_000, readMicroseconds: 1_300_000, monotonicTimestamps: false) == Instant(microseconds: 300_000))
    }

    /// Wall-clock stamps keep their spacing when read late: three taps 100 ms apart, read in one
    /// batch 50 ms after the last, are at 0.050, 0.150 and 0.250 s, not all at the read's 0.300 s.
    @Test func wallClockStampsAreCarriedOverByTheirAgeAtTheRead() {
        let wall: Int64 = 1_700_000_000_000_000
        let read: Int64 = 1_300_000
        let times = [wall - 250_000, wall - 150_000, wall - 50_000].map {
            s.instant(kernelMicroseconds: $0, readMicroseconds: read, monotonicTimestamps: false, realtimeReadMicroseconds: wall)
        }
        #expect(times == [Instant(microseconds: 50_000), Instant(microseconds: 150_000), Instant(microseconds: 250_000)])
    }

    /// A stamp from the future, or older than `realtimeTrust` (the wall clock jumped, a replayed
    /// file's own times): the read time.
    @Test func wallClockStampsThatCannotBeAnAgeAreTheReadTime() {
        let wall: Int64 = 1_700_000_000_000_000
        for stamp in [wall + 1, wall - EventStamper.realtimeTrust - 1, 100_000] {
            #expect(s.instant(kernelMicroseconds: stamp, readMicroseconds: 1_300_000, monotonicTimestamps: false, realtimeReadMicroseconds: wall)
                    == Instant(microseconds: 300_000))
        }
        // Monotonic stamps never look at the wall clock.
        #expect(s.instant(kernelMicroseconds: 1_250_000, readMicroseconds: 1_300_000, monotonicTimestamps: true, realtimeReadMicroseconds: 5)
                == Instant(microseconds: 250_000))
    }

    @Test func eventsQueuedBeforeStartAreAtZero() {
        #expect(s.instant(kernelMicroseconds: 900_000, readMicroseconds: 1_300_000, monotonicTimestamps: true) == .zero)
    }

    @Test func monotonicRoundTrip() {
        #expect(s.monotonic(Instant(microseconds: 42)) == 1_000_042)
    }
}
