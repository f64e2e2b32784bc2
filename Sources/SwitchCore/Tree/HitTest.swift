extension ScanModel {
    /// The scan item a touch at `point` activates: among items whose frame contains the point
    /// (half-open `[x, x+w) × [y, y+h)`), the smallest area wins (a button inside a cell beats the
    /// cell); equal areas go to the later item in scan order (drawn on top). Items without a frame
    /// cannot be hit. Nil when no item is there.
    public func hitTest(_ point: Point) -> Int? {
        var best: Int?
        var bestArea = Double.infinity
        for (k, item) in items.enumerated() {
            guard let f = item.element.frame, f.contains(point) else { continue }
            let area = f.area
            if area <= bestArea {
                best = k
                bestArea = area
            }
        }
        return best
    }
}
