import SwitchCore

/// Reads any tree file switchscan accepts, choosing the format by content, not by file name.
public enum TreeFile {
    public enum Format: String, Sendable {
        case native
    }

    public static func detect(_ bytes: [UInt8]) -> Format? {
        guard let first = bytes.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }) else { return nil }
        if first == UInt8(ascii: "{") { return .native }
        return nil
    }

    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> ElementTree {
        switch detect(bytes) {
        case .native:
            return try TreeDecoder.decode(bytes, file: file)
        case nil:
            throw InputError(file: file, line: 1, column: 1, message: "not a tree file switchscan knows (expected the native JSON tree format)")
        }
    }
}
