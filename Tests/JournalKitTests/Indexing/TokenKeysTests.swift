import JournalText
import Testing

@testable import JournalKit

/// The prefix keys of a batch's tokens, numbered once for the batch.
struct TokenKeysTests {
    @Test func eachTokenHasItsKeysEachKeyNumberedOnce() {
        let tokens = ["über", "übel", "a", "日本語です", "ab", "abc", "abcd", "e\u{301}t\u{e9}"]
        let keys = TokenKeys(of: tokens)
        #expect(Set(keys.texts).count == keys.texts.count)
        #expect(keys.tokenKeyStarts.count == tokens.count + 1)
        for (index, token) in tokens.enumerated() {
            let own = keys.tokenKeys[keys.tokenKeyStarts[index]..<keys.tokenKeyStarts[index + 1]].map {
                keys.texts[Int($0)]
            }
            #expect(own == Tokens.prefixKeys(of: [token]), "\(token)")
        }
        #expect(Set(keys.texts) == Set(Tokens.prefixKeys(of: tokens)))
        // ü üb übe, a, 日 日本 日本語, ab abc, and e, e + U+0301, e + U+0301 + t: by code points.
        #expect(keys.texts.count == 12, "\(keys.texts)")
    }

    @Test func noTokensHaveNoKeys() {
        let keys = TokenKeys(of: [])
        #expect(keys.texts.isEmpty && keys.tokenKeys.isEmpty && keys.tokenKeyStarts == [0])
    }
}
