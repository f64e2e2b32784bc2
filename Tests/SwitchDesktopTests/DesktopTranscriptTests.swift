import SwitchCore
import Testing

/// The live desktop's transcript lines (docs/transcript.md): `result` after a perform, `tree`
/// when the source changes.
@Suite struct DesktopTranscriptTests {
    @Test func resultLines() {
        let done = TranscriptLine(t: .seconds(3), .result(PerformResult(.activate, id: ":1.5/a/2", label: "Count, button", .done("action \"Click\""))))
        #expect(TranscriptFormat.jsonl(done) == #"{"t":3.000,"type":"result","action":"activate","id":":1.5/a/2","label":"Count, button","result":"done","how":"action \"Click\""}"#)
        #expect(TranscriptFormat.text(done) == #"   3.000  result     activate  "Count, button" done: action \"Click\""#)
        let failed = TranscriptLine(t: .seconds(1.2), .result(PerformResult(.custom("edit"), id: "x", label: "", .failed("no reply"))))
        #expect(TranscriptFormat.jsonl(failed) == #"{"t":1.200,"type":"result","action":"custom","id":"x","label":"","name":"edit","result":"failed","reason":"no reply"}"#)
        #expect(TranscriptFormat.text(failed) == #"   1.200  result     custom    "edit" on [x] failed: no reply"#)
    }

    @Test func treeLines() {
        let window = TranscriptLine(t: .zero, .tree(TreeSourceChange(.window, app: "testapp.py", detail: "Switch test")))
        #expect(TranscriptFormat.jsonl(window) == #"{"t":0.000,"type":"tree","change":"window","app":"testapp.py","window":"Switch test"}"#)
        #expect(TranscriptFormat.text(window) == #"   0.000  tree       window "Switch test" of "testapp.py""#)
        let ended = TranscriptLine(t: .seconds(5), .tree(TreeSourceChange(.ended, app: "testapp.py", detail: "the application quit")))
        #expect(TranscriptFormat.jsonl(ended) == #"{"t":5.000,"type":"tree","change":"ended","app":"testapp.py","reason":"the application quit"}"#)
        #expect(TranscriptFormat.text(ended) == #"   5.000  tree       ended: "testapp.py": the application quit"#)
        let silent = TranscriptLine(t: .seconds(5), .tree(TreeSourceChange(.notAnswering, app: "a", detail: "no reply within 300 ms")))
        #expect(TranscriptFormat.text(silent) == #"   5.000  tree       not answering: "a": no reply within 300 ms"#)
        let busy = TranscriptLine(t: .seconds(6), .tree(TreeSourceChange(.busy, app: "Chromium", detail: "it changes without a pause: read once every 1 s until it settles")))
        #expect(TranscriptFormat.jsonl(busy) == #"{"t":6.000,"type":"tree","change":"busy","app":"Chromium","reason":"it changes without a pause: read once every 1 s until it settles"}"#)
        #expect(TranscriptFormat.text(busy) == #"   6.000  tree       busy: "Chromium": it changes without a pause: read once every 1 s until it settles"#)
        let settled = TranscriptLine(t: .seconds(9), .tree(TreeSourceChange(.settled, app: "Chromium", detail: "read as it changes again")))
        #expect(TranscriptFormat.text(settled) == #"   9.000  tree       settled: "Chromium": read as it changes again"#)
    }
}
