import Foundation
import JSONRepair
import Testing

@Suite("JSON repair")
struct RepairTests {
    /// Broken replies that must come out as exactly this JSON.
    @Test(arguments: [
        ("fenced", "Here you go:\n```json\n{\"a\": 1}\n```\nAnything else?", #"{"a":1}"#),
        ("prose with braces", "I read the receipt {as requested}. {\"total\": 12.50}", #"{"total":12.50}"#),
        ("second object", #"{"a": 1} {"b": 2}"#, #"{"a":1}"#),
        ("trailing commas", #"{"a": [1, 2,], "b": "x",}"#, #"{"a":[1,2],"b":"x"}"#),
        ("single quotes", "{'merchant': 'Joe\\'s', 'total': 3.5}", #"{"merchant":"Joe's","total":3.5}"#),
        ("curly quotes", "{“merchant”: “Tesco”}", #"{"merchant":"Tesco"}"#),
        ("comments", "{\n// the store\n\"a\": 1, /* total */ \"b\": 2 # end\n}", #"{"a":1,"b":2}"#),
        ("python literals", "{'paid': True, 'tip': None, 'void': False}", #"{"paid":true,"tip":null,"void":false}"#),
        ("raw newline", "{\"note\": \"line one\nline two\"}", #"{"note":"line one\nline two"}"#),
        ("unescaped inner quote", #"{"name": "27" Monitor", "qty": 1}"#, #"{"name":"27\" Monitor","qty":1}"#),
        ("surrogate pair", #"{"d": "Burger \ud83c\udf54"}"#, #"{"d":"Burger 🍔"}"#),
        ("unquoted keys", "{merchant: \"Aldi\", total: 4}", #"{"merchant":"Aldi","total":4}"#),
        ("missing comma", "{\"a\": 1\n\"b\": 2}", #"{"a":1,"b":2}"#),
        ("missing closing quote before next member", "{\"a\": \"x\n\"b\": 2}", #"{"a":"x","b":2}"#),
        ("number liberties", #"{"a": +1, "b": .5}"#, #"{"a":1,"b":0.5}"#),
    ])
    func repairsBrokenSyntax(name: String, input: String, expected: String) {
        let result = JSONRepairer.repair(input)
        #expect(result.value?.jsonText() == expected, "\(name)")
        #expect(!result.wasTruncated, "\(name)")
    }

    /// Truncated replies: unfinished scalars and items are dropped, never completed.
    @Test(arguments: [
        (#"{"merchant": "Tesco", "amount": 76."#, #"{"merchant":"Tesco"}"#),
        (#"{"merchant": "Tesco", "amount": 12"#, #"{"merchant":"Tesco"}"#),
        (#"{"date": "2024-03-1"#, #"{}"#),
        (#"{"a": 1, "tip": nu"#, #"{"a":1}"#),
        (#"{"a": 1, "tip": true"#, #"{"a":1}"#),
        (#"{"a": 1, "mercha"#, #"{"a":1}"#),
        (#"{"a": 1, "merchant""#, #"{"a":1}"#),
        (#"{"a": 1, "merchant": "#, #"{"a":1}"#),
        (
            #"{"items": [{"name": "Tea", "totalPrice": 2.5}, {"name": "Cake", "totalPrice": 3.9"#,
            #"{"items":[{"name":"Tea","totalPrice":2.5}]}"#
        ),
        (#"{"items": [{"name": "Tea"}, {"name": "Ca"#, #"{"items":[{"name":"Tea"}]}"#),
        (#"{"items": [{"name": "Tea"}, "#, #"{"items":[{"name":"Tea"}]}"#),
        (#"{"a": 12.5,"#, #"{"a":12.5}"#),
        (#"{"d": "x \ud83c"#, #"{}"#),
        (#"{"d": "x \ud83c\udf"#, #"{}"#),
        (#"{"d": "x \"#, #"{}"#),
        ("```json\n{\"a\": 1, \"b\": 2", #"{"a":1}"#),
    ])
    func dropsUnfinishedValues(input: String, expected: String) {
        let result = JSONRepairer.repair(input, providerReportedTruncation: true)
        #expect(result.value?.jsonText() == expected)
        #expect(result.wasTruncated)
    }

    @Test func reportsWhatWasDropped() {
        let result = JSONRepairer.repair(#"{"merchant": "Tesco", "items": [{"name": "Tea"}, {"name": "Cake", "tot"#)
        let dropped = result.notes.filter { $0.kind == .dropped }.map(\.path)
        #expect(dropped.contains("items[1]"))
        #expect(result.isUsable)
    }

    @Test func keepsNumbersAsSourceText() {
        let result = JSONRepairer.repair(#"{"amount": 1297.98, "big": 12345678901234567890.01}"#)
        #expect(result.value?["amount"] == .number("1297.98"))
        #expect(result.value?["big"] == .number("12345678901234567890.01"))
    }

    @Test func refusesAThousandsSeparatorInABareNumber() {
        let result = JSONRepairer.repair(#"{"amount": 1,234.56, "currency": "USD"}"#)
        #expect(result.value?["amount"] == nil)
        #expect(result.value?["currency"] == .string("USD"))
        #expect(result.notes.contains { $0.kind == .dropped && $0.path == "amount" })
    }

    @Test(arguments: ["", "I could not read this receipt.", "```\n```", "{", "[", "null"])
    func findsNothingUsableInEmptyOrProse(input: String) {
        #expect(!JSONRepairer.repair(input).isUsable)
    }

    @Test func printsValidJSONThatFoundationReadsBack() throws {
        let value = JSONRepairer.repair("{'a': 'quote \" backslash \\\\ tab \t', 'b': [1.50, null, True]}").value
        let text = try #require(value?.jsonText(indent: 2))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect(matchesFoundation(try #require(value), parsed))
    }
}

@Suite("JSON repair: damaged input never crashes")
struct RepairRobustnessTests {
    /// A small deterministic generator, so a failure can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    @Test func survivesRandomDamageAndAlwaysPrintsValidJSON() throws {
        let documents = try RepairFixtures.receiptDocuments()
        var generator = SeededGenerator(state: 42)
        let noise: [String] = [
            "\"", "'", "{", "}", "[", "]", ",", ":", "\\", "\n", "/*", "//", "```", "“", "\\ud83d", "1,2",
        ]
        for round in 0..<1500 {
            var scalars = Array(documents[round % documents.count].text.unicodeScalars)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<scalars.count, using: &generator)
                if Bool.random(using: &generator) {
                    scalars.remove(at: index)
                } else {
                    scalars.insert(contentsOf: noise.randomElement(using: &generator)!.unicodeScalars, at: index)
                }
            }
            let result = JSONRepairer.repair(String(String.UnicodeScalarView(scalars)))
            if let text = result.value?.jsonText() {
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil,
                    "round \(round): printed JSON does not parse")
            }
        }
    }
}
