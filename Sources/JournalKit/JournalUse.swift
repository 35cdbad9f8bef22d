/// What a journal is opened for, which decides how much opening it prepares.
///
/// A process that answers one request and exits pays for every connection and table it
/// prepares before it answers; a journal kept open pays once and then answers many requests,
/// several at a time.
public enum JournalUse: Sendable {
    /// Kept open to answer many requests, several at a time (an app, the full-screen search):
    /// each store reads through a pool of connections, and the `prefix` strategy loads its
    /// table into memory on first use, after which a lookup touches no file.
    case kept
    /// One answer, then closed (a command-line process): each store reads through a single
    /// connection, and the `prefix` strategy reads its table in place from its file, a bucket
    /// per lookup, nothing proportional to the vocabulary.
    case oneAnswer
    /// One look at the journal's state (`journal import --status`): opened as for
    /// ``oneAnswer``, with the search store left as it stands however far behind the entries it
    /// is, rather than brought up to date first, which can take as long as the import that left
    /// it there.
    case inspection
}
