extension ElementTree {
    /// Makes every id unique and non-empty, in document order: the first element with a given id
    /// keeps it; an element without an id, or repeating an earlier one, gets a stable path-based
    /// id (`/` for the root, `/2/0` for the first child of the root's third child). Returns the
    /// repeated ids so `tree audit` can report them. Importers use this too.
    public static func assignIDs(_ root: inout Element) -> [DuplicateID] {
        var declared = Set<String>()
        func collect(_ e: Element) {
            if !e.id.isEmpty { declared.insert(e.id) }
            for c in e.children { collect(c) }
        }
        collect(root)

        var used = Set<String>()
        var duplicates: [DuplicateID] = []
        func pathID(_ path: [Int]) -> String {
            let base = path.isEmpty ? "/" : path.map { "/\($0)" }.joined()
            var candidate = base
            var n = 2
            while used.contains(candidate) || declared.contains(candidate) {
                candidate = "\(base)~\(n)"
                n += 1
            }
            return candidate
        }
        var path: [Int] = []
        func visit(_ e: inout Element) {
            if e.id.isEmpty {
                e.id = pathID(path)
            } else if used.contains(e.id) {
                let assigned = pathID(path)
                duplicates.append(DuplicateID(declared: e.id, assigned: assigned))
                e.id = assigned
            }
            used.insert(e.id)
            for k in e.children.indices {
                path.append(k)
                visit(&e.children[k])
                path.removeLast()
            }
        }
        visit(&root)
        return duplicates
    }
}
