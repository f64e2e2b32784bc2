import Foundation
import SwitchCore

/// Profiles by path or by name: `--profile tremor` finds `Profiles/tremor.json` in
/// `$SWITCHSCAN_PROFILES`, in `./Profiles`, or in the `Profiles/` folder of the checkout the
/// executable was built in (so `swift run` and `.build/*/switchscan` work from anywhere).
enum ProfileLibrary {
    static func load(_ nameOrPath: String) throws(InputError) -> Profile {
        let path = try resolve(nameOrPath)
        var warnings: [InputError] = []
        let profile = try ProfileDecoder.decode(InputFiles.read(path), file: path, warnings: &warnings)
        for w in warnings { note("warning: \(w)") }
        return profile
    }

    static func resolve(_ nameOrPath: String) throws(InputError) -> String {
        if FileManager.default.fileExists(atPath: nameOrPath) { return nameOrPath }
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        if !looksLikePath {
            for dir in searchDirectories() {
                let candidate = dir + "/" + nameOrPath + ".json"
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
            }
        }
        let known = availableNames()
        let list = known.isEmpty ? "" : "; profiles available by name: " + known.joined(separator: ", ")
        throw InputError(file: nameOrPath, message: "no such profile file\(looksLikePath ? "" : " or profile name")\(list)")
    }

    static func searchDirectories() -> [String] {
        var dirs: [String] = []
        if let env = ProcessInfo.processInfo.environment["SWITCHSCAN_PROFILES"], !env.isEmpty { dirs.append(env) }
        dirs.append(FileManager.default.currentDirectoryPath + "/Profiles")
        // The checkout this executable was built in: .../<repo>/.build/<triple>/<config>/switchscan
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<6 {
                let candidate = dir.appendingPathComponent("Profiles").path
                if FileManager.default.fileExists(atPath: candidate + "/single-switch-auto.json") { dirs.append(candidate); break }
                dir = dir.deletingLastPathComponent()
            }
        }
        return dirs
    }

    static func availableNames() -> [String] {
        for dir in searchDirectories() {
            if let names = try? FileManager.default.contentsOfDirectory(atPath: dir) {
                let profiles = names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
                if !profiles.isEmpty { return profiles }
            }
        }
        return []
    }
}
