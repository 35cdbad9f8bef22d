import Foundation
import GRDB
import JournalText

/// `journal_fold(text, kind)`: the text folded at query time, for the substring strategies
/// that fold every row (`contains[c]`, `[d]`, `[cd]`). Takes and returns UTF-8 bytes (blobs)
/// so that NUL characters survive; kind is `c`, `d` or `cd`.
enum FoldFunction {
    static let function = DatabaseFunction("journal_fold", argumentCount: 2, pure: true) { values in
        guard case .blob(let data) = values[0].storage,
            let kind = String.fromDatabaseValue(values[1]), let fold = Fold(rawValue: kind)
        else { return nil }
        let folded = data.withUnsafeBytes { fold.apply(toUTF8: $0.bindMemory(to: UInt8.self)) }
        return Data(folded.utf8)
    }
}
