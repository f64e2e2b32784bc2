import SwitchCore
import Testing

@Suite("Descriptions")
struct DescriptionTests {
    @Test func labelValueTraitsHintInVoiceOverOrder() {
        #expect(ElementDescription.spoken(Element(label: "Add", hint: "Adds a city.", traits: .button)) == "Add, button, Adds a city.")
        #expect(ElementDescription.spoken(Element(label: "Volume", value: "50%", traits: .adjustable)) == "Volume, 50%, adjustable")
        #expect(ElementDescription.spoken(Element(label: "Wi-Fi", value: "On", traits: [.button, .selected])) == "Wi-Fi, On, button, selected")
        #expect(ElementDescription.spoken(Element(label: "Send", traits: [.button, .notEnabled])) == "Send, button, dimmed")
        #expect(ElementDescription.spoken(Element(label: "Title", traits: [.header, .staticText])) == "Title, heading")
    }

    @Test func emptyPartsAreLeftOut() {
        #expect(ElementDescription.spoken(Element(label: "  ", value: "", hint: "Opens it.", traits: .link)) == "link, Opens it.")
        #expect(ElementDescription.spoken(Element()) == "")
    }
}
