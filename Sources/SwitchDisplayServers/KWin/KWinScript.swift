/// switchscan's KWin script, as KWin's scripting D-Bus API loads and runs it (pure: names, paths
/// and the version choice; `KWinHelperService` makes the calls). packaging/kwin/README.md has the
/// contract:
///
///     org.kde.KWin /Scripting org.kde.kwin.Scripting
///       unloadScript("switchscan")              a script an earlier run left (its poll is dead)
///       loadScript(path, "switchscan") → i id   the (ss) overload; −1: KWin refused the file
///     org.kde.KWin <object> org.kde.kwin.Script.run()
///       <object> = /<id>                        KWin 5 (Plasma 5.27)
///                = /Scripting/Script<id>        KWin 6 (Plasma 6 moved it)
///     at exit: unloadScript("switchscan")
///
/// KWin's major version comes from `org.kde.KWin /KWin supportInformation()`, whose text has a
/// line "KWin version: 5.27.5"; when it says none, both objects are tried, KWin 6's first.
public enum KWinScript {
    /// The name the script is loaded under (one switchscan script at a time).
    public static let pluginName = "switchscan"
    /// Where the installed script is, below the install prefix (install.sh, the .deb).
    public static let installedPath = "share/switchscan/kwin/switchscan-windows.js"

    public static let service = "org.kde.KWin"
    public static let scriptingPath = "/Scripting"
    public static let scriptingInterface = "org.kde.kwin.Scripting"
    public static let scriptInterface = "org.kde.kwin.Script"

    /// switchscan's own object, which the script calls.
    public static let helperName = "org.switchscan.KWinHelper"
    public static let helperPath = "/org/switchscan/KWinHelper"
    public static let helperInterface = "org.switchscan.KWinHelper"

    /// Where the script is: `SWITCHSCAN_KWIN_SCRIPT` when set, else installed beside the binary
    /// (`<prefix>/share/switchscan/kwin/`, the binary being `<prefix>/bin/switchscan`), else the
    /// checkout the binary was built in (`packaging/kwin/`, up to six levels above it); nil when
    /// none of them exists. `executable` is the binary's real path.
    public static func locate(environment: [String: String], executable: String?, exists: (String) -> Bool) -> String? {
        if let path = environment["SWITCHSCAN_KWIN_SCRIPT"], !path.isEmpty { return path }
        guard let executable else { return nil }
        var dir = Substring(executable)
        func up() { dir = dir.lastIndex(of: "/").map { dir[..<$0] } ?? "" }
        up()
        var prefix = dir
        if let slash = prefix.lastIndex(of: "/") { prefix = prefix[..<slash] }
        let installed = "\(prefix)/\(installedPath)"
        if exists(installed) { return installed }
        for _ in 0..<6 where !dir.isEmpty {
            let checkout = "\(dir)/packaging/kwin/switchscan-windows.js"
            if exists(checkout) { return checkout }
            up()
        }
        return nil
    }

    /// The major version in a `supportInformation()` text ("KWin version: 5.27.5" → 5); nil when
    /// it says none.
    public static func majorVersion(supportInformation text: Substring) -> Int? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let l = line.drop { $0 == " " }
            guard l.hasPrefix("KWin version:") else { continue }
            let v = l.dropFirst("KWin version:".count).drop { $0 == " " }
            return Int(v.prefix { $0.isNumber })
        }
        return nil
    }

    /// The objects to call `run()` on for script `id`, in order: the one the version names, or
    /// both (KWin 6's first) when the version is not known.
    public static func scriptObjects(id: Int32, kwinMajor: Int?) -> [String] {
        let five = "/\(id)", six = "/Scripting/Script\(id)"
        switch kwinMajor {
        case .some(let m) where m >= 6: return [six]
        case .some: return [five]
        case .none: return [six, five]
        }
    }
}
