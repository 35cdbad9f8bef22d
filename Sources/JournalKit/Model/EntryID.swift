import Foundation

/// An entry's identity: `x-journal://<store UUID>/Entry/p<n>`, stable for the life of the
/// entry and never reused after it is deleted. The search store knows entries only by it.
///
/// An entry a journal took in from another through sync (<doc:Syncing>) is numbered here as
/// any other, and shown by the URI every journal that syncs knows it by: two identifiers of
/// one entry of one journal are equal whichever URI they show.
public struct EntryID: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The main store the entry lives in.
    public let storeID: UUID
    /// The entry's number `n` within that store: assigned in creation order, never reused.
    public let number: Int64
    /// The URI sync knows the entry by, when it is not the store's own.
    let syncURI: String?

    /// The identifier of entry `number` of the main store `storeID`.
    public init(storeID: UUID, number: Int64) {
        self.init(storeID: storeID, number: number, syncURI: nil)
    }

    /// Entry `number` of store `storeID`, known to the journals that sync with it by `syncURI`.
    init(storeID: UUID, number: Int64, syncURI: String?) {
        self.storeID = storeID
        self.number = number
        self.syncURI = syncURI
    }

    static let scheme = "x-journal://"

    /// The URI form: the one every journal that syncs with this one knows the entry by.
    public var uri: String { syncURI ?? ownURI }

    /// The URI of entry `number` of store `storeID`.
    var ownURI: String { Self.uriPrefix(storeID) + String(number) }

    /// Whether both name one entry of one store, whichever URI each shows.
    public static func == (lhs: EntryID, rhs: EntryID) -> Bool {
        lhs.storeID == rhs.storeID && lhs.number == rhs.number
    }

    /// Hashes what `==` compares: the store and the number.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storeID)
        hasher.combine(number)
    }

    /// What the URIs of the entries of store `storeID` start with, their number following:
    /// made once by a writer that names many of them.
    static func uriPrefix(_ storeID: UUID) -> String { "\(scheme)\(storeID.uuidString)\(entity)" }

    /// What follows the store UUID in every URI, before the number.
    static let entity = "/Entry/p"

    /// The URI form.
    public var description: String { uri }

    /// Reads the URI form; nil when `uri` is not one.
    public init?(uri: String) {
        var uri = uri
        uri.makeContiguousUTF8()
        guard let (storeID, number) = Self.parse(uri, asWritten: false) else { return nil }
        self.init(storeID: storeID, number: number)
    }

    /// Reads the URI form only as ``uri`` writes it (upper-case hex digits, a number with no
    /// leading zero): the one form sync names an entry by, so that an entry has one name.
    init?(writtenURI uri: String) {
        guard let (storeID, number) = Self.parse(uri, asWritten: true) else { return nil }
        self.init(storeID: storeID, number: number)
    }

    private static func parse(_ uri: String, asWritten: Bool) -> (UUID, Int64)? {
        var uri = uri
        uri.makeContiguousUTF8()
        return uri.utf8.withContiguousStorageIfAvailable { parse($0, asWritten: asWritten) } ?? nil
    }

    /// The store and number of the URI whose UTF-8 bytes are `uri`, read without making
    /// strings: sync reads one in every record it takes in. The number is decimal digits only.
    private static func parse(_ uri: UnsafeBufferPointer<UInt8>, asWritten: Bool) -> (UUID, Int64)? {
        let (scheme, entity) = (Self.scheme.utf8, Self.entity.utf8)
        let storeEnd = scheme.count + 36
        let numberStart = storeEnd + entity.count
        guard uri.count > numberStart, uri[..<scheme.count].elementsEqual(scheme),
            uri[storeEnd..<numberStart].elementsEqual(entity),
            let storeID = UUID(hyphenatedHex: uri[scheme.count..<storeEnd], lowercase: !asWritten),
            !asWritten || uri[numberStart] != UInt8(ascii: "0")
        else { return nil }
        var number: Int64 = 0
        for character in uri[numberStart...] {
            let digit = character &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (tens, overflow) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = tens.addingReportingOverflow(Int64(digit))
            guard !overflow, !overflowAgain else { return nil }
            number = sum
        }
        return number > 0 ? (storeID, number) : nil
    }
}

extension EntryID {
    /// Encodes the URI form, the identity programs exchange.
    public func encode(to encoder: any Encoder) throws { try StringCoding.encode(uri, to: encoder) }

    /// Decodes the URI form.
    public init(from decoder: any Decoder) throws {
        self = try StringCoding.decode(from: decoder, expected: "an entry URI", EntryID.init(uri:))
    }

    /// The short form people type: `p12`.
    public var shortName: String { "p\(number)" }
}
