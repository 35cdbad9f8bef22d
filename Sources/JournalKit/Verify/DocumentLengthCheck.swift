import GRDB

/// The documents' lengths in blocks (``DocumentLengths``) against each document's own, where
/// the store has them.
enum DocumentLengthCheck {
    static func run(expected: LinkTally, in db: Database, problems: inout ProblemLog) throws {
        guard try DocumentLengths.exist(in: db) else { return }
        var found = LinkTally()
        try DocumentLengths.forEachLength(in: db) { number, length in found.add(owner: number, entry: Int64(length)) }
        if found != expected {
            problems.add(
                "lengths",
                "the blocks of lengths (\(found.links) documents) disagree with the documents' lengths (\(expected.links))"
            )
        }
    }
}
