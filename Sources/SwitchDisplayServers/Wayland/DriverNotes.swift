import SwitchInput

/// What a desktop's loop adapter (GNOME's, KWin's) says at the end of its turn: the notes that
/// waited (the extension or the script came or went), then at most one end of the run, said
/// once: the compositor's own (`WaylandDriver`: the socket hung up) or the desktop leaving the
/// session bus. After it the adapter watches nothing.
///
///     note        queued for the next turn (`waiting`: the adapter asks to be woken now)
///     turn        notes first, then the turn's output; a fatal among it, or `gone`: ended
struct DriverNotes {
    private var notes: [String] = []
    /// The run's end was said.
    private(set) var ended = false

    var waiting: Bool { !notes.isEmpty }

    mutating func note(_ text: String) { notes.append(text) }

    /// The turn's output: the waiting notes and `more`, then `out`; when `out` holds no fatal and
    /// the desktop is `gone` (why), a fatal naming `desktop`.
    mutating func turn(_ out: [ShellInput], more: [String] = [], desktop: String, gone: String?) -> [ShellInput] {
        var said = (notes + more).map { ShellInput.log($0) } + out
        notes = []
        if said.contains(where: { if case .fatal = $0 { true } else { false } }) {
            ended = true
        } else if let gone {
            ended = true
            said.append(.fatal(DriverNotes.wentAway(desktop, gone)))
        }
        return said
    }

    /// "GNOME Shell went away (why): nothing can be shown or done on the desktop any more".
    static func wentAway(_ desktop: String, _ why: String) -> String {
        "\(desktop) went away (\(why)): nothing can be shown or done on the desktop any more"
    }
}
