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
    /// Each line is built in one buffer (a large dump has 50,000 of them).
    public static func text(_ model: ScanModel) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(model.items.count + 1)
        lines.append("\(model.items.count) scan items, \(model.groups.count) groups, screen \(formatNumber(model.screen.width))×\(formatNumber(model.screen.height))")
        let width = String(model.items.count).utf8.count
        var idWidth = 0
        for item in model.items where idWidth < 24 { idWidth = min(24, max(idWidth, item.id.count)) }
        for k in model.items.indices {
            let item = model.items[k]
            let element = item.element
            let n = String(k + 1)
            var line = ""
            line.reserveCapacity(128)
            for _ in n.utf8.count..<max(n.utf8.count, width) { line.append(" ") }
            line.append(n)
            line.append("  ")
            let id = TranscriptFormat.escaped(element.id)
            line.append(id)
            for _ in 0..<max(1, idWidth - id.count + 1) { line.append(" ") }
            line.append(" ")
            line.append(TranscriptFormat.quoted(ElementDescription.spoken(element)))
            line.append("  ")
            line.append(element.frame?.description ?? "(no frame)")
            if let group = item.group {
                line.append("  group ")
                let path = item.links.groupPath(from: group)
                for (j, g) in path.enumerated() {
                    if j > 0 { line.append(" › ") }
                    line.append(model.groups[g].id)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
