import Foundation

extension ReceiptDate {
    /// The years a receipt's date may have: four digits, after 1900 (a year the database stores and a person
    /// could have a receipt from).
    public static let possibleYears = 1901...9999

    /// A date that exists on the calendar (months of their length, February 29 in leap years only) in
    /// `possibleYears`; nil otherwise. The one check every reading of a date passes before it is stored.
    public init?(calendarYear year: Int, month: Int, day: Int, isAmbiguous: Bool = false) {
        guard Self.possibleYears.contains(year), (1...12).contains(month), day >= 1,
            day <= Self.days(inMonth: month, of: year)
        else { return nil }
        self.init(year: year, month: month, day: day, isAmbiguous: isAmbiguous)
    }

    /// `YYYY-MM-DD` (exactly) as a date that exists; nil otherwise.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(calendarYear: year, month: month, day: day)
    }

    /// Days in `month` (1–12) of `year`, in the Gregorian calendar.
    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
