import Foundation
import SwitchCore

/// Issue target: load and order a generated tree of 100,000 nodes, 10 levels deep, in under 1 s
/// and under 300 MB.
enum TreeBenchmark {
    static func run(_ args: [String]) {
        let nodes = Int(args.first ?? "") ?? 100_000
        let path = NSTemporaryDirectory() + "switchscan-bench-tree.json"
        let (count, depth) = generate(nodes: nodes, depth: 10, to: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print("tree: \(count) nodes, \(depth) levels, \(size / 1_000_000) MB of JSON")
        var times: [Double] = []
        var memory = 0.0
        var items = ""
        for _ in 0..<5 {
            let fields = runChild(["tree-load", path]).split(separator: " ")
            times.append(Double(fields[0])!)
            memory = max(memory, Double(fields[1])!)
            items = String(fields[2]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        times.sort()
        print(String(format: "load + scan order: median %.3f s (min %.3f, max %.3f) over 5 runs; peak memory %.0f MB; %@ scan items",
                     times[2], times[0], times[4], memory, items))
    }

    /// Child: read, decode and order the tree; print "seconds peakMB items".
    static func load(_ args: [String]) {
        let start = monotonicSeconds()
        let bytes = [UInt8](FileManager.default.contents(atPath: args[0])!)
        let t0 = monotonicSeconds()
        let json = try! JSONParser.parse(bytes, file: args[0])
        let t1 = monotonicSeconds()
        let tree = try! TreeDecoder.decode(json, reader: JSONReader(file: args[0], bytes: bytes))
        let t2 = monotonicSeconds()
        let model = ScanModel(tree: tree)
        let elapsed = monotonicSeconds() - start
        if ProcessInfo.processInfo.environment["BENCH_DETAIL"] != nil {
            FileHandle.standardError.write(Data(String(format: "read %.3f parse %.3f decode %.3f order %.3f\n", t0 - start, t1 - t0, t2 - t1, monotonicSeconds() - t2).utf8))
        }
        print(String(format: "%.4f %.1f %d", elapsed, peakMemoryMB(), model.items.count))
    }

    /// A screen-like tree: containers with frames down to `depth` levels, leaves are buttons,
    /// texts and sliders with labels, hints and custom actions; about `nodes` nodes.
    static func generate(nodes: Int, depth: Int, to path: String) -> (Int, Int) {
        // Branching so that the levels sum to about `nodes`.
        var branching = 2.0
        while (0..<depth).reduce(0.0, { $0 + pow(branching, Double($1)) }) < Double(nodes) { branching += 0.01 }
        var count = 0
        var maxDepth = 0
        var out = "{\"screen\": {\"width\": 1000, \"height\": 100000},\n\"root\": "
        var seed: UInt64 = 42
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        func node(level: Int, x: Double, y: Double, w: Double, h: Double) {
            count += 1
            maxDepth = max(maxDepth, level + 1)
            let id = "n\(count)"
            let frame = String(format: "[%.1f, %.1f, %.1f, %.1f]", x, y, w, h)
            let fractional = branching - branching.rounded(.down)
            let children = level + 1 < depth && count < nodes ? Int(branching) + (Double(next() % 1000) / 1000 < fractional ? 1 : 0) : 0
            if children == 0 {
                switch next() % 3 {
                case 0: out += "{\"id\": \"\(id)\", \"label\": \"Item \(count)\", \"traits\": [\"button\"], \"hint\": \"Opens item \(count).\", \"frame\": \(frame)}"
                case 1: out += "{\"id\": \"\(id)\", \"label\": \"Text \(count)\", \"traits\": [\"staticText\"], \"frame\": \(frame)}"
                default: out += "{\"id\": \"\(id)\", \"label\": \"Level \(count)\", \"value\": \"50%\", \"traits\": [\"adjustable\"], \"customActions\": [{\"name\": \"Reset\"}], \"frame\": \(frame)}"
                }
                return
            }
            out += "{\"id\": \"\(id)\", \"frame\": \(frame), \"children\": ["
            let cw = w / Double(children)
            for k in 0..<children {
                if k > 0 { out += ",\n" }
                // Rows of children: alternate horizontal and vertical splits.
                if level % 2 == 0 {
                    node(level: level + 1, x: x + Double(k) * cw, y: y, w: cw, h: h)
                } else {
                    let ch = h / Double(children)
                    node(level: level + 1, x: x, y: y + Double(k) * ch, w: w, h: ch)
                }
            }
            out += "]}"
        }
        node(level: 0, x: 0, y: 0, w: 1000, h: 100000)
        out += "}\n"
        FileManager.default.createFile(atPath: path, contents: Data(out.utf8))
        return (count, maxDepth)
    }
}
