import SwitchCore
import Testing

/// The person's learned words (`UserWords`): counted, completed, written and read back, never a
/// trap on a count at `Int.max` (issue 32), and bounded, the least useful word making room
/// (written less often, then longer ago; a word of the last `graceSentences` sentences stays).
@Suite struct UserWordsTests {
    @Test func words_are_counted_and_complete_a_prefix_most_used_first() throws {
        var w = UserWords()
        w.learn("Zorblax met Zoe. zorblax again, I'm zorblax's friend")
        #expect(w.counts["zorblax"] == 2 && w.counts["zorblax's"] == 1 && w.counts["i'm"] == 1 && w.counts["i"] == nil)
        #expect(w.complete("zo", count: 3) == ["zorblax", "zoe", "zorblax's"])
        #expect(w.complete("zorblax", count: 3) == ["zorblax's"])  // longer than the prefix only
        #expect(w.complete("", count: 3).isEmpty)
        let again = try UserWords(text: w.text, file: "words-en.txt")
        #expect(again == w)
        #expect(w.text.hasPrefix("# switchscan: the words you wrote"))
    }

    @Test func each_learned_text_is_a_sentence_and_a_word_keeps_the_last_it_was_written_in() throws {
        var w = UserWords()
        w.learn("hello there")
        w.learn("... ")  // no word: not a sentence
        w.learn("hello again")
        #expect(w.sentences == 2)
        #expect(w.entries["hello"] == UserWords.Entry(count: 2, last: 2))
        #expect(w.entries["there"] == UserWords.Entry(count: 1, last: 1))
        // Most useful first: more often, then more recently, then alphabetically.
        #expect(w.text.split(separator: "\n").dropFirst(2) == ["hello 2 2", "again 1 2", "there 1 1"])
    }

    @Test func a_malformed_line_is_an_error_naming_it() {
        #expect(throws: InputError.self) { try UserWords(text: "hello 2\nworld\n", file: "words-en.txt") }
        do { _ = try UserWords(text: "hello 2\nworld\n", file: "words-en.txt") } catch {
            #expect("\(error)".contains("words-en.txt:2:1"))
        }
        for bad in ["hello 0", "hello -3", "hello 2 -1", "hello 2 3 4", "hello 99999999999999999999", "hello two"] {
            #expect(throws: InputError.self, "\(bad)") { try UserWords(text: bad, file: "w.txt") }
        }
    }

    /// Issue 32: one count of 9223372036854775807, then the word typed, trapped in `learn`.
    @Test func a_count_of_Int_max_written_again_stays_at_Int_max() throws {
        var w = try UserWords(text: "hello 9223372036854775807\n", file: "words-en.txt")
        w.learn("hello")
        w.learn("hello hello")
        #expect(w.counts["hello"] == Int.max)
        #expect(try UserWords(text: w.text, file: "words-en.txt").counts["hello"] == Int.max)
    }

    /// Issue 32: two lines of one word whose counts sum past `Int.max` trapped in `init`.
    @Test func two_lines_of_one_word_summing_past_Int_max_read_as_Int_max() throws {
        let w = try UserWords(text: "hello 9223372036854775807\nhello 5\nHello 9223372036854775000 9223372036854775807\n", file: "words-en.txt")
        #expect(w.counts["hello"] == Int.max)
        #expect(w.sentences == Int.max)
        // A sentence past the last countable one: still no trap.
        var more = w
        more.learn("hello world")
        #expect(more.entries["world"] == UserWords.Entry(count: 1, last: Int.max))
    }

    /// `word count` lines (switchscan before the bound) read as written before any sentence.
    @Test func lines_without_a_sentence_read_as_the_oldest() throws {
        var w = try UserWords(text: "# old\nhello 3\nthere 1\n", file: "words-en.txt")
        #expect(w.entries["hello"] == UserWords.Entry(count: 3, last: 0))
        w.learn("world")
        #expect(w.entries["world"] == UserWords.Entry(count: 1, last: 1))
    }

    @Test func a_word_longer_than_the_bound_is_not_learned_and_a_file_line_holding_one_is_an_error() throws {
        var w = UserWords()
        let long = String(repeating: "a", count: UserWords.maximumWordCharacters + 1)
        let longest = String(repeating: "b", count: UserWords.maximumWordCharacters)
        w.learn("\(long) \(longest) ok")
        #expect(w.counts == [longest: 1, "ok": 1])
        // A character of many code points: the byte bound.
        let heavy = String(repeating: "e\u{301}\u{302}\u{303}\u{304}", count: 60)
        w.learn(heavy)
        #expect(w.counts[heavy] == nil)
        do {
            _ = try UserWords(text: "ok 1\n\(long) 2\n", file: "words-en.txt")
            Issue.record("read a word longer than the bound")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.contains("expected a word of at most 64 characters"))
        }
    }

    /// The bound: at `limit` words a new word takes the place of the least useful: written less
    /// often, then longer ago. Never the words of the last `graceSentences` sentences while
    /// older ones are there.
    @Test func at_the_bound_the_least_useful_word_makes_room() throws {
        var w = UserWords(limit: 3)
        w.learn("alpha alpha beta")  // sentence 1
        w.learn("gamma")  // 2
        #expect(w.count == 3 && w.forgotten == 0)
        for _ in 0..<UserWords.graceSentences { w.learn("alpha") }  // beta and gamma are old now
        w.learn("delta")
        // beta (1, sentence 1) and gamma (1, sentence 2): beta was written longer ago.
        #expect(Set(w.entries.keys) == ["alpha", "gamma", "delta"])
        #expect(w.forgotten == 1)
        w.learn("epsilon")
        // gamma is old; delta is within the grace sentences, though it was written as often.
        #expect(Set(w.entries.keys) == ["alpha", "delta", "epsilon"])
        #expect(w.forgotten == 2)
    }

    /// A new name when every kept word was written more often: it stays for the grace
    /// sentences (it is not the one to go when the next new word comes).
    @Test func a_new_word_is_kept_for_the_grace_sentences_when_every_old_word_was_written_more_often() throws {
        var w = try UserWords(text: "one 9 0\ntwo 8 0\nthree 7 0\n", file: "words-en.txt", limit: 3)
        w.learn("zorblax")
        #expect(w.entries["zorblax"] != nil && w.entries["three"] == nil)
        w.learn("quux")
        #expect(w.entries["zorblax"] != nil && w.entries["quux"] != nil && w.entries["two"] == nil)
        // Every word within the grace: the least useful of them goes (one sentence of more new
        // words than the bound).
        w.learn("aa bb cc dd")
        #expect(w.count == 3)
    }

    @Test func a_file_over_the_bound_keeps_its_most_useful_words_and_says_how_many_were_left_out() throws {
        let text = "old 5 1\nnew 5 9\nrare 1 9\nfrequent 50 2\nmid 5 9\n"
        let w = try UserWords(text: text, file: "words-en.txt", limit: 3)
        #expect(Set(w.entries.keys) == ["frequent", "new", "mid"])
        #expect(w.dropped == 2)
        #expect(w.forgotten == 0)
        #expect(w.sentences == 9)
    }

    /// The largest file the bound allows: every word at its longest, every count and sentence
    /// at 19 digits, fits in `maximumFileBytes`.
    @Test func the_largest_file_of_the_bound_fits_the_file_size_limit() {
        let line = UserWords.maximumWordBytes + 1 + 19 + 1 + 19 + 1
        let header = UserWords().text.utf8.count
        #expect(header + UserWords.maximumWords * line <= UserWords.maximumFileBytes)
    }
    /// The order kept as words change is the order a full sort gives, and making room removes
    /// what the rule says, against a plain model (sort everything, every sentence) over many
    /// random sentences at a small bound, with counts near `Int.max` among them.
    @Test func the_order_kept_is_the_order_a_full_sort_gives() throws {
        var rng = SplitMix(seed: 32)
        let vocabulary: [String] = (0..<60).map { (k: Int) -> String in "w\(k)" }
        var w = try UserWords(text: "\(vocabulary[0]) 9223372036854775806 0\n", file: "w.txt", limit: 20)
        var model: [String: UserWords.Entry] = w.entries
        var sentences = 0
        for _ in 0..<3_000 {
            let n = 1 + Int(rng.next() % 4)
            let words = (0..<n).map { _ in vocabulary[Int(rng.next() % UInt64(vocabulary.count))] }
            w.learn(words.joined(separator: " "))
            sentences += 1
            for word in words {
                let e = model[word] ?? UserWords.Entry(count: 0, last: 0)
                let (sum, overflow) = e.count.addingReportingOverflow(1)
                model[word] = UserWords.Entry(count: overflow ? Int.max : sum, last: sentences)
            }
            if model.count > 20 {
                let recent = max(0, sentences - UserWords.graceSentences)
                let goesFirst = model.sorted { a, b in
                    let ra = a.value.last > recent, rb = b.value.last > recent
                    if ra != rb { return !ra }
                    if a.value.count != b.value.count { return a.value.count < b.value.count }
                    if a.value.last != b.value.last { return a.value.last < b.value.last }
                    return a.key > b.key
                }
                for victim in goesFirst.prefix(model.count - 20) { model[victim.key] = nil }
            }
            #expect(w.entries == model)
        }
        let sorted = model.sorted { a, b in
            a.value.count != b.value.count ? a.value.count > b.value.count : a.value.last != b.value.last ? a.value.last > b.value.last : a.key < b.key
        }
        #expect(w.text.split(separator: "\n").dropFirst(2).map { String($0.split(separator: " ")[0]) } == sorted.map(\.key))
        #expect(w.complete("w", count: 3) == sorted.prefix(3).map(\.key))
    }
}

