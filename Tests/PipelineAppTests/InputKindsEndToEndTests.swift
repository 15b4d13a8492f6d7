import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// Receipts as people have them — a born-digital PDF, a HEIC photo, e-mails with a PDF attachment or a receipt in
/// the HTML body, an encrypted PDF — through the built `pipeline`: ingest, work, show, export, stats.
@Suite struct InputKindsEndToEndTests {
    private static func eml(subject: String, messageID: String, parts: [String]) -> String {
        var text = """
            From: "Ride Co" <receipts@ride.example>\r
            To: someone@example.com\r
            Subject: \(subject)\r
            Date: Tue, 24 Nov 2026 18:03:11 +0100\r
            Message-ID: <\(messageID)>\r
            MIME-Version: 1.0\r
            Content-Type: multipart/mixed; boundary="b1"\r
            \r
            This is a multi-part message.\r

            """
        for part in parts { text += "--b1\r\n" + part + "\r\n" }
        return text + "--b1--\r\n"
    }

    private static func pdfAttachment(_ pdf: Data, named name: String) -> String {
        let encoded = pdf.base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
        ])
        return
            "Content-Type: application/pdf; name=\"\(name)\"\r\nContent-Disposition: attachment; filename=\"\(name)\"\r\n"
            + "Content-Transfer-Encoding: base64\r\n\r\n\(encoded)"
    }

    private static let htmlReceipt = """
        Content-Type: text/html; charset=utf-8\r
        Content-Transfer-Encoding: quoted-printable\r
        \r
        <html><body><h1>Thanks for riding</h1><table><tr><td>Trip fare</td><td>12.40</td></tr>=\r
        <tr><td>Booking fee</td><td>1.60</td></tr><tr><td><b>Total</b></td><td><b>14.00 EUR</b></td></tr></table>=\r
        <p>24 Nov 2026 &middot; Card &#8226;&#8226;4242</p></body></html>
        """

    @Test func everyKindBecomesAnExpenseLinkedToWhereItCameFrom() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("inputs")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let label = try ReceiptLabel.of("sroie_006.jpg")
        let receiptPDF = TestPDF.document([TestPDF.receiptPage(for: label, rawDate: "11/01/2019")])
        try receiptPDF.write(to: inbox.appendingPathComponent("invoice.pdf"))
        let attached = TestPDF.document([
            TestPDF.receiptPage(merchant: "RIDE CO", lines: [("24/11/2026", ""), ("Trip", "8.90"), ("TOTAL", "8.90")])
        ])
        let withAttachment = Self.eml(
            subject: "=?UTF-8?Q?Your_receipt_=E2=80=93_Tuesday?=", messageID: "a1@ride.example",
            parts: [
                "Content-Type: text/plain\r\n\r\nYour receipt is attached.",
                Self.pdfAttachment(attached, named: "ride.pdf"),
            ])
        try Data(withAttachment.utf8).write(to: inbox.appendingPathComponent("ride.eml"))
        // The same message saved twice (a Maildir copy): stored once.
        try FileManager.default.createDirectory(
            at: inbox.appendingPathComponent("Maildir/cur"), withIntermediateDirectories: true)
        try Data(withAttachment.utf8).write(to: inbox.appendingPathComponent("Maildir/cur/1732467791.M1P2.host:2,S"))
        try Data(Self.eml(subject: "Trip receipt", messageID: "b2@ride.example", parts: [Self.htmlReceipt]).utf8)
            .write(to: inbox.appendingPathComponent("html.eml"))
        let heic = try TestFiles.heic("sroie_035.jpg")
        try heic.write(to: inbox.appendingPathComponent("IMG_0001.HEIC"))
        let locked = try TestFiles.encrypted(receiptPDF)
        try locked.write(to: inbox.appendingPathComponent("locked.pdf"))

        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = CommandLineTests.environment(database: url)
            environment["PIPELINE_OCR_ENGINE"] = "tesseract"
            let ingest = try runPipeline(["ingest", inbox.path], environment: environment)
            #expect(ingest.standardOutput.contains("stored 4 new, 1 duplicate, 1 rejected"), "\(ingest.standardOutput)")
            #expect(ingest.standardOutput.contains("locked.pdf"))
            #expect(ingest.standardOutput.contains("encrypted"))
            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 0, "\(work.standardError)")

            let rows = try await connection.query(
                """
                SELECT r.original_name AS name, r.format, e.page_source, money_text(e.total) AS total, m.subject,
                       r.rendered_page IS NOT NULL AS rendered
                FROM expenses e JOIN receipts r ON r.id = e.receipt_id LEFT JOIN messages m ON m.id = r.message_id
                ORDER BY r.original_name
                """)
            let found = try rows.map {
                [
                    try $0.string("name") ?? "", try $0.string("format") ?? "", try $0.string("page_source") ?? "",
                    try $0.string("total") ?? "-", try $0.string("subject") ?? "-", try $0.string("rendered") ?? "",
                ]
            }
            #expect(found.count == 4, "\(found)")
            let photo = try #require(found.first { $0[0] == "IMG_0001.HEIC" })
            #expect(photo[1] == "heic" && photo[2] == "ocr" && photo[5] == "t", "\(photo)")
            #expect(found.contains(["html.eml#body", "pdf", "pdf-text", "14.00", "Trip receipt", "t"]), "\(found)")
            #expect(found.contains(["invoice.pdf", "pdf", "pdf-text", label.total ?? "", "-", "t"]), "\(found)")
            #expect(found.contains(["ride.pdf", "pdf", "pdf-text", "8.90", "Your receipt – Tuesday", "t"]), "\(found)")
            let messages = try await connection.query("SELECT count(*) AS n FROM messages")
            #expect(try messages.first?.int("n") == 2)

            let rideID = try await connection.query("SELECT id FROM receipts WHERE original_name = 'ride.pdf'").first?
                .int("id")
            let show = try runPipeline(["show", "\(rideID ?? 0)"], environment: environment)
            #expect(
                show.standardOutput.contains("e-mail from \"Ride Co\" <receipts@ride.example>"),
                "\(show.standardOutput)")
            #expect(show.standardOutput.contains("text by pdf-text"), "\(show.standardOutput)")
            let export = try runPipeline(["export", "--format", "csv"], environment: environment)
            #expect(
                export.standardOutput.contains(
                    "pdf-text,\"\"\"Ride Co\"\" <receipts@ride.example>\",Your receipt – Tuesday"),
                "\(export.standardOutput)")
            let stats = try runPipeline(["stats"], environment: environment)
            #expect(stats.standardOutput.contains("page text: ocr 1, pdf-text 3"), "\(stats.standardOutput)")
        }
    }
}
