import PipelineCore

/// Which way up a page is read. A receipt scanned or photographed sideways or upside down, with no EXIF orientation
/// to say so, reads as text running down the page or as confident-looking garbage: its merchant, date and total are
/// lost. A page that reads like that is read again turned each other way, and the reading with the most confident
/// characters on horizontal lines is kept (`OCRPage.quarterTurns` says which).
///
/// On the 772 train and dev pages, all upright, the share of confident characters is 0.76 or more on 99% of them
/// (0.32 at the least) and the share on vertical lines at most 0.16; the ten shipped receipts turned a quarter or
/// upside down read 0.15 or less confident, or 0.34 or more vertical.
enum PageOrientation {
    /// A character read with at least this probability is confident.
    static let confidentProbability: Float = 0.9
    /// Below this share of confident characters a page may be upside down or sideways.
    static let minimumConfidentShare = 0.5
    /// Above this share of characters on vertical lines a page is sideways.
    static let maximumVerticalShare = 0.3

    /// Whether the page these regions were read from may be turned: few of its characters are confident, or many
    /// run down the page.
    static func mayBeTurned(_ regions: [RecognizedText]) -> Bool {
        let kept = regions.filter { $0.score >= PageAssembler.minimumScore }
        let characters = kept.reduce(0) { $0 + $1.characters.count }
        guard characters > 0 else { return false }
        let confident = kept.reduce(0) { $0 + confidentCharacters($1) }
        let vertical = kept.filter { !isHorizontal($0) }.reduce(0) { $0 + $1.characters.count }
        return Double(confident) < minimumConfidentShare * Double(characters)
            || Double(vertical) > maximumVerticalShare * Double(characters)
    }

    /// How well a reading reads upright: its confident characters on lines that run across the page.
    static func uprightCharacters(_ regions: [RecognizedText]) -> Int {
        regions.filter { $0.score >= PageAssembler.minimumScore && isHorizontal($0) }.reduce(0) {
            $0 + confidentCharacters($1)
        }
    }

    private static func confidentCharacters(_ region: RecognizedText) -> Int {
        region.characters.filter { $0.probability >= confidentProbability }.count
    }

    private static func isHorizontal(_ region: RecognizedText) -> Bool {
        abs(region.across.x) >= abs(region.across.y)
    }
}
