import CICU

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pattern ICU's regular-expression engine could not compile.
public struct InvalidPattern: Error, Sendable, Equatable {
    /// ICU's name for the problem, e.g. `U_REGEX_MISMATCHED_PAREN`.
    public let reason: String
    /// Where in the pattern (in characters) it was found, when ICU says.
    public let offset: Int?
}

/// A compiled ICU regular expression, found anywhere in UTF-8 text without converting it.
/// Compile once per query, then match every row: compiling is the expensive part.
public final class RegexMatcher: @unchecked Sendable {
    /// How a pattern is read.
    public struct Options: OptionSet, Sendable {
        /// The ICU flags.
        public let rawValue: Int32
        /// Options from ICU flags.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// The pattern is plain text: no character is special (ICU's `UREGEX_LITERAL`).
        public static let literal = Options(rawValue: Int32(CICU_REGEX_LITERAL))
        /// Letters match in either case (ICU's case-insensitive matching).
        public static let caseInsensitive = Options(rawValue: Int32(CICU_REGEX_CASE_INSENSITIVE))
    }

    private let regex: OpaquePointer
    // ICU regex objects are not thread-safe; matching takes this lock.
    private var lock = pthread_mutex_t()

    /// Compiles `pattern` in ICU's syntax; an invalid one says what is wrong and where.
    public init(pattern: String, options: Options = []) throws(InvalidPattern) {
        let units = Array(pattern.utf16)
        var error: Int32 = 0
        var offset: Int32 = -1
        guard
            let regex = units.withUnsafeBufferPointer({
                cicu_regex_open($0.baseAddress, Int32($0.count), options.rawValue, &error, &offset)
            })
        else {
            var reason = String(cString: cicu_error_name(error))
            if error == 2 {
                reason +=
                    ": ICU's regular expressions (\(String(cString: cicu_regex_library_name()))) could not be loaded"
            }
            let characterOffset = offset >= 0 ? String(decoding: units.prefix(Int(offset)), as: UTF16.self).count : nil
            throw InvalidPattern(reason: reason, offset: characterOffset)
        }
        self.regex = regex
        pthread_mutex_init(&lock, nil)
    }

    deinit {
        cicu_regex_close(regex)
        pthread_mutex_destroy(&lock)
    }

    /// Whether the pattern occurs anywhere in the UTF-8 text.
    public func matches(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return utf8.withMemoryRebound(to: CChar.self) { chars in
            guard let base = chars.baseAddress else {
                var empty: CChar = 0
                return cicu_regex_find_utf8(regex, &empty, 0) == 1
            }
            return cicu_regex_find_utf8(regex, base, Int64(chars.count)) == 1
        }
    }

    /// Whether the pattern occurs anywhere in `text`.
    public func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches(utf8: $0) }
    }
}
