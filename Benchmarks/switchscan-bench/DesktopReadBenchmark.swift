import Foundation
import SwitchCore
import SwitchDesktop
import SwitchDisplayServers

/// `desktop-read APP [REPS]`: time to read the scan items of APP's windows from the live desktop
/// (what `run --desktop` does on every UI change), REPS times after one warm-up read (the first
/// contact sets up libatspi's peer-to-peer connection). Run inside a desktop session
/// (scripts/desktop-tests/bench-desktop.sh compares it with the anchors in the same run).
enum DesktopReadBenchmark {
    static func run(_ args: [String]) {
        guard let app = args.first else {
            print("usage: switchscan-bench desktop-read APP [REPS]")
            exit(2)
        }
        let reps = args.count > 1 ? Int(args[1]) ?? 20 : 20
        let source: DesktopSource
        do {
            source = try DesktopSource(app: app, display: DisplayBackends.open(ProcessInfo.processInfo.environment).get())
            _ = try source.readOnce()
        } catch {
            print("desktop-read: \(error)")
            exit(1)
        }
        var times: [Double] = []
        var items = 0
        let cpu0 = cpuSeconds()
        for _ in 0..<reps {
            let t0 = monotonicSeconds()
            guard let tree = try? source.readOnce() else { print("desktop-read: the read failed"); exit(1) }
            times.append((monotonicSeconds() - t0) * 1000)
            items = ScanModel(tree: tree).items.count
        }
        let cpu = (cpuSeconds() - cpu0) / Double(reps) * 1000
        times.sort()
        print(String(format: "switchscan read: %d scan items, %d D-Bus calls; median %.1f ms, min %.1f, max %.1f (%d reads); %.1f ms CPU per read",
                     items, source.lastReadCalls, times[times.count / 2], times[0], times[times.count - 1], reps, cpu))
    }
}
