import Foundation
import PipelineCore
import ReceiptIntake
import Testing

/// E-mails as receipts arrive: multipart with a base64 PDF, quoted-printable HTML bodies, encoded subjects.
@Suite("E-mail messages")
struct EmailMessageTests {
    private static let pdf = Array("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8)

    private static let withAttachment = """
        Received: from mail.example by mx.example; Tue, 24 Nov 2026 18:03:12 +0100\r
        From: =?ISO-8859-1?Q?Caf=E9_M=FCller?= <shop@example.com>\r
        Subject: =?UTF-8?B?WW91ciByZWNlaXB0?=\r
         =?UTF-8?Q?_=E2=80=93_order_42?=\r
        Date: Tue, 24 Nov 2026 18:03:11 +0100 (CET)\r
        Message-ID: <order-42@example.com>\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed;\r
         boundary="outer"\r
        \r
        --outer\r
        Content-Type: multipart/alternative; boundary=inner\r
        \r
        --inner\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        Thank you for your order.\r
        --inner--\r
        --outer\r
        Content-Type: application/octet-stream\r
        Content-Disposition: attachment; filename*=UTF-8''Re%C3%A7u.pdf\r
        Content-Transfer-Encoding: base64\r
        \r
        \(Data(pdf).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]))\r
        --outer--\r

        """

    @Test func headersAttachmentsAndBodyAreRead() throws {
        let message = EmailMessage(parsing: Array(Self.withAttachment.utf8))

        #expect(message.sender == "Café Müller <shop@example.com>")
        #expect(message.subject == "Your receipt – order 42")
        #expect(message.messageID == "order-42@example.com")
        #expect(message.sentAt == Date(timeIntervalSince1970: 1_795_539_791))
        #expect(message.attachments.count == 1)
        #expect(message.attachments.first?.fileName == "Reçu.pdf")
        #expect(message.attachments.first?.format == .pdf)
        #expect(message.attachments.first?.bytes == Self.pdf)
        #expect(message.bodyLines == ["Thank you for your order."])
        #expect(!message.bodyLooksLikeReceipt)
    }

    @Test func anHTMLBodyIsReducedToReceiptLines() {
        let message = EmailMessage(
            parsing: Array(
                """
                From: rides@example.com\r
                Subject: Trip\r
                Content-Type: text/html; charset=windows-1252\r
                Content-Transfer-Encoding: quoted-printable\r
                \r
                <html><head><style>td { color: red }</style></head><body><h1>Thanks</h1><table>=\r
                <tr><td>Fare</td><td>12.40</td></tr><tr><td><b>Total</b></td><td>=8014.00</td></tr>=\r
                </table><p>Paid with card &amp; tip&nbsp;0.00</p><script>var total = 1;</script></body></html>
                """.utf8))

        #expect(message.bodyLines == ["Thanks", "Fare 12.40", "Total €14.00", "Paid with card & tip 0.00"])
        #expect(message.bodyLooksLikeReceipt)
        #expect(message.attachments.isEmpty)
        #expect(message.messageID == nil)
    }

    @Test(arguments: [
        ("From: a@example.com\nSubject: x\n\nbody", true),
        ("Return-Path: <a@example.com>\nReceived: by x\nFrom: a@example.com\n\nbody", true),
        ("Subject: no sender\nDate: today\n\nbody", false),
        ("TOTAL 12.00\nFrom: a@example.com\nSubject: x\n", false),
        ("", false),
    ])
    func emailsAreToldFromOtherText(text: String, isEmail: Bool) {
        #expect(EmailMessage.looksLikeEmail(Array(text.utf8)) == isEmail)
    }
}
