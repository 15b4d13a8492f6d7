/// Byte keys (names the caller has made comparable) looked up exactly or with one edit: one character lost, added,
/// changed, or two neighbours swapped. Symmetric deletion: every key is hashed, and every key of `shortestFuzzyKey`
/// bytes or more is also hashed with each one of its bytes deleted, so one lookup of a reading and its own deletions
/// finds every key one edit away. Laid out for memory: the keys sit in one byte buffer, each lookup table is one
/// sorted array of 64-bit entries (a 32-bit FNV-1a hash above the key's number; a hash shared by chance is told apart
/// by comparing the keys).
public struct KeyTable: Sendable {
    /// The keys one after the other; key `n` is `bytes[starts[n]..<starts[n + 1]]`.
    private let bytes: [UInt8]
    private let starts: [UInt32]
    /// Each key's hash above its number, sorted.
    private let exact: [UInt64]
    /// Each key of `shortestFuzzyKey` bytes or more with one byte deleted, hashed and laid out as `exact`.
    private let deleted: [UInt64]
    /// The shortest key found by a one-edit lookup.
    public let shortestFuzzyKey: Int

    /// The table of the keys laid out one after the other in `bytes`, key `n` being `bytes[starts[n]..<starts[n + 1]]`.
    public init(bytes: [UInt8], starts: [UInt32], shortestFuzzyKey: Int) {
        let count = starts.count - 1
        var exact: [UInt64] = []
        exact.reserveCapacity(count)
        var deleted: [UInt64] = []
        deleted.reserveCapacity(
            (0..<count).reduce(0) {
                let length = Int(starts[$1 + 1] - starts[$1])
                return $0 + (length >= shortestFuzzyKey ? length : 0)
            })
        for number in 0..<count {
            let key = bytes[Int(starts[number])..<Int(starts[number + 1])]
            exact.append(Self.entry(Self.hash(key), number: number))
            guard key.count >= shortestFuzzyKey else { continue }
            for position in 0..<key.count {
                deleted.append(Self.entry(Self.hash(key, skipping: position), number: number))
            }
        }
        exact.sort()
        deleted.sort()
        self.bytes = bytes
        self.starts = starts
        self.exact = exact
        self.deleted = deleted
        self.shortestFuzzyKey = shortestFuzzyKey
    }

    /// How many keys the table holds.
    public var count: Int { starts.count - 1 }

    /// Key `number`.
    public func key(_ number: Int) -> ArraySlice<UInt8> {
        bytes[Int(starts[number])..<Int(starts[number + 1])]
    }

    /// The numbers of the keys equal to `key`.
    public func keys(equalTo key: [UInt8]) -> [Int] {
        lookup(Self.hash(key[...]), in: exact).filter { self.key($0).elementsEqual(key) }
    }

    /// The numbers of the keys of `shortestFuzzyKey` bytes or more one edit from `key` (not equal to it), each once,
    /// in ascending order.
    public func keys(oneEditFrom key: [UInt8]) -> [Int] {
        var candidates = Set<Int>()
        // The key itself among keys' deletions (a byte lost), its deletions among keys' deletions (one changed or two
        // swapped) and among whole keys (a byte added).
        candidates.formUnion(lookup(Self.hash(key[...]), in: deleted))
        for position in key.indices {
            let hash = Self.hash(key[...], skipping: position)
            candidates.formUnion(lookup(hash, in: deleted))
            candidates.formUnion(lookup(hash, in: exact))
        }
        return candidates.filter {
            let candidate = Array(self.key($0))
            return candidate.count >= shortestFuzzyKey && Self.isOneEditApart(key, candidate)
        }.sorted()
    }

    /// Whether one character lost, added or changed, or two neighbours swapped, turn `a` into `b` (not the same).
    public static func isOneEditApart(_ a: [UInt8], _ b: [UInt8]) -> Bool {
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

    /// FNV-1a over the key's bytes, leaving out the one at offset `skipping`, folded to 32 bits.
    private static func hash(_ key: ArraySlice<UInt8>, skipping: Int = -1) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (offset, byte) in key.enumerated() where offset != skipping {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
    }

    /// A lookup table's entry: `hash` above the key's number, so sorting the entries sorts them by hash.
    private static func entry(_ hash: UInt32, number: Int) -> UInt64 {
        UInt64(hash) << 32 | UInt64(number)
    }

    /// The numbers of the keys whose hash is `hash` in a table of `entry` values, sorted.
    private func lookup(_ hash: UInt32, in table: [UInt64]) -> [Int] {
        let first = UInt64(hash) << 32
        var low = 0
        var high = table.count
        while low < high {
            let middle = (low + high) / 2
            if table[middle] < first { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < table.count, table[end] >> 32 == UInt64(hash) { end += 1 }
        return table[low..<end].map { Int($0 & 0xFFFF_FFFF) }
    }
}
