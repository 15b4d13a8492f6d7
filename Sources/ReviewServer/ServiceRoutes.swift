import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PipelineCore

/// Paths of the routes `pipeline serve` adds.
enum ServiceRoute {
    static let health = "/healthz"
    static let readiness = "/readyz"
    static let metrics = "/metrics"
    static let upload = "/upload"
    static let uploadProgress = "/upload/progress"
    static let uploadScript = "/upload.js"
    static let uploadStyle = "/upload.css"
}

extension ReviewServer {
    /// Adds the upload page, `/metrics`, `/healthz` and `/readyz`. The access middleware lets `/healthz` through
    /// without the token; everything else here follows the review page's rule.
    func addServiceRoutes(_ service: ServiceEndpoints, to router: Router<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: ServiceRoute.health)) { _, _ in Response.text(.ok, "ok") }

        router.get(RouterPath(stringLiteral: ServiceRoute.readiness)) { _, _ in
            let checks = await service.readiness()
            let ready = checks.allSatisfy(\.isReady)
            let lines = checks.map { "\($0.isReady ? "ok" : "not ready") \($0.name): \($0.detail)" }
            return Response.text(ready ? .ok : .serviceUnavailable, lines.joined(separator: "\n"))
        }

        router.get(RouterPath(stringLiteral: ServiceRoute.metrics)) { _, _ in
            do {
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: try await service.metrics())))
            } catch {
                let (status, message) = failure(error, while: "metrics")
                return Response.text(status, "metrics unavailable: \(message)")
            }
        }

        router.get(RouterPath(stringLiteral: ServiceRoute.uploadScript)) { _, _ in
            Assets.response(UploadPage.script, type: "text/javascript; charset=utf-8")
        }

        router.get(RouterPath(stringLiteral: ServiceRoute.uploadStyle)) { _, _ in
            Assets.response(UploadPage.style, type: "text/css; charset=utf-8")
        }

        router.get(RouterPath(stringLiteral: ServiceRoute.upload)) { _, _ in
            Response.html(UploadPage.page(csrf: csrfToken, maxBytes: service.maxUploadBytes, navigation))
        }

        router.post(RouterPath(stringLiteral: ServiceRoute.upload)) { request, _ in
            await upload(request, service: service)
        }

        router.get(RouterPath(stringLiteral: ServiceRoute.uploadProgress)) { request, _ in
            let text = request.uri.queryParameters.get("ids") ?? ""
            let ids = text.split(separator: ",").compactMap { Int64($0) }
            guard ids.count <= 100 else {
                return Response.text(.badRequest, "ask for at most 100 receipts at a time")
            }
            do {
                return try json(try await service.uploads.progress(of: ids))
            } catch {
                let (status, message) = failure(error, while: "upload progress")
                return Response.text(status, "progress unavailable: \(message)")
            }
        }
    }

    /// One uploaded file: the raw body, its name in `X-File-Name` (percent-encoded), the page's CSRF token in
    /// `X-CSRF-Token`. Answers JSON `{file, result, receiptID?, message?}`.
    private func upload(_ request: Request, service: ServiceEndpoints) async -> Response {
        let encodedName = request.headers[.fileName] ?? ""
        let name = (encodedName.removingPercentEncoding ?? encodedName).trimmingCharacters(in: .whitespaces)
        let fileName = name.isEmpty ? "upload" : String(name.suffix(200))
        func answer(_ status: HTTPResponse.Status, _ result: String, id: Int64? = nil, message: String? = nil)
            -> Response
        {
            var response =
                (try? json(UploadAnswer(file: fileName, result: result, receiptID: id, message: message)))
                ?? Response.text(.internalServerError, "cannot encode the answer")
            response.status = status
            return response
        }
        // Its origin is checked by `HostCheckMiddleware`, as every POST's.
        guard let sent = request.headers[.csrfToken], constantTimeEquals(sent, csrfToken) else {
            return answer(
                .forbidden, "refused", message: "no valid CSRF token (an old page, or another site); reload the page")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: service.maxUploadBytes)
        } catch is NIOTooManyBytesError {
            return answer(
                .contentTooLarge, "rejected",
                message: "\(fileName): over the limit of \(service.maxUploadBytes) bytes (ingest.maxBytes); "
                    + "send a smaller scan or photo")
        } catch {
            return answer(
                .badRequest, "failed", message: "\(fileName) did not arrive whole (\(error)); upload it again")
        }
        do {
            switch try await service.uploads.ingest(fileName: fileName, bytes: Array(buffer: body)) {
            case .stored(let id): return answer(.ok, "stored", id: id)
            case .duplicate(let id):
                return answer(.ok, "duplicate", id: id, message: "the same image was uploaded before")
            case .rejected(let reason): return answer(.unprocessableContent, "rejected", message: reason)
            }
        } catch {
            let (status, message) = failure(error, while: "upload of \(fileName)")
            return answer(status, "failed", message: "\(fileName) was not stored: \(message); upload it again")
        }
    }

    private func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}

/// The answer to one upload.
private struct UploadAnswer: Encodable {
    let file: String
    /// `stored`, `duplicate`, `rejected`, `refused` or `failed`.
    let result: String
    let receiptID: Int64?
    let message: String?
}

extension HTTPField.Name {
    static let fileName = HTTPField.Name("X-File-Name")!
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
}
