import SwitchCore
import Testing

/// Touch passthrough through the real `Engine`: one transcript line per touch, the frames for
/// the virtual touchscreen on the second channel (`takeTouchOutput`), and what a pause, an
/// unplug and switches beside it do.
@Suite("engine: touch passthrough")
struct TouchPassthroughEngineTests {
    static let keyboard = DeviceDescription(name: "keyboard", codes: [EventCodes.EV_KEY: Set(1...100)])

    /// A touchscreen (device 0, units = points of the 390 × 844 tree) and a keyboard read for the
    /// pause chord (device 1).
    struct Rig {
        var engine: Engine
        var lines: [String] = []
        var written: [String] = []

        init(_ json: String, switches: Bool = false) throws {
            let profile = try ProfileDecoder.decode(Array(json.utf8), file: "p.json")
            let devices: [DeviceDescription] = switches ? [EngineScript.touchscreen, EngineScript.switchBox]
                                                        : [EngineScript.touchscreen, TouchPassthroughEngineTests.keyboard]
            engine = Engine(tree: try threeButtonTree(), profile: profile, devices: devices, chordOnly: switches ? [] : [1])
            take(engine.start(at: .zero))
        }

        mutating func take(_ new: [TranscriptLine]) {
            lines += new.map(TranscriptFormat.jsonl)
            for o in engine.takeTouchOutput() {
                switch o {
                case .frame(let device, let changes):
                    written.append("\(device): " + changes.map(TouchPassthrough.renderTouch).joined(separator: " "))
                case .countdown(let device, let contact, let p, let from, let until):
                    written.append("\(device): countdown #\(contact) at \(p) \(from.transcriptString)…\(until.transcriptString)")
                case .countdownEnded(let device, let contact):
                    written.append("\(device): countdown #\(contact) ended")
                }
            }
        }

        mutating func touch(_ events: [InputEvent], at t: Double) {
            take(engine.handle(frame: InputFrame(time: .seconds(t), events: events), device: 0))
        }

        mutating func key(_ code: UInt16, _ value: Int32, device: Int = 1, at t: Double) {
            take(engine.handle(frame: InputFrame(time: .seconds(t), events: [InputEvent(type: EventCodes.EV_KEY, code: code, value: value)]), device: device))
        }

        mutating func advance(to t: Double) { take(engine.advance(to: .seconds(t))) }
    }

    @Test func aTouchOnlyProfilePassesATouchLiveAndWritesOneLineForIt() throws {
        var r = try Rig(#"{"switches": [], "touchAccommodations": {"holdDuration": 0.1}}"#)
        r.touch([slot(0), tid(7), mx(50), my(20)], at: 1.0)
        r.touch([mx(60)], at: 1.05)
        r.touch([mx(90)], at: 1.2)
        r.touch([my(30)], at: 1.3)
        r.touch([tid(-1)], at: 1.4)
        #expect(r.lines == [#"{"t":1.400,"type":"touch","decision":"gesture","from":[60,20],"to":[90,30],"seconds":0.300,"output":"virtualTouchscreen","contact":7}"#])
        #expect(r.written == ["0: ▼0 60,20", "0: →0 90,20", "0: →0 90,30", "0: ▲0"])
    }

    @Test func aTapOfTapAssistanceIsWrittenAtTheLiftAndLiftedByTheEngineClock50msLater() throws {
        var r = try Rig(#"{"switches": [], "touchAccommodations": {"tapAssistance": "final", "tapAssistanceGestureDelay": 0.3}}"#)
        r.touch([slot(0), tid(1), mx(50), my(20)], at: 1.0)
        r.touch([mx(70), my(25)], at: 1.1)
        r.touch([tid(-1)], at: 1.2)
        #expect(r.engine.nextDeadline() == .seconds(1.25))
        r.advance(to: 2)
        #expect(r.lines == [#"{"t":1.200,"type":"touch","decision":"tap","point":[70,25],"output":"virtualTouchscreen","contact":1}"#])
        #expect(r.written == ["0: ▼0 70,25", "0: ▲0"])
    }

    @Test func thePauseChordLiftsTheVirtualFingersAndTouchesPassAgainAfterTheResume() throws {
        var r = try Rig(#"{"switches": []}"#)
        r.touch([slot(0), tid(1), mx(10), my(10)], at: 1.0)
        for code: UInt16 in [29, 56, 42, 31] { r.key(code, 1, at: 1.5) }   // Ctrl+Alt+Shift+S
        r.touch([mx(30)], at: 1.6)                                          // paused: nothing
        r.touch([tid(-1)], at: 1.7)
        r.key(31, 0, at: 2)
        r.key(31, 1, at: 2.1)                                               // resumed
        r.touch([tid(2), mx(40), my(40)], at: 3)
        r.touch([tid(-1)], at: 3.1)
        #expect(r.lines.filter { $0.contains("\"touch\"") } == [
            #"{"t":3.100,"type":"touch","decision":"gesture","from":[40,40],"to":[40,40],"seconds":0.100,"output":"virtualTouchscreen","contact":2}"#,
        ], "the touch cut by the pause is decided nothing")
        #expect(r.lines.contains { $0.contains("\"state\":\"paused\"") } && r.lines.contains { $0.contains("\"state\":\"resumed\"") })
        #expect(r.written == ["0: ▼0 10,10", "0: ▲0", "0: ▼1 40,40", "0: ▲1"])
    }

    @Test func anUnplugMidGestureLiftsTheVirtualFingersAndDecidesNothing() throws {
        var r = try Rig(#"{"switches": []}"#)
        r.touch([slot(0), tid(1), mx(10), my(10), slot(1), tid(2), mx(20), my(20)], at: 1.0)
        r.take(r.engine.deviceRemoved(0, at: .seconds(1.1)))
        r.take(r.engine.deviceAdded(0, EngineScript.touchscreen, at: .seconds(2)))
        r.touch([slot(0), tid(3), mx(30), my(30)], at: 2.5)
        r.touch([tid(-1)], at: 2.6)
        #expect(r.written == ["0: ▼0 10,10", "0: ▼1 20,20", "0: ▲0 ▲1", "0: ▼2 30,30", "0: ▲2"])
        #expect(r.lines.count == 1 && r.lines[0].contains("\"contact\":3"))
    }

    @Test func switchesScanWhileTouchesPassOn() throws {
        var r = try Rig(#"{"scanning": {"style": "manual"}, "switches": [{"key": "KEY_SPACE", "action": "next"}, {"key": "KEY_ENTER", "action": "select"}], "touchAccommodations": {"output": "virtualTouchscreen"}}"#, switches: true)
        r.key(EventCodes.KEY_SPACE, 1, device: 1, at: 1)
        r.key(EventCodes.KEY_SPACE, 0, device: 1, at: 1.1)
        r.touch([slot(0), tid(1), mx(150), my(20)], at: 2)
        r.touch([tid(-1)], at: 2.05)
        #expect(r.lines.contains { $0.contains("\"type\":\"highlight\",\"id\":\"b\"") }, "the switch moved the scan")
        #expect(!r.lines.contains { $0.contains("\"perform\"") }, "the touch on B is passed on, not an activation")
        #expect(r.written == ["0: ▼0 150,20", "0: ▲0"])
    }

    @Test func aLongHoldDurationShowsItsCountdownOnTheSecondChannel() throws {
        var r = try Rig(#"{"switches": [], "touchAccommodations": {"holdDuration": 0.5}}"#)
        r.touch([slot(0), tid(4), mx(100), my(200)], at: 1)
        r.advance(to: 1.6)
        r.touch([tid(-1)], at: 1.7)
        #expect(r.written == ["0: countdown #4 at (100, 200) 1.000…1.500", "0: countdown #4 ended", "0: ▼0 100,200", "0: ▲0"])
    }

    @Test func theScreenAsASwitchPassesNothingOn() throws {
        var r = try Rig(#"{"switches": [], "touchAccommodations": {"touchAsSwitch": "select"}}"#)
        r.touch([slot(0), tid(1), mx(10), my(10)], at: 1.0)
        r.touch([tid(-1)], at: 1.1)
        #expect(r.written.isEmpty)
        #expect(r.lines.contains { $0.contains("\"switch\":\"touchscreen\"") })
    }
}
