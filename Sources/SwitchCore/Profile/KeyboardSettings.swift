/// The profile's `"keyboard"` section (docs/typing.md):
///
///     "keyboard": {"layout": "frequency", "predictions": 8, "autoScanningTime": null,
///                  "grouping": null, "learning": true}
///
/// `autoScanningTime` and `grouping` null: the profile's own scanning settings (ChromeOS gives
/// its keyboard a scan speed of its own; so may a profile).
public struct KeyboardSettings: Sendable, Equatable {
    /// A layout name (`keyboards/NAME.json`, found like profiles) or a path.
    public var layout = "frequency"
    /// Words in the prediction row; 0: no row. 8, the most: the fastest of 0, 3, 5 and 8 with one
    /// switch and with 2–6 (`text stats` on 500 phrases, BENCHMARKS.md).
    public var predictions = 8
    /// The keyboard's own scan time; nil: `scanning.autoScanningTime`.
    public var autoScanningTime: Interval?
    /// The keyboard's own grouping; nil: `scanning.grouping`, or `auto` when that is none (a
    /// keyboard scanned key by key costs a minute a word; `auto` was the fastest one-switch method
    /// on 500 phrases, BENCHMARKS.md).
    public var grouping: Grouping?
    /// The person's words are learned into their own model (never in a password field).
    public var learning = true

    public init() {}

    /// The most words a prediction row holds.
    public static let maximumPredictions = 8

    /// The grouping the keyboard is scanned with.
    public func effectiveGrouping(_ scanning: ScanningSettings) -> Grouping {
        grouping ?? (scanning.grouping == .none ? .auto : scanning.grouping)
    }
}

extension ProfileDecoder {
    static let keyboardKeys: Set<String> = ["layout", "predictions", "autoScanningTime", "grouping", "learning"]

    static func keyboard(_ node: JSONNode, _ r: JSONReader) throws(InputError) -> KeyboardSettings {
        let m = try r.object(node, "keyboard", allowed: keyboardKeys)
        var k = KeyboardSettings()
        if let v = m["layout"] {
            k.layout = try r.string(v, "keyboard.layout")
            guard !k.layout.trimmed.isEmpty else { throw r.error(v, "keyboard.layout", "expected a layout name (qwerty, abc, frequency, …) or a path") }
        }
        if let v = m["predictions"] { k.predictions = try r.integer(v, "keyboard.predictions", in: 0...KeyboardSettings.maximumPredictions) }
        if let v = m["autoScanningTime"], case .null = v.value {
            k.autoScanningTime = nil
        } else if let v = m["autoScanningTime"] {
            k.autoScanningTime = .seconds(try r.number(v, "keyboard.autoScanningTime", in: ranges["autoScanningTime"]!))
        }
        if let v = m["grouping"], case .null = v.value {
            k.grouping = nil
        } else if let v = m["grouping"] {
            // Spelled out: `.none` here would be Optional's nil, not Grouping.none.
            let g: Grouping = try r.choice(v, "keyboard.grouping", ["none": Grouping.none, "containers": .containers, "rowColumn": .rowColumn, "auto": .auto])
            k.grouping = g
        }
        if let v = m["learning"] { k.learning = try r.bool(v, "keyboard.learning") }
        return k
    }
}
