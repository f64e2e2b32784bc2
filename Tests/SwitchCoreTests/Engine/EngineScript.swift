import SwitchCore
import Testing

/// Drives the real `Engine` like the simulator does, from a script: key presses and touches at
/// exact times, then "expect these transcript lines" (JSONL, the simulator's own output format).
struct EngineScript {
    var engine: Engine
    var lines: [String] = []

    /// A one-device engine: a switch box (keys) at device 0 and a touchscreen at device 1 whose
    /// axes are 0…390 × 0…844, the demo tree's screen, so device units are points.
    init(tree: ElementTree, profile: Profile) {
        engine = Engine(tree: tree, profile: profile, devices: [EngineScript.switchBox, EngineScript.touchscreen])
        lines += engine.start(at: .zero).map(TranscriptFormat.jsonl)
    }

    /// A switch interface with every key the scripts press (the engine drops a code its device
    /// does not list, as the kernel does).
    static let switchBox = DeviceDescription(name: "switch box", codes: [EventCodes.EV_KEY: Set(1...0x2ff)])
    static let touchscreen = DeviceDescription(
        name: "screen", properties: [EventCodes.INPUT_PROP_DIRECT],
        codes: [EventCodes.EV_ABS: [EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID],
                EventCodes.EV_KEY: [EventCodes.BTN_TOUCH]],
        absInfo: [EventCodes.ABS_MT_SLOT: .init(minimum: 0, maximum: 9),
                  EventCodes.ABS_MT_POSITION_X: .init(minimum: 0, maximum: 390),
                  EventCodes.ABS_MT_POSITION_Y: .init(minimum: 0, maximum: 844),
                  EventCodes.ABS_MT_TRACKING_ID: .init(minimum: 0, maximum: 65535)])

    mutating func key(_ code: UInt16, _ value: Int32, at t: Double) {
        let frame = InputFrame(time: .seconds(t), events: [InputEvent(type: EventCodes.EV_KEY, code: code, value: value)])
        lines += engine.handle(frame: frame, device: 0).map(TranscriptFormat.jsonl)
    }

    /// Press at `t`, release `held` seconds later.
    mutating func press(_ code: UInt16 = EventCodes.KEY_SPACE, at t: Double, held: Double = 0.1) {
        key(code, 1, at: t)
        key(code, 0, at: t + held)
    }

    mutating func touchFrame(_ events: [InputEvent], at t: Double) {
        lines += engine.handle(frame: InputFrame(time: .seconds(t), events: events), device: 1).map(TranscriptFormat.jsonl)
    }

    /// One finger: down at `from` at `t`, moved to `to` halfway, lifted after `held`.
    mutating func touch(id: Int32 = 1, at t: Double, from: (Double, Double), to: (Double, Double)? = nil, held: Double = 0.05) {
        func ev(_ code: UInt16, _ v: Double) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: code, value: Int32(v)) }
        touchFrame([ev(EventCodes.ABS_MT_SLOT, 0), ev(EventCodes.ABS_MT_TRACKING_ID, Double(id)),
                    ev(EventCodes.ABS_MT_POSITION_X, from.0), ev(EventCodes.ABS_MT_POSITION_Y, from.1)], at: t)
        if let to {
            touchFrame([ev(EventCodes.ABS_MT_POSITION_X, to.0), ev(EventCodes.ABS_MT_POSITION_Y, to.1)], at: t + held / 2)
        }
        touchFrame([InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_TRACKING_ID, value: -1)], at: t + held)
    }

    mutating func run(until t: Double) {
        lines += engine.advance(to: .seconds(t)).map(TranscriptFormat.jsonl)
    }

    mutating func removeDevice(_ device: Int, at t: Double) {
        lines += engine.deviceRemoved(device, at: .seconds(t)).map(TranscriptFormat.jsonl)
    }

    mutating func layout(_ tree: ElementTree, at t: Double) {
        lines += engine.loadLayout(tree, at: .seconds(t)).map(TranscriptFormat.jsonl)
    }

    /// The lines produced since the last call.
    mutating func take() -> [String] {
        defer { lines.removeAll() }
        return lines
    }
}

/// A small screen: three buttons in a row, a slider with an action below.
func threeButtonTree() throws -> ElementTree {
    try loadTree("""
    {"screen": {"width": 390, "height": 844}, "root": {"id": "root", "frame": [0, 0, 390, 844], "children": [
      {"id": "a", "label": "A", "traits": ["button"], "frame": [0, 0, 100, 50]},
      {"id": "b", "label": "B", "traits": ["button"], "frame": [120, 0, 100, 50]},
      {"id": "c", "label": "C", "traits": ["button"], "frame": [240, 0, 100, 50]},
      {"id": "vol", "label": "Volume", "value": "50%", "traits": ["adjustable"], "frame": [0, 100, 390, 50],
       "customActions": [{"name": "Mute"}]}
    ]}}
    """)
}

func profile(_ json: String) throws -> Profile { try ProfileDecoder.decode(Array(json.utf8), file: "profile.json") }

/// `{"t":…,"type":"highlight","id":…,"label":…,"kind":"item"}`, labelled from `labels`.
func hl(_ t: String, _ id: String, _ kind: String = "item") -> String {
    "{\"t\":\(t),\"type\":\"highlight\",\"id\":\"\(id)\",\"label\":\"\(labels[id]!)\",\"kind\":\"\(kind)\"}"
}

/// The descriptions of the stops of the trees in these tests (`threeButtonTree` and the few
/// written inline), and the menu entries' names.
let labels: [String: String] = [
    "a": "A, button", "b": "B, button", "c": "C, button", "vol": "Volume, 50%, adjustable", "row": "Row, button",
    "menu:tap": "Tap", "menu:action:Delete": "Delete", "menu:action:Mute": "Mute",
    "menu:action:Scroll forward": "Scroll forward", "menu:increment": "Increment", "menu:decrement": "Decrement",
    "menu:gestures": "Gestures", "menu:device": "Device", "menu:shortcuts": "Shortcuts", "menu:settings": "Settings",
    "menu:escape": "Escape", "menu:close": "Close menu",
    "menu:autoScanning": "Turn auto scanning off", "menu:speech": "Turn speech on", "menu:pause": "Pause scanning",
]

/// The pages every menu on an item with a place on screen offers (issue 23).
let pages = ["menu:gestures", "menu:device", "menu:shortcuts", "menu:settings"]

/// The `menu` line opening on `id` with its own entries (`own`: Tap, actions …), then the pages,
/// Escape and Close, labelled from `labels`.
func menuLine(_ t: String, _ id: String, own: [String]) -> String {
    let items = own + pages + ["menu:escape", "menu:close"]
    return "{\"t\":\(t),\"type\":\"menu\",\"open\":true,\"id\":\"\(id)\",\"label\":\"\(labels[id]!)\",\"items\":["
        + items.map { "\"\($0)\"" }.joined(separator: ",") + "],\"labels\":[" + items.map { "\"\(labels[$0]!)\"" }.joined(separator: ",") + "]}"
}
func accepted(_ t: String, _ action: String = "select", _ key: String = "KEY_SPACE") -> String {
    "{\"t\":\(t),\"type\":\"filter\",\"switch\":\"\(key)\",\"decision\":\"accepted\",\"action\":\"\(action)\"}"
}
func rejected(_ t: String, _ reason: String, _ key: String = "KEY_SPACE") -> String {
    "{\"t\":\(t),\"type\":\"filter\",\"switch\":\"\(key)\",\"decision\":\"rejected\",\"reason\":\"\(reason)\"}"
}
