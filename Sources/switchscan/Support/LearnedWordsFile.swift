import Foundation
import SwitchCore

/// The person's learned words on disk (`$XDG_DATA_HOME/switchscan/words-LANGUAGE.txt`,
/// `UserWords`): read once, bounded (`UserWords.maximumFileBytes`, checked before reading), and
/// written whole after each sentence with `AtomicFile` (never half a file; a symbolic link stays
/// a link, so a person who keeps their words in a synced folder keeps them there). Every failure
/// is a message that names the file and says what was wrong; the file is then left as it was.
enum LearnedWordsFile {
    /// The words in `path`, or nil when there is none (nor a file a link points to).
    static func read(_ path: String, limit: Int = UserWords.maximumWords) throws(InputError) -> UserWords? {
        var st = stat()
        if stat(path, &st) != 0 {
            if errno == ENOENT { return nil }
            throw InputError(file: path, message: "cannot be read: \(String(cString: strerror(errno)))")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw InputError(file: path, message: "is a folder, expected the file of your learned words") }
        // A FIFO or a device would block or never end.
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw InputError(file: path, message: "is not a regular file") }
        return try UserWords(bytes: InputFiles.read(path, .learnedWords), file: path, limit: limit)
    }

    /// Replaces the file (the file a link points to) with `words` (a new file: mode 0600, the
    /// person's words are theirs alone).
    static func write(_ words: UserWords, to path: String) throws(AtomicFile.Failure) {
        try AtomicFile.replace(path, with: words.fileBytes, newMode: 0o600)
    }
}
