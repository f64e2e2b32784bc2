import SwitchCore
import Testing
@testable import SwitchFormats

/// Damaged files never crash the importers: each cut or corrupted copy either imports or gives
/// one `InputError` whose line and column lie inside the file.
@Suite("Damaged input")
struct DamagedInputTests {
    static let files = [
        "realdata/ios/appium-universal-xml-plugin_ios-edge.xml", "realdata/android/appium-universal-xml-plugin_android.xml",
        "handmade/uiautomation-settings.xml", "handmade/cdp-bare.json", "handmade/entities-cjk.xml",
    ]

    private func check(_ bytes: [UInt8], _ label: String) -> Bool {
        do {
            _ = ScanModel(tree: try TreeFile.decode(bytes, file: label))
            return true
        } catch {
            let lines = SourceLines(bytes)
            let (lastLine, _) = lines.location(of: bytes.count)
            if let line = error.line {
                #expect(line >= 1 && line <= lastLine, "\(label): \(error)")
                #expect((error.column ?? 1) >= 1, "\(label): \(error)")
            }
            #expect(!error.message.isEmpty)
            return false
        }
    }

    @Test(arguments: files)
    func truncatedCopies(_ file: String) throws {
        let bytes = try ImportFixture.bytes(file)
        var failures = 0
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 150)) {
            if !check(Array(bytes[0..<cut]), "\(file) cut at \(cut)") { failures += 1 }
        }
        #expect(failures > 0, "cutting a document must break it somewhere")
    }

    @Test(arguments: files)
    func corruptedCopies(_ file: String) throws {
        let bytes = try ImportFixture.bytes(file)
        let junk: [UInt8] = Array("<>\"'&;/[]{},:0-\u{00}".utf8) + [0xFF, 0xE6]
        var k = 0
        for at in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 120)) {
            var copy = bytes
            copy[at] = junk[k % junk.count]
            k += 1
            _ = check(copy, "\(file) byte \(at) → \(copy[at])")
        }
    }

    @Test func deepChromeChainIsRefused() {
        var nodes: [String] = []
        for k in 0..<600 { nodes.append(#"{"nodeId": "\#(k)", "role": {"value": "generic"}, "childIds": ["\#(k + 1)"]}"#) }
        let json = "{\"nodes\": [" + nodes.joined(separator: ",") + "]}"
        let e = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(json.utf8), file: "deep.json") }
        #expect(e?.message == "nodes nested deeper than 512 levels")
    }
}
