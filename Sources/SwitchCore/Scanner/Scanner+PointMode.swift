/// Point scanning (profile `"mode": "point"`, iOS's Point Mode / gliding cursor, ChromeOS's
/// point scan): the scanner's `point` state. Four steps, each a `SweepMotion` bouncing between
/// the edges of its range with a pause at each edge:
///
///   xBand  a vertical band (`bandWidth` wide) crosses the screen at `bandSpeed`
///   xLine  a vertical line crosses the chosen band at `lineSpeed`        → x
///   yBand  a horizontal band (`bandHeight` tall) goes down the screen
///   yLine  a horizontal line crosses that band                          → y
///
/// then the point's menu (`MenuEntry.entries(atPointOn:)`: Tap at the point; when it lies inside
/// a scan item, Snap (activate the item) and the item's actions; Refine; Item Mode; Escape;
/// Close), or with `alwaysTap` a tap at once. Refine r (r = 1, 2, …) sweeps only the two lines,
/// over `bandWidth / 2^r` and `bandHeight / 2^r` centred on the point, at `lineSpeed / 2^r`.
///
///                  select (at the press)          escape                   sweep timer      layout
///   xBand          stop → xLine in the band        perform escape on the    turn, or after   new screen size:
///                                                  scope, new sweep         `loops` legs:    start over,
///                                                                           scan stopped     else go on
///   xLine          stop → x; yBand (yLine when     xBand (refine: start     turn, or back    as above
///                  refining)                       over)                    one step
///   yBand          stop → yLine in the band        xLine in the same band   as above         as above
///   yLine          stop → y: the point, its menu   yBand (refine: xLine)    as above         as above
///   next, previous, menu, resumeScanning, group switches: ignored; stopScanning stops.
///
/// A select applies where the band or line was at the switch's physical press (the engine's
/// press-time snapshot), however long the press is held before it is accepted.
///
/// Timelines (tests in Tests/SwitchCoreTests/Scanner/ScannerPointTests.swift), screen 400 × 800,
/// defaults (band 50 pt/s, line 25 pt/s, band 150 / 120, edge pause 0.25 s):
///
///   point_band_sweeps_and_bounces   sweep x band 0 → 250 in 5 s … (5.25) x band 250 → 0 …
///   point_select_band_line_point    ^select x band stopped, x line …, ^select, y band …, ^select,
///                                   y line …, ^select point (x, y) → item, menu open at (x, y)
///   point_menu_tap / _snap          perform tap at the point · perform activate the item
///   point_refine                    menu:refine → x line over a band half as wide, half speed …
///   point_escape_steps_back         escape: yLine → yBand → xLine → xBand → perform escape
///   point_loops_give_up             after `loops` legs: xLine → xBand, xBand → scan stopped
///   point_press_time                held press: the line stops where it was at the press
///   menu_mode_switch_*              item menu: menu:pointMode → mode point, sweep; point menu:
///                                   menu:itemMode → mode item, highlight first stop
extension Scanner {
    struct PointState: Sendable {
        enum Step: Sendable, Equatable { case xBand, xLine, yBand, yLine }

        var step: Step
        var sweep: SweepMotion
        /// The x band's leading edge, once chosen (escape from yBand sweeps it again).
        var xBand: Double?
        var x: Double?
        var yBand: Double?
        /// 0 for the first pass; r for the r-th Refine.
        var refine: Int
        /// The point a Refine sweeps around.
        var center: Point?
    }

    private var screenWidth: Double { model.screen.width }
    private var screenHeight: Double { model.screen.height }

    /// A fresh point scan: the x band from the leading edge.
    mutating func startSweeps(_ now: Instant, _ out: inout [Output]) {
        let width = min(pointSettings.bandWidth, screenWidth)
        let sweep = SweepMotion(.band, .x, width: width, lo: 0, hi: screenWidth - width,
                                speed: pointSettings.bandSpeed, edgePause: pointSettings.edgePause, start: now)
        begin(PointState(step: .xBand, sweep: sweep, refine: 0), &out)
    }

    /// Refine: the x line over a narrower range around the point, slower.
    mutating func startRefine(_ choice: PointChoice, _ now: Instant, _ out: inout [Output]) {
        let r = choice.refine + 1
        let sweep = refineLine(.x, around: choice.point.x, r, now)
        begin(PointState(step: .xLine, sweep: sweep, refine: r, center: choice.point), &out)
    }

    private func refineLine(_ axis: Sweep.Axis, around c: Double, _ r: Int, _ now: Instant) -> SweepMotion {
        let scale = Double(1 << min(r, 20))
        let span = (axis == .x ? pointSettings.bandWidth : pointSettings.bandHeight) / scale
        let extent = axis == .x ? screenWidth : screenHeight
        let lo = min(max(0, c - span / 2), extent)
        let hi = min(max(lo, c + span / 2), extent)
        return SweepMotion(.line, axis, width: 0, lo: lo, hi: hi, speed: pointSettings.lineSpeed / scale,
                           edgePause: pointSettings.edgePause, start: now)
    }

    private func bandLine(_ axis: Sweep.Axis, from lo: Double, bandWidth: Double, _ now: Instant) -> SweepMotion {
        let extent = axis == .x ? screenWidth : screenHeight
        return SweepMotion(.line, axis, width: 0, lo: lo, hi: min(lo + bandWidth, extent),
                           speed: pointSettings.lineSpeed, edgePause: pointSettings.edgePause, start: now)
    }

    private func yBandSweep(_ now: Instant) -> SweepMotion {
        let height = min(pointSettings.bandHeight, screenHeight)
        return SweepMotion(.band, .y, width: height, lo: 0, hi: screenHeight - height,
                           speed: pointSettings.bandSpeed, edgePause: pointSettings.edgePause, start: now)
    }

    /// Enters a step: its first sweep line.
    private mutating func begin(_ p: PointState, _ out: inout [Output]) {
        context += 1
        out.append(.emit(.sweep(p.sweep.line)))
        state = .point(p)
    }

    mutating func onPoint(_ p: PointState, _ event: Event, _ now: Instant, _ out: inout [Output]) {
        switch event {
        case .start:
            break
        case .action(let action, let target):
            switch action {
            case .select:
                var t = now
                if let target, target.context == context, let at = target.at { t = min(max(at, p.sweep.start), now) }
                stopSweep(p, at: t, now, &out)
            case .escape:
                stepBack(p, now, &out)
            case .stopScanning:
                stop(.switchAction, &out)
            case .next, .previous, .menu, .resumeScanning, .group1, .group2, .group3, .group4, .group5, .group6:
                break
            }
        case .timer(let id):
            guard id == .sweep, now >= p.sweep.turnAt else { return }  // Stale or early.
            var p = p
            if p.sweep.legs + 1 >= loops { return giveUp(p, now, &out) }
            p.sweep.turn(at: now)
            out.append(.emit(.sweep(p.sweep.line)))
            state = .point(p)
        case .layout(let model):
            let old = replaceModel(model)
            if old.model.screen != model.screen {
                guard canScan else { return stop(.noItems, &out) }
                startSweeps(now, &out)
            } else {
                state = .point(p)
            }
        case .speechFinished:
            break  // The sweeps do not wait for speech.
        }
    }

    /// A select: the band or line stops where it was at `t`; the next step begins at `now`.
    private mutating func stopSweep(_ p: PointState, at t: Instant, _ now: Instant, _ out: inout [Output]) {
        let position = p.sweep.position(at: t)
        out.append(.emit(.sweep(Sweep(p.sweep.kind, p.sweep.axis, width: p.sweep.width, .stopped(at: position)))))
        var next = p
        switch p.step {
        case .xBand:
            next.step = .xLine
            next.xBand = position
            next.sweep = bandLine(.x, from: position, bandWidth: p.sweep.width, now)
        case .xLine:
            next.x = position
            if p.refine > 0, let c = p.center {
                next.step = .yLine
                next.sweep = refineLine(.y, around: c.y, p.refine, now)
            } else {
                next.step = .yBand
                next.sweep = yBandSweep(now)
            }
        case .yBand:
            next.step = .yLine
            next.yBand = position
            next.sweep = bandLine(.y, from: position, bandWidth: p.sweep.width, now)
        case .yLine:
            return chosen(Point(x: p.x ?? 0, y: position), refine: p.refine, now, &out)
        }
        begin(next, &out)
    }

    /// The point is fixed: its line, then the menu (or a tap with Always Tap).
    private mutating func chosen(_ point: Point, refine: Int, _ now: Instant, _ out: inout [Output]) {
        let hit = model.hitTest(point)
        let item = hit.map { model.items[$0] }
        out.append(.emit(.point(point, id: item?.id, label: item?.description)))
        let choice = PointChoice(point: point, hit: hit, refine: refine)
        if let perform = drop(at: point) {
            out.append(.emit(.perform(perform)))
            return resume(from: .first, now, &out)
        }
        if tapBehavior == .alwaysTap {
            out.append(.emit(.perform(Perform(.tap, id: item?.id ?? model.scopeID, label: item?.description ?? model.scopeLabel, point: point))))
            return resume(from: .first, now, &out)
        }
        openPointMenu(choice, now, &out)
    }

    private mutating func openPointMenu(_ choice: PointChoice, _ now: Instant, _ out: inout [Output]) {
        showMenu(makeMenu(.point(choice), page: nil, origin: .first), now, &out)
    }

    /// Escape: one step back; from the x band, the escape action on the scope and a new sweep.
    private mutating func stepBack(_ p: PointState, _ now: Instant, _ out: inout [Output]) {
        switch p.step {
        case .xBand:
            if dragging != nil {
                cancelDrag(&out)
            } else {
                out.append(.emit(.perform(Perform(.escape, id: model.scopeID, label: model.scopeLabel))))
            }
            resume(from: .first, now, &out)
        case .xLine:
            startSweeps(now, &out)
        case .yBand:
            guard let band = p.xBand else { return startSweeps(now, &out) }
            var back = p
            back.step = .xLine
            back.x = nil
            back.sweep = bandLine(.x, from: band, bandWidth: min(pointSettings.bandWidth, screenWidth), now)
            begin(back, &out)
        case .yLine:
            var back = p
            if p.refine > 0, let c = p.center {
                back.step = .xLine
                back.x = nil
                back.sweep = refineLine(.x, around: c.x, p.refine, now)
            } else {
                back.step = .yBand
                back.sweep = yBandSweep(now)
            }
            begin(back, &out)
        }
    }

    /// `loops` legs without a select: the first step stops scanning, the others step back.
    private mutating func giveUp(_ p: PointState, _ now: Instant, _ out: inout [Output]) {
        if p.step == .xBand { return stop(.loops, &out) }
        stepBack(p, now, &out)
    }
}
