import Foundation

/// The process's environment variables, read once from `environ`.
///
/// Foundation's `ProcessEnvironment.variables` builds a new dictionary on every call,
/// and a one-shot command asked it four times before answering; the environment of a process
/// that changes none of its variables is read here once instead.
package enum ProcessEnvironment {
    /// Each variable's value by name; the first of two with one name wins, as `getenv` finds it.
    package static let variables: [String: String] = {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let assignment = String(cString: pointer)
            if let equals = assignment.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(assignment[..<equals])
                if variables[name] == nil { variables[name] = String(assignment[assignment.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }()
}
