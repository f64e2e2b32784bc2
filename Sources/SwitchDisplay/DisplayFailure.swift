/// Why the display could not carry something out, in the words a `result` line gives
/// ("the X server has no XTest"). The backend that failed writes it; the seam only passes it on.
public struct DisplayFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
