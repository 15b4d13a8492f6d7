import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PipelineCore
import ReviewServer
import TestSupport
import Testing

/// The routes `pipeline serve` adds (upload, progress, health, readiness, metrics), request by request, over the
/// upload port's and the review stores' in-memory fakes. `ServeBrowserTests` runs them on the real database.
@Suite struct UploadRoutesTests {
    private struct DatabaseGone: StoreUnavailableError, CustomStringConvertible {
        var description: String { "connection refused at host=db.internal port=5432" }
        var meansStoreUnavailable: Bool { true }
    }

    private func withService(
        maxUploadBytes: Int = 1 << 20, ready: Bool = true,
        _ body: @Sendable (any TestClientProtocol, InMemoryUploadIntake) async throws -> Void
    ) async throws {
        let uploads = InMemoryUploadIntake()
        let service = ServiceEndpoints(
            uploads: uploads, metrics: { "pipeline_jobs{state=\"ready\"} 3\n" },
            readiness: { [ReadinessCheck(name: "database", isReady: ready, detail: ready ? "reachable" : "refused")] },
            maxUploadBytes: maxUploadBytes)
        let server = try ReviewServer(
            store: InMemoryReviewStore(), options: ReviewServerOptions(reviewer: "tester"), service: service)
        try await Application(router: server.makeRouter()).test(.router) { client in try await body(client, uploads) }
    }

    /// The upload page's CSRF token.
    private func token(_ client: any TestClientProtocol) async throws -> String {
        let html = try await client.execute(uri: "/upload", method: .get) { String(buffer: $0.body) }
        return String(try #require(html.firstMatch(of: /data-csrf="([0-9a-f]+)"/)).1)
    }

    private func upload(
        _ client: any TestClientProtocol, _ bytes: [UInt8], name: String, token: String?
    ) async throws -> (status: HTTPResponse.Status, answer: [String: String]) {
        var headers: HTTPFields = [.fileName: name]
        if let token { headers[.csrfToken] = token }
        return try await client.execute(
            uri: "/upload", method: .post, headers: headers, body: ByteBuffer(bytes: bytes)
        ) { response in
            let object =
                try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any] ?? [:]
            return (response.status, object.mapValues { "\($0)" })
        }
    }

    /// Without `capture` a phone offers its photos, its files and the camera; with it, only the camera.
    @Test func theFileInputLetsAPhoneChooseAPhotoAFileOrTheCamera() async throws {
        try await withService { client, _ in
            let html = try await client.execute(uri: "/upload", method: .get) { String(buffer: $0.body) }
            let input = try #require(html.firstMatch(of: /<input type="file"[^>]*>/)).output
            #expect(input.contains("accept=\"image/*,application/pdf\"") && input.contains("multiple"), "\(input)")
            #expect(!input.contains("capture"), "\(input)")
        }
    }

    @Test func anUploadIsStoredOnceAndADuplicateOrANonImageSaysSo() async throws {
        let jpeg = [UInt8](try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg")))
        try await withService { client, uploads in
            let token = try await token(client)
            let stored = try await upload(client, jpeg, name: "lunch%20receipt.jpg", token: token)
            let again = try await upload(client, jpeg, name: "copy.jpg", token: token)
            let text = try await upload(client, Array("not a picture".utf8), name: "notes.txt", token: token)

            #expect(stored.status == .ok)
            #expect(stored.answer == ["file": "lunch receipt.jpg", "result": "stored", "receiptID": "1"])
            #expect(again.status == .ok && again.answer["result"] == "duplicate" && again.answer["receiptID"] == "1")
            #expect(text.status == .unprocessableContent && text.answer["result"] == "rejected")
            #expect(text.answer["message"]?.contains("not an image") == true)
            #expect(await uploads.receipts == [1: jpeg])
        }
    }

    @Test func anUploadWithoutTheTokenOrOverTheLimitOrWhileTheDatabaseIsDownStoresNothing() async throws {
        let jpeg = [UInt8](try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg")))
        try await withService(maxUploadBytes: jpeg.count - 1) { client, uploads in
            let token = try await token(client)
            let forged = try await upload(client, jpeg, name: "a.jpg", token: nil)
            let large = try await upload(client, jpeg, name: "big.jpg", token: token)
            await uploads.failCalls(with: DatabaseGone())
            let small = Array(jpeg.prefix(100))
            let down = try await upload(client, small, name: "small.jpg", token: token)

            #expect(forged.status == .forbidden && forged.answer["result"] == "refused")
            #expect(large.status == .contentTooLarge)
            #expect(large.answer["message"]?.contains("over the limit of \(jpeg.count - 1) bytes") == true)
            #expect(down.status == .serviceUnavailable)
            #expect(
                down.answer["message"]
                    == "small.jpg was not stored: the database cannot be reached right now; try again in a moment; "
                    + "upload it again")
            #expect(down.answer["message"]?.contains("db.internal") == false, "no connection details to the client")
            #expect(await uploads.receipts.isEmpty)
        }
    }

    @Test func progressAnswersForTheReceiptsAskedAndRefusesTooMany() async throws {
        let jpeg = [UInt8](try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg")))
        try await withService { client, uploads in
            _ = try await upload(client, jpeg, name: "a.jpg", token: try await token(client))
            await uploads.set(1, .done, status: .needsReview)
            let progress = try await client.execute(uri: "/upload/progress?ids=1,2", method: .get) {
                ($0.status, String(buffer: $0.body))
            }
            let many = (1...101).map(String.init).joined(separator: ",")
            let tooMany = try await client.execute(uri: "/upload/progress?ids=\(many)", method: .get) { $0.status }

            #expect(progress.0 == .ok)
            #expect(progress.1 == #"[{"receiptID":1,"stage":"done","status":"needs_review"}]"#)
            #expect(tooMany == .badRequest)
        }
    }

    @Test func healthReadinessAndMetricsAnswer() async throws {
        try await withService(ready: false) { client, _ in
            let health = try await client.execute(uri: "/healthz", method: .get) { $0.status }
            let readiness = try await client.execute(uri: "/readyz", method: .get) {
                ($0.status, String(buffer: $0.body))
            }
            let metrics = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }

            #expect(health == .ok)
            #expect(readiness.0 == .serviceUnavailable && readiness.1.contains("not ready database: refused"))
            #expect(metrics.contains("pipeline_jobs{state=\"ready\"} 3"))
        }
    }
}

extension HTTPField.Name {
    fileprivate static let fileName = HTTPField.Name("X-File-Name")!
    fileprivate static let csrfToken = HTTPField.Name("X-CSRF-Token")!
}
