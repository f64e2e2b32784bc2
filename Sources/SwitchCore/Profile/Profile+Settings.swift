/// A setting the person changed from the scanner menu, applied to a profile: the engine keeps its
/// profile in step, and `run` saves the change (`SettingChange.name` is the key in `scanning`).
extension Profile {
    public mutating func apply(_ change: SettingChange) {
        switch (change.name, change.to) {
        case ("autoScanningTime", .seconds(let s)): scanning.autoScanningTime = s
        case ("style", .text(let t)): if let style = ScanningSettings.Style(rawValue: t) { scanning.style = style }
        case ("speech", .bool(let b)): scanning.speech = b
        case ("soundEffects", .bool(let b)): scanning.soundEffects = b
        default: break
        }
    }
}

extension SettingChange.Value {
    /// The value as the profile's JSON writes it.
    public var json: JSONOut {
        switch self {
        case .seconds(let s): return .number(s.seconds)
        case .bool(let b): return .bool(b)
        case .text(let t): return .string(t)
        }
    }
}
