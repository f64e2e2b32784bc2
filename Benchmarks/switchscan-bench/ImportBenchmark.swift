import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SwitchCore
import SwitchFormats

/// `swift run -c release switchscan-bench import [--nodes N] [--runs R]`
///
/// Generates a uiautomator dump of N nodes (100,000 by default, about 30 MB) into a temporary
/// file, then measures, each in a fresh child process (so the peak memory is that work's alone),
/// the best of R runs (3 by default):
///
/// - switchscan: read the file, import it (XML scan + Android mapping + ids) and build the scan
///   order (`ScanModel`): what `tree show` does before printing;
/// - switchscan's XML scanner alone (well-formedness check, no mapping);
/// - Foundation's `XMLParser` (libxml2 on Linux) parsing the same file with a delegate that only
///   counts elements: the alternative to switchscan's own XML scanner;
/// - Python's `xml.etree.ElementTree.parse` (expat in C) of the same file: the target.
///
/// Time is wall-clock inside the child (process start-up excluded); memory is the child's peak
/// resident set (`getrusage` maxrss), runtime included.
enum ImportBenchmark {
    static func run(_ arguments: [String]) {
        var nodes = 100_000
        var runs = 3
        var k = 0
        while k < arguments.count {
            switch arguments[k] {
            case "--nodes" where k + 1 < arguments.count: nodes = Int(arguments[k + 1]) ?? nodes; k += 1
            case "--runs" where k + 1 < arguments.count: runs = max(1, Int(arguments[k + 1]) ?? runs); k += 1
            default:
                print("usage: switchscan-bench import [--nodes N] [--runs R]")
                exit(2)
            }
            k += 1
        }

        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchscan-bench-import-\(getpid()).xml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = generateDump(nodes: nodes)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            print("cannot write \(path)")
            exit(1)
        }
        print("import benchmark: uiautomator dump of \(nodes) nodes, \(String(format: "%.1f", Double(bytes.count) / 1_000_000)) MB, best of \(runs) runs, each in a child process")

        let me = CommandLine.arguments[0]
        let results: [(String, Measurement?)] = [
            ("switchscan import + scan order", best(runs) { measure(me, ["import-child", "switchscan", path]) }),
            ("switchscan XML scanner, parse only", best(runs) { measure(me, ["import-child", "scanner", path]) }),
            ("Foundation XMLParser, parse only", best(runs) { measure(me, ["import-child", "xmlparser", path]) }),
            ("Python xml.etree.ElementTree.parse", best(runs) { measure("/usr/bin/env", ["python3", "-c", pythonScript, path]) }),
        ]
        print("")
        print(pad("", 38) + pad("time", 10) + pad("peak RSS", 11) + "elements / items")
        for (name, m) in results {
            guard let m else {
                print(pad(name, 38) + "failed")
                continue
            }
            print(pad(name, 38) + pad(String(format: "%.3f s", m.seconds), 10) + pad("\(m.maxRSSKB / 1024) MB", 11) + m.detail)
        }
        if let ours = results[0].1, let python = results[3].1 {
            print("")
            print(String(format: "switchscan / Python time: %.2f (target: at most 1.00)", ours.seconds / python.seconds))
        }
    }

    /// The work of one child process; prints `seconds maxrssKB detail`.
    static func child(_ arguments: [String]) {
        guard arguments.count == 2 else { exit(2) }
        let path = arguments[1]
        let clock = ContinuousClock()
        switch arguments[0] {
        case "switchscan":
            let start = clock.now
            guard let data = FileManager.default.contents(atPath: path) else { exit(1) }
            let bytes = [UInt8](data)
            do {
                let tree = try TreeFile.decode(bytes, file: path)
                let model = ScanModel(tree: tree)
                let elapsed = clock.now - start
                report(elapsed, "\(model.accessibilityElements.count) accessibility elements, \(model.items.count) scan items")
            } catch {
                print("error \(error)")
                exit(1)
            }
        case "scanner":
            let start = clock.now
            guard let data = FileManager.default.contents(atPath: path) else { exit(1) }
            do {
                let n = try XMLCheck.elementCount([UInt8](data), file: path)
                report(clock.now - start, "\(n) elements")
            } catch {
                print("error \(error)")
                exit(1)
            }
        case "xmlparser":
            let start = clock.now
            guard let data = FileManager.default.contents(atPath: path) else { exit(1) }
            let counter = ElementCounter()
            let parser = XMLParser(data: data)
            parser.delegate = counter
            // On Linux it may report an internal error at the very end of a large file after
            // delivering every element; the count shows whether it read them all.
            let ok = parser.parse()
            let elapsed = clock.now - start
            guard counter.count > 0 else { exit(1) }
            report(elapsed, "\(counter.count) elements" + (ok ? "" : " (then reported \(parser.parserError.map { "\($0)" } ?? "an error") at line \(parser.lineNumber))"))
        case "generate":
            // `import-child generate PATH` with N in the environment's SWITCHSCAN_BENCH_NODES:
            // writes the dump for profiling or for other tools.
            let n = Int(ProcessInfo.processInfo.environment["SWITCHSCAN_BENCH_NODES"] ?? "") ?? 100_000
            guard FileManager.default.createFile(atPath: path, contents: Data(generateDump(nodes: n))) else { exit(1) }
        default:
            exit(2)
        }
    }

    final class ElementCounter: NSObject, XMLParserDelegate {
        var count = 0
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            count += 1
        }
    }

    static func report(_ elapsed: Duration, _ detail: String) {
        let (s, attos) = elapsed.components
        let seconds = Double(s) + Double(attos) / 1e18
        print("\(seconds) \(maxRSSKB()) \(detail)")
    }

    static func maxRSSKB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss)
    }

    static let pythonScript = """
    import resource, sys, time
    import xml.etree.ElementTree as ET
    t = time.perf_counter()
    tree = ET.parse(sys.argv[1])
    dt = time.perf_counter() - t
    n = sum(1 for _ in tree.iter())
    print(dt, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "%d elements" % n)
    """

    struct Measurement {
        var seconds: Double
        var maxRSSKB: Int
        var detail: String
    }

    static func best(_ runs: Int, _ body: () -> Measurement?) -> Measurement? {
        var best: Measurement?
        for _ in 0..<runs {
            guard let m = body() else { return nil }
            if best == nil || m.seconds < best!.seconds { best = m }
        }
        return best
    }

    static func measure(_ executable: String, _ arguments: [String]) -> Measurement? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let line = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, let s = Double(parts[0]), let kb = Int(parts[1]) else { return nil }
        return Measurement(seconds: s, maxRSSKB: kb, detail: String(parts[2]))
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    /// A settings-like screen repeated: sections of rows, each row a clickable layout with an icon,
    /// a title and a summary, and a switch; all the attributes a raw dump writes, some text with
    /// entities and CJK.
    static func generateDump(nodes target: Int) -> [UInt8] {
        var out = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\n"
        out.reserveCapacity(target * 320)
        var count = 0
        var y = 0
        func node(_ depth: Int, _ cls: String, text: String = "", id: String = "", desc: String = "",
                  clickable: Bool = false, checkable: Bool = false, checked: Bool = false, scrollable: Bool = false,
                  bounds: (Int, Int, Int, Int), close: Bool) {
            count += 1
            out += String(repeating: "  ", count: depth)
            out += "<node index=\"\(count % 7)\" text=\"\(text)\" resource-id=\"\(id)\" class=\"\(cls)\" package=\"com.example.bench\" content-desc=\"\(desc)\" checkable=\"\(checkable)\" checked=\"\(checked)\" clickable=\"\(clickable)\" enabled=\"true\" focusable=\"\(clickable)\" focused=\"false\" scrollable=\"\(scrollable)\" long-clickable=\"false\" password=\"false\" selected=\"false\" bounds=\"[\(bounds.0),\(bounds.1)][\(bounds.2),\(bounds.3)]\""
            out += close ? " />\n" : ">\n"
        }
        func end(_ depth: Int) { out += String(repeating: "  ", count: depth) + "</node>\n" }

        node(0, "android.widget.FrameLayout", bounds: (0, 0, 1080, 2340), close: false)
        node(1, "androidx.recyclerview.widget.RecyclerView", id: "com.example.bench:id/list", scrollable: true,
             bounds: (0, 0, 1080, 2340), close: false)
        var row = 0
        while count < target - 8 {
            if row % 40 == 0 {
                node(2, "android.widget.TextView", text: "SECTION \(row / 40)", id: "android:id/title", bounds: (0, y, 1080, y + 80), close: true)
                y += 80
            }
            let title = row % 10 == 3 ? "Café &amp; 東京 \(row)" : "Setting number \(row)"
            node(2, "android.widget.LinearLayout", clickable: true, bounds: (0, y, 1080, y + 200), close: false)
            node(3, "android.widget.ImageView", id: "android:id/icon", bounds: (44, y + 60, 110, y + 140), close: true)
            node(3, "android.widget.RelativeLayout", bounds: (198, y, 860, y + 200), close: false)
            node(4, "android.widget.TextView", text: title, id: "android:id/title", bounds: (198, y + 40, 700, y + 100), close: true)
            node(4, "android.widget.TextView", text: "Summary of setting \(row)&#10;second line", id: "android:id/summary", bounds: (198, y + 100, 700, y + 160), close: true)
            end(3)
            node(3, "android.widget.Switch", text: row % 2 == 0 ? "ON" : "OFF", id: "android:id/switch_widget", checkable: true,
                 checked: row % 2 == 0, bounds: (900, y + 60, 1036, y + 140), close: true)
            end(2)
            y += 200
            row += 1
        }
        end(1)
        end(0)
        out += "</hierarchy>\n"
        return Array(out.utf8)
    }
}
