import Foundation
import PipelineCore
import ReceiptBench
import ReviewServer
import VisionLLM

/// A raw configuration value as written in YAML or the environment.
public enum ConfigurationValue: Sendable, Equatable {
    case scalar(String)
    case list([String])
    /// A YAML mapping of names to values (`accounts.categories`).
    case mapping([String: String])
}

/// Why a value was refused; the loader adds the file, line, column and key.
public struct ConfigurationValueError: Error, Sendable, Equatable {
    /// The accepted form, e.g. `a duration such as "30s"`.
    public let expected: String
    public init(expected: String) { self.expected = expected }
}

/// One documented key of `pipeline.yaml`: its dotted path, accepted form, meaning, and how it is applied.
public struct ConfigurationKey: Sendable {
    /// Dotted path, e.g. `queue.lease`.
    public let path: String
    /// The accepted form, for error messages and the README table.
    public let form: String
    /// What the key does.
    public let meaning: String
    /// The floor and ceiling of a number, size or duration; nil for strings, switches, choices and lists.
    public let bounds: ConfigurationBounds?
    let apply: @Sendable (ConfigurationValue, inout PipelineConfiguration) throws(ConfigurationValueError) -> Void

    /// The environment variable that overrides this key: `queue.lease` → `PIPELINE_QUEUE_LEASE`,
    /// `llm.baseURL` → `PIPELINE_LLM_BASE_URL` (an acronym is one word).
    public var environmentVariable: String {
        if path == "database.url" { return "DATABASE_URL" }
        let characters = Array(path)
        var name = "PIPELINE_"
        for (index, character) in characters.enumerated() {
            if character == "." {
                name += "_"
                continue
            }
            let previous = index > 0 ? characters[index - 1] : "."
            let next = index + 1 < characters.count ? characters[index + 1] : "."
            let startsWord =
                character.isUppercase
                && (previous.isLowercase || previous.isNumber || (previous.isUppercase && next.isLowercase))
            if startsWord { name += "_" }
            name += character.uppercased()
        }
        return name
    }

    /// Applies a raw value to `configuration`.
    /// - Throws: `ConfigurationValueError` naming the accepted form when the value does not parse or is out of range.
    public func apply(_ value: ConfigurationValue, to configuration: inout PipelineConfiguration)
        throws(ConfigurationValueError)
    {
        try apply(value, &configuration)
    }

    /// Every key, in the order of the checked-in `pipeline.yaml`.
    public static let all: [ConfigurationKey] = [
        string("database.url", "libpq URL or key=value string, no password (empty: embedded cluster)") {
            $0.database.url = $1
        },
        string("database.embeddedDirectory", "folder of the embedded PostgreSQL cluster") {
            $0.database.embeddedDirectory = $1
        },
        string("database.migrations", "folder of NNNN_name.sql migrations (empty: those built in)") {
            $0.database.migrations = $1
        },
        bool("database.migrateOnStart", "apply pending migrations when ingest/work start") {
            $0.database.migrateOnStart = $1
        },
        duration("database.connectTimeout", .seconds(1), .seconds(3600), "time allowed to connect before exit 3") {
            $0.database.connectTimeout = $1
        },

        duration("ingest.settleTime", .zero, .seconds(3600), "a file is taken once unchanged for this long") {
            $0.ingest.settleTime = $1
        },
        byteSize("ingest.maxBytes", 1, 512 << 20, "larger files are rejected") { $0.ingest.maxBytes = $1 },
        formats("ingest.formats", "image formats accepted (by magic bytes)") { $0.ingest.formats = $1 },
        choice(
            "ingest.pdfPages", PDFPageGrouping.self,
            "a PDF's receipts: by what its pages hold (content), the whole file (file) or each page (perPage)"
        ) {
            $0.ingest.pdfPages = $1
        },
        integer("ingest.batchSize", 1...10_000, "files stored per transaction") { $0.ingest.batchSize = $1 },

        duration("queue.lease", .seconds(1), .seconds(86_400), "a claimed job's lease; expired leases are rescued") {
            $0.queue.lease = $1
        },
        duration(
            "queue.heartbeat", .milliseconds(100), .seconds(8 * 3600),
            "lease renewal interval, at most a third of the lease (else exit 2)"
        ) {
            $0.queue.heartbeat = $1
        },
        integer("queue.maxAttempts", 1...100, "attempts before a job is dead") { $0.queue.maxAttempts = $1 },
        duration("queue.backoffBase", .zero, .seconds(86_400), "first retry delay; doubles per attempt, with jitter") {
            $0.queue.backoffBase = $1
        },
        duration("queue.backoffCap", .zero, .seconds(7 * 86_400), "longest retry delay") { $0.queue.backoffCap = $1 },
        duration("queue.pollInterval", .milliseconds(10), .seconds(3600), "poll when no notification arrives") {
            $0.queue.pollInterval = $1
        },
        duration("queue.retention", .zero, .seconds(3650 * 86_400), "finished jobs are deleted after this long") {
            $0.queue.retention = $1
        },

        integer("workers.concurrency", 1...64, "concurrent jobs per work process") { $0.workers.concurrency = $1 },
        duration("workers.shutdownGrace", .zero, .seconds(3600), "in-flight jobs may finish this long after SIGTERM") {
            $0.workers.shutdownGrace = $1
        },

        string("pdf.library", "the PDFium library (scripts/install-pdfium)") { $0.pdf.library = $1 },
        integer("pdf.maxPages", 1...10_000, "PDFs with more pages are rejected") { $0.pdf.maxPages = $1 },
        integer("pdf.maxPageSide", 72...200_000, "pages with a longer side (in points, 1/72 in) are rejected") {
            $0.pdf.maxPageSide = $1
        },
        duration("pdf.pageTimeout", .milliseconds(100), .seconds(600), "rendering one page may take this long") {
            $0.pdf.pageTimeout = $1
        },

        integer("image.maxPixels", 1...1_000_000_000, "images declaring more pixels are rejected") {
            $0.image.maxPixels = $1
        },
        integer("image.minSide", 1...10_000, "images with a shorter side are rejected as unreadable") {
            $0.image.minSide = $1
        },
        integer(
            "image.compressLongSide", 256...8192, "long side of the JPEG kept for the LLM (of each page, for a PDF)"
        ) {
            $0.image.compressLongSide = $1
        },
        integer("image.jpegQuality", 1...100, "JPEG quality of that copy") { $0.image.jpegQuality = $1 },
        bool("image.llmColor", "keep the LLM copy in color when the source has color") { $0.image.llmColor = $1 },

        choice("ocr.engine", OCREngineChoice.self, "OCR engine: PP-OCR, Tesseract, or both (PP-OCR lines first)") {
            $0.ocr.engine = $1
        },
        string("ocr.ppocr.directory", "folder of libonnxruntime.so.1 and the PP-OCR models (scripts/install-ppocr)") {
            $0.ocr.ppocr.directory = $1
        },
        integer("ocr.ppocr.detectorLongSide", 320...4000, "the PP-OCR detector's cap on the page's long side") {
            $0.ocr.ppocr.detectorLongSide = $1
        },
        integer("ocr.ppocr.threads", 1...64, "intra-op threads of each PP-OCR model session") {
            $0.ocr.ppocr.threads = $1
        },
        string("ocr.language", "Tesseract language(s), e.g. eng or eng+deu") { $0.ocr.language = $1 },
        integer("ocr.pageSegmentation", 0...13, "Tesseract page segmentation mode of the first pass") {
            $0.ocr.pageSegmentation = $1
        },
        integer("ocr.secondPassSegmentation", 0...13, "mode of a second pass when no date is read; 0 = off") {
            $0.ocr.secondPassSegmentation = $1
        },
        integer("ocr.secondPassConfidence", 0...100, "the second pass re-reads lines with a digit read below this") {
            $0.ocr.secondPassConfidence = $1
        },
        integer(
            "ocr.headerSegmentation", 0...13,
            "mode of a header pass that re-reads the top of small photos for the merchant; 0 = off"
        ) {
            $0.ocr.headerSegmentation = $1
        },
        fraction("ocr.headerShare", "how much of the page, from the top, the header pass reads") {
            $0.ocr.headerShare = $1
        },
        string("ocr.tessdata", "folder of the .traineddata files") { $0.ocr.tessdata = $1 },
        integer("ocr.targetLongSide", 400...8000, "pages with a longer long side are shrunk to it for OCR") {
            $0.ocr.targetLongSide = $1
        },
        integer("ocr.minLongSide", 100...8000, "pages with a shorter long side are enlarged to it for OCR") {
            $0.ocr.minLongSide = $1
        },
        duration("ocr.timeout", .milliseconds(100), .seconds(3600), "per-image OCR deadline") { $0.ocr.timeout = $1 },

        choice("llm.provider", LLMProvider.self, "vision LLM API, or none") { $0.llm.provider = $1 },
        string("llm.baseURL", "API base URL (OpenAI-compatible: …/v1)") { $0.llm.baseURL = $1 },
        string("llm.model", "model name") { $0.llm.model = $1 },
        string("llm.apiKeyEnvironmentVariable", "name of the env variable holding the API key") {
            $0.llm.apiKeyEnvironmentVariable = $1
        },
        duration("llm.timeout", .seconds(1), .seconds(3600), "overall deadline per LLM call, retries included") {
            $0.llm.timeout = $1
        },
        integer("llm.maxTokens", 64...200_000, "output token budget per call") { $0.llm.maxTokens = $1 },
        choice("llm.tokenLimitField", LLMTokenLimitField.self, "field carrying maxTokens (local servers: max_tokens)") {
            $0.llm.tokenLimitField = $1
        },
        decimal("llm.temperature", 0...2, "sampling temperature (always sent)") { $0.llm.temperature = $1 },
        integer("llm.retries", 0...10, "retries of 408/409/429/5xx and network errors") { $0.llm.retries = $1 },
        decimal("llm.inputPricePerMillion", 0...10_000, "price per million input tokens") {
            $0.llm.inputPricePerMillion = $1
        },
        decimal("llm.outputPricePerMillion", 0...10_000, "price per million output tokens") {
            $0.llm.outputPricePerMillion = $1
        },

        decimal("validation.tolerance", 0...100, "largest difference an arithmetic check accepts") {
            $0.validation.tolerance = $1
        },

        decimal(
            "acceptance.maxSilentPer100", 0...100,
            "trust budget: receipts in 100 the machine may accept with a wrong merchant, date or total"
        ) {
            $0.acceptance.maxSilentPer100 = NSDecimalNumber(decimal: $1).doubleValue
        },

        duration(
            "targets.latency", .milliseconds(1), .seconds(86_400), "per-receipt latency target reported by stats"
        ) {
            $0.targets.latency = $1
        },
        duration(
            "targets.benchLatencyP95", .milliseconds(1), .seconds(86_400), "bench fails when p95 image→draft is slower"
        ) {
            $0.targets.benchLatencyP95 = $1
        },
        fraction("targets.totalAccuracy", "bench fails below this share of right totals") {
            $0.targets.totalAccuracy = $1
        },
        fraction("targets.dateAccuracy", "bench fails below this share of right dates") {
            $0.targets.dateAccuracy = $1
        },
        fraction("targets.merchantAccuracy", "bench fails below this share of right merchants (fuzzy)") {
            $0.targets.merchantAccuracy = $1
        },

        choice("logging.level", LogLevel.self, "lowest level logged to stderr") { $0.logging.level = $1 },

        listenAddress("review.listen", "HOST:PORT of the review page; other than loopback needs the token") {
            $0.review.listen = $1
        },
        string("review.tokenEnvironmentVariable", "name of the env variable holding the review page's token") {
            $0.review.tokenEnvironmentVariable = $1
        },
        hostNames("review.allowedHosts", "host names the page answers to besides the listen address's own") {
            $0.review.allowedHosts = $1
        },
        duration("review.idleTimeout", .seconds(1), .seconds(3600), "a client connection silent this long is closed") {
            $0.review.idleTimeout = $1
        },
        integer("review.maxConnections", 1...100_000, "client connections open at once; more wait to connect") {
            $0.review.maxConnections = $1
        },
        integer("review.databaseConnections", 1...100, "PostgreSQL connections the pages and uploads share") {
            $0.review.databaseConnections = $1
        },

        accountMap(
            "accounts.categories", names: PipelineConfiguration.Accounts.categoryNames,
            "expense account per receipt or item category, for ledger/beancount exports"
        ) { $0.accounts.categories.merge($1) { $1 } },
        accountMap(
            "accounts.payments", names: PipelineConfiguration.Accounts.paymentNames,
            "balancing account per payment method (and unknown)"
        ) { $0.accounts.payments.merge($1) { $1 } },
        bool("accounts.itemPostings", "one posting per item category instead of one per receipt") {
            $0.accounts.itemPostings = $1
        },
    ]

    /// Looks a key up by its dotted path.
    public static func named(_ path: String) -> ConfigurationKey? {
        all.first { $0.path == path }
    }
}

// MARK: - Typed key builders

extension ConfigurationKey {
    typealias Setter<Value> = @Sendable (inout PipelineConfiguration, Value) -> Void

    private static func scalarKey<Value>(
        _ path: String, form: String, _ meaning: String, bounds: ConfigurationBounds? = nil,
        parse: @escaping @Sendable (String) -> Value?, set: @escaping Setter<Value>
    ) -> ConfigurationKey {
        ConfigurationKey(path: path, form: form, meaning: meaning, bounds: bounds) {
            value, configuration throws(ConfigurationValueError) in
            guard case .scalar(let text) = value, let parsed = parse(text) else {
                throw ConfigurationValueError(expected: form)
            }
            set(&configuration, parsed)
        }
    }

    /// A number, size or duration: refused unless it parses and lies within `range`, which the form names.
    private static func boundedKey<Value: Comparable & Sendable>(
        _ path: String, _ bounds: ConfigurationBounds, _ range: ClosedRange<Value>, noun: String, examples: String,
        _ meaning: String, parse: @escaping @Sendable (String) -> Value?, set: @escaping Setter<Value>
    ) -> ConfigurationKey {
        let written = bounds.written
        return scalarKey(
            path, form: "\(noun) from \(written.floor) to \(written.ceiling)\(examples)", meaning, bounds: bounds,
            parse: { text in parse(text).flatMap { range.contains($0) ? $0 : nil } }, set: set)
    }

    static func string(_ path: String, _ meaning: String, set: @escaping Setter<String>) -> ConfigurationKey {
        scalarKey(path, form: "a string", meaning, parse: { $0 }, set: set)
    }

    /// `HOST:PORT` with a port in 0–65535, checked as `ReviewServerOptions.parseListen` reads it.
    static func listenAddress(_ path: String, _ meaning: String, set: @escaping Setter<String>) -> ConfigurationKey {
        scalarKey(
            path, form: "HOST:PORT with a port from 0 to 65535, such as 127.0.0.1:8080", meaning,
            parse: { (try? ReviewServerOptions.parseListen($0)) == nil ? nil : $0 }, set: set)
    }

    static func bool(_ path: String, _ meaning: String, set: @escaping Setter<Bool>) -> ConfigurationKey {
        scalarKey(
            path, form: "true or false", meaning, parse: { ["true": true, "false": false][$0.lowercased()] }, set: set)
    }

    static func integer(
        _ path: String, _ range: ClosedRange<Int>, _ meaning: String, set: @escaping Setter<Int>
    ) -> ConfigurationKey {
        boundedKey(
            path, .wholeNumber(range), range, noun: "a whole number", examples: "", meaning, parse: { Int($0) },
            set: set)
    }

    static func decimal(
        _ path: String, _ range: ClosedRange<Decimal>, _ meaning: String, set: @escaping Setter<Decimal>
    ) -> ConfigurationKey {
        boundedKey(
            path, .decimal(range), range, noun: "a decimal number", examples: "", meaning,
            parse: { text in
                guard text.range(of: #"^-?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil,
                    let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN
                else { return nil }
                return value
            }, set: set)
    }

    static func fraction(_ path: String, _ meaning: String, set: @escaping Setter<Double>) -> ConfigurationKey {
        boundedKey(
            path, .share(0...1), 0...1, noun: "a share", examples: ", such as 0.85", meaning, parse: { Double($0) },
            set: set)
    }

    static func duration(
        _ path: String, _ floor: Duration, _ ceiling: Duration, _ meaning: String, set: @escaping Setter<Duration>
    ) -> ConfigurationKey {
        boundedKey(
            path, .duration(floor...ceiling), floor...ceiling, noun: "a duration",
            examples: #", such as "500ms", "30s", "5m", "2h" or "7d""#, meaning, parse: parseDuration, set: set)
    }

    static func byteSize(
        _ path: String, _ floor: Int, _ ceiling: Int, _ meaning: String, set: @escaping Setter<Int>
    ) -> ConfigurationKey {
        boundedKey(
            path, .byteSize(floor...ceiling), floor...ceiling, noun: "a size",
            examples: #", such as "500KB", "25MB" or a number of bytes"#, meaning, parse: parseByteSize, set: set)
    }

    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ path: String, _ type: Choice.Type, _ meaning: String, set: @escaping Setter<Choice>
    ) -> ConfigurationKey where Choice.RawValue == String {
        let form = "one of " + Choice.allCases.map(\.rawValue).joined(separator: ", ")
        return scalarKey(
            path, form: form, meaning,
            parse: { text in Choice.allCases.first { $0.rawValue.lowercased() == text.lowercased() } }, set: set)
    }

    /// A mapping of known names to account names; a scalar (the environment) is `Name=Account, Name=Account`.
    /// Names not given keep their default.
    static func accountMap(
        _ path: String, names: Set<String>, _ meaning: String, set: @escaping Setter<[String: String]>
    ) -> ConfigurationKey {
        let form =
            "a mapping of " + names.sorted().joined(separator: ", ")
            + " to accounts such as Expenses:Food (root Assets, Liabilities, Equity, Income or Expenses)"
        return ConfigurationKey(path: path, form: form, meaning: meaning, bounds: nil) {
            value, configuration throws(ConfigurationValueError) in
            var mapping: [String: String] = [:]
            switch value {
            case .mapping(let pairs): mapping = pairs
            case .list: throw ConfigurationValueError(expected: form)
            case .scalar(let text):
                for pair in text.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    guard parts.count == 2 else { throw ConfigurationValueError(expected: form) }
                    mapping[parts[0]] = parts[1]
                }
            }
            for (name, account) in mapping
            where !names.contains(name) || !PipelineConfiguration.Accounts.isValidAccount(account) {
                throw ConfigurationValueError(expected: form)
            }
            set(&configuration, mapping)
        }
    }

    static func formats(_ path: String, _ meaning: String, set: @escaping Setter<[ImageFormat]>) -> ConfigurationKey {
        let form = "a list drawn from " + ImageFormat.allCases.map(\.rawValue).joined(separator: ", ")
        return ConfigurationKey(path: path, form: form, meaning: meaning, bounds: nil) {
            value, configuration throws(ConfigurationValueError) in
            let names = try listItems(value, form: form)
            let parsed = names.compactMap { ImageFormat(rawValue: $0.lowercased()) }
            guard parsed.count == names.count, !parsed.isEmpty else { throw ConfigurationValueError(expected: form) }
            set(&configuration, parsed)
        }
    }

    /// Host names (`receipts.example.lan`, `192.168.1.20`), without scheme or port; may be empty.
    static func hostNames(_ path: String, _ meaning: String, set: @escaping Setter<[String]>) -> ConfigurationKey {
        let form = "a list of host names such as [receipts.example.lan], without scheme or port"
        return ConfigurationKey(path: path, form: form, meaning: meaning, bounds: nil) {
            value, configuration throws(ConfigurationValueError) in
            let names = try listItems(value, form: form).map { $0.lowercased() }
            guard names.allSatisfy({ $0.wholeMatch(of: /[a-z0-9]([a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\]/) != nil })
            else { throw ConfigurationValueError(expected: form) }
            set(&configuration, names)
        }
    }

    /// A YAML list's items, or a comma-separated string's (as an environment variable holds a list).
    /// - Throws: a mapping, which is no list, as not of the key's `form`.
    private static func listItems(_ value: ConfigurationValue, form: String) throws(ConfigurationValueError)
        -> [String]
    {
        switch value {
        case .list(let list): list
        case .scalar(let text):
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case .mapping: throw ConfigurationValueError(expected: form)
        }
    }
}

/// The floor and ceiling of a number, size or duration key: values the code using it can honour (a lease of at most
/// a day, a retention of at most ten years, a file no larger than a database field holds).
public enum ConfigurationBounds: Sendable {
    case wholeNumber(ClosedRange<Int>)
    case decimal(ClosedRange<Decimal>)
    case share(ClosedRange<Double>)
    case duration(ClosedRange<Duration>)
    case byteSize(ClosedRange<Int>)

    /// The floor and the ceiling as a configuration writes them: `1s` and `1d`, `1B` and `512MB`.
    public var written: (floor: String, ceiling: String) {
        switch self {
        case .wholeNumber(let range): ("\(range.lowerBound)", "\(range.upperBound)")
        case .decimal(let range): ("\(range.lowerBound)", "\(range.upperBound)")
        case .share(let range): (String(format: "%g", range.lowerBound), String(format: "%g", range.upperBound))
        case .duration(let range): (formatDuration(range.lowerBound), formatDuration(range.upperBound))
        case .byteSize(let range): (formatByteSize(range.lowerBound), formatByteSize(range.upperBound))
        }
    }
}

/// Parses `"500ms"`, `"30s"`, `"5m"`, `"2h"`, `"7d"` (a bare number means seconds): ASCII digits with an optional
/// fraction, spaces and tabs around them; nil for anything else (hex `0x10s`, exponents, a zero-width or no-break
/// space inside), negative or beyond what a `Duration` of whole milliseconds holds, never a trap.
public func parseDuration(_ text: String) -> Duration? {
    let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000), ("", 1000),
    ]
    let trimmed = text.trimmingCharacters(in: asciiBlanks).lowercased()
    for unit in units where trimmed.hasSuffix(unit.suffix) {
        let number = trimmed.dropLast(unit.suffix.count).trimmingCharacters(in: asciiBlanks)
        guard number.wholeMatch(of: /[0-9]+(\.[0-9]+)?/) != nil, let value = Double(number) else { continue }
        return Duration(checkedMilliseconds: value * unit.milliseconds)
    }
    return nil
}

/// The blanks a number may have around it in a setting: ASCII spaces and tabs only.
private let asciiBlanks = CharacterSet(charactersIn: " \t")

/// Writes a duration as `parseDuration` reads it, in the largest unit that holds it whole: `"500ms"`, `"30s"`, `"2h"`.
public func formatDuration(_ duration: Duration) -> String {
    let milliseconds = duration.milliseconds
    let units: [(suffix: String, milliseconds: Int64)] = [
        ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
    ]
    for unit in units where milliseconds != 0 && milliseconds % unit.milliseconds == 0 {
        return "\(milliseconds / unit.milliseconds)\(unit.suffix)"
    }
    return milliseconds == 0 ? "0s" : "\(milliseconds)ms"
}

/// Parses `"500KB"`, `"25MB"`, `"1GB"` (powers of 1024) or a plain number of bytes; nil for anything else, negative
/// or beyond `Int` (`99999999999GB`), never a trap.
public func parseByteSize(_ text: String) -> Int? {
    let units: [(suffix: String, factor: Int)] = [("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30), ("b", 1), ("", 1)]
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    for unit in units where trimmed.hasSuffix(unit.suffix) {
        let number = trimmed.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
        guard let value = Int(number), value >= 0 else { continue }
        let bytes = value.multipliedReportingOverflow(by: unit.factor)
        return bytes.overflow ? nil : bytes.partialValue
    }
    return nil
}

/// Writes a size as `parseByteSize` reads it, in the largest unit that holds it whole: `"512MB"`, `"1B"`.
public func formatByteSize(_ bytes: Int) -> String {
    for (suffix, factor) in [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)] where bytes != 0 && bytes % factor == 0
    {
        return "\(bytes / factor)\(suffix)"
    }
    return "\(bytes)B"
}
