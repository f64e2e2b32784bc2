import Foundation
import SwitchCore
import Testing

/// Issue 32, point 11: the manual said less than the code. The limits table of
/// docs/reliability.md had no row for keyboard layouts, word lists and phrase files, and
/// docs/typing.md's "Adding a language" wrote into a folder no step had made. The docs suite runs
/// the examples it can; these two cannot run there (the word list needs wordfreq from pip), so
/// they are checked against the code here.
@Suite("the manual's limits and steps")
struct ReaderLimitsDocsTests {
    static func page(_ name: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/\(name)"), encoding: .utf8)
    }

    /// The size column of the row that starts with `reader`, in docs/reliability.md's table.
    static func sizeColumn(_ reader: String) throws -> String? {
        let row = try page("reliability.md").split(separator: "\n").first { $0.hasPrefix("| \(reader) ") }
        return row.map { $0.split(separator: "|", omittingEmptySubsequences: false)[2].trimmingCharacters(in: .whitespaces) }
    }

    @Test(arguments: [("profiles", ReaderLimits.FileKind.profile),
                      ("keyboard layouts (`keyboards/NAME.json`)", .layout),
                      ("word lists (`keyboards/words/LANGUAGE.txt`)", .wordList),
                      ("`text stats` phrase files", .phrases)])
    func theLimitsTableGivesEachReadersSize(_ reader: String, _ kind: ReaderLimits.FileKind) throws {
        let size = try #require(try Self.sizeColumn(reader), "no row for \(reader) in docs/reliability.md")
        #expect(size == "\(ReaderLimits.standard.bytes(kind) >> 20) MiB", "\(reader): \(size)")
    }

    /// Every file the steps of "Adding a language" write under `~/.config` is in a folder an
    /// earlier line makes (`mkdir -p`), as a new user types them on a fresh account.
    @Test func addingALanguageMakesEachFolderBeforeWritingInIt() throws {
        let text = try Self.page("typing.md")
        let start = try #require(text.range(of: "\n## Adding a language\n"))
        let section = text[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let lines = section[..<end].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var made: [String] = []
        var written = 0
        for line in lines {
            if line.hasPrefix("mkdir -p ") { made += line.dropFirst(9).split(separator: " ").map(String.init) }
            guard let redirect = line.range(of: "> ~/") else { continue }
            let target = String(line[line.index(after: redirect.lowerBound)...]).trimmingCharacters(in: .whitespaces)
            let folder = String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)])
            #expect(made.contains { folder == $0 || folder.hasPrefix($0 + "/") }, "\(target) is written before any mkdir -p of \(folder)")
            written += 1
        }
        #expect(written >= 1)
    }
}
