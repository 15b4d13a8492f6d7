/// What trusts a key field whatever its calibrated probability (`FieldTrust.vouchedBy`): a known merchant's learned
/// layout or confirmed header (`LayoutAgreement`), or a known brand (`AutoAcceptance.brandVouch`). Its description
/// is what the decision's reason, the receipt's notes, `pipeline show` and the review page print.
public enum Vouch: Sendable, Hashable, CustomStringConvertible {
    /// The merchant's name read from header lines like those a person confirmed it from, this many times, with the
    /// merchant's layout agreeing with the total or the date.
    case confirmedHeader(confirmations: Int)
    /// The total printed on a line that reads like the known merchant's learned total keyword.
    case knownTotalLine(keyword: String)
    /// The date printed in the known merchant's learned form.
    case knownDateForm(DateForm)
    /// The merchant's name is a known brand's own name, read whole as the page's first line, of a brand operating in
    /// the receipt's country.
    case knownBrand

    public var description: String {
        switch self {
        case .confirmedHeader(let confirmations):
            "known merchant: confirmed \(confirmations) time\(confirmations == 1 ? "" : "s"), its header as a person "
                + "confirmed it"
        case .knownTotalLine(let keyword): "total printed as its known layout: \(keyword)"
        case .knownDateForm(let form): "date printed as its known layout: \(form)"
        case .knownBrand: "a known brand, printed as the page's first line, of the receipt's country"
        }
    }
}
