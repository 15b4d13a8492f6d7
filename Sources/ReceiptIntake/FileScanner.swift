import Foundation
import PipelineCore

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(SwiftOverlayShims)
    // `timespec` (the mtime's fields) is found through the standard library's shims module, depending on which
    // module of the build is loaded first.
    import SwiftOverlayShims
#endif
#if canImport(CDispatch)
    // With SwiftNIO in the build (the review page, the LLM clients), `stat` and its fields are found through
    // Dispatch's C module, which member import visibility then asks for by name.
    import CDispatch
#endif

/// A file the scan found, complete and ready to read.
package struct ScannedFile: Sendable {
    package let path: RawPath
    package let byteCount: Int
    /// Modification time when scanned, to notice a file that changes before it is read.
    package let modified: Double
}

/// A path the scan could not take, with the reason in the operator's words.
package struct ScanRejection: Error, Sendable, Equatable {
    package let path: String
    package let reason: String
}

/// What a scan of the given paths found.
package struct ScanResult: Sendable {
    package var files: [ScannedFile] = []
    package var rejections: [ScanRejection] = []
    /// Files whose size or mtime changed during the settle time: left for the next run.
    package var stillBeingWritten: [String] = []
    /// Hidden and temporary names passed over (`.*`, `*.part`, `*.tmp`, `*~`, `*.crdownload`).
    package var skippedNames = 0
}

/// Walks files and folders (recursively) for `pipeline ingest`, never modifying anything.
///
/// A file counts as complete once its size and mtime stay unchanged for the settle time; older files are
/// taken at once. Symlinks are followed, loops are reported, each folder is visited once.
package struct FileScanner {
    package let settleTime: Duration

    package init(settleTime: Duration) { self.settleTime = settleTime }

    package func scan(_ paths: [RawPath]) -> ScanResult {
        var result = ScanResult()
        var visitedFolders = Set<FileIdentity>()
        var recent: [(file: ScannedFile, status: stat)] = []
        for path in paths {
            walk(path, isTopLevel: true, &result, &visitedFolders, &recent)
        }
        settle(recent, &result)
        return result
    }

    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private func walk(
        _ path: RawPath, isTopLevel: Bool, _ result: inout ScanResult, _ visited: inout Set<FileIdentity>,
        _ recent: inout [(file: ScannedFile, status: stat)]
    ) {
        if !isTopLevel && Self.isHiddenOrTemporary(path.name.description) {
            result.skippedNames += 1
            return
        }
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else {
            let code = errno
            // Only a missing target makes a dangling link; two links to each other fail with ELOOP.
            let reason =
                (code == ENOENT ? Self.danglingLinkTarget(path) : nil).map { target in
                    "a dangling symlink: it points to \(target), which does not exist; fix or remove the link"
                } ?? Self.describe(errno: code)
            result.rejections.append(ScanRejection(path: path.description, reason: reason))
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            let identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            guard visited.insert(identity).inserted else { return }  // reached again through a link
            guard let entries = listFolder(path) else {
                result.rejections.append(
                    ScanRejection(
                        path: path.description, reason: "cannot list the folder: " + Self.describe(errno: errno)))
                return
            }
            for entry in entries.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                walk(path.appending(entry), isTopLevel: false, &result, &visited, &recent)
            }
        case S_IFREG:
            let file = ScannedFile(path: path, byteCount: Int(status.st_size), modified: Self.modificationTime(status))
            if isSettled(status) {
                result.files.append(file)
            } else {
                recent.append((file, status))
            }
        default:
            result.rejections.append(
                ScanRejection(
                    path: path.description, reason: "not a regular file (device, socket or pipe); skipped"))
        }
    }

    /// Files modified within the settle time are checked again once it has passed.
    private func settle(_ recent: [(file: ScannedFile, status: stat)], _ result: inout ScanResult) {
        guard !recent.isEmpty else { return }
        let newest = recent.map { Self.modificationTime($0.status) }.max()!
        let wait = newest + settleTime.seconds - Date().timeIntervalSince1970
        // In steps of at most a second: `usleep` takes a `UInt32` of microseconds (71 minutes at most).
        var remaining = min(wait, settleTime.seconds)
        while remaining > 0 {
            usleep(useconds_t(min(remaining, 1) * 1_000_000))
            remaining -= 1
        }
        for (file, before) in recent {
            var after = stat()
            let unchanged =
                file.path.withCString { stat($0, &after) } == 0 && after.st_size == before.st_size
                && Self.modificationTime(after) == Self.modificationTime(before)
            if unchanged {
                result.files.append(
                    ScannedFile(
                        path: file.path, byteCount: Int(after.st_size), modified: Self.modificationTime(after)))
            } else {
                result.stillBeingWritten.append(file.path.description)
            }
        }
    }

    private func isSettled(_ status: stat) -> Bool {
        Date().timeIntervalSince1970 - Self.modificationTime(status) >= settleTime.seconds
    }

    private func listFolder(_ path: RawPath) -> [[UInt8]]? {
        guard let folder = path.withCString({ opendir($0) }) else { return nil }
        defer { closedir(folder) }
        var names: [[UInt8]] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { names.append(name) }
        }
        return names
    }

    /// Where `path` points when it is a symlink whose target is missing; nil for anything else.
    private static func danglingLinkTarget(_ path: RawPath) -> String? {
        var status = stat()
        guard path.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        var target = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = path.withCString { link in
            target.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { readlink(link, $0.baseAddress!, $0.count) }
            }
        }
        return count >= 0 ? RawPath(Array(target.prefix(count))).description : "a missing file"
    }

    package static func isHiddenOrTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || [".part", ".tmp", ".crdownload"].contains { name.hasSuffix($0) }
    }

    private static func modificationTime(_ status: stat) -> Double {
        Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
    }

    private static func describe(errno code: Int32) -> String {
        switch code {
        case ELOOP: return "symlink loop; remove or fix the link"
        case EACCES: return "permission denied; make it readable by the user running pipeline"
        case ENOENT: return "no such file or folder (or a dangling symlink)"
        default: return String(cString: strerror(code))
        }
    }
}

extension FileScanner {
    /// The reason given when a file changed between the scan and the read: it is left for the next run.
    package static let changedWhileReading = "changed after the scan"

    /// Reads the whole file, refusing one whose size or mtime changed since it was scanned (still being written).
    /// - Throws: `ScanRejection` naming the file, with `changedWhileReading` or why it cannot be read.
    package static func contents(of file: ScannedFile) throws(ScanRejection) -> [UInt8] {
        let path = file.path
        let expected = file.byteCount
        func failure(_ reason: String) -> ScanRejection { ScanRejection(path: path.description, reason: reason) }
        let descriptor = path.withCString { open($0, O_RDONLY) }
        guard descriptor >= 0 else { throw failure("cannot open: " + describe(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) == expected,
            modificationTime(status) == file.modified
        else { throw failure(changedWhileReading) }
        var bytes = [UInt8](repeating: 0, count: expected)
        var total = 0
        while total < expected {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, expected - total) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure("cannot read: " + describe(errno: errno)) }
            if count == 0 { throw failure(changedWhileReading) }
            total += count
        }
        return bytes
    }
}
