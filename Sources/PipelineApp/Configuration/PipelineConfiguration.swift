import Foundation
import PPOCR
import PipelineCore
import ReceiptBench
import ReceiptImage
import VisionLLM

/// The whole typed configuration: `pipeline.yaml`, then environment, then flags (flags win).
///
/// Every value has a default, so an empty file (or none) is a valid configuration: embedded database, no LLM.
/// Secrets (API keys, database passwords) are never part of it: they come from the environment at use.
public struct PipelineConfiguration: Sendable, Equatable {
    public var database = Database()
    public var ingest = Ingest()
    public var queue = Queue()
    public var workers = Workers()
    public var pdf = PDF()
    public var image = Image()
    public var ocr = OCR()
    public var llm = LLM()
    public var validation = Validation()
    public var acceptance = Acceptance()
    public var targets = Targets()
    public var logging = Logging()
    public var review = Review()
    public var accounts = Accounts()

    public init() {}

    /// Where the database is and how the schema is kept up to date.
    public struct Database: Sendable, Equatable {
        /// A `postgres://` URL or libpq key/value string without a password; empty means the embedded cluster
        /// (or the standard `PG*` environment when `PGHOST` or `PGDATABASE` is set).
        public var url = ""
        /// Folder of the embedded cluster (data, socket, log).
        public var embeddedDirectory = ".pipeline"
        /// Folder of the `NNNN_name.sql` migrations; empty means the ones compiled into the binary.
        public var migrations = ""
        /// Whether `ingest` and `work` apply pending migrations before they start.
        public var migrateOnStart = true
        /// How long connecting may take before the database counts as unreachable.
        public var connectTimeout: Duration = .seconds(5)
    }

    /// How `pipeline ingest` picks up files.
    public struct Ingest: Sendable, Equatable {
        /// A file is taken once its size and mtime have not changed for this long.
        public var settleTime: Duration = .seconds(2)
        /// Larger files are rejected.
        public var maxBytes = 25 * 1024 * 1024
        /// Formats accepted (identified by magic bytes, never by extension).
        public var formats: [ImageFormat] = [.jpeg, .png, .tiff, .webp, .bmp, .gif, .heic, .avif, .pdf]
        /// How a PDF's pages become receipts: by what they hold, the whole file, or each page.
        public var pdfPages = PDFPageGrouping.content
        /// Files stored per transaction.
        public var batchSize = 100
    }

    /// Work queue timing and retry policy (docs/architecture.md, "Work queue").
    public struct Queue: Sendable, Equatable {
        public var lease: Duration = .seconds(60)
        public var heartbeat: Duration = .seconds(15)
        public var maxAttempts = 5
        public var backoffBase: Duration = .seconds(2)
        public var backoffCap: Duration = .seconds(600)
        public var pollInterval: Duration = .seconds(1)
        public var retention: Duration = .seconds(7 * 86_400)
    }

    /// Worker processes.
    public struct Workers: Sendable, Equatable {
        /// Concurrent jobs per `pipeline work` process (one OCR engine each).
        public var concurrency = 2
        /// How long in-flight jobs may run on after SIGTERM/SIGINT before they are cancelled.
        public var shutdownGrace: Duration = .seconds(10)
    }

    /// Reading PDFs (PDFium, installed by `scripts/install-pdfium`) and their limits.
    public struct PDF: Sendable, Equatable {
        /// The PDFium library opened on the first PDF.
        public var library = ImageProcessingOptions.defaults.pdfLibrary
        /// PDFs with more pages are rejected.
        public var maxPages = ImageProcessingOptions.defaults.pdfMaxPages
        /// Pages whose longer side is over this many points (1/72 inch) are rejected; 14400 pt = 5 m.
        public var maxPageSide = ImageProcessingOptions.defaults.pdfMaxPageSide
        /// Rendering one page may take this long.
        public var pageTimeout = ImageProcessingOptions.defaults.pdfPageTimeout
    }

    /// Image guard and compression.
    public struct Image: Sendable, Equatable {
        /// Images declaring more pixels are rejected before decoding (decompression bombs).
        public var maxPixels = ImageProcessingOptions.defaults.maxPixels
        /// Images whose shorter side is below this are rejected as unreadable.
        public var minSide = ImageProcessingOptions.defaults.minSide
        /// Long side of the JPEG kept for the LLM.
        public var compressLongSide = ImageProcessingOptions.defaults.compressLongSide
        /// JPEG quality of that copy (1–100).
        public var jpegQuality = ImageProcessingOptions.defaults.jpegQuality
        /// Keep that copy in color when the source has color (the model reads colored stamps and highlights).
        public var llmColor = ImageProcessingOptions.defaults.llmColor
    }

    /// OCR settings: which engine reads the pages, PP-OCR's settings and Tesseract's.
    public struct OCR: Sendable, Equatable {
        /// Which engine reads the pages.
        public var engine: OCREngineChoice = .ppocr
        public var ppocr = PPOCR()
        public var language = ImageProcessingOptions.defaults.language
        /// Tesseract page segmentation mode of the first pass.
        public var pageSegmentation = ImageProcessingOptions.defaults.pageSegmentation
        /// Page segmentation mode of a second pass, run only when the first pass shows no date;
        /// it re-reads strips of the page around uncertain lines and appends what it reads. 0 turns it off.
        public var secondPassSegmentation = ImageProcessingOptions.defaults.secondPassSegmentation
        /// The second pass re-reads the first pass's lines that have a digit and a mean word confidence below this.
        public var secondPassConfidence = Int(ImageProcessingOptions.defaults.secondPassConfidence)
        /// Page segmentation mode of a header pass: the top of a small photo (a page enlarged for OCR) read again, cut
        /// out on its own, for the merchant's name (logos and large type that the first pass's uniform block garbles).
        /// 0 turns it off.
        public var headerSegmentation = ImageProcessingOptions.defaults.headerSegmentation
        /// How much of the page, from the top, the header pass reads (0–1).
        public var headerShare = ImageProcessingOptions.defaults.headerShare
        public var tessdata = ImageProcessingOptions.defaults.tessdata
        /// Pages with a longer long side are shrunk to it for OCR (big scans: faster, no loss of text quality).
        public var targetLongSide = ImageProcessingOptions.defaults.targetLongSide
        /// Pages with a shorter long side are enlarged to it for OCR (small photos: much better text).
        public var minLongSide = ImageProcessingOptions.defaults.minLongSide
        /// Per-image OCR deadline.
        public var timeout = ImageProcessingOptions.defaults.timeout
    }

    /// The PP-OCR engine (ONNX Runtime and the PP-OCRv6-small models, installed by `scripts/install-ppocr`).
    public struct PPOCR: Sendable, Equatable {
        /// Folder holding `libonnxruntime.so.1` and both `.onnx` models.
        public var directory = PPOCRSettings.defaults.directory
        /// The detector reads the page with its long side capped at this many pixels.
        public var detectorLongSide = PPOCRSettings.defaults.detectorLongSide
        /// Intra-op threads of each model session; one engine per worker slot.
        public var threads = PPOCRSettings.defaults.threads
    }

    /// The optional vision LLM.
    public struct LLM: Sendable, Equatable {
        public var provider: LLMProvider = .none
        public var baseURL = "https://api.openai.com/v1"
        public var model = "gpt-4o-mini"
        /// Name of the environment variable holding the API key (the key itself never appears here).
        public var apiKeyEnvironmentVariable = "OPENAI_API_KEY"
        public var timeout: Duration = .seconds(60)
        public var maxTokens = 4096
        /// Which request field carries `maxTokens` to an OpenAI-compatible server (Anthropic always uses `max_tokens`).
        public var tokenLimitField: LLMTokenLimitField = .maxCompletionTokens
        public var temperature: Decimal = Decimal(string: "0.1")!
        public var retries = 3
        /// Price in the config's currency per million input / output tokens, for `pipeline stats`.
        public var inputPricePerMillion: Decimal = Decimal(string: "0.15")!
        public var outputPricePerMillion: Decimal = Decimal(string: "0.60")!
    }

    /// Reconciliation.
    public struct Validation: Sendable, Equatable {
        /// Largest difference each arithmetic check accepts.
        public var tolerance = Reconciler.defaultTolerance
    }

    /// When the machine decides alone (docs/extraction-fitting.md, "Trust budget").
    public struct Acceptance: Sendable, Equatable {
        /// At most this many receipts in 100 accepted with a wrong merchant, date or total (measured out of fold on
        /// train): the fitted thresholds of the largest budget point not above it are used.
        public var maxSilentPer100 = AutoAcceptance.defaultMaxSilentPer100
    }

    /// Latency target and the accuracy floors `pipeline bench` gates on.
    public typealias Targets = BenchTargets

    /// Log output.
    public struct Logging: Sendable, Equatable {
        public var level: LogLevel = .info
    }

    /// The review page (`pipeline review`).
    public struct Review: Sendable, Equatable {
        /// `HOST:PORT` to listen on; any address other than loopback needs the token.
        public var listen = "127.0.0.1:8080"
        /// Name of the environment variable holding the page's token (the token itself never appears here).
        public var tokenEnvironmentVariable = "PIPELINE_REVIEW_TOKEN"
        /// Host names the page answers to besides the listen address's own (a reverse proxy's, a LAN name); requests
        /// naming any other host are refused, against DNS rebinding.
        public var allowedHosts: [String] = []
        /// A client connection that sends nothing for this long is closed (a request cut off mid-header too).
        public var idleTimeout: Duration = .seconds(30)
        /// Client connections open at once; more wait in the listen backlog.
        public var maxConnections = 256
        /// PostgreSQL connections the pages and uploads share; a request beyond them waits its turn.
        public var databaseConnections = 8
    }
}

extension PipelineConfiguration {
    /// The accounts of `pipeline export --format ledger | beancount` (docs/accounting.md).
    public struct Accounts: Sendable, Equatable {
        /// Expense account per receipt category and item category (`ExpenseCategory`, `ItemCategory` names).
        public var categories: [String: String] = [
            "Food & Dining": "Expenses:Food:Dining", "Groceries": "Expenses:Food:Groceries",
            "Transportation": "Expenses:Transportation", "Shopping": "Expenses:Shopping",
            "Entertainment": "Expenses:Entertainment", "Bills & Utilities": "Expenses:Utilities",
            "Healthcare": "Expenses:Healthcare", "Travel": "Expenses:Travel", "Education": "Expenses:Education",
            "Business": "Expenses:Business", "Other": "Expenses:Other", "Food": "Expenses:Food",
            "Beverage": "Expenses:Food:Beverages", "Electronics": "Expenses:Electronics",
            "Household": "Expenses:Household", "Personal Care": "Expenses:PersonalCare",
            "Clothing": "Expenses:Clothing", "Service": "Expenses:Services", "Fuel": "Expenses:Transportation:Fuel",
        ]
        /// The balancing account per payment method (`PaymentMethod` names), and `unknown` when none was read.
        public var payments: [String: String] = [
            "cash": "Assets:Cash", "card": "Liabilities:Card", "mobile": "Assets:Mobile",
            "voucher": "Assets:Vouchers", "unknown": "Assets:Unknown",
        ]
        /// One posting per item category (the rest of the total to the receipt's category) instead of one per
        /// receipt.
        public var itemPostings = false

        public init() {}

        /// Names `categories` may map: the receipt and item categories.
        public static let categoryNames = Set(
            ExpenseCategory.allCases.map(\.rawValue) + ItemCategory.allCases.map(\.rawValue))
        /// Names `payments` may map: the payment methods and `unknown`.
        public static let paymentNames = Set(PaymentMethod.allCases.map(\.rawValue) + ["unknown"])

        /// True for an account name both hledger and Beancount accept: a root of Assets, Liabilities, Equity,
        /// Income or Expenses, then components starting with a capital letter or digit.
        public static func isValidAccount(_ name: String) -> Bool {
            name.wholeMatch(of: /(Assets|Liabilities|Equity|Income|Expenses)(:[A-Z0-9][A-Za-z0-9-]*)+/) != nil
        }
    }
}

extension PipelineConfiguration.Queue {
    /// Why this lease and heartbeat cannot keep a live job's lease, or nil when they can: the lease must be
    /// positive and the heartbeat at most a third of it, so a renewal can fail twice before the lease runs out.
    public var leaseProblem: String? {
        let lease = Self.shown(self.lease)
        let heartbeat = Self.shown(self.heartbeat)
        guard self.lease > .zero, self.heartbeat > .zero, self.heartbeat * 3 <= self.lease else {
            return "queue.heartbeat (\(heartbeat)) must be above 0 and at most a third of queue.lease (\(lease)), "
                + "or running jobs lose their lease to another worker; e.g. lease: 60s with heartbeat: 15s"
        }
        return nil
    }

    private static func shown(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}

/// Which vision LLM API to call, if any.
public enum LLMProvider: String, Sendable, CaseIterable, Equatable {
    case none, openai, anthropic
}

/// Log levels an operator can pick (the names of swift-log's levels).
public enum LogLevel: String, Sendable, CaseIterable, Equatable {
    case trace, debug, info, notice, warning, error, critical
}
