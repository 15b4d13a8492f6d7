import PipelineCore
import Testing

/// Which held receipts a person's confirmation lets the machine decide again (`HeldReceiptRereading`).
@Suite struct HeldReceiptRereadingTests {
    private func held(
        _ id: Int64, merchant: String?, text: String = "", touched: Bool = false,
        calledModel: Bool = false
    ) -> HeldReceiptRereading.Held {
        HeldReceiptRereading.Held(
            receiptID: id, merchant: merchant, ocrText: text, touchedByPerson: touched,
            calledModel: calledModel)
    }

    @Test func theHeldReceiptsThatReadLikeTheConfirmedMerchantAreReadAgain() {
        let waiting = [
            held(7, merchant: "LIDL"),
            held(3, merchant: "LDL", text: "LDL\nBahnhofstr. 3"),
            // The machine took the slogan above the name; the name is among the page's first lines.
            held(5, merchant: "Frische für alle", text: "Frische für alle\nLIDL Dienstleistung\nKasse 2"),
            held(9, merchant: "ALDI SÜD", text: "ALDI SÜD\nFiliale 12"),
            held(11, merchant: nil, text: "Lorem ipsum"),
        ]
        #expect(
            HeldReceiptRereading.receipts(readingLike: ["Lidl", "LIDL DIENSTLEISTUNG"], among: waiting) == [3, 5, 7])
    }

    @Test func aReceiptAPersonTouchedOrTheVisionModelReadIsLeftAsItIs() {
        let waiting = [
            held(1, merchant: "LIDL", touched: true),
            held(2, merchant: "LIDL", calledModel: true),
            held(4, merchant: "LIDL"),
        ]
        #expect(HeldReceiptRereading.receipts(readingLike: ["LIDL"], among: waiting) == [4])
    }

    @Test func namesTooShortToTellApartTeachNothing() {
        let waiting = [held(1, merchant: "AB"), held(2, merchant: "AB CAFE")]
        #expect(HeldReceiptRereading.receipts(readingLike: ["AB", " "], among: waiting).isEmpty)
    }

    /// A person working through a long queue of one shop: past a few accepted receipts of it, one more teaches
    /// nothing and reads nothing again; a name the person typed always may.
    @Test func aConfirmationReadsAgainOnlyWhileItTeachesSomething() {
        #expect(HeldReceiptRereading.teaches(merchantNamed: false, accepted: 1))
        #expect(HeldReceiptRereading.teaches(merchantNamed: false, accepted: 5))
        #expect(!HeldReceiptRereading.teaches(merchantNamed: false, accepted: 6))
        #expect(HeldReceiptRereading.teaches(merchantNamed: true, accepted: 40))
    }
}
