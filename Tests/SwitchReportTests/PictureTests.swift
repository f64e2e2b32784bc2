import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SwitchCore
import Testing
@testable import SwitchReport

/// The pictures as data (where each badge, outline and bar goes) and as markup (well-formed,
/// escaped, self-contained, the same bytes every time). The pixels are checked by rendering them
/// with rsvg-convert and Chromium in scripts/pictures/suite-pictures.sh.
@Suite struct PictureTests {
    /// A toolbar group (two buttons), a lone search field, a button without a frame, a hidden
    /// subtree, and a static text.
    static func tree() -> ElementTree {
        ElementTree(screen: Size(width: 400, height: 800), root: Element(id: "root", frame: Rect(x: 0, y: 0, width: 400, height: 800), children: [
            Element(id: "bar", label: "Tools", frame: Rect(x: 0, y: 40, width: 400, height: 60), children: [
                Element(id: "back", label: "Back", traits: .button, frame: Rect(x: 10, y: 50, width: 80, height: 40)),
                Element(id: "share", label: "Share", traits: .button, frame: Rect(x: 300, y: 50, width: 90, height: 40)),
            ]),
            Element(id: "title", label: "Inbox", traits: .header, frame: Rect(x: 100, y: 120, width: 200, height: 30)),
            Element(id: "search", label: "Search", traits: .searchField, frame: Rect(x: 10, y: 200, width: 380, height: 44)),
            Element(id: "ghost", label: "Ghost", traits: .button),
            Element(id: "gone", elementsHidden: true, children: [Element(id: "x", label: "X", traits: .button, frame: Rect(x: 0, y: 0, width: 9, height: 9))]),
        ]))
    }

    @Test func badges_sit_on_their_items_in_scan_order() {
        let l = ScreenPicture.layout(Self.tree())
        let r = l.badgeRadius
        #expect(r == 400.0 / 36)   // the screen's shorter side / 36
        #expect(l.badges.map(\.number) == [1, 2, 3])
        #expect(l.badges.map(\.id) == ["back", "share", "search"])
        for b in l.badges {
            // Inside the item's frame, in its top-left corner.
            #expect(b.frame.contains(b.center))
            #expect(abs(b.center.x - (b.frame.x + r + max(1, r * 0.25))) < 1e-9 && abs(b.center.y - (b.frame.y + r + max(1, r * 0.25))) < 1e-9)
        }
        // Screen points are moved by the same offset everywhere.
        #expect(l.badges[0].frame.x == 10 + l.offset.x && l.badges[0].frame.y == 50 + l.offset.y)
        #expect(l.screen == Rect(x: l.offset.x, y: l.offset.y, width: 400, height: 800))
        // The group is outlined where its frame is; the header is an element box; the hidden
        // subtree is not drawn, and the frameless item is listed.
        #expect(l.groups.map(\.id) == ["bar"] && l.groups[0].frame == Rect(x: l.offset.x, y: 40 + l.offset.y, width: 400, height: 60))
        #expect(l.boxes.map(\.id) == ["bar", "title"])
        #expect(l.notes == ["1 scan item has no frame: listed, not drawn", "1 hidden subtree (elementsHidden) not drawn"])
        #expect(l.legend.map(\.text) == ["Tools, group, 2 items", "Back, button", "Share, button", "Search, search field", "Ghost, button"])
        #expect(l.legend.map(\.depth) == [0, 1, 1, 0, 0])
    }

    @Test func a_small_item_gets_its_badge_at_its_centre() {
        let tree = ElementTree(screen: Size(width: 400, height: 800), root: Element(id: "root", children: [
            Element(id: "dot", label: "Dot", traits: .button, frame: Rect(x: 100, y: 100, width: 12, height: 12)),
        ]))
        let b = ScreenPicture.layout(tree).badges[0]
        #expect(b.center == b.frame.center)
    }

    @Test func a_tree_without_frames_is_a_list_with_a_note() {
        let tree = ElementTree(screen: Size(width: 1280, height: 800), root: Element(id: "root", children: [
            Element(id: "a", label: "First", traits: .button), Element(id: "b", label: "Second", traits: .link),
        ]))
        let l = ScreenPicture.layout(tree)
        #expect(l.screen == nil && l.badges.isEmpty && l.boxes.isEmpty)
        #expect(l.legend.map(\.text) == ["First, button", "Second, link"])
        #expect(l.notes.first?.hasPrefix("no element has a frame") == true)
        let svg = ScreenPicture.svg(tree, title: "dump.json")
        #expect(!svg.contains("(no frame)"))   // the note says it once, not on every row
        #expect(svg.contains("Note: no element has a frame"))
    }

    @Test func the_svg_is_well_formed_and_escapes_every_word() throws {
        let hostile = Element(id: "x\"<y>", label: "<script>alert(1)</script> & \"q\" \u{1B}", traits: .button, frame: Rect(x: 10, y: 10, width: 100, height: 40))
        let tree = ElementTree(screen: Size(width: 400, height: 800), root: Element(id: "root", children: [hostile]))
        let svg = ScreenPicture.svg(tree, title: "a <b> & c")
        try Self.parse(svg)
        #expect(!svg.contains("<script"))
        #expect(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; \u{FFFD}"))
        #expect(svg.contains("data-id=\"x&quot;&lt;y&gt;\""))
        #expect(svg == ScreenPicture.svg(tree, title: "a <b> & c"))
    }

    @Test func timeline_bars_follow_the_highlights() {
        let model = ScanModel(tree: Self.tree())
        func hl(_ t: Double, _ id: String, _ kind: HighlightKind) -> TranscriptLine {
            TranscriptLine(t: .seconds(t), .highlight(id: id, kind: kind, label: id))
        }
        let lines = [TranscriptLine(t: .zero, .scan(started: true)), hl(0, "bar", .group), hl(1, "back", .item), hl(2, "share", .item),
                     hl(3, "bar", .groupExit), hl(3.5, "menu:tap", .menuItem), TranscriptLine(t: .seconds(4), .scan(started: false)),
                     hl(6, "search", .item)]
        let l = HighlightTimeline.layout(lines, model: model, end: .seconds(8))
        #expect(l.lanes.map(\.key) == ["menu", "group:bar", "item:back", "item:share", "item:search"])
        #expect(l.lanes[1].title == "▭ Tools (items 1–2)" && l.lanes[2].title == "1. Back, button")
        #expect(l.bars.map { "\(l.lanes[$0.lane].key) \(seconds($0.start))-\(seconds($0.end))" } == [
            "group:bar 0.000-1.000", "item:back 1.000-2.000", "item:share 2.000-3.000", "group:bar 3.000-3.500",
            "menu 3.500-4.000", "item:search 6.000-8.000",
        ])
        #expect(l.x(.seconds(2)) - l.x(.seconds(1)) == l.pixelsPerSecond)
        #expect(l.pixelsPerSecond == 900.0 / 8)   // a short session fills 900 points
    }

    @Test func the_report_is_self_contained_well_formed_and_deterministic() throws {
        let tree = Self.tree()
        let lines = [TranscriptLine(t: .zero, .scan(started: true)),
                     TranscriptLine(t: .zero, .highlight(id: "bar", kind: .group, label: "Tools <b>")),
                     TranscriptLine(t: .seconds(1), .filter(FilterDecision(switchName: "KEY_SPACE", .accepted(.select)))),
                     TranscriptLine(t: .seconds(1), .perform(Perform(.custom("Ünïcode & <more>"), id: "back", label: "Back, button")))]
        let session = SessionReport.Session(treeName: "tree.json", profileName: "p", inputName: "e.evemu",
                                            screens: [.init(at: .zero, name: "tree.json", tree: tree)], lines: lines, end: .seconds(3))
        let html = SessionReport.html(session)
        #expect(html == SessionReport.html(session))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        // Well-formed as XML once the doctype is left out (so every tag is closed and every word escaped).
        try Self.parse(String(html.dropFirst("<!DOCTYPE html>\n".count)))
        #expect(html.contains("&lt;more&gt;") && !html.contains("<more>") && !html.contains("<b>"))
        // Nothing to fetch: no script, no link, no src or href, no @import; url() only names a
        // clip path in the same picture; the only "http" are the SVG namespace's name (a name,
        // never fetched) and the policy's http-equiv, a policy that forbids fetching anyway.
        for forbidden in ["<script", "<link", "src=", "href=", "@import", "<iframe", "<object", "<embed", "<img"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(Self.following("url(", in: html).allSatisfy { $0.hasPrefix("url(#") })
        #expect(Set(Self.following("http", in: html).map { String($0.prefix(32)) })
                == ["http-equiv=\"Content-Security-Pol", "http://www.w3.org/2000/svg\" vers"])
        #expect(html.contains("content=\"default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;\""))
        #expect(html.contains("<tr id=\"figure-selections\"><th scope=\"row\">Selections</th><td class=\"num\">1</td></tr>"))
    }

    /// A touch-only session (Touch Accommodations, no scanning): the page says that nothing was
    /// highlighted and no switch pressed, and names what the touch performed in words.
    @Test func a_touch_only_session_says_nothing_was_scanned_or_pressed() {
        let lines = [TranscriptLine(t: .seconds(1), .touch(TouchDecision(contact: 0, .tap(point: Point(x: 50, y: 70), id: "back", label: "Back, button")))),
                     TranscriptLine(t: .seconds(1), .perform(Perform(.activate, id: "back", label: "Back, button", point: Point(x: 50, y: 70), source: .touch)))]
        let session = SessionReport.Session(treeName: "tree.json", profileName: "p", inputName: "touch.evemu",
                                            screens: [.init(at: .zero, name: "tree.json", tree: Self.tree())], lines: lines, end: .seconds(2))
        let html = SessionReport.html(session)
        #expect(html.contains("Nothing was highlighted: this profile does not scan (touch only)."))
        #expect(html.contains("<p>No switch was pressed.</p>"))
        #expect(html.contains("activate “Back, button” at (50, 70), by touch"))
        #expect(html.contains("tap at (50, 70) → “Back, button”"))
        #expect(!html.contains("Each bar is a highlight"))
    }

    /// Every occurrence of `needle` in `s`, with the 40 characters from it.
    static func following(_ needle: String, in s: String) -> [Substring] {
        var out: [Substring] = []
        var rest = s[...]
        while let r = rest.range(of: needle) {
            out.append(rest[r.lowerBound...].prefix(40))
            rest = rest[r.upperBound...]
        }
        return out
    }

    /// Parses `xml` with Foundation's parser; throws what it says is wrong.
    static func parse(_ xml: String) throws {
        let parser = XMLParser(data: Data(xml.utf8))
        let ok = parser.parse()
        if !ok { throw ParseError(message: "\(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)") }
    }

    struct ParseError: Error { var message: String }
}
