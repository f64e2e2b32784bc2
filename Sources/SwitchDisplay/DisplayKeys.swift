import SwitchCore

/// Keys, sent by keysym through the keyboard layout in use (issue 23): a combination
/// (`KeyCombo`: the scanner menu's shortcuts, Escape), a text character by character (the
/// keyboard typing into a field without EditableText), or an edit (BackSpace, the text, the
/// arrows). A keysym the layout lacks is still typed (how is the backend's business). Each
/// success says how, for the `result` line ("keys Ctrl+C", "typed 3 characters").
public protocol DisplayKeys: AnyObject {
    /// What carries the keys, as a result line names it ("XTest").
    var via: String { get }

    /// Presses and releases a combination: its modifiers, the level's modifiers, the key.
    func send(_ combo: KeyCombo) -> Result<String, DisplayFailure>

    /// Types `text` (a new line is Return, a tab Tab); stops at the first character it cannot type.
    func typeText(_ text: String) -> Result<String, DisplayFailure>

    /// BackSpace `delete` times, the text, then Left or Right `move` times.
    func typeEdit(delete: Int, text: String, move: Int) -> Result<String, DisplayFailure>

    /// At the end of a run: whatever was changed to send keys (a keymap) is put back.
    func finish()
}
