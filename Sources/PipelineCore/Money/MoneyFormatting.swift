import Foundation

/// Formats an amount with at least two decimals (`47.1` → `47.10`).
public func moneyText(_ value: Decimal) -> String {
    var rounded = Decimal()
    var source = value
    NSDecimalRound(&rounded, &source, 2, .plain)
    // More than two decimals (a 3-decimal currency) are kept as printed.
    guard rounded == value else { return "\(value)" }
    let parts = "\(rounded)".split(separator: ".", omittingEmptySubsequences: false)
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    return parts[0] + "." + fraction.padding(toLength: 2, withPad: "0", startingAt: 0)
}
