import HeapModule

/// The order assistive technology reads a container's children in (REFERENCE §1): by frame, in
/// rows from top to bottom, each row from the leading to the trailing edge (mirrored for
/// right-to-left); children without a frame follow their framed siblings in declared order.
///
/// A row is built greedily from the frames sorted by top edge: a frame joins the current row when
/// its vertical extent overlaps that of every frame already in the row by at least half the
/// smaller of the two heights (a zero-height frame joins when it lies within the other's extent).
/// Comparing with every member, not just the first, keeps a tall frame (a full-screen backdrop, a
/// sidebar) from pulling everything beside it into one row.
///
/// Cost: O(n log n). Testing a frame against every member one by one made a long row quadratic
/// (500,000 buttons in one row took 53 s); `RowTest` answers "does every member accept this
/// frame?" from a few running minima and a heap, with the same floating-point arithmetic as the
/// pairwise test (`sameRow`), so the rows are exactly the same (`ReadingOrderEquivalenceTests`
/// compares with the pairwise algorithm, kept in the tests).
///
/// Frames are expected as the readers make them: finite x and y, width and height ≥ 0. A frame
/// outside that domain (a NaN, an infinite x or y, a negative size: only code can build one) is
/// read as no frame: it follows its framed siblings in declared order.
public enum ReadingOrder {
    /// Indices into `frames`, in reading order.
    public static func order(_ frames: [Rect?], direction: ElementTree.LayoutDirection) -> [Int] {
        // The sort keys sit next to the index they sort (no lookups while sorting).
        let rtl = direction == .rightToLeft
        var framed: [Entry] = []
        var unframed: [Int] = []
        framed.reserveCapacity(frames.count)
        for (k, f) in frames.enumerated() {
            if let f, isOrderable(f) {
                framed.append(Entry(top: f.minY, leading: rtl ? -f.maxX : f.minX, index: k))
            } else {
                unframed.append(k)
            }
        }
        if framed.count <= 1 { return framed.map(\.index) + unframed }

        // Sort by top edge, then leading edge, then declared position (stable and total).
        // Columns and lists often come sorted already: a check is cheaper than a sort.
        if !isSorted(framed[...], by: Entry.byTop) { framed.sort(by: Entry.byTop) }

        var result: [Int] = []
        result.reserveCapacity(frames.count)
        var rowStart = 0
        var test = RowTest()
        func flush(upTo end: Int) {
            let row = framed[rowStart..<end]
            if row.count == 1 || isSorted(row, by: Entry.byLeading) {
                for e in row { result.append(e.index) }
            } else {
                for e in row.sorted(by: Entry.byLeading) { result.append(e.index) }
            }
        }
        for position in framed.indices {
            let f = frames[framed[position].index]!
            if position > rowStart && !test.accepts(f) {
                flush(upTo: position)
                rowStart = position
                test = RowTest()
            }
            test.add(f)
        }
        flush(upTo: framed.count)
        return result + unframed
    }

    static func isSorted(_ s: ArraySlice<Entry>, by less: (Entry, Entry) -> Bool) -> Bool {
        var k = s.startIndex + 1
        while k < s.endIndex {
            if less(s[k], s[k - 1]) { return false }
            k += 1
        }
        return true
    }

    /// Finite x and y, width and height ≥ 0: what every reader produces. A size may be infinite:
    /// a container's extent (a union) is, when a bottom edge overflows.
    static func isOrderable(_ r: Rect) -> Bool {
        r.x.isFinite && r.y.isFinite && r.width >= 0 && r.height >= 0
    }

    /// A framed child: its top and leading edges (−maxX for right-to-left) and its position.
    struct Entry {
        var top: Double
        var leading: Double
        var index: Int

        @inline(__always) static func byTop(_ a: Entry, _ b: Entry) -> Bool {
            if a.top != b.top { return a.top < b.top }
            if a.leading != b.leading { return a.leading < b.leading }
            return a.index < b.index
        }

        @inline(__always) static func byLeading(_ a: Entry, _ b: Entry) -> Bool {
            if a.leading != b.leading { return a.leading < b.leading }
            if a.top != b.top { return a.top < b.top }
            return a.index < b.index
        }
    }

    /// Whether two frames are in one row: their vertical extents overlap by at least half the
    /// smaller height; a zero-height frame is in the row when it lies within the other's extent.
    /// The definition `RowTest` answers for a whole row at once.
    static func sameRow(_ a: Rect, _ b: Rect) -> Bool {
        let smaller = min(a.height, b.height)
        if smaller == 0 {
            // A line or a point: in the row when it lies within the other's vertical extent.
            let (flat, other) = a.height == 0 ? (a, b) : (b, a)
            return flat.minY >= other.minY && flat.minY <= other.maxY
        }
        let overlap = min(a.maxY, b.maxY) - max(a.minY, b.minY)
        return overlap > 0 && overlap >= smaller / 2
    }

    /// "Does `sameRow(member, f)` hold for every member of the row?" in O(log n) amortised, for
    /// frames `f` arriving in order of top edge (every member's top ≤ f's top).
    ///
    /// With `y` = f's top, `A` = a member's bottom (`maxY`, computed as `sameRow` computes it) and
    /// `h` = heights, `sameRow(a, f)` fails exactly when:
    /// - a has height 0: a's top ≠ y (it must lie on f's top edge, as a's top ≤ y);
    /// - f has height 0 (a does not): A < y;
    /// - both have height > 0: the overlap is `fl(min(A, F) − y)` = `min(OA, OF)` with
    ///   `OA = fl(A − y)`, `OF = fl(F − y)` (rounding is monotonic), and it fails when
    ///   `OF ≤ 0`, or `OA ≤ 0` (that is `A ≤ y`), or `OF < h_a/2 ∧ OF < h_f/2`, or
    ///   `OA < h_a/2 ∧ OA < h_f/2`.
    /// Each term but the last is a comparison with one running extreme (the least top of the flat
    /// members, the least bottom, the greatest height). In the last one `OA < h_a/2` depends on
    /// the member and on y alone, and only becomes true as y grows: from the member's
    /// `activation`, the least double y for which it holds (computed exactly, below). Members wait
    /// in a heap by activation; once active, `OA < h_f/2` holds for some of them exactly when it
    /// holds for the one with the least bottom, since OA grows with A.
    struct RowTest {
        /// Least top edge of the zero-height members (they all must equal the next frame's top).
        var flatTop = Double.infinity
        var hasTall = false
        /// Least bottom edge and greatest height of the members with height > 0.
        var leastBottom = Double.infinity
        var greatestHeight = 0.0
        /// Members with height > 0 whose `OA < h_a/2` is not yet true, by activation.
        var waiting = Heap<Waiting>()
        /// Least bottom edge of the members whose `OA < h_a/2` is true.
        var activeLeastBottom = Double.infinity

        struct Waiting: Comparable {
            var activation: Double
            var bottom: Double
            static func < (l: Waiting, r: Waiting) -> Bool { l.activation < r.activation }
        }

        mutating func add(_ f: Rect) {
            if f.height == 0 {
                flatTop = min(flatTop, f.minY)
                return
            }
            hasTall = true
            let bottom = f.maxY
            leastBottom = min(leastBottom, bottom)
            greatestHeight = max(greatestHeight, f.height)
            waiting.insert(Waiting(activation: RowTest.activation(bottom: bottom, halfHeight: f.height / 2), bottom: bottom))
        }

        mutating func accepts(_ f: Rect) -> Bool {
            let y = f.minY
            if flatTop < y { return false }
            guard hasTall else { return true }
            if f.height == 0 { return leastBottom >= y }
            if leastBottom <= y { return false }
            let fullOverlap = f.maxY - y
            let half = f.height / 2
            if fullOverlap <= 0 { return false }
            // Rounding would have to lose more than half of f's height for this to hold (no double
            // found does it); it is part of the exact test, so it stays.
            if fullOverlap < half && fullOverlap < greatestHeight / 2 { return false }
            while let next = waiting.min, next.activation <= y {
                activeLeastBottom = min(activeLeastBottom, next.bottom)
                _ = waiting.removeMin()
            }
            if activeLeastBottom != .infinity && activeLeastBottom - y < half { return false }
            return true
        }

        /// The least double y with `fl(bottom − y) < halfHeight` (+∞ when no finite y has it).
        /// The predicate only turns from false to true as y grows. `bottom − halfHeight` is at or
        /// next to the answer whenever the subtraction near it is exact or nearly so; otherwise
        /// a binary search over the doubles (ordered by their bit patterns) finds it.
        static func activation(bottom: Double, halfHeight: Double) -> Double {
            func holds(_ y: Double) -> Bool { bottom - y < halfHeight }
            if !bottom.isFinite { return .infinity }
            let guess = bottom - halfHeight
            if guess.isFinite {
                if holds(guess) && !holds(guess.nextDown) { return guess }
                if !holds(guess) && holds(guess.nextUp) { return guess.nextUp }
            }
            if !holds(Double.greatestFiniteMagnitude) { return .infinity }
            if holds(-Double.greatestFiniteMagnitude) { return -.infinity }
            // Invariant: !holds(low), holds(high).
            var low = orderedBits(-Double.greatestFiniteMagnitude)
            var high = orderedBits(Double.greatestFiniteMagnitude)
            while high - low > 1 {
                let mid = low + (high - low) / 2
                if holds(double(orderedBits: mid)) { high = mid } else { low = mid }
            }
            return double(orderedBits: high)
        }

        /// Doubles (not NaN) as unsigned integers in the same order (−0 just below +0).
        static func orderedBits(_ d: Double) -> UInt64 {
            let b = d.bitPattern
            return b >> 63 == 0 ? b | (1 << 63) : ~b
        }

        static func double(orderedBits o: UInt64) -> Double {
            Double(bitPattern: o >> 63 == 1 ? o & ~(1 << 63) : ~o)
        }
    }
}
