import BrandData
import Foundation
import FuzzyKeyLookup

/// A chain or brand of shops, restaurants, fuel stations and the like, from the OpenStreetMap name-suggestion-index
/// (`BrandTable.swift`, docs/brands.md).
public struct Brand: Sendable, Hashable {
    /// The brand's name as the index spells it (`Lidl`, `Shell`, `dm`).
    public var name: String
    /// The OSM tags it is filed under (`shop/supermarket`, `amenity/fuel`), each with the countries it operates in
    /// under that tag.
    public var tags: [Tag]

    /// One OSM tag of a brand and where the brand operates under it.
    public struct Tag: Sendable, Hashable {
        /// The name-suggestion-index category: `shop/supermarket`, `amenity/fast_food`.
        public var category: String
        /// ISO 3166-1 codes in lower case (`de`); `*` for worldwide; empty when the index names only regions.
        public var countries: Set<String>
        /// Other names the brand is printed as under this tag (`shell gas station`, `coles express`).
        public var otherNames: [String]
        /// An entry of this tag is the brand itself, not a part of it (`IKEA`, not `IKEA Café`).
        public var isMain: Bool
    }

    /// The other names it is printed as, under all its tags, in the table's order.
    var otherNames: [String] { tags.flatMap(\.otherNames) }

    /// Whether the brand operates in any of `countries`; nil when that cannot be told (no country known for the
    /// receipt, or none for the brand).
    public func operates(in countries: Set<String>) -> Bool? {
        let all = tags.reduce(into: Set<String>()) { $0.formUnion($1.countries) }
        guard !countries.isEmpty, !all.isEmpty else { return nil }
        return all.contains("*") || !all.isDisjoint(with: countries)
    }
}

/// The brand table, parsed once on first use, with an index for OCR-tolerant lookup: each of a brand's names as a
/// match key (`matchKey`: letters and digits, with the OCR look-alikes `0`/`@`/`O` and `1`/`l`/`I` made one) in a
/// `KeyTable` (`FuzzyKeyLookup`), which also finds, for keys of four characters or more, a reading with a letter lost,
/// added, changed or two swapped (`LDL` for `LIDL`). It is laid out for memory (issue 39 allows the index a tenth of a
/// process's peak): the keys sit in the table's one byte buffer, and the brands' tag categories and country sets are
/// stored once each however many brands share them.
final class BrandIndex: Sendable {
    /// The generated table (`BrandData`), parsed on first use.
    static let shared = BrandIndex(table: BrandTable.rows)

    /// Every brand, one per name (the table's rows of one name and several tags merged).
    let brands: [Brand]
    /// The match keys of every name of every brand, numbered by name.
    private let keys: KeyTable
    /// The brand of each name.
    private let nameBrands: [Int32]
    /// Which of its brand's names each name is: `ownName` for the brand's own name, else the index into the brand's
    /// other names (`Brand.otherNames`, the names it is also printed as, such as Shell's `coles express`).
    private let nameKinds: [Int16]

    /// `nameKinds` of a brand's own name.
    private static let ownName: Int16 = -1

    /// The shortest key looked up with one edit allowed: a three-letter brand one letter off is any three letters.
    static let shortestFuzzyKey = 4

    /// Parses tab-separated rows: name, category, countries (comma-separated, `*` for worldwide), other names
    /// (`|`-separated), `main` or nothing, and the match keys of the name and of each other name (`|`-separated;
    /// `matchKey`'s, computed by the script that generates the table). Rows of one name merge into one brand.
    init(table: String) {
        var brands: [Brand] = []
        var brandKeys: [(own: Substring, others: [Substring])] = []
        var brandByName: [Substring: Int] = [:]
        var categories: [Substring: String] = [:]
        var countrySets: [Substring: Set<String>] = [:]
        for row in table.split(separator: "\n") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6 else { continue }
            let otherNames = fields[3].split(separator: "|").map(String.init)
            let keys = fields[5].split(separator: "|", omittingEmptySubsequences: false)
            guard keys.count == otherNames.count + 1 else { continue }
            let category = categories[fields[1]] ?? String(fields[1])
            categories[fields[1]] = category
            let countries = countrySets[fields[2]] ?? Set(fields[2].split(separator: ",").map(String.init))
            countrySets[fields[2]] = countries
            let tag = Brand.Tag(
                category: category, countries: countries, otherNames: otherNames, isMain: fields[4] == "main")
            if let known = brandByName[fields[0]] {
                brands[known].tags.append(tag)
                brandKeys[known].others += keys.dropFirst()
            } else {
                brandByName[fields[0]] = brands.count
                brands.append(Brand(name: String(fields[0]), tags: [tag]))
                brandKeys.append((keys[0], Array(keys.dropFirst())))
            }
        }
        var keyBytes: [UInt8] = []
        var keyStarts: [UInt32] = [0]
        var nameBrands: [Int32] = []
        var nameKinds: [Int16] = []
        for (index, keys) in brandKeys.enumerated() {
            var seen: [Substring] = []
            for (kind, key) in [(Self.ownName, keys.own)] + keys.others.enumerated().map({ (Int16($0), $1) }) {
                guard kind == Self.ownName || key.utf8.count >= 3 && !seen.contains(key) else { continue }
                seen.append(key)
                keyBytes += key.utf8
                keyStarts.append(UInt32(keyBytes.count))
                nameBrands.append(Int32(index))
                nameKinds.append(kind)
            }
        }
        self.brands = brands
        self.keys = KeyTable(bytes: keyBytes, starts: keyStarts, shortestFuzzyKey: Self.shortestFuzzyKey)
        self.nameBrands = nameBrands
        self.nameKinds = nameKinds
    }

    /// A brand a text reads as.
    struct Match: Equatable {
        var brand: Brand
        /// 1 − edits / the longer key's length: 1 for the same key, 0.75 for `LDL` and `LIDL`.
        var similarity: Double
        /// The text matched the brand's own name, not only another name it is printed as.
        var isOwnName: Bool
        /// The name that matched: the brand's own or another it is printed as (`Central` of `Central Convenience
        /// Store`).
        var matchedName: String
    }

    /// The brands `text` reads as, best first: the same key, or — when `fuzzy` and the key has three characters or
    /// more — one character lost, added, changed or two swapped against a name of four or more.
    func matches(_ text: String, fuzzy: Bool) -> [Match] {
        matches(key: Self.matchKey(text), fuzzy: fuzzy)
    }

    /// `matches(_:fuzzy:)` for a key already made by `matchKey`.
    func matches(key: [UInt8], fuzzy: Bool) -> [Match] {
        guard key.count >= 3 else { return [] }
        var found: [Int: Int] = [:]  // name → edits
        for name in keys.keys(equalTo: key) { found[name] = 0 }
        if fuzzy, key.count >= Self.shortestFuzzyKey - 1 {
            // Three letters one slip from a name (`LDL`) only for a brand's own name: logo noise (`BSS`) is one slip
            // from many short aliases (`BOSS`).
            for name in keys.keys(oneEditFrom: key)
            where key.count >= Self.shortestFuzzyKey || nameKinds[name] == Self.ownName {
                found[name] = 1
            }
        }
        var best: [Int32: Match] = [:]
        for (name, edits) in found {
            let brandIndex = nameBrands[name]
            let brand = brands[Int(brandIndex)]
            let isOwnName = nameKinds[name] == Self.ownName
            let similarity = 1 - Double(edits) / Double(max(key.count, keys.key(name).count))
            if let known = best[brandIndex],
                (known.similarity, known.isOwnName ? 1 : 0) >= (similarity, isOwnName ? 1 : 0)
            {
                continue
            }
            best[brandIndex] = Match(
                brand: brand, similarity: similarity, isOwnName: isOwnName,
                matchedName: isOwnName ? brand.name : brand.otherNames[Int(nameKinds[name])])
        }
        return best.values.sorted {
            ($0.similarity, $0.isOwnName ? 1 : 0, $1.brand.name) > ($1.similarity, $1.isOwnName ? 1 : 0, $0.brand.name)
        }
    }

    /// The brand of this exact name, as stored beside a merchant (`ExpenseDraft.brand`).
    func brand(named name: String) -> Brand? {
        brands.first { $0.name == name }
    }

    /// Upper-cased letters and digits, diacritics folded, with the characters OCR confuses made one: `0` and `@`
    /// read as `O`, `1` and `L` as `I` (a lower-case `l` and an upper-case `I` look alike).
    static func matchKey(_ text: String) -> [UInt8] {
        var key: [UInt8] = []
        for scalar in KeywordLexicon.folded(text).unicodeScalars {
            switch scalar {
            case "0", "@", "O": key.append(UInt8(ascii: "O"))
            case "1", "L", "I": key.append(UInt8(ascii: "I"))
            case "A"..."Z", "2"..."9": key.append(UInt8(scalar.value))
            default: continue
            }
        }
        return key
    }
}
