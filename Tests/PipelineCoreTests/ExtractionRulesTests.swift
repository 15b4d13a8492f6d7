import Foundation
import PipelineCore
import Testing

/// Rules on short OCR texts: totals by keyword and arithmetic, dates by locale, currencies by cues.
@Suite struct ExtractionRulesTests {
    @Test func totalIsTheAmountTheOthersExplainNotTheLargest() {
        let page = OCRPage(
            text: """
                CORNER CAFE
                Latte 4.50
                Bagel 3.20
                SUBTOTAL 7.70
                TAX 0.62
                TOTAL 8.32
                CASH 20.00
                CHANGE 11.68
                """)

        let draft = ReceiptExtractor.extract(page)

        #expect(draft.total?.value == money("8.32"))
        #expect(draft.subtotal?.value == money("7.70"))
        #expect(draft.tax?.value == money("0.62"))
        #expect(draft.paymentMethod?.value == .cash)
        #expect(draft.items.map(\.name) == ["Latte", "Bagel"])
        #expect(draft.total?.sourceLines == [5])
    }

    /// A page that prints all its money in whole units, in thousands groups (rupiah, dong, won, yen), has its grouped
    /// numbers read as money: with commas, or with points where its currency has no minor units in use or its words
    /// are Malay or Indonesian (`TUNAI`, `KEMBALI`). Points without either are also three decimals (`6.900` rials), so
    /// that page's total is left to a person. A page of bare whole numbers (`Grand Total 2230`) reads them as money
    /// where no currency with minor units is named: in ringgit they are decimals OCR lost. Indonesian tax lines
    /// (`PPN`, `Pajak`) are tax.
    @Test(
        arguments: [
            (
                "WARUNG SEDERHANA\nNasi Goreng 1 25,000\nEs Teh 2 10,000\nSUBTOTAL 35,000\nPPN 10% 3,500\nTOTAL 38,500"
                    + "\nTUNAI 50,000\nKEMBALI 11,500", "38500", "3500"
            ),
            ("WARUNG SEDERHANA\nNasi Goreng Rp25.000\nEs Teh Rp10.000\nTOTAL Rp35.000\nTUNAI Rp50.000", "35000", nil),
            ("CAFE MUSCAT\nRibeye 6.900\nWater 1.000\nCheesecake 2.500\nTotal 10.400", nil, nil),
            (
                "WARUNG SARI\n2 Jus Alpukat 88.000\n3 Ayam Bakar 61.500\nTotal Bayar 149.500\nTUNAI 200.000"
                    + "\nKEMBALI 50.500", "149500", nil
            ),
            ("CORNER CAFE\nLatte 4.50\nBagel 1,234\nTOTAL 8.32", "8.32", nil),
            ("HAIR & BEAUTY\nHair cut 250\nShave 80\nFacial 1900\nGrand Total 2230", "2230", nil),
            ("MAGASIN CHIN LEE\nPRETZEL 540\nHINANO PACK 5520\nCHARDONNAY 4590\nTOTAL XPF 10650", "10650", nil),
            ("KEDAI MAKAN SDN BHD\nNasi Lemak 650\nTeh Tarik 250\nTOTAL RM 900", nil, nil),
        ] as [(String, String?, String?)])
    func moneyInWholeUnitsIsReadWhereThePagePrintsItSo(_ text: String, _ total: String?, _ tax: String?) {
        let draft = ReceiptExtractor.extract(OCRPage(text: text))

        #expect(draft.total?.value == total.map(money))
        #expect(draft.tax?.value == tax.map(money))
    }

    @Test func totalWithoutKeywordComesFromTenderedMinusChange() {
        let page = OCRPage(
            text: """
                KEDAI RUNCIT AH SENG
                SUB-TOTAL 12.30
                GST 6% 0.74
                T0TAI 13.04
                CASH 50.00
                CHANGE 36.96
                """)

        let draft = ReceiptExtractor.extract(page)

        #expect(draft.total?.value == money("13.04"))
    }

    /// A decimal point read as a space or a dash at the end of a keyword line (`sroie_052`'s `GRAND TOTAL 10 00`,
    /// `sroie_509`'s `CASH 30-00`) is still the amount's; a date after a dash (`28-05`) ending a name line is not.
    @Test func aDecimalPointReadAsASpaceOrADashEndingAKeywordLine() {
        let draft = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    SUPER SEVEN CASH & CARRY 28-05
                    JALAN JALAN 1 10.00 0.00 10.00
                    SUB TOTAL 10.00
                    GRAND TOTAL 10 00
                    CASH 30-00
                    CHANGE DUE 20.00
                    """))

        #expect(draft.total?.value == money("10.00"))
        #expect(draft.total?.sourceLines.contains(3) == true)
        #expect(draft.amountTendered?.value == money("30.00"))
        #expect(draft.amountTendered?.sourceLines == [4])
    }

    /// sroie_395 as Tesseract read it: no amount on a total line is legible, so what was paid less the change is the
    /// total, not the cash handed over.
    @Test func illegibleTotalLinesLeaveTenderedMinusChange() {
        let page = OCRPage(
            text: """
                Yam Fresh
                208 Yam Fresh Signature-C 1 RM7 90
                Sun- Tota | RM7 90
                6% GSI RMO.A7
                Rounding “RMD 02
                Grand Total ev 235
                Cash RM10.50
                Change RM2.15
                """)

        let draft = ReceiptExtractor.extract(page)

        #expect(draft.total?.value == money("8.35"))
    }

    @Test func subtotalTakenAsTheTotalIsMarkedInferred() {
        // Redix: the grand total and the tax were misread ("$0.1]"), so only the subtotal's amount is legible.
        let page = OCRPage(
            text: """
                Redix, Inc
                1 Candy $0.10
                SubTotal $0.10
                Sales Tax $0.0]
                Grand Total $0.1]
                """)
        let legible = OCRPage(
            text: """
                Redix, Inc
                1 Candy $0.10
                SubTotal $0.10
                Sales Tax $0.01
                Grand Total $0.11
                """)

        let draft = ReceiptExtractor.extract(page)

        #expect(draft.total?.value == money("0.10"))
        #expect(draft.isTotalInferred)
        #expect(ReceiptExtractor.extract(legible).total?.value == money("0.11"))
        #expect(!ReceiptExtractor.extract(legible).isTotalInferred)
    }

    @Test func secondCopyOfTheReceiptDoesNotAddItsTaxAgain() {
        // The receipt printed twice; the second copy's tax and total misread (0.09, 169.09).
        let page = OCRPage(
            text: """
                1 INTERIOR DETAIL- CAR $115.00
                1 ENZYME/BACTERIA REMOVAL $54.00
                SUBTOTAL: $169.00
                TAXES: $0.00
                TOTAL: $169.00
                1 INTERIOR DETAIL- CAR $115.00
                1 ENZYME/BACTERIA REMOVAL $54.09
                SUBTOTAL: $169.00
                TAXES; $0.09
                TOTAL: $169.09
                """)

        let draft = ReceiptExtractor.extract(page)

        #expect(draft.tax?.value == money("0.00"))
    }

    @Test(arguments: [
        // "Si btotal": a misread SUBTOTAL is not a total line.
        ("pop shirt 1 $10.00\nSi btotal $10.00\nTotal Tax 7.0% $0.70\nMitte Total $10.70\nEFT Visa $10.70", "10.70"),
        // "Grand Totel 30.80" misread; paid less change and subtotal less coupon (GST included) agree on 30.90.
        (
            "Sub-Total : 45.70\nCoupon Discount : 14.80\nGrand Totel : 30.80\nPayment : 101.00\nChange Due : 70.10\n*6% GST Included : 1.75",
            "30.90"
        ),
    ])
    func totalSurvivesMisreadKeywordsAndAmounts(text: String, expected: String) {
        #expect(ReceiptExtractor.extract(OCRPage(text: text)).total?.value == money(expected))
    }

    /// "TOTAL INCLUDES 6% GST 1.51" states the tax the total includes (the foot of McDonald's receipts in Malaysia),
    /// while "Total (incl GST)" names the total: the line gives the tax, and no rival to the total.
    @Test func aLineSayingTheTotalIncludesTheTaxGivesTheTax() {
        let page = OCRPage(
            text: """
                2 ChicMcMuffin 11.00
                1 M Porridge 5.60
                1 BM 2HotCakes 10.00
                TakeOut Total(incl GST) 26.60
                Cash Tendered 100.00
                Change 73.40
                TOTAL INCLUDES 6% GST 1.51
                """)

        let draft = ReceiptExtractor.extract(page)

        #expect(draft.total?.value == money("26.60"))
        #expect(draft.tax?.value == money("1.51"))
    }

    @Test func roundedTotalWinsWhenARoundingLineIsPrinted() {
        let page = OCRPage(
            text: """
                TOTAL INCL GST 48.93
                ROUNDING ADJUSTMENT 0.02
                TOTAL AFTER ROUNDING 48.95
                CASH 50.00
                CHANGE 1.05
                """)

        #expect(ReceiptExtractor.extract(page).total?.value == money("48.95"))
    }

    @Test func illegibleRoundedTotalComesFromPaidLessChange() {
        let page = OCRPage(
            text: """
                Total (Incl GST) RM21.83
                Rounding RM0.02
                Grand total M21 . 85
                Total Paid RM50.00
                Change RM28.15
                """)

        let draft = ReceiptExtractor.extract(page)

        #expect(draft.total?.value == money("21.85"))
        #expect(draft.total?.sourceLines == [3, 4])
        // Known only from the payment lines, it cannot be confirmed by them: a person checks it.
        #expect(ReviewPolicy.decide(Reconciler(tolerance: money("0.01")).reconcile(draft)).status == .needsReview)
    }

    @Test func taxSummaryTableDoesNotProvideTheTotal() {
        let page = OCRPage(
            text: """
                ITEM A 10.00
                TOTAL 10.60
                CASH 10.60
                GST SUMMARY AMOUNT TAX
                SR 6% 10.00 0.60
                TOTAL 10.00 0.60
                """)

        #expect(ReceiptExtractor.extract(page).total?.value == money("10.60"))
    }

    @Test func aTotalWithoutCentsIsNotACandidate() {
        let ringgit = OCRPage(text: "KEDAI\nNASI LEMAK 5.00\nTOTAL 10 00\nCASH 5.00")

        #expect(ReceiptExtractor.extract(ringgit).total?.value != 1000)
    }

    @Test(arguments: [
        // Day and month both ≤ 12: the page's country orders them (ringgit, a US address, pounds) and the date is
        // no longer in doubt; with no evidence it is read day first and stays flagged.
        ("Date: 11/01/2019", "RM 5.00", "2019-01-11", false),
        ("Date: 11/01/2019", "5.00", "2019-01-11", true),
        ("Date: 25/01/2019", "RM 5.00", "2019-01-25", false),
        ("Date: 01/11/2019", "$ 5.00 New York NY 10017", "2019-01-11", false),
        ("05/12/2016 14:02", "£5.55", "2016-12-05", false),
        ("2018-03-24 12:01", "RM 5.00", "2018-03-24", false),
        ("24-MAR-2018", "RM 5.00", "2018-03-24", false),
        ("OCT 3, 2016 7:41 PM", "$4.00", "2016-10-03", false),
        ("DATE 2O/O3/2O18", "RM 5.00", "2018-03-20", false),
        ("29/07/16 12:13", "RM 5.00", "2016-07-29", false),
        ("Date/Time : 20180428/191204", "RM 5.00", "2018-04-28", false),
        // PP-OCR joins a date and a time into one word (train sroie_409, sroie_421).
        ("Date : 14/05/201812:14:08 PM", "RM 5.00", "2018-05-14", false),
        ("18:1524/05/18", "RM 5.00", "2018-05-24", false),
        ("14-11-1908:43", "RM 5.00", "2019-11-14", false), ("2023-04-2407:26", "RM 5.00", "2023-04-24", false),
        // A stray digit glued after the year, before the time (a speckle read as `1`).
        ("24-09-20241 19:29", "RM 5.00", "2024-09-24", false),
        // The hour of the time after a date is not its year (Micros-style `CLOSED 18 Feb 14 13:04:18`).
        ("CLOSED 18 Feb 14 13:04:18", "£5.55", "2014-02-18", false),
        // A word before the day that is no month does not take the day from the month after it.
        ("-3 CLOSED 23 Nov 17 12:19:48-", "RM 5.00", "2017-11-23", false),
        // A month's letters read as look-alike digits, before or after the day.
        ("Tbl 2/1 Chk 2334 Ju103'12 02:34PM", "$5.00", "2012-07-03", false),
        ("Ju1/15/2017.12:25", "$5.00", "2017-07-15", false),
        ("270ec'16 17:58", "$5.00", "2016-12-27", false),
        // `Apr01'18` with its apostrophe read as a colon, a time after it.
        ("Chk 4781 Apr01:18 12:11P Gst 0", "$5.00", "2018-04-01", false),
        // The day's first digit read as a letter, glued to the month (WildReceipt wr_80_7_4a4e…, wr_46_18_369b…).
        ("JUNO3'14 2:40PM", "$5.00", "2014-06-03", false), ("APRI1'17 4:03PM", "$5.00", "2017-04-11", false),
        // A full month name, and one cut short.
        ("16 NOVEMBRE 2021", "5,00 €", "2021-11-16", false), ("Sept 3, 2016", "$4.00", "2016-09-03", false),
    ])
    func readsDates(line: String, moneyLine: String, expected: String, isAmbiguous: Bool) {
        let page = OCRPage(text: "SHOP\n\(line)\nTOTAL \(moneyLine)")

        let date = ReceiptExtractor.extract(page).date

        #expect(date.map { "\($0.value)" } == expected)
        #expect(date?.value.isAmbiguous == isAmbiguous)
    }

    /// A word that only starts like a month names none: the server `Marcos` is no March (`Marcos 02,22/2014` was
    /// read as 2 March 2022, train wr_59_20_c803…), nor is `Augusta` August.
    @Test(arguments: ["Server: Marcos 02,22/2014", "AUGUSTA 12 2019"])
    func aWordStartingLikeAMonthIsNoMonth(line: String) {
        let page = OCRPage(text: "SHOP\n\(line)\nTOTAL $5.00")

        #expect(ReceiptExtractor.extract(page).date == nil)
    }

    @Test func compactDigitsAreADateOnlyOnADateLine() {
        let invoice = OCRPage(text: "SHOP\nInvoice 20180428\nTOTAL RM 5.00")

        #expect(ReceiptExtractor.extract(invoice).date == nil)
    }

    @Test func ambiguousDateIsFlaggedInTheNotes() {
        // Nothing on the page names a country (no currency, VAT id, address or other date), so nothing decides.
        let page = OCRPage(text: "SHOP\n03/04/2018\nTOTAL 9.00")

        let draft = ReceiptExtractor.extract(page)

        #expect(draft.date?.value == ReceiptDate(year: 2018, month: 4, day: 3, isAmbiguous: true))
        #expect(draft.notes.contains { $0.code == .ambiguousDate && $0.field == .date })
        #expect((draft.date?.confidence ?? 1) < 0.8)
    }

    @Test(arguments: [
        ("ABC TRADING SDN BHD\nTOTAL 5.00", "MYR"),
        ("SHOP\nTOTAL RM5.00", "MYR"),
        ("CAFE\nTOTAL €5,00", "EUR"),
        ("PUB\nTOTAL £5.00", "GBP"),
        ("DINER\nAUSTIN TX 78701\nTOTAL $5.00", "USD"),
        ("TIM'S\nTORONTO ON\nHST 0.65\nTOTAL $5.65", "CAD"),
        // Malaysian receipts as Tesseract read them (sroie_110, sroie_249, sroie_515): GST is not Canada's there, a
        // misread company suffix still counts, and an invoice number is not a US state and ZIP code.
        ("JALAN IPOH BATU 5, 51200\n| MALAYSIA\nINVOICE NO CS 23304\nGST Summary = Amount( FM) Tax( RM)", "MYR"),
        ("OPP JALAN FUL\nINVGLCE AO: GS 10090\nTotal Excl of GST Teg 84", "MYR"),
        ("AIK HUAT HARLWARL\nALAM) SIN BH\nGST SUMMARY", "MYR"),
        // Indonesian words that Malaysian receipts do not use: the restaurant tax and `kembalian` for change.
        ("WARUNG SARI\nNasi Uduk 25.000\nPB1 10% 2.500\nTotal 27.500\nKembalian 2.500", "IDR"),
        // A Malaysian GST registration number (sroie_235), with no other Malaysian cue.
        ("HARDWARE SHOP\nGST NO. : 001800839168\nGST 6% 0.42\nTOTAL 7.42", "MYR"),
        // A point-of-sale header's guest count is no GST (wr_47_18 and wr_16_11 of WildReceipt), and a US state
        // with its ZIP code is the United States even in a city named Ontario.
        ("FISH\nNew York, NY 10014\nTel:(212) 727-2879\nTb1 2/1 Chk 2334 Gst 1\nTOTAL $5.00", "USD"),
        ("PHO KING\n1260 E. Ontario Ave\nOntario, CA 91764\nTOTAL $5.00", "USD"),
    ])
    func detectsCurrency(text: String, expected: String) {
        #expect(ReceiptExtractor.extract(OCRPage(text: text)).currency?.value == expected)
    }

    /// A page that prints one moment twice with dates a digit apart (sroie_090 as Tesseract read it: `19/03/2017`
    /// above `13/03/2017`, seconds apart) holds its date for a person: one of them is misread. An order date and a
    /// due date, at another time or none, and dates further apart are two dates; a line read two ways (`10 Mar 2018
    /// 18:24` is also March 20) prints one.
    @Test(arguments: [
        ("SHOP SDN BHD\nDate : 19/03/2017 03:00:42PM\nTOTAL RM 5.00\nPrint Date: 13/03/2017 03:00:44PM", true),
        ("SHOP SDN BHD\nDate : 10/03/2018 10:15\nTOTAL RM 5.00\nDue : 11/03/2018", false),
        ("SHOP SDN BHD\nDate : 10/03/2018 10:15\nTOTAL RM 5.00\nPrinted 11/03/2018 18:40", false),
        ("SHOP SDN BHD\nDate : 19/03/2017 03:00PM\nTOTAL RM 5.00\nPrint Date: 13/04/2017 03:00PM", false),
        ("SHOP SDN BHD\n10 Mar 2018 18:24\nTOTAL RM 5.00", false),
    ])
    func datesADigitApartAtOneMomentHoldTheDate(_ text: String, _ holds: Bool) throws {
        let draft = ReceiptExtractor.extract(OCRPage(text: text))
        let disagreement = draft.notes.first { $0.code == .datesDisagree }

        #expect((disagreement != nil) == holds, "\(draft.notes)")
        if holds {
            let finding = try #require(disagreement)
            #expect(finding.field == .date)
            #expect(ReviewPolicy.reason(for: finding) == .dateNotSure)
        }
    }

    /// A date read with a digit repaired holds the date for a person: `201o` was 2016 on the page it comes from
    /// (wr_56_2 of WildReceipt), `D2/O2/17` and a day `92` (Tesseract's sroie_246 and sroie_211) were read right, so
    /// which digit was printed is a guess. A misread month's letters (`JU119'14`, read as `JUL19'14`) are no digit,
    /// and a date printed again without a repair is read as printed.
    @Test(arguments: [
        ("SHOP\nDate: 07-03-201o Time: 6:04PM\nTOTAL $5.00", "2010-07-03", true),
        ("SHOP SDN BHD\nInv No : 6KI30785499 Date:D2/O2/17\nTOTAL RM 5.00", "2017-02-02", true),
        ("SHOP SDN BHD\nDoc No. CS00183846 Date: 92/02/2018\nTOTAL RM 5.00", "2018-02-02", true),
        ("SHOP\nJU119'14 12:36PM\nTOTAL $5.00", "2014-07-19", false),
        ("SHOP SDN BHD\nDate: 2O/03/2018\nTOTAL RM 5.00\nPrinted 20/03/2018", "2018-03-20", false),
    ])
    func aDateReadWithADigitRepairedHoldsTheDate(_ text: String, _ date: String, _ holds: Bool) throws {
        let draft = ReceiptExtractor.extract(OCRPage(text: text))
        let repaired = draft.notes.first { $0.code == .dateRepaired }

        #expect(draft.date?.value.description == date)
        #expect((repaired != nil) == holds, "\(draft.notes)")
        if holds {
            let finding = try #require(repaired)
            #expect(finding.field == .date)
            #expect(ReviewPolicy.reason(for: finding) == .dateNotSure)
        }
    }

    @Test func unknownCurrencyStaysNil() {
        #expect(ReceiptExtractor.extract(OCRPage(text: "SHOP\nTOTAL 5.00")).currency == nil)
    }

    @Test func merchantSkipsNoiseAndRegistrationNumbers() {
        let page = OCRPage(
            text: """
                ~~ ..
                SOON HUAT MACHINERY ENTERPRISE (JM0352019-K)
                NO.53 JALAN PUTRA 1,
                TEL : 07-5647360
                TOTAL 5.00
                """)

        #expect(ReceiptExtractor.extract(page).merchant?.value == "SOON HUAT MACHINERY ENTERPRISE")
    }

    /// A greeting on top is receipt furniture in any of the languages read, as `WELCOME` is; so are the cashier's and
    /// the seller's lines (`Caissière`, `Vendeur`), as `CASHIER` and `SERVER` are.
    @Test(arguments: [
        ("Benvenuti", "Panificio Esposito\nVia Roma 12, Napoli", "TOTALE EURO 12,50"),
        ("Bienvenue chez nous", "Pharmacie Rousseau\n12 rue de Paris", "TOTAL TTC 12,50"),
        ("Gracias por elegirnos", "Ferretería Ruiz\nCalle Mayor 3, Madrid", "TOTAL 12,50"),
        ("Caissière Marie", "Boulangerie Moreau\n12 rue de Paris", "TOTAL TTC 12,50"),
    ])
    func aGreetingOnTopIsNoName(_ greeting: String, _ header: String, _ total: String) {
        let page = OCRPage(text: "\(greeting)\n\(header)\n1 Articolo 12,50\n\(total)")

        #expect(ReceiptExtractor.extract(page).merchant?.value == header.components(separatedBy: "\n")[0])
    }

    /// Merchant lines as Tesseract read them on real SROIE and WildReceipt receipts.
    @Test(arguments: [
        ("99 SPEED HART S/R ($19537-X)\nLOT PT. 2811, JALAN ANGSA,\nTAMAN BERKELEY\nTOTAL 5.00", "99 SPEED HART S/B"),
        (
            "MR. D.T.¥. (4) SIN BHD\nCo-REG;860671-1\nLOT 1851-4, JALAN KPB 4,\n(SELAYANG MALL)\nTOTAL 5.00",
            "MR. D.T.Y. (M) SDN BHD"
        ),
        ("A PIE THING\nFOUR QUARTERS SUN BHD ( lu/SU&9-P)\nNo.128G JLN SS21/35\nTOTAL 5.00", "FOUR QUARTERS SDN BHD"),
        ("(Caffe Nero\n677 Tottenham Court Rd\nVAT: 795871659\nTOTAL 5.00", "Caffe Nero"),
        // Two lower-case words are a name, not yet a sentence (a slogan).
        ("whole foods\nDOWNTOWN\nTOTAL 5.00", "whole foods"),
    ])
    func merchantReadsMisreadLegalSuffixes(text: String, expected: String) {
        #expect(ReceiptExtractor.extract(OCRPage(text: text)).merchant?.value == expected)
    }

    /// A receipt whose top lines hold no name (an address, items) and whose foot prints a web address.
    static func receiptWithoutAName(footer: String) -> OCRPage {
        OCRPage(
            text: """
                12 Main St, Oakland, CA 94607
                Latte 4.50
                Mocha 5.25
                Scone 3.75
                Croissant 4.00
                Espresso 3.00
                Cookie 2.50
                TOTAL 23.00
                \(footer)
                """)
    }

    @Test func merchantNeverFromAPointOfSaleServicesDomain() {
        let page = Self.receiptWithoutAName(footer: "squareup.com/receipts")

        let merchant = ReceiptExtractor.extract(page).merchant?.value ?? ""

        #expect(!merchant.lowercased().contains("squareup"))
    }

    /// A name the page prints twice is one answer: its second reading adds to the merchant's share instead of
    /// lowering it as a rival would (`MerchantExtractor.extract`).
    @Test func aNamePrintedTwiceIsOneAnswerNotTwoRivals() throws {
        let header = "GETRÄNKE FUCHS\nBahnhofstr. 18\n04109 Leipzig\n"
        let body = "Cola 1,29\nSUMME 1,29"
        let once = ReceiptExtractor.extract(OCRPage(text: header + body))
        let twice = ReceiptExtractor.extract(OCRPage(text: header + "Getränke Fuchs\n" + body))

        #expect(once.merchant?.value == "GETRÄNKE FUCHS")
        #expect(twice.merchant?.value == "GETRÄNKE FUCHS")
        let single = try #require(once.evidence?.merchant?.probability)
        let repeated = try #require(twice.evidence?.merchant?.probability)
        #expect(repeated > single, "share \(repeated) with the name twice, \(single) with it once")
    }

    @Test func merchantKeepsACapitalizedWordTesseractScoredZero() {
        func word(_ text: String, _ confidence: Double, left: Int) -> OCRWord {
            OCRWord(text: text, confidence: confidence, box: BoundingBox(left: left, top: 0, width: 50, height: 20))
        }
        let name = OCRLine(
            words: [word("GREEN", 0, left: 0), word("LANE", 89, left: 60), word("PHARMACY", 95, left: 120)],
            box: BoundingBox(left: 0, top: 0, width: 200, height: 20))
        // Logo noise before the name scores zero too, but is short and not capitalized.
        let noisy = OCRLine(words: [word("ees", 0, left: 0)] + name.words, box: name.box)

        for line in [name, noisy] {
            let page = OCRPage(lines: [line], width: 400, height: 100, meanConfidence: 80)
            #expect(ReceiptExtractor.extract(page).merchant?.value == "GREEN LANE PHARMACY")
        }
    }

    @Test func merchantInAStylizedFontWinsOverPlainLinesBelow() {
        func line(_ words: [(String, Double)], top: Int, height: Int = 20) -> OCRLine {
            let box = BoundingBox(left: 0, top: top, width: 300, height: height)
            return OCRLine(words: words.map { OCRWord(text: $0.0, confidence: $0.1, box: box) }, box: box)
        }
        // Tesseract scored the names 43 and 68; the lines below are read cleanly.
        let dresser = OCRPage(
            lines: [
                line([("KKKKKKKKKKKE", 55)], top: 0, height: 46), line([("Dresserwayne", 43)], top: 50, height: 82),
                line([("KKK", 65), ("KOK", 75), ("KKK", 67)], top: 140, height: 44),
                line([("Serial", 96), ("Interface", 96)], top: 190, height: 33),
                line([("Baud", 96), ("rate", 95)], top: 230, height: 32),
                line([("Data", 96), ("bit", 87)], top: 270, height: 29),
            ],
            width: 400, height: 200, meanConfidence: 80)

        #expect(ReceiptExtractor.extract(dresser).merchant?.value == "Dresserwayne")
    }

    /// A date carries how sure the engine was of its least sure digits, from its best printing: a misread digit
    /// (`01` for `07`) is where dates go wrong, and the trust model weighs it.
    @Test func aDateCarriesTheConfidenceOfItsLeastSureDigits() throws {
        func line(_ words: [(String, Double)], top: Int) -> OCRLine {
            let box = BoundingBox(left: 0, top: top, width: 300, height: 20)
            return OCRLine(words: words.map { OCRWord(text: $0.0, confidence: $0.1, box: box) }, box: box)
        }
        let page = OCRPage(
            lines: [
                line([("Date", 99), ("12/03/2024", 62)], top: 0),
                line([("12/03/2024", 97), ("10:15", 99)], top: 30),
                line([("Valid", 98), ("until", 98), ("13/04/2024", 71), ("23:59", 90)], top: 60),
            ],
            width: 400, height: 100, meanConfidence: 90)

        let dates = ReceiptExtractor.extractWithCandidates(page, reader: .ppocr).candidates.date
        let confidence = Dictionary(uniqueKeysWithValues: dates.map { ($0.value, $0.features[.ocrConfidence]) })

        #expect(try #require(confidence["2024-03-12"] ?? nil) == 0.97)
        #expect(try #require(confidence["2024-04-13"] ?? nil) == 0.71)
    }

    @Test func lineItemsKeepQuantityAndUnitPrice() {
        let page = OCRPage(
            text: """
                MARKET
                2 x Apple 1.50 3.00
                Bread 2.20
                SUBTOTAL 5.20
                TOTAL 5.20
                """)

        let items = ReceiptExtractor.extract(page).items

        #expect(items.count == 2)
        #expect(items.first?.name == "Apple")
        #expect(items.first?.quantity == 2)
        #expect(items.first?.unitPrice == money("1.50"))
        #expect(items.first?.totalPrice == money("3.00"))
        #expect(items.last?.quantity == nil)
    }

    /// An item printed with its unit price, over a line with the count, the unit price and the line total (`Sushi
    /// 1.80` / `4 X 1.80 7.20 SR`), is bought that many times; a count line whose unit price is not the item's
    /// amount, or whose numbers do not multiply out, leaves the item as printed.
    @Test func aCountLineWithItsTotalUnderAnItemPricedPerUnitIsThatItemsCount() {
        let items = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    SUSHI BAR
                    Sushi 1.80
                    4 X 1.80 7.20 SR
                    Sushi 2.80
                    2X 2.80 5.60 SR
                    Tea 1.30
                    10 X 1.80 18.00 SR
                    Soup 2.00
                    3 X 2.00 7.00 SR
                    Total (Excluding GST): 12.80
                    """)
        ).items
        #expect(items.map(\.name) == ["Sushi", "Sushi", "Tea", "Soup"])
        #expect(items.map(\.quantity) == [4, 2, nil, nil])
        #expect(items.map(\.totalPrice) == [money("7.20"), money("5.60"), money("1.30"), money("2.00")])
    }

    /// A weighed item priced on its detail line under a name line without an amount (`BANANAS` / `1.150kg @
    /// $2.65/kg 3.05`) is one item of that name, when the weight times the price per kilogram is the line's amount;
    /// a detail line whose last amount is the price per kilogram is no item.
    @Test func aWeighedDetailLineWithItsTotalPricesTheNameAboveIt() {
        let items = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    FOODTOWN
                    SUGAR 4.39
                    BANANAS
                    1.150kg @ $2.65/kg 3.05
                    Banany
                    1,353 kg × 7,43 zł/kg
                    SUBTOTAL 7.44
                    """)
        ).items
        #expect(items.map(\.name) == ["SUGAR", "BANANAS"])
        #expect(items.map(\.totalPrice) == [money("4.39"), money("3.05")])
    }

    /// A page that prints each item's numbers over its name (code, count, unit price, amount, then the name) names
    /// each item from the line below its numbers; one that prints the name over its numbers from the line above.
    @Test func itemNamesAreReadBelowTheirNumbersWherePrintedSo() {
        let below = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    HARDWARE SDN BHD
                    Item Qty S/Price Amount Tax
                    1811 1 13.57 13.57 SR
                    8'2X3
                    1042 4 18.55 74.20 SR
                    7' X 35# CORRUGATED ROOFING SHEET
                    1921 1 5.30 5.30 SR
                    NAIL (PER/PACK)
                    Total Sales (Excluding GST) 93.07
                    """)
        ).items
        #expect(below.map(\.name) == ["8'2X3", "7' X 35# CORRUGATED ROOFING SHEET", "NAIL (PER/PACK)"])
        #expect(below.map(\.totalPrice) == [money("13.57"), money("74.20"), money("5.30")])
        #expect(below.map(\.quantity) == [1, 4, 1])

        let above = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    RESTAURANT JIAWEI
                    Fish Head (S)
                    1 35.00 35.00
                    Chinese Tea
                    2 0.60 1.20
                    Sub Total RM 36.20
                    """)
        ).items
        #expect(above.map(\.name) == ["Fish Head (S)", "Chinese Tea"])
        #expect(above.map(\.totalPrice) == [money("35.00"), money("1.20")])
    }

    /// A total line above another with the tax and a rounding printed between them (`Total Sales Amount 33.00`, `GST
    /// 6% 1.98`, `Rounding Adjustment 0.02`, `TOTAL 35.00`) is the bill before tax: the lower one is the total, though
    /// the items add up to the upper one.
    @Test func aTotalLineThatTheTaxBelowItCompletesIsTheBillBeforeTax() {
        let draft = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    A04053
                    DUCK HOUSE RESTAURANT
                    Company Reg.No: JM0681589-W
                    5,JALAN PERMAS 10/5,
                    BANDAR BARU PERMAS JAYA,
                    81750 JOHOR BAHRU.JOHOR
                    TEL/FAX:07-3886322
                    Table
                    TAX INVOICE
                    Inv No: 199977
                    Cashier: c001-
                    Date : 07/04/2018 - 18.10:59
                    Qty Description Total (RM) Tax
                    1 106 33.00 SR
                    #TAKE AWAY#
                    Total Sales Amount 33.00
                    GST 6% 1.98
                    Rounding Adjustment 0.02
                    TOTAL 35.00
                    CASH 55.00
                    Change Returned 20.00-
                    Item Count : 1
                    GST Summary Amount (RM) Tax(RM)
                    SR = 6% 33.00 1.98
                    Thank You!
                    Please Come Again
                    Goods Sold Are Not Returnable!
                    Closed by - c001- 07/04/2018-18:11:05
                    """))
        #expect(draft.items.map(\.totalPrice) == [money("33.00")])
        #expect(draft.total?.value == money("35.00"))
    }

    /// `Reg` in an item's name is its regular size (`1 Coca Cola Reg 2.25`), not a register's number: the line is an
    /// item; a line of receipt wording with an amount (`Table 12 Guests 2`, `Card 5.00`) still is not.
    @Test func aRegularSizeIsAnItem() {
        let items = ReceiptExtractor.extract(
            OCRPage(text: "PIZZA COMPANY\n1 Coca Cola Reg 2.25\n1 Thai Chicken 12.95\nCard 5.00\nSub-Total 15.20")
        ).items
        #expect(items.map(\.name) == ["Coca Cola Reg", "Thai Chicken"])
        #expect(items.map(\.totalPrice) == [money("2.25"), money("12.95")])
    }

    @Test func emptyPageGivesAnEmptyDraft() {
        let draft = ReceiptExtractor.extract(OCRPage(lines: [], width: 0, height: 0, meanConfidence: 0))

        #expect(draft.total == nil && draft.merchant == nil && draft.date == nil && draft.items.isEmpty)
    }

    /// A service charge printed in a point-of-sale abbreviation (`Serv. Charge`, `Srv Chg`) is a fee, so the
    /// subtotal, the charge and the tax add up to the total.
    @Test(arguments: ["Serv. Charge (10%): 2.00", "10% Srv Chg 2.00", "SVC CHG 2.00", "Service Charge 2.00"])
    func anAbbreviatedServiceChargeIsAFee(_ line: String) {
        let draft = ReceiptExtractor.extract(
            OCRPage(text: "NOODLE HOUSE\nFried rice 20.00\nSubtotal 20.00\n\(line)\nGST 6% 1.32\nTOTAL 23.32"))
        #expect(draft.fees?.value == money("2.00"), "\(line)")
        #expect(Reconciler(tolerance: money("0.01")).reconcile(draft).outcome == .balanced, "\(line)")
    }

    /// A top line of one character repeated (`本本本…`, OCR noise over a logo) is no real word, so, however confidently
    /// read, it offers no candidate (`MerchantLineCandidateTests`); a name in a script with case below it is the
    /// page's first word line, upper case.
    @Test func aLineOfOneCharacterRepeatedIsNoRealWord() throws {
        let page = OCRPage(text: "本容本本末本本本本本本本家本本\nSUSHI YASUDA\nTOTAL 10.00")
        let candidates = ReceiptExtractor.extractWithCandidates(page, reader: .ppocr).candidates.merchant
        #expect(!candidates.contains { $0.value.hasPrefix("本") })
        let name = try #require(candidates.first { $0.value == "SUSHI YASUDA" })
        #expect(name.features[.realWordShare] == 1)
        #expect(name.features[.upperCase] == 1)
        #expect(name.features[.firstWordLine] == 1)
    }
}
