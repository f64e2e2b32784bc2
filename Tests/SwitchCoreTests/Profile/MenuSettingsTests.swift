import SwitchCore
import Testing

/// The profile's `"menu"` section (ProfileDecoder+Menu.swift) and the key combinations of the
/// shortcuts (KeyCombo): every bad value is an error that says where and what is expected.
@Suite("Profiles: the menu section")
struct MenuSettingsTests {
    func decode(_ json: String) throws(InputError) -> Profile { try ProfileDecoder.decode(Array(json.utf8), file: "p.json") }

    func error(_ json: String) -> String? {
        do { _ = try decode(json); return nil } catch { return error.description }
    }

    @Test func theDefaults() throws {
        let m = try decode("{}").menu
        #expect(m == MenuSettings())
        #expect(m.speedStep == .seconds(0.1))
        #expect(m.holdTime == .seconds(1))
        #expect(m.hide.isEmpty && m.show.isEmpty && m.top.isEmpty && m.shortcuts.isEmpty)
    }

    @Test func everyKeyIsRead() throws {
        let m = try decode("""
        {"menu": {"hide": ["menu:middleClick", "menu:device"], "show": ["menu:lockScreen"], "top": ["menu:rightClick", "menu:shortcut:Print"],
                  "shortcuts": [{"name": "Print", "keys": "ctrl + p"}, {"name": "Menu key", "keys": "Menu"}],
                  "speedStep": 0.25, "holdTime": 2}}
        """).menu
        #expect(m.hide == ["menu:middleClick", "menu:device"])
        #expect(m.show == ["menu:lockScreen"])
        #expect(m.top == ["menu:rightClick", "menu:shortcut:Print"])
        // Keys are kept in their canonical spelling.
        #expect(m.shortcuts == [ProfileShortcut(name: "Print", keys: "Ctrl+P"), ProfileShortcut(name: "Menu key", keys: "Menu")])
        #expect(m.speedStep == .seconds(0.25))
        #expect(m.holdTime == .seconds(2))
    }

    @Test func theWrittenProfileReadsBack() throws {
        let p = try decode(#"{"menu": {"hide": ["menu:gestures"], "top": ["menu:volumeUp"], "shortcuts": [{"name": "Print", "keys": "Ctrl+P"}], "speedStep": 0.5}}"#)
        let text = ProfileEncoder.encode(p).rendered()
        #expect(text.contains(#""menu":{"hide":["menu:gestures"],"show":[],"top":["menu:volumeUp"],"shortcuts":[{"name":"Print","keys":"Ctrl+P"}],"speedStep":0.5,"holdTime":1},"#))
        #expect(try decode(text) == p)
    }

    @Test func anUnknownIdIsAnErrorWithTheNearestKnownOne() {
        #expect(error(#"{"menu": {"hide": ["menu:rigthClick"]}}"#)
                == #"p.json:1:20: menu.hide[0]: unknown menu entry "menu:rigthClick" (did you mean "menu:rightClick"?)"#)
        let far = error(#"{"menu": {"top": ["zoom"]}}"#)
        #expect(far?.hasPrefix(#"p.json:1:19: menu.top[0]: unknown menu entry "zoom" (expected one of: menu:tap, menu:snap, "#) == true)
        #expect(far?.contains("menu:shortcut:copy") == true)
        // A shortcut's id exists only when the profile adds it.
        #expect(error(#"{"menu": {"top": ["menu:shortcut:Print"]}}"#)?.contains("unknown menu entry \"menu:shortcut:Print\"") == true)
    }

    @Test func escapeCloseAndBackCannotBeHidden() {
        for id in ["menu:escape", "menu:close", "menu:back"] {
            #expect(error(#"{"menu": {"hide": ["menu:tap", "\#(id)"]}}"#)
                    == #"p.json:1:32: menu.hide[1]: "\#(id)" cannot be hidden: Escape, Close and Back are how a person leaves the menu"#)
        }
    }

    @Test func onlyAPagesEntryCanBePromoted() {
        #expect(error(#"{"menu": {"top": ["menu:gestures"]}}"#)
                == #"p.json:1:19: menu.top[0]: "menu:gestures" is not an entry of a page (only the entries of Gestures, Device, Shortcuts and Settings can be moved to the top level)"#)
        #expect(error(#"{"menu": {"top": ["menu:escape"]}}"#)?.contains("is not an entry of a page") == true)
        #expect(error(#"{"menu": {"hide": ["menu:hold"], "top": ["menu:hold"]}}"#)
                == #"p.json:1:42: menu.top[0]: "menu:hold" is also in menu.hide; give it in one of the two"#)
        #expect(error(#"{"menu": {"top": ["menu:hold", "menu:hold"]}}"#) == #"p.json:1:32: menu.top[1]: "menu:hold" is listed twice"#)
    }

    @Test func aClashingShortcutNameIsAnError() {
        #expect(error(#"{"menu": {"shortcuts": [{"name": "copy", "keys": "Ctrl+Insert"}]}}"#)
                == #"p.json:1:34: menu.shortcuts[0].name: "copy" clashes with the built-in shortcut "Copy" (Ctrl+C); give it another name"#)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "Select All", "keys": "Ctrl+A"}]}}"#)?.contains("clashes with the built-in shortcut \"Select all\"") == true)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "Print", "keys": "Ctrl+P"}, {"name": "print ", "keys": "Ctrl+Shift+P"}]}}"#)
                == #"p.json:1:71: menu.shortcuts[1].name: "print " clashes with the shortcut "Print" (Ctrl+P) before it; give it another name"#)
    }

    @Test func aShortcutIsCheckedLikeThePauseChord() {
        #expect(error(#"{"menu": {"shortcuts": [{"name": "Print", "keys": "Ctrl+"}]}}"#)
                == #"p.json:1:51: menu.shortcuts[0].keys: "Ctrl+" has an empty part (write keys joined by "+", e.g. "Ctrl+C"; the + key is "plus")"#)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "Print", "keys": "Ctrl+Hyper+P"}]}}"#)?
            .hasSuffix(#"menu.shortcuts[0].keys: "Hyper" is not a modifier (only the last part is a key; modifiers are Ctrl, Alt, Shift, Super)"#) == true)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "Print", "keys": "Ctrl+Ctrl+P"}]}}"#)?.hasSuffix(#""Ctrl+Ctrl+P" names Ctrl twice"#) == true)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "Print", "keys": "Ctrl+Shift"}]}}"#)?.contains("ends in a modifier (Shift)") == true)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "Print", "keys": "Ctrl+PrintScreen"}]}}"#)?.contains(#""PrintScreen" is not a key"#) == true)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "Print"}]}}"#) == #"p.json:1:25: menu.shortcuts[0]: missing key "keys" (a key combination such as "Ctrl+P")"#)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "", "keys": "Ctrl+P"}]}}"#)?.contains("expected a name of 1 to 40 characters") == true)
        #expect(error(#"{"menu": {"shortcuts": [{"name": "P", "keys": "Ctrl+P", "when": 1}]}}"#)?.contains(#"unknown key "when""#) == true)
    }

    @Test func speedStepAndHoldTimeRanges() {
        #expect(error(#"{"menu": {"speedStep": 0.01}}"#) == "p.json:1:24: menu.speedStep: 0.01 is out of range (expected 0.05…5)")
        #expect(error(#"{"menu": {"speedStep": 6}}"#) == "p.json:1:24: menu.speedStep: 6 is out of range (expected 0.05…5)")
        #expect(error(#"{"menu": {"holdTime": 0}}"#) == "p.json:1:23: menu.holdTime: 0 is out of range (expected 0.1…10)")
        #expect(error(#"{"menu": {"colour": 1}}"#)?.contains(#"unknown key "colour" (expected one of: hide, holdTime, shortcuts, show, speedStep, top)"#) == true)
    }

    // MARK: KeyCombo

    @Test func keyCombosAreReadByKeysymInCanonicalForm() throws {
        let c = try KeyCombo(parsing: "shift+ctrl+z")
        #expect(c.description == "Ctrl+Shift+Z")
        #expect(c.modifiers == [.ctrl, .shift])
        #expect(c.keysym == 0x7a)   // z: a letter is sent as its lower-case keysym
        #expect(try KeyCombo(parsing: "Alt+Tab").keysym == 0xff09)
        #expect(try KeyCombo(parsing: "Return").description == "Enter")
        #expect(try KeyCombo(parsing: "Ctrl+plus").keysym == 0x2b)
        #expect(try KeyCombo(parsing: "XF86AudioRaiseVolume").keysym == 0x1008ff13)
        #expect(try KeyCombo(parsing: "F12").keysym == 0xffc9)
        #expect(try KeyCombo(parsing: "Super").description == "Super")
        #expect(try KeyCombo(parsing: "é").keysym == 0xe9)
        #expect(try KeyCombo(parsing: "Ctrl+€").keysym == 0x0100_20ac)
    }
}
