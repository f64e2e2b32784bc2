@_spi(Fuzzing) import SwitchFormats
import FuzzSupport
import SwitchCore

/// `libinput record` YAML. The reader takes canonical event lines itself and leaves the rest to
/// Yams; both ways must agree on every input (accept the same recording or both refuse).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    let fast: Recording?
    do {
        fast = try LibinputRecordFormat.parse(bytes, file: Fuzz.file)
    } catch {
        Fuzz.check(error, in: bytes)
        fast = nil
    }
    let slow = try? LibinputRecordFormat.parse(bytes, file: Fuzz.file, readingFramesAhead: false)
    Fuzz.require(fast == slow, "reading frames ahead gives \(fast.map { "\($0.eventCount) events" } ?? "an error"), Yams alone \(slow.map { "\($0.eventCount) events" } ?? "an error")")
    if let fast { _ = fast.mergedFrames() }
    return 0
}

@_cdecl("fuzz_libinput_main")
public func fuzzLibinputMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzLibinput)
}
