import SwitchCore
import SwitchFormats
import Testing

/// The real touchscreen recordings (Fixtures/recordings/evemu-devices, copies of
/// `shared/realdata/evdev/`) replayed through the real engine onto `Replay.gridTree` (1000 × 1000
/// pt, 20 × 20 buttons of 50 pt, "r<row>c<column>").
///
/// How the expected numbers were counted (once, by hand, independently of SwitchCore): from the
/// `E:` lines of each file, a touch is an `ABS_MT_TRACKING_ID ≥ 0` in a slot (protocol B; it ends
/// at the −1 in that slot) or a `BTN_TOUCH 1` (single touch; it ends at `BTN_TOUCH 0`). Its times
/// are its frames' `SYN_REPORT` times (minus the file's first timestamp when the file uses
/// absolute times: ELAN, QUANTA, eGalax). Its positions are the slot's latest
/// `ABS_MT_POSITION_X/Y` at the end of each frame (values carry over: only changes are sent),
/// mapped with `(v − min) / (max − min) × 1000` from the .desc's `A:` lines. Tap or swipe: the
/// farthest the touch got from its first point, in grid points, below or above 10. The long
/// files were tallied with a throwaway script that does exactly that (not part of the project) and
/// the short ones checked line by line. Device units are written in the tables so every number can
/// be checked against the file.
@Suite("Replay: real touchscreens")
struct TouchReplayTests {
    typealias Tap = ReplayResult.Tap
    typealias Swipe = ReplayResult.Swipe
    typealias Hold = ReplayResult.Hold
    typealias Rejection = ReplayResult.TouchRejection

    static let atmelDesc = "Atmel_maXTouch_Touchscreen.desc"

    static func atmel(_ file: String, _ configure: (inout TouchAccommodations) -> Void = { _ in }) throws -> ReplayResult {
        let recording = try Replay.recording("Atmel_maXTouch_Touchscreen.\(file).events", description: atmelDesc)
        return ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree, profile: Replay.touchProfile(configure)))
    }

    // MARK: Atmel maXTouch, 1-finger fast taps

    /// Nine touches, ids 3…11, each one frame down and one frame up, no movement at all (one
    /// position per touch). id, down (µs), up (µs), X, Y (device units; an unchanged axis
    /// carries over), the cell it maps to.
    ///   3        1    95_573  340 242  (425.5, 505.2) r10c8
    ///   4  233_856   316_645  354 228  (443.1, 476.0) r9c8
    ///   5  469_258   551_496  357 239  (446.8, 499.0) r9c8
    ///   6  690_746   772_994  364 255  (455.6, 532.4) r10c9
    ///   7  911_634   994_298  364 251  (455.6, 524.0) r10c9
    ///   8 1_132_404 1_214_633 345 251  (431.8, 524.0) r10c8
    ///   9 1_367_030 1_449_650 349 250  (436.8, 521.9) r10c8
    ///  10 1_574_957 1_685_151 349 264  (436.8, 551.1) r11c8
    ///  11 1_823_540 1_934_008 373 252  (466.8, 526.1) r10c9
    /// Durations: 82–96 ms for 3…9, 110 ms for 10 and 11.
    static let fastTaps: [(id: Int, down: Int64, up: Int64, at: Point, cell: String)] = [
        (3, 1, 95_573, Replay.atmel(340, 242), "r10c8"),
        (4, 233_856, 316_645, Replay.atmel(354, 228), "r9c8"),
        (5, 469_258, 551_496, Replay.atmel(357, 239), "r9c8"),
        (6, 690_746, 772_994, Replay.atmel(364, 255), "r10c9"),
        (7, 911_634, 994_298, Replay.atmel(364, 251), "r10c9"),
        (8, 1_132_404, 1_214_633, Replay.atmel(345, 251), "r10c8"),
        (9, 1_367_030, 1_449_650, Replay.atmel(349, 250), "r10c8"),
        (10, 1_574_957, 1_685_151, Replay.atmel(349, 264), "r11c8"),
        (11, 1_823_540, 1_934_008, Replay.atmel(373, 252), "r10c9"),
    ]

    static func fastTap(_ id: Int) -> (id: Int, down: Int64, up: Int64, at: Point, cell: String) {
        fastTaps.first { $0.id == id }!
    }

    @Test func fastTapsAreNineTapsOnTheirCells() throws {
        let r = try Self.atmel("1-finger-fast-taps")
        #expect(r.taps == Self.fastTaps.map { Tap(t: .µs($0.up), contact: $0.id, point: $0.at, id: $0.cell) })
        #expect(r.swipes.isEmpty && r.holds.isEmpty && r.touchRejections.isEmpty)
        // Each tap activates its cell, from touch.
        #expect(r.performs.map(\.id) == Self.fastTaps.map(\.cell))
        #expect(r.performs.allSatisfy { $0.source == .touch })
        #expect(r.lines.count == 18)
        // The hand mapping and the cell names agree.
        #expect(Self.fastTaps.allSatisfy { Replay.cell($0.at) == $0.cell })
    }

    /// Hold duration 0.3 s: every touch is shorter (at most 110 ms): nine rejections at the lifts,
    /// at the initial points, and nothing activated.
    @Test func fastTapsUnderHoldDuration300msAreAllRejected() throws {
        let r = try Self.atmel("1-finger-fast-taps") { $0.holdDuration = .seconds(0.3) }
        #expect(r.touchRejections == Self.fastTaps.map { Rejection(t: .µs($0.up), contact: $0.id, reason: .holdDuration, point: $0.at) })
        #expect(r.taps.isEmpty && r.performs.isEmpty)
    }

    /// Hold duration 0.1 s: the 82–96 ms touches (3…9) are rejected, the two 110 ms ones (10, 11)
    /// are accepted at down + 100 ms and tap at their lifts.
    @Test func fastTapsUnderHoldDuration100msKeepTheTwoLongerOnes() throws {
        let r = try Self.atmel("1-finger-fast-taps") { $0.holdDuration = .seconds(0.1) }
        #expect(r.touchRejections == Self.fastTaps.filter { $0.id <= 9 }.map {
            Rejection(t: .µs($0.up), contact: $0.id, reason: .holdDuration, point: $0.at)
        })
        #expect(r.taps == Self.fastTaps.filter { $0.id >= 10 }.map { Tap(t: .µs($0.up), contact: $0.id, point: $0.at, id: $0.cell) })
    }

    /// Ignore repeat 0.3 s, anchored at the start of the last accepted touch. Starts (s): 0,
    /// 0.234, 0.469, 0.691, 0.912, 1.132, 1.367, 1.575, 1.824. From 0: 0.234 is too soon;
    /// 0.469 counts (0.469 ≥ 0.3); then 0.691 (0.221 after) no, 0.912 (0.442) yes, 1.132 (0.221)
    /// no, 1.367 (0.455) yes, 1.575 (0.208) no, 1.824 (0.457) yes: taps 3, 5, 7, 9, 11; 4, 6, 8,
    /// 10 rejected at their starts (hold duration off: accepted, and checked, at the touch).
    @Test func fastTapsUnderIgnoreRepeat300msTapEveryOther() throws {
        let r = try Self.atmel("1-finger-fast-taps") { $0.ignoreRepeat = .seconds(0.3) }
        #expect(r.taps.map(\.contact) == [3, 5, 7, 9, 11])
        #expect(r.taps == [3, 5, 7, 9, 11].map { Self.fastTap($0) }.map { Tap(t: .µs($0.up), contact: $0.id, point: $0.at, id: $0.cell) })
        #expect(r.touchRejections == [4, 6, 8, 10].map { Self.fastTap($0) }.map {
            Rejection(t: .µs($0.down), contact: $0.id, reason: .ignoreRepeat, point: $0.at)
        })
    }

    /// Ignore repeat 0.5 s: from 0, 0.234 and 0.469 are too soon, 0.691 counts; then 0.912
    /// (0.221) and 1.132 (0.442) no, 1.367 (0.676) yes; 1.575 (0.208), 1.824 (0.457) no.
    @Test func fastTapsUnderIgnoreRepeat500msTapThreeTimes() throws {
        let r = try Self.atmel("1-finger-fast-taps") { $0.ignoreRepeat = .seconds(0.5) }
        #expect(r.taps.map(\.contact) == [3, 6, 9])
        #expect(r.touchRejections.map(\.contact) == [4, 5, 7, 8, 10, 11])
        #expect(r.touchRejections.allSatisfy { $0.reason == .ignoreRepeat })
        #expect(r.touchRejections.map(\.t) == [4, 5, 7, 8, 10, 11].map { .µs(Self.fastTap($0).down) })
    }

    /// The bundled Profiles/touch-tap-assistance.json (hold 0.1 s, ignore repeat 0.3 s, tap
    /// assistance initial, delay 0.5 s): 3…9 too short (rejected at their lifts); 10 accepted at
    /// 1.674957 and tapped at its lift at its initial point; 11 accepted at 1.923540 but it started
    /// 0.249 s after 10: rejected(ignoreRepeat) at its acceptance. (The profile passes touches on
    /// to a virtual touchscreen by default; here they activate the grid's cells, output "activate".)
    @Test func fastTapsUnderTheTapAssistanceProfile() throws {
        let recording = try Replay.recording("Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", description: Self.atmelDesc)
        var profile = try Replay.bundledProfile("touch-tap-assistance")
        #expect(profile.passesTouch)
        profile.touchAccommodations.output = .activate
        let r = ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree, profile: profile))
        let ten = Self.fastTap(10), eleven = Self.fastTap(11)
        #expect(r.taps == [Tap(t: .µs(ten.up), contact: 10, point: ten.at, id: "r11c8")])
        #expect(r.touchRejections == Self.fastTaps.filter { $0.id <= 9 }.map {
            Rejection(t: .µs($0.up), contact: $0.id, reason: .holdDuration, point: $0.at)
        } + [Rejection(t: .µs(eleven.down + 100_000), contact: 11, reason: .ignoreRepeat, point: eleven.at)])
    }

    /// The bundled Profiles/touch-as-switch.json: the whole screen is the switch "touchscreen"
    /// (hold 0.1 s, debounce 25 ms). Nine presses; releases come 82–110 ms after their presses,
    /// after the 25 ms window, so debounce passes them at once: 3…9 are rejected(holdDuration) at
    /// their lifts, 10 and 11 are accepted 100 ms after their touches.
    @Test func fastTapsAsOneSwitch() throws {
        let recording = try Replay.recording("Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", description: Self.atmelDesc)
        let r = ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree, profile: try Replay.bundledProfile("touch-as-switch")))
        #expect(r.accepted("touchscreen") == [.µs(1_674_957), .µs(1_923_540)])
        #expect(r.rejected("touchscreen", .holdDuration) == Self.fastTaps.filter { $0.id <= 9 }.map { .µs($0.up) })
        #expect(r.filterLines.count == 9)
        // No touch decisions: the touches are the switch.
        #expect(r.taps.isEmpty && r.touchRejections.isEmpty && r.swipes.isEmpty)
        #expect(r.performs.allSatisfy { $0.source == .switch })
    }

    // MARK: Atmel maXTouch, drags and two fingers

    /// One touch (id 6, down at 1 µs, up at 2_199_870 µs) that goes from (361, 379) up to the top
    /// and back down to (382, 393): it got 605 pt from its start, a swipe; net movement
    /// (26.3, 29.2) pt, y dominant and positive: down.
    @Test func oneFingerDragIsOneSwipe() throws {
        let r = try Self.atmel("1-finger-drag-up-down")
        #expect(r.swipes == [Swipe(t: .µs(2_199_870), contact: 6, from: Replay.atmel(361, 379), to: Replay.atmel(382, 393), direction: .down)])
        #expect(r.taps.isEmpty && r.performs.isEmpty)
    }

    /// Two fingers resting: id 7 (slot 0) down at 1 µs, up at 824_236 µs, from (539, 167) to
    /// (538, 176), 27.6 pt at most; id 8 (slot 1) down at 54_565, up at 810_270, from (222, 306)
    /// to (224, 312), 26.2 pt at most. On a 1000-pt screen both drift more than 10 pt: with tap
    /// assistance off they are swipes (net movement mostly downwards), decided at their lifts
    /// (8 first).
    @Test func twoFingersTouchReleaseDriftIntoSwipes() throws {
        let r = try Self.atmel("2-fingers-touch-release")
        #expect(r.swipes == [
            Swipe(t: .µs(810_270), contact: 8, from: Replay.atmel(222, 306), to: Replay.atmel(224, 312), direction: .down),
            Swipe(t: .µs(824_236), contact: 7, from: Replay.atmel(539, 167), to: Replay.atmel(538, 176), direction: .down),
        ])
        #expect(r.taps.isEmpty)
    }

    /// Tap assistance with a 1 s gesture delay: both lift before it (after 0.82 and 0.76 s), so
    /// each is one tap however it wandered: at its initial point (`initial`) or where it lifted
    /// (`final`). The drift crosses a row boundary, so the two settings tap different cells:
    /// id 8: (277.8, 638.8) r12c5 → (280.4, 651.4) r13c5; id 7: (674.6, 348.6) r6c13 →
    /// (673.3, 367.4) r7c13.
    @Test func twoFingersTapAssistanceInitialVersusFinal() throws {
        let initial = try Self.atmel("2-fingers-touch-release") {
            $0.tapAssistance = .initial
            $0.tapAssistanceGestureDelay = .seconds(1)
        }
        let final = try Self.atmel("2-fingers-touch-release") {
            $0.tapAssistance = .final
            $0.tapAssistanceGestureDelay = .seconds(1)
        }
        #expect(initial.taps == [
            Tap(t: .µs(810_270), contact: 8, point: Replay.atmel(222, 306), id: "r12c5"),
            Tap(t: .µs(824_236), contact: 7, point: Replay.atmel(539, 167), id: "r6c13"),
        ])
        #expect(final.taps == [
            Tap(t: .µs(810_270), contact: 8, point: Replay.atmel(224, 312), id: "r13c5"),
            Tap(t: .µs(824_236), contact: 7, point: Replay.atmel(538, 176), id: "r7c13"),
        ])
        #expect(initial.performs.map(\.id) == ["r12c5", "r6c13"])
        #expect(final.performs.map(\.id) == ["r13c5", "r7c13"])
        #expect(initial.swipes.isEmpty && final.swipes.isEmpty)
    }

    /// Tap assistance with the default 0.5 s delay: both touches outlast it, so each becomes a
    /// gesture from where the finger was when the delay ran out (id 7 at 500_001 µs: (535, 180);
    /// id 8 at 554_565 µs: (228, 314)). After that they move 9.2 and 6.5 pt at most (5.0 and 4.5
    /// device units): holds, at
    /// their lifts, activating nothing.
    @Test func twoFingersOutlastTheGestureDelayAsHolds() throws {
        let r = try Self.atmel("2-fingers-touch-release") { $0.tapAssistance = .initial }
        #expect(r.holds == [
            Hold(t: .µs(810_270), contact: 8, point: Replay.atmel(228, 314)),
            Hold(t: .µs(824_236), contact: 7, point: Replay.atmel(535, 180)),
        ])
        #expect(r.taps.isEmpty && r.swipes.isEmpty && r.performs.isEmpty)
    }

    /// Four fingers dragging down: ids 21 (slot 0, down at 1 µs), 22 and 23 (slots 1 and 2, both
    /// at 27_718), 24 (slot 3, at 111_134); 22 lifts at 539_139, the other three in one frame at
    /// 566_590 (slot order: 21, 23, 24). Each moves 139–180 device units down: four swipes down.
    @Test func fourFingerDragIsFourSwipesDown() throws {
        let r = try Self.atmel("4-finger-drag-down")
        #expect(r.swipes == [
            Swipe(t: .µs(539_139), contact: 22, from: Replay.atmel(133, 245), to: Replay.atmel(142, 418), direction: .down),
            Swipe(t: .µs(566_590), contact: 21, from: Replay.atmel(415, 107), to: Replay.atmel(421, 287), direction: .down),
            Swipe(t: .µs(566_590), contact: 23, from: Replay.atmel(258, 115), to: Replay.atmel(264, 295), direction: .down),
            Swipe(t: .µs(566_590), contact: 24, from: Replay.atmel(639, 207), to: Replay.atmel(647, 346), direction: .down),
        ])
        #expect(r.taps.isEmpty)
    }

    /// With tap assistance (0.5 s) the three early fingers are still down when their delays run
    /// out (21 at 500_001, 22 and 23 at 527_718) and no longer moving: holds where they stopped.
    /// 24 started at 111_134 and lifts 455 ms later, before its delay: a tap at its initial point
    /// (639, 207) → (799.7, 432.2), r8c15.
    @Test func fourFingerDragUnderTapAssistance() throws {
        let r = try Self.atmel("4-finger-drag-down") { $0.tapAssistance = .initial }
        #expect(r.holds == [
            Hold(t: .µs(539_139), contact: 22, point: Replay.atmel(142, 418)),
            Hold(t: .µs(566_590), contact: 21, point: Replay.atmel(421, 287)),
            Hold(t: .µs(566_590), contact: 23, point: Replay.atmel(264, 295)),
        ])
        #expect(r.taps == [Tap(t: .µs(566_590), contact: 24, point: Replay.atmel(639, 207), id: "r8c15")])
        #expect(r.swipes.isEmpty)
    }

    // MARK: EP0430M09

    /// Two fingers scrolling: id 13 (slot 0, down at 1 µs, up at 754_659) from (930, 547) to
    /// (888, 216); id 14 (slot 1, down at 7_514, up at 732_503) from (458, 582) to (407, 306).
    /// Fingers moving up the screen (content scrolls down): two swipes up.
    @Test func ep0430TwoFingerScrollIsTwoSwipesUp() throws {
        let recording = try Replay.recording("EP0430M09.2-finger-scroll-down.events")
        let r = ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree, profile: Replay.touchProfile()))
        #expect(r.swipes == [
            Swipe(t: .µs(732_503), contact: 14, from: Replay.ep0430(458, 582), to: Replay.ep0430(407, 306), direction: .up),
            Swipe(t: .µs(754_659), contact: 13, from: Replay.ep0430(930, 547), to: Replay.ep0430(888, 216), direction: .up),
        ])
        #expect(r.taps.isEmpty)

        // Tap assistance (0.5 s): the gestures start where the fingers were at 500_001 / 507_514
        // µs, (907, 330) and (421, 399), and still go up about 100 units from there.
        let assisted = ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree,
                                                             profile: Replay.touchProfile { $0.tapAssistance = .final }))
        #expect(assisted.swipes == [
            Swipe(t: .µs(732_503), contact: 14, from: Replay.ep0430(421, 399), to: Replay.ep0430(407, 306), direction: .up),
            Swipe(t: .µs(754_659), contact: 13, from: Replay.ep0430(907, 330), to: Replay.ep0430(888, 216), direction: .up),
        ])
    }

    /// Two fingers put down in the same frame (1 µs; id 1 in slot 0, id 2 in slot 1) and lifted
    /// at 513_464 and 527_810; they move 3.5 and 5.2 pt at most (under 10): two taps at their
    /// initial points: (404, 409) → (315.9, 533.2) r10c6 and (933, 414) → (729.5, 539.8) r10c14.
    @Test func ep0430TwoFingersTouchReleaseAreTwoTaps() throws {
        let recording = try Replay.recording("EP0430M09.2-fingers-touch-release.events")
        let r = ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree, profile: Replay.touchProfile()))
        #expect(r.taps == [
            Tap(t: .µs(513_464), contact: 1, point: Replay.ep0430(404, 409), id: "r10c6"),
            Tap(t: .µs(527_810), contact: 2, point: Replay.ep0430(933, 414), id: "r10c14"),
        ])
        #expect(r.performs.map(\.id) == ["r10c6", "r10c14"])

        // Ignore repeat is one anchor for the screen: the second finger of the same frame
        // started 0 s after the first accepted one and is rejected at once.
        let once = ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree,
                                                         profile: Replay.touchProfile { $0.ignoreRepeat = .seconds(0.3) }))
        #expect(once.taps == [Tap(t: .µs(513_464), contact: 1, point: Replay.ep0430(404, 409), id: "r10c6")])
        #expect(once.touchRejections == [Rejection(t: .µs(1), contact: 2, reason: .ignoreRepeat, point: Replay.ep0430(933, 414))])
    }

    // MARK: ELAN, QUANTA, eGalax (absolute timestamps, rebased to the first event)

    /// One 2.85 s touch (id 0) that drags up and back down a little: from (1454, 1117) to
    /// (1434, 625), 330 pt at most from its start, net (−6.6, −265) pt: a swipe up at 2_853_790 µs.
    /// With tap assistance, the gesture starts where the finger was when the delay ran out:
    /// 0.5 s → (1400, 695), then on to (1434, 625): up; 1 s → (1411, 505), the top of the drag,
    /// then (1434, 625) is below it: down.
    @Test func elanDragIsOneSwipeAndTheGestureDelayMovesItsStart() throws {
        let recording = try Replay.recording("ELAN_CANDO_Windows7.1-finger-drag-up-down.events", description: "ELAN_CANDO_Windows7.desc")
        func run(_ configure: (inout TouchAccommodations) -> Void) -> ReplayResult {
            ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree, profile: Replay.touchProfile(configure)))
        }
        let t = Instant.µs(2_853_790)
        #expect(run { _ in }.swipes == [Swipe(t: t, contact: 0, from: Replay.elan(1454, 1117), to: Replay.elan(1434, 625), direction: .up)])
        #expect(run { $0.tapAssistance = .initial }.swipes
            == [Swipe(t: t, contact: 0, from: Replay.elan(1400, 695), to: Replay.elan(1434, 625), direction: .up)])
        let late = run {
            $0.tapAssistance = .initial
            $0.tapAssistanceGestureDelay = .seconds(1)
        }
        #expect(late.swipes == [Swipe(t: t, contact: 0, from: Replay.elan(1411, 505), to: Replay.elan(1434, 625), direction: .down)])
        #expect(late.taps.isEmpty)
    }

    /// "Touch on left": one touch (id 41) of 0.928 s near the left edge that wanders from
    /// (127, 444) to (116, 504): (66.1, 411.1) → (60.4, 466.7), 55.9 pt at most: tap assistance off
    /// calls it a swipe (down). With a 1 s gesture delay it is a tap: at r8c1 (initial) or r9c1
    /// (final). With 0.5 s it outlasts the delay and keeps moving (44.6 pt from (124, 456)): a
    /// swipe from there.
    @Test func quantaWanderingTouch() throws {
        let recording = try Replay.recording("QUANTA_OpticalTouchScreen.touch-on-left.events", description: "QUANTA_OpticalTouchScreen.desc")
        func run(_ configure: (inout TouchAccommodations) -> Void) -> ReplayResult {
            ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree, profile: Replay.touchProfile(configure)))
        }
        let lift = Instant.µs(927_996)
        #expect(run { _ in }.swipes == [Swipe(t: lift, contact: 41, from: Replay.quanta(127, 444), to: Replay.quanta(116, 504), direction: .down)])
        let initial = run {
            $0.tapAssistance = .initial
            $0.tapAssistanceGestureDelay = .seconds(1)
        }
        let final = run {
            $0.tapAssistance = .final
            $0.tapAssistanceGestureDelay = .seconds(1)
        }
        #expect(initial.taps == [Tap(t: lift, contact: 41, point: Replay.quanta(127, 444), id: "r8c1")])
        #expect(final.taps == [Tap(t: lift, contact: 41, point: Replay.quanta(116, 504), id: "r9c1")])
        #expect(run { $0.tapAssistance = .initial }.swipes
            == [Swipe(t: lift, contact: 41, from: Replay.quanta(124, 456), to: Replay.quanta(116, 504), direction: .down)])
        // Hold duration 1 s: the touch is 0.928 s long, rejected at its lift.
        #expect(run { $0.holdDuration = .seconds(1) }.touchRejections
            == [Rejection(t: lift, contact: 41, reason: .holdDuration, point: Replay.quanta(127, 444))])
    }

    /// eGalax single-touch: two `BTN_TOUCH` presses, 17 µs → 686_032 µs and 2_024_066 →
    /// 5_060_140 µs (contacts 0 and 1, a running number). The events file sends its coordinates
    /// on ABS_Z (0x02) and ABS_RX (0x03), never on ABS_X/ABS_Y, which is where single-touch
    /// positions come from (the description gives X/Y 42…1981 and no current value, so 0, clamped
    /// to the screen's corner). Both touches therefore never move: two taps at (0, 0), cell r0c0.
    /// (Read as X/Y, codes 2/3 would make the first a tap and the second a long diagonal drag.)
    @Test func eGalaxTwoTouchesAtTheOrigin() throws {
        let recording = try Replay.recording("eGalax_Inc._USB_TouchController.events", description: "eGalax_Inc._USB_TouchController.desc")
        let r = ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree, profile: Replay.touchProfile()))
        let corner = Point(x: 0, y: 0)
        #expect(r.taps == [
            Tap(t: .µs(686_032), contact: 0, point: corner, id: "r0c0"),
            Tap(t: .µs(5_060_140), contact: 1, point: corner, id: "r0c0"),
        ])
        #expect(r.swipes.isEmpty)
        // Hold duration 1 s keeps the 3 s touch and rejects the 0.7 s one.
        let held = ReplayResult(lines: Replay.transcript(recording, tree: Replay.gridTree,
                                                         profile: Replay.touchProfile { $0.holdDuration = .seconds(1) }))
        #expect(held.touchRejections == [Rejection(t: .µs(686_032), contact: 0, reason: .holdDuration, point: corner)])
        #expect(held.taps.map(\.contact) == [1])
    }

    // MARK: Whole transcripts

    /// Every touch recording, default touch settings: (file, description, taps, swipes) as
    /// counted above. Two runs of the same replay print the same lines.
    static let counts: [(String, String?, Int, Int)] = [
        ("Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", atmelDesc, 9, 0),
        ("Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events", atmelDesc, 0, 1),
        ("Atmel_maXTouch_Touchscreen.2-fingers-touch-release.events", atmelDesc, 0, 2),
        ("Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", atmelDesc, 0, 4),
        ("EP0430M09.2-finger-scroll-down.events", nil, 0, 2),
        ("EP0430M09.2-fingers-touch-release.events", nil, 2, 0),
        ("ELAN_CANDO_Windows7.1-finger-drag-up-down.events", "ELAN_CANDO_Windows7.desc", 0, 1),
        ("QUANTA_OpticalTouchScreen.touch-on-left.events", "QUANTA_OpticalTouchScreen.desc", 0, 1),
        ("eGalax_Inc._USB_TouchController.events", "eGalax_Inc._USB_TouchController.desc", 2, 0),
    ]

    @Test(arguments: TouchReplayTests.counts)
    func tapAndSwipeCounts(events: String, description: String?, taps: Int, swipes: Int) throws {
        let recording = try Replay.recording(events, description: description)
        let first = Replay.transcript(recording, tree: Replay.gridTree, profile: Replay.touchProfile())
        let r = ReplayResult(lines: first)
        #expect(r.taps.count == taps)
        #expect(r.swipes.count == swipes)
        #expect(r.holds.isEmpty && r.touchRejections.isEmpty && r.filterLines.isEmpty)
        // Every tap here lands on a cell, and each activates it once.
        #expect(r.performs.count == taps)
        #expect(first.map { TranscriptFormat.jsonl($0) } == Replay.transcript(recording, tree: Replay.gridTree, profile: Replay.touchProfile()).map { TranscriptFormat.jsonl($0) })
        // Lines come in time order.
        #expect(zip(first, first.dropFirst()).allSatisfy { $0.t <= $1.t })
    }
}
