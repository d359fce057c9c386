import CombineExCore
import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The file operations of ``FileBasedPersistentPropertyStorageEngine``, with POSIX calls so that
/// each step (and its failure) is explicit.
///
/// ## Why a write is atomic
/// A write never touches the destination file's bytes. It creates a new temporary file in the
/// same folder (same file system, so that `rename` is atomic), writes the data, flushes it to
/// the disk (`fsync`), and renames it over the destination, then flushes the folder so the
/// rename itself is durable. `rename` replaces the directory entry in one step: at any
/// instant, a reader (or a process restarted after a crash or a kill) finds either the old
/// complete file or the new complete file, never a mix. A write interrupted before the rename
/// leaves the old file untouched and a stray temporary file, which a later engine removes once
/// its writer is gone (``removeAbandonedTemporaryFiles(in:)``).
enum AtomicFile {
  /// The suffix of temporary files: `.<name>.<pid>-<counter>.tmp`.
  static let temporarySuffix = ".tmp"

  /// Numbers the temporary files of this process, so that concurrent writes never share one.
  private static let temporaryCounter = Atomic<UInt64>(0)

  /// Writes `data` to `url` atomically (see the type's documentation).
  static func write(_ data: Data, to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    let number = temporaryCounter.add(1, ordering: .relaxed).newValue
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid())-\(number)\(temporarySuffix)")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw posixError("creating \(temporary.lastPathComponent)") }
    PersistentFileWriteProbe.report(.temporaryFileCreated)
    var written = false
    defer { if !written { unlink(temporary.path) } }
    do {
      defer { close(descriptor) }
      // In two halves, so that tests can stop the process between them.
      let half = data.count / 2
      try writeAll(data[data.startIndex..<data.startIndex + half], to: descriptor)
      PersistentFileWriteProbe.report(.temporaryFileHalfWritten)
      try writeAll(data[(data.startIndex + half)...], to: descriptor)
      guard fsync(descriptor) == 0 else { throw posixError("flushing") }
      PersistentFileWriteProbe.report(.temporaryFileFlushed)
    }
    guard rename(temporary.path, url.path) == 0 else { throw posixError("renaming") }
    written = true
    PersistentFileWriteProbe.report(.renamed)
    flushFolder(folder)
  }

  /// The contents of `url`, or `nil` if there is no such file.
  static func read(_ url: URL) throws -> Data? {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw posixError("opening \(url.lastPathComponent)")
    }
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw posixError("reading \(url.lastPathComponent)")
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// Renames the file at `url` aside (in the same folder, adding `.corrupt-` and a timestamp),
  /// and returns its new location; `nil` if it could not be moved.
  static func keepAside(_ url: URL) -> URL? {
    (try? moveAside(url, label: "corrupt")) ?? nil
  }

  /// Renames the entry at `url` (a file, or whatever is in its place) aside, in the same folder,
  /// adding `.<label>-` and a timestamp to its name, and returns its new location; `nil` if
  /// there is no such entry.
  static func moveAside(_ url: URL, label: String) throws -> URL? {
    let stamp = Int(Date().timeIntervalSince1970)
    let number = temporaryCounter.add(1, ordering: .relaxed).newValue
    let aside = url.deletingLastPathComponent().appendingPathComponent(
      "\(url.lastPathComponent).\(label)-\(stamp)-\(getpid())-\(number)")
    guard rename(url.path, aside.path) == 0 else {
      if errno == ENOENT { return nil }
      throw posixError("setting \(url.lastPathComponent) aside")
    }
    return aside
  }

  /// Removes the temporary files in `folder` left by writes that a crash or a kill interrupted:
  /// those whose process is gone and that are more than a minute old. (The age check spares a
  /// writer that another PID namespace, sharing the folder, would see under another number.)
  static func removeAbandonedTemporaryFiles(in folder: URL) {
    guard
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return }
    let cutoff = Date().addingTimeInterval(-60)
    for name in names where name.hasPrefix(".") && name.hasSuffix(temporarySuffix) {
      guard let writer = writerProcess(ofTemporaryFileNamed: name), !isAlive(writer) else {
        continue
      }
      let path = folder.appendingPathComponent(name).path
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      guard let modified = attributes?[.modificationDate] as? Date, modified < cutoff else {
        continue
      }
      unlink(path)
    }
  }

  /// The process that wrote a temporary file, from its name (`.<name>.<pid>-<n>.tmp`).
  static func writerProcess(ofTemporaryFileNamed name: String) -> pid_t? {
    let stem = name.dropLast(temporarySuffix.count)
    guard let dot = stem.lastIndex(of: "."),
      let dash = stem[dot...].firstIndex(of: "-"),
      let pid = pid_t(stem[stem.index(after: dot)..<dash])
    else { return nil }
    return pid
  }

  private static func isAlive(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
  }

  private static func writeAll(_ bytes: Data, to descriptor: Int32) throws {
    try bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          throw posixError("writing")
        }
        offset += count
      }
    }
  }

  /// Flushes a folder's entries (a rename) to the disk; best effort, as some file systems
  /// refuse to flush a directory.
  private static func flushFolder(_ folder: URL) {
    let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

  private static func posixError(_ step: String) -> Error {
    let code = errno
    return NSError(
      domain: NSPOSIXErrorDomain, code: Int(code),
      userInfo: [NSLocalizedDescriptionKey: "\(step): \(String(cString: strerror(code)))"])
  }
}

// `read` and `write` are also members of the types in scope; these names reach the C functions.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
