import JournalKit
import TextReport

extension StoreTableSize {
    /// Tables and indexes with their bytes, in their order, as `journal stats --tables --json`
    /// and `journal bench` write them.
    package static func json(_ tables: [StoreTableSize]) -> JSONValue {
        .array(tables.map { .fields([("name", .string($0.name)), ("bytes", .integer($0.bytes))]) })
    }
}
