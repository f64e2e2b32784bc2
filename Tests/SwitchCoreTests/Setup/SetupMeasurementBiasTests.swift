import SwitchCore
import Testing

/// The switch test measures the person without bias: over many seeds, the mean of the measured
/// reaction-time means is the person's mean, and the mean of the measured variances (sample
/// variance, n − 1) is the person's variance, each within 4 standard errors of the seeds'
/// spread. (One seed's 20 prompts are a sample: its mean is off by about CV ÷ √20, 3–11 %.)
@Suite("Guided setup: the switch test is unbiased")
struct SetupMeasurementBiasTests {
    /// The switch test alone (no confirmation) of `model` with `seed`: its measurement.
    static func measure(_ model: PersonModel, seed: UInt64) -> SetupMeasurement {
        var p = model
        p.seed = seed
        var settings = SetupSession.Settings()
        settings.seed = seed &* 7919 &+ 13
        var driver = PersonDriver(SetupSession(base: Profile(), settings: settings), person: p)
        var task = SwitchTestOnly()
        driver.take(driver.withWorld { $0.start(at: .zero) }, &task) { _ in }
        _ = driver.run(&task, until: .seconds(900)) { _ in }
        return driver.world.measurement
    }

    struct SwitchTestOnly: PersonTask {
        func goal(_ world: SetupSession) -> PersonGoal? {
            world.phase == .switchTest ? PersonGoal(SetupSession.promptID) : nil
        }
    }

    static func person(_ mean: Double, _ sd: Double, miss: Double = 0, falsePerMinute: Double = 0,
                       bounce: PersonModel.Bounce = .init()) -> PersonModel {
        var p = PersonModel()
        p.reactionTime = .init(mean: mean, sd: sd)
        p.missProbability = miss
        p.falsePressesPerMinute = falsePerMinute
        p.bounce = bounce
        return p
    }

    static func check(_ model: PersonModel, seeds: Int = 150) {
        var means: [Double] = [], variances: [Double] = []
        for seed in 1...UInt64(seeds) {
            let m = measure(model, seed: seed)
            guard let rt = m.reactionTime, m.reactionTimes.count > 1 else { continue }
            means.append(rt.mean)
            variances.append(rt.sd * rt.sd)
        }
        #expect(means.count == seeds)
        func meanAndSE(_ xs: [Double]) -> (Double, Double) {
            let s = SetupMeasurement.Summary(xs)!
            return (s.mean, s.sd / Double(xs.count).squareRoot())
        }
        let (mean, meanSE) = meanAndSE(means), (variance, varianceSE) = meanAndSE(variances)
        let trueVariance = model.reactionTime.sd * model.reactionTime.sd
        #expect(abs(mean - model.reactionTime.mean) < 4 * meanSE, "\(model.reactionTime): mean \(mean) ± \(meanSE)")
        #expect(abs(variance - trueVariance) < 4 * varianceSE, "\(model.reactionTime): variance \(variance) ± \(varianceSE)")
    }

    @Test func switch_test_unbiased_quick() { Self.check(Self.person(0.45, 0.07, miss: 0.01, falsePerMinute: 0.1)) }
    @Test func switch_test_unbiased_typical() {
        Self.check(Self.person(0.8, 0.2, miss: 0.01, falsePerMinute: 0.2, bounce: .init(probability: 0.05, gap: 0.03)))
    }
    @Test func switch_test_unbiased_wide_spread() { Self.check(Self.person(1.0, 0.5, miss: 0.03, falsePerMinute: 0.3)) }
    @Test func switch_test_unbiased_slow() { Self.check(Self.person(2.0, 0.6, miss: 0.05, falsePerMinute: 0.1)) }
    @Test func switch_test_unbiased_tremor() {
        var p = Self.person(0.9, 0.3, miss: 0.02, falsePerMinute: 3, bounce: .init(probability: 0.3, gap: 0.06, duration: 0.02))
        p.falsePressDuration = .init(mean: 0.04, sd: 0.015)
        Self.check(p)
    }
}
