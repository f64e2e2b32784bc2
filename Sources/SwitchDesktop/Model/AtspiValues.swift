/// AT-SPI's roles, states and interfaces as the bus carries them (`GetRole` → u, `GetState` → au,
/// `GetInterfaces` → as), in plain Swift: the mapping to UIAccessibility (`AtspiMapping`) is a pure
/// function of these values and is tested without a bus. The numbers are at-spi2-core's
/// (atspi-constants.h), which are part of the D-Bus protocol and never renumbered.

/// An `AtspiRole` value.
public struct AtspiRole: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let invalid = AtspiRole(rawValue: 0)
    public static let alert = AtspiRole(rawValue: 2)
    public static let animation = AtspiRole(rawValue: 3)
    public static let checkBox = AtspiRole(rawValue: 7)
    public static let checkMenuItem = AtspiRole(rawValue: 8)
    public static let columnHeader = AtspiRole(rawValue: 10)
    public static let comboBox = AtspiRole(rawValue: 11)
    public static let dial = AtspiRole(rawValue: 15)
    public static let dialog = AtspiRole(rawValue: 16)
    public static let filler = AtspiRole(rawValue: 20)
    public static let frame = AtspiRole(rawValue: 23)
    public static let icon = AtspiRole(rawValue: 26)
    public static let image = AtspiRole(rawValue: 27)
    public static let label = AtspiRole(rawValue: 29)
    public static let list = AtspiRole(rawValue: 31)
    public static let listItem = AtspiRole(rawValue: 32)
    public static let menu = AtspiRole(rawValue: 33)
    public static let menuBar = AtspiRole(rawValue: 34)
    public static let menuItem = AtspiRole(rawValue: 35)
    public static let pageTab = AtspiRole(rawValue: 37)
    public static let pageTabList = AtspiRole(rawValue: 38)
    public static let panel = AtspiRole(rawValue: 39)
    public static let passwordText = AtspiRole(rawValue: 40)
    public static let popupMenu = AtspiRole(rawValue: 41)
    public static let progressBar = AtspiRole(rawValue: 42)
    public static let pushButton = AtspiRole(rawValue: 43)
    public static let radioButton = AtspiRole(rawValue: 44)
    public static let radioMenuItem = AtspiRole(rawValue: 45)
    public static let rowHeader = AtspiRole(rawValue: 47)
    public static let scrollBar = AtspiRole(rawValue: 48)
    public static let scrollPane = AtspiRole(rawValue: 49)
    public static let separator = AtspiRole(rawValue: 50)
    public static let slider = AtspiRole(rawValue: 51)
    public static let spinButton = AtspiRole(rawValue: 52)
    public static let table = AtspiRole(rawValue: 55)
    public static let tableCell = AtspiRole(rawValue: 56)
    public static let tableColumnHeader = AtspiRole(rawValue: 57)
    public static let tableRowHeader = AtspiRole(rawValue: 58)
    public static let terminal = AtspiRole(rawValue: 60)
    public static let text = AtspiRole(rawValue: 61)
    public static let toggleButton = AtspiRole(rawValue: 62)
    public static let toolBar = AtspiRole(rawValue: 63)
    public static let toolTip = AtspiRole(rawValue: 64)
    public static let window = AtspiRole(rawValue: 69)
    public static let header = AtspiRole(rawValue: 71)
    public static let paragraph = AtspiRole(rawValue: 73)
    public static let application = AtspiRole(rawValue: 75)
    public static let entry = AtspiRole(rawValue: 79)
    public static let caption = AtspiRole(rawValue: 81)
    public static let heading = AtspiRole(rawValue: 83)
    public static let link = AtspiRole(rawValue: 88)
    public static let treeItem = AtspiRole(rawValue: 91)
    public static let listBox = AtspiRole(rawValue: 98)
    public static let levelBar = AtspiRole(rawValue: 103)
    public static let timer = AtspiRole(rawValue: 115)
    public static let staticText = AtspiRole(rawValue: 116)
    public static let pushButtonMenu = AtspiRole(rawValue: 129)
    // What web documents (Chromium, Firefox) and GTK 4 add.
    public static let internalFrame = AtspiRole(rawValue: 28)
    public static let viewport = AtspiRole(rawValue: 68)
    public static let footer = AtspiRole(rawValue: 72)
    public static let documentFrame = AtspiRole(rawValue: 82)
    public static let section = AtspiRole(rawValue: 85)
    public static let form = AtspiRole(rawValue: 87)
    public static let tableRow = AtspiRole(rawValue: 90)
    public static let documentWeb = AtspiRole(rawValue: 95)
    public static let grouping = AtspiRole(rawValue: 99)
    public static let notification = AtspiRole(rawValue: 101)
    public static let blockQuote = AtspiRole(rawValue: 105)
    public static let definition = AtspiRole(rawValue: 108)
    public static let article = AtspiRole(rawValue: 109)
    public static let landmark = AtspiRole(rawValue: 110)
    public static let log = AtspiRole(rawValue: 111)
    public static let descriptionList = AtspiRole(rawValue: 121)
    public static let descriptionTerm = AtspiRole(rawValue: 122)
    public static let descriptionValue = AtspiRole(rawValue: 123)
    public static let footnote = AtspiRole(rawValue: 124)
    public static let statusBar = AtspiRole(rawValue: 54)
    public static let splitPane = AtspiRole(rawValue: 53)
    public static let tree = AtspiRole(rawValue: 65)
    public static let treeTable = AtspiRole(rawValue: 66)
    public static let documentText = AtspiRole(rawValue: 94)
    public static let embedded = AtspiRole(rawValue: 78)
}

/// An AT-SPI state set: bit n is `AtspiStateType` n (`GetState` sends it as two 32-bit words,
/// low word first).
public struct AtspiStates: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// From `GetState`'s words.
    public init(words: [UInt32]) {
        var v: UInt64 = 0
        if words.count > 0 { v |= UInt64(words[0]) }
        if words.count > 1 { v |= UInt64(words[1]) << 32 }
        self.init(rawValue: v)
    }

    private static func bit(_ n: Int) -> AtspiStates { AtspiStates(rawValue: 1 << UInt64(n)) }

    public static let active = bit(1)
    public static let checked = bit(4)
    public static let defunct = bit(6)
    public static let editable = bit(7)
    public static let enabled = bit(8)
    public static let expandable = bit(9)
    public static let expanded = bit(10)
    public static let focusable = bit(11)
    public static let focused = bit(12)
    public static let horizontal = bit(14)
    public static let modal = bit(16)
    public static let multiLine = bit(17)
    public static let pressed = bit(20)
    public static let selectable = bit(22)
    public static let selected = bit(23)
    public static let sensitive = bit(24)
    public static let showing = bit(25)
    public static let transient = bit(28)
    public static let vertical = bit(29)
    public static let visible = bit(30)
    public static let managesDescendants = bit(31)
    public static let indeterminate = bit(32)
    public static let checkable = bit(41)
    public static let readOnly = bit(43)
}

/// The AT-SPI interfaces a node implements (`GetInterfaces`: "org.a11y.atspi.Action", …), as the
/// few the mapping and the performer use.
public struct AtspiInterfaces: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let action = AtspiInterfaces(rawValue: 1 << 0)
    public static let component = AtspiInterfaces(rawValue: 1 << 1)
    public static let value = AtspiInterfaces(rawValue: 1 << 2)
    public static let text = AtspiInterfaces(rawValue: 1 << 3)
    public static let editableText = AtspiInterfaces(rawValue: 1 << 4)
    public static let selection = AtspiInterfaces(rawValue: 1 << 5)
    public static let collection = AtspiInterfaces(rawValue: 1 << 6)

    /// From D-Bus interface names; unknown names are ignored.
    public init(names: [String]) {
        var s: AtspiInterfaces = []
        for n in names {
            switch n {
            case "org.a11y.atspi.Action": s.insert(.action)
            case "org.a11y.atspi.Component": s.insert(.component)
            case "org.a11y.atspi.Value": s.insert(.value)
            case "org.a11y.atspi.Text": s.insert(.text)
            case "org.a11y.atspi.EditableText": s.insert(.editableText)
            case "org.a11y.atspi.Selection": s.insert(.selection)
            case "org.a11y.atspi.Collection": s.insert(.collection)
            default: break
            }
        }
        self = s
    }
}
