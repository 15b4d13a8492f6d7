import Foundation

/// Reads purchased lines between the header and the totals: a name, an optional quantity and unit price, and the
/// line total in the money column.
enum LineItemExtractor {
    /// Words that mark a line as receipt furniture even when it carries an amount.
    static let furnitureTokens: Set<String> = [
        "TEL", "FAX", "DATE", "TIME", "INVOICE", "RECEIPT", "CASHIER", "TABLE", "GUEST", "SERVER", "ORDER", "NO",
        "ID", "TERMINAL", "AUTH", "APPROVAL", "ACCOUNT", "CARD", "VISA", "CHANGE", "POINTS",
    ]

    /// A weight times a price per kilogram: `0,158 kg x 1,19 EUR/kg`, `1.250kg * 3.99`, `0,49 kg × 5,38 €/kg`.
    static let weighedDetail = #"(?i)(\d+[.,]\d{2,3})\s?kg\s?[x×*@]"#

    /// A quantity line of its own, a count times a unit price and nothing else: `2 x 1,29`, `2 Stk x 1,19`,
    /// `6 UD x 6,27`, `2×4,79`, `3 X 8,95 EUR` (count, unit price) or `1,29 x 2` (unit price, count). It prices the
    /// item above or below it and is no item itself.
    static let quantityLineShapes = [
        (#"^(\d{1,3})\s*(?:[^\W\d_]{1,4}\.?\s*)?[xX×*]\s*(\d+[.,]\d{2})\s*(?:EUR|€|zł|PLN)?$"#, 1, 2),
        (#"^(\d+[.,]\d{2})\s*(?:EUR|€|zł|PLN)?\s*[xX×*]\s*(\d{1,3})$"#, 2, 1),
    ].compactMap { pattern, count, unit in
        (try? NSRegularExpression(pattern: pattern)).map { (expression: $0, count: count, unit: unit) }
    }

    /// Whether the page prints each item's numbers over its name (`1811 1 13.57 13.57 SR` / `WALL SCRAPER 3"`): its
    /// first line of numbers has no name line above it, and its last one has a name line below it. Pages that print
    /// the name over its numbers (`Fish Head (S)` / `1 35.00 35.00`) show the opposite.
    static func printsNamesBelowNumbers(_ region: [ReceiptLine]) -> Bool {
        let numbers = region.indices.filter { isNumberLine(region[$0]) }
        guard let first = numbers.first, let last = numbers.last else { return false }
        return (first == 0 || !isNameLine(region[first - 1]))
            && last + 1 < region.count && isNameLine(region[last + 1])
    }

    /// An item's numbers on a line of their own: an amount, and at most three letters, a tax code or a stray mark
    /// (`1042 4 18.55 74.20 SR`, `1 D 15.00 SR`); not a count line (`2 x 1,29`), nor a weight or unit detail (`10.3 oz
    /// Net`, `0.25 EA 4 FOR 0.99`).
    static func isNumberLine(_ line: ReceiptLine) -> Bool {
        line.rightmostMoney != nil && line.role == nil && line.letters.count <= 3 && quantityLine(line.text) == nil
            && pricedQuantity(line.text) == nil
    }

    /// A line that can only be an item's name: letters, no amount, no keyword, no receipt wording, no currency code.
    static func isNameLine(_ line: ReceiptLine) -> Bool {
        line.rightmostMoney == nil && line.role == nil && !line.letters.isEmpty
            && line.tokens.isDisjoint(with: furnitureTokens) && !AmountParser.currencyAffixes.contains(line.letters)
    }

    /// The line total of a weighed item's detail line that prints it (`1.150kg @ $2.65/kg 3.05`): its last amount,
    /// when the weight times the price per kilogram comes to it, rounded to the cent.
    static func weighedTotal(_ line: ReceiptLine) -> LineAmount? {
        guard let total = line.rightmostMoney, let weighedPrice,
            let match = weighedPrice.firstMatch(in: line.text, range: NSRange(line.text.startIndex..., in: line.text)),
            let weightRange = Range(match.range(at: 1), in: line.text),
            let priceRange = Range(match.range(at: 2), in: line.text),
            let weight = Decimal(string: line.text[weightRange].replacingOccurrences(of: ",", with: ".")),
            let price = Decimal(string: line.text[priceRange].replacingOccurrences(of: ",", with: "."))
        else { return nil }
        var product = weight * price
        var rounded = Decimal()
        NSDecimalRound(&rounded, &product, 2, .plain)
        return rounded == total.value ? total : nil
    }

    /// A weight and its price per kilogram: `1.150kg @ $2.65`, `0,158 kg x 1,19`.
    static let weighedPrice = try? NSRegularExpression(pattern: weighedDetail + #"\s?[$€£]?\s?(\d+[.,]\d{2})"#)

    /// A quantity line that prints the line total too: `4 X 1.80 7.20 SR` (count, unit price, line total, an optional
    /// tax code). Under an item printed with its unit price (`Sushi 1.80`), it is that item's count and total.
    static let pricedQuantityLine = try? NSRegularExpression(
        pattern: #"^(\d{1,3})\s*[xX×*]\s*(\d+[.,]\d{2})\s+(\d+[.,]\d{2})(?:\s+[A-Z]{1,2})?$"#)

    /// The count, unit price and line total of a priced quantity line whose count times unit price is its total, nil
    /// for any other line.
    static func pricedQuantity(_ text: String) -> (count: Decimal, unitPrice: Decimal, total: Decimal)? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard let pricedQuantityLine,
            let match = pricedQuantityLine.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let (count, unitPrice) = countAndUnitPrice(match, in: text, count: 1, unit: 2),
            let totalRange = Range(match.range(at: 3), in: text),
            let total = AmountParser.parse(String(text[totalRange]))?.value, count * unitPrice == total
        else { return nil }
        return (count, unitPrice, total)
    }

    /// The count and unit price of a quantity line, nil for any other line.
    static func quantityLine(_ text: String) -> (count: Decimal, unitPrice: Decimal)? {
        let text = text.trimmingCharacters(in: .whitespaces)
        let range = NSRange(text.startIndex..., in: text)
        return quantityLineShapes.lazy.compactMap { shape in
            shape.expression.firstMatch(in: text, range: range).flatMap {
                countAndUnitPrice($0, in: text, count: shape.count, unit: shape.unit)
            }
        }.first
    }

    /// The count (a positive whole number) and the unit price (an amount) in the groups `count` and `unit` of a
    /// quantity shape's match on `text`, nil when either does not read as one.
    static func countAndUnitPrice(_ match: NSTextCheckingResult, in text: String, count: Int, unit: Int)
        -> (count: Decimal, unitPrice: Decimal)?
    {
        guard let countRange = Range(match.range(at: count), in: text),
            let unitRange = Range(match.range(at: unit), in: text),
            let count = Decimal(string: String(text[countRange])), count > 0,
            let unitPrice = AmountParser.parse(String(text[unitRange]))?.value
        else { return nil }
        return (count, unitPrice)
    }

    static let quantityPattern = try? NSRegularExpression(pattern: #"^(\d{1,3})\s*[xX@*]?\s+|\s(\d{1,3})\s*[xX@]\s*$"#)

    static func extract(lines: [ReceiptLine], headerEnd: Int) -> [DraftLineItem] {
        // Items end at the first subtotal or total with an amount; where none is legible (`Saldo €32,60`,
        // `Subtotal $43 70`), at the end of the page, and lines with a role (tax, payment, …) are skipped below.
        let totalsStart =
            lines.first(where: { ($0.role == .subtotal || $0.role == .total) && $0.rightmostMoney != nil })?.index
            ?? lines.count
        var items: [DraftLineItem] = []
        var pendingName: (String, Int)?
        // A quantity line printed above its item, waiting for the item.
        var pendingQuantity: (count: Decimal, unitPrice: Decimal, line: Int)?
        let region = lines.filter { $0.index >= headerEnd && $0.index < totalsStart }
        let namesBelow = printsNamesBelowNumbers(region)
        // A name line already read as the name of the numbers above it.
        var takenName: Int?
        for (position, line) in region.enumerated() where line.index != takenName {
            // Under a name line without an amount (`COFFEE` / `2 X 5.00`) it is that item's price line, read below.
            if pendingName?.1 != line.index - 1, let (count, unitPrice) = quantityLine(line.text) {
                // Under its item (`Milch 2,38 B` / `2 Stk x 1,19`) or above the next one.
                if let last = items.indices.last, items[last].sourceLines.last == line.index - 1,
                    items[last].quantity == nil, TotalsExtractor.isClose(count * unitPrice, items[last].totalPrice)
                {
                    items[last].quantity = count
                    items[last].unitPrice = unitPrice
                    items[last].sourceLines.append(line.index)
                    pendingQuantity = nil
                } else {
                    pendingQuantity = (count, unitPrice, line.index)
                }
                continue
            }
            // Under an item that printed its unit price (`Sushi 1.80` / `4 X 1.80 7.20 SR`): its count and total.
            if let last = items.indices.last, items[last].sourceLines.last == line.index - 1,
                items[last].quantity == nil, let priced = pricedQuantity(line.text),
                priced.unitPrice == items[last].totalPrice
            {
                items[last].quantity = priced.count
                items[last].unitPrice = priced.unitPrice
                items[last].totalPrice = priced.total
                items[last].sourceLines.append(line.index)
                pendingQuantity = nil
                continue
            }
            let quantityAbove = pendingQuantity.flatMap { $0.line == line.index - 1 ? $0 : nil }
            pendingQuantity = nil
            // A weighed item priced on its detail line, under a name line without an amount (`BANANAS` /
            // `1.150kg @ $2.65/kg 3.05`).
            if line.role == nil, let (pending, index) = pendingName, index == line.index - 1,
                let amount = weighedTotal(line)
            {
                items.append(
                    DraftLineItem(
                        name: cleanedName(pending), quantity: nil, unitPrice: nil, totalPrice: amount.value,
                        confidence: 0.5 * amount.confidence + 0.3 * line.confidence, sourceLines: [index, line.index]))
                pendingName = nil
                continue
            }
            // A bottle deposit (`Pfand 0,25`) is bought like an item; a weighed item's detail line
            // (`0,158 kg x 1,19 EUR/kg`) prices the item above it.
            guard line.role == nil || line.role == .deposit, line.tokens.isDisjoint(with: furnitureTokens),
                line.text.range(of: weighedDetail, options: .regularExpression) == nil
            else {
                pendingName = nil
                continue
            }
            guard let amount = line.rightmostMoney else {
                // A currency code on its own (`EUR` above the items) names no item.
                let isCurrencyCode = AmountParser.currencyAffixes.contains(line.letters)
                if line.letters.count >= 3, !isCurrencyCode { pendingName = (line.text, line.index) }
                continue
            }
            var name = withoutRateColumn(cleanedName(line.text(before: firstAmountWord(of: line))))
            var sourceLines = [line.index]
            let isNamedFromBelow =
                namesBelow && isNumberLine(line) && position + 1 < region.count && isNameLine(region[position + 1])
            if isNamedFromBelow {
                // Numbers over their name (`1042 4 18.55 74.20 SR` / `7' X 35# CORRUGATED ROOFING SHEET`): the
                // name below is this item's, however short OCR left it.
                let below = region[position + 1]
                name = cleanedName(below.text)
                sourceLines.append(below.index)
                takenName = below.index
                if name.isEmpty { name = below.text }
            } else if name.filter(\.isLetter).count < 2, let (pending, index) = pendingName {
                name = cleanedName(pending)
                sourceLines.insert(index, at: 0)
            }
            pendingName = nil
            guard name.filter(\.isLetter).count >= 2 || isNamedFromBelow else { continue }
            let (quantity, strippedName) = leadingQuantity(name)
            let money = line.moneyAmounts
            // A second amount is the unit price only when the numbers say so (qty × unit = total); receipts also
            // print tax, discount and code columns there.
            var unitPrice = money.count >= 2 ? money[money.count - 2].value : nil
            var inferredQuantity = quantity
            if let price = unitPrice, price > 0 {
                let ratio = amount.value / price
                if let quantity, quantity * price != amount.value {
                    unitPrice = nil
                } else if quantity == nil, ratio == wholePart(ratio), ratio > 0, ratio < 100 {
                    inferredQuantity = ratio
                } else if quantity == nil {
                    unitPrice = nil
                }
            } else {
                unitPrice = nil
            }
            if let quantityAbove, inferredQuantity == nil,
                TotalsExtractor.isClose(quantityAbove.count * quantityAbove.unitPrice, amount.value)
            {
                inferredQuantity = quantityAbove.count
                unitPrice = quantityAbove.unitPrice
                sourceLines.insert(quantityAbove.line, at: 0)
            }
            items.append(
                DraftLineItem(
                    name: strippedName, quantity: inferredQuantity, unitPrice: unitPrice, totalPrice: amount.value,
                    confidence: 0.5 * amount.confidence + 0.3 * line.confidence, sourceLines: sourceLines))
        }
        return items
    }

    /// The items above the first one that restates the total or subtotal: with items above it, such a line is that
    /// sum printed again under a word the lexicon does not know (`SUBTOT £5.99`, `UKUPNO kn 290,00`, `Saldo 62.20`),
    /// or a table row below the totals (`I.U.A.102 44.77 4.48 49.25`), since as a purchase it would overshoot the
    /// total; it and every line below it are no purchase. An item priced as the total with nothing above it stays.
    static func withoutSumLine(_ items: [DraftLineItem], sums: [Decimal]) -> [DraftLineItem] {
        var above = Decimal(0)
        for (index, item) in items.enumerated() {
            if above > 0, sums.contains(where: { TotalsExtractor.isClose($0, item.totalPrice) }) {
                return Array(items.prefix(index))
            }
            above += item.totalPrice
        }
        return items
    }

    static func wholePart(_ value: Decimal) -> Decimal {
        var source = value
        var result = Decimal()
        NSDecimalRound(&result, &source, 0, .down)
        return result
    }

    /// The first word index that starts the amounts on the right (the name is to its left); a drink's size the name
    /// starts with is the name's (`0,5 Weizen 4,20`, `0.75 Fachinger natur 5.30`).
    static func firstAmountWord(of line: ReceiptLine) -> Int {
        var start = line.rightmostMoney?.firstWord ?? line.words.count
        for amount in line.amounts.reversed()
        where amount.lastWord == start - 1 || amount.lastWord < start && amount.isMoney {
            if amount.firstWord == 0, startsWithDrinkSize(line) { break }
            start = min(start, amount.firstWord)
        }
        return start
    }

    /// A line that starts with a size in litres, a number below 2 with one or two decimals (`0,5`, `0.75`), and then a
    /// word: a drink on a restaurant's bill. Not a weight, a count or a unit price (`0.20 EA 5 FOR`, `1,1 kg`).
    static func startsWithDrinkSize(_ line: ReceiptLine) -> Bool {
        guard line.words.count >= 3,
            line.words[0].text.range(of: #"^[01][.,]\d{1,2}$"#, options: .regularExpression) != nil
        else { return false }
        let word = line.words[1].text
        return word.count >= 3 && word.allSatisfy(\.isLetter) && !drinkSizeExclusions.contains(word.uppercased())
    }

    /// Words after a leading number that make it a unit price or a discount, not a drink's size.
    static let drinkSizeExclusions: Set<String> = ["EACH", "FOR", "PER", "DSC", "DISC", "OFF", "LBS"]

    /// Splits a leading (`2 x Coffee`, `2 Coffee`) quantity from the name.
    static func leadingQuantity(_ name: String) -> (Decimal?, String) {
        guard let quantityPattern else { return (nil, name) }
        let range = NSRange(name.startIndex..., in: name)
        guard let match = quantityPattern.firstMatch(in: name, range: range) else { return (nil, name) }
        let group = match.range(at: 1).location != NSNotFound ? 1 : 2
        guard let numberRange = Range(match.range(at: group), in: name),
            let quantity = Decimal(string: String(name[numberRange])),
            quantity > 0, let whole = Range(match.range, in: name)
        else { return (nil, name) }
        var stripped = name
        stripped.removeSubrange(whole)
        return (quantity, stripped.trimmingCharacters(in: .whitespaces))
    }

    /// Drops a VAT rate printed as a column between the name and the price (`Latte intero 22% 1,29` on an Italian
    /// `documento commerciale`): a standard rate of the countries the lexicon reads, so `Vollmilch 3,5%` keeps its
    /// fat content.
    static func withoutRateColumn(_ name: String) -> String {
        guard let range = name.range(of: #"\s(\d{1,2}(?:[.,]\d{1,2})?)\s?%$"#, options: .regularExpression) else {
            return name
        }
        let rate = name[range].filter { $0.isASCIIDigit || $0 == "," || $0 == "." }
            .replacingOccurrences(of: ",", with: ".").replacingOccurrences(
                of: #"\.0+$"#, with: "", options: .regularExpression)
        guard standardVATRates.contains(rate) else { return name }
        return String(name[..<range.lowerBound])
    }

    /// Standard and reduced VAT rates of the countries whose receipts the lexicon reads, as printed (`5.5`, `22`).
    static let standardVATRates: Set<String> = [
        "4", "5", "5.5", "6", "7", "8", "9", "10", "12", "13", "19", "20", "21", "22", "23",
    ]

    /// Drops item codes, currency marks and stray punctuation around a name.
    static func cleanedName(_ text: String) -> String {
        var name = text.replacingOccurrences(of: #"^\d{4,}\s+"#, with: "", options: .regularExpression)
        name = name.replacingOccurrences(of: #"\s(RM|\$|€|£)$"#, with: "", options: .regularExpression)
        return name.trimmingCharacters(in: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ")%")).inverted)
    }
}
