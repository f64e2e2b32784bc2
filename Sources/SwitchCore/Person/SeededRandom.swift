#if canImport(Glibc)
import Glibc  // log, cos, exp: the C library's math, nothing else
#elseif canImport(Darwin)
import Darwin
#endif

/// The simulated person's dice: xoshiro256** (Blackman & Vigna 2018), seeded through SplitMix64
/// as its authors recommend, so one 64-bit seed gives the same draws on every machine and every
/// run. Foundation's generators are neither seedable nor the same across platforms.
///
/// Known outputs (the reference C code's): SplitMix64 from seed 0 gives 0xE220A8397B1DCDAF,
/// 0x6E789E6AA1B965F4, 0x06C45D188009454F; `SeededRandom(seed: 0)` is xoshiro256** over those
/// four words (tests in Tests/SwitchCoreTests/Person/SeededRandomTests.swift).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var s0, s1, s2, s3: UInt64

    /// The four words of state from SplitMix64 over `seed` (never all zero).
    public init(seed: UInt64) {
        var mix = SplitMix64(seed: seed)
        s0 = mix.next(); s1 = mix.next(); s2 = mix.next(); s3 = mix.next()
    }

    /// The generator from its four words as they are (the reference code's test vectors).
    init(state: (UInt64, UInt64, UInt64, UInt64)) {
        (s0, s1, s2, s3) = state
    }

    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// Uniform in [0, 1), 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { p > 0 && unit() < p }

    /// A standard normal draw (Box–Muller; the second value of the pair is dropped so that a draw
    /// always takes two words, and a run's draws do not depend on how many came before in pairs).
    public mutating func normal() -> Double {
        let u1 = 1 - unit()  // (0, 1]: the logarithm stays finite
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Exponential with the given mean (the gaps of a Poisson process).
    public mutating func exponential(mean: Double) -> Double { -mean * log(1 - unit()) }
}
