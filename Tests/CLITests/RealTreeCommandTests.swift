import Foundation
import Testing

/// Every real dump (iOS, Android, Chromium; copied byte-identical into the formats tests'
/// fixtures) imports, shows, audits and simulates through the command line, and `tree import` /
/// `tree stats` work on them.
@Suite("switchscan on real trees")
struct RealTreeCommandTests {
    static let dir = "Tests/SwitchFormatsTests/Fixtures/import/realdata/"
    static let dumps = [
        "ios/appium-universal-xml-plugin_ios.xml", "ios/appium-universal-xml-plugin_ios-edge.xml",
        "ios/shirates_ios_AccessibilityScreen.xml", "ios/shirates_ios_DateAndTime_ja.xml",
        "android/appium-universal-xml-plugin_android.xml", "android/shirates_android_NetworkAndInternetScreen.xml",
        "android/shirates_android_SecurityScreen.xml",
        "web/chromium-dumpaxtree_commandfor-api-popover-menus-expected-mac.txt",
    ]

    @Test(arguments: dumps)
    func showsAuditsAndSimulates(_ dump: String) throws {
        let path = Self.dir + dump
        let show = try CLI.run(["tree", "show", "--format", "json", path])
        #expect(show.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        let ids = try #require(json["items"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(!ids.isEmpty)

        let audit = try CLI.run(["tree", "audit", path])
        #expect(audit.status == (audit.stdout.isEmpty ? 0 : 1))

        let sim = try CLI.run(["simulate", "--tree", path, "--profile", "single-switch-auto",
                               "--events", "Sources/switchscan/Demo/demo-session.evemu", "--format", "jsonl"])
        #expect(sim.status == 0)
        // Every highlighted item is a scan item of the tree; the first is the first scan item.
        let highlighted = sim.lines.compactMap { line -> String? in
            guard line.contains("\"kind\":\"item\""), let r = line.range(of: "\"id\":\"") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        #expect(highlighted.first == ids.first)
        #expect(Set(highlighted).isSubset(of: Set(ids)))
        #expect(sim.lines.contains { $0.contains("\"type\":\"menu\",\"open\":true") })
    }

    @Test(arguments: dumps)
    func importWritesANativeTreeThatShowsTheSameScanOrder(_ dump: String) throws {
        let out = try CLI.tempFile("imported-\(dump.split(separator: "/").last!).json", "")
        let r = try CLI.run(["tree", "import", Self.dir + dump, "-o", out])
        #expect(r.status == 0)
        #expect(r.stderr.contains("→ \(out):"))
        let original = try CLI.run(["tree", "show", "--format", "json", Self.dir + dump])
        let converted = try CLI.run(["tree", "show", "--format", "json", out])
        #expect(converted.status == 0)
        #expect(converted.stdout == original.stdout)
    }

    @Test func statsReportsCountsAndReachTimes() throws {
        let r = try CLI.run(["tree", "stats", Self.dir + "ios/shirates_ios_AccessibilityScreen.xml", "--profile", "group-scanning"])
        #expect(r.status == 0)
        #expect(r.lines.first == "elements                33")
        #expect(r.lines.contains("scan items              7"))
        #expect(r.lines.contains("scanning                auto, 1.000 s per stop, pause on first stop 0.500 s"))
        #expect(r.lines.contains("profile                 One switch, group scanning (\(CLI.packageRoot.path)/Profiles/group-scanning.json)"))
        let json = try CLI.run(["tree", "stats", "--format", "json", Self.dir + "android/shirates_android_SecurityScreen.xml"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["scanItems"] as? Int == 13)
    }

    @Test func malformedDumpsAreOneLineWithLineAndColumn() throws {
        let xml = try CLI.tempFile("broken.xml", "<?xml version=\"1.0\"?>\n<hierarchy rotation=\"0\">\n  <node text=\"a\" bounds=\"[0,0][10,10]\">\n</hierarchy>\n")
        let r = try CLI.run(["tree", "show", xml])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("switchscan: error: \(xml):4:"))
        #expect(r.stderr.split(separator: "\n").count == 1)
        let cdp = try CLI.tempFile("broken-cdp.json", "{\"nodes\": [{\"nodeId\": \"1\", \"ignored\": false,]}")
        let c = try CLI.run(["tree", "import", cdp])
        #expect(c.status == 2)
        #expect(c.stderr.hasPrefix("switchscan: error: \(cdp):1:"))
    }
}
