/// The postings a batch adds, for every token (or prefix key) it uses: owner `i`'s entries,
/// ascending, with their position lists (``PositionLists``), as ``PostingSegments`` appends them.
///
/// Invariant: they lie in three flat arrays, owner after owner, `starts[i]..<starts[i + 1]` of
/// `documents` and `positionStarts[i]..<positionStarts[i + 1]` of `positions` being owner `i`'s.
/// The arrays are sized by counting the links first and filled in a second pass, so that a batch
/// (a million links or more) costs a few allocations, not one growing array per
/// owner, and none of its memory is slack.
struct BatchPostings: Sendable {
    private var documents: [Int64] = []
    private var starts: [Int]
    private var positions: [UInt8] = []
    private var positionStarts: [Int]

    /// One link: `owner` is in entry `document`; `list` is its position list there as a segment
    /// stores it, length first (empty for an owner without positions).
    typealias Sink = (_ owner: Int32, _ document: Int64, _ list: UnsafeBufferPointer<UInt8>) -> Void

    /// Postings for `owners` owners from `links`, which must hand its sink every link in
    /// ascending document order, and the same links each time: it is called twice.
    init(owners: Int, links: (Sink) -> Void) {
        // Counted and filled through buffer pointers: a captured array mutated in the sink
        // checked its uniqueness and retained its storage at every link.
        var documentCounts = [Int](repeating: 0, count: owners + 1)
        var byteCounts = [Int](repeating: 0, count: owners + 1)
        documentCounts.withUnsafeMutableBufferPointer { documentCounts in
            byteCounts.withUnsafeMutableBufferPointer { byteCounts in
                links { owner, _, list in
                    documentCounts[Int(owner) + 1] += 1
                    byteCounts[Int(owner) + 1] += list.count
                }
                for owner in 0..<owners {
                    documentCounts[owner + 1] += documentCounts[owner]
                    byteCounts[owner + 1] += byteCounts[owner]
                }
            }
        }
        (starts, positionStarts) = (documentCounts, byteCounts)
        documents = [Int64](repeating: 0, count: starts[owners])
        positions = [UInt8](repeating: 0, count: positionStarts[owners])
        // The counts become each owner's next free slot.
        documents.withUnsafeMutableBufferPointer { documents in
            positions.withUnsafeMutableBufferPointer { positions in
                documentCounts.withUnsafeMutableBufferPointer { nextDocument in
                    byteCounts.withUnsafeMutableBufferPointer { nextByte in
                        links { owner, document, list in
                            let owner = Int(owner)
                            documents[nextDocument[owner]] = document
                            nextDocument[owner] += 1
                            guard !list.isEmpty else { return }
                            let start = nextByte[owner]
                            _ = UnsafeMutableBufferPointer(rebasing: positions[start..<start + list.count])
                                .initialize(from: list)
                            nextByte[owner] += list.count
                        }
                    }
                }
            }
        }
    }

    /// Owner `index`'s postings.
    subscript(index: Int) -> PostingSegments.Added {
        PostingSegments.Added(
            documents: documents[starts[index]..<starts[index + 1]],
            positions: positions[positionStarts[index]..<positionStarts[index + 1]])
    }
}
