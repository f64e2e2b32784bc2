import FuzzSupport
import SwitchCore

/// Every tree the tree fuzzer reads, drawn for people: the screen picture (`tree show --format
/// svg`) and a session report over it (`simulate --report`), after the real engine has scanned it
/// for a while (RELIABILITY.md: issue 22's huge screen trapped in the picture's layout).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPicture(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        Fuzz.draw(try TreeDecoder.decode(bytes, file: Fuzz.file))
    } catch {
        Fuzz.check(error, in: bytes)
    }
    return 0
}

@_cdecl("fuzz_picture_main")
public func fuzzPictureMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzPicture)
}
