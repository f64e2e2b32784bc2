/// `tree show`: the scan order as text for people and as JSON for tools.
public enum TreeReport {
    /// `{"screen": …, "items": [{"index", "id", "description", "frame", "groupPath"}…], "groups": [{"id", "items"}…]}`
    public static func json(_ model: ScanModel) -> JSONOut {
        let items: [JSONOut] = model.items.enumerated().map { k, item in
            var m: [(String, JSONOut)] = [
                ("index", .number(Double(k + 1))), ("id", .string(item.id)), ("description", .string(item.description)),
                ("frame", item.element.frame.map(\.json) ?? .null),
                ("groupPath", .array(item.groupPath.map { .string(model.groups[$0].id) })),
            ]
            if !item.element.customActions.isEmpty { m.append(("customActions", .array(item.element.customActions.map { .string($0) }))) }
            return .object(m)
        }
        let groups: [JSONOut] = model.groups.map { g in
            .object([("id", .string(g.id)), ("items", .array(g.items.map { .string(model.items[$0].id) }))])
        }
        return .object([
            ("screen", .object([("width", .number(model.screen.width)), ("height", .number(model.screen.height))])),
            ("items", .array(items)),
            ("groups", .array(groups)),
        ])
    }

    /// One line per scan item: `  3  add  "Add, button, Adds a city."  [338, 55, 36, 36]  navBar`.
    public static func text(_ model: ScanModel) -> [String] {
        var lines: [String] = []
        lines.append("\(model.items.count) scan items, \(model.groups.count) groups, screen \(formatNumber(model.screen.width))×\(formatNumber(model.screen.height))")
        let width = String(model.items.count).count
        let idWidth = min(24, model.items.map(\.id.count).max() ?? 0)
        for (k, item) in model.items.enumerated() {
            let n = String(k + 1)
            var line = String(repeating: " ", count: width - n.count) + n + "  "
            let id = TranscriptFormat.escaped(item.id)
            line += id + String(repeating: " ", count: max(1, idWidth - id.count + 1)) + " "
            line += TranscriptFormat.quoted(item.description)
            line += "  " + (item.element.frame?.description ?? "(no frame)")
            if !item.groupPath.isEmpty { line += "  group " + item.groupPath.map { model.groups[$0].id }.joined(separator: " › ") }
            lines.append(line)
        }
        return lines
    }
}
