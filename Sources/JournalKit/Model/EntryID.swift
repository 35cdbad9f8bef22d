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
        guard uri.hasPrefix(Self.scheme) else { return nil }
        let parts = uri.dropFirst(Self.scheme.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "Entry", parts[2].first == "p",
            let storeID = UUID(uuidString: String(parts[0])),
            let number = Int64(parts[2].dropFirst()), number > 0, parts[2].dropFirst().allSatisfy(\.isASCII)
        else { return nil }
        self.init(storeID: storeID, number: number)
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
