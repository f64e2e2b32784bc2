/// Device units → screen points for one axis: `(v − min) / (max − min) × size`, clamped to
/// `[0, size]` (a touchscreen's edge rows report values slightly outside their absinfo range, and
/// a tree's screen may be smaller than the panel).
struct AxisMapping: Sendable {
    let minimum: Double
    let range: Double
    let size: Double

    init(_ info: DeviceDescription.AbsInfo?, size: Double) {
        minimum = Double(info?.minimum ?? 0)
        range = Double(info?.maximum ?? 0) - minimum
        self.size = size.isFinite && size > 0 ? size : 0
    }

    /// A device without a usable range (no absinfo, or max ≤ min) maps everything to 0: there is
    /// no way to tell where on the screen the finger is.
    func map(_ value: Int32) -> Double {
        guard range > 0 else { return 0 }
        let v = (Double(value) - minimum) / range * size
        return min(max(v, 0), size)
    }
}

/// Both axes of a touchscreen.
struct ScreenMapping: Sendable {
    let x: AxisMapping
    let y: AxisMapping

    /// Multitouch positions use `ABS_MT_POSITION_X/Y`'s absinfo, falling back to `ABS_X/Y`;
    /// single-touch the other way round.
    init(device: DeviceDescription, screen: Size, multitouch: Bool) {
        let (mx, my) = (device.absInfo[EventCodes.ABS_MT_POSITION_X], device.absInfo[EventCodes.ABS_MT_POSITION_Y])
        let (sx, sy) = (device.absInfo[EventCodes.ABS_X], device.absInfo[EventCodes.ABS_Y])
        x = AxisMapping(multitouch ? (mx ?? sx) : (sx ?? mx), size: screen.width)
        y = AxisMapping(multitouch ? (my ?? sy) : (sy ?? my), size: screen.height)
    }

    func point(x rx: Int32, y ry: Int32) -> Point { Point(x: x.map(rx), y: y.map(ry)) }
}
