import HeapModule

/// Deadlines of the engine's state machines, earliest first. Machines ask for timers with
/// "set timer K at T" / "cancel timer K" actions; setting K again replaces its deadline. Timers
/// due at the same instant fire in the order they were set, so a run is reproducible.
public struct TimerQueue<Key: Hashable & Sendable>: Sendable {
    private struct Entry: Comparable, Sendable {
        var deadline: Instant
        var sequence: UInt64
        var key: Key
        static func < (a: Entry, b: Entry) -> Bool {
            a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
        }
        static func == (a: Entry, b: Entry) -> Bool { a.deadline == b.deadline && a.sequence == b.sequence }
    }

    private var heap = Heap<Entry>()
    /// The live sequence number of each pending key; heap entries with another number are stale.
    private var live: [Key: UInt64] = [:]
    private var nextSequence: UInt64 = 0

    public init() {}

    public mutating func set(_ key: Key, at deadline: Instant) {
        nextSequence += 1
        live[key] = nextSequence
        heap.insert(Entry(deadline: deadline, sequence: nextSequence, key: key))
    }

    public mutating func cancel(_ key: Key) {
        live[key] = nil
    }

    public var isEmpty: Bool { live.isEmpty }
    public var count: Int { live.count }
    public func isPending(_ key: Key) -> Bool { live[key] != nil }

    public mutating func nextDeadline() -> Instant? {
        dropStale()
        return heap.min?.deadline
    }

    /// Removes and returns the earliest timer if it is due at or before `t`.
    public mutating func popDue(atOrBefore t: Instant) -> (key: Key, deadline: Instant)? {
        dropStale()
        guard let top = heap.min, top.deadline <= t else { return nil }
        _ = heap.removeMin()
        live[top.key] = nil
        return (top.key, top.deadline)
    }

    private mutating func dropStale() {
        while let top = heap.min, live[top.key] != top.sequence { _ = heap.removeMin() }
    }
}
