import SwitchCore
import SwitchInput
import SwitchSpeech

/// Speech and sounds switched on from the scanner menu when the profile starts with both off
/// (issue 23): speech-dispatcher is reached when the person first turns one on, not at start (a
/// run without speech must not need it). Until then, and if it cannot be reached (said once on
/// stderr), this adapter does nothing; afterwards it is the speech adapter.
final class SpeechOnDemand: LoopAdapter {
    let name = "speech"
    private let settings: SpeechOutput.Settings
    private var speech: SpeechOutput?
    private var failed = false

    init(_ settings: SpeechOutput.Settings) { self.settings = settings }

    func prepare(nowMonotonic: Int64) -> LoopInterest { speech?.prepare(nowMonotonic: nowMonotonic) ?? LoopInterest() }

    func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] { speech?.dispatch(ready: ready, nowMonotonic: nowMonotonic) ?? [] }

    func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        var notes: [ShellInput] = []
        if speech == nil, !failed, case .setting(let c) = line.event, c.name == "speech" || c.name == "soundEffects", c.to == .bool(true) {
            do {
                let s = try SpeechOutput(settings: settings)
                speech = s
                notes.append(.log("speaking through speech-dispatcher at \(s.address)"))
            } catch {
                failed = true
                notes.append(.log("\(c.name) is on, but \(error)"))
            }
        }
        return notes + (speech?.observe(line, model: model) ?? [])
    }

    func layoutChanged(model: ScanModel) { speech?.layoutChanged(model: model) }

    func finish() { speech?.finish() }
}
