import SwitchCore
import SwitchDisplay

/// Where the overlay draws, as pure functions of frames and the screen (tested without X).
///
/// The cursor is a ring just outside the stop's frame, so the stop itself stays visible:
///
///     ┌──────────────┐  ← outer edge: the frame grown by the ring's thickness t
///     │ ┌──────────┐ │
///     │ │  frame   │ │    item: four solid strips
///     │ └──────────┘ │    group: dashes of 3t with gaps of 2t, a dash at every corner
///     └──────────────┘    the group's escape stop: the group's dashed ring plus a tab
///                         saying "Exit group" above its top-left corner (inside when no room)
///
/// Where the frame touches the screen's edge the ring is clipped to the screen and moves inward
/// (over the stop's outermost pixels) instead of disappearing.
public enum RingStyle: Equatable, Sendable {
    case solid
    case dashed
}

public enum OverlayGeometry {
    /// The ring's thickness: iOS's cursor, and Large Cursor.
    public static func thickness(large: Bool) -> Int { large ? 10 : 4 }

    /// The window that carries the ring (screen coordinates): the frame grown by `t`, clipped to
    /// the screen; nil when nothing of it is on the screen.
    public static func ringBounds(frame: PixelRect, thickness t: Int, screen: PixelRect) -> PixelRect? {
        let outer = frame.insetBy(-t).intersection(screen)
        return outer.width > 2 * t && outer.height > 2 * t ? outer : nil
    }

    /// The ring's pieces, relative to its window of `size` (the SHAPE extension's bounding
    /// rectangles).
    public static func ring(width w: Int, height h: Int, thickness t: Int, style: RingStyle) -> [PixelRect] {
        switch style {
        case .solid:
            return [PixelRect(x: 0, y: 0, width: w, height: t), PixelRect(x: 0, y: h - t, width: w, height: t),
                    PixelRect(x: 0, y: t, width: t, height: h - 2 * t), PixelRect(x: w - t, y: t, width: t, height: h - 2 * t)]
        case .dashed:
            var rects: [PixelRect] = []
            for (start, length) in dashes(length: w, thickness: t) {
                rects.append(PixelRect(x: start, y: 0, width: length, height: t))
                rects.append(PixelRect(x: start, y: h - t, width: length, height: t))
            }
            for (start, length) in dashes(length: h, thickness: t) {
                rects.append(PixelRect(x: 0, y: start, width: t, height: length))
                rects.append(PixelRect(x: w - t, y: start, width: t, height: length))
            }
            return rects
        }
    }

    /// Dashes along one side of `length`: 3t on, 2t off, starting and ending with a dash (the
    /// corners are always drawn); the gaps stretch a little so the last dash ends at the corner.
    static func dashes(length: Int, thickness t: Int) -> [(start: Int, length: Int)] {
        let dash = 3 * t, gap = 2 * t
        guard length > 2 * dash + gap else { return [(0, length)] }
        let count = (length - dash) / (dash + gap) + 1            // dashes that fit at the nominal gap
        let spare = length - count * dash                          // what the gaps share
        var result: [(Int, Int)] = []
        for k in 0..<count {
            let start = k * dash + spare * k / (count - 1)
            result.append((start, dash))
        }
        return result
    }

    /// Where a panel of `size` goes next to the item's `frame` (kept inside `screen`): to the
    /// right of the ring, else to its left, else below, else above; aligned with the item's top
    /// (or left); clamped to the screen.
    public static func panelOrigin(item frame: PixelRect?, panelWidth pw: Int, panelHeight ph: Int, thickness t: Int,
                                   screen: PixelRect) -> (x: Int, y: Int) {
        let gap = t + 6
        func clamp(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
            (min(max(screen.x, x), max(screen.x, screen.maxX - pw)), min(max(screen.y, y), max(screen.y, screen.maxY - ph)))
        }
        guard let f = frame else { return clamp(screen.x + (screen.width - pw) / 2, screen.y + (screen.height - ph) / 2) }
        if f.maxX + gap + pw <= screen.maxX { return clamp(f.maxX + gap, f.y) }
        if f.x - gap - pw >= screen.x { return clamp(f.x - gap - pw, f.y) }
        if f.maxY + gap + ph <= screen.maxY { return clamp(f.x, f.maxY + gap) }
        if f.y - gap - ph >= screen.y { return clamp(f.x, f.y - gap - ph) }
        return clamp(f.maxX + gap, f.y)
    }

    /// Where the escape stop's tab goes: above the ring's top-left corner, or just inside the ring
    /// when it touches the top of the screen.
    public static func exitTabOrigin(ring: PixelRect, tabHeight: Int, thickness t: Int, screen: PixelRect) -> (x: Int, y: Int) {
        let above = ring.y - tabHeight
        return (ring.x, above >= screen.y ? above : ring.y + t)
    }
}
