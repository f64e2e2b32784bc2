import CX11
import Glibc
import SwitchCore
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

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 500 : 500
var children: [Element] = []
for k in 0..<24 {
    children.append(Element(id: "b\(k)", label: "B\(k)", traits: .button,
                            frame: Rect(x: Double(40 + (k % 6) * 120), y: Double(40 + (k / 6) * 120), width: Double(60 + k % 5 * 10), height: 40)))
}
let model = ScanModel(tree: ElementTree(screen: Size(width: 800, height: 600),
                                        root: Element(id: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600), children: children)))
let overlay: Overlay
do { overlay = try Overlay(settings: .init()) } catch { print("\(error)"); exit(2) }
guard let watcher = XOpenDisplay(nil) else { print("no display"); exit(2) }
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
print(String(format: "overlay moved: %d highlights, p50 %.3f ms, p99 %.3f ms, max %.3f ms", latencies.count, pct(0.5), pct(0.99),
             Double(latencies.last!) / 1000))
overlay.finish()
