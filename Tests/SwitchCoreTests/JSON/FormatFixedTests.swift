import Testing
@testable import SwitchCore

/// `formatFixed`: the one fixed-decimal formatter of reports (`text stats`, the session report).
struct FormatFixedTests {
    @Test func padsToTheDigitsAsked() {
        #expect(formatFixed(2, 3) == "2.000")
        #expect(formatFixed(2.73, 3) == "2.730")
        #expect(formatFixed(11.175_2, 2) == "11.18")
        #expect(formatFixed(4.395, 0) == "4")
    }

    @Test func keepsTheSignOfANegativeValue() {
        // The session report's own copy printed −0.5 as "0.5" (its whole part was 0).
        #expect(formatFixed(-0.5, 2) == "-0.50")
        #expect(formatFixed(-12.25, 1) == "-12.3")   // halves away from zero, as Double.rounded()
        #expect(formatFixed(-1.004, 2) == "-1.00")
    }

    @Test func aValueThatRoundsToZeroHasNoMinusSign() {
        #expect(formatFixed(-0.004, 2) == "0.00")
        #expect(formatFixed(-0.0, 1) == "0.0")
    }

    @Test func binaryNoiseDoesNotShow() {
        #expect(formatFixed(0.1 + 0.2, 3) == "0.300")
        #expect(formatFixed(50.000_000_000_01, 2) == "50.00")
    }
}
