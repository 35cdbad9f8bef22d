import JournalKit

/// GNU's rule for an option whose value may be left out (`--on-this-day[=DATE]`): its value is
/// attached with `=`, never the next argument, so that `journal search --on-this-day coffee`
/// searches for coffee on this day, as `ls --color always` lists a file named always.
///
/// swift-argument-parser would take the next argument as the value, so a bare option is
/// written out with its default before the command line is parsed. Nothing after the end of
/// options (`--`) is touched.
enum OptionalValueArguments {
    /// Each option whose value may be left out, with the value it takes then.
    static let defaults = ["--on-this-day": "today"]

    /// `arguments` with each bare option of ``defaults`` given its default value.
    ///
    /// `notice` hears, once for each bare option followed by an argument that reads as a date,
    /// how to give that date: that argument is not the option's value.
    static func normalized(_ arguments: [String], notice: (String) -> Void) -> [String] {
        var result: [String] = []
        result.reserveCapacity(arguments.count)
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { return result + arguments[index...] }
            if let value = defaults[argument] {
                result.append("\(argument)=\(value)")
                let next = index + 1
                if next < arguments.endIndex, !arguments[next].hasPrefix("-"), (try? DatePhrase(arguments[next])) != nil
                {
                    notice(
                        "\(argument) alone means \(value); \"\(arguments[next])\" is not its value "
                            + "(for that day: \(argument)=\(arguments[next]))")
                }
            } else {
                result.append(argument)
            }
            index += 1
        }
        return result
    }
}
