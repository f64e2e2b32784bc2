import SwitchCore
import Testing
@testable import SwitchFormats

/// Records the scanner's events as lines: `<name a=value …>` for a start tag (values decoded),
/// `</>` for an end.
private struct Transcript: XMLHandler {
    var lines: [String] = []
    mutating func startElement(_ tag: XMLTag) throws(InputError) {
        var line = "<" + tag.name
        for a in tag.attributes { line += " \(tag.name(of: a))=\(try tag.string(a))" }
        lines.append(line + ">")
    }
    mutating func endElement() throws(InputError) { lines.append("</>") }
}

private func scan(_ text: String) throws(InputError) -> [String] {
    var t = Transcript()
    try XMLScanner.scan(Array(text.utf8), file: "t.xml", into: &t)
    return t.lines
}

private func scanError(_ text: String) -> InputError? {
    inputError { () throws(InputError) in _ = try scan(text) }
}

@Suite("XML scanner")
struct XMLScannerTests {
    @Test func elementsAndAttributesInDocumentOrder() throws {
        #expect(try scan(#"<a x="1"><b/><c y='2' z="three"></c></a>"#) == [
            "<a x=1>", "<b>", "</>", "<c y=2 z=three>", "</>", "</>",
        ])
    }

    @Test func predefinedEntitiesAndCharacterReferencesAreDecoded() throws {
        let lines = try scan(#"<a v="Tom &amp; Jerry &lt;3&gt; &quot;q&quot; &apos;s&apos;&#10;&#x1F600;&#128512;"/>"#)
        #expect(lines == ["<a v=Tom & Jerry <3> \"q\" 's'\n😀😀>", "</>"])
    }

    @Test func literalLineBreaksAndTabsInAttributesBecomeSpaces() throws {
        // XML attribute-value normalisation: CR LF counts as one break; &#10; stays a line break.
        let lines = try scan("<a v=\"one\ntwo\tthree\r\nfour&#10;five\"/>")
        #expect(lines == ["<a v=one two three four\nfive>", "</>"])
    }

    @Test func prologCommentsProcessingInstructionsDoctypeAndCDATAAreSkipped() throws {
        let doc = """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE root [
          <!ENTITY x "a > b">
          <!-- a > comment -->
        ]>
        <?tool run="1"?>
        <!-- <fake/> -->
        <root><![CDATA[ <not-a-tag> & ]]>text &amp; more<?pi inside?><!-- c --><leaf/></root>
        <!-- trailing comment -->
        """
        #expect(try scan(doc) == ["<root>", "<leaf>", "</>", "</>"])
    }

    @Test func cjkNamesAndValuesAndASingleLineDocument() throws {
        #expect(try scan(#"<名前 属性="値 &#x1F600;"><子 a="日本語"/></名前>"#) == ["<名前 属性=値 😀>", "<子 a=日本語>", "</>", "</>"])
    }

    @Test func mismatchedEndTagNamesTheOpenElementAndItsPlace() {
        let e = scanError("<a>\n  <b>\n</a>")
        #expect(e?.line == 3)
        #expect(e?.column == 1)
        #expect(e?.message == "invalid XML: expected </b> (opened at line 2, column 3), found </a>")
        #expect(e?.file == "t.xml")
    }

    @Test func endOfFileInsideAnElement() {
        let e = scanError("<a>\n<b>")
        #expect(e?.line == 2)
        #expect(e?.column == 4)
        #expect(e?.message == "invalid XML: end of file inside <b> (opened at line 2, column 1)")
    }

    @Test func unknownEntityIsAnErrorAtTheAmpersand() {
        let e = scanError("<a v=\"x&nbsp;y\"/>")
        #expect(e?.line == 1)
        #expect(e?.column == 8)
        #expect(e?.message.contains("unknown entity &nbsp;") == true)
    }

    @Test func bareAmpersandIsAnError() {
        let e = scanError("<a>\n  fish & chips</a>")
        #expect(e?.line == 2)
        #expect(e?.column == 8)
        #expect(e?.message.contains("write a literal '&' as &amp;") == true)
    }

    @Test func lessThanInsideAnAttributeValue() {
        let e = scanError(#"<a v="1 < 2"/>"#)
        #expect(e?.column == 9)
        #expect(e?.message == "invalid XML: '<' inside the value of attribute v (write &lt;)")
    }

    @Test func unquotedAttributeValue() {
        let e = scanError(#"<hierarchy rotation=1>"#)
        #expect(e?.column == 21)
        #expect(e?.message == "invalid XML: expected a quoted value for attribute rotation, found '1'")
    }

    @Test func repeatedAttribute() {
        let e = scanError(#"<a x="1" x="2"/>"#)
        #expect(e?.column == 10)
        #expect(e?.message == "invalid XML: attribute x appears twice in <a>")
    }

    // The duplicate check looks a name up in the previous tag first (`previousAttributes`):
    // a repeat must be found whether the names follow the previous tag's order or not.
    @Test func repeatedAttributeAfterATagWithTheSameNames() {
        let same = scanError(#"<r><a x="1" y="2"/><a x="1" x="2"/></r>"#)
        #expect(same?.column == 29)
        #expect(same?.message == "invalid XML: attribute x appears twice in <a>")
        let reordered = scanError(#"<r><a x="1" y="2"/><a y="1" x="2" y="3"/></r>"#)
        #expect(reordered?.column == 35)
        #expect(reordered?.message == "invalid XML: attribute y appears twice in <a>")
        let new = scanError(#"<r><a x="1" y="2"/><a z="1" x="2" z="3"/></r>"#)
        #expect(new?.column == 35)
        #expect(new?.message == "invalid XML: attribute z appears twice in <a>")
        let long = scanError(#"<r><a content-desc="1" resource-id="2"/><a content-desc="1" resource-id="2" content-desc="3"/></r>"#)
        #expect(long?.column == 77)
        #expect(long?.message == "invalid XML: attribute content-desc appears twice in <a>")
    }

    @Test func namesThatStartLikeThePreviousTagsAreTheirOwn() throws {
        // "checkable" predicted from the tag before must not swallow "checkablex" or stop "check".
        #expect(try scan(#"<r><a checkable="1" bounds="2"/><a checkablex="3" checkable="4" check="5" bounds="6"/></r>"#) == [
            "<r>", "<a checkable=1 bounds=2>", "</>", "<a checkablex=3 checkable=4 check=5 bounds=6>", "</>", "</>",
        ])
        // A closing tag that only starts like the open element's name.
        #expect(scanError(#"<r><ab></abc></r>"#)?.message == "invalid XML: expected </ab> (opened at line 1, column 4), found </abc>")
        #expect(scanError(#"<r><abc></ab></r>"#)?.message == "invalid XML: expected </abc> (opened at line 1, column 4), found </ab>")
        #expect(try scan(#"<android.widget.FrameLayout><android.widget.FrameLayout></android.widget.FrameLayout ></android.widget.FrameLayout>"#) == [
            "<android.widget.FrameLayout>", "<android.widget.FrameLayout>", "</>", "</>",
        ])
    }

    @Test func longValuesAreCheckedPastTheirFirstEightBytes() throws {
        // Values are skipped eight bytes at a time up to the first byte that needs a look.
        #expect(try scan("<a x=\"abcdefghij&amp;klmnopqrstu\" y=\"abcdefghijk\tlmnopqrstuvwxyz0123\"/>") == [
            "<a x=abcdefghij&klmnopqrstu y=abcdefghijk lmnopqrstuvwxyz0123>", "</>",
        ])
        let less = scanError(#"<a x="abcdefghijklmnop<q"/>"#)
        #expect(less?.column == 23)
        #expect(less?.message == "invalid XML: '<' inside the value of attribute x (write &lt;)")
        let control = scanError("<a x=\"abcdefghijklmnopqr\u{1}s\"/>")
        #expect(control?.column == 25)
        #expect(control?.message == "invalid XML: control character byte 0x1 in the value of attribute x")
        let unterminated = scanError(#"<a x="abcdefghijklmnopqrstuvwxyz"#)
        #expect(unterminated?.message == "invalid XML: end of file inside the value of attribute x")
    }

    @Test func attributesNeedSpaceBetweenThem() {
        let e = scanError(#"<a x="1"y="2"/>"#)
        #expect(e?.column == 9)
        #expect(e?.message == "invalid XML: expected a space, '>' or '/>' after an attribute value, found 'y'")
    }

    @Test func secondRootElement() {
        let e = scanError("<a/>\n<b/>")
        #expect(e?.line == 2)
        #expect(e?.column == 1)
        #expect(e?.message == "invalid XML: a second root element <b>; a document has one")
    }

    @Test func textAfterTheRootElement() {
        let e = scanError("<a/>\njunk")
        #expect(e?.line == 2)
        #expect(e?.message == "invalid XML: text outside the root element (found 'j')")
    }

    @Test func noRootElement() {
        let e = scanError("<?xml version=\"1.0\"?>\n<!-- nothing -->\n")
        #expect(e?.message == "invalid XML: no root element")
    }

    @Test func unterminatedCommentPointsAtItsStart() {
        let e = scanError("<a>\n<!-- open\n</a>")
        #expect(e?.line == 2)
        #expect(e?.column == 1)
        #expect(e?.message == "invalid XML: end of file inside a comment (it started here and is never closed with -->)")
    }

    @Test func closingTagWithoutAnOpenElement() {
        let e = scanError("</a>")
        #expect(e?.message == "invalid XML: closing tag </a> without an open element")
    }

    @Test(arguments: ["&#0;", "&#xD800;", "&#x110000;", "&#x;", "&#12a;"])
    func characterReferencesXMLDoesNotAllow(_ ref: String) {
        let e = scanError("<a v=\"\(ref)\"/>")
        #expect(e?.column == 7)
        #expect(e?.message.hasPrefix("invalid XML:") == true)
    }

    @Test func controlCharacterInAnAttributeValue() {
        let e = scanError("<a v=\"x\u{01}\"/>")
        #expect(e?.column == 8)
        #expect(e?.message == "invalid XML: control character byte 0x1 in the value of attribute v")
    }

    @Test func invalidUTF8InAValueIsReportedWhenTheValueIsRead() {
        var bytes = Array(#"<a v="ab"/>"#.utf8)
        bytes[6] = 0xFF
        var t = Transcript()
        let e = inputError { () throws(InputError) in try XMLScanner.scan(bytes, file: "t.xml", into: &t) }
        #expect(e?.column == 7)
        #expect(e?.message == "the value of attribute v is not valid UTF-8")
    }

    @Test func columnsCountBytesAfterMultiByteCharacters() {
        // `<a v="` is 6 bytes, 日本 6, the closing quote 1: the stray x is byte 14.
        let e = scanError("<a v=\"日本\"x/>")
        #expect(e?.column == 14)
    }
}
