import Glibc
import SwitchCore
import SwitchInput
import Testing

/// The live loop with adapters (docs/architecture.md, the adapters): a real `LiveRunner` with no
/// input devices and an adapter over a real pipe. Timeline of `aDeadlineThenAReadyDescriptor`:
///
///     t=0  scan started, |a
///     +40 ms  the adapter's deadline: dispatch(ready: []) writes a byte into its pipe
///     next wakeup  the pipe is readable: dispatch(ready: [pipe]) returns the layout [b, a];
///                  the highlight stays on a (same id), so no line
///     0.3 s  --until: the loop ends, finish() once
@Suite(.serialized)
struct LoopAdapterTests {
    final class PipeAdapter: LoopAdapter {
        let name = "pipe"
        var fds: [Int32] = [-1, -1]
        let start = MonotonicClock.nowMicroseconds()
        var deadline: Int64?
        var wrote = false
        var dispatches: [(ready: [LoopFD], byDeadline: Bool)] = []
        var observed: [TranscriptLine] = []
        var finished = 0
        let next: ElementTree
        var answerPerform: TranscriptEvent?

        init(next: ElementTree) {
            self.next = next
            _ = fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress) }
            deadline = start + 40_000
        }

        deinit {
            close(fds[0])
            close(fds[1])
        }

        func prepare(nowMonotonic: Int64) -> LoopInterest {
            LoopInterest(fds: [LoopFD(fd: fds[0], events: LoopFD.readable)], deadline: deadline)
        }

        func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
            let byDeadline = deadline.map { $0 <= nowMonotonic } ?? false
            dispatches.append((ready, byDeadline))
            if byDeadline {
                deadline = nil
                var byte: UInt8 = 1
                _ = write(fds[1], &byte, 1)
                wrote = true
                return [.log("wrote")]
            }
            var byte: UInt8 = 0
            if ready.contains(where: { $0.fd == fds[0] }) { _ = read(fds[0], &byte, 1) }
            return [.layout(next)]
        }

        func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
            observed.append(line)
            return []
        }

        func finish() { finished += 1 }
    }

    static func button(_ id: String, y: Double) -> Element {
        Element(id: id, label: id.uppercased(), traits: .button, frame: Rect(x: 0, y: y, width: 100, height: 40))
    }

    static func tree(_ children: [Element]) -> ElementTree {
        ElementTree(screen: Size(width: 400, height: 800),
                    root: Element(id: "root", frame: Rect(x: 0, y: 0, width: 400, height: 800), children: children))
    }

    @Test func aDeadlineThenAReadyDescriptor() throws {
        let adapter = PipeAdapter(next: Self.tree([Self.button("b", y: 0), Self.button("a", y: 100)]))
        var lines: [TranscriptLine] = []
        var notes: [String] = []
        let runner = try LiveRunner(devices: [], adapters: [adapter],
                                    hooks: .init(emit: { lines.append($0) }, log: { notes.append($0) }))
        var engine = Engine(tree: Self.tree([Self.button("a", y: 0)]), profile: Profile(), devices: [DeviceDescription]())
        let ending = try runner.run(&engine, until: .seconds(0.3))
        #expect(ending == .until)

        // First the deadline (no descriptor ready), then the pipe (readable), nothing else.
        #expect(adapter.dispatches.count == 2)
        #expect(adapter.dispatches.first?.byDeadline == true)
        #expect(adapter.dispatches.first?.ready.isEmpty == true)
        #expect(adapter.dispatches.last?.ready.map(\.fd) == [adapter.fds[0]])
        #expect(adapter.dispatches.last.map { $0.ready[0].events & LoopFD.readable != 0 } == true)
        #expect(notes.contains("wrote"))

        // The layout reached the engine: its model is the new tree; the highlight stayed on a.
        #expect(engine.model.items.map(\.id) == ["b", "a"])
        #expect(lines.map(\.event) == [.scan(started: true), .highlight(id: "a", kind: .item, label: "A, button")])
        // The adapter saw every line, in order, and was finished once.
        #expect(adapter.observed == lines)
        #expect(adapter.finished == 1)
    }

    /// An adapter's answer to a line is written at that line's instant, after it, and is not
    /// shown to the adapters again.
    @Test func anObservedLineIsAnsweredAtItsInstant() throws {
        final class Answering: LoopAdapter {
            let name = "answer"
            var seen = 0
            func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
                seen += 1
                guard case .highlight(let id, _, _) = line.event else { return [] }
                return [.line(.speak("seen \(id) of \(model.items.count)"))]
            }
        }
        let adapter = Answering()
        var lines: [TranscriptLine] = []
        let runner = try LiveRunner(devices: [], adapters: [adapter], hooks: .init(emit: { lines.append($0) }, log: { _ in }))
        var engine = Engine(tree: Self.tree([Self.button("a", y: 0), Self.button("b", y: 100)]), profile: Profile(),
                            devices: [DeviceDescription]())
        _ = try runner.run(&engine, until: .seconds(1.05))
        #expect(lines.map(\.event) == [.scan(started: true), .highlight(id: "a", kind: .item, label: "A, button"), .speak("seen a of 2"),
                                       .highlight(id: "b", kind: .item, label: "B, button"), .speak("seen b of 2")])
        #expect(lines[2].t == lines[1].t && lines[4].t == lines[3].t)
        #expect(lines[3].t == .seconds(1))
        #expect(adapter.seen == 3)
    }
}
