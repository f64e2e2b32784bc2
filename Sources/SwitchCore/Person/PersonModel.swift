#if canImport(Glibc)
import Glibc  // exp, log: the C library's math, nothing else
#elseif canImport(Darwin)
import Darwin
#endif

/// A simulated switch user (issue 31, docs/typing.md "A simulated person"): how long they take to
/// react, how long they hold the switch, how often they miss a stop, how their switch bounces
/// and how often they press by accident. Read from a JSON file (`PersonDecoder`):
///
///     {"name": "typical", "reactionTime": {"mean": 0.8, "sd": 0.2}, "pressDuration": {"mean": 0.15, "sd": 0.05},
///      "bounce": {"probability": 0.05, "gap": 0.03}, "missProbability": 0.01, "falsePressesPerMinute": 0.2, "seed": 1}
///
/// Every random draw comes from `seed` (`SeededRandom`), so a run is the same every time.
public struct PersonModel: Sendable, Equatable {
    public var name = "person"
    public var description: String?
    /// From the highlight reaching the wanted stop to the switch closing.
    public var reactionTime = Distribution(mean: 0.8, sd: 0.2)
    /// How long a meant press holds the switch closed.
    public var pressDuration = Distribution(mean: 0.15, sd: 0.05)
    /// How long an accidental press holds it (nil: as long as a meant one).
    public var falsePressDuration: Distribution?
    public var bounce = Bounce()
    /// The chance that the person lets the wanted stop go by without pressing (they wait for the
    /// next pass).
    public var missProbability = 0.0
    /// Accidental presses at random moments (a Poisson process).
    public var falsePressesPerMinute = 0.0
    public var seed: UInt64 = 1

    public init() {}

    /// A positive duration drawn from a lognormal with this mean and standard deviation (seconds).
    /// The underlying normal has σ² = ln(1 + sd²/mean²) and μ = ln(mean) − σ²/2, so that the
    /// lognormal's own mean and SD are the ones given (not the normal's).
    public struct Distribution: Sendable, Equatable {
        public var mean: Double
        public var sd: Double

        public init(mean: Double, sd: Double) {
            self.mean = mean
            self.sd = sd
        }

        public var sigma: Double { (log(1 + (sd * sd) / (mean * mean))).squareRoot() }
        public var mu: Double { log(mean) - sigma * sigma / 2 }
        /// SD ÷ mean.
        public var cv: Double { sd / mean }

        public func draw(_ random: inout SeededRandom) -> Double {
            sd == 0 ? mean : exp(mu + sigma * random.normal())
        }

        /// P(X > x), from the normal's tail (Abramowitz & Stegun 7.1.26 for erfc, |error| < 1.5e-7).
        public func probabilityAbove(_ x: Double) -> Double {
            guard x > 0 else { return 1 }
            guard sd > 0 else { return x < mean ? 1 : 0 }
            return 0.5 * PersonModel.erfc((log(x) - mu) / (sigma * 2.0.squareRoot()))
        }

        /// The quantile for probability `p` (0 < p < 1), by bisection over `probabilityAbove`.
        public func quantile(_ p: Double) -> Double {
            guard sd > 0 else { return mean }
            var lo = 0.0, hi = mean * 100
            for _ in 0..<200 {
                let mid = (lo + hi) / 2
                if 1 - probabilityAbove(mid) < p { lo = mid } else { hi = mid }
            }
            return (lo + hi) / 2
        }
    }

    /// Contact bounce: after a release, with `probability`, the switch closes again `gap` seconds
    /// later for `duration` seconds.
    public struct Bounce: Sendable, Equatable {
        public var probability = 0.0
        public var gap = 0.03
        public var duration = 0.005

        public init(probability: Double = 0, gap: Double = 0.03, duration: Double = 0.005) {
            self.probability = probability
            self.gap = gap
            self.duration = duration
        }
    }

    static func erfc(_ x: Double) -> Double {
        let z = abs(x)
        let t = 1 / (1 + 0.3275911 * z)
        let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
        let r = poly * exp(-z * z)
        return x >= 0 ? r : 2 - r
    }
}
