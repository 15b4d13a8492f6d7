import Foundation
import PipelineCore
import PostgresStore
import Yams

/// A configuration problem, worded for the operator: file, line, column, key, bad value, accepted form.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// Builds the one `PipelineConfiguration`: defaults, then `pipeline.yaml`, then environment variables.
/// (Flags are applied last by the commands, so they win.)
public enum ConfigurationLoader {
    /// Where a loaded configuration came from, for the "using …" line.
    public struct Loaded: Sendable {
        public var configuration: PipelineConfiguration
        /// The file read, or nil when defaults were used.
        public var file: URL?
    }

    /// Loads the configuration.
    /// - Parameters:
    ///   - path: `--config`; nil means `./pipeline.yaml` when present, else the defaults.
    ///   - environment: variables that override the file (`DATABASE_URL`, `PIPELINE_*`).
    /// - Throws: `ConfigurationError` naming the file, line, column and key.
    public static func load(path: String?, environment: [String: String]) throws -> Loaded {
        var configuration = PipelineConfiguration()
        var file: URL?
        if let path {
            file = URL(fileURLWithPath: path)
            guard FileManager.default.fileExists(atPath: path) else {
                throw ConfigurationError(description: "\(path): error: configuration file not found (from --config)")
            }
        } else if FileManager.default.fileExists(atPath: "pipeline.yaml") {
            file = URL(fileURLWithPath: "pipeline.yaml")
        }
        if let file {
            let text: String
            do {
                text = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw ConfigurationError(description: "\(file.path): error: cannot read it as UTF-8 text (\(error))")
            }
            try apply(yaml: text, fileName: file.path, to: &configuration)
        }
        try applyEnvironment(environment, to: &configuration)
        try validate(configuration)
        return Loaded(configuration: configuration, file: file)
    }

    /// Checks what no single key can: values that only make sense together (the lease and its heartbeat).
    /// Commands that apply flags over the loaded configuration call it again.
    /// - Throws: `ConfigurationError` naming the keys and their values.
    public static func validate(_ configuration: PipelineConfiguration) throws(ConfigurationError) {
        if let problem = configuration.queue.leaseProblem {
            throw ConfigurationError(description: "configuration: error: \(problem)")
        }
    }

    /// Applies YAML text to a configuration.
    public static func apply(yaml: String, fileName: String, to configuration: inout PipelineConfiguration) throws {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw ConfigurationError(description: describe(error, fileName: fileName))
        }
        guard let root else { return }  // empty file: defaults
        guard let mapping = root.mapping else {
            throw located(root, fileName, yaml, "the top level must be a mapping of sections (database:, queue:, …)")
        }
        try walk(mapping, prefix: "", fileName: fileName, yaml: yaml, into: &configuration)
    }

    private static func walk(
        _ mapping: Node.Mapping, prefix: String, fileName: String, yaml: String,
        into configuration: inout PipelineConfiguration
    ) throws {
        for (keyNode, valueNode) in mapping {
            guard let name = keyNode.string else {
                throw located(keyNode, fileName, yaml, "keys must be plain names")
            }
            let path = prefix.isEmpty ? name : "\(prefix).\(name)"
            if let nested = valueNode.mapping, ConfigurationKey.named(path) == nil {
                guard ConfigurationKey.all.contains(where: { $0.path.hasPrefix(path + ".") }) else {
                    throw unknownKey(path, keyNode, fileName, yaml)
                }
                try walk(nested, prefix: path, fileName: fileName, yaml: yaml, into: &configuration)
                continue
            }
            guard let key = ConfigurationKey.named(path) else {
                throw unknownKey(path, keyNode, fileName, yaml)
            }
            if path == "database.url", valueNode.string.map(containsPassword) == true {
                throw located(
                    valueNode, fileName, yaml,
                    """
                    'database.url' must not contain a password; put it in PGPASSWORD or ~/.pgpass, \
                    or set the whole URL in DATABASE_URL
                    """)
            }
            let value: ConfigurationValue
            if let sequence = valueNode.sequence {
                value = .list(sequence.compactMap(\.string))
            } else if let mapping = valueNode.mapping {
                var pairs: [String: String] = [:]
                for (name, entry) in mapping {
                    guard let name = name.string, let entry = entry.string else {
                        throw located(valueNode, fileName, yaml, "'\(path)' must be \(key.form)")
                    }
                    pairs[name] = entry
                }
                value = .mapping(pairs)
            } else if case .scalar(let scalar) = valueNode {
                value = .scalar(scalar.string)
            } else {
                throw located(valueNode, fileName, yaml, "'\(path)' must be \(key.form)")
            }
            do {
                try key.apply(value, to: &configuration)
            } catch {
                throw located(valueNode, fileName, yaml, "'\(path)' must be \(error.expected) (got \(shown(value)))")
            }
        }
    }

    /// Applies `DATABASE_URL` and `PIPELINE_*` variables.
    public static func applyEnvironment(
        _ environment: [String: String], to configuration: inout PipelineConfiguration
    ) throws {
        for key in ConfigurationKey.all {
            guard let text = environment[key.environmentVariable] else { continue }
            do {
                try key.apply(.scalar(text), to: &configuration)
            } catch {
                let shownValue = key.path == "database.url" ? "the value set" : "\"\(text)\""
                throw ConfigurationError(
                    description: """
                        environment: error: \(key.environmentVariable) (for '\(key.path)') must be \(error.expected) \
                        (got \(shownValue))
                        """)
            }
        }
    }

    // MARK: - Messages

    private static func describe(_ error: YamlError, fileName: String) -> String {
        switch error {
        case .scanner(_, let problem, let mark, let yaml), .parser(_, let problem, let mark, let yaml),
            .composer(_, let problem, let mark, let yaml):
            return "\(fileName):\(mark.line):\(mark.column): error: invalid YAML: \(problem)\n"
                + mark.snippet(from: PostgresTarget.maskingPasswords(in: yaml))
        default:
            return "\(fileName): error: invalid YAML: \(error)"
        }
    }

    private static func located(_ node: Node, _ fileName: String, _ yaml: String, _ message: String)
        -> ConfigurationError
    {
        guard let mark = node.mark else { return ConfigurationError(description: "\(fileName): error: \(message)") }
        return ConfigurationError(
            description: "\(fileName):\(mark.line):\(mark.column): error: \(message)\n"
                + mark.snippet(from: PostgresTarget.maskingPasswords(in: yaml)))
    }

    private static func unknownKey(_ path: String, _ node: Node, _ fileName: String, _ yaml: String)
        -> ConfigurationError
    {
        let suggestion = ConfigurationKey.all.map(\.path).min { editDistance($0, path) < editDistance($1, path) }
        var message = "unknown key '\(path)'"
        if let suggestion, editDistance(suggestion, path) <= 3 { message += "; did you mean '\(suggestion)'?" }
        message += " (every key is listed in the README)"
        return located(node, fileName, yaml, message)
    }

    private static func shown(_ value: ConfigurationValue) -> String {
        switch value {
        case .scalar(let text): return "\"\(text)\""
        case .list(let items): return "[" + items.joined(separator: ", ") + "]"
        case .mapping(let pairs):
            return "{" + pairs.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
                + "}"
        }
    }

    private static func containsPassword(_ url: String) -> Bool {
        url.range(of: #"://[^/@:]+:[^@]+@"#, options: .regularExpression) != nil
            || url.range(of: #"(^|\s)password\s*="#, options: .regularExpression) != nil
            || url.range(of: #"[?&]password="#, options: .regularExpression) != nil
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1] + Array(repeating: 0, count: b.count)
        for (j, y) in b.enumerated() {
            current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
