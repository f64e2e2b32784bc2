import Foundation

/// A file replaced whole, atomically: a temporary file in the same folder, flushed to disk,
/// renamed over the old one, the folder flushed. A crash, a kill or a full disk leaves the old
/// file or the new one, never half of one (the temporary file is removed when the write fails).
/// A symbolic link stays a link: the file at the end of it is the one replaced. Used for the
/// files switchscan keeps for the person: the default profile (`SettingsSaving`) and the learned
/// words (`LearnedWordsFile`).
enum AtomicFile {
    /// A write that did not happen: what and where (`path: why`).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Replaces the file at `path` (or the file a link there points to) with `bytes`. A new
    /// file gets `newMode`; an old one keeps its mode and owner.
    static func replace(_ path: String, with bytes: [UInt8], newMode: mode_t) throws(Failure) {
        let target = try resolved(path)
        var st = stat()
        let exists = lstat(target, &st) == 0
        if exists && (st.st_mode & S_IFMT) == S_IFDIR { throw Failure(description: "\(target) is a folder") }
        let folder = (target as NSString).deletingLastPathComponent
        var template = Array("\(folder)/.\((target as NSString).lastPathComponent).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(description: "cannot write in \(folder): \(String(cString: strerror(errno)))") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var done = false
        defer { if !done { unlink(temporary) } }
        func failed(_ what: String) -> Failure { Failure(description: "cannot write \(target): \(what): \(String(cString: strerror(errno)))") }
        if exists {
            fchmod(fd, st.st_mode & 0o7777)
            if st.st_uid != geteuid() || st.st_gid != getegid() { _ = fchown(fd, st.st_uid, st.st_gid) }
        } else {
            fchmod(fd, newMode)
        }
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            var at = 0
            while at < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + at, buffer.count - at)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                at += n
            }
            return true
        }
        guard ok, fsync(fd) == 0 else {
            let e = failed(ok ? "flushing it to disk" : "writing")
            close(fd)
            throw e
        }
        guard close(fd) == 0 else { throw failed("closing") }
        guard rename(temporary, target) == 0 else { throw failed("renaming \(temporary) over it") }
        done = true
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// The file `path` stands for: itself, or the end of its chain of links (which may not exist
    /// yet: it is then made there).
    static func resolved(_ path: String) throws(Failure) -> String {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let n = buffer.withUnsafeMutableBytes { readlink(current, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
            guard n > 0 else { throw Failure(description: "\(current): \(String(cString: strerror(errno)))") }
            let link = String(decoding: buffer[..<n], as: UTF8.self)
            current = link.hasPrefix("/") ? link : (current as NSString).deletingLastPathComponent + "/" + link
        }
        throw Failure(description: "\(path): too many levels of symbolic links")
    }

    /// `path` and the folders above it, made when missing (mode 0700, as the XDG base
    /// directory specification asks).
    static func makeFolder(_ path: String) throws(Failure) {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw Failure(description: "\(path) is not a folder") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try makeFolder(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Failure(description: "cannot make the folder \(path): \(String(cString: strerror(errno)))")
        }
    }
}
