/// Tells cash from card from mobile wallets by the words on payment lines.
enum PaymentMethodExtractor {
    static let cues: [(PaymentMethod, [String])] = [
        (
            .card,
            [
                "VISA", "MASTERCARD", "MASTER", "AMEX", "DEBIT", "CREDIT", "EFTPOS", "PAYWAVE", "MAESTRO", "DISCOVER",
                "CARD",
            ]
        ),
        (.mobile, ["GRABPAY", "BOOST", "TNG", "APPLEPAY", "GOOGLEPAY", "ALIPAY", "WECHAT", "PAYPAL"]),
        (.voucher, ["VOUCHER", "GIFTCARD"]),
        (.cash, ["CASH", "TUNAI"]),
    ]

    static func extract(lines: [ReceiptLine]) -> ExtractedField<PaymentMethod>? {
        for (method, words) in cues {
            if let line = lines.first(where: { line in
                words.contains { $0.count <= 4 ? line.tokens.contains($0) : line.letters.contains($0) }
            }) {
                return ExtractedField(value: method, confidence: 0.7 * line.confidence + 0.2, sourceLines: [line.index])
            }
        }
        return nil
    }
}
