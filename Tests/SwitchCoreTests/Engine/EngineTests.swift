import SwitchCore
import Testing

/// The engine wires filters and scanner together; these scripts check the seams: which item a
/// held press selects, timers at the same instant as an input, touch performs, the screen as a
/// switch, unplugging, layouts.
@Suite("Engine")
struct EngineTests {
    @Test func scanningStartsAtZeroWithTheFirstItemAndAdvancesEveryScanTime() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{}"))
        s.run(until: 2.5)
        #expect(s.take() == [
            "{\"t\":0.000,\"type\":\"scan\",\"state\":\"started\"}", hl("0.000", "a"), hl("1.000", "b"), hl("2.000", "c"),
        ])
    }

    @Test func aTimerDueAtAnInputsInstantFiresFirst() throws {
        // The highlight moves to b at exactly 1.000; a press at 1.000 selects b, not a.
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switchStabilization\": {\"debounce\": 0}}"))
        _ = s.take()
        s.key(EventCodes.KEY_SPACE, 1, at: 1.0)
        #expect(s.take() == [
            hl("1.000", "b"), accepted("1.000"),
            menuLine("1.000", "b", own: ["menu:tap"]),
            hl("1.000", "menu:tap", "menuItem"),
        ])
    }

    @Test func scanningKeepsAdvancingWhileAPressWaitsOutHoldDurationAndThePressedItemIsSelected() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switchStabilization\": {\"holdDuration\": 0.2}}"))
        _ = s.take()
        s.press(at: 0.9, held: 0.3)
        #expect(s.take() == [
            hl("1.000", "b"), accepted("1.100"),
            menuLine("1.100", "a", own: ["menu:tap"]),
            hl("1.100", "menu:tap", "menuItem"),
        ])
    }

    @Test func selectTargetAcceptSelectsWhatIsHighlightedAtAcceptance() throws {
        var s = EngineScript(tree: try threeButtonTree(),
                             profile: try profile("{\"switchStabilization\": {\"holdDuration\": 0.2, \"selectTarget\": \"accept\"}}"))
        _ = s.take()
        s.press(at: 0.9, held: 0.3)
        #expect(s.take() == [
            hl("1.000", "b"), accepted("1.100"),
            menuLine("1.100", "b", own: ["menu:tap"]),
            hl("1.100", "menu:tap", "menuItem"),
        ])
    }

    @Test func aPressReleasedBeforeHoldDurationIsRejectedAndScanningGoesOn() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switchStabilization\": {\"holdDuration\": 0.2}}"))
        _ = s.take()
        s.press(at: 0.5, held: 0.199)
        s.run(until: 1.0)
        #expect(s.take() == [rejected("0.699", "holdDuration"), hl("1.000", "b")])
    }

    @Test func alwaysTapActivatesAtTheActivationPointAndResumesAtTheFirstItem() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"scanning\": {\"tapBehavior\": \"alwaysTap\"}}"))
        s.run(until: 1.5)
        _ = s.take()
        s.press(at: 1.5)
        #expect(s.take() == [
            accepted("1.500"),
            "{\"t\":1.500,\"type\":\"perform\",\"action\":\"activate\",\"id\":\"b\",\"label\":\"B, button\",\"point\":[170,25]}",
            hl("1.500", "a"),
        ])
    }

    @Test func theMenuOffersActionsAndAdjustmentsAndPerformsThem() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}, {\"key\": \"KEY_ENTER\", \"action\": \"select\"}]}"))
        _ = s.take()
        for t in [1.0, 2.0, 3.0] { s.press(at: t) }
        s.press(28, at: 4.0)
        s.press(at: 5.0)
        s.press(at: 6.0)
        s.press(28, at: 7.0)
        #expect(s.take() == [
            accepted("1.000", "next"), hl("1.000", "b"), accepted("2.000", "next"), hl("2.000", "c"),
            accepted("3.000", "next"), hl("3.000", "vol"),
            accepted("4.000", "select", "KEY_ENTER"),
            menuLine("4.000", "vol", own: ["menu:tap", "menu:action:Mute", "menu:increment", "menu:decrement"]),
            hl("4.000", "menu:tap", "menuItem"),
            accepted("5.000", "next"), hl("5.000", "menu:action:Mute", "menuItem"),
            accepted("6.000", "next"), hl("6.000", "menu:increment", "menuItem"),
            accepted("7.000", "select", "KEY_ENTER"),
            "{\"t\":7.000,\"type\":\"perform\",\"action\":\"increment\",\"id\":\"vol\",\"label\":\"Volume, 50%, adjustable\"}",
            "{\"t\":7.000,\"type\":\"menu\",\"open\":false}",
            hl("7.000", "a"),
        ])
    }

    @Test func twoSwitchesPressedTogetherEachAct() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}, {\"key\": \"KEY_ENTER\", \"action\": \"select\"}]}"))
        _ = s.take()
        s.key(EventCodes.KEY_SPACE, 1, at: 1.0)
        s.key(28, 1, at: 1.01)
        s.key(EventCodes.KEY_SPACE, 0, at: 1.2)
        s.key(28, 0, at: 1.25)
        #expect(s.take() == [
            accepted("1.000", "next"), hl("1.000", "b"), accepted("1.010", "select", "KEY_ENTER"),
            menuLine("1.010", "b", own: ["menu:tap"]),
            hl("1.010", "menu:tap", "menuItem"),
        ])
    }

    @Test func longPressFiresTheShortActionOnReleaseAndTheLongActionWhenHeld() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("""
            {"scanning": {"tapBehavior": "alwaysTap"}, "switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "stopScanning"}],
             "switchStabilization": {"longPress": 1.0}}
            """))
        _ = s.take()
        s.press(at: 0.2, held: 0.5)
        s.key(EventCodes.KEY_SPACE, 1, at: 2.1)
        s.run(until: 3.2)
        s.key(EventCodes.KEY_SPACE, 0, at: 3.5)
        s.run(until: 10)
        #expect(s.take() == [
            accepted("0.700"), "{\"t\":0.700,\"type\":\"perform\",\"action\":\"activate\",\"id\":\"a\",\"label\":\"A, button\",\"point\":[50,25]}", hl("0.700", "a"),
            hl("1.700", "b"), hl("2.700", "c"),
            "{\"t\":3.100,\"type\":\"filter\",\"switch\":\"KEY_SPACE\",\"decision\":\"longPress\",\"action\":\"stopScanning\"}",
            "{\"t\":3.100,\"type\":\"scan\",\"state\":\"stopped\"}",
        ])
        #expect(s.engine.nextDeadline() == nil)
    }

    @Test func autorepeatNeverSelectsTwice() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"scanning\": {\"tapBehavior\": \"alwaysTap\"}}"))
        _ = s.take()
        s.key(EventCodes.KEY_SPACE, 1, at: 0.5)
        s.key(EventCodes.KEY_SPACE, 2, at: 0.75)
        s.key(EventCodes.KEY_SPACE, 2, at: 0.783)
        s.key(EventCodes.KEY_SPACE, 0, at: 0.8)
        #expect(s.take() == [
            accepted("0.500"), "{\"t\":0.500,\"type\":\"perform\",\"action\":\"activate\",\"id\":\"a\",\"label\":\"A, button\",\"point\":[50,25]}", hl("0.500", "a"),
            rejected("0.750", "autorepeat"), rejected("0.783", "autorepeat"),
        ])
    }

    @Test func aTouchTapActivatesTheItemUnderTheFingerWithSourceTouch() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\"}}"))
        #expect(s.take().isEmpty)   // a touch-only profile does not scan
        s.touch(at: 1.0, from: (150, 20))
        s.touch(id: 2, at: 2.0, from: (380, 400))
        #expect(s.take() == [
            "{\"t\":1.050,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[150,20],\"id\":\"b\",\"label\":\"B, button\",\"contact\":1}",
            "{\"t\":1.050,\"type\":\"perform\",\"action\":\"activate\",\"id\":\"b\",\"label\":\"B, button\",\"point\":[150,20],\"source\":\"touch\"}",
            "{\"t\":2.050,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[380,400],\"id\":null,\"label\":null,\"contact\":2}",
        ])
    }

    @Test func aSwipeIsReportedAndActivatesNothing() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\"}}"))
        s.touch(at: 1.0, from: (50, 20), to: (300, 40), held: 0.3)
        #expect(s.take() == [
            "{\"t\":1.300,\"type\":\"touch\",\"decision\":\"swipe\",\"from\":[50,20],\"to\":[300,40],\"direction\":\"right\",\"contact\":1}",
        ])
    }

    @Test func touchHoldDurationRejectsShortTouches() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\", \"holdDuration\": 0.1}}"))
        s.touch(at: 1.0, from: (50, 20), held: 0.05)
        s.touch(id: 2, at: 2.0, from: (50, 20), held: 0.15)
        #expect(s.take() == [
            "{\"t\":1.050,\"type\":\"touch\",\"decision\":\"rejected\",\"reason\":\"holdDuration\",\"point\":[50,20],\"contact\":1}",
            "{\"t\":2.150,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[50,20],\"id\":\"a\",\"label\":\"A, button\",\"contact\":2}",
            "{\"t\":2.150,\"type\":\"perform\",\"action\":\"activate\",\"id\":\"a\",\"label\":\"A, button\",\"point\":[50,20],\"source\":\"touch\"}",
        ])
    }

    @Test func theWholeScreenAsOneSwitchSelects() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switches\": [], \"touchAccommodations\": {\"touchAsSwitch\": \"select\"}}"))
        _ = s.take()
        s.touch(at: 1.2, from: (380, 800), held: 0.1)
        #expect(s.take() == [
            hl("1.000", "b"),
            "{\"t\":1.200,\"type\":\"filter\",\"switch\":\"touchscreen\",\"decision\":\"accepted\",\"action\":\"select\"}",
            menuLine("1.200", "b", own: ["menu:tap"]),
            hl("1.200", "menu:tap", "menuItem"),
        ])
    }

    @Test func unpluggingMidPressFiresNothingAndScanningGoesOn() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("""
            {"switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "menu"}], "switchStabilization": {"longPress": 1.0, "holdDuration": 0.2}}
            """))
        _ = s.take()
        s.key(EventCodes.KEY_SPACE, 1, at: 0.5)
        s.removeDevice(0, at: 0.6)             // during hold duration
        s.key(EventCodes.KEY_SPACE, 1, at: 1.5)
        s.removeDevice(0, at: 2.2)             // accepted, waiting for long press or release
        s.run(until: 4.5)
        #expect(s.take() == [hl("1.000", "b"), hl("2.000", "c"), hl("3.000", "vol"), hl("4.000", "a")])
    }

    @Test func unpluggingATouchscreenMidTouchMakesNoTap() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\"}}"))
        s.touchFrame([slot(0), tid(7), mx(50), my(20)], at: 1.0)
        s.removeDevice(1, at: 1.1)
        s.run(until: 3)
        #expect(s.take().isEmpty)
        #expect(s.engine.nextDeadline() == nil)
    }

    @Test func aLayoutChangeKeepsTheHighlightOnTheSameElement() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{}"))
        s.run(until: 1.5)
        _ = s.take()
        // b moves to the front: the highlight stays on b, and scanning goes on from there.
        let moved = try loadTree("""
        {"screen": {"width": 390, "height": 844}, "root": {"frame": [0, 0, 390, 844], "children": [
          {"id": "b", "label": "B", "traits": ["button"], "frame": [0, 0, 100, 50]},
          {"id": "a", "label": "A", "traits": ["button"], "frame": [120, 0, 100, 50]}
        ]}}
        """)
        s.layout(moved, at: 1.6)
        s.run(until: 3.5)
        #expect(s.take() == [hl("2.000", "a"), hl("3.000", "b")])
    }

    @Test func speechSpeaksEveryHighlight() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"scanning\": {\"speech\": true}}"))
        s.run(until: 1)
        #expect(s.take() == [
            "{\"t\":0.000,\"type\":\"scan\",\"state\":\"started\"}", hl("0.000", "a"), "{\"t\":0.000,\"type\":\"speak\",\"text\":\"A, button\"}",
            hl("1.000", "b"), "{\"t\":1.000,\"type\":\"speak\",\"text\":\"B, button\"}",
        ])
    }

    @Test func noTimerIsLeftWhenScanningHasStoppedAfterItsLoops() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"scanning\": {\"loops\": 1}}"))
        s.run(until: 10)
        #expect(s.take().suffix(2) == [hl("3.000", "vol"), "{\"t\":4.000,\"type\":\"scan\",\"state\":\"stopped\"}"])
        #expect(s.engine.nextDeadline() == nil)
    }

    @Test func aContainersActionsAreOfferedInItsItemsMenusAndPerformedOnTheContainer() throws {
        let tree = try loadTree("""
        {"screen": {"width": 390, "height": 844}, "root": {"frame": [0, 0, 390, 844], "children": [
          {"id": "list", "frame": [0, 0, 390, 400], "customActions": [{"name": "Scroll forward"}, {"name": "Delete"}], "children": [
            {"id": "row", "label": "Row", "traits": ["button"], "customActions": [{"name": "Delete"}], "frame": [0, 0, 390, 50]}
          ]}
        ]}}
        """)
        var s = EngineScript(tree: tree, profile: try profile("{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}, {\"key\": \"KEY_ENTER\", \"action\": \"select\"}]}"))
        _ = s.take()
        s.press(28, at: 1)
        s.press(at: 2)
        s.press(at: 3)
        s.press(28, at: 4)
        #expect(s.take() == [
            accepted("1.000", "select", "KEY_ENTER"),
            menuLine("1.000", "row", own: ["menu:tap", "menu:action:Delete", "menu:action:Scroll forward"]),
            hl("1.000", "menu:tap", "menuItem"),
            accepted("2.000", "next"), hl("2.000", "menu:action:Delete", "menuItem"),
            accepted("3.000", "next"), hl("3.000", "menu:action:Scroll forward", "menuItem"),
            accepted("4.000", "select", "KEY_ENTER"),
            "{\"t\":4.000,\"type\":\"perform\",\"action\":\"custom\",\"id\":\"list\",\"label\":\"\",\"name\":\"Scroll forward\"}",
            "{\"t\":4.000,\"type\":\"menu\",\"open\":false}",
            hl("4.000", "row"),
        ])
    }

    @Test func aDeviceThatComesBackAsATouchscreenSwitchStillEndsCleanlyWhenUnplugged() throws {
        // Device 0 starts as a switch box, comes back as a touchscreen used as a switch, is
        // touched and unplugged before the hold duration: nothing may fire after the unplug.
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("""
            {"switches": [], "switchStabilization": {"holdDuration": 0.1}, "touchAccommodations": {"touchAsSwitch": "select"}}
            """))
        _ = s.take()
        s.lines += s.engine.deviceAdded(0, EngineScript.touchscreen, at: .seconds(0.2)).map(TranscriptFormat.jsonl)
        let down = [InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT, value: 0),
                    InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_TRACKING_ID, value: 5),
                    InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_X, value: 50),
                    InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_Y, value: 20)]
        s.lines += s.engine.handle(frame: InputFrame(time: .seconds(0.3), events: down), device: 0).map(TranscriptFormat.jsonl)
        s.removeDevice(0, at: 0.35)
        s.run(until: 0.9)
        #expect(s.take().isEmpty)
    }

    @Test func aLayoutWithAnotherScreenSizeKeepsAFingerThatIsDown() throws {
        // The screen as a switch: a finger down across a layout change that resizes the screen
        // is still released afterwards, so the next touch presses again.
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("""
            {"switches": [], "scanning": {"style": "manual"}, "touchAccommodations": {"touchAsSwitch": "select"}}
            """))
        _ = s.take()
        s.touchFrame([slot(0), tid(1), mx(50), my(20)], at: 1.0)
        let bigger = try loadTree("""
        {"screen": {"width": 780, "height": 1688}, "root": {"frame": [0, 0, 780, 1688], "children": [
          {"id": "a", "label": "A", "traits": ["button"], "frame": [0, 0, 200, 100]},
          {"id": "b", "label": "B", "traits": ["button"], "frame": [240, 0, 200, 100]}
        ]}}
        """)
        s.layout(bigger, at: 1.1)
        s.touchFrame([slot(0), tid(-1)], at: 1.2)
        s.touchFrame([slot(0), tid(2), mx(50), my(20)], at: 2.0)
        let lines = s.take().filter { $0.contains("\"filter\"") }
        #expect(lines == [accepted("1.000", "select", "touchscreen"), accepted("2.000", "select", "touchscreen")])
    }

    @Test func aLayoutWithAnotherScreenSizeMapsTouchesToTheNewScreen() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\"}}"))
        s.touchFrame([slot(0), tid(1), mx(50), my(20)], at: 1.0)
        let bigger = try loadTree("""
        {"screen": {"width": 780, "height": 1688}, "root": {"frame": [0, 0, 780, 1688], "children": [
          {"id": "big", "label": "Big", "traits": ["button"], "frame": [0, 0, 200, 100]}
        ]}}
        """)
        s.layout(bigger, at: 1.02)
        s.touchFrame([slot(0), tid(-1)], at: 1.05)
        s.touch(id: 2, at: 2.0, from: (50, 20))
        // The finger that was down is decided, not lost (it "moved" with the new mapping); the
        // next touch maps to the new screen: device units 0…390 now span 780 points.
        #expect(s.take() == [
            "{\"t\":1.050,\"type\":\"touch\",\"decision\":\"swipe\",\"from\":[50,20],\"to\":[100,40],\"direction\":\"right\",\"contact\":1}",
            "{\"t\":2.050,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[100,40],\"id\":\"big\",\"label\":\"Big, button\",\"contact\":2}",
            "{\"t\":2.050,\"type\":\"perform\",\"action\":\"activate\",\"id\":\"big\",\"label\":\"Big, button\",\"point\":[100,40],\"source\":\"touch\"}",
        ])
    }
}
