import FuzzSupport
import SwitchCore

/// The native tree format (JSON) and everything done with a tree: scan order, reports, writing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTree(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        Fuzz.exercise(try TreeDecoder.decode(bytes, file: Fuzz.file))
    } catch {
        Fuzz.check(error, in: bytes)
    }
    return 0
}

@_cdecl("fuzz_tree_main")
public func fuzzTreeMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzTree)
}
