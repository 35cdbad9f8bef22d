import JournalKit

/// GNU's rule for an option whose value may be left out (`--on-this-day[=DATE]`): its value is
/// attached with `=`, never the next argument, so that `journal search --on-this-day coffee`
/// searches for coffee on this day, as `ls --color always` lists a file named always. Where the
/// command takes no argument that the next one could be (`list`, `tags`, `stats`, `export`), a
/// next argument that reads as a date is the option's value: `journal list --on-this-day
/// 2018-03-04`.
///
/// swift-argument-parser would take the next argument as the value, so a bare option is
/// written out with its value before the command line is parsed. Nothing after the end of
/// options (`--`) is touched.
enum OptionalValueArguments {
    /// Each option whose value may be left out, with the value it takes then.
    static let defaults = ["--on-this-day": "today"]

    /// The commands with such an option that take no argument of their own: nothing else could
    /// take the argument after it (`CommandLineHabitsTests` checks this against the parser's
    /// description of the commands).
    static let commandsWithoutArguments: Set<String> = ["list", "tags", "stats", "export"]

    /// The options of the root command that take a value: their value is not a command's name.
    private static let rootOptionsWithValues: Set<String> = ["--store", "-j", "--journal"]

    /// `arguments` with each bare option of ``defaults`` given its value: the next argument when
    /// it reads as a date and nothing else can take it, else its default.
    ///
    /// `notice` hears, once for each bare option given its default though an argument that reads
    /// as a date follows, how to give that date: that argument is not the option's value.
    static func normalized(_ arguments: [String], notice: (String) -> Void) -> [String] {
        let takesNoArgument = command(of: arguments).map(commandsWithoutArguments.contains) ?? false
        var result: [String] = []
        result.reserveCapacity(arguments.count)
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { return result + arguments[index...] }
            guard let value = defaults[argument] else {
                result.append(argument)
                index += 1
                continue
            }
            let next = index + 1
            let dated =
                next < arguments.endIndex && !arguments[next].hasPrefix("-")
                && (try? DatePhrase(arguments[next])) != nil
            if dated, takesNoArgument {
                result.append("\(argument)=\(arguments[next])")
                index += 2
                continue
            }
            result.append("\(argument)=\(value)")
            if dated {
                notice(
                    "\(argument) alone means \(value); \"\(arguments[next])\" is not its value "
                        + "(for that day: \(argument)=\(arguments[next]))")
            }
            index += 1
        }
        return result
    }

    /// The command's name: the first argument that is not an option of the root command or
    /// its value.
    private static func command(of arguments: [String]) -> String? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if rootOptionsWithValues.contains(argument) {
                index += 2
            } else if argument.hasPrefix("-") {
                index += 1
            } else {
                return argument
            }
        }
        return nil
    }
}
