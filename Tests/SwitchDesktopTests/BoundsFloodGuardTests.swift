import SwitchCore
@testable import SwitchDesktop
import Testing

/// BoundsFloodGuard's timelines (3 unchanged checks within 2 s pause bounds events for 30 s).
@Suite struct BoundsFloodGuardTests {
    var g = BoundsFloodGuard()

    mutating func at(_ s: Double, _ e: BoundsFloodGuard.Event) -> [BoundsFloodGuard.Output] { g.handle(e, at: .seconds(s)) }

    @Test mutating func flood_pauses() {
        #expect(at(0, .checked(moved: false)) == [])
        #expect(at(0.15, .checked(moved: false)) == [])
        #expect(at(0.3, .checked(moved: false)) == [.pause, .setDeadline(.seconds(30.3))])
        #expect(g.isPaused)
        #expect(at(1, .checked(moved: false)) == [])
        #expect(at(30, .deadline) == [])  // early
        #expect(at(30.3, .deadline) == [.resume])
        #expect(!g.isPaused)
        #expect(g.deadline == nil)
    }

    @Test mutating func layout_tail_ignored() {
        for t in [0.0, 0.25, 0.5] {
            #expect(at(t, .shapeRead) == [])
            #expect(at(t + 0.05, .checked(moved: false)) == [])  // the change's late layout
        }
        #expect(!g.isPaused)
        #expect(at(0.8, .checked(moved: false)) == [])  // 0.3 s after the read: noted
        #expect(at(0.9, .checked(moved: false)) == [])
        #expect(at(1.0, .checked(moved: false)) == [.pause, .setDeadline(.seconds(31))])
        #expect(at(5, .shapeRead) == [])  // while paused: remembered only
        #expect(g.isPaused)
    }

    @Test mutating func slow_checks_stay() {
        for t in [0.0, 3, 6, 9] { #expect(at(t, .checked(moved: false)) == []) }
        #expect(!g.isPaused)
    }

    @Test mutating func real_move_resets() {
        _ = at(0, .checked(moved: false))
        _ = at(0.1, .checked(moved: false))
        #expect(at(0.2, .checked(moved: true)) == [])
        #expect(at(0.3, .checked(moved: false)) == [])
        #expect(at(0.4, .checked(moved: false)) == [])
        #expect(at(0.5, .checked(moved: false)) == [.pause, .setDeadline(.seconds(30.5))])
    }

    @Test mutating func stale_deadline_while_listening() {
        #expect(at(5, .deadline) == [])
    }
}
