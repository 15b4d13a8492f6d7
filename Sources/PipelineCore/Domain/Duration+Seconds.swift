/// Conversions of `Duration` for arithmetic, messages and stored columns: written once here. Whole units saturate at
/// `Int64`'s limits (about 292 million years of milliseconds) instead of trapping.
extension Duration {
    /// The duration in seconds, with its fraction.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Whole milliseconds, for messages and settings that take milliseconds.
    public var milliseconds: Int64 { wholeUnits(perSecond: 1000) }

    /// Whole microseconds, for SQL intervals.
    public var microseconds: Int64 { wholeUnits(perSecond: 1_000_000) }

    /// Milliseconds with their fraction, for latency figures.
    public var fractionalMilliseconds: Double { seconds * 1000 }

    /// `milliseconds` as a duration when it is a finite number from 0 to what whole `Int64` milliseconds hold; nil
    /// otherwise (`1e300`, `nan`, `-1`), where `.milliseconds(Int64(value))` would trap.
    public init?(checkedMilliseconds value: Double) {
        let rounded = value.rounded()
        guard rounded.isFinite, rounded >= 0, rounded < 0x1p63 else { return nil }
        self = .milliseconds(Int64(rounded))
    }

    private func wholeUnits(perSecond: Int64) -> Int64 {
        let (seconds, attoseconds) = components
        let whole = seconds.multipliedReportingOverflow(by: perSecond)
        let sum = whole.partialValue.addingReportingOverflow(attoseconds / (1_000_000_000_000_000_000 / perSecond))
        guard !whole.overflow, !sum.overflow else { return seconds < 0 ? .min : .max }
        return sum.partialValue
    }
}
