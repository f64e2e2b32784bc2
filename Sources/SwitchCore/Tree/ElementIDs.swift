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
        var walk = IDAssignment(declared: { declared.contains($0) }, keeps: { _ in true }, checksRepeats: true)
        walk.visit(&root)
        return walk.duplicates
    }

    /// The importers' rule: a declared id is kept only where it names one node (`idCounts`, the
    /// number of nodes with each id, is 1); repeated ones are cleared, and every node without
    /// an id gets its path-based id as in `assignIDs(_:)`. One walk: the ids kept are unique, so
    /// none is reported as repeated.
    public static func assignIDs(_ root: inout Element, idCounts: [String: Int]) {
        var walk = IDAssignment(declared: { idCounts[$0] == 1 }, keeps: { idCounts[$0] == 1 }, checksRepeats: false)
        walk.visit(&root)
    }
}

/// The walk that gives ids (a struct: captured variables of nested functions are checked for
/// exclusive access at every use, a tenth of this walk).
private struct IDAssignment {
    /// Whether an id is declared by some node (and kept): path-based ids avoid these.
    let declared: (String) -> Bool
    /// Whether a node keeps its declared id (false: cleared and given a path-based id).
    let keeps: (String) -> Bool
    /// Whether a kept id may repeat an earlier one (then it is reported and replaced).
    let checksRepeats: Bool

    /// The declared ids already kept. Path-based ids need no entry: each node's path is its
    /// own, a `~n` variant belongs to that path alone, and both avoid every declared id, so no
    /// two of them can meet (and a hash insert per node was a third of this walk).
    var used = Set<String>()
    var duplicates: [ElementTree.DuplicateID] = []
    /// The path of the node being visited, as the bytes of its id ("/2/0"), kept as the walk
    /// goes down and up: one string per id made, none per path component.
    var path: [UInt8] = []

    init(declared: @escaping (String) -> Bool, keeps: @escaping (String) -> Bool, checksRepeats: Bool) {
        self.declared = declared
        self.keeps = keeps
        self.checksRepeats = checksRepeats
    }

    func pathID() -> String {
        let base = path.isEmpty ? "/" : String(decoding: path, as: UTF8.self)
        var candidate = base
        var n = 2
        while declared(candidate) {
            candidate = "\(base)~\(n)"
            n += 1
        }
        return candidate
    }

    mutating func visit(_ e: inout Element) {
        if !e.id.isEmpty && !keeps(e.id) { e.id = "" }
        if e.id.isEmpty {
            e.id = pathID()
        } else if checksRepeats && !used.insert(e.id).inserted {
            let assigned = pathID()
            duplicates.append(ElementTree.DuplicateID(declared: e.id, assigned: assigned))
            e.id = assigned
        }
        for k in e.children.indices {
            let length = path.count
            path.append(UInt8(ascii: "/"))
            appendDecimal(k, to: &path)
            visit(&e.children[k])
            path.removeSubrange(length...)
        }
    }
}

/// The decimal digits of `n` (≥ 0) appended as ASCII.
private func appendDecimal(_ n: Int, to bytes: inout [UInt8]) {
    let start = bytes.count
    var n = n
    repeat {
        bytes.append(UInt8(ascii: "0") + UInt8(n % 10))
        n /= 10
    } while n > 0
    bytes[start...].reverse()
}
