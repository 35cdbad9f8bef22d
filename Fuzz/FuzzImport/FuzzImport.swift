import FuzzChecks

/// libFuzzer's entry point: arbitrary bytes as a jrnl or Day One file, read by every reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let problems = ImportDocumentChecks.problems(in: UnsafeBufferPointer(start: data, count: size))
    if !problems.isEmpty { fatalError(problems.joined(separator: "\n")) }
    return 0
}
