/// What postings belong to: tokens, or the prefix keys (first one to three code points) of tokens.
/// The two are laid out, written and merged alike; each names its tables.
enum PostingOwner: Sendable, CaseIterable {
    case token
    /// Invariant: a prefix key that two tokens or more start with has a row and postings (the
    /// entries of all its tokens); one that a single token starts with may have none of its
    /// own, that token's postings being its. Such a key is given its row by the batch that
    /// brings a second token, or by the first batch that uses it once its token has more than
    /// ``SearchStoreWriter/entriesOfAKeyOfOneToken`` entries; a row, once made, stays while an
    /// entry has the key.
    ///
    /// A key of ``keyLengthWithPositions`` code points keeps, in each of its entries, where its
    /// tokens stand (the union of their position lists), so that a phrase's last word that
    /// short is matched from one list, and one of one code point from a few; keys of other
    /// lengths keep their entries alone.
    case prefixKey

    /// The length, in code points, of the prefix keys whose postings keep positions: two, the
    /// shortest that parts the tokens of a letter into lists a phrase can afford to read.
    static let keyLengthWithPositions = 2

    /// Whether the postings of prefix key `key` keep positions.
    static func keepsPositions(key: some StringProtocol) -> Bool {
        var scalars = key.unicodeScalars.makeIterator()
        for _ in 0..<keyLengthWithPositions { guard scalars.next() != nil else { return false } }
        return scalars.next() == nil
    }

    /// The table of the owners' texts and ids, keyed by text (each text kept once), which a
    /// lookup by text reads.
    var table: String { self == .token ? "token" : "prefix_key" }
    /// The name of the `sqlite_sequence` row that keeps the largest id ever given, so that no id
    /// is given twice: for tokens, that of the AUTOINCREMENT list of those added since the prefix
    /// table's file was saved (``PrefixSnapshot``), whose rowids are ids; for prefix keys, a row
    /// of their own, which the writer moves on.
    var sequenceName: String { self == .token ? "token_added" : "prefix_key" }
    var segments: PostingSegments { self == .token ? .tokens : .prefixKeys }
    var runs: PostingRuns { self == .token ? .tokens : .prefixKeys }
}

/// One value for each kind of posting owner, so that a step written once serves every kind.
struct ByOwner<Value> {
    var token: Value
    var prefixKey: Value

    /// The value for each owner, made by `make`.
    init(_ make: (PostingOwner) throws -> Value) rethrows {
        token = try make(.token)
        prefixKey = try make(.prefixKey)
    }

    /// The value for `owner`, changed in place: a value holding a large table (an id cache,
    /// the kept tails) is not copied to be changed.
    subscript(owner: PostingOwner) -> Value {
        get { owner == .token ? token : prefixKey }
        _modify {
            if owner == .token { yield &token } else { yield &prefixKey }
        }
    }
}

extension ByOwner: Sendable where Value: Sendable {}
