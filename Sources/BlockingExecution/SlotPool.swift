/// A fixed set of resources (one per worker slot, e.g. OCR engines), lent out one job at a time.
///
/// With as many concurrent jobs as resources nobody ever waits; extra callers wait in arrival order.
public actor SlotPool<Resource: Sendable> {
    /// Every resource, lent or not.
    public nonisolated let resources: [Resource]
    private var idle: [Resource]
    private var waiters: [CheckedContinuation<Resource, Never>] = []

    public init(_ resources: [Resource]) {
        self.resources = resources
        self.idle = resources
    }

    /// Runs `body` with a resource of its own, returning it to the pool afterwards.
    public func withResource<T: Sendable>(_ body: @Sendable (Resource) async throws -> T) async throws -> T {
        let resource = await acquire()
        defer { release(resource) }
        return try await body(resource)
    }

    private func acquire() async -> Resource {
        if let resource = idle.popLast() { return resource }
        return await withCheckedContinuation { waiters.append($0) }
    }

    private func release(_ resource: Resource) {
        if waiters.isEmpty {
            idle.append(resource)
        } else {
            waiters.removeFirst().resume(returning: resource)
        }
    }
}
