import Foundation

// Benchmarks (not tests): `swift run -c release switchscan-bench <name>`. Each prints its numbers;
// BENCHMARKS.md records them. Peak memory is measured in a fresh child process (getrusage's
// ru_maxrss of that child), so generating the input does not count.
let arguments = Array(CommandLine.arguments.dropFirst())
let benchmarks: [String: ([String]) -> Void] = [
    "tree": TreeBenchmark.run,
    "tree-load": TreeBenchmark.load,
    "import": ImportBenchmark.run,
    "import-child": ImportBenchmark.child,
    "calibrate": CalibrationBenchmark.run,
    "simulate": SimulatorBenchmark.run,
    "scan-hour": ScanHourBenchmark.run,
    "desktop-read": DesktopReadBenchmark.run,
    "page-read": PageReadBenchmark.run,
    "order": OrderBenchmark.run,
    "order-child": OrderBenchmark.child,
    "touch": TouchPassthroughBenchmark.run,
    "learn": LearningBenchmark.run,
    "learn-child": LearningBenchmark.child,
]

guard let name = arguments.first, let bench = benchmarks[name] else {
    print("usage: switchscan-bench <\(benchmarks.keys.filter { !$0.hasSuffix("-child") && $0 != "tree-load" }.sorted().joined(separator: "|"))> [args]")
    exit(2)
}
bench(Array(arguments.dropFirst()))
