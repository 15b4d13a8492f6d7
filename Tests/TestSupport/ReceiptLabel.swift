import Foundation

/// The key fields of a shipped receipt's label.
public struct ReceiptLabel: Decodable {
    public let merchant: String?
    public let date: String?
    public let total: String?

    /// The label beside shipped receipt `image` (`NAME.json` for `NAME.jpg`).
    public static func of(_ image: String) throws -> ReceiptLabel {
        let name = (image as NSString).deletingPathExtension + ".json"
        return try JSONDecoder().decode(ReceiptLabel.self, from: Data(contentsOf: TestEnvironment.receipt(name)))
    }
}

/// Runs `body` with `resource`, then `shutdown(resource)`, also when `body` throws: for engines and pools that
/// must be shut down explicitly.
public func withShutdown<Resource, Value>(
    _ resource: Resource, shutdown: (Resource) async -> Void, _ body: (Resource) async throws -> Value
) async throws -> Value {
    do {
        let value = try await body(resource)
        await shutdown(resource)
        return value
    } catch {
        await shutdown(resource)
        throw error
    }
}
