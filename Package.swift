// swift-tools-version: 6.2
import PackageDescription

/// Settings every target shares: Swift 6 language mode, upcoming features, warnings are errors.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "receipt-pipeline",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pipeline", targets: ["pipeline"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // C modules: system libraries only, wrapped by the adapters below.
        .systemLibrary(name: "CTesseract", path: "Sources/CTesseract"),
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ"),

        // Pure domain: values, stage logic, configuration types, ports. No I/O, no C.
        .target(
            name: "PipelineCore",
            swiftSettings: strictSettings
        ),
        // Worker runtime: slots, retries, shutdown, stage runner. Talks to ports only.
        .target(
            name: "PipelineRuntime",
            dependencies: ["PipelineCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // Adapters: each depends on the core (and its C module), never on each other.
        .target(
            name: "TesseractOCR",
            dependencies: ["PipelineCore", "CTesseract"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PostgresStore",
            dependencies: ["PipelineCore", "CLibPQ", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "VisionLLM",
            dependencies: ["PipelineCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The review page: HTML over the ReviewStore port. Never depends on an adapter.
        .target(
            name: "ReviewServer",
            dependencies: [
                "PipelineCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Commands and the one composition root.
        .target(
            name: "PipelineApp",
            dependencies: [
                "PipelineCore", "PipelineRuntime", "TesseractOCR", "PostgresStore", "VisionLLM", "ReviewServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pipeline",
            dependencies: ["PipelineApp"],
            swiftSettings: strictSettings
        ),

        .testTarget(
            name: "PipelineCoreTests",
            dependencies: ["PipelineCore"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: ["PostgresStore", "PipelineCore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TesseractOCRTests",
            dependencies: ["TesseractOCR", "PipelineCore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VisionLLMTests",
            dependencies: ["VisionLLM", "PipelineCore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PipelineAppTests",
            dependencies: [
                "PipelineApp", "PipelineCore", "PostgresStore", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReviewServerTests",
            dependencies: [
                "ReviewServer", "PostgresStore", "PipelineCore", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PipelineRuntimeTests",
            dependencies: ["PipelineRuntime", "PostgresStore", "PipelineCore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // Shared test helpers: fixture paths, throwaway databases, running the built CLI.
        .target(
            name: "TestSupport",
            dependencies: ["PostgresStore", "PipelineCore"],
            path: "Tests/TestSupport",
            exclude: ["README.md"],
            resources: [.copy("Receipts")],
            swiftSettings: strictSettings
        ),
    ]
)
