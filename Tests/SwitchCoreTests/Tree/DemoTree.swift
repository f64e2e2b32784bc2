import Foundation
import SwitchCore

/// The demo tree bundled with the executable (Sources/switchscan/Demo).
func demoTreePath() -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/switchscan/Demo/demo-tree.json").path
}

func demoTree() throws -> ElementTree {
    let path = demoTreePath()
    return try TreeDecoder.decode([UInt8](FileManager.default.contents(atPath: path) ?? Data()), file: path)
}
