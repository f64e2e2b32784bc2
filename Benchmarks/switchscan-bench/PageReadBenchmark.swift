import Foundation
import SwitchCore
import SwitchDesktop
import SwitchDisplayServers

/// `page-read APP [REPS]`: time to read what scanning needs of the whole web page showing in APP
/// (the browser's window walked, then the page read whole with Collection queries: `PageJob`),
/// REPS times after one warm-up read. Run inside a desktop session (scripts/desktop-tests/
/// bench-web.sh compares it with a pyatspi walk of the same document in the same run).
enum PageReadBenchmark {
    static func run(_ args: [String]) {
        guard let app = args.first else {
            print("usage: switchscan-bench page-read APP [REPS]")
            exit(2)
        }
        let reps = args.count > 1 ? Int(args[1]) ?? 5 : 5
        let source: DesktopSource
        do {
            source = try DesktopSource(app: app, display: DisplayBackends.open(ProcessInfo.processInfo.environment).get())
            _ = try source.readOnce()
        } catch {
            print("page-read: \(error)")
            exit(1)
        }
        var times: [Double] = [], pages: [Double] = []
        var items = 0
        let cpu0 = cpuSeconds()
        for _ in 0..<reps {
            source.forgetPages()
            let t0 = monotonicSeconds()
            guard let tree = try? source.readOnce() else { print("page-read: the read failed"); exit(1) }
            times.append((monotonicSeconds() - t0) * 1000)
            pages.append(source.lastPageRead?.milliseconds ?? 0)
            items = ScanModel(tree: tree).items.count
        }
        let cpu = (cpuSeconds() - cpu0) / Double(reps) * 1000
        times.sort()
        pages.sort()
        let page = source.lastPageRead
        print(String(format: "switchscan page read: %d scan items (%d on the page, %d parts, %d D-Bus calls for it); median %.1f ms (the page's part %.1f ms), min %.1f, max %.1f (%d reads); %.1f ms CPU per read",
                     items, page?.items ?? 0, page?.parts ?? 0, page?.calls ?? 0, times[times.count / 2], pages[pages.count / 2],
                     times[0], times[times.count - 1], reps, cpu))
    }
}
