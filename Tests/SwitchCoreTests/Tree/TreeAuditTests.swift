import SwitchCore
import Testing

@Suite("Tree audit")
struct TreeAuditTests {
    func findings(_ children: [String]) throws -> [String] {
        TreeAudit.findings(try loadTree(screenTree(children))).map(\.description)
    }

    @Test func aCleanTreeHasNoFindings() throws {
        #expect(try findings([button("add", [0, 0, 40, 40])]).isEmpty)
    }

    @Test func missingLabelOnAScanItem() throws {
        #expect(try findings(["{\"id\": \"b\", \"traits\": [\"button\"], \"frame\": [0, 0, 40, 40]}"])
            == ["b: scan item has no label"])
    }

    @Test func labelContainingItsControlType() throws {
        #expect(try findings(["{\"id\": \"b\", \"label\": \"Add button\", \"traits\": [\"button\"], \"frame\": [0, 0, 40, 40]}"])
            == ["b: label \"Add button\" names its control type (\"button\"); the button trait already says it"])
        #expect(try findings(["{\"id\": \"s\", \"label\": \"Volume slider\", \"traits\": [\"adjustable\"], \"frame\": [0, 0, 40, 40]}"])
            == ["s: label \"Volume slider\" names its control type (\"slider\"); the adjustable trait already says it"])
        // "Buttonwood" is not the word "button".
        #expect(try findings(["{\"id\": \"b\", \"label\": \"Buttonwood\", \"traits\": [\"button\"], \"frame\": [0, 0, 40, 40]}"]).isEmpty)
    }

    @Test func labelEndingWithAPeriod() throws {
        #expect(try findings(["{\"id\": \"b\", \"label\": \"Add.\", \"traits\": [\"button\"], \"frame\": [0, 0, 40, 40]}"])
            == ["b: label \"Add.\" ends with a period"])
        #expect(try findings(["{\"id\": \"b\", \"label\": \"More...\", \"traits\": [\"button\"], \"frame\": [0, 0, 40, 40]}"]).isEmpty)
    }

    @Test func hintWithoutAPeriodOrNamingAGesture() throws {
        #expect(try findings(["{\"id\": \"b\", \"label\": \"Add\", \"hint\": \"Adds a city\", \"traits\": [\"button\"], \"frame\": [0, 0, 40, 40]}"])
            == ["b: hint \"Adds a city\" does not end with a period"])
        #expect(try findings(["{\"id\": \"b\", \"label\": \"Add\", \"hint\": \"Double tap to add a city.\", \"traits\": [\"button\"], \"frame\": [0, 0, 40, 40]}"])
            == ["b: hint \"Double tap to add a city.\" names a gesture (\"double tap\"); say what happens instead"])
        #expect(try findings(["{\"id\": \"b\", \"label\": \"Photos\", \"hint\": \"Swipe up to see more.\", \"traits\": [\"button\"], \"frame\": [0, 0, 40, 40]}"])
            == ["b: hint \"Swipe up to see more.\" names a gesture (\"swipe\"); say what happens instead"])
    }

    @Test func mutuallyExclusiveTraits() throws {
        #expect(try findings(["{\"id\": \"b\", \"label\": \"Docs\", \"traits\": [\"button\", \"link\"], \"frame\": [0, 0, 40, 40]}"])
            == ["b: traits button and link are mutually exclusive"])
    }

    @Test func zeroSizeAndOffScreenFrames() throws {
        #expect(try findings([
            "{\"id\": \"z\", \"label\": \"Zero\", \"traits\": [\"button\"], \"frame\": [10, 10, 0, 40]}",
            "{\"id\": \"o\", \"label\": \"Off\", \"traits\": [\"button\"], \"frame\": [500, 10, 40, 40]}",
            "{\"id\": \"p\", \"label\": \"Partly\", \"traits\": [\"button\"], \"frame\": [380, 10, 40, 40]}",
        ]) == ["z: frame [10, 10, 0, 40] has zero size", "o: frame [500, 10, 40, 40] is off screen (screen is 400×800)"])
    }

    @Test func duplicateIds() throws {
        #expect(try findings([button("x", [0, 0, 40, 40]), button("x", [0, 100, 40, 40])])
            == ["/1: duplicate id \"x\" (an earlier element has it; this one was renamed /1)"])
    }

    @Test func hiddenElementsAreNotAudited() throws {
        #expect(try findings(["{\"id\": \"h\", \"traits\": [\"button\"], \"elementsHidden\": true, \"frame\": [0, 0, 0, 0]}"]).isEmpty)
    }

    @Test func theDemoTreeIsClean() throws {
        #expect(TreeAudit.findings(try demoTree()).isEmpty)
    }
}
