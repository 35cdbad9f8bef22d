// swift-tools-version: 6.0
import PackageDescription

// A small tool that embeds JournalKit: it indexes a folder of Markdown or text notes into a
// journal, one entry per file, and searches them.
let package = Package(
    name: "NoteIndex",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "journal", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "note-index",
            dependencies: [
                .product(name: "JournalKit", package: "journal"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/NoteIndex"
        )
    ]
)
