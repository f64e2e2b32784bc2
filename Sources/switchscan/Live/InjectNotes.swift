import SwitchInput

/// What `run --inject` says at start about the scanner menu's keyboard and pointer (issue 23).
enum InjectNotes {
    static func devices(_ output: UInputOutput?) -> [String] {
        guard let output else { return [] }
        var notes: [String] = []
        if let node = output.pointer.node { notes.append("gestures through \(node) \"\(UInputPointer.deviceName)\"") }
        if let keyboard = output.keyboard {
            notes.append("keys through \(keyboard.node ?? "a uinput keyboard") \"\(UInputKeyboard.deviceName)\", by keysym in the layout \(keyboard.layout.names)")
        } else if let why = output.keyboardProblem {
            notes.append("the scanner menu's keys cannot be sent: \(why)")
        }
        return notes
    }
}
