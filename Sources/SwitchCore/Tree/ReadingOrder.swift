/// The order assistive technology reads a container's children in (REFERENCE §1): by frame, in
/// rows from top to bottom, each row from the leading to the trailing edge (mirrored for
/// right-to-left); children without a frame follow their framed siblings in declared order.
///
/// A row is built greedily from the frames sorted by top edge: a frame joins the current row when
/// its vertical extent overlaps that of every frame already in the row by at least half the
/// smaller of the two heights (a zero-height frame joins when it lies within the other's extent).
/// Comparing with every member, not just the first, keeps a tall frame (a full-screen backdrop, a
/// sidebar) from pulling everything beside it into one row.
public enum ReadingOrder {
    /// Indices into `frames`, in reading order.
    public static func order(_ frames: [Rect?], direction: ElementTree.LayoutDirection) -> [Int] {
        var framed: [Int] = []
        var unframed: [Int] = []
        for (k, f) in frames.enumerated() {
            if f != nil { framed.append(k) } else { unframed.append(k) }
        }
        if framed.count <= 1 { return framed + unframed }

        // Sort by top edge, then leading edge, then declared position (stable and total).
        let rtl = direction == .rightToLeft
        func leading(_ r: Rect) -> Double { rtl ? -r.maxX : r.minX }
        framed.sort { a, b in
            let fa = frames[a]!, fb = frames[b]!
            if fa.minY != fb.minY { return fa.minY < fb.minY }
            if leading(fa) != leading(fb) { return leading(fa) < leading(fb) }
            return a < b
        }

        var result: [Int] = []
        result.reserveCapacity(frames.count)
        var row: [Int] = []
        func flush() {
            row.sort { a, b in
                let fa = frames[a]!, fb = frames[b]!
                if leading(fa) != leading(fb) { return leading(fa) < leading(fb) }
                if fa.minY != fb.minY { return fa.minY < fb.minY }
                return a < b
            }
            result.append(contentsOf: row)
            row.removeAll(keepingCapacity: true)
        }
        for k in framed {
            let f = frames[k]!
            if !row.isEmpty && !row.allSatisfy({ sameRow(frames[$0]!, f) }) { flush() }
            row.append(k)
        }
        flush()
        return result + unframed
    }

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
}
