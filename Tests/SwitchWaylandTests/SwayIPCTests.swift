import Foundation
@testable import SwitchDisplayServers
import Testing

/// sway's IPC on plain values: the framing and a real get_tree reply (captured from sway 1.7 under
/// run-sway.sh with two outputs: a tiled and a floating window of Fixtures/wlapp.py).
struct SwayIPCTests {
    static func fixture(_ name: String) throws -> Data {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return try Data(contentsOf: url.appendingPathComponent("Fixtures/\(name)"))
    }

    @Test func treeGivesEveryWindowWithItsPlace() throws {
        let windows = try SwayTree.windows(fromJSON: Self.fixture("sway-tree.json"))
        #expect(windows.map(\.description) == [
            "#7 pid 9960 \"Tiled one\" (one.py) 1280x800+0+0 content 1276x796+2+2",
            "#8 pid 9961 \"Floating two\" (two.py) 640x800+438+248 content 636x796+2+2 floating focused",
        ])
        #expect(windows.map(\.workspace) == ["1", "1"])
        #expect(windows.map(\.output) == ["HEADLESS-1", "HEADLESS-1"])
        #expect(windows[1].contentOrigin == (440, 250))
        #expect(SwayTree.focused(windows)?.id == 8)
    }

    /// sway centres a client window smaller than its content area; a larger one starts at the
    /// content's corner.
    @Test func originCentresASmallerClientWindow() throws {
        let w = try SwayTree.windows(fromJSON: Self.fixture("sway-tree.json"))[0]
        #expect(w.origin() == (2, 2))
        #expect(w.origin(clientWidth: 1276, clientHeight: 796) == (2, 2))
        #expect(w.origin(clientWidth: 400, clientHeight: 300) == (2 + 438, 2 + 248))
        #expect(w.origin(clientWidth: 1391, clientHeight: 800) == (2, 2))
        // A GTK 3 frame with a shadow: its window starts at the inset; centred by the window's size.
        let floating = try SwayTree.windows(fromJSON: Self.fixture("sway-tree.json"))[1]
        #expect(floating.origin(clientWidth: 452 + 236, clientHeight: 399 + 443, inset: (26, 23)) == (440 - 26, 250 - 23))
        #expect(floating.origin(clientWidth: 452, clientHeight: 399, inset: (26, 23)) == (440 + 118 - 26, 250 + 221 - 23))
    }

    @Test func outputsReadFromGetOutputs() throws {
        let outputs = try SwayOutput.list(fromJSON: Self.fixture("sway-outputs.json"))
        #expect(outputs.map { "\($0.name) \($0.rect) \($0.scale!)" } == ["HEADLESS-1 1280x800+0+0 1.0", "HEADLESS-2 1024x768+1280+0 2.0"])
    }

    @Test func malformedTreeIsAClearError() {
        do {
            _ = try SwayTree.windows(fromJSON: Data("{\"id\": 1}".utf8))
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix("sway's get_tree reply is not the tree expected"))
        }
    }

    /// Frames cut anywhere come out whole and in order; bytes that are not i3-ipc are an error.
    @Test func framesSurviveAnySplit() throws {
        let a = SwayFrameReader.encode(type: 4, payload: Data("{\"id\": 1}".utf8))
        let b = SwayFrameReader.encode(type: 0x8000_0003, payload: Data("{\"change\": \"focus\"}".utf8))
        let stream = a + b
        for cut in 0...stream.count {
            var reader = SwayFrameReader()
            let frames = try reader.take(stream.prefix(cut)) + reader.take(stream.dropFirst(cut))
            #expect(frames == [.init(type: 4, payload: Data("{\"id\": 1}".utf8)), .init(type: 0x8000_0003, payload: Data("{\"change\": \"focus\"}".utf8))], "cut at \(cut)")
        }
        var reader = SwayFrameReader()
        #expect(throws: SwayIPC.Failure.badReply("a message does not start with \"i3-ipc\"")) { try reader.take(Data("HTTP/1.1 200 OK".utf8)) }
    }
}
