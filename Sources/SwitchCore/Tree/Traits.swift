/// UIAccessibilityTraits, by their camelCase names (REFERENCE §1). `none` is accepted and adds
/// nothing.
public struct Traits: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let button = Traits(rawValue: 1 << 0)
    public static let link = Traits(rawValue: 1 << 1)
    public static let searchField = Traits(rawValue: 1 << 2)
    public static let keyboardKey = Traits(rawValue: 1 << 3)
    public static let staticText = Traits(rawValue: 1 << 4)
    public static let image = Traits(rawValue: 1 << 5)
    public static let playsSound = Traits(rawValue: 1 << 6)
    public static let selected = Traits(rawValue: 1 << 7)
    public static let summaryElement = Traits(rawValue: 1 << 8)
    public static let updatesFrequently = Traits(rawValue: 1 << 9)
    public static let notEnabled = Traits(rawValue: 1 << 10)
    public static let adjustable = Traits(rawValue: 1 << 11)
    public static let header = Traits(rawValue: 1 << 12)
    public static let tabBar = Traits(rawValue: 1 << 13)
    public static let allowsDirectInteraction = Traits(rawValue: 1 << 14)
    public static let causesPageTurn = Traits(rawValue: 1 << 15)
    public static let startsMediaSession = Traits(rawValue: 1 << 16)

    /// Names in the order they are written out.
    public static let names: [(name: String, trait: Traits)] = [
        ("button", .button), ("link", .link), ("searchField", .searchField), ("keyboardKey", .keyboardKey),
        ("staticText", .staticText), ("image", .image), ("playsSound", .playsSound), ("selected", .selected),
        ("summaryElement", .summaryElement), ("updatesFrequently", .updatesFrequently),
        ("notEnabled", .notEnabled), ("adjustable", .adjustable), ("header", .header), ("tabBar", .tabBar),
        ("allowsDirectInteraction", .allowsDirectInteraction), ("causesPageTurn", .causesPageTurn),
        ("startsMediaSession", .startsMediaSession),
    ]

    public static func named(_ name: String) -> Traits? {
        if name == "none" { return [] }
        return names.first(where: { $0.name == name })?.trait
    }

    public var nameList: [String] { Traits.names.filter { contains($0.trait) }.map(\.name) }

    /// button, link, searchField and keyboardKey are mutually exclusive (a control is one kind).
    public static let exclusiveKinds: Traits = [.button, .link, .searchField, .keyboardKey]

    /// Traits that make Switch Control stop on an element when it does not say otherwise.
    public static let interactive: Traits = [.button, .link, .searchField, .keyboardKey, .adjustable, .tabBar, .allowsDirectInteraction]
}
