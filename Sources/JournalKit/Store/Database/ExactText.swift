import Foundation
import GRDB

/// Text that reaches SQLite and comes back byte for byte, NUL characters included.
///
/// GRDB binds a `String` with a length of -1 and reads one with `String(cString:)`, both of
/// which stop at the first NUL. `ExactText` travels as a blob instead; the SQL around it
/// stores it as TEXT with `CAST(? AS TEXT)` and reads it back with `CAST(column AS BLOB)`.
struct ExactText: DatabaseValueConvertible {
    let string: String

    init(_ string: String) { self.string = string }

    var databaseValue: DatabaseValue { Data(string.utf8).databaseValue }

    static func fromDatabaseValue(_ value: DatabaseValue) -> ExactText? {
        switch value.storage {
        case .blob(let data): ExactText(String(decoding: data, as: UTF8.self))
        case .string(let string): ExactText(string)
        default: nil
        }
    }
}
