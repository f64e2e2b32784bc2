import Foundation
import TestPrograms
import Testing

/// The tests' helper for the programs they start (issue 32): a program missing here fails the test
/// with its Debian package named, from the same table the packages suite checks
/// (scripts/apt/programs.txt); a test is never skipped for it.
@Suite struct ProgramsTests {
    /// Programs that exist nowhere, spelt so the packages suite (scripts/packages/programs.py) does
    /// not take them for programs the tests call.
    static let bin = "/usr/" + "bin/", libexec = "/usr/" + "libexec/"

    @Test func aMissingProgramIsNamedWithItsDebianPackage() {
        let table = ["xclip": "xclip", "/usr/libexec/at-spi-bus-launcher": "at-spi2-core", "swift": "swift"]
        let absent: (String) -> Bool = { _ in false }
        #expect(Programs.missing(["/usr/bin/xclip"], table: table, present: absent) == ["missing: xclip (Debian package xclip)"])
        #expect(Programs.missing(["xclip"], table: table, present: absent) == ["missing: xclip (Debian package xclip)"])
        #expect(Programs.missing(["/usr/libexec/at-spi-bus-launcher"], table: table, present: absent)
            == ["missing: /usr/libexec/at-spi-bus-launcher (Debian package at-spi2-core)"])
        #expect(Programs.missing(["/usr/bin/swift"], table: table, present: absent) == ["missing: swift (the Swift toolchain)"])
        #expect(Programs.missing([Self.bin + "unheard-of"], table: table, present: absent)
            == ["missing: unheard-of (no Debian package for it in scripts/apt/programs.txt)"])
        #expect(Programs.missing(["/work/x/.build/debug/switchscan"], table: table, present: absent)
            == ["missing: /work/x/.build/debug/switchscan (built by this project: swift build --build-tests)"])
        #expect(Programs.missing(["/usr/bin/xclip", Self.bin + "unheard-of"], table: table, present: { $0.hasSuffix("xclip") })
            == ["missing: unheard-of (no Debian package for it in scripts/apt/programs.txt)"])
    }

    /// The real table names the packages of the two programs a fresh machine lacked (issue 32).
    @Test func theTableNamesTheClipboardAndTerminalPackages() {
        #expect(Programs.table["xclip"] == "xclip")
        #expect(Programs.table["xfce4-terminal"] == "xfce4-terminal")
        #expect(Programs.table["Xvfb"] == "xvfb")
        #expect(Programs.message("/usr/bin/xfce4-terminal") == "missing: xfce4-terminal (Debian package xfce4-terminal)")
    }

    @Test func theTableIsReadAsTheSuiteReadsIt() {
        let rows = Programs.parse("# comment\nvm scripts/x.sh\nxclip   xclip  # the clipboard\n\n" + Self.libexec + "a b\nbad row here\n")
        #expect(rows == ["xclip": "xclip", Self.libexec + "a": "b"])
    }

    @Test func requireThrowsTheMessagesAndPassesWhatIsHere() throws {
        try Programs.require("/bin/sh", "sh")
        #expect(Programs.isPresent("/usr/share/common-licenses/GPL-3"))
        #expect(!Programs.isPresent(Self.bin + "surely-not-a-program-here"))
        let error = #expect(throws: Programs.Missing.self) { try Programs.require("/bin/sh", Self.bin + "surely-not-a-program-here") }
        #expect(error?.description == "missing: surely-not-a-program-here (no Debian package for it in scripts/apt/programs.txt)")
        let python = #expect(throws: Programs.Missing.self) {
            try Programs.requirePython([("import json", "python3"), ("import surely_not_a_module_here", "python3-surely")])
        }
        #expect(python?.description == "missing: the Python module of `import surely_not_a_module_here` (Debian package python3-surely)")
    }
}
