/// What trusts a key field whatever its calibrated probability (`FieldTrust.vouchedBy`): a known merchant's learned
/// layout or confirmed header (`LayoutAgreement`), a known brand (`AutoAcceptance.brandVouch`), the name printed twice
/// (`AutoAcceptance.namedTwiceVouch`), or the page's arithmetic confirming the total
/// (`AutoAcceptance.arithmeticVouch`). Its description is what the decision's reason, the receipt's notes, `pipeline
/// show` and the review page print.
public enum Vouch: Sendable, Hashable, CustomStringConvertible {
    /// The merchant's name read from header lines like those its accepted receipts were read from (that many, so many
    /// of them by a person), with the merchant's layout agreeing with the total or the date.
    case confirmedHeader(confirmations: Int, byPerson: Int)
    /// The total printed on a line that reads like the known merchant's learned total keyword.
    case knownTotalLine(keyword: String)
    /// The date printed in the known merchant's learned form.
    case knownDateForm(DateForm)
    /// The merchant's name is a known brand's own name, read whole as the page's first line, of a brand operating in
    /// the receipt's country.
    case knownBrand
    /// The merchant's name printed twice on the page: as a top line and as another line's legal entity.
    case namedTwice
    /// The printed total confirmed twice by amounts read apart from it: by the payment and by a sum
    /// (`AutoAcceptance.arithmeticVouch`).
    case paidAndSummed(Sum)
    /// The printed total tied by two line items or more alone, every check passing: they sum to it, or to the subtotal
    /// that the summary turns into it (`AutoAcceptance.itemsVouch`).
    case itemsAddUp(throughSubtotal: Bool)

    /// The sum that confirms a paid total besides the payment.
    public enum Sum: Sendable, Hashable {
        case lineItems, summary, vatTable
    }

    public var description: String {
        switch self {
        case .confirmedHeader(let confirmations, let byPerson):
            "known merchant: \(KnownMerchant.acceptances(confirmations, byPerson: byPerson)), its header as "
                + (byPerson < confirmations ? "read on those receipts" : "a person confirmed it")
        case .knownTotalLine(let keyword): "total printed as its known layout: \(keyword)"
        case .knownDateForm(let form): "date printed as its known layout: \(form)"
        case .knownBrand: "a known brand, printed as the page's first line, of the receipt's country"
        case .namedTwice: "its name printed twice: on top and in the legal entity's line"
        case .paidAndSummed(let sum):
            switch sum {
            case .lineItems: "total confirmed twice: by the payment and by the line items"
            case .summary: "total confirmed twice: by the payment and by the summary (subtotal and tax)"
            case .vatTable: "total confirmed twice: by the payment and by the VAT table"
            }
        case .itemsAddUp(let throughSubtotal):
            throughSubtotal
                ? "total confirmed by the line items: they add up to the subtotal, and the subtotal and tax to the total"
                : "total confirmed by the line items: they add up to it, and every check passes"
        }
    }
}
