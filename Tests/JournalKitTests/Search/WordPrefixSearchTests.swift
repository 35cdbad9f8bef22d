import Testing

@testable import JournalKit

@Suite struct WordPrefixSearchTests {
    /// A word that starts another word of the query adds no condition; each other word stays,
    /// once, in the query's order.
    @Test func leavesOutWordsThatStartAnotherWord() {
        #expect(WordPrefixSearch.needed(["the", "t"]) == ["the"])
        #expect(WordPrefixSearch.needed(["t", "the", "th"]) == ["the"])
        #expect(WordPrefixSearch.needed(["th", "th"]) == ["th"])
        #expect(WordPrefixSearch.needed(["東", "東京", "京"]) == ["東京", "京"])
        #expect(WordPrefixSearch.needed(["abc", "abd", "ab"]) == ["abc", "abd"])
        #expect(WordPrefixSearch.needed(["walk", "talk"]) == ["walk", "talk"])
        #expect(WordPrefixSearch.needed(["a"]) == ["a"])
    }
}
