/// What a person set on one receipt, from its audit trail: the rule that a person's word outlives every later machine
/// write of the expense (a worker's commit, a reprocess, a re-categorization). Each field keeps its latest person
/// value, an accept or reject keeps its status and leaves no reason to wait, and an edited item list stays the
/// person's. Both review stores read a receipt through it, so the rule is written once.
public struct PersonCorrections: Sendable, Equatable {
    /// Each corrected field's latest person value (nil when the person cleared it).
    public private(set) var values: [CorrectableField: String?] = [:]
    /// The person's latest decision, as the status it set.
    public private(set) var status: ExpenseStatus?
    /// Whether a person edited the receipt's items (their list is then the receipt's list).
    public private(set) var editedItems = false

    /// - Parameter trail: the receipt's corrections, oldest first.
    public init(_ trail: [Correction]) {
        for correction in trail {
            switch correction.field {
            case .field(let field): values[field] = .some(correction.personValue)
            case .status: status = correction.personValue.flatMap(ExpenseStatus.init)
            case .item: editedItems = true
            }
        }
    }

    /// Whether a person corrected `field`.
    public func corrected(_ field: CorrectableField) -> Bool { values[field] != nil }

    /// A field's value as it stands: the person's latest, else the machine's.
    public func value(_ field: CorrectableField, machine: String?) -> String? {
        values[field] ?? machine
    }

    /// The status as it stands: the person's decision, else the machine's.
    public func status(machine: ExpenseStatus) -> ExpenseStatus { status ?? machine }

    /// Why the receipt waits: the machine's reasons, none once a person accepted or rejected it.
    public func reasons(machine: [ReviewReason]) -> [ReviewReason] { clearsReasons ? [] : machine }

    /// Whether a person's accept or reject resolved the receipt, so it keeps no reason to wait.
    public var clearsReasons: Bool { status.map { $0 != .needsReview } ?? false }

    /// Whether the date reads both ways as it stands: never once a person set it.
    public func dateIsAmbiguous(machine: Bool) -> Bool { machine && !corrected(.date) }
}
