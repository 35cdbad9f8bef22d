import FuzzChecks

/// libFuzzer's entry point: canonical text, words, tokens and prefix keys of arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let problems = TextChecks.problems(in: UnsafeBufferPointer(start: data, count: size))
    if !problems.isEmpty { fatalError(problems.joined(separator: "\n")) }
    return 0
}
