import CX11
import Glibc
import SwitchCore
import SwitchDisplayServers
import SwitchOverlay

/// Highlight-to-overlay-moved latency (scripts/presence/bench-overlay.sh runs it under Xvfb):
/// from the moment a highlight line reaches the overlay adapter until a second X client sees the
/// ring's ConfigureNotify, i.e. the X server has moved it. N highlights over a grid of items of
/// different sizes, each on another item than the last.
func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// A line to stdout at once (a pipe would buffer print until exit).
func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 500 : 500
var children: [Element] = []
for k in 0..<24 {
    children.append(Element(id: "b\(k)", label: "B\(k)", traits: .button,
                            frame: Rect(x: Double(40 + (k % 6) * 120), y: Double(40 + (k / 6) * 120), width: Double(60 + k % 5 * 10), height: 40)))
}
let model = ScanModel(tree: ElementTree(screen: Size(width: 800, height: 600),
                                        root: Element(id: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600), children: children)))
let overlay: Overlay
do { overlay = try Overlay(settings: .init(), surface: X11OverlaySurface()) } catch { say("\(error)"); exit(2) }
guard let watcher = XOpenDisplay(nil) else { say("no display"); exit(2) }
XSelectInput(watcher, cx11_root_window(watcher, cx11_default_screen(watcher)), SubstructureNotifyMask)
XSync(watcher, 0)

var latencies: [Int64] = []
for i in 0..<(count + 20) {
    let k = (i * 7) % 24
    let f = model.items[k].element.frame!
    let t0 = now()
    _ = overlay.observe(TranscriptLine(t: .zero, .highlight(id: "b\(k)", kind: .item, label: model.items[k].description)), model: model)
    var e = XEvent()
    while true {
        XNextEvent(watcher, &e)
        if e.type == ConfigureNotify && e.xconfigure.x == Int32(f.x) - 4 && e.xconfigure.y == Int32(f.y) - 4 { break }
    }
    if i >= 20 { latencies.append(now() - t0) }  // the first 20 warm up
}
latencies.sort()
let sorted = latencies
@MainActor func pct(_ p: Double) -> Double { Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000 }
say(String(format: "overlay moved: %d highlights, p50 %.3f ms, p99 %.3f ms, max %.3f ms", latencies.count, pct(0.5), pct(0.99),
             Double(latencies.last!) / 1000))

/// Point scanning: a band sweeping across the screen is redrawn by the overlay itself between
/// sweep lines, at each whole pixel (50 pt/s, the default band speed: 50 moves a second; 400 pt/s:
/// capped at 60 a second). Driven as the live loop does: sleep until the overlay's deadline,
/// dispatch, and time from the deadline until the X server has carried out the move (XSync).
@MainActor func sweepLatencies(speed: Double, frames: Int) -> (latencies: [Int64], rate: Double) {
    let start = now()
    overlay.engineStarted(atMonotonic: start)
    let width = 150.0, span = 800.0 - width
    _ = overlay.observe(TranscriptLine(t: .zero, .scan(started: true)), model: model)
    var legStart = Instant.zero
    var from = 0.0, to = span
    func leg() {
        _ = overlay.observe(TranscriptLine(t: legStart, .sweep(Sweep(.band, .x, width: width,
            .moving(from: from, to: to, duration: .seconds(abs(to - from) / speed))))), model: model)
    }
    leg()
    var out: [Int64] = []
    var missed = 0
    var e = XEvent()
    while XPending(watcher) > 0 { XNextEvent(watcher, &e) }
    let first = now()
    while out.count < frames && missed < 20 {
        guard let deadline = overlay.prepare(nowMonotonic: now()).deadline else {
            // The leg ended: the next one back, as the engine's sweep timer would write it.
            legStart = Instant(microseconds: now() - start)
            (from, to) = (to, from)
            leg()
            while XPending(watcher) > 0 { XNextEvent(watcher, &e) }
            continue
        }
        var ts = timespec(tv_sec: Int(deadline / 1_000_000), tv_nsec: Int(deadline % 1_000_000) * 1000)
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
        _ = overlay.dispatch(ready: [], nowMonotonic: now())
        overlay.sync()  // XSync: the server has carried out the move
        out.append(now() - deadline)
    }
    let rate = Double(out.count) / (Double(now() - first) / 1_000_000)
    _ = overlay.observe(TranscriptLine(t: Instant(microseconds: now() - start), .scan(started: false)), model: model)
    if missed > 0 { say("\(missed) deadlines without a move") }
    return (out, rate)
}

for speed in [50.0, 400.0] {
    let (l, rate) = sweepLatencies(speed: speed, frames: speed == 50 ? 500 : 1000)
    let s = l.sorted()
    func p(_ q: Double) -> Double { Double(s[min(s.count - 1, Int(Double(s.count) * q))]) / 1000 }
    say(String(format: "sweep %.0f pt/s: %d band moves at %.1f a second, deadline → moved (XSync) p50 %.3f ms, p99 %.3f ms, max %.3f ms",
                 speed, l.count, rate, p(0.5), p(0.99), Double(s.last!) / 1000))
}
overlay.finish()
