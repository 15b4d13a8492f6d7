/// Conversions of `Duration` for arithmetic, messages and stored columns: written once here.
extension Duration {
    /// The duration in seconds, with its fraction.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Whole milliseconds, for messages and settings that take milliseconds.
    public var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// Whole microseconds, for SQL intervals.
    public var microseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }

    /// Milliseconds with their fraction, for latency figures.
    public var fractionalMilliseconds: Double { seconds * 1000 }
}
