import FuzzSupport
import SwitchCore
import SwitchFormats

/// Recordings through the entry `simulate` uses (evemu here; the format is sniffed, so YAML
/// reaches the libinput-record reader too). What is accepted must group into frames, and its
/// events written as evemu must read back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemu(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        let recording = try RecordingFile.decode(bytes, file: Fuzz.file)
        _ = recording.rebasedForSimulation().mergedFrames()
        for device in recording.devices {
            let written = Array(EvemuFormat.writeEvents(device.events).utf8)
            do {
                let again = try EvemuFormat.parse(written, file: "written.evemu")
                Fuzz.require(again.events == device.events, "events written as evemu read back differently")
            } catch {
                fatalError("events written as evemu do not read: \(error)")
            }
        }
    } catch {
        Fuzz.check(error, in: bytes)
    }
    return 0
}

@_cdecl("fuzz_evemu_main")
public func fuzzEvemuMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzEvemu)
}
