import Synchronization

/// A flag set by task cancellation and read by Tesseract's monitor callback on the engine thread.
final class CancellationFlag: Sendable {
    private let storage = Atomic(false)

    var isSet: Bool { storage.load(ordering: .acquiring) }

    func set() { storage.store(true, ordering: .releasing) }
}
