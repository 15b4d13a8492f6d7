import Foundation
import JSONRepair
import PipelineCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake OpenAI-compatible and Anthropic server on 127.0.0.1 (Python `http.server`, TCP_NODELAY), started per test.
///
/// The first two path segments pick the behaviour and isolate the test: `/<scenario>/<run>/v1/...`.
/// `GET /<scenario>/<run>/_requests` returns what that run received (headers and bodies).
/// Scenario `recorded-<receipt>.<variant>` answers with that file of the recorded-reply corpus (``LLMCorpus``) in
/// the API shape asked for; `wait-<seconds>` answers the good receipt after that many seconds;
/// `unavailable-for-two-seconds` answers 503 with `Retry-After: 2` forever; `needs-fixed-key` answers 401 unless the key
/// is `sk-fixed`; `server-error` answers 500 forever.
public final class FakeProviderServer: @unchecked Sendable {
    // @unchecked: `process` is only touched by init and deinit, which never overlap.
    private let process = Process()
    public let port: Int

    /// Starts the server; `recorded-` scenarios answer from `corpus` (`openai/` and `anthropic/` bodies).
    public init(corpus: URL = LLMCorpus.folder) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, corpus.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw FakeServerError(message: "the fake provider server did not start (is python3 installed?)")
        }
        self.port = port
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// A base URL for `scenario`, unique to this call.
    public func baseURL(_ scenario: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(scenario)/\(UUID().uuidString)/v1")!
    }

    /// The requests the server received under `baseURL`.
    public func requests(at baseURL: URL) async throws -> [JSONValue] {
        let url = baseURL.deletingLastPathComponent().appendingPathComponent("_requests")
        let (data, _) = try await URLSession.shared.data(from: url)
        return JSONRepairer.repair(String(decoding: data, as: UTF8.self)).value?.elements ?? []
    }

    /// A receipt reply in the seed schema, as the fake server sends it.
    public static let goodReceipt = """
        {"date": "2024-03-15", "merchant": "Corner Café", "currency": "USD", "items": [{"name": "Latte", \
        "quantity": 2, "unitPrice": 4.50, "totalPrice": 9.00, "category": "Beverage", "description": null}, \
        {"name": "Croissant", "quantity": 1, "unitPrice": 3.25, "totalPrice": 3.25, "category": "Food", \
        "description": null}], "subtotal": 12.25, "discounts": null, "fees": null, "tip": 2.00, "taxAmount": 1.10, \
        "itemsTotal": 12.25, "amount": 15.35, "category": "Food & Dining", "description": "Coffee and pastry", \
        "paymentMethod": "Credit Card", "confidence": 0.93}
        """

    /// OCR text of the same receipt, for the amount guard.
    public static let goodReceiptOCR = """
        CORNER CAFE
        2024-03-15 08:12
        2 x Latte 4.50      9.00
        Croissant           3.25
        SUBTOTAL           12.25
        TAX                 1.10
        TIP                 2.00
        TOTAL              15.35
        VISA ****1234
        """

    private static let script = #"""
        import json, os, select, signal, socket, sys, threading, time
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])  # the test process may block SIGTERM
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        runs = {}
        lock = threading.Lock()
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True
            def log_message(self, *args): pass
            def send(self, status, body, headers=None):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items(): self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
            def send_file(self, path):
                data = open(path, "rb").read()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def do_GET(self):
                parts = self.path.strip("/").split("/")
                with lock: got = runs.get((parts[0], parts[1]), [])
                self.send(200, got)
            def do_POST(self):
                parts = self.path.strip("/").split("/")
                scenario, run = parts[0], parts[1]
                body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                with lock:
                    runs.setdefault((scenario, run), []).append({"headers": {k.lower(): v for k, v in self.headers.items()}, "body": json.loads(body)})
                    n = len(runs[(scenario, run)])
                anthropic = self.path.endswith("/messages")
                def reply(text, finish="stop"):
                    if anthropic:
                        self.send(200, {"type": "message", "content": [{"type": "text", "text": text}],
                                        "stop_reason": "max_tokens" if finish == "length" else "end_turn",
                                        "usage": {"input_tokens": 1200, "output_tokens": 180}})
                    else:
                        self.send(200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                        "finish_reason": finish}], "usage": {"prompt_tokens": 1200, "completion_tokens": 180}})
                good = RECEIPT
                if scenario.startswith("recorded-"):
                    self.send_file(os.path.join(sys.argv[1], "anthropic" if anthropic else "openai", scenario[9:] + ".json"))
                elif scenario.startswith("wait-"):
                    time.sleep(float(scenario[5:]))
                    reply(good)
                elif scenario == "good": reply(good)
                elif scenario == "fenced": reply("Sure! Here is the receipt {as JSON}:\n```json\n" + good + "\n```\nLet me know.")
                elif scenario == "prose": reply("I'm sorry, I cannot read this receipt.")
                elif scenario == "wrong-types": reply('{"merchant": 42, "amount": "12,50", "date": "15/03/2024", "items": "none", "currency": "USD"}')
                elif scenario == "truncated-once": reply(good[:len(good) // 2], "length") if n == 1 else reply(good)
                elif scenario == "truncated-always": reply(good[:len(good) // 2], "length")
                elif scenario == "unauthorized":
                    key = self.headers.get("Authorization", "").replace("Bearer ", "") or self.headers.get("x-api-key", "")
                    self.send(401, {"error": {"message": "Incorrect API key provided: " + key + ". Find your key at the dashboard.", "type": "invalid_request_error", "code": "invalid_api_key"}})
                elif scenario == "rate-limited":
                    self.send(429, {"error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}}, {"retry-after-ms": "30"}) if n == 1 else reply(good)
                elif scenario == "rate-limited-seconds":
                    self.send(429, {"error": {"message": "Rate limit reached"}}, {"Retry-After": "1"}) if n == 1 else reply(good)
                elif scenario == "quota": self.send(429, {"error": {"message": "You exceeded your current quota.", "type": "insufficient_quota", "code": "insufficient_quota"}})
                elif scenario == "server-error": self.send(500, {"error": {"message": "internal error"}})
                elif scenario == "unavailable-for-two-seconds": self.send(503, {"error": {"message": "unavailable"}}, {"Retry-After": "2"})
                elif scenario == "needs-fixed-key":
                    key = self.headers.get("Authorization", "").replace("Bearer ", "") or self.headers.get("x-api-key", "")
                    reply(good) if key == "sk-fixed" else self.send(401, {"error": {"message": "Incorrect API key provided.", "code": "invalid_api_key"}})
                elif scenario == "flaky": self.send(503, {"error": {"message": "unavailable"}}) if n < 3 else reply(good)
                elif scenario == "bad-request": self.send(400, {"error": {"message": "Unsupported parameter: 'max_tokens'", "code": "unsupported_parameter"}})
                elif scenario == "overloaded":
                    self.send(529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}) if n == 1 else reply(good)
                elif scenario == "not-json": self.send(200, "<html>gateway</html>")
                elif scenario == "slow":
                    record = runs[(scenario, run)][-1]
                    for _ in range(600):  # up to 30 s, watching for the client to hang up
                        readable, _, _ = select.select([self.connection], [], [], 0.05)
                        if readable and not self.connection.recv(1, socket.MSG_PEEK):
                            with lock: record["disconnected"] = True
                            self.close_connection = True
                            return
                    with lock: record["replied"] = True
                    reply(good)
                else: self.send(404, {"error": {"message": "unknown scenario " + scenario}})
        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#.replacingOccurrences(of: "RECEIPT", with: JSONValue.string(goodReceipt).jsonText())
}

public struct FakeServerError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
