import Foundation
import SwitchCore
import SwitchInput

/// Where a setting the person changed from the scanner menu goes (issue 23, docs/scanning.md):
///
///   run without --profile   saved in the default profile ($XDG_CONFIG_HOME/switchscan/profile.json),
///                           changing only that value (`ProfileRewrite`), written atomically (a
///                           file beside it, then rename); no default profile yet: it and its
///                           folder are made, holding the changed setting alone
///   run --profile FILE      never rewritten: the change lasts for the session, and stderr says so
///   simulate                never writes: stderr says whether `run` would have saved it
///
/// The profile a clinician hands over with `--profile` stays theirs; the person's own default
/// profile is theirs to change.
enum SettingsSaving {
    case defaultProfile(path: String)
    case sessionOnly(profile: String)

    /// For a command given `--profile` (nil: none).
    static func forProfileOption(_ option: String?) -> SettingsSaving {
        option.map { .sessionOnly(profile: $0) } ?? .defaultProfile(path: ProfileLibrary.defaultProfilePath())
    }

    /// `autoScanningTime 1.0 s → 1.1 s`; at a limit `autoScanningTime stays 0.1 s: already the fastest`.
    static func describe(_ c: SettingChange) -> String {
        if let limit = c.limit { return "\(c.name) stays \(TranscriptFormat.settingText(c.to)): already the \(limit.rawValue)" }
        return "\(c.name) \(TranscriptFormat.settingText(c.from)) → \(TranscriptFormat.settingText(c.to))"
    }

    /// `run`: keeps the change as said above; the note for stderr. A setting at its limit
    /// changed nothing: nothing is written.
    func keep(_ change: SettingChange) -> String {
        if change.limit != nil { return SettingsSaving.describe(change) }
        switch self {
        case .sessionOnly(let profile):
            return "\(SettingsSaving.describe(change)) for this session only: \(InputFiles.displayName(profile)) was given with --profile, and such a profile is never rewritten"
        case .defaultProfile(let path):
            do {
                try SettingsSaving.save(change, in: path)
                return "\(SettingsSaving.describe(change)), saved in \(path)"
            } catch {
                return "\(SettingsSaving.describe(change)) for this session only: not saved in \(path): \(error)"
            }
        }
    }

    /// `simulate`: the note for stderr (nothing is written).
    func wouldKeep(_ change: SettingChange) -> String {
        if change.limit != nil { return SettingsSaving.describe(change) }
        switch self {
        case .sessionOnly:
            return "\(SettingsSaving.describe(change)): not saved (simulate never writes; run would keep it for its session only: a profile given with --profile is never rewritten)"
        case .defaultProfile(let path):
            return "\(SettingsSaving.describe(change)): not saved (simulate never writes; run would save it in \(path))"
        }
    }

    /// Reads the file (if any), rewrites the value and replaces the file with the result
    /// (`AtomicFile`: its permissions kept, a link kept a link), after making the folder when
    /// needed.
    static func save(_ change: SettingChange, in path: String) throws {
        let existing = FileManager.default.fileExists(atPath: path) ? try InputFiles.read(path, .profile) : nil
        let bytes = try ProfileRewrite.apply(change, to: existing, file: path)
        try AtomicFile.makeFolder((try AtomicFile.resolved(path) as NSString).deletingLastPathComponent)
        try AtomicFile.replace(path, with: bytes, newMode: 0o644)
    }
}

/// `run`'s adapter: every `setting` line kept as `SettingsSaving` says, with its note on stderr;
/// the scan time adaptive timing reached (its `timing` lines) kept the same way once, at the end
/// of the run (issue 31), from where the run started or the person last set it.
final class SettingsKeeper: LoopAdapter {
    let name = "settings"
    private let saving: SettingsSaving
    /// The scan time adaptive timing moved from (the last one saved), and to.
    private var adapted: (from: Interval, to: Interval)?

    init(_ saving: SettingsSaving) { self.saving = saving }

    func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        switch line.event {
        case .setting(let change):
            if change.name == "autoScanningTime", case .seconds(let t) = change.to, adapted != nil { adapted = (t, t) }
            return [.log(saving.keep(change))]
        case .adaptiveTiming(let change):
            adapted = (adapted?.from ?? change.from, change.to)
            return []
        default:
            return []
        }
    }

    func finish() {
        guard let (from, to) = adapted, from != to else { return }
        adapted = nil
        note("adaptive timing: " + saving.keep(SettingChange("autoScanningTime", from: .seconds(from), to: .seconds(to))))
    }
}
