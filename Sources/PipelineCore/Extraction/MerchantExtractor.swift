import Foundation

/// Picks the store name from the top of the receipt: legal-entity suffixes, size, capitals and position, never an
/// address, phone, date or greeting line.
enum MerchantExtractor {
    /// Legal suffixes and trade words that make a line almost surely the merchant's name.
    static let companyWords: Set<String> = [
        "SDN", "BHD", "BHD.", "ENTERPRISE", "ENTERPRISES", "TRADING", "LTD", "LIMITED", "INC", "LLC", "GMBH", "CO",
        "CO.",
        "CORP", "CORPORATION", "COMPANY", "PLC", "RESTAURANT", "RESTORAN", "RISTORANTE", "CAFE", "SUPERMARKET",
        "HYPERMARKET", "HARDWARE", "BAKERY", "BAKERIES", "HOTEL", "PHARMACY", "STATIONERY", "BOOKSTORE", "S/B",
    ]

    /// Generic trade words: a weaker hint, since slogans use them too ("The fresh food people").
    static let tradeWords: Set<String> = [
        "MART", "MARKET", "STORE", "STORES", "KITCHEN", "GRILL", "BAR", "PIZZA", "COFFEE", "SHOP", "HOUSE", "FOOD",
        "FOODS",
        "DELI", "BISTRO", "PUB", "TAVERN", "DINER",
    ]

    /// Street words: a line with one of them and a number is an address.
    static let streetWords: Set<String> = [
        "STREET", "ST", "ROAD", "RD", "AVE", "AVENUE", "BLVD", "DRIVE", "DR", "HWY", "HIGHWAY", "PKWY", "LANE", "LN",
        "WAY",
        "JALAN", "JLN", "LORONG", "TAMAN", "LOT", "SUITE", "FLOOR", "RING", "STRASSE", "STR", "PLATZ", "WEG", "CALLE",
        "VIA", "RUE", "PLAZA", "VILLAGE", "PASEO", "AVENIDA", "CARRER", "COURT", "BOULEVARD", "AVDA", "RUA", "PRACA",
        "CORSO", "VIALE", "PIAZZA", "UL",
    ]

    /// Street words that end a German or Dutch street name (`Hauptstraße` folded, `Kerkstraat`, `Lindenweg`).
    static let streetSuffixes = ["STRASSE", "STR", "STRAAT", "WEG", "PLATZ", "PLEIN", "GASSE", "ALLEE", "LAAN"]

    /// A Dutch (`1012 AB`), Portuguese (`1100-053`) or Polish (`00-001`) postcode before the town.
    static let europeanPostcode = #"^\s*(\d{4}\s?[A-Z]{2}|\d{4}-\d{3}|\d{2}-\d{3})\s+\p{Lu}"#

    /// A town and a US state's name after a comma (`GURNEE, Illinois`, `BRONX, New York`), as a town and its
    /// abbreviation (`Kailua, HI`) are.
    static let townAndStateName =
        #",\s*(Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|"#
        + #"Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|"#
        + #"Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|"#
        + #"North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|"#
        + #"Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming)\b"#

    /// Street words that names use too ("Crowne Plaza", "Village Bakery").
    static let nameFriendlyStreetWords: Set<String> = ["PLAZA", "VILLAGE", "WAY", "RING"]

    /// Words that mark a line as not the name (address, contact, receipt furniture).
    static let furnitureWords: Set<String> = [
        "TEL", "FAX", "PHONE", "HP", "GST", "REG", "NO", "WWW", "COM", "HTTP", "EMAIL", "RECEIPT", "INVOICE", "TAX",
        "CASHIER",
        "DATE", "TIME", "TABLE", "ORDER", "WELCOME", "THANK", "THANKS", "SERVER", "GUEST", "CHECK", "TERMINAL", "SALES",
        "DOC", "BILL", "OPEN", "DAILY", "HOURS", "MEMBER", "COPY", "TRANS", "CUSTOMER", "SHOPPING", "VISIT", "FEEDBACK",
        "SURVEY", "CARD", "SALE", "ORDERED", "ITEMS", "DUPLICATE", "GOODS", "SOLD", "REFUNDABLE", "RETURNABLE",
        "EXCHANGEABLE",
        "VAT", "ABN", "PAYMENT", "METHOD", "SERIAL",
        // How the order is served, and who served it (`TAKEOUT`, `GENERAL MANAGER:`); not `CARRY` (`CASH & CARRY`).
        // In two words they are `servingWords`.
        "CARRYOUT", "TAKEOUT", "TAKEAWAY", "DINEIN", "MANAGER",
        // The same in Spanish, German, French and Italian.
        "TICKET", "TIQUET", "FACTURA", "FECHA", "MESA", "CAMARERO", "VENDEDOR", "RECHNUNG", "QUITTUNG", "KASSE",
        "BEDIENTE", "BEDIENUNG", "KELLNER", "TISCH",
        "CAJERO", "CAJERA", "KASSIERER", "KASSIERERIN", "CAISSE", "CAISSIER", "CAISSIERE", "FACTURE", "VENDEUR",
        "SERVEUR", "SCONTRINO", "CAMERIERE", "CASSIERE",
        // Tax ids, receipt and till words of the other European receipts (folded).
        "UST", "IDNR", "STEUERNR", "BELEG", "BON", "BONNR", "FILIALE", "KASSA", "NIF", "NIP", "CIF", "IVA", "TVA",
        "BTW", "PARAGON", "FISKALNY", "FATURA", "TALAO", "DOCUMENTO", "DATUM", "INTRACOM",
        // Greetings and thanks, as `WELCOME` and `THANK` (`Benvenuti`, `Bienvenue chez nous`, `Gracias por elegirnos`).
        "WILLKOMMEN", "DANKE", "BIENVENUE", "BIENVENUS", "MERCI", "BIENVENIDO", "BIENVENIDOS", "GRACIAS", "BENVENUTI",
        "BENVENUTO", "GRAZIE", "WELKOM", "BEDANKT", "VINDO", "VINDOS", "OBRIGADO", "WITAMY", "DZIEKUJEMY",
    ]

    /// How the order is served, in two words (`DINE IN`, `Carry Out`, `DINE-IN`): receipt furniture as the one-word
    /// forms among `furnitureWords` are. Not `TO GO`, which chains' names end in (`REWE To Go`).
    static let servingWords: Set<[String]> = [
        ["DINE", "IN"], ["EAT", "IN"], ["CARRY", "OUT"], ["TAKE", "OUT"], ["TAKE", "AWAY"],
    ]

    /// How many lines from the top are considered.
    static let searchDepth = 8

    /// The model's best name among every candidate of `candidates(lines:headerLines:)`, with the ranking's evidence
    /// (the share of every candidate that reads the same name: the same letters and digits).
    /// - Returns: the name, the ranking's evidence, the brand the name's lines read as (nil when none), and whether
    ///   the page prints the name twice (`Candidate.isNamedTwice`).
    static func extract(
        lines: [ReceiptLine], headerLines: [ReceiptLine] = [], known: [KnownMerchant] = [],
        countries: Set<String> = [], model: ExtractionModel
    ) -> (ExtractedField<String>, CandidateEvidence<MerchantFeature>, Brand?, isNamedTwice: Bool)? {
        let ranked = RankedCandidates(
            candidates(lines: lines, headerLines: headerLines, known: known, countries: countries),
            features: \.features, weights: model.merchant)
        let nameLetters: (Candidate) -> String? = { candidate in
            let letters = TextSimilarity.normalized(candidate.name)
            return letters.isEmpty ? nil : letters
        }
        guard let best = ranked.best, let evidence = ranked.evidence(answer: nameLetters) else { return nil }
        return (
            ExtractedField(value: best.name, confidence: evidence.probability, sourceLines: best.lines), evidence,
            best.brand, best.isNamedTwice
        )
    }

    /// Every name the page offers: each of the top `searchDepth` lines (a generic name joined to the name beside
    /// it), the same for the header pass's lines (`OCRPage.headerLines`, their source lines mapped to the page lines
    /// at the same height), the known merchants those lines read like (`withKnownMerchants`), and the brands any
    /// line names (`withBrands`; `countries`: where the page may have been printed, `CountryEvidence.countries`).
    static func candidates(
        lines: [ReceiptLine], headerLines: [ReceiptLine], known: [KnownMerchant] = [], countries: Set<String> = []
    ) -> [Candidate] {
        let top = lines.prefix(searchDepth).map(\.box.height).sorted()
        let bodyHeight = top.isEmpty ? 0 : top[top.count / 2]
        let site = website(in: lines)
        let fromPage = lineCandidates(in: lines, bodyHeight: bodyHeight, website: site)
        let fromHeader = lineCandidates(in: headerLines, bodyHeight: bodyHeight, website: site).map { candidate in
            var mapped = candidate
            mapped.lines = pageLines(atHeightOf: candidate.lines.map { headerLines[$0] }, in: lines)
            mapped.features[.headerPass] = 1
            let extendsPageName = fromPage.contains {
                readsMore(candidate.name, than: $0.name)
                    || extends(TextSimilarity.normalized(candidate.name), TextSimilarity.normalized($0.name))
            }
            if extendsPageName { mapped.features[.readsMoreThanPage] = 1 }
            return mapped
        }
        let owners = ownerLines(lines)
        return withBrands(
            withKnownMerchants(withLegalEntities(fromPage + fromHeader, lines: lines), lines: lines, known: known),
            lines: lines,
            countries: countries, website: site
        )
        .filter { $0.lines.isEmpty || !Set($0.lines).isSubset(of: owners) }
    }

    /// The lines that name the business's owner: each line below a heading that says so by itself (`Owned By :`,
    /// `Dimiliki oleh`, `Operated by`), as `SANYU STATIONERY SHOP` prints `Owned By :` above `SANYU SUPPLY SDN BHD`.
    /// The owner is a company behind the shop, not the name the shop trades under, so such a line offers no merchant.
    static func ownerLines(_ lines: [ReceiptLine]) -> Set<Int> {
        Set(
            zip(lines, lines.dropFirst()).compactMap { heading, owner in
                let words = ReceiptLine.letterRuns(heading.text)
                return !words.isEmpty && words.allSatisfy(ownerHeadingWords.contains)
                    && !Set(words).isDisjoint(with: ownerWords) ? owner.index : nil
            })
    }

    /// The words that make a heading one above the owner's name (`ownerLines`), and those it may hold besides.
    static let ownerWords: Set<String> = ["OWNED", "OWNER", "DIMILIKI", "OPERATED"]
    static let ownerHeadingWords = ownerWords.union(["BY", "OLEH"])

    /// Whether a top candidate names the business without a legal form, on a line that is not a legal entity's: a
    /// legal name printed twice (`Dia Portugal Supermercados, S.A.` on top and at the foot), or one line read by both
    /// passes, is one name, not the shop's name printed again.
    static func isPlainName(_ candidate: Candidate, isLegalLine: Bool) -> Bool {
        !isLegalLine && LegalEntity.brand(in: candidate.name) == nil
    }

    /// How alike a top line and another line's legal entity read to be one name printed twice (`isNamedTwice`):
    /// 1 − edit distance / length, allowing a slip in five letters.
    static let namedTwiceSimilarity = 0.8

    /// The candidates with the page's legal-entity lines (`Aldi GmbH & Co. KG`, wherever printed) added as their
    /// brand (`Aldi`), and each candidate marked where a legal line and a top line name the same business: a logo or
    /// slogan on top leaves the brand from the legal line; a header the legal line repeats is surely the name.
    static func withLegalEntities(_ candidates: [Candidate], lines: [ReceiptLine]) -> [Candidate] {
        // A money line ("Total 6% supplies (SR) 12.34") is no company's name, whatever its words look like.
        let legal = lines.filter { $0.role == nil && $0.moneyAmounts.isEmpty }.compactMap { line in
            LegalEntity.brand(in: line.text).map { (line, $0) }
        }
        guard !legal.isEmpty else { return candidates }
        let brands = legal.map { TextSimilarity.normalized($0.1) }
        func agrees(_ name: String, _ brand: String) -> Bool {
            brand.count >= 3 && (name.contains(brand) || TextSimilarity.similarity(name, brand) >= 0.8)
        }
        // The whole name twice, a slip or two apart: a header that merely holds the brand (`WELCOME TO ALDI`) is not
        // the name printed again.
        func namesAlike(_ name: String, _ brand: String) -> Bool {
            brand.count >= 4 && TextSimilarity.similarity(name, brand) >= namedTwiceSimilarity
        }
        var result = candidates.map { candidate in
            var marked = candidate
            let name = TextSimilarity.normalized(candidate.name)
            let isLegalLine = candidate.lines.contains { index in legal.contains { $0.0.index == index } }
            if isLegalLine { marked.features[.legalForm] = 1 }
            if brands.contains(where: { agrees(name, $0) }) { marked.features[.brandOnLegalLine] = 1 }
            if isPlainName(candidate, isLegalLine: isLegalLine), brands.contains(where: { namesAlike(name, $0) }) {
                marked.isNamedTwice = true
            }
            return marked
        }
        let topNames = candidates.map(\.name).map(TextSimilarity.normalized)
        let plainTopNames = result.filter { isPlainName($0, isLegalLine: $0.features[.legalForm] != nil) }.map(\.name)
            .map(TextSimilarity.normalized)
        for (line, brand) in legal {
            let words = brand.split(separator: " ")
            let normalized = TextSimilarity.normalized(brand)
            var features: CandidateFeatures<MerchantFeature> = [
                .legalEntityBrand: 1, .letters: min(30, Double(brand.filter(\.isLetter).count)) / 10,
                .ocrConfidence: line.confidence,
                .realWordShare: Double(words.filter { $0.filter(\.isLetter).count >= 3 }.count)
                    / Double(max(1, words.count)),
            ]
            if topNames.contains(where: { agrees($0, normalized) }) { features[.headerNamesBrand] = 1 }
            result.append(
                Candidate(
                    lines: [line.index], name: brand, features: features,
                    isNamedTwice: plainTopNames.contains { namesAlike($0, normalized) }))
        }
        return result
    }

    /// Whether `longer` has every word of `shorter`, two or more, in the same order, with three or more characters
    /// besides (not a scrap such as `AL`) and within twice its length (`CN The Shoppes at Marina Bay Sands` over `The
    /// at Marina Bay Sands.`).
    static func readsMore(_ longer: String, than shorter: String) -> Bool {
        let words = { (name: String) in
            name.split(separator: " ").map { TextSimilarity.normalized(String($0)) }.filter { !$0.isEmpty }
        }
        let longerWords = words(longer)
        let shorterWords = words(shorter)
        let (longerLength, shorterLength) = (longerWords.joined().count, shorterWords.joined().count)
        guard shorterWords.count >= 2, longerLength >= shorterLength + 3, longerLength <= shorterLength * 2 else {
            return false
        }
        var rest = longerWords[...]
        for word in shorterWords {
            guard let found = rest.firstIndex(of: word) else { return false }
            rest = rest[(found + 1)...]
        }
        return true
    }

    /// Whether `longer` contains `shorter`, or starts like it (`BUVETTEDESMARIONETTES` / `BUVETTEDESM`), with at
    /// least three more characters (not a scrap such as `LP`) and at most twice as long (not a slogan that names it).
    static func extends(_ longer: String, _ shorter: String) -> Bool {
        shorter.count >= 3 && longer.count >= shorter.count + 3 && longer.count <= shorter.count * 2 + 2
            && (longer.contains(shorter) || shorter.count >= 6 && longer.hasPrefix(shorter.prefix(shorter.count - 1)))
    }

    /// A name read from one or more lines, with the features that rank it.
    struct Candidate {
        var lines: [Int]
        var name: String
        var features: CandidateFeatures<MerchantFeature>
        /// The brand the candidate's lines read as (`withBrands`), stored beside the merchant when it wins.
        var brand: Brand? = nil
        /// The page prints this name twice: a top line without a legal form and another line, a legal entity's, read
        /// alike (`withLegalEntities`). Not a ranking feature (train's pages hardly print it): it lets the page vouch
        /// for the merchant (`AutoAcceptance.namedTwiceVouch`).
        var isNamedTwice = false
    }

    /// The page lines, among the top `searchDepth`, that overlap `headerLines` in height, the nearest by vertical
    /// centre for each (none where the page read nothing there, as for a logo only the header pass read).
    static func pageLines(atHeightOf headerLines: [ReceiptLine], in lines: [ReceiptLine]) -> [Int] {
        let centre = { (line: ReceiptLine) in line.box.top + line.box.height / 2 }
        let nearest = headerLines.compactMap { header in
            lines.prefix(searchDepth)
                .filter { $0.box.height > 0 && $0.box.top < header.box.bottom && header.box.top < $0.box.bottom }
                .min { abs(centre($0) - centre(header)) < abs(centre($1) - centre(header)) }?.index
        }
        return Array(Set(nearest)).sorted()
    }

    /// One candidate per top line (`searchDepth` lines) with three letters or more, a generic name joined to the name
    /// beside it, described by features whose weights are fitted (`ExtractionModel.merchant`).
    /// - Parameters:
    ///   - bodyHeight: the height of ordinary lines at the top of the page, to measure how much taller a line is.
    ///   - website: the receipt's own web or mail domain; a name in it is a feature.
    static func lineCandidates(in lines: [ReceiptLine], bodyHeight: Int, website: Website?) -> [Candidate] {
        let top = Array(lines.prefix(searchDepth))
        var candidates: [Candidate] = []
        // Lines above that read as words: logo noise above the name does not push it down.
        var wordLinesAbove = 0
        for (position, line) in top.enumerated() {
            let words = nameWords(line.words)
            let name = cleaned(words.map(\.text).joined(separator: " "))
            let letterCount = name.filter(\.isLetter).count
            guard letterCount >= 3 else { continue }
            let upper = name.uppercased()
            let upperWords = Set(upper.split(separator: " ").map(String.init))
            let realWords = words.filter {
                $0.confidence >= 70 && $0.text.filter(\.isLetter).count >= 3 && !repeatsALetterThrice($0.text)
                    || $0.confidence >= 40 && looksLikeWord($0.text)
            }
            // A line of OCR noise only, every word with a letter three times in a row (`本本本本车本本车车`), names nothing.
            let isNoise = words.allSatisfy { !$0.text.contains(where: \.isLetter) || repeatsALetterThrice($0.text) }
            if realWords.isEmpty, isNoise { continue }
            // Confident two-letter words (`El`, `LA`) are neither: they do not count against the line.
            let judgedWords = words.filter { $0.text.filter(\.isLetter).count != 2 || $0.confidence < 70 }
            var features: CandidateFeatures<MerchantFeature> = [
                .position: Double(position) / Double(searchDepth),
                .wordLinesAbove: min(3, Double(wordLinesAbove)),
                .realWordShare: Double(realWords.count) / Double(max(1, judgedWords.count)),
                .letters: min(30, Double(letterCount)) / 10,
            ]
            if wordLinesAbove == 0 { features[.firstWordLine] = 1 }
            let runs = ReceiptLine.letterRuns(name)
            let letterRuns = Set(runs)
            if !letterRuns.isDisjoint(with: companyWords) || !upperWords.isDisjoint(with: companyWords) {
                features[.companyWord] = 1
            } else if !upperWords.isDisjoint(with: tradeWords) {
                features[.tradeWord] = 1
            }
            // `SDN BHD`, and as read glued: `Sdn.Bhd`.
            if letterRuns.contains("BHD") || upperWords.contains("S/B") {
                features[.sdnBhd] = 1
            }
            // "CHECK # 159363 DATE 11/20/16": furniture anywhere on the line, but for contact details after a name;
            // how the order is served in two words, and a printed date ("JEU 18 DECEMBRE 2014"), count as one each.
            let furniture =
                letterRuns.union(line.tokens.subtracting(contactWords)).intersection(furnitureWords).count
                + (zip(runs, runs.dropFirst()).contains { servingWords.contains([$0, $1]) } ? 1 : 0)
                + (DateExtractor.printedDates(in: line.text).isEmpty ? 0 : 1)
            if furniture > 0 { features[.furnitureWords] = min(2, Double(furniture)) }
            // "Santa Fe, NM 87501", "85630 Grasbrunn", "Phone: 528-7099": a place or a phone number, not a name.
            if line.text.range(of: #",\s*[A-Z][A-Za-z0-9]\b(?!\w)"#, options: .regularExpression) != nil
                || name.range(of: #"(?<![#\d])\d{5,6}\b"#, options: .regularExpression) != nil
                || name.range(of: #"\d{3}[-. ]\d{4}\b"#, options: .regularExpression) != nil
                || line.text.range(of: europeanPostcode, options: .regularExpression) != nil
                || line.text.range(of: townAndStateName, options: [.regularExpression, .caseInsensitive]) != nil
            {
                features[.placeOrPhone] = 1
            }
            // "Los Angeles, CA 90036", "New York NY 10017": a state and a ZIP code make it surely a place.
            if line.text.range(of: CurrencyDetector.usStateAndZIP, options: .regularExpression) != nil {
                features[.stateAndZip] = 1
            }
            // "LOT 2811, JALAN ANGSA", and without a number "TAMAN BERKELEY": an address, not a name.
            // "Hauptstraße 5", "Kerkstraat 12", "Lindenweg 3": the street word ends the word.
            let endsInStreetWord = letterRuns.contains { run in
                run.count > 6 && streetSuffixes.contains { run.hasSuffix($0) }
            }
            if line.text.contains(where: \.isNumber), endsInStreetWord || !letterRuns.isDisjoint(with: streetWords) {
                features[.streetAndNumber] = 1
            } else if !letterRuns.isDisjoint(with: streetWords.subtracting(nameFriendlyStreetWords)) {
                features[.streetWord] = 1
            }
            if !line.moneyAmounts.isEmpty { features[.amount] = 1 }
            if name.rangeOfCharacter(from: .decimalDigits) != nil { features[.digits] = 1 }
            if bodyHeight > 0, line.box.height > bodyHeight {
                features[.taller] = min(1.5, Double(line.box.height - bodyHeight) / Double(bodyHeight) * 2)
            }
            // Upper case only where the script has case: a line of CJK characters is not "upper case".
            if name == upper, name.contains(where: \.isUppercase) { features[.upperCase] = 1 }
            // A sentence of three words or more reads as a slogan ("fresh market" is too short to be one): two of its
            // words in lower case besides function words ("You decide what’s inside.", "Gourmet without attitude"),
            // or, in any case, function words joining a quarter of its words ("LA FRAÎCHEUR AU QUOTIDIEN", "DRESS FOR
            // LESS"; `FunctionWords`). Of two words or more, a sentence that ends on a word in lower case and a full stop
            // or an exclamation mark ("More saving.", "Life is burritaful."), not a name's abbreviation (`Co.`, `Ltd.`).
            let lowerCaseWords = words.filter {
                $0.text.first?.isLowercase == true && $0.text.filter(\.isLetter).count >= 3
                    && !FunctionWords.contains($0.text)
            }
            let endsASentence =
                words.count >= 2 && name.last.map { ".!".contains($0) } == true
                && words.last.map { $0.text.first?.isLowercase == true && $0.text.filter(\.isLetter).count >= 3 }
                    == true
            let isPhrase = words.count >= 3 && (lowerCaseWords.count >= 2 || FunctionWords.joiningShare(name) >= 0.25)
            if isPhrase || endsASentence { features[.slogan] = 1 }
            features[.ocrConfidence] = words.map(\.confidence).reduce(0, +) / Double(max(1, words.count)) / 100
            if realWords.isEmpty { features[.noRealWord] = 1 } else { wordLinesAbove += 1 }
            // "CLOCKED!" and "www.clockeddiner.com": the receipt spells its name a second time.
            let normalizedName = TextSimilarity.normalized(name)
            if let website, normalizedName.count >= 4,
                website.normalized.contains(normalizedName)
                    || TextSimilarity.similarity(normalizedName, website.normalized) >= 0.75
            {
                features[.inWebsite] = 1
            }
            var candidate = Candidate(lines: [line.index], name: name, features: features)
            // "POPULAR BOOK" / "CO. (M) SDN BHD": a line of company suffixes completes the name above it; with no name
            // above (OCR lost it: `3180300` / `CO. (M) SDN BHD`) it names no business.
            let suffixOnly = upperWords.isSubset(of: ["SDN", "BHD", "SDN.", "BHD.", "S/B", "(M)", "CO.", "CO", "BHD,"])
            if position > 0, suffixOnly, top[position - 1].letters.count >= 3 {
                let previous = top[position - 1]
                candidate.name = cleaned(nameWords(previous.words).map(\.text).joined(separator: " ")) + " " + name
                candidate.lines = [previous.index, line.index]
            } else if suffixOnly {
                continue
            }
            candidate = withWrappedLegalName(candidate, in: top)
            candidates.append(continued(candidate, in: lines))
        }
        return candidates
    }

    /// A legal name wrapped over the top lines (`AIK HUAT HARDWARE` / `ENTERPRISE (SETIA` / `ALAM) SDN BHD`): a line
    /// that closes a parenthesis the line above left open, or that begins with a legal form (`ENTERPRISE`, `SDN`),
    /// continues the name above, so the candidate takes it below and, when the line above reads as a name
    /// (`nameStart`), above; up to `legalNameLines` lines in all, the same name from each of them.
    static func withWrappedLegalName(_ candidate: Candidate, in top: [ReceiptLine]) -> Candidate {
        var result = candidate
        while result.lines.count < legalNameLines, let last = result.lines.last, last + 1 < top.count {
            let next = cleaned(nameWords(top[last + 1].words).map(\.text).joined(separator: " "))
            guard closesParenthesis(of: top[last].text, next: next) || beginsWithLegalForm(next) else { break }
            result.lines.append(last + 1)
            result.name += " " + next
        }
        while result.lines.count < legalNameLines, let first = result.lines.first, first > 0, first <= top.count,
            continuesNameAbove(result.name, above: top[first - 1].text), let start = nameStart(top[first - 1])
        {
            result.lines = [first - 1] + result.lines
            result.name = start + " " + result.name
        }
        return result
    }

    /// The most lines a wrapped legal name takes (`withWrappedLegalName`).
    static let legalNameLines = 3

    /// Legal forms that end a name and never begin one: a line beginning with one continues the line above.
    static let legalFormsEndingNames: Set<String> = [
        "ENTERPRISE", "ENTERPRISES", "TRADING", "SDN", "BHD", "S/B", "LTD", "LIMITED", "INC", "LLC", "GMBH", "CORP",
        "CORPORATION", "PLC",
    ]

    /// Whether `name` goes on from the line `above`: it closes a parenthesis `above` left open, or it begins with a
    /// legal form (`legalFormsEndingNames`).
    static func continuesNameAbove(_ name: String, above: String) -> Bool {
        closesParenthesis(of: above, next: name) || beginsWithLegalForm(name)
    }

    /// Whether `name`'s first word is a legal form that ends names (`legalFormsEndingNames`).
    static func beginsWithLegalForm(_ name: String) -> Bool {
        legalFormsEndingNames.contains(name.split(separator: " ").first.map { $0.uppercased() } ?? "")
    }

    /// Whether `line` leaves a parenthesis open that `next` closes before opening another (`ENTERPRISE (SETIA` /
    /// `ALAM) SDN BHD`).
    static func closesParenthesis(of line: String, next: String) -> Bool {
        guard line.filter({ $0 == "(" }).count > line.filter({ $0 == ")" }).count, let close = next.firstIndex(of: ")")
        else { return false }
        return next.firstIndex(of: "(").map { close < $0 } ?? true
    }

    /// A candidate completed from its neighbours: a generic name (`Restaurant`) takes the name above or below it.
    static func continued(_ candidate: Candidate, in lines: [ReceiptLine]) -> Candidate {
        var best = candidate
        // "ILIO'S" / "Restaurant": a name of trade words alone is the end of the name on the line above.
        if let first = best.lines.first, first > 0, isGeneric(best.name), let start = nameStart(lines[first - 1]) {
            best.lines = [first - 1] + best.lines
            best.name = start + " " + best.name
            best.features[.joinedGenericName] = 1
        } else if let last = best.lines.last, last + 1 < lines.count, isGeneric(best.name),
            let name = nameStart(lines[last + 1])
        {
            // "Store #208" / "Pana Express": with no name above, the trade word heads the name below it.
            best.lines = [last + 1]
            best.name = name
            best.features[.joinedGenericName] = 1
        }
        return best
    }

    /// Letters (and `-`, `'`) only, four or more, with a vowel and no letter three times in a row: a stylized name
    /// that Tesseract scored low (`Dresserwayne`, `Chick-fil-A`), not logo noise (`KKKKKKKKE`).
    static func looksLikeWord(_ text: String) -> Bool {
        let letters = Array(text.uppercased().filter(\.isLetter))
        guard letters.count >= 4, text.allSatisfy({ $0.isLetter || "-'’".contains($0) }),
            letters.contains(where: { "AEIOUY".contains($0) })
        else { return false }
        return !repeatsALetterThrice(text)
    }

    /// Whether one letter stands three times in a row (`本本本`, `MMMENU`): OCR noise, not a word, however confidently
    /// read.
    static func repeatsALetterThrice(_ text: String) -> Bool {
        let letters = Array(text.uppercased().filter(\.isLetter))
        return zip(letters, zip(letters.dropFirst(), letters.dropFirst(2))).contains { $0 == $1.0 && $1.0 == $1.1 }
    }

    /// Words that say what kind of business, not which one (`INDIAN RESTAURANT`, `Pharmacy`): trade and company
    /// words, cuisines, and kinds of eatery and shop.
    static let genericNameWords = companyWords.union(tradeWords).union([
        "THE", "AND", "INDIAN", "ITALIAN", "CHINESE", "THAI", "JAPANESE", "MEXICAN", "FAMILY", "FRESH", "FINE",
        "GROCERY", "DRUG", "DRUGSTORE", "SERVICE", "STATION", "GAS",
        "KOREAN", "VIETNAMESE", "GREEK", "FRENCH", "SPANISH", "TURKISH", "LEBANESE", "MEDITERRANEAN", "AMERICAN",
        "ASIAN", "MALAYSIAN", "INDONESIAN", "PERSIAN", "CUBAN", "PERUVIAN", "BRAZILIAN", "CARIBBEAN", "ETHIOPIAN",
        "MOROCCAN", "NEPALESE", "FILIPINO", "CAJUN", "HAWAIIAN", "TAQUERIA", "PIZZERIA", "TRATTORIA", "OSTERIA",
        "BRASSERIE", "CANTINA", "STEAKHOUSE", "SUSHI", "NOODLE", "NOODLES", "BBQ", "BARBECUE", "DINING", "CUISINE",
        "EATERY", "LOUNGE", "CAFETERIA", "SUPERMARKETS", "MARKETS", "SEAFOOD", "FISH", "GRILLE", "SMOKEHOUSE",
    ])

    /// Whether every word of `name` is a `genericNameWords` word.
    static func isGeneric(_ name: String) -> Bool {
        let words = ReceiptLine.letterRuns(name)
        return !words.isEmpty && words.allSatisfy(genericNameWords.contains)
    }

    /// The line above a generic name, when it reads as a name: three letters or more, no amount, address or contact.
    static func nameStart(_ line: ReceiptLine) -> String? {
        let name = cleaned(nameWords(line.words).map(\.text).joined(separator: " "))
        guard name.filter(\.isLetter).count >= 3, line.moneyAmounts.isEmpty, !isGeneric(name),
            line.tokens.isDisjoint(with: furnitureWords), line.tokens.isDisjoint(with: streetWords)
        else { return nil }
        return name
    }
}
