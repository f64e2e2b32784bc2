import Foundation
import Testing

/// `tree show --format svg` and `simulate --report`: what the commands write and say. The
/// pictures' pixels are checked in scripts/pictures/suite-pictures.sh.
@Suite("pictures")
struct PictureCommandTests {
    static let chrome = "Tests/SwitchFormatsTests/Fixtures/import/realdata/web/chromium-dumpaxtree_commandfor-api-popover-menus-expected-mac.txt"

    @Test func treeShowDrawsTheScreen() throws {
        let r = try CLI.run(["tree", "show", CLI.demoTree, "--format", "svg"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(r.stdout.components(separatedBy: "<g class=\"badge\"").count - 1 == 16)
        #expect(r.stdout.components(separatedBy: "<rect class=\"group\"").count - 1 == 4)
        #expect(r.stderr == "switchscan: note: \(CLI.demoTree): 1 hidden subtree (elementsHidden) not drawn\n")
    }

    @Test func aTreeWithoutFramesIsListedWithANote() throws {
        let r = try CLI.run(["tree", "show", Self.chrome, "--format", "svg"])
        #expect(r.status == 0)
        #expect(r.stdout.components(separatedBy: "<g class=\"badge\"").count == 1)
        #expect(r.stdout.components(separatedBy: "<g class=\"legend-badge\"").count - 1 == 10)
        #expect(r.stderr.contains("no element has a frame"))
    }

    @Test func simulateWritesTheReportAndTheSameTranscript() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("session.html").path
        let args = ["simulate", "--tree", CLI.demoTree, "--profile", "Sources/switchscan/Demo/demo-profile.json",
                    "--events", "Sources/switchscan/Demo/demo-session.evemu"]
        let plain = try CLI.run(args)
        let r = try CLI.run(args + ["--report", page])
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout == plain.stdout)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<tr id=\"figure-presses\"><th scope=\"row\">Presses</th><td class=\"num\">8</td></tr>"))
        // `-`: the page on standard output instead of the transcript.
        let out = try CLI.run(args + ["--report", "-"])
        #expect(out.status == 0 && out.stdout == html)
    }

    @Test func aReportHasAPictureOfEveryScreenTheSessionUsed() throws {
        let second = try CLI.tempFile("second-screen.json", """
        {"screen": {"width": 390, "height": 844}, "root": {"frame": [0, 0, 390, 844], "children": [
          {"id": "done", "label": "Done", "traits": ["button"], "frame": [16, 120, 100, 44]}]}}
        """)
        let r = try CLI.run(["simulate", "--tree", CLI.demoTree, "--profile", "single-switch-auto", "--events",
                             "Sources/switchscan/Demo/demo-session.evemu", "--layout", "3:" + second, "--report", "-"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("<svg id=\"screen-0\"") && r.stdout.contains("<svg id=\"screen-1\""))
        #expect(r.stdout.contains("<dt>Layout changes</dt><dd>3.000 s: \(second)</dd>"))
        #expect(r.stdout.contains("From 3.000 s (a layout change)."))
    }

    @Test func aReportThatCannotBeWrittenIsOneErrorLine() throws {
        let r = try CLI.run(["simulate", "--tree", CLI.demoTree, "--profile", "single-switch-auto",
                             "--events", "Sources/switchscan/Demo/demo-session.evemu", "--report", "/nonexistent/dir/r.html", "--format", "jsonl"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: /nonexistent/dir/r.html: cannot be written: No such file or directory\n")
    }
}
