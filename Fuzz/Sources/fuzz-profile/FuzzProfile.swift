import FuzzSupport
import SwitchCore

/// Profiles: every key and range checked, every error naming its setting.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        let profile = try ProfileDecoder.decode(bytes, file: Fuzz.file)
        Fuzz.require(Set(profile.switches.map(\.code)).count == profile.switches.count, "a key bound twice")
        // As a run loads it: the whole-profile check, whose errors and warnings follow the same rules.
        var warnings: [InputError] = []
        do {
            _ = try ProfileDecoder.decode(bytes, file: Fuzz.file, warnings: &warnings)
        } catch {
            Fuzz.check(error, in: bytes)
        }
        for w in warnings { Fuzz.check(w, in: bytes) }
    } catch {
        Fuzz.check(error, in: bytes)
    }
    return 0
}

@_cdecl("fuzz_profile_main")
public func fuzzProfileMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzProfile)
}
