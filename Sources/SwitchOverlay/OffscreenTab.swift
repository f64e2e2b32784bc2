import SwitchCore
import SwitchDisplay

/// The tab for a part of a web page that is out of view (issue 19): when such a group is
/// highlighted, a tab at the viewport's edge says which part it is and which way it lies, since
/// there is nothing on the screen to draw the ring around.
///
///     ┌──────────────────────────────┐ ← the viewport's top edge
///     │ ▲ Section 3 │                     a group above the viewport: the tab hangs from the top
///     │             page             │
///     │ ▼ Section 12 │                    a group below: the tab stands on the bottom edge
///     └──────────────────────────────┘
///
/// The live desktop gives such a group a frame of no height along the viewport's edge
/// (`AtspiMapping.frame`); which way it lies comes from scan order (a page is scanned in
/// document order): before the items on screen, it is above them, else below.
public enum OffscreenTab {
    public enum Direction: Equatable, Sendable {
        case above, below
    }

    /// Whether group `g` is a part out of view (a frame of no height), and which way it lies.
    public static func direction(ofGroup g: Int, in model: ScanModel) -> Direction? {
        guard let f = model.groups[g].frame, f.height == 0 else { return nil }
        let range = model.groups[g].items
        // The first item that has a frame (on screen) after the group's: the group comes before.
        if let shown = model.items.firstIndex(where: { $0.element.frame != nil }), shown >= range.upperBound { return .above }
        return .below
    }

    /// What the tab says.
    public static func text(_ direction: Direction, label: String?) -> String {
        (direction == .above ? "▲ " : "▼ ") + ((label?.isEmpty ?? true) ? "Out of view" : label!)
    }

    /// Where a tab of `size` goes for an edge line `edge` (a frame of no height): inside the
    /// viewport, from the line's left end, kept on the screen.
    public static func origin(edge: PixelRect, direction: Direction, tabWidth: Int, tabHeight: Int, screen: PixelRect) -> (x: Int, y: Int) {
        let x = min(max(screen.x, edge.x + 8), max(screen.x, screen.maxX - tabWidth))
        let y = direction == .above ? edge.y : edge.y - tabHeight
        return (x, min(max(screen.y, y), max(screen.y, screen.maxY - tabHeight)))
    }
}
