import Foundation
import SwitchCore
import SwitchFormats

/// The shell's file access: read bytes, turn every failure into an `InputError` naming the file.
enum InputFiles {
    static func read(_ path: String) throws(InputError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                throw InputError(file: path, message: isDir.boolValue ? "is a directory, expected a file" : "cannot be read (permission denied?)")
            }
            throw InputError(file: path, message: "no such file")
        }
        return [UInt8](data)
    }

    static func tree(_ path: String) throws(InputError) -> ElementTree {
        try TreeFile.decode(read(path), file: path)
    }
}
