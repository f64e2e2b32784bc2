// swift-tools-version: 6.1
import PackageDescription

// Layers (see docs/architecture.md):
//   SwitchCore    pure: time, element tree, filters, scanner, engine. No clock, no I/O.
//   SwitchFormats pure parsers/writers: recordings (evemu, libinput-record) and tree importers.
//   SwitchInput   the imperative shell: libevdev devices, the live loop, uinput output.
//   SwitchDesktop the imperative shell for the live desktop: AT-SPI trees and actions; the display through SwitchDisplay.
//   SwitchDisplay the display seam: protocols and pure values (window origins, overlay surface, pointer, keys, windows,
//                 the backend bundle, session detection, the overlay scene). No C, no I/O.
//   SwitchDisplayServers the display backends, a folder each (X11/: Xlib, XTest, EWMH, Xft); the CLI picks one.
//   SwitchOverlay the highlight's logic and geometry (what to draw for each transcript line), on an OverlaySurface.
//   SwitchPredict word prediction: presage in a child process (its C library walled off in CPresage).
//   SwitchReport  pure renderers: screen pictures (SVG) and session reports (HTML). Strings in, strings out.
//   switchscan    the command-line tool.
let package = Package(
    name: "switchscan",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "switchscan", targets: ["switchscan"]),
        .library(name: "SwitchCore", targets: ["SwitchCore"]),
        // For the fuzz targets (Fuzz/Package.swift), which live in a package of their own.
        .library(name: "SwitchFormats", targets: ["SwitchFormats"]),
        .library(name: "SwitchReport", targets: ["SwitchReport"]),
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
            name: "CX11",
            pkgConfig: "xft",
            providers: [.apt(["libx11-dev", "libxext-dev", "libxtst-dev", "libxft-dev"])]
        ),
        // The keyboard layout --inject's uinput keyboard types through (keys by keysym).
        .systemLibrary(
            name: "CXKBCommon",
            pkgConfig: "xkbcommon",
            providers: [.apt(["libxkbcommon-dev"])]
        ),
        // libwayland-client and the protocol code wayland-scanner generated from the descriptions in
        // CWayland/protocols (scripts/wayland/gen-protocols.sh; committed, so building needs no scanner).
        .target(
            name: "CWayland",
            exclude: ["protocols"],
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),
        // cairo draws the Wayland overlay into shared-memory buffers, Pango its text.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // libdbus for the display backends on the session bus (SwitchDisplayServers/SessionBus: the
        // GNOME Shell extension, KWin's scripting).
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .systemLibrary(
            name: "CPresage",
            providers: [.apt(["libpresage-dev"])]
        ),
        .target(
            name: "SwitchPredict",
            dependencies: ["CPresage"]
        ),
        .target(
            name: "SwitchDisplay",
            dependencies: ["SwitchCore"]
        ),
        // The display servers behind the seam, a folder each (X11: Xlib, XTest, EWMH, Xft; Wayland:
        // the shared client code; Wlroots: sway and compositors with the same protocols; SessionBus: the
        // session-bus client the GNOME and KWin backends share).
        .target(
            name: "SwitchDisplayServers",
            dependencies: ["SwitchCore", "SwitchInput", "SwitchDisplay", "CX11", "CWayland", "CCairo", "CXKBCommon", "CDBus"]
        ),
        .target(
            name: "SwitchOverlay",
            dependencies: ["SwitchCore", "SwitchInput", "SwitchDisplay"]
        ),
        .target(
            name: "SwitchSpeech",
            dependencies: ["SwitchCore", "SwitchInput"]
        ),
        .target(
            name: "SwitchCore",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(
            name: "SwitchFormats",
            dependencies: ["SwitchCore", .product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "SwitchInput",
            dependencies: ["SwitchCore", "SwitchFormats", "CEvdev", "CXKBCommon"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .target(
            name: "SwitchDesktop",
            dependencies: ["SwitchCore", "SwitchInput", "SwitchDisplay", "CAtspi"]
        ),
        .target(
            name: "SwitchReport",
            dependencies: ["SwitchCore"]
        ),
        .executableTarget(
            name: "switchscan",
            dependencies: [
                "SwitchCore", "SwitchFormats", "SwitchInput", "SwitchOverlay", "SwitchSpeech", "SwitchReport", "SwitchDesktop",
                "SwitchPredict", "SwitchDisplay", "SwitchDisplayServers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Embedded in the executable, so an installed or copied binary runs `demo` on its own.
            exclude: ["Demo/touch-session.evemu", "Demo/two-switch-session.evemu", "Demo/auto-session.evemu", "Demo/step-session.evemu",
                      "Demo/touch-switch-session.evemu"],
            resources: [.embedInCode("Demo/demo-tree.json"), .embedInCode("Demo/demo-profile.json"),
                        .embedInCode("Demo/demo-session.evemu")]
        ),
        .executableTarget(
            name: "switchscan-bench",
            dependencies: ["SwitchCore", "SwitchFormats", "SwitchDesktop", "SwitchDisplayServers"],
            path: "Benchmarks/switchscan-bench"
        ),
        .executableTarget(
            name: "switchscan-overlay-bench",
            dependencies: ["SwitchCore", "SwitchOverlay", "SwitchDisplayServers", "CX11"],
            path: "Benchmarks/overlay-bench"
        ),
        // The tests' one helper for the programs they start (Tests/TestPrograms): "missing: PROGRAM
        // (Debian package P)" from scripts/apt/programs.txt, never a skip.
        .target(
            name: "TestPrograms",
            path: "Tests/TestPrograms"
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
            dependencies: ["TestPrograms", "SwitchCore", "SwitchPredict"],
            exclude: ["Golden", "BadInput"]
        ),
        .testTarget(
            name: "SwitchReportTests",
            dependencies: ["SwitchCore", "SwitchReport"]
        ),
        .testTarget(
            name: "SwitchDisplayTests",
            dependencies: ["SwitchCore", "SwitchDisplay"]
        ),
        .testTarget(
            name: "PresenceTests",
            dependencies: ["TestPrograms", "SwitchCore", "SwitchInput", "SwitchOverlay", "SwitchSpeech", "SwitchDisplay", "SwitchDisplayServers", "CX11"]
        ),
        .testTarget(
            name: "SwitchInputTests",
            dependencies: ["TestPrograms", "SwitchCore", "SwitchFormats", "SwitchInput"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SwitchWaylandTests",
            dependencies: ["TestPrograms", "SwitchCore", "SwitchInput", "SwitchDisplay", "SwitchDisplayServers", "SwitchOverlay"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SwitchDesktopTests",
            dependencies: ["TestPrograms", "SwitchCore", "SwitchFormats", "SwitchInput", "SwitchDesktop", "SwitchOverlay", "SwitchDisplay",
                           "SwitchDisplayServers", "CX11", "CAtspi"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
