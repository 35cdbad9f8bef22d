import Foundation
import GRDB
import Testing

@testable import JournalBench
@testable import JournalKit

/// Postings of `numbers`, each with positions made from its number and `version`, so that a
/// test tells every entry's apart and sees an update replace them. Slices of larger arrays, not
/// starting at index 0, as a batch's are (``BatchPostings``).
func postings(_ numbers: some Sequence<Int64>, version: UInt32 = 0) -> PostingSegments.Added {
    var (documents, lists) = ([Int64](repeating: -1, count: 3), [UInt8](repeating: 0xFF, count: 5))
    for number in numbers {
        documents.append(number)
        PositionLists.append(positions(of: number, version: version), to: &lists)
    }
    return PostingSegments.Added(documents: documents[3...], positions: lists[5...])
}

func positions(of number: Int64, version: UInt32) -> [UInt32] {
    let first = UInt32(number % 7) + version
    return number % 5 == 0 ? [first] : [first, first + 1 + UInt32(number % 300), first + 400]
}

/// Each entry of `owner` with its positions, as the segments hold them, checking that every
/// segment has one well-formed list per entry.
func storedPositions(_ db: Database, owner: Int64) throws -> [Int64: [UInt32]] {
    var result: [Int64: [UInt32]] = [:]
    let rows = try Row.fetchAll(
        db, sql: "SELECT documents, positions, id FROM posting WHERE id >> 32 = ? ORDER BY id", arguments: [owner])
    for row in rows {
        let numbers = DeltaList.decode(row[0], first: PostingSegments.first(ofSegment: row[2]))
        var lists: [[UInt32]] = []
        let whole = (row[1] as Data).withUnsafeBytes { raw in
            PositionLists.forEachList(in: raw.bindMemory(to: UInt8.self)) { list in
                var decoded: [UInt32] = []
                #expect(PositionLists.decode(list, into: &decoded))
                lists.append(decoded)
            }
        }
        #expect(whole && lists.count == numbers.count)
        for (number, list) in zip(numbers, lists) { result[number] = list }
    }
    return result
}

@Suite struct PostingSegmentsTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE posting (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL, positions BLOB NOT NULL)"
            )
        }
        return queue
    }

    /// Every segment holds its count of numbers, at most `capacity` and `byteCapacity` bytes
    /// (or a single number), starting with its key's number; segments of a token follow one
    /// another without overlap.
    private func expectWellFormed(_ db: Database, token: Int64) throws {
        var previousLast: Int64 = 0
        let rows = try Row.fetchAll(
            db,
            sql:
                "SELECT id, count, documents, length(documents) + length(positions) FROM posting WHERE id >> 32 = ? ORDER BY id",
            arguments: [token])
        for row in rows {
            let numbers = DeltaList.decode(row[2], first: PostingSegments.first(ofSegment: row[0]))
            #expect(numbers.count == row[1] as Int)
            #expect(numbers.count <= PostingSegments.capacity)
            #expect((row[3] as Int) <= PostingSegments.byteCapacity || numbers.count == 1)
            #expect(!numbers.isEmpty)
            #expect(PostingSegments.key(owner: token, entry: numbers[0]) == row[0] as Int64)
            #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
            #expect(numbers[0] > previousLast)
            previousLast = numbers.last ?? previousLast
        }
    }

    private func members(_ db: Database, token: Int64) throws -> Set<Int64> {
        var set = DocumentSet(maximum: PostingSegments.maximumEntryNumber >> 12)
        try PostingSegments.tokens.unite(owner: token, into: &set, in: db)
        return Set(set.members)
    }

    @Test func randomAddsAndRemovesMatchAModel() throws {
        let queue = try makeDatabase()
        var generator = SplitMix64(seed: 7)
        var model: [Int64: Set<Int64>] = [1: [], 2: []]
        var positionModel: [Int64: [Int64: [UInt32]]] = [1: [:], 2: [:]]
        try queue.write { db in
            for round in 0..<300 {
                let token: Int64 = round % 3 == 0 ? 2 : 1
                // Mostly appends past the end (as imports do), sometimes edits anywhere.
                let appending = round % 4 != 0
                let base = model[token]!.max() ?? 0
                var adding = Set<Int64>(), removing = Set<Int64>()
                for _ in 0..<Int(generator.next() % 300) {
                    adding.insert(
                        appending ? base + 1 + Int64(generator.next() % 2_000) : 1 + Int64(generator.next() % 20_000))
                }
                if !appending,
                    let existing = model[token]?.shuffled(using: &generator).prefix(Int(generator.next() % 200))
                {
                    removing.formUnion(existing)
                }
                adding.subtract(removing)
                let stillUsed = try PostingSegments.tokens.update(
                    owner: token, adding: postings(adding.sorted(), version: UInt32(round)),
                    removing: removing.sorted(), in: db)
                model[token]!.formUnion(adding)
                model[token]!.subtract(removing)
                for number in adding { positionModel[token]![number] = positions(of: number, version: UInt32(round)) }
                for number in removing { positionModel[token]![number] = nil }
                #expect(stillUsed == !model[token]!.isEmpty)
            }
            for token: Int64 in [1, 2] {
                try expectWellFormed(db, token: token)
                #expect(try members(db, token: token) == model[token]!)
                #expect(try storedPositions(db, owner: token) == positionModel[token]!)
                #expect(
                    try PostingSegments.tokens.segmentCounts(owner: token, in: db).reduce(0) { $0 + $1.count }
                        == model[token]!.count)
                // Numbers in, beside and between segments, in the order a walk by date would
                // test them (not ascending), each answered as the model says.
                var membership = PostingMembership(.tokens, owner: token, in: db)
                let near: [Int64] = model[token]!.flatMap { [$0 - 1, $0, $0 + 1] }
                let probes = near + [0, -3, 25_000, PostingSegments.maximumEntryNumber + 1]
                for number in probes.shuffled(using: &generator) {
                    #expect(try membership.contains(number) == model[token]!.contains(number), "\(token) \(number)")
                }
            }
            #expect(try PostingSegments.tokens.segmentCounts(owner: 3, in: db).isEmpty)
            // The segments listed for a window hold every number in it.
            for window: ClosedRange<Int64> in [5_000...9_000, 0...1, 19_990...30_000] {
                var membership = PostingMembership(.tokens, owner: 1, in: db)
                var inWindow = 0
                for segment in try PostingSegments.tokens.segmentCounts(owner: 1, within: window, in: db) {
                    inWindow += try membership.numbers(ofSegmentStartingAt: segment.first).filter(window.contains).count
                }
                #expect(inWindow == model[1]!.filter(window.contains).count, "\(window)")
            }
            let segments = try Int.fetchOne(db, sql: "SELECT count(*) FROM posting WHERE id >> 32 = 1") ?? 0
            #expect(segments > 1)
        }
    }

    @Test func removingEveryNumberLeavesNoSegment() throws {
        let queue = try makeDatabase()
        let numbers = Array(Int64(1)...Int64(5_000))
        let added = try queue.write { db in
            try PostingSegments.tokens.update(owner: 3, adding: postings(numbers), removing: [], in: db)
        }
        #expect(added)
        // Cut by count and by bytes: at least a segment per `capacity` numbers.
        let segments = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM posting") ?? 0 }
        #expect(segments >= (numbers.count + PostingSegments.capacity - 1) / PostingSegments.capacity)
        try queue.read { db in try expectWellFormed(db, token: 3) }
        let remains = try queue.write { db in
            try PostingSegments.tokens.update(owner: 3, adding: postings([]), removing: numbers, in: db)
        }
        #expect(!remains)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM posting") } == 0)
    }

    @Test func documentCountsSumSegments() throws {
        let queue = try makeDatabase()
        let counts = try queue.write { db in
            _ = try PostingSegments.tokens.update(owner: 4, adding: postings(1...3_000), removing: [], in: db)
            _ = try PostingSegments.tokens.update(owner: 5, adding: postings([7, 9]), removing: [], in: db)
            return try PostingSegments.tokens.documentCounts(in: db)
        }
        #expect(counts == [4: 3_000, 5: 2])
    }
}

@Suite struct PostingSegmentTailsTests {
    /// With a small budget, the tails read from the store are not kept: the next append reads again.
    @Test(arguments: [Int.max, 4_000]) func appendingThroughRememberedTailsMatchesAModel(budget: Int) throws {
        let queue = try DatabaseQueue()
        var generator = SplitMix64(seed: 11)
        var model = Set<Int64>()
        var tails = PostingTails(budget: budget)
        try queue.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE posting (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL, positions BLOB NOT NULL)"
            )
            var next: Int64 = 1
            for round in 0..<120 {
                var adding: [Int64] = []
                for _ in 0..<Int(generator.next() % 700) {
                    next += 1 + Int64(generator.next() % 5)
                    adding.append(next)
                }
                // Now and then an edit in the middle, which must not go through the remembered tail.
                let removing = round % 10 == 9 ? Array(model.sorted().prefix(3)) : []
                _ = try PostingSegments.tokens.update(
                    owner: 9, adding: postings(adding), removing: removing, tails: &tails, in: db)
                model.formUnion(adding)
                model.subtract(removing)
                // Now and then the tails are dropped, as past the indexer's budget: the next append reads.
                if round % 7 == 6 { tails = PostingTails(budget: budget) }
            }
            var set = DocumentSet(maximum: next)
            try PostingSegments.tokens.unite(owner: 9, into: &set, in: db)
            #expect(Set(set.members) == model)
            #expect(
                try storedPositions(db, owner: 9)
                    == Dictionary(uniqueKeysWithValues: model.map { ($0, positions(of: $0, version: 0)) }))
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, count, documents, length(documents) + length(positions) FROM posting ORDER BY id")
            #expect(rows.count > 1)
            var previousLast: Int64 = 0
            for row in rows {
                let numbers = DeltaList.decode(row[2], first: PostingSegments.first(ofSegment: row[0]))
                #expect(numbers.count == row[1] as Int && numbers.count <= PostingSegments.capacity)
                // Appends stop at the byte limit too, so that a segment stays within its page.
                #expect((row[3] as Int) <= PostingSegments.byteCapacity)
                #expect(
                    PostingSegments.key(owner: 9, entry: numbers[0]) == row[0] as Int64 && numbers[0] > previousLast)
                previousLast = numbers.last!
            }
        }
    }
}

@Suite struct NewSegmentRowsTests {
    /// New tokens' segments written many to a statement are the rows, and leave the tails, that
    /// writing each token's through ``PostingSegments/update(owner:adding:removing:tails:isNew:in:)``
    /// gives: tokens of one entry and tokens of thousands (several segments each), more rows than
    /// one statement takes, for tokens (with positions) and prefix keys (with positions, and
    /// without: an empty column).
    @Test(arguments: [(PostingSegments.tokens, true), (.prefixKeys, true), (.prefixKeys, false)])
    func writeWhatUpdatesWouldWrite(segments: PostingSegments, keepsPositions: Bool) throws {
        var generator = SplitMix64(seed: 5)
        let added: [(owner: Int64, postings: PostingSegments.Added)] = (1...260).map { owner in
            let count = owner % 50 == 0 ? 5_000 : 1 + Int(generator.next() % 40)
            var number: Int64 = 0
            let numbers = (0..<count).map { _ in
                number += 1 + Int64(generator.next() % 30)
                return number
            }
            var postings = postings(numbers)
            if !keepsPositions { postings.positions = [] }
            return (Int64(owner), postings)
        }
        func written(_ write: (Database, inout PostingTails) throws -> Void) throws -> ([Row], [Int64?]) {
            let queue = try DatabaseQueue()
            return try queue.write { db in
                try db.execute(
                    sql:
                        "CREATE TABLE \(segments.table) (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL, positions BLOB NOT NULL)"
                )
                var tails = PostingTails(budget: .max)
                try write(db, &tails)
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(segments.table) ORDER BY id")
                return (rows, added.map { tails[$0.owner]?.id })
            }
        }
        let oneByOne = try written { db, tails in
            for (owner, postings) in added {
                _ = try segments.update(
                    owner: owner, adding: postings, removing: [], tails: &tails, isNew: true, in: db)
            }
        }
        let together = try written { db, tails in
            var pending = segments.newSegments(in: db)
            for (owner, postings) in added {
                try segments.add(owner: owner, adding: postings, tails: &tails, into: &pending)
            }
            try pending.flush()
        }
        #expect(oneByOne.0.count > MultiRowInsert<PostingTails.Tail>.rowsPerStatement + 5)
        #expect(together.0 == oneByOne.0)
        #expect(together.1 == oneByOne.1 && !together.1.contains(nil))
    }
}

@Suite struct PositionListsOfManyTokensTests {
    /// Many tokens' entries in a range, read by walks along runs of ids (as a letter's tokens
    /// are numbered) and by a lookup per token (tokens far apart), each against the entries
    /// written: every entry in the range handed over once per token, with its positions.
    @Test func runsOfIdsAndLookupsHandOverTheEntriesWritten() throws {
        let queue = try DatabaseQueue()
        var generator = SplitMix64(seed: 9)
        var written: [Int64: [Int64]] = [:]
        try queue.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE posting (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL, positions BLOB NOT NULL)"
            )
            var tails = PostingTails(budget: .max)
            for owner in Int64(1)...600 {
                // Some tokens of thousands of entries, several segments each.
                let count = owner.isMultiple(of: 97) ? 5_000 : 1 + Int(generator.next() % 20)
                var number: Int64 = 0
                let numbers = (0..<count).map { _ in
                    number += 1 + Int64(generator.next() % 40)
                    return number
                }
                written[owner] = numbers
                _ = try PostingSegments.tokens.update(
                    owner: owner, adding: postings(numbers), removing: [], tails: &tails, isNew: true, in: db)
            }
        }
        func lists(of owners: [Int64], within range: ClosedRange<Int64>) throws -> [Int64: [[UInt32]]] {
            var found: [Int64: [[UInt32]]] = [:]
            try queue.read { db in
                try PostingSegments.tokens.forEachPositionList(owners: owners, within: range, in: db) { entry, list in
                    guard range.contains(entry) else { return }
                    var positions: [UInt32] = []
                    #expect(PositionLists.decode(list, into: &positions))
                    found[entry, default: []].append(positions)
                }
            }
            return found.mapValues { $0.sorted { $0.lexicographicallyPrecedes($1) } }
        }
        let together = Array(Int64(1)...600)
        let apart = Array(stride(from: Int64(1), through: 600, by: 3))
        #expect(together.count >= PostingSegments.tokensForRuns && apart.count < PostingSegments.tokensForRuns)
        // Ranges that end at a segment's first entry, as well as inside segments.
        let firsts = try queue.read { db in
            try Int64.fetchAll(db, sql: "SELECT id & 0xFFFFFFFF FROM posting WHERE id >> 32 = 97 ORDER BY id")
        }
        #expect(firsts.count > 3)
        for range: ClosedRange<Int64> in [1...1_000_000, 2_000...30_000, 1...firsts[1], firsts[1]...firsts[3]] {
            for owners in [together, apart] {
                var expected: [Int64: [[UInt32]]] = [:]
                for owner in owners {
                    for number in written[owner]! where range.contains(number) {
                        expected[number, default: []].append(positions(of: number, version: 0))
                    }
                }
                #expect(!expected.isEmpty)
                #expect(
                    try lists(of: owners, within: range)
                        == expected.mapValues { $0.sorted { $0.lexicographicallyPrecedes($1) } })
            }
        }
    }
}
