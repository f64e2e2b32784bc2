import Foundation
import SwitchCore

/// `swift run -c release switchscan-bench order [--nodes N] [--shapes a,b,…] [--timeout S]`
///
/// Issue 11 part 5: the scan order (`ScanModel(tree:)`) of a 1,000,000-node tree in the worst
/// shapes, under 2 s each with a peak resident set under 1 GB. Each shape runs in a fresh child
/// process (so its peak memory is its own): the child builds the tree in memory (not timed), then
/// times `ScanModel(tree:)` (wall clock, and CPU time: user + system, which a loaded machine does
/// not inflate), then lets the tree and the model go (timed as teardown: a deep tree
/// must not be released recursively). A child that runs past `--timeout` (120 s) is stopped and
/// reported as such; one that dies is reported with its signal.
///
/// Shapes (n = N nodes in all, the root included):
/// - `row`: n − 1 buttons in one ragged row (tops 0–3, heights 40–42), left to right;
/// - `column`: n − 1 buttons one below the other;
/// - `overlap`: n − 1 buttons with the same frame (every pair overlaps fully: one row, all ties);
/// - `flat`: n − 1 zero-height frames on one line (every pair tested through the flat rule);
/// - `grid`: √n row containers of √n buttons each;
/// - `deep`: n/2 nested containers, each holding a button and the next container, each frame
///   different from its parent's and each with a custom action of its own: a group at every level
///   (group paths and inherited container actions as long as the tree is deep);
/// - `chain`: n − 1 nested containers and one button at the bottom (depth alone).
enum OrderBenchmark {
    static let shapes = ["row", "column", "overlap", "flat", "grid", "deep", "chain"]

    static func run(_ arguments: [String]) {
        var nodes = 1_000_000
        var chosen = shapes
        var timeout = 120.0
        var k = 0
        while k < arguments.count {
            switch arguments[k] {
            case "--nodes" where k + 1 < arguments.count: nodes = Int(arguments[k + 1]) ?? nodes; k += 1
            case "--shapes" where k + 1 < arguments.count: chosen = arguments[k + 1].split(separator: ",").map(String.init); k += 1
            case "--timeout" where k + 1 < arguments.count: timeout = Double(arguments[k + 1]) ?? timeout; k += 1
            default:
                print("usage: switchscan-bench order [--nodes N] [--shapes \(shapes.joined(separator: ","))] [--timeout S]")
                exit(2)
            }
            k += 1
        }
        print("scan order benchmark: \(nodes) nodes per shape, each in a child process (timeout \(Int(timeout)) s)")
        print(pad("shape", 9) + pad("build", 9) + pad("order", 10) + pad("order CPU", 11) + pad("teardown", 10) + pad("peak RSS", 10) + "items / groups")
        for shape in chosen {
            let (output, status) = runChildWithTimeout(["order-child", shape, String(nodes)], timeout: timeout)
            let fields = output.split(whereSeparator: { $0 == " " || $0 == "\n" })
            if status.hasPrefix("exit 0"), fields.count >= 7 {
                print(pad(shape, 9) + pad(fields[0] + " s", 9) + pad(fields[1] + " s", 10) + pad(fields[2] + " s", 11) + pad(fields[3] + " s", 10)
                      + pad(fields[4] + " MB", 10) + "\(fields[5]) / \(fields[6])")
            } else {
                let partial = fields.count >= 1 ? "build \(fields[0]) s; " : ""
                print(pad(shape, 9) + "\(partial)\(status)")
            }
        }
    }

    /// Child: builds the shape, orders it; prints "build order orderCPU teardown peakMB items groups".
    static func child(_ arguments: [String]) {
        guard arguments.count == 2, let n = Int(arguments[1]) else { exit(2) }
        let clock = ContinuousClock()
        var start = clock.now
        var tree: ElementTree? = build(arguments[0], nodes: n)
        let build = clock.now - start
        emit(String(format: "%.3f ", seconds(build)))
        start = clock.now
        let cpu = cpuSeconds()
        var model: ScanModel? = ScanModel(tree: tree!)
        let orderCPU = cpuSeconds() - cpu
        let order = clock.now - start
        let items = model!.items.count, groups = model!.groups.count
        emit(String(format: "%.3f %.3f ", seconds(order), orderCPU))
        start = clock.now
        model = nil
        tree = nil
        let teardown = clock.now - start
        emit(String(format: "%.3f %.0f %d %d\n", seconds(teardown), peakMemoryMB(), items, groups))
        _ = (model, tree)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Written at once, so a child that dies later has said how far it got.
    static func emit(_ s: String) {
        FileHandle.standardOutput.write(Data(s.utf8))
    }

    static func button(_ k: Int, _ frame: Rect) -> Element {
        Element(id: "b\(k)", label: "Item \(k)", traits: .button, frame: frame)
    }

    static func build(_ shape: String, nodes n: Int) -> ElementTree {
        let screen = Size(width: 1000, height: 1000)
        switch shape {
        case "row", "column", "overlap", "flat":
            var children: [Element] = []
            children.reserveCapacity(n - 1)
            for k in 0..<(n - 1) {
                let frame: Rect
                switch shape {
                case "row": frame = Rect(x: Double(k) * 10, y: Double(k % 4), width: 10, height: 40 + Double(k % 3))
                case "column": frame = Rect(x: 0, y: Double(k) * 50, width: 100, height: 40)
                case "overlap": frame = Rect(x: 0, y: 0, width: 100, height: 40)
                default: frame = Rect(x: Double(k % 1000), y: 100, width: 10, height: 0)
                }
                children.append(button(k, frame))
            }
            return ElementTree(screen: screen, root: Element(id: "root", frame: Rect(x: 0, y: 0, width: 1000, height: 1000), children: children))
        case "grid":
            let side = Int(Double(n).squareRoot())
            var rows: [Element] = []
            var k = 0
            for r in 0..<side {
                var cells: [Element] = []
                for c in 0..<(n - 1) / side - 1 {
                    cells.append(button(k, Rect(x: Double(c) * 10, y: Double(r) * 50, width: 10, height: 40)))
                    k += 1
                }
                rows.append(Element(id: "r\(r)", frame: Rect(x: 0, y: Double(r) * 50, width: 10_000, height: 40), children: cells))
            }
            return ElementTree(screen: screen, root: Element(id: "root", children: rows))
        case "deep":
            let depth = n / 2
            var inner = button(depth, Rect(x: 0, y: Double(depth), width: 10, height: 1))
            for d in stride(from: depth - 1, through: 0, by: -1) {
                let frame = Rect(x: 0, y: Double(d), width: 1000, height: Double(2 * depth - d))
                inner = Element(id: "c\(d)", frame: frame, customActions: ["Action \(d)"],
                                children: [button(d, Rect(x: 0, y: Double(d), width: 10, height: 1)), inner])
            }
            return ElementTree(screen: screen, root: inner)
        default: // chain
            var inner = button(0, Rect(x: 0, y: 0, width: 10, height: 10))
            for d in stride(from: n - 2, through: 0, by: -1) {
                inner = Element(id: "c\(d)", frame: Rect(x: 0, y: 0, width: 1000, height: 1000), children: [inner])
            }
            return ElementTree(screen: screen, root: inner)
        }
    }

    /// Runs this executable with `arguments`; returns its output and "exit N", "signal N" or
    /// "stopped after S s".
    static func runChildWithTimeout(_ arguments: [String], timeout: Double) -> (String, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        p.arguments = arguments
        // A child that crashes says so in its status; no backtrace on the terminal.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        p.environment = environment
        // Output to a file: read once the child is gone, however it ended.
        let path = NSTemporaryDirectory() + "switchscan-bench-order-\(getpid()).out"
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        p.standardOutput = FileHandle(forWritingAtPath: path)
        try! p.run()
        let deadline = Date().addingTimeInterval(timeout)
        var stopped = false
        while p.isRunning {
            if Date() > deadline {
                p.terminate()
                stopped = true
                break
            }
            usleep(20_000)
        }
        p.waitUntilExit()
        let output = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        if stopped { return (output, "stopped after \(Int(timeout)) s") }
        switch p.terminationReason {
        case .uncaughtSignal: return (output, "died: signal \(p.terminationStatus)\(p.terminationStatus == 11 ? " (stack overflow)" : "")")
        default: return (output, "exit \(p.terminationStatus)")
        }
    }

    static func pad<S: StringProtocol>(_ s: S, _ width: Int) -> String {
        String(s) + String(repeating: " ", count: max(1, width - s.count))
    }
}
