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

    /// `autoScanningTime 1.0 s → 1.1 s`
    static func describe(_ c: SettingChange) -> String {
        "\(c.name) \(TranscriptFormat.settingText(c.from)) → \(TranscriptFormat.settingText(c.to))"
    }

    /// `run`: keeps the change as said above; the note for stderr.
    func keep(_ change: SettingChange) -> String {
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
        switch self {
        case .sessionOnly:
            return "\(SettingsSaving.describe(change)): not saved (simulate never writes; run would keep it for its session only: a profile given with --profile is never rewritten)"
        case .defaultProfile(let path):
            return "\(SettingsSaving.describe(change)): not saved (simulate never writes; run would save it in \(path))"
        }
    }

    struct SaveError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads the file (if any), rewrites the value, writes the result beside it and renames it
    /// over the file (keeping its permissions), after making the folder when needed.
    static func save(_ change: SettingChange, in path: String) throws {
        let fm = FileManager.default
        let existing = fm.fileExists(atPath: path) ? try InputFiles.read(path, .profile) : nil
        try writeAtomically(try ProfileRewrite.apply(change, to: existing, file: path), to: path)
    }

    /// `bytes` written beside `path`, then renamed over it (keeping its permissions), after
    /// making the folder when needed: a reader sees the old file or the new one, never half.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let fm = FileManager.default
        let folder = (path as NSString).deletingLastPathComponent
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var template = Array((folder + "/.profile.json.XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw SaveError(description: "cannot write in \(folder): \(String(cString: strerror(errno)))") }
        let temporary = String(cString: template)
        var ok = false
        defer { if !ok { unlink(temporary) } }
        let mode = (try? fm.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.uint16Value ?? 0o644
        fchmod(fd, mode_t(mode))
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                close(fd)
                throw SaveError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))")
            }
            written += n
        }
        guard fsync(fd) == 0, close(fd) == 0 else { throw SaveError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        guard rename(temporary, path) == 0 else { throw SaveError(description: "cannot replace \(path): \(String(cString: strerror(errno)))") }
        ok = true
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
