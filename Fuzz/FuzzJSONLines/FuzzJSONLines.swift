import FuzzChecks

/// libFuzzer's entry point: arbitrary bytes as a JSON Lines import, read and parsed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let problems = JSONLinesChecks.problems(in: UnsafeBufferPointer(start: data, count: size))
    if !problems.isEmpty { fatalError(problems.joined(separator: "\n")) }
    return 0
}
