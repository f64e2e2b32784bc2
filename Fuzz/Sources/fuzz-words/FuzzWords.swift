import FuzzSupport
import SwitchCore

/// The person's learned words (`words-LANGUAGE.txt`, `UserWords`): read with a small bound (so
/// trimming to the most useful words is fuzzed too), then learned into, completed and written
/// back. What it promises: never a trap (counts and sentence numbers at `Int.max` saturate), at
/// most the bound, only words learning could have written, a file written that reads back the
/// same, and errors that name the file and a line inside it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWords(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    let limit = 16
    do {
        var words = try UserWords(bytes: bytes, file: Fuzz.file, limit: limit)
        Fuzz.require(words.count <= limit, "\(words.count) words kept, more than \(limit)")
        Fuzz.check(words, limit: limit)
        // The input's own text learned, a sentence at a time, as a person would write it.
        for line in String(decoding: bytes.prefix(512), as: UTF8.self).split(separator: "\n").prefix(8) {
            let before = words.sentences
            words.learn(String(line))
            Fuzz.require(words.sentences >= before, "the sentence count went back")
            Fuzz.check(words, limit: limit)
        }
        for prefix in ["a", "e", "zz", String(decoding: bytes.prefix(2), as: UTF8.self)] {
            let found = words.complete(prefix, count: 5)
            Fuzz.require(found.count <= 5, "more completions than asked")
            let p = prefix.lowercased()
            for w in found { Fuzz.require(w.hasPrefix(p) && w.count > p.count, "\(w) does not complete \(prefix)") }
        }
        do {
            let again = try UserWords(text: words.text, file: "written.txt", limit: limit)
            Fuzz.require(again.entries == words.entries, "the file written reads back different words")
            Fuzz.require(again.sentences <= words.sentences, "the file written reads back a later sentence")
        } catch {
            fatalError("the file written does not read: \(error)")
        }
    } catch {
        Fuzz.check(error, in: bytes)
    }
    return 0
}

extension Fuzz {
    /// What every kept word promises: a count of at least 1, a sentence no later than the
    /// count of sentences, a word learning could write (no space, not too long).
    static func check(_ words: UserWords, limit: Int) {
        require(words.count <= limit, "\(words.count) words, more than \(limit)")
        for (w, e) in words.entries {
            require(e.count >= 1 && e.last >= 0 && e.last <= words.sentences, "\(w): count \(e.count), last \(e.last) of \(words.sentences)")
            require(!w.isEmpty && w.count <= UserWords.maximumWordCharacters && w.utf8.count <= UserWords.maximumWordBytes,
                    "\(w.debugDescription) is not a word the file may hold")
            require(!w.contains(where: { $0 == " " || $0 == "\n" }), "\(w.debugDescription) holds a space or a newline")
        }
    }
}

@_cdecl("fuzz_words_main")
public func fuzzWordsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzWords)
}
