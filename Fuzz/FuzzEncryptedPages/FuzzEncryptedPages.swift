import FuzzChecks

/// libFuzzer's entry point: an encrypted journal's store with a page overwritten by arbitrary
/// bytes, opened and read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEncryptedPages(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let problems = EncryptedPageChecks.problems(in: UnsafeBufferPointer(start: data, count: size))
    if !problems.isEmpty { fatalError(problems.joined(separator: "\n")) }
    return 0
}
