/// The expense category a brand's trade decides (docs/categories.md, "Brands"): each name-suggestion-index category
/// (`shop/supermarket`, `amenity/fuel`) maps to the expense category the labeling guideline gives that trade. A
/// category the guideline leaves to the items (a hairdresser, a kiosk, a car dealer) maps to none.
public enum BrandCategory {
    /// The expense category of one name-suggestion-index category, nil for trades the guideline does not settle.
    public static func expenseCategory(of category: String) -> ExpenseCategory? {
        let (key, value) = split(category)
        switch key {
        case "tourism":
            return ["hotel", "motel", "hostel", "caravan_site"].contains(value)
                ? .travel : value == "theme_park" ? .entertainment : nil
        case "leisure": return .entertainment
        case "healthcare": return .healthcare
        case "waterway": return value == "fuel" ? .transportation : nil
        case "amenity": return amenities[value]
        case "shop": return shops[value]
        default: return nil
        }
    }

    /// What a receipt sold, as far as a brand of several trades needs it: the labeling guideline files a fuel
    /// station's receipt with a fuel line under Transportation and one with only shop items under the shop's trade
    /// (docs/categories.md, "A fuel station's shop").
    public enum ReceiptGoods: Sendable, Equatable {
        /// A line of the receipt is fuel (an item rule giving `ItemCategory.fuel` matches it).
        case fuel
        /// Items were read and none is fuel.
        case shopItems
        /// No items were read and no line is fuel.
        case unknown
    }

    /// The expense category of a brand on one receipt: with a fuel line, its fuel station's trade when it has one;
    /// with only shop items, its trades other than the fuel station's when it has any (Intermarché's supermarkets,
    /// not its fuel stations; a fuel brand's shop). Among those, that of its likeliest tag that maps to one — the
    /// brand itself before a part of it (`IKEA` furniture before `IKEA Café`), then the tag printed under more names
    /// (a shop's tag counting one more: Shell's fuel with its eleven names before its shops, 7-Eleven's convenience
    /// stores before its fuel), then the tag operating in more countries (worldwide counts as all), then a shop's;
    /// nil when no tag maps to one.
    public static func expenseCategory(of brand: Brand, goods: ReceiptGoods) -> ExpenseCategory? {
        let ranked = brand.tags.compactMap { tag in expenseCategory(of: tag.category).map { (tag, $0) } }
        let fuelStation = ranked.filter { $0.0.category == fuelStationTag }
        let others = ranked.filter { $0.0.category != fuelStationTag }
        let chosen =
            switch goods {
            case .fuel: fuelStation.isEmpty ? ranked : fuelStation
            case .shopItems: others.isEmpty ? ranked : others
            case .unknown: ranked
            }
        return chosen.max { left, right in rank(left.0) < rank(right.0) }?.1
    }

    /// The name-suggestion-index category of a fuel station.
    private static let fuelStationTag = "amenity/fuel"

    private static func rank(_ tag: Brand.Tag) -> (Int, Int, Int, Int) {
        let isShop = tag.category.hasPrefix("shop/") ? 1 : 0
        let countries = tag.countries.contains("*") ? 250 : tag.countries.count
        return (tag.isMain ? 1 : 0, tag.otherNames.count + isShop, countries, isShop)
    }

    /// The category of a brand stored beside a merchant (`ExpenseDraft.brand`), nil for a name the index does not
    /// hold.
    public static func expenseCategory(ofBrandNamed name: String, goods: ReceiptGoods = .unknown) -> ExpenseCategory? {
        BrandIndex.shared.brand(named: name).flatMap { expenseCategory(of: $0, goods: goods) }
    }

    private static func split(_ category: String) -> (String, String) {
        let parts = category.split(separator: "/", maxSplits: 1).map(String.init)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }

    private static let amenities: [String: ExpenseCategory] = [
        "fast_food": .foodAndDining, "restaurant": .foodAndDining, "cafe": .foodAndDining, "bar": .foodAndDining,
        "pub": .foodAndDining, "ice_cream": .foodAndDining, "internet_cafe": .foodAndDining,
        "fuel": .transportation, "car_wash": .transportation, "parking": .transportation,
        "car_rental": .transportation, "car_sharing": .transportation, "bicycle_rental": .transportation,
        "motorcycle_rental": .transportation, "vehicle_inspection": .transportation,
        "pharmacy": .healthcare, "clinic": .healthcare, "dentist": .healthcare, "doctors": .healthcare,
        "hospital": .healthcare, "veterinary": .healthcare,
        "cinema": .entertainment, "casino": .entertainment, "gambling": .entertainment,
        "karaoke_box": .entertainment,
        "post_office": .business,
        "bureau_de_change": .travel,
        "school": .education, "college": .education, "university": .education, "language_school": .education,
        "music_school": .education, "driving_school": .education, "prep_school": .education, "training": .education,
    ]

    private static let shops: [String: ExpenseCategory] = {
        var shops: [String: ExpenseCategory] = [:]
        let groups: [(ExpenseCategory, String)] = [
            (
                .groceries,
                "supermarket convenience greengrocer butcher alcohol beverages wine cheese dairy deli frozen_food seafood "
                    + "spices nuts tea chocolate confectionery general country_store wholesale health_food"
            ),
            (.foodAndDining, "bakery pastry"),
            (
                .healthcare,
                "chemist medical_supply hearing_aids optician nutrition_supplements herbalist"
            ),
            (
                .shopping,
                "electronics computer mobile_phone mobile_phone_accessories appliance hifi camera video_games games "
                    + "doityourself hardware trade paint garden_centre power_tools tool_hire furniture bed kitchen "
                    + "houseware interior_decoration lighting carpet curtain flooring tiles doors bathroom_furnishing "
                    + "household_linen window_blind books stationery clothes shoes bag fashion_accessories leather "
                    + "jewelry watches sports outdoor bicycle fishing toys model craft art frame fabric gift party "
                    + "florist pet cosmetics perfumery department_store variety_store catalogue music "
                    + "musical_instrument baby_goods second_hand charity anime telecommunication car_parts tyres "
                    + "printer_ink photo video vacuum_cleaner candles pottery swimming_pool"
            ),
            (.transportation, "fuel"),
            (.business, "copyshop"),
            (.travel, "travel_agency"),
            (.entertainment, "ticket"),
        ]
        for (category, names) in groups {
            for name in names.split(separator: " ") { shops[String(name)] = category }
        }
        return shops
    }()
}
