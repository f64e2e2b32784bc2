/// The on-screen cursor's colour (iOS Switch Control's "Cursor Color"): one of Apple's names, or
/// any `#RRGGBB`.
public struct CursorColor: Sendable, Equatable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// iOS's choices, in its order. Blue is the default.
    public static let named: KeyValuePairs<String, CursorColor> = [
        "white": CursorColor(red: 255, green: 255, blue: 255),
        "blue": CursorColor(red: 0, green: 122, blue: 255),
        "red": CursorColor(red: 255, green: 59, blue: 48),
        "green": CursorColor(red: 52, green: 199, blue: 89),
        "yellow": CursorColor(red: 255, green: 204, blue: 0),
        "orange": CursorColor(red: 255, green: 149, blue: 0),
        "purple": CursorColor(red: 175, green: 82, blue: 222),
    ]

    public static let blue = CursorColor(red: 0, green: 122, blue: 255)

    /// "blue" or "#1E90FF" (case-insensitive); nil for anything else.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if let found = CursorColor.named.first(where: { $0.key == lower }) {
            self = found.value
            return
        }
        let hex = Array(lower.utf8)
        guard hex.count == 7, hex[0] == UInt8(ascii: "#") else { return nil }
        var value: [UInt8] = []
        for k in stride(from: 1, to: 7, by: 2) {
            guard let hi = CursorColor.hexDigit(hex[k]), let lo = CursorColor.hexDigit(hex[k + 1]) else { return nil }
            value.append(hi << 4 | lo)
        }
        self.init(red: value[0], green: value[1], blue: value[2])
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// The name when it is one of Apple's, else `#rrggbb`.
    public var description: String {
        if let found = CursorColor.named.first(where: { $0.value == self }) { return found.key }
        let digits = Array("0123456789abcdef")
        var s = "#"
        for v in [red, green, blue] {
            s.append(digits[Int(v >> 4)])
            s.append(digits[Int(v & 15)])
        }
        return s
    }

    /// Black or white, whichever reads better on this colour (text on the menu panel's
    /// highlighted row): relative luminance (sRGB taken as gamma 2) against WCAG's 0.179.
    public var contrastingIsBlack: Bool {
        func linear(_ v: UInt8) -> Double { (Double(v) / 255) * (Double(v) / 255) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue) > 0.179
    }
}

extension ProfileDecoder {
    /// The `scanning` keys of the overlay, speech and sound cues (docs/live.md "Presentation").
    static let presentationKeys: Set<String> = ["speechRate", "speechVoice", "pauseForSpeech", "soundEffects",
                                                "cursorColor", "largeCursor"]

    static func decodePresentation(_ m: [String: JSONNode], _ sc: inout ScanningSettings, _ r: JSONReader) throws(InputError) {
        if let v = m["speechRate"] { sc.speechRate = try r.number(v, "scanning.speechRate", in: 0...1) }
        if let v = m["speechVoice"], case .null = v.value {
            sc.speechVoice = nil
        } else if let v = m["speechVoice"] {
            let name = try r.string(v, "scanning.speechVoice")
            guard !name.trimmed.isEmpty, !name.contains(where: \.isNewline) else {
                throw r.error(v, "scanning.speechVoice", "expected a speech-dispatcher voice name (see `spd-say -L`)")
            }
            sc.speechVoice = name
        }
        if let v = m["pauseForSpeech"] { sc.pauseForSpeech = try r.bool(v, "scanning.pauseForSpeech") }
        if let v = m["soundEffects"] { sc.soundEffects = try r.bool(v, "scanning.soundEffects") }
        if let v = m["largeCursor"] { sc.largeCursor = try r.bool(v, "scanning.largeCursor") }
        if let v = m["cursorColor"] {
            let text = try r.string(v, "scanning.cursorColor")
            guard let color = CursorColor(parsing: text) else {
                let names = CursorColor.named.map(\.key).joined(separator: ", ")
                throw r.error(v, "scanning.cursorColor", "\"\(text)\" is not a cursor colour (expected one of: \(names), or #RRGGBB)")
            }
            sc.cursorColor = color
        }
    }
}
