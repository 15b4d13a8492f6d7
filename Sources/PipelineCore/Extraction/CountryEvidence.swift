import Foundation

/// What a page says about the country it was printed in, for the two things that depend on it: the order of day and
/// month in numeric dates (`02/08/2015` is 8 February in the United States, 2 August elsewhere) and the currency when
/// no symbol or code names it. Evidence, strongest first: the page's other dates that can only be read one way
/// (`13/02/2015`), a VAT id or the words of a European language, a US state with its ZIP code or a US phone number,
/// the currency (docs/extraction-languages.md).
struct CountryEvidence: Sendable, Equatable {
    /// Numeric dates print the month first.
    var isMonthFirst: Bool
    /// Something on the page decided the order; false when it is only the default (day first).
    var isDecided: Bool
    /// What decided it, for the date's note (`"a US state and ZIP code"`).
    var reason: String
    /// The currency the country implies (EUR for a German VAT id, PLN for Polish words), when the page names none.
    var impliedCurrency: String?

    /// Weighs the page's evidence. `currency` is what `CurrencyDetector` found from symbols and codes.
    static func read(lines: [ReceiptLine], currency: CurrencyGuess?) -> CountryEvidence {
        let votes = DateExtractor.orderVotes(lines: lines)
        let texts = lines.map { $0.text.uppercased() }
        let languages = lines.flatMap { KeywordLexicon.languages(letters: $0.letters, tokens: $0.tokens) }
        let vatCountry = texts.lazy.compactMap(vatIDCountry).first
        let european = vatCountry ?? languages.lazy.compactMap(country(speaking:)).first
        let implied = european.map { $0 == "PL" ? "PLN" : "EUR" }
        let usAddress = texts.contains { matches($0, usStateAndZIP) || matches($0, usPhone) }
        if votes.dayFirst != votes.monthFirst {
            let monthFirst = votes.monthFirst > votes.dayFirst
            return CountryEvidence(
                isMonthFirst: monthFirst, isDecided: true,
                reason: "another date on the page that reads only \(monthFirst ? "month" : "day") first",
                impliedCurrency: implied)
        }
        if let vatCountry {
            return CountryEvidence(
                isMonthFirst: false, isDecided: true, reason: "a \(vatCountry) VAT id", impliedCurrency: implied)
        }
        let code = currency?.code
        if let code, code != "USD", code != "CAD", currency?.confidence ?? 0 >= 0.5 {
            return CountryEvidence(
                isMonthFirst: false, isDecided: true, reason: "the currency \(code)", impliedCurrency: nil)
        }
        // A printed US address outweighs a few words of another language: a US restaurant's menu and tip lines are
        // often Spanish or Italian (`PROPINA`, `TARJETA`).
        if usAddress {
            return CountryEvidence(
                isMonthFirst: true, isDecided: true, reason: "a US address or phone number", impliedCurrency: nil)
        }
        if let european {
            return CountryEvidence(
                isMonthFirst: false, isDecided: true, reason: "\(european) keywords", impliedCurrency: implied)
        }
        if code == "USD" {
            return CountryEvidence(
                isMonthFirst: true, isDecided: currency?.confidence ?? 0 >= 0.5, reason: "the currency USD",
                impliedCurrency: nil)
        }
        return CountryEvidence(
            isMonthFirst: false, isDecided: false, reason: "no country evidence, read day first", impliedCurrency: nil)
    }

    /// The country whose words these are, for the seven European languages (English and Malay say nothing here).
    static func country(speaking language: KeywordLexicon.Language) -> String? {
        switch language {
        case .german: "DE"
        case .french: "FR"
        case .spanish: "ES"
        case .italian: "IT"
        case .dutch: "NL"
        case .portuguese: "PT"
        case .polish: "PL"
        case .english, .malay: nil
        }
    }

    /// The country of a VAT id on an upper-cased line (`DE123456789`, `FR12345678901`, `ESB12345678`,
    /// `IT12345678901`, `NL123456789B01`, `PT123456789`, `PL1234567890`, `NIP 123-456-78-90`, `P.IVA 123…`).
    static func vatIDCountry(_ text: String) -> String? {
        vatIDs.first { matches(text, $0.regex) }?.country
    }

    private static let vatIDs: [(country: String, regex: NSRegularExpression)] = [
        ("DE", #"\bDE\s?\d{9}\b|UST-?ID|STEUERNR"#), ("FR", #"\bFR\s?[0-9A-Z]{2}\s?\d{9}\b|\bSIRET\b|\bSIREN\b"#),
        ("ES", #"\bES\s?[A-Z0-9]\d{7}[A-Z0-9]\b|\bCIF\b|\bNIF\b.*\b[A-Z]\d{8}\b"#),
        ("IT", #"\bIT\s?\d{11}\b|P\.\s?IVA|PARTITA IVA"#), ("NL", #"\bNL\s?\d{9}B\d{2}\b|\bKVK\b|BTW-?NR"#),
        ("PT", #"\bPT\s?\d{9}\b|\bNIF:?\s?\d{9}\b|\bNIPC\b"#), ("PL", #"\bPL\s?\d{10}\b|\bNIP\b"#),
    ].compactMap { country, pattern in (try? NSRegularExpression(pattern: pattern)).map { (country, $0) } }

    private static let usStateAndZIP = try? NSRegularExpression(pattern: CurrencyDetector.usStateAndZIP)
    private static let usPhone = try? NSRegularExpression(pattern: CurrencyDetector.usPhone)

    private static func matches(_ text: String, _ regex: NSRegularExpression?) -> Bool {
        regex?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

extension CountryEvidence {
    /// The countries the page may have been printed in, as ISO 3166-1 codes in lower case, from everything that
    /// names one: a VAT id, the words of a European language, a US state with its ZIP code or a US phone number, and
    /// the currency (a shared one names each country that uses it). Empty when nothing does. A brand that operates in
    /// none of them is less likely the merchant (`MerchantFeature.brandNotInCountry`).
    static func countries(lines: [ReceiptLine], currency: CurrencyGuess?) -> Set<String> {
        var countries = Set<String>()
        let texts = lines.map { $0.text.uppercased() }
        if let vat = texts.lazy.compactMap(vatIDCountry).first { countries.insert(vat.lowercased()) }
        for line in lines {
            for language in KeywordLexicon.languages(letters: line.letters, tokens: line.tokens) {
                countries.formUnion(Self.countries(speaking: language))
            }
        }
        if texts.contains(where: { matches($0, usStateAndZIP) || matches($0, usPhone) }) { countries.insert("us") }
        if let currency, currency.confidence >= 0.5 { countries.formUnion(Self.countries(using: currency.code)) }
        return countries
    }

    /// Where a language is an official one, among the seven European languages the keywords know.
    static func countries(speaking language: KeywordLexicon.Language) -> Set<String> {
        switch language {
        case .german: ["de", "at", "ch", "lu"]
        case .french: ["fr", "be", "ch", "lu"]
        case .spanish: ["es"]
        case .italian: ["it", "ch"]
        case .dutch: ["nl", "be"]
        case .portuguese: ["pt"]
        case .polish: ["pl"]
        case .english, .malay: []
        }
    }

    /// The countries that use a currency `CurrencyDetector` finds.
    static func countries(using currency: String) -> Set<String> {
        switch currency {
        case "EUR":
            [
                "at", "be", "cy", "de", "ee", "es", "fi", "fr", "gr", "hr", "ie", "it", "lt", "lu", "lv", "mt", "nl",
                "pt",
                "si", "sk",
            ]
        case "MYR": ["my"]
        case "USD": ["us"]
        case "CAD": ["ca"]
        case "GBP": ["gb"]
        case "AUD": ["au"]
        case "SGD": ["sg"]
        case "AED": ["ae"]
        case "INR": ["in"]
        case "IDR": ["id"]
        case "VND": ["vn"]
        case "KRW": ["kr"]
        case "JPY": ["jp"]
        case "PLN": ["pl"]
        default: []
        }
    }
}
