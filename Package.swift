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
        .executable(name: "pipeline", targets: ["pipeline"]),
        .executable(name: "pipeline-bench", targets: ["PipelineBenchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // No traits: the default ones add swift-configuration readers and full Foundation, neither used here.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // C modules: system libraries only, wrapped by the adapters below.
        .systemLibrary(name: "CTesseract", path: "Sources/CTesseract"),
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ"),
        // ONNX Runtime's C API, declared by hand and opened with dlopen (the library is optional at build time).
        .systemLibrary(name: "CONNXRuntime", path: "Sources/CONNXRuntime"),
        // PDFium's C API (the few functions used), declared by hand and opened with dlopen, like ONNX Runtime.
        .systemLibrary(name: "CPDFium", path: "Sources/CPDFium"),
        // libheif (HEIC/HEIF and AVIF photos), a system library.
        .systemLibrary(name: "CHEIF", path: "Sources/CHEIF"),
        // OpenSSL's libcrypto, for SHA-256 alone (a stored file's identity).
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto"),

        // Pure domain: values, the receipt pipeline and its ports, stage logic (extraction, reconciliation, JSON
        // repair, categorization, review rules), queue policy, configuration types. No I/O, no C, no threads.
        .target(
            name: "PipelineCore",
            dependencies: ["JSONRepair", "BrandData", "FuzzyKeyLookup"],
            swiftSettings: strictSettings
        ),
        // Parsing damaged JSON (a model's reply cut off, fenced, or with comments) into a value and notes of what was
        // repaired; no dependency at all. Optimized in debug builds too, like PPOCR: its property tests repair every
        // prefix of every fixture, ~3× slower unoptimized (docs/benchmarks.md).
        .target(
            name: "JSONRepair",
            swiftSettings: strictSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Generated data the extractor reads: the brand table (scripts/generate-brand-index). No code, no dependency.
        .target(
            name: "BrandData",
            swiftSettings: strictSettings
        ),
        // Byte keys looked up exactly or one edit away (symmetric deletion: sorted hash tables of the keys and of
        // their one-character deletions); the brand index's lookup. No dependency. Optimized in debug builds too, like
        // PPOCR: built unoptimized, hashing and sorting its ~330,000 entries cost every process that extracts ~0.6 s.
        .target(
            name: "FuzzyKeyLookup",
            swiftSettings: strictSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Intake: what `ingest` makes of a file before it is stored — an e-mail's MIME parts and the text PDF an
        // HTML-only e-mail becomes. Pure Swift, no I/O.
        .target(
            name: "ReceiptIntake",
            dependencies: ["PipelineCore"],
            swiftSettings: strictSettings
        ),
        // Running blocking C work (libpq, Tesseract, Leptonica, ONNX Runtime) off Swift's cooperative pool: a serial
        // executor on its own thread, and a pool lending one resource (an engine) per worker slot.
        .target(
            name: "BlockingExecution",
            swiftSettings: strictSettings
        ),
        // Worker runtime: slots, heartbeat, retries, shutdown as one task tree; the in-memory queue. Talks to ports only.
        .target(
            name: "PipelineRuntime",
            dependencies: ["PipelineCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The image stages both OCR engines share (Leptonica: guard, decode, normalize, compress; the one color
        // decoder; previews), with the other inputs decoded into them: HEIC/AVIF (libheif) and PDF pages (PDFium:
        // rendered, or their text layer read). Blocking C work, called on an engine's thread.
        .target(
            name: "ReceiptImage",
            dependencies: ["PipelineCore", "BlockingExecution", "CTesseract", "CPDFium", "CHEIF"],
            swiftSettings: strictSettings
        ),
        // Adapters: each depends on the core (its C module, BlockingExecution for blocking C calls, the engines on
        // the image stages), never on each other.
        .target(
            name: "TesseractOCR",
            dependencies: ["PipelineCore", "BlockingExecution", "ReceiptImage", "CTesseract"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PPOCR",
            dependencies: ["PipelineCore", "BlockingExecution", "CONNXRuntime"],
            // Optimized in debug builds too: its pixel loops (resizing, warping, DB post-processing) run ~10×
            // slower unoptimized, which pushes test reads past the OCR deadline.
            swiftSettings: strictSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // The OCR stage: the one place that chooses the engine(s) `ocr.engine` names and runs the image stages
        // around them (a born-digital PDF's text layer instead), for `work` and `bench`.
        .target(
            name: "ReceiptReading",
            dependencies: ["PipelineCore", "BlockingExecution", "ReceiptImage", "TesseractOCR", "PPOCR"],
            swiftSettings: strictSettings
        ),
        // Every SQL statement: the libpq connection, migrations, queue, receipts, expenses, review store.
        .target(
            name: "PostgresStore",
            dependencies: [
                "PipelineCore", "BlockingExecution", "CLibPQ", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            plugins: ["EmbedMigrations"]
        ),
        // Build-time only: compiles migrations/*.sql into PostgresStore, so the binary runs from any folder.
        .executableTarget(
            name: "MigrationEmbedder",
            swiftSettings: strictSettings
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["MigrationEmbedder"]
        ),
        .target(
            name: "VisionLLM",
            dependencies: [
                "PipelineCore", "JSONRepair", .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The review page: HTML over the review store ports. Never depends on an adapter.
        .target(
            name: "ReviewServer",
            dependencies: [
                "PipelineCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The bench as a library: labeled fixtures, the runner over the receipt pipeline with its OCR page cache,
        // scoring, summaries and reports, and whether labels appear in OCR text. Shared by `pipeline bench` and
        // `pipeline-bench`.
        .target(
            name: "ReceiptBench",
            dependencies: ["PipelineCore"],
            swiftSettings: strictSettings
        ),
        // Commands (ingest, work, bench, review, …), configuration loading and the one composition root
        // (PipelineFactory builds the receipt pipeline for work — its reprocess jobs too — and bench). Reaches the
        // engines only through ReceiptReading.
        .target(
            name: "PipelineApp",
            dependencies: [
                "PipelineCore", "PipelineRuntime", "ReceiptImage", "ReceiptReading", "PostgresStore", "VisionLLM",
                "ReviewServer", "ReceiptBench", "JSONRepair", "ReceiptIntake", "CLibCrypto",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pipeline",
            dependencies: ["PipelineApp"],
            swiftSettings: strictSettings
        ),
        // Benchmarks (OCR engines, work queue) and the no-op queue worker: a second executable over the same library.
        .executableTarget(
            name: "PipelineBenchmarks",
            dependencies: [
                "PipelineApp", "PipelineCore", "PipelineRuntime", "ReceiptImage", "ReceiptReading", "TesseractOCR",
                "PostgresStore", "ReceiptBench", "BlockingExecution",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("OCRBench/Resources/rapidocr_server.py")],
            swiftSettings: strictSettings
        ),

        // Tests: one target per module. Logic is tested over the in-memory fakes beside the ports (TestSupport);
        // what is about an adapter runs on the real thing (PostgreSQL, Tesseract, PP-OCR, libheif, PDFium, HTTP).
        .testTarget(
            name: "PipelineCoreTests",
            dependencies: ["PipelineCore", "ReceiptBench", "JSONRepair", "FuzzyKeyLookup", "BrandData"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptIntakeTests",
            dependencies: ["ReceiptIntake", "PipelineCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JSONRepairTests",
            dependencies: ["JSONRepair"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: ["PostgresStore", "PipelineCore", "TestSupport", "DatabaseTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TesseractOCRTests",
            dependencies: [
                "TesseractOCR", "ReceiptImage", "CTesseract", "PipelineCore", "TestSupport", "ReceiptBench",
            ],
            resources: [.copy("Images")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptReadingTests",
            dependencies: ["ReceiptReading", "ReceiptImage", "PPOCR", "PipelineCore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PPOCRTests",
            dependencies: ["PPOCR", "ReceiptImage", "PipelineCore", "TestSupport", "ReceiptBench"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VisionLLMTests",
            dependencies: ["VisionLLM", "PipelineCore", "TestSupport", "ReceiptBench", "JSONRepair"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PipelineAppTests",
            dependencies: [
                "PipelineApp", "PipelineCore", "PostgresStore", "ReceiptImage", "ReceiptReading", "TesseractOCR",
                "VisionLLM", "TestSupport", "DatabaseTestSupport", "ReceiptBench", "JSONRepair",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReviewServerTests",
            dependencies: [
                "ReviewServer", "PostgresStore", "PipelineCore", "TestSupport", "DatabaseTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PipelineRuntimeTests",
            dependencies: ["PipelineRuntime", "PostgresStore", "PipelineCore", "TestSupport", "DatabaseTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PipelineBenchmarksTests",
            dependencies: ["PipelineBenchmarks", "ReceiptBench", "PipelineCore", "PostgresStore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // Shared test helpers without a database: fixture paths, the recorded pages, and the in-memory fakes beside
        // the ports (an OCR engine serving recorded pages, a receipt source, the review stores, the work queue, the
        // category history, a fixed clock); a test of the core or an engine links no libpq.
        .target(
            name: "TestSupport",
            dependencies: ["PipelineCore", "ReceiptBench", "JSONRepair", "ReceiptIntake"],
            path: "Tests/TestSupport",
            exclude: ["README.md"],
            resources: [.copy("Receipts"), .copy("LLMCorpus"), .copy("RecordedPages")],
            swiftSettings: strictSettings
        ),
        // What tests on the real database and the built binary share: throwaway databases, seeded review receipts,
        // running the built `pipeline`.
        .target(
            name: "DatabaseTestSupport",
            dependencies: ["PostgresStore", "PipelineCore", "TestSupport"],
            path: "Tests/DatabaseTestSupport",
            swiftSettings: strictSettings
        ),
    ]
)
