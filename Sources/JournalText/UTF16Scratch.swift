import CICU

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable UTF-16 buffer, reused across calls so the hot path allocates nothing.
final class UTF16Buffer {
    private(set) var base: UnsafeMutablePointer<UInt16>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var units: UnsafeMutableBufferPointer<UInt16> { UnsafeMutableBufferPointer(start: base, count: count) }

    /// The contents as a string, transcoded by ICU in one call rather than by
    /// `String(decoding:as: UTF16.self)`, which takes a generic path a code point at a time:
    /// every entry's canonical text is made here.
    var string: String {
        // A UTF-16 code unit takes at most three bytes of UTF-8 (a pair of them, four).
        String(unsafeUninitializedCapacity: max(count * 3, 1)) { utf8 in
            var error: Int32 = 0
            let written = utf8.withMemoryRebound(to: CChar.self) { chars in
                cicu_utf16_to_utf8(chars.baseAddress, Int32(clamping: chars.count), base, Int32(count), &error)
            }
            precondition(error <= 0, "ICU failed with error \(error)")
            return Int(written)
        }
    }

    /// Replaces the contents with what an ICU function writes, growing and retrying once when
    /// ICU reports that the output needs more room.
    func fill(_ produce: (_ dest: UnsafeMutablePointer<UInt16>, _ capacity: Int32, _ error: inout Int32) -> Int32) {
        var error: Int32 = 0
        var needed = produce(base, Int32(clamping: capacity), &error)
        if error == Int32(CICU_BUFFER_OVERFLOW) || Int(needed) > capacity {
            grow(to: Int(needed))
            error = 0
            needed = produce(base, Int32(clamping: capacity), &error)
        }
        precondition(error <= 0, "ICU failed with error \(error)")
        count = Int(needed)
    }

    private func grow(to minimum: Int) {
        var newCapacity = capacity
        while newCapacity < minimum { newCapacity *= 2 }
        base.deallocate()
        base = .allocate(capacity: newCapacity)
        capacity = newCapacity
    }
}

/// The two buffers one thread's text pipeline ping-pongs between.
final class UTF16Scratch {
    var current = UTF16Buffer()
    var spare = UTF16Buffer()

    /// Runs one pipeline step from `current` into `spare`, then makes the result `current`.
    func step(
        _ produce: (
            _ src: UnsafePointer<UInt16>, _ length: Int32, _ dest: UnsafeMutablePointer<UInt16>, _ capacity: Int32,
            _ error: inout Int32
        ) -> Int32
    ) {
        let source = current
        spare.fill { dest, capacity, error in produce(source.base, Int32(source.count), dest, capacity, &error) }
        swap(&current, &spare)
    }

    /// Loads UTF-8 text into `current`.
    func load(utf8: UnsafeBufferPointer<UInt8>) {
        current.fill { dest, capacity, error in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                cicu_utf8_to_utf16(dest, capacity, chars.baseAddress, Int32(chars.count), &error)
            }
        }
    }

    /// The scratch space of the calling thread.
    static var forCurrentThread: UTF16Scratch {
        if let existing = pthread_getspecific(scratchKey) {
            return Unmanaged<UTF16Scratch>.fromOpaque(existing).takeUnretainedValue()
        }
        let scratch = UTF16Scratch()
        pthread_setspecific(scratchKey, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }
}

private let scratchKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
        guard let pointer else { return }
        Unmanaged<UTF16Scratch>.fromOpaque(pointer).release()
    }
    return key
}()
