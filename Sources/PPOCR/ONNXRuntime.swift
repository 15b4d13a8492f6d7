import CONNXRuntime
import Synchronization

/// A failed ONNX Runtime call: which call, and the runtime's message.
struct ONNXRuntimeError: Error, CustomStringConvertible {
    let call: String
    let message: String
    var description: String { "\(call): \(message)" }
}

/// ONNX Runtime, opened once per process: the API table, one environment and the CPU memory description.
///
/// Every handle here is created once and never released before exit (the environment owns the thread pools
/// sessions share); all calls through `api` are thread-safe by ONNX Runtime's contract.
final class ONNXRuntime: @unchecked Sendable {
    // @unchecked Sendable: the pointers are set once in `init` and ONNX Runtime's own objects are thread-safe.
    let api: UnsafePointer<OrtApi>
    let environment: OpaquePointer
    let cpuMemory: OpaquePointer
    let allocator: OpaquePointer

    private static let opened = Mutex<[String: ONNXRuntime]>([:])

    /// The runtime for the library at `libraryPath`, opened on first use.
    /// - Throws: `ONNXRuntimeError` naming dlopen's reason when the library is missing or unusable.
    static func shared(libraryPath: String) throws(ONNXRuntimeError) -> ONNXRuntime {
        let result = opened.withLock { cache -> Result<ONNXRuntime, ONNXRuntimeError> in
            if let runtime = cache[libraryPath] { return .success(runtime) }
            do throws(ONNXRuntimeError) {
                let runtime = try ONNXRuntime(libraryPath: libraryPath)
                cache[libraryPath] = runtime
                return .success(runtime)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(libraryPath: String) throws(ONNXRuntimeError) {
        ort_limit_heap_growth()
        var reason: UnsafePointer<CChar>?
        guard let api = ort_open(libraryPath, &reason) else {
            throw ONNXRuntimeError(call: "dlopen", message: reason.map { String(cString: $0) } ?? "unknown reason")
        }
        self.api = api
        var environment: OpaquePointer?
        try Self.check(api, api.pointee.CreateEnv(ORT_LOGGING_LEVEL_ERROR, "ppocr", &environment), "CreateEnv")
        var memory: OpaquePointer?
        try Self.check(
            api, api.pointee.CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault, &memory), "CreateCpuMemoryInfo")
        var allocator: OpaquePointer?
        try Self.check(api, api.pointee.GetAllocatorWithDefaultOptions(&allocator), "GetAllocatorWithDefaultOptions")
        guard let environment, let memory, let allocator else {
            throw ONNXRuntimeError(call: "CreateEnv", message: "returned no object")
        }
        self.environment = environment
        self.cpuMemory = memory
        self.allocator = allocator
    }

    /// Throws the status's message (and releases it) when a call failed.
    func check(_ status: OpaquePointer?, _ call: String) throws(ONNXRuntimeError) {
        try Self.check(api, status, call)
    }

    private static func check(_ api: UnsafePointer<OrtApi>, _ status: OpaquePointer?, _ call: String)
        throws(ONNXRuntimeError)
    {
        guard let status else { return }
        let message = api.pointee.GetErrorMessage(status).map { String(cString: $0) } ?? "no message"
        api.pointee.ReleaseStatus(status)
        throw ONNXRuntimeError(call: call, message: message)
    }

    /// Takes a string the runtime allocated with the default allocator, and frees it.
    func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { _ = api.pointee.AllocatorFree(allocator, pointer) }
        return String(cString: pointer)
    }
}

/// A float tensor returned by a model run, read in place: its shape and values (valid only inside the reader).
struct FloatTensor {
    let shape: [Int]
    let values: UnsafeBufferPointer<Float>
}

/// One loaded model with one input and one output, run from one thread at a time.
final class ONNXSession {
    private let runtime: ONNXRuntime
    private let session: OpaquePointer
    private let inputName: String
    private let outputName: String

    /// Loads the model at `path` with `threads` intra-op threads (no spinning, no CPU arena: the arena keeps the
    /// largest batch's memory for the life of the process).
    init(runtime: ONNXRuntime, path: String, threads: Int) throws(ONNXRuntimeError) {
        self.runtime = runtime
        let api = runtime.api.pointee
        var options: OpaquePointer?
        try runtime.check(api.CreateSessionOptions(&options), "CreateSessionOptions")
        defer { api.ReleaseSessionOptions(options) }
        try runtime.check(api.SetIntraOpNumThreads(options, Int32(threads)), "SetIntraOpNumThreads")
        try runtime.check(api.SetInterOpNumThreads(options, 1), "SetInterOpNumThreads")
        try runtime.check(api.DisableCpuMemArena(options), "DisableCpuMemArena")
        try runtime.check(
            api.AddSessionConfigEntry(options, "session.intra_op.allow_spinning", "0"), "AddSessionConfigEntry")
        var session: OpaquePointer?
        try runtime.check(api.CreateSession(runtime.environment, path, options, &session), "CreateSession \(path)")
        guard let session else { throw ONNXRuntimeError(call: "CreateSession", message: "returned no session") }
        self.session = session
        do throws(ONNXRuntimeError) {
            var input: UnsafeMutablePointer<CChar>?
            try runtime.check(api.SessionGetInputName(session, 0, runtime.allocator, &input), "SessionGetInputName")
            var output: UnsafeMutablePointer<CChar>?
            try runtime.check(api.SessionGetOutputName(session, 0, runtime.allocator, &output), "SessionGetOutputName")
            inputName = runtime.takeString(input) ?? "x"
            outputName = runtime.takeString(output) ?? ""
        } catch {
            api.ReleaseSession(session)
            throw error
        }
    }

    deinit {
        runtime.api.pointee.ReleaseSession(session)
    }

    /// The value of a custom metadata key of the model, or nil when absent.
    func metadata(_ key: String) throws(ONNXRuntimeError) -> String? {
        let api = runtime.api.pointee
        var metadata: OpaquePointer?
        try runtime.check(api.SessionGetModelMetadata(session, &metadata), "SessionGetModelMetadata")
        defer { api.ReleaseModelMetadata(metadata) }
        var value: UnsafeMutablePointer<CChar>?
        try runtime.check(
            api.ModelMetadataLookupCustomMetadataMap(metadata, runtime.allocator, key, &value),
            "ModelMetadataLookupCustomMetadataMap")
        return runtime.takeString(value)
    }

    /// Runs the model on one float tensor and hands its output to `read` without copying it (the recognizer's
    /// output is tens of megabytes). `stop` can end the run early from another thread (cancellation).
    func run<T>(
        _ input: inout [Float], shape: [Int], stop: RunStop, read: (FloatTensor) throws(ONNXRuntimeError) -> T
    ) throws(ONNXRuntimeError) -> T {
        let api = runtime.api.pointee
        let dimensions = shape.map(Int64.init)
        var inputValue: OpaquePointer?
        let created = input.withUnsafeMutableBytes { buffer in
            dimensions.withUnsafeBufferPointer { dims in
                api.CreateTensorWithDataAsOrtValue(
                    runtime.cpuMemory, buffer.baseAddress, buffer.count, dims.baseAddress, dims.count,
                    Int32(ORT_TENSOR_FLOAT), &inputValue)
            }
        }
        try runtime.check(created, "CreateTensorWithDataAsOrtValue")
        defer { api.ReleaseValue(inputValue) }

        var outputValue: OpaquePointer?
        let status = inputName.withCString { inputPointer in
            outputName.withCString { outputPointer in
                var inputNames: [UnsafePointer<CChar>?] = [inputPointer]
                var outputNames: [UnsafePointer<CChar>?] = [outputPointer]
                var inputs: [OpaquePointer?] = [inputValue]
                return stop.during { options in
                    api.Run(session, options, &inputNames, &inputs, 1, &outputNames, 1, &outputValue)
                }
            }
        }
        try runtime.check(status, "Run")
        defer { api.ReleaseValue(outputValue) }
        return try read(tensor(outputValue))
    }

    private func tensor(_ value: OpaquePointer?) throws(ONNXRuntimeError) -> FloatTensor {
        let api = runtime.api.pointee
        var info: OpaquePointer?
        try runtime.check(api.GetTensorTypeAndShape(value, &info), "GetTensorTypeAndShape")
        defer { api.ReleaseTensorTypeAndShapeInfo(info) }
        var count = 0
        try runtime.check(api.GetDimensionsCount(info, &count), "GetDimensionsCount")
        var dimensions = [Int64](repeating: 0, count: count)
        try runtime.check(api.GetDimensions(info, &dimensions, count), "GetDimensions")
        var data: UnsafeMutableRawPointer?
        try runtime.check(api.GetTensorMutableData(value, &data), "GetTensorMutableData")
        let shape = dimensions.map { Int($0) }
        let elements = shape.reduce(1, *)
        guard let data, elements >= 0 else {
            return FloatTensor(shape: shape, values: UnsafeBufferPointer(start: nil, count: 0))
        }
        return FloatTensor(
            shape: shape, values: UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: elements))
    }
}

/// Run options that another thread can use to stop a run in progress (`RunOptionsSetTerminate`).
final class RunStop: Sendable {
    private let runtime: ONNXRuntime
    private let state = Mutex<(options: OpaquePointer?, stopped: Bool)>((nil, false))

    init(runtime: ONNXRuntime) {
        self.runtime = runtime
    }

    /// True once `stop()` was called.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops the run in progress, if any, and every later one.
    func stop() {
        state.withLock { state in
            state.stopped = true
            if let options = state.options { _ = runtime.api.pointee.RunOptionsSetTerminate(options) }
        }
    }

    /// Calls `body` with fresh run options that `stop()` can terminate.
    func during(_ body: (OpaquePointer?) -> OpaquePointer?) -> OpaquePointer? {
        let api = runtime.api.pointee
        var options: OpaquePointer?
        if let status = api.CreateRunOptions(&options) { return status }
        let stoppedAlready = state.withLock { state in
            state.options = options
            return state.stopped
        }
        if stoppedAlready { _ = api.RunOptionsSetTerminate(options) }
        let status = body(options)
        state.withLock { $0.options = nil }
        api.ReleaseRunOptions(options)
        return status
    }
}
