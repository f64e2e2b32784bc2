// swift-tools-version: 6.1
import PackageDescription

// Layers (see README "Architecture"):
//   SwitchCore    pure: time, element tree, filters, scanner, engine. No clock, no I/O.
//   SwitchFormats pure parsers/writers: recordings (evemu, libinput-record) and tree importers.
//   SwitchInput   the imperative shell: libevdev devices, the live loop, uinput output.
//   SwitchDesktop the imperative shell for the live desktop: AT-SPI trees, actions, XTest.
//   switchscan    the command-line tool.
let package = Package(
    name: "switchscan",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "switchscan", targets: ["switchscan"]),
        .library(name: "SwitchCore", targets: ["SwitchCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CAtspi",
            pkgConfig: "atspi-2",
            providers: [.apt(["libatspi2.0-dev"])]
        ),
        .systemLibrary(
            name: "CXTest",
            pkgConfig: "xtst",
            providers: [.apt(["libxtst-dev", "libx11-dev"])]
        ),
        .target(
            name: "SwitchCore",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(
            name: "SwitchFormats",
            dependencies: ["SwitchCore", .product(name: "Yams", package: "Yams")],
            exclude: ["Import/MAPPING.md"]
        ),
        .target(
            name: "SwitchInput",
            dependencies: ["SwitchCore", "SwitchFormats", "CEvdev"]
        ),
        .target(
            name: "SwitchDesktop",
            dependencies: ["SwitchCore", "SwitchInput", "CAtspi", "CXTest"]
        ),
        .executableTarget(
            name: "switchscan",
            dependencies: [
                "SwitchCore", "SwitchFormats", "SwitchInput", "SwitchDesktop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Demo")]
        ),
        .executableTarget(
            name: "switchscan-bench",
            dependencies: ["SwitchCore", "SwitchFormats", "SwitchDesktop"],
            path: "Benchmarks/switchscan-bench"
        ),
        .testTarget(
            name: "SwitchCoreTests",
            dependencies: [
                "SwitchCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SwitchFormatsTests",
            dependencies: ["SwitchCore", "SwitchFormats"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["SwitchCore"]
        ),
        .testTarget(
            name: "SwitchInputTests",
            dependencies: ["SwitchCore", "SwitchFormats", "SwitchInput"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SwitchDesktopTests",
            dependencies: ["SwitchCore", "SwitchFormats", "SwitchInput", "SwitchDesktop"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
