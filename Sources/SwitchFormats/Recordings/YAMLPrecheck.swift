import CYaml
import SwitchCore

/// A look at a YAML document's events (libyaml's parser, the one inside Yams) before Yams builds
/// the document, to refuse what would make building it cost far more than the file's size:
///
/// - **anchors and aliases** (`&a`, `*a`): `libinput record` never writes them, and an alias
///   repeats a whole subtree, so a few hundred bytes of nested aliases stand for billions of
///   nodes (and Yams hashes every mapping key to find duplicates, aliased keys included);
/// - **nesting** deeper than `maximumDepth` (libinput-record nests five levels);
/// - more than `maximumNodes` nodes.
///
/// A syntax error is left for Yams, whose message is the usual one.
enum YAMLPrecheck {
    static let maximumDepth = 64
    static let maximumNodes = 4_000_000

    static func check(_ bytes: [UInt8], file: String) throws(InputError) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        let problem: InputError? = bytes.withUnsafeBufferPointer { buf in
            yaml_parser_set_input_string(&parser, buf.baseAddress, buf.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var depth = 0
            var nodes = 0
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                let mark = event.start_mark
                func fail(_ message: String) -> InputError {
                    InputError(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: message)
                }
                let refused = "libinput-record files have no YAML anchors or aliases (`libinput record` never writes them; an alias repeats a whole part of the file)"
                var anchor: UnsafeMutablePointer<yaml_char_t>?
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_ALIAS_EVENT:
                    return fail("an alias (*\(name(event.data.alias.anchor))): " + refused)
                case YAML_SCALAR_EVENT:
                    anchor = event.data.scalar.anchor
                    nodes += 1
                case YAML_SEQUENCE_START_EVENT:
                    anchor = event.data.sequence_start.anchor
                    nodes += 1
                    depth += 1
                case YAML_MAPPING_START_EVENT:
                    anchor = event.data.mapping_start.anchor
                    nodes += 1
                    depth += 1
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    depth -= 1
                default:
                    break
                }
                if let anchor { return fail("an anchor (&\(name(anchor))): " + refused) }
                if depth > maximumDepth { return fail("nested deeper than \(maximumDepth) levels; a libinput-record file nests five") }
                if nodes > maximumNodes {
                    return fail("more than \(maximumNodes) YAML nodes outside the event lines `libinput record` writes (\"- [sec, usec, type, code, value]\", which are read without building nodes)")
                }
            }
        }
        if let problem { throw problem }
    }

    private static func name(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let p else { return "" }
        let s = String(cString: p)
        return s.count > 30 ? String(s.prefix(30)) + "…" : s
    }
}
