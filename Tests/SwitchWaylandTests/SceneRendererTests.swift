import SwitchDisplay
import SwitchDisplayServers
import Testing

/// The cairo renderer offscreen (real cairo and Pango, no compositor): where each primitive puts
/// its pixels, at scale 1 and 2.
struct SceneRendererTests {
    /// ARGB32 pixels (premultiplied, native order: 0xAARRGGBB as a UInt32).
    struct Canvas {
        let width: Int, height: Int
        var pixels: [UInt32]

        init(_ renderer: SceneRenderer, _ scene: OverlayScene, width: Int, height: Int, originX: Int = 0, originY: Int = 0, scale: Int = 1) {
            self.width = width
            self.height = height
            pixels = [UInt32](repeating: 0, count: width * height)
            pixels.withUnsafeMutableBytes { raw in
                renderer.renderForTesting(scene, into: raw.baseAddress!, width: width, height: height, originX: originX, originY: originY, scale: scale)
            }
        }

        subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

        /// The bounding box of the pixels that are not transparent.
        var inkBox: (x: Int, y: Int, width: Int, height: Int)? {
            var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
            for y in 0..<height { for x in 0..<width where self[x, y] != 0 { x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y) } }
            return x1 < 0 ? nil : (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
        }
    }

    let renderer = SceneRenderer()
    static let blue = SceneColor(hex: "#0072B2")!

    /// A stroke of 4 inside (10, 20, 100, 40): exactly the 4-pixel band along the inside of the
    /// border is the colour, opaque; inside and outside untouched. At scale 2 the band is 8.
    @Test(arguments: [1, 2])
    func ringIsDrawnInsideTheRectOnWholePixels(scale: Int) {
        let scene = OverlayScene(shapes: [.rect(.init(x: 10, y: 20, w: 100, h: 40, stroke: Self.blue, lineWidth: 4))])
        let c = Canvas(renderer, scene, width: 130 * scale, height: 70 * scale, scale: scale)
        var band = 0, clear = 0
        for y in 0..<c.height {
            for x in 0..<c.width {
                let inRect = x >= 10 * scale && x < 110 * scale && y >= 20 * scale && y < 60 * scale
                let inHole = x >= 14 * scale && x < 106 * scale && y >= 24 * scale && y < 56 * scale
                if inRect && !inHole {
                    #expect(c[x, y] == 0xFF00_72B2, "(\(x), \(y))")
                    band += 1
                } else {
                    #expect(c[x, y] == 0, "(\(x), \(y))")
                    clear += 1
                }
            }
        }
        #expect(band == (100 * 40 - 92 * 32) * scale * scale)
        #expect(band + clear == c.width * c.height)
    }

    /// The part of the desktop an output shows: a rect across two outputs is split at the border.
    @Test func anOutputDrawsItsOwnPartOfTheDesktop() {
        let scene = OverlayScene(shapes: [.rect(.init(x: 1270, y: 10, w: 20, h: 10, fill: Self.blue))])
        let left = Canvas(renderer, scene, width: 1280, height: 40)
        let right = Canvas(renderer, scene, width: 512, height: 40, originX: 1280, scale: 2)
        #expect(left.inkBox! == (1270, 10, 10, 10))
        #expect(right.inkBox! == (0, 20, 20, 20))
    }

    /// Dashes of [8, 4] along a stroke start at the top-left corner.
    @Test func dashesStartAtTheTopLeftCorner() {
        let scene = OverlayScene(shapes: [.rect(.init(x: 0, y: 0, w: 100, h: 40, stroke: Self.blue, lineWidth: 2, dash: [8, 4]))])
        let c = Canvas(renderer, scene, width: 100, height: 40)
        // Along the top edge (y = 0, the path at y = 1 from x = 1): on 1 ..< 9, off 9 ..< 13, on 13 ..< 21.
        #expect((1..<9).allSatisfy { c[$0, 0] == 0xFF00_72B2 })
        #expect((9..<13).allSatisfy { c[$0, 0] == 0 })
        #expect((13..<21).allSatisfy { c[$0, 0] == 0xFF00_72B2 })
    }

    /// Text in DejaVu Sans at 15 px: its ink inside the measured box; at scale 2 the same box,
    /// twice as large (unhinted metrics), so a panel placed by measure fits at every scale.
    @Test func textInkStaysInItsMeasuredBoxAtEveryScale() throws {
        let size = renderer.textSize("Exit group", size: 15)
        #expect(size.width > 60 && size.width < 90, "\(size)")
        #expect(size.height >= 17 && size.height <= 19, "\(size)")
        for scale in [1, 2] {
            let scene = OverlayScene(shapes: [.text(.init(x: 10, y: 5, text: "Exit group", size: 15, color: SceneColor(hex: "#000000")!))])
            let c = Canvas(renderer, scene, width: 120 * scale, height: 30 * scale, scale: scale)
            let ink = try #require(c.inkBox)
            #expect(ink.x >= 10 * scale && ink.y >= 5 * scale, "\(ink) at scale \(scale)")
            #expect(ink.x + ink.width <= (10 + size.width) * scale && ink.y + ink.height <= (5 + size.height) * scale, "\(ink) at scale \(scale)")
        }
        let wide = renderer.textSize("Exit group Exit group", size: 15)
        #expect(wide.width > size.width * 2 - 2 && wide.width <= size.width * 2 + 6, "\(wide) vs \(size)")
        #expect(renderer.textSize("Exit group", size: 30).width >= size.width * 2 - 2)
    }

    /// A quarter pie: the sector from 12 to 3 o'clock filled, the rest of the disc not; the
    /// outline of width 2 inside the circle.
    @Test func pieFillsClockwiseFromTwelve() {
        let scene = OverlayScene(shapes: [.pie(.init(cx: 50, cy: 50, r: 30, fraction: 0.25, fill: Self.blue,
                                                     stroke: SceneColor(hex: "#FFFFFF"), lineWidth: 2))])
        let c = Canvas(renderer, scene, width: 100, height: 100)
        #expect(c[60, 40] == 0xFF00_72B2)   // upper right: filled
        #expect(c[40, 40] == 0)             // upper left: empty
        #expect(c[60, 60] == 0)             // lower right: empty
        #expect(c[50, 21] == 0xFFFF_FFFF)   // the outline at 12 o'clock, inside r
        #expect(c[50, 19] == 0)             // outside the circle
        #expect(c[78, 50] == 0xFFFF_FFFF && c[21, 50] == 0xFFFF_FFFF && c[50, 78] == 0xFFFF_FFFF)
    }

    /// A translucent fill is premultiplied (what wl_shm's ARGB8888 means).
    @Test func translucentFillIsPremultiplied() {
        let scene = OverlayScene(shapes: [.rect(.init(x: 0, y: 0, w: 4, h: 4, fill: SceneColor(hex: "#FFFFFF80")))])
        let c = Canvas(renderer, scene, width: 4, height: 4)
        #expect(c[1, 1] == 0x8080_8080)
    }
}
