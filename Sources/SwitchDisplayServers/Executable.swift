import Glibc

/// This process's binary.
enum Executable {
    /// Its real path (symlinks resolved, as /proc/PID/exe has it): what KWin's fake-input grant
    /// must name, and the prefix switchscan's own copies of its desktop files are installed under.
    static func realPath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
