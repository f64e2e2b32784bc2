/// The codes a device supports, as one bit per (type, code): `DeviceDescription.has(type:code:)`
/// without hashing. The engine checks every event of every frame against its device's codes (a
/// code the device does not list is dropped, as the kernel drops it); with a dictionary of sets
/// that was two hashes per event, the largest cost of a touch frame passed live (BENCHMARKS.md,
/// touch passthrough). Types and codes beyond the kernel's (EV_MAX, KEY_MAX) are answered from the
/// description itself.
public struct EventCodeBitmap: Sendable, Equatable {
    static let types = 32
    static let codesPerType = 768
    private var words: [UInt64]
    private let description: DeviceDescription

    public init(_ description: DeviceDescription) {
        self.description = description
        var words = [UInt64](repeating: 0, count: Self.types * Self.codesPerType / 64)
        for (type, codes) in description.codes where Int(type) < Self.types {
            for code in codes where Int(code) < Self.codesPerType {
                let bit = Int(type) * Self.codesPerType + Int(code)
                words[bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }
        self.words = words
    }

    /// `description.has(type:code:)`.
    @inline(__always)
    public func has(type: UInt16, code: UInt16) -> Bool {
        guard Int(type) < Self.types, Int(code) < Self.codesPerType else { return description.has(type: type, code: code) }
        let bit = Int(type) * Self.codesPerType + Int(code)
        return words[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }
}
