/// A setting the person changed from the scanner menu, written into the text of their profile
/// (issue 23): only that value changes, every other byte of the file stays as it was (its layout,
/// its other settings, the keys it leaves out), so the file is still the clinician's file and
/// `profiles show` differs in that one setting.
///
///   the key is there           its value's text is replaced
///   `scanning` without it      `"name": value,` goes in first, on a line of its own when the
///                              object's members are on lines of their own, indented like them
///   no `scanning`              `"scanning": {"name": value},` goes in first in the same way
///   no file                    `{"scanning": {"name": value}}`: the changed setting alone
///
/// The result is decoded again before it is returned, so what is written always reads back.
public enum ProfileRewrite {
    /// The profile text with `change` applied. `bytes`: the file's text (it decoded without
    /// error), nil when there is no file. Throws when the text is not a JSON object.
    public static func apply(_ change: SettingChange, to bytes: [UInt8]?, file: String) throws(InputError) -> [UInt8] {
        let value = change.to.json.rendered()
        guard let bytes else {
            return Array("{\n  \"scanning\": { \"\(change.name)\": \(value) }\n}\n".utf8)
        }
        let root = try JSONParser.parse(bytes, file: file)
        guard case .object = root.value else {
            throw InputError(file: file, message: "expected an object at the top of the profile")
        }
        let out: [UInt8]
        if let scanning = root["scanning"], case .object = scanning.value {
            if let old = scanning[change.name] {
                let end = scalarEnd(bytes, from: old.offset)
                out = Array(bytes[..<old.offset]) + Array(value.utf8) + Array(bytes[end...])
            } else {
                out = insert("\"\(change.name)\": \(value)", into: scanning, bytes)
            }
        } else {
            out = insert("\"scanning\": { \"\(change.name)\": \(value) }", into: root, bytes)
        }
        _ = try ProfileDecoder.decode(out, file: file)
        return out
    }

    /// `member` as the first member of `object` (whose `{` is at its offset).
    private static func insert(_ member: String, into object: JSONNode, _ bytes: [UInt8]) -> [UInt8] {
        guard case .object(let members) = object.value else { return bytes }
        let open = object.offset + 1
        guard let first = members.first else {
            return Array(bytes[..<open]) + Array((" " + member + " ").utf8) + Array(bytes[open...])
        }
        // Whatever stands between `{` and the first key (a new line and an indent, or a space)
        // stands before the new member too.
        var key = open
        while key < first.value.offset && bytes[key] != UInt8(ascii: "\"") { key += 1 }
        let lead = Array(bytes[open..<key])
        return Array(bytes[..<open]) + lead + Array((member + ",").utf8) + lead + Array(bytes[key...])
    }

    /// Where a scalar value (number, string, true, false, null) that starts at `start` ends.
    static func scalarEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        guard i < bytes.count else { return i }
        if bytes[i] == UInt8(ascii: "\"") {
            i += 1
            while i < bytes.count && bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
            return min(i + 1, bytes.count)
        }
        let delimiters: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D]
        while i < bytes.count && !delimiters.contains(bytes[i]) { i += 1 }
        return i
    }
}
