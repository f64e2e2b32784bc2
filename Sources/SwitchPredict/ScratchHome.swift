import Glibc

/// The folder presage's child keeps presage's own files in while it starts (presage reads and
/// writes `$HOME/.presage*`; the child points `HOME` here, so nothing lands in the person's home):
/// `$TMPDIR/switchscan-presage-<child's pid>-XXXXXX`, made by `mkdtemp` (a fresh, unguessable
/// name, mode 0700: a link or folder planted under a predictable name is never used), and
/// removed as soon as presage is ready or has refused (it keeps its files open; nothing is
/// written there afterwards). A child killed while starting leaves its folder: the next child
/// removes every such folder whose process is gone, if it is a folder (not a link) owned by
/// this user, never following a link inside it.
///
///     child starts ──removeStale──▶ make ──presage starts──▶ remove ──▶ "r" (or "e", then exit)
public enum ScratchHome {
    public static let prefix = "switchscan-presage-"

    /// `$TMPDIR`, or `/tmp`.
    public static var temporaryFolder: String {
        if let t = getenv("TMPDIR"), t.pointee != 0 {
            let s = String(cString: t)
            return s.count > 1 && s.hasSuffix("/") ? String(s.dropLast()) : s
        }
        return "/tmp"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A new folder for this process (mode 0700).
    public static func make(in folder: String = temporaryFolder) throws(Failure) -> String {
        var template = Array("\(folder)/\(prefix)\(getpid())-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw Failure(description: "cannot make a folder for presage's files in \(folder): \(String(cString: strerror(errno)))")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Removes `path` and what it holds, never following a link (a link is removed, not what it
    /// points to).
    public static func remove(_ path: String) {
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let dir = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return }
        defer { close(dir) }
        removeEntry(dir, name, depth: 0)
    }

    /// The folders of earlier children that are gone (killed while starting), in `folder`:
    /// named `switchscan-presage-<pid>` or `…-<pid>-XXXXXX`, a folder and not a link, owned by
    /// this user, and no process `pid` exists. Returns the names removed.
    @discardableResult
    public static func removeStale(in folder: String = temporaryFolder) -> [String] {
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return [] }
        defer { close(dir) }
        var removed: [String] = []
        for name in names(in: dir) {
            guard let pid = owner(name), pid != getpid() else { continue }
            var st = stat()
            guard fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == geteuid() else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            removeEntry(dir, name, depth: 0)
            removed.append(name)
        }
        return removed
    }

    /// The process id in a scratch folder's name (nil: not one of ours).
    static func owner(_ name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 10, let pid = pid_t(digits), pid > 0 else { return nil }
        let tail = rest.dropFirst(digits.count)
        // Older switchscans named it by the pid alone; mkdtemp adds "-" and six characters.
        guard tail.isEmpty || (tail.count == 7 && tail.first == "-") else { return nil }
        return pid
    }

    /// The entries of an open folder (without `.` and `..`), read before any is removed.
    private static func names(in dir: Int32) -> [String] {
        let copy = dup(dir)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var out: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

    /// Unlinks `name` in `dir`; a folder (opened without following a link) is emptied first.
    /// presage's files are two levels deep; 32 is a bound, not a need.
    private static func removeEntry(_ dir: Int32, _ name: String, depth: Int) {
        if unlinkat(dir, name, 0) == 0 || errno == ENOENT { return }
        guard depth < 32 else { return }
        let sub = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard sub >= 0 else { return }
        for inner in names(in: sub) { removeEntry(sub, inner, depth: depth + 1) }
        close(sub)
        unlinkat(dir, name, AT_REMOVEDIR)
    }
}
