import FuzzSupport
import SwitchCore
import SwitchFormats

/// The entry every command reads trees through: it sniffs the content and hands it to the native
/// reader or an importer (iOS and Android XML, Chrome DevTools JSON, Chromium text dumps).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    let detected = TreeFile.detect(bytes)
    do {
        let imported = try TreeFile.importTree(bytes, file: Fuzz.file)
        Fuzz.require(detected == imported.format, "detect says \(String(describing: detected)), import read \(imported.format)")
        Fuzz.exercise(imported.tree)
    } catch {
        Fuzz.check(error, in: bytes)
    }
    return 0
}

@_cdecl("fuzz_import_main")
public func fuzzImportMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzImport)
}
