// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "journal",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "JournalKit", targets: ["JournalKit", "JournalText"]),
        .library(name: "JournalBench", targets: ["JournalBench"]),
        .executable(name: "journal", targets: ["JournalCLI"]),
        // Loaded with LD_PRELOAD into the `journal` processes the power-cut tests run: it logs
        // every change they make to a journal's files, for the tests to replay up to any sync.
        .library(name: "PowerCutRecorder", type: .dynamic, targets: ["PowerCutRecorder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-algorithms", from: "1.2.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    ],
    targets: [
        // ICU's headers rename every function with a version suffix (ubrk_next_72), which Swift
        // cannot import; this target exposes the few functions the library needs under plain names.
        // Its regular expressions load libicui18n when first used (see CICU.c), not at start-up.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("dl")]
        ),
        // libsodium (Debian's libsodium-dev): Argon2id, XChaCha20-Poly1305 and guarded memory.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // The SQLite VFS that encrypts an encrypted journal's stores page by page (see its file).
        .target(name: "CEncryptedVFS", dependencies: ["CSodium"], linkerSettings: [.linkedLibrary("sqlite3")]),
        // Swapping two folders in one step (renameat2), for converting a journal all or nothing.
        .target(name: "CFileExchange"),
        // Keeping a process's memory from core dumps and other processes (prctl), for a
        // process that holds an encrypted journal's text, and giving freed heap pages back
        // (malloc_trim) as the indexer goes from batch to batch.
        .target(name: "CProcessMemory"),
        // Which CPUs a thread may run on (sched_setaffinity), for an import that keeps off the
        // CPU a search runs on (glibc declares it only for C code that asks for it).
        .target(name: "CThreadPlacement"),
        // A pseudo-terminal for the benchmark that types into the full-screen search (glibc
        // declares its functions only for C code that asks for them).
        .target(name: "CPseudoTerminal"),
        // Text → canonical text → words: the semantics document's text functions.
        .target(name: "JournalText", dependencies: ["CICU"]),
        // Entries, the two stores, search strategies and import (Day One's archives are zip files,
        // jrnl's encrypted journals Fernet tokens), and the encryption of a journal at rest.
        .target(
            name: "JournalKit",
            dependencies: [
                "JournalText", "TextReport", "CICU", "CSodium", "CEncryptedVFS", "CFileExchange", "CProcessMemory",
                "CThreadPlacement",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Algorithms", package: "swift-algorithms"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // jrnl's encrypted journals: PBKDF2, AES-CBC and HMAC, for import only.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Measuring the strategies: the comparison, the predicate ladder, synthetic journals and
        // the benchmark. Built on JournalKit; the library itself knows nothing of it.
        // Tables, charts, JSON and styles for text the command and the reports write.
        .target(name: "TextReport"),
        .target(
            name: "JournalBench",
            dependencies: [
                "JournalKit", "JournalText", "TextReport", "CPseudoTerminal",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The `journal` command. swiftc exports every symbol of an executable for dynamic
        // lookup; journal loads no plug-in that would look them up, and the dynamic loader of
        // every process would otherwise search a table of every symbol of the executable.
        .executableTarget(
            name: "JournalCLI",
            dependencies: [
                "JournalKit", "JournalBench", "TextReport", "CProcessMemory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            // Linked by lld (in the Swift toolchain) to pack its relative relocations (DT_RELR,
            // glibc 2.36 and later) that every process would otherwise read and the dynamic
            // loader walk one by one.
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "--no-export-dynamic",
                    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                ])
            ]
        ),
        // What the fuzz targets check on every input; its tests replay the inputs fuzzing found.
        .target(name: "FuzzChecks", dependencies: ["JournalKit", "JournalText"], path: "Fuzz/Checks"),
        // The power-cut tests' recorder (see its header), a C library built to be preloaded.
        .target(name: "PowerCutRecorder", path: "Tests/PowerCutRecorder", linkerSettings: [.linkedLibrary("dl")]),
        // Drives the encrypting VFS below SQLite for its tests (a fork()ed writer's nonces).
        .target(
            name: "EncryptedVFSProbe", dependencies: ["CEncryptedVFS"], path: "Tests/EncryptedVFSProbe",
            linkerSettings: [.linkedLibrary("sqlite3")]),
        // Opens, uses and releases journals on many threads at once; run under glibc's heap
        // checks by ReleaseStressTests and under valgrind by scripts/stress.
        .executableTarget(name: "ReleaseStress", dependencies: ["JournalKit"], path: "Tests/ReleaseStress"),
        .testTarget(name: "JournalTextTests", dependencies: ["JournalText"]),
        .testTarget(
            name: "JournalKitTests",
            dependencies: [
                "JournalKit", "JournalBench", "ReleaseStress", "EncryptedVFSProbe",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
        .testTarget(name: "JournalBenchTests", dependencies: ["JournalBench", "JournalKit"]),
        .testTarget(name: "TextReportTests", dependencies: ["TextReport"]),
        .testTarget(name: "JournalCLITests", dependencies: ["JournalCLI", "JournalKit", "JournalBench"]),
        .testTarget(name: "FuzzChecksTests", dependencies: ["FuzzChecks"]),
    ]
)

// libFuzzer targets, only for `scripts/fuzz`, which sets JOURNAL_FUZZ=1 and builds with
// `-sanitize=fuzzer` (libFuzzer supplies their `main`).
if Context.environment["JOURNAL_FUZZ"] == "1" {
    package.targets += [
        .executableTarget(name: "FuzzText", dependencies: ["FuzzChecks"], path: "Fuzz/FuzzText"),
        .executableTarget(name: "FuzzJSONLines", dependencies: ["FuzzChecks"], path: "Fuzz/FuzzJSONLines"),
        .executableTarget(name: "FuzzImport", dependencies: ["FuzzChecks"], path: "Fuzz/FuzzImport"),
        .executableTarget(name: "FuzzQuery", dependencies: ["FuzzChecks"], path: "Fuzz/FuzzQuery"),
        .executableTarget(name: "FuzzEncryptedPages", dependencies: ["FuzzChecks"], path: "Fuzz/FuzzEncryptedPages"),
    ]
}
