// The part of ONNX Runtime's C API (onnxruntime_c_api.h, MIT, Microsoft) that the PP-OCR engine calls, declared
// here because no Debian or PyPI package ships the header. The API is one table of function pointers (`OrtApi`)
// reached through `OrtGetApiBase()->GetApi(version)`; its order is fixed and only ever appended to, so the table
// below keeps every slot up to the last one used, unused slots as pointer-sized gaps, each used slot checked by a
// static assertion against its index in the published header.
//
// The library is opened with dlopen at run time (ort_open below), not linked: the package builds and the Tesseract
// engine runs on machines without ONNX Runtime, and a missing library becomes one clear start error instead of a
// loader failure before main.
#pragma once
#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>

#define ORT_API_VERSION 32

typedef struct OrtEnv OrtEnv;
typedef struct OrtStatus OrtStatus;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtSession OrtSession;
typedef struct OrtValue OrtValue;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtModelMetadata OrtModelMetadata;
typedef struct OrtAllocator OrtAllocator;

typedef enum OrtLoggingLevel {
    ORT_LOGGING_LEVEL_VERBOSE,
    ORT_LOGGING_LEVEL_INFO,
    ORT_LOGGING_LEVEL_WARNING,
    ORT_LOGGING_LEVEL_ERROR,
    ORT_LOGGING_LEVEL_FATAL,
} OrtLoggingLevel;

typedef enum OrtAllocatorType {
    OrtInvalidAllocator = -1,
    OrtDeviceAllocator = 0,
    OrtArenaAllocator = 1
} OrtAllocatorType;
typedef enum OrtMemType { OrtMemTypeDefault = 0 } OrtMemType;
/// Only the element type used: 32-bit float.
enum { ORT_TENSOR_FLOAT = 1 };

typedef struct OrtApi {
    void *gap0[2];  // 0 CreateStatus, 1 GetErrorCode
    const char *(*GetErrorMessage)(const OrtStatus *status);                                     // 2
    OrtStatus *(*CreateEnv)(OrtLoggingLevel level, const char *logid, OrtEnv **out);              // 3
    void *gap4[3];  // 4 CreateEnvWithCustomLogger, 5 EnableTelemetryEvents, 6 DisableTelemetryEvents
    OrtStatus *(*CreateSession)(
        const OrtEnv *env, const char *model_path, const OrtSessionOptions *options, OrtSession **out);  // 7
    void *gap8[1];  // 8 CreateSessionFromArray
    OrtStatus *(*Run)(
        OrtSession *session, const OrtRunOptions *run_options, const char *const *input_names,
        const OrtValue *const *inputs, size_t input_count, const char *const *output_names, size_t output_count,
        OrtValue **outputs);                                                                     // 9
    OrtStatus *(*CreateSessionOptions)(OrtSessionOptions **out);                                // 10
    void *gap11[2];  // 11 SetOptimizedModelFilePath, 12 CloneSessionOptions
    void *gap13[6];  // 13 SetSessionExecutionMode … 18 EnableCpuMemArena
    OrtStatus *(*DisableCpuMemArena)(OrtSessionOptions *options);                               // 19
    void *gap20[4];  // 20 SetSessionLogId … 23 SetSessionGraphOptimizationLevel
    OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions *options, int threads);                // 24
    OrtStatus *(*SetInterOpNumThreads)(OrtSessionOptions *options, int threads);                // 25
    void *gap26[10];  // 26 CreateCustomOpDomain … 35 SessionGetOverridableInitializerTypeInfo
    OrtStatus *(*SessionGetInputName)(
        const OrtSession *session, size_t index, OrtAllocator *allocator, char **out);          // 36
    OrtStatus *(*SessionGetOutputName)(
        const OrtSession *session, size_t index, OrtAllocator *allocator, char **out);          // 37
    void *gap38[1];  // 38 SessionGetOverridableInitializerName
    OrtStatus *(*CreateRunOptions)(OrtRunOptions **out);                                        // 39
    void *gap40[6];  // 40 RunOptionsSetRunLogVerbosityLevel … 45 RunOptionsGetRunTag
    OrtStatus *(*RunOptionsSetTerminate)(OrtRunOptions *options);                               // 46
    OrtStatus *(*RunOptionsUnsetTerminate)(OrtRunOptions *options);                             // 47
    void *gap48[1];  // 48 CreateTensorAsOrtValue
    OrtStatus *(*CreateTensorWithDataAsOrtValue)(
        const OrtMemoryInfo *info, void *data, size_t data_length, const int64_t *shape, size_t shape_length,
        int element_type, OrtValue **out);                                                       // 49
    void *gap50[1];  // 50 IsTensor
    OrtStatus *(*GetTensorMutableData)(OrtValue *value, void **out);                            // 51
    void *gap52[9];  // 52 FillStringTensor … 60 GetTensorElementType
    OrtStatus *(*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);       // 61
    OrtStatus *(*GetDimensions)(const OrtTensorTypeAndShapeInfo *info, int64_t *values, size_t count);  // 62
    void *gap63[2];  // 63 GetSymbolicDimensions, 64 GetTensorShapeElementCount
    OrtStatus *(*GetTensorTypeAndShape)(const OrtValue *value, OrtTensorTypeAndShapeInfo **out);  // 65
    void *gap66[3];  // 66 GetTypeInfo, 67 GetValueType, 68 CreateMemoryInfo
    OrtStatus *(*CreateCpuMemoryInfo)(OrtAllocatorType type, OrtMemType mem_type, OrtMemoryInfo **out);  // 69
    void *gap70[6];  // 70 CompareMemoryInfo … 75 AllocatorAlloc
    OrtStatus *(*AllocatorFree)(OrtAllocator *allocator, void *pointer);                        // 76
    void *gap77[1];  // 77 AllocatorGetInfo
    OrtStatus *(*GetAllocatorWithDefaultOptions)(OrtAllocator **out);                           // 78
    void *gap79[13];  // 79 AddFreeDimensionOverride … 91 KernelContext_GetOutput
    void (*ReleaseEnv)(OrtEnv *env);                                                             // 92
    void (*ReleaseStatus)(OrtStatus *status);                                                    // 93
    void (*ReleaseMemoryInfo)(OrtMemoryInfo *info);                                              // 94
    void (*ReleaseSession)(OrtSession *session);                                                 // 95
    void (*ReleaseValue)(OrtValue *value);                                                       // 96
    void (*ReleaseRunOptions)(OrtRunOptions *options);                                           // 97
    void *gap98[1];  // 98 ReleaseTypeInfo
    void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *info);                      // 99
    void (*ReleaseSessionOptions)(OrtSessionOptions *options);                                   // 100
    void *gap101[10];  // 101 ReleaseCustomOpDomain … 110 SessionEndProfiling
    OrtStatus *(*SessionGetModelMetadata)(const OrtSession *session, OrtModelMetadata **out);    // 111
    void *gap112[4];  // 112 ModelMetadataGetProducerName … 115 ModelMetadataGetDescription
    OrtStatus *(*ModelMetadataLookupCustomMetadataMap)(
        const OrtModelMetadata *metadata, OrtAllocator *allocator, const char *key, char **value);  // 116
    void *gap117[1];  // 117 ModelMetadataGetVersion
    void (*ReleaseModelMetadata)(OrtModelMetadata *metadata);                                    // 118
    void *gap119[11];  // 119 CreateEnvWithGlobalThreadPools … 129 FillStringTensorElement
    OrtStatus *(*AddSessionConfigEntry)(OrtSessionOptions *options, const char *key, const char *value);  // 130
} OrtApi;

#define ORT_SLOT(name, index) _Static_assert(offsetof(OrtApi, name) == (index) * sizeof(void *), #name)
ORT_SLOT(GetErrorMessage, 2);
ORT_SLOT(CreateEnv, 3);
ORT_SLOT(CreateSession, 7);
ORT_SLOT(Run, 9);
ORT_SLOT(CreateSessionOptions, 10);
ORT_SLOT(DisableCpuMemArena, 19);
ORT_SLOT(SetIntraOpNumThreads, 24);
ORT_SLOT(SetInterOpNumThreads, 25);
ORT_SLOT(SessionGetInputName, 36);
ORT_SLOT(SessionGetOutputName, 37);
ORT_SLOT(CreateRunOptions, 39);
ORT_SLOT(RunOptionsSetTerminate, 46);
ORT_SLOT(RunOptionsUnsetTerminate, 47);
ORT_SLOT(CreateTensorWithDataAsOrtValue, 49);
ORT_SLOT(GetTensorMutableData, 51);
ORT_SLOT(GetDimensionsCount, 61);
ORT_SLOT(GetDimensions, 62);
ORT_SLOT(GetTensorTypeAndShape, 65);
ORT_SLOT(CreateCpuMemoryInfo, 69);
ORT_SLOT(AllocatorFree, 76);
ORT_SLOT(GetAllocatorWithDefaultOptions, 78);
ORT_SLOT(ReleaseEnv, 92);
ORT_SLOT(ReleaseStatus, 93);
ORT_SLOT(ReleaseMemoryInfo, 94);
ORT_SLOT(ReleaseSession, 95);
ORT_SLOT(ReleaseValue, 96);
ORT_SLOT(ReleaseRunOptions, 97);
ORT_SLOT(ReleaseTensorTypeAndShapeInfo, 99);
ORT_SLOT(ReleaseSessionOptions, 100);
ORT_SLOT(SessionGetModelMetadata, 111);
ORT_SLOT(ModelMetadataLookupCustomMetadataMap, 116);
ORT_SLOT(ReleaseModelMetadata, 118);
ORT_SLOT(AddSessionConfigEntry, 130);
#undef ORT_SLOT

typedef struct OrtApiBase {
    const OrtApi *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} OrtApiBase;

/// Opens the library at `path` and returns its API table for ORT_API_VERSION, or NULL with a reason in `error`
/// (dlopen's message, a missing entry point, or a library older than the version asked for).
static inline const OrtApi *ort_open(const char *path, const char **error) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        *error = dlerror();
        return NULL;
    }
    const OrtApiBase *(*get_base)(void) = (const OrtApiBase *(*)(void))dlsym(library, "OrtGetApiBase");
    if (get_base == NULL) {
        *error = "the library exports no OrtGetApiBase";
        return NULL;
    }
    const OrtApi *api = get_base()->GetApi(ORT_API_VERSION);
    if (api == NULL) *error = "the library does not offer C API version 32 (ONNX Runtime 1.32 or later is needed)";
    return api;
}

/// Keeps glibc from holding on to ONNX Runtime's freed tensors: allocations of 16 MB and more (the models' large
/// activations and outputs) get their own mapping, returned on free, and at most two heaps are kept. Measured on
/// 12 dev receipts with 2 engines (docs/ocr-engines.md): peak RSS 686 → 461 MB for ~0.2 CPU-s more per receipt
/// (page faults; 4 MB gave 409 MB for ~0.35 s). The glibc variables MALLOC_MMAP_THRESHOLD_ and MALLOC_ARENA_MAX,
/// when set, win.
static inline void ort_limit_heap_growth(void) {
    if (getenv("MALLOC_MMAP_THRESHOLD_") == NULL) mallopt(M_MMAP_THRESHOLD, 16 << 20);
    if (getenv("MALLOC_ARENA_MAX") == NULL) mallopt(M_ARENA_MAX, 2);
}

/// Hands the free pages of glibc's heaps back to the system (malloc_trim), including the holes between chunks in
/// use that the mmap threshold above does not cover. Costs page faults when the memory is used again.
static inline void ort_return_free_memory(void) {
    malloc_trim(0);
}
