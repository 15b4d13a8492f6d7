import Foundation

/// The words receipts print for each kind of money line, in English, Malay (with Indonesian's own words among them:
/// `PPN`, `PAJAK`), German, French, Spanish, Italian, Dutch, Portuguese and Polish. The rules and the fitted features
/// see only the class a line's words belong to, never the word, so one fitted weight serves every language
/// (docs/extraction-languages.md).
///
/// Words are written folded (`KeywordLexicon.folded`: upper case, accents dropped, `ß` → `SS`, `Ł` → `L`, letters
/// only): `RUCKGELD` matches `Rückgeld`, `RÜCKGELD` and `Ruckgeld`. Words of four letters or fewer match whole words
/// only; longer ones match anywhere in the line's letters (`ZUZAHLEN` in `ZU ZAHLEN EURO`).
enum KeywordLexicon {
    /// The languages the lexicon knows.
    enum Language: String, CaseIterable, Sendable {
        case english, malay, german, french, spanish, italian, dutch, portuguese, polish
    }

    /// What a keyword says about the amount on its line.
    enum KeywordClass: CaseIterable, Sendable {
        /// `TOTAL QTY`: a count of items, not money.
        case itemCount
        /// `Pfand`, `Leergut`, `Consigne`: a bottle deposit charged or returned.
        case deposit
        case change
        case rounding
        case discount
        case tip
        case fee
        /// `TOTAL GST`, `Summe MwSt`, `TOTAL INCLUDES 6% GST`: a line naming the tax amount, though it says "total".
        case taxAmount
        case subtotal
        /// `AMOUNT PAID`: what was handed over, though it says "amount".
        case amountPaid
        /// `GRAND TOTAL`, `ZU ZAHLEN`, `NET A PAYER`: the final amount, named strongly.
        case strongTotal
        /// `SUMME`, `TOTALE`, `TOTAAL`: the total, in a word that needs no other.
        case namedTotal
        /// `VAT`, `MwSt`, `TVA`, `IVA`, `BTW`, `PTU`.
        case tax
        /// `TOTAL`, `AMOUNT`: the total, in words that other lines use too.
        case total
        /// `CASH`, `BAR`, `EC-Karte`, `ESPECES`, `PIN`, `GOTÓWKA`: a payment method, so an amount tendered.
        case payment
        /// `Netto`, `HT`, `Base`, `Imponibile`: the net column of a VAT table.
        case net
        /// `Brutto`, `TTC`, `Incl.`: the gross column of a VAT table.
        case gross
    }

    /// The words of each class, per language (folded).
    static let words: [KeywordClass: [Language: [String]]] = [
        .itemCount: [
            .english: [
                "TOTALQTY", "TOTALQUANTITY", "TOTALITEM", "NOOFITEM", "ITEMCOUNT", "TOTALNOOF", "QTYTOTAL",
                "ITEMSSOLD",
            ],
            .german: ["ANZAHLARTIKEL"],
        ],
        .deposit: [
            .german: ["PFAND", "LEERGUT"], .french: ["CONSIGNE"], .spanish: ["ENVASE"],
            .italian: ["CAUZIONE", "VUOTI", "VUOTO"], .dutch: ["STATIEGELD", "EMBALLAGE"],
            .portuguese: ["TARA", "VASILHAME"],
            .polish: ["KAUCJA"],
        ],
        .change: [
            .english: ["CHANGE", "CHANGEDUE"], .malay: ["BAKI", "KEMBALI"], .german: ["RUCKGELD", "ZURUCK"],
            .french: ["RENDU", "ARENDRE"], .spanish: ["CAMBIO", "DEVOLUCION"], .italian: ["RESTO"],
            .dutch: ["WISSELGELD", "TERUG"], .portuguese: ["TROCO"], .polish: ["RESZTA"],
        ],
        .rounding: [
            .english: ["ROUNDINGADJ", "ROUNDADJ", "ROUNDING", "ROUNDOFF"], .malay: ["PELARASAN"],
            .german: ["RUNDUNG"], .dutch: ["AFRONDING"],
        ],
        .discount: [
            .english: ["DISCOUNT", "DISC", "SAVING", "SAVED", "COUPON", "PROMO", "MEMBERDEAL"],
            .malay: ["DISKAUN"], .german: ["RABATT", "NACHLASS", "PREISVORTEIL"], .french: ["REMISE", "REDUCTION"],
            .spanish: ["DESCUENTO", "DTO"], .italian: ["SCONTO"], .dutch: ["KORTING", "VOORDEEL"],
            .portuguese: ["DESCONTO", "DESC"],
            .polish: ["RABAT", "UPUST"],
        ],
        .tip: [.english: ["TIP", "GRATUITY"], .french: ["POURBOIRE"], .spanish: ["PROPINA"], .german: ["TRINKGELD"]],
        .fee: [
            .english: [
                "SERVICECHARGE", "SERVICECHG", "SERVICECH", "SERVICESCH", "SVCCHG", "SVCCHARGE", "SERVCHARGE",
                "SERVCHG", "SRVCHG", "SRVCHARGE", "DELIVERYFEE", "SURCHARGE", "BAGFEE",
            ]
        ],
        .taxAmount: [
            .english: [
                "TOTALGST", "TOTALTAX", "TOTALVAT", "TOTALSST", "GSTPAYABLE", "TAXAMOUNT", "GSTAMOUNT",
                "TOTALINCLUDES", "TOTALINCLUDED",
            ],
            .german: ["SUMMEMWST", "MWSTSUMME", "MWSTBETRAG", "ENTHALTENEMWST"], .french: ["TOTALTVA", "MONTANTTVA"],
            .spanish: ["TOTALIVA", "CUOTAIVA"], .italian: ["DICUIIVA", "TOTALEIVA"], .dutch: ["TOTAALBTW"],
            .portuguese: ["TOTALIVA"], .polish: ["SUMAPTU", "PTUSUMA"],
        ],
        .subtotal: [
            .english: [
                "SUBTOTAL", "BTOTAL", "SUBTTL", "TAXABLE", "SUBTOTA", "TOTALEXCL", "AMOUNTEXCL", "NETTOTALEXCL",
                "TOTALBEFORE",
            ],
            .german: ["ZWISCHENSUMME"], .french: ["SOUSTOTAL", "TOTALHT", "MONTANTHT"],
            .italian: ["SUBTOTALE", "TOTALEPARZIALE"], .dutch: ["SUBTOTAAL", "TUSSENTOTAAL"],
            .polish: ["SUMACZESCIOWA"],
        ],
        .amountPaid: [
            .english: ["TOTALPAID", "AMOUNTPAID", "AMTPAID", "TENDERED", "AMOUNTTENDER", "AMTTENDER"]
        ],
        .strongTotal: [
            .english: [
                "GRANDTOTAL", "GRANDTOTEL", "TOTALINCL", "ROUNDEDTOTAL", "ROUNDED", "AFTERADJ", "TOTALAFTER",
                "TOTALROUNDED", "AFTERROUNDING", "NETTTOTAL", "NETTOTAL", "TOTALDUE", "AMOUNTDUE", "AMTDUE",
                "BALANCEDUE", "TOTALAMOUNT", "TOTALPAYABLE", "AMOUNTPAYABLE",
            ],
            .malay: ["JUMLAHBESAR"], .german: ["ZUZAHLEN", "GESAMTBETRAG", "ENDSUMME"],
            .french: ["TOTALTTC", "MONTANTTTC", "NETAPAYER", "APAYER"],
            .spanish: ["TOTALAPAGAR", "IMPORTETOTAL"], .italian: ["TOTALECOMPLESSIVO", "TOTALEEURO"],
            .dutch: ["TEBETALEN"], .portuguese: ["TOTALAPAGAR"], .polish: ["DOZAPLATY"],
        ],
        .namedTotal: [
            .english: ["TOTALSALES", "TOTALRM", "BAL"], .malay: ["JUMLAH"], .german: ["SUMME", "GESAMT"],
            .french: ["SOMME", "MONTANT"], .spanish: ["IMPORTE"], .italian: ["TOTALE"], .dutch: ["TOTAAL"],
            .polish: ["SUMA", "RAZEM"],
        ],
        .tax: [
            .english: ["SALESTAX", "TAX", "TAXES", "GST", "VAT", "SST", "HST", "PST", "QST", "TPS", "TVQ"],
            .malay: ["CUKAI", "PPN", "PAJAK"], .german: ["MWST", "UST", "STEUER"], .french: ["TVA"],
            .spanish: ["IVA", "IMPUESTO", "CUOTA"],
            .italian: ["IVA", "IMPOSTA"], .dutch: ["BTW"], .portuguese: ["IVA"], .polish: ["PTU", "PODATEK"],
        ],
        .total: [.english: ["TOTAL", "AMOUNT", "AMT", "BALANCE", "DUE"]],
        .payment: [
            .english: [
                "CASH", "TENDER", "PAID", "RECEIVED", "VISA", "MASTER", "CARD", "AMEX", "DEBIT", "CREDIT", "PAYMENT",
                "EFTPOS", "PAYWAVE",
            ],
            .malay: ["TUNAI"], .german: ["BAR", "BARGELD", "GEGEBEN", "ECKARTE", "GIROCARD", "KARTENZAHLUNG"],
            .french: ["ESPECES", "CB", "CARTEBANCAIRE", "CARTEBLEUE"],
            .spanish: ["EFECTIVO", "ENTREGADO", "TARJETA"],
            .italian: ["CONTANTE", "CONTANTI", "BANCOMAT", "CARTA", "PAGATO"],
            .dutch: ["CONTANT", "PIN", "PINNEN", "BETAALD", "MAESTRO"],
            .portuguese: ["NUMERARIO", "DINHEIRO", "ENTREGUE", "MULTIBANCO", "CARTAO"],
            .polish: ["GOTOWKA", "KARTA", "WPLATA"],
        ],
        // `EXCI`, `INCI`: `Excl.`, `Incl.` with the final l read as I.
        .net: [
            .english: ["NET", "EXCL", "EXCI"], .german: ["NETTO"], .french: ["HT"],
            .spanish: ["BASE", "NETO", "IMPONIBLE"], .italian: ["IMPONIBILE"], .dutch: ["GRONDSLAG"],
            .portuguese: ["INCIDENCIA"], .polish: ["NETTO"],
        ],
        .gross: [
            .english: ["GROSS", "INCL", "INCI"], .german: ["BRUTTO"], .french: ["TTC"], .spanish: ["BRUTO"],
            .polish: ["BRUTTO"],
        ],
    ]

    /// The classes in the order lines are classified: the specific ones (`TOTAL GST`, `SUBTOTAL`, `AMOUNT PAID`)
    /// before the plain `TOTAL` they contain.
    static let classificationOrder: [KeywordClass] = [
        .itemCount, .deposit, .change, .rounding, .discount, .tip, .fee, .taxAmount, .subtotal, .amountPaid,
        .strongTotal, .namedTotal, .tax, .total, .payment,
    ]

    /// Every word of a class, all languages together.
    static func words(of keywordClass: KeywordClass) -> [String] {
        Language.allCases.flatMap { words[keywordClass]?[$0] ?? [] }
    }

    /// Whether a word of `keywordClass` is on a line (folded letters and letter runs).
    static func contains(_ keywordClass: KeywordClass, letters: String, tokens: Set<String>) -> Bool {
        allWords[keywordClass, default: []].contains { matches($0, letters: letters, tokens: tokens) }
    }

    /// Words of four letters or fewer must be whole words (`BAR` is not in `BARCODE`); longer ones may sit anywhere,
    /// glued to the words around them as OCR prints them (`ZU ZAHLEN`, `SUBTOTA` in `SUBTOTAL`, `PFAND` in
    /// `Pfandrückgabe`), but a false friend does not start a longer word (`falseFriends`).
    static func matches(_ word: String, letters: String, tokens: Set<String>) -> Bool {
        if word.count <= 4 { return tokens.contains(word) }
        guard letters.contains(word) else { return false }
        return !falseFriends.contains(word) || tokens.contains(word)
            || !tokens.contains { $0.count > word.count && $0.hasPrefix(word) }
    }

    /// Keywords that start words of other languages common on receipts, and so count only as a word of their own or
    /// a word's end (`ZWISCHENSUMME`): `SUMMER` is no German `SUMME`, Malay `RESTORAN` no Italian `RESTO` (change),
    /// `IMPORTED` no Spanish `IMPORTE`, `SOMMERSET` no French `SOMME`. The lexicon's other words keep matching as a
    /// word's start: their own languages build on them (`Pfandrückgabe`, `Nettobetrag`, `descuentos`).
    static let falseFriends: Set<String> = ["SUMME", "RESTO", "IMPORTE", "SOMME"]

    /// The languages whose own words are on the line, in `Language` order: a hint of the receipt's country. Only
    /// words that say so reliably count: whole words of five letters or more not shared with English, the tax names
    /// (`MWST`, `TVA`, `IVA`, `BTW`, `PTU`, `TTC`), and phrases of eight letters or more anywhere (`ZUZAHLEN`); a
    /// short word such as `BAR` or `PIN` names a shop or a card on English receipts too.
    static func languages(letters: String, tokens: Set<String>) -> [Language] {
        Language.allCases.filter { language in
            language != .english
                && (evidenceWords[language] ?? []).contains {
                    tokens.contains($0) || $0.count >= 8 && letters.contains($0)
                }
        }
    }

    /// The languages whose own words are on any line of `text` (`languages(letters:tokens:)`, line by line).
    static func languages(inText text: String) -> Set<Language> {
        Set(
            text.split(whereSeparator: \.isNewline).flatMap { line in
                let (letters, tokens) = ReceiptLine.keywordForms(String(line))
                return languages(letters: letters, tokens: tokens)
            })
    }

    /// Per language, the words that count as evidence of it (see `languages(letters:tokens:)`).
    private static let evidenceWords: [Language: [String]] = {
        let english = Set(KeywordClass.allCases.flatMap { words[$0]?[.english] ?? [] })
        let taxNames: Set<String> = ["MWST", "TVA", "IVA", "BTW", "PTU", "TTC"]
        var result: [Language: [String]] = [:]
        for byLanguage in words.values {
            for (language, list) in byLanguage {
                result[language, default: []] += list.filter {
                    !english.contains($0) && ($0.count >= 5 || taxNames.contains($0))
                }
            }
        }
        return result
    }()

    private static let allWords: [KeywordClass: [String]] = Dictionary(
        uniqueKeysWithValues: KeywordClass.allCases.map { ($0, words(of: $0)) })

    /// Text as keywords are matched: upper case, accents dropped (`Ü` → `U`, `É` → `E`, `Ł` → `L`, `ß` → `SS`),
    /// and a `0`, `1` or `5` between two letters read as the letter OCR took it for (`T0TAL`, `SUBT0TAL`).
    static func folded(_ text: String) -> String {
        let upper = text.folding(options: [.diacriticInsensitive], locale: nil).uppercased()
        var characters = Array(upper)
        for index in characters.indices.dropFirst().dropLast()
        where characters[index - 1].isLetter && characters[index + 1].isLetter {
            switch characters[index] {
            case "0": characters[index] = "O"
            case "1": characters[index] = "I"
            case "5": characters[index] = "S"
            default: break
            }
        }
        return String(characters.map { foldedLetters[$0] ?? $0 })
    }

    /// A letter run that is `TOTAL` with one letter misread (`TOTEL`, `TATAL`, `IOTAL`, `TOLAL`), read as `TOTAL`:
    /// the keyword every receipt prints. Each of the 65 such runs on the train and dev pages of both engines is one
    /// (docs/extraction-languages.md).
    static func readingTotal(_ run: String) -> String {
        guard run.count == 5, run != "TOTAL", zip(run, "TOTAL").count(where: { $0 != $1 }) == 1 else { return run }
        return "TOTAL"
    }

    /// Letters that diacritic folding leaves as they are.
    private static let foldedLetters: [Character: Character] = ["Ł": "L", "Ø": "O", "Đ": "D", "Æ": "A", "Œ": "O"]
}
