import BrandData
import Foundation

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

    /// Whether the brand operates in any of `countries`; nil when that cannot be told (no country known for the
    /// receipt, or none for the brand).
    public func operates(in countries: Set<String>) -> Bool? {
        let all = tags.reduce(into: Set<String>()) { $0.formUnion($1.countries) }
        guard !countries.isEmpty, !all.isEmpty else { return nil }
        return all.contains("*") || !all.isDisjoint(with: countries)
    }
}

/// The brand table, parsed once on first use, with an index for OCR-tolerant lookup: each of a brand's names as a
/// match key (`matchKey`: letters and digits, with the OCR look-alikes `0`/`@`/`O` and `1`/`l`/`I` made one), and,
/// for keys of four characters or more, every key with one character deleted, so one lookup finds a reading with a
/// letter lost, added, changed or two swapped (`LDL` for `LIDL`). Hashes of the keys sit in sorted arrays and are
/// found by binary search: about 12,000 brands take a few megabytes, not a dictionary of strings.
final class BrandIndex: Sendable {
    /// The generated table (`BrandData`), parsed on first use.
    static let shared = BrandIndex(table: BrandTable.rows)

    /// Every brand, one per name (the table's rows of one name and several tags merged).
    let brands: [Brand]
    /// Each name of each brand: its match key and whether it is the brand's own name (not a name it is also printed
    /// as, such as Shell's `coles express`).
    private let names: [(key: [UInt8], brand: Int32, isOwnName: Bool, text: String)]
    /// (hash of a name's key, index into `names`), sorted by hash.
    private let exact: [(hash: UInt64, name: Int32)]
    /// (hash of a name's key with one character deleted, index into `names`), sorted by hash.
    private let deleted: [(hash: UInt64, name: Int32)]

    /// The shortest key looked up with one edit allowed: a three-letter brand one letter off is any three letters.
    static let shortestFuzzyKey = 4

    /// Parses tab-separated rows: name, category, countries (comma-separated, `*` for worldwide), other names
    /// (`|`-separated), `main` or nothing. Rows of one name merge into one brand.
    init(table: String) {
        var brands: [Brand] = []
        var brandByName: [String: Int] = [:]
        for row in table.split(separator: "\n") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else { continue }
            let tag = Brand.Tag(
                category: fields[1], countries: Set(fields[2].split(separator: ",").map(String.init)),
                otherNames: fields[3].split(separator: "|").map(String.init), isMain: fields[4] == "main")
            if let known = brandByName[fields[0]] {
                brands[known].tags.append(tag)
            } else {
                brandByName[fields[0]] = brands.count
                brands.append(Brand(name: fields[0], tags: [tag]))
            }
        }
        var names: [(key: [UInt8], brand: Int32, isOwnName: Bool, text: String)] = []
        for (index, brand) in brands.enumerated() {
            let own = Self.matchKey(brand.name)
            names.append((own, Int32(index), true, brand.name))
            var seen: Set<[UInt8]> = [own]
            for other in brand.tags.flatMap(\.otherNames) {
                let key = Self.matchKey(other)
                if key.count >= 3, seen.insert(key).inserted { names.append((key, Int32(index), false, other)) }
            }
        }
        var exact: [(hash: UInt64, name: Int32)] = []
        var deleted: [(hash: UInt64, name: Int32)] = []
        exact.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            exact.append((Self.hash(name.key), Int32(index)))
            guard name.key.count >= Self.shortestFuzzyKey else { continue }
            for position in name.key.indices {
                deleted.append((Self.hash(name.key, skipping: position), Int32(index)))
            }
        }
        self.brands = brands
        self.names = names
        self.exact = exact.sorted { $0.hash < $1.hash }
        self.deleted = deleted.sorted { $0.hash < $1.hash }
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
        var found: [Int32: Int] = [:]  // name → edits
        for name in lookup(Self.hash(key), in: exact) where names[Int(name)].key == key { found[name] = 0 }
        if fuzzy, key.count >= Self.shortestFuzzyKey - 1 {
            var probes = [Self.hash(key)]
            for position in key.indices { probes.append(Self.hash(key, skipping: position)) }
            for (probe, hash) in probes.enumerated() {
                // The key itself among names' deletions (a letter lost), its deletions among names' deletions (one
                // changed or two swapped) and among whole names (a letter added).
                let tables = probe == 0 ? [deleted] : [deleted, exact]
                for table in tables {
                    for name in lookup(hash, in: table) where found[name] == nil {
                        let nameKey = names[Int(name)].key
                        // Three letters one slip from a name (`LDL`) only for a brand's own name: logo noise
                        // (`BSS`) is one slip from many short aliases (`BOSS`).
                        let isOwnOrLonger = key.count >= Self.shortestFuzzyKey || names[Int(name)].isOwnName
                        if nameKey.count >= Self.shortestFuzzyKey, isOwnOrLonger, Self.isOneEditApart(key, nameKey) {
                            found[name] = 1
                        }
                    }
                }
            }
        }
        var best: [Int32: Match] = [:]
        for (name, edits) in found {
            let entry = names[Int(name)]
            let similarity = 1 - Double(edits) / Double(max(key.count, entry.key.count))
            let match = Match(
                brand: brands[Int(entry.brand)], similarity: similarity, isOwnName: entry.isOwnName,
                matchedName: entry.text)
            if let known = best[entry.brand],
                (known.similarity, known.isOwnName ? 1 : 0) >= (similarity, entry.isOwnName ? 1 : 0)
            {
                continue
            }
            best[entry.brand] = match
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

    /// FNV-1a over the key's bytes, leaving out the one at `skipping`.
    private static func hash(_ key: [UInt8], skipping: Int = -1) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (index, byte) in key.enumerated() where index != skipping {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// The names whose hash is `hash` in a table sorted by hash.
    private func lookup(_ hash: UInt64, in table: [(hash: UInt64, name: Int32)]) -> [Int32] {
        var low = 0
        var high = table.count
        while low < high {
            let middle = (low + high) / 2
            if table[middle].hash < hash { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < table.count, table[end].hash == hash { end += 1 }
        return table[low..<end].map(\.name)
    }

    /// Whether one character lost, added or changed, or two neighbours swapped, turn `a` into `b` (not the same).
    static func isOneEditApart(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if a.count == b.count {
            let differences = a.indices.filter { a[$0] != b[$0] }
            if differences.count == 1 { return true }
            return differences.count == 2 && differences[1] == differences[0] + 1
                && a[differences[0]] == b[differences[1]] && a[differences[1]] == b[differences[0]]
        }
        let (shorter, longer) = a.count < b.count ? (a, b) : (b, a)
        guard longer.count == shorter.count + 1 else { return false }
        var prefix = 0
        while prefix < shorter.count, shorter[prefix] == longer[prefix] { prefix += 1 }
        return shorter[prefix...].elementsEqual(longer[(prefix + 1)...])
    }
}
