/// Where bytes stop being UTF-8, for readers that must say so (a Latin-1 phrase file, a
/// libinput-record file with stray bytes) instead of decoding them into replacement characters.
public enum UTF8Check {
    /// The index of the first byte of `bytes` that is not valid UTF-8, or nil when all of it is.
    /// ASCII is skipped byte by byte; the standard decoder runs from the first byte above it.
    public static func firstInvalid(_ bytes: ArraySlice<UInt8>) -> Int? {
        var offset = bytes.startIndex
        while offset < bytes.endIndex && bytes[offset] < 0x80 { offset += 1 }
        guard offset < bytes.endIndex else { return nil }
        var iterator = bytes[offset...].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
