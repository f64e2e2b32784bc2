// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for every reader of outside bytes (RELIABILITY.md, scripts/fuzz/README.md).
// A package of its own so the main build never compiles them: they only link with
// `-sanitize=fuzzer`, which supplies `main`. Build them with scripts/fuzz/build.sh:
//
//   swift build --package-path Fuzz -c release \
//     -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
//     -Xcc -fsanitize=fuzzer-no-link,address
//
// Each target is one function over the public entry point of a reader, run by libFuzzer's driver
// from the target's entry point (`<target>_main`, the name SwiftPM links as `main`).
let package = Package(
    name: "switchscan-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "switchscan", path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "SwitchCore", package: "switchscan"),
                .product(name: "SwitchFormats", package: "switchscan"),
                .product(name: "SwitchReport", package: "switchscan"),
            ]
        ),
        .executableTarget(name: "fuzz-tree", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-import", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-profile", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-evemu", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-libinput", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-picture", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-words", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-layout", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-person", dependencies: ["FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
