import SwitchCore
import Testing

/// Builds a tree from native JSON text (a test failure, not a crash, when it does not load).
func loadTree(_ json: String, file: String = "test.json") throws -> ElementTree {
    try TreeDecoder.decode(Array(json.utf8), file: file)
}

/// The scan order as ids.
func scanIDs(_ json: String) throws -> [String] {
    ScanModel(tree: try loadTree(json)).items.map(\.id)
}

/// The error a malformed tree gives, as its one-line description.
func treeError(_ json: String, file: String = "bad.json") -> String? {
    do {
        _ = try TreeDecoder.decode(Array(json.utf8), file: file)
        return nil
    } catch {
        return error.description
    }
}

/// A button leaf: `{"id": id, "label": id, "traits": ["button"], "frame": frame}`.
func button(_ id: String, _ frame: [Double]? = nil) -> String {
    var s = "{\"id\": \"\(id)\", \"label\": \"\(id.capitalized)\", \"traits\": [\"button\"]"
    if let frame { s += ", \"frame\": [\(frame.map { String($0) }.joined(separator: ", "))]" }
    return s + "}"
}

func screenTree(_ children: [String], extra: String = "", rootExtra: String = "") -> String {
    """
    {"screen": {"width": 400, "height": 800}\(extra),
     "root": {"id": "root", "frame": [0, 0, 400, 800]\(rootExtra), "children": [\(children.joined(separator: ",\n"))]}}
    """
}
