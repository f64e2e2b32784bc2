// switchscan-bench SECTION [options]: speed checks kept out of the tests (see BENCHMARKS.md).
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "import":
    ImportBenchmark.run(Array(arguments.dropFirst()))
case "import-child":
    ImportBenchmark.child(Array(arguments.dropFirst()))
default:
    print("usage: switchscan-bench import [--nodes N] [--runs R]")
}
