import Foundation

/// A storage engine that keeps each value in a JSON file of its own, in one folder.
///
/// ```swift
/// let folder = FileManager.default.temporaryDirectory
///   .appendingPathComponent("FileEngineExample-\(UUID().uuidString)")
/// let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder)
/// let launches = PersistentProperty(storageEngine: engine, key: "launches", defaultValue: 0)
/// launches.modify { $0 += 1 }  // written to disk before `modify` returns
/// let again = PersistentProperty(storageEngine: engine, key: "launches", defaultValue: 0)
/// print(again.value)  // Prints: 1
/// engine.wipeDirectory()
/// ```
///
/// ## Guarantees
/// - **Atomic writes.** A value is written to a temporary file in the same folder, flushed to
///   the disk, then renamed over the previous file. A crash, a power loss or a kill during a
///   write leaves the previous value or the new one, never a torn file.
/// - **Nothing is silently destroyed.** A missing file means "no value" (the property starts
///   with its default). A file whose content does not decode is renamed aside (its name gains
///   `.corrupt-` and a timestamp) before the error is thrown: the property starts with its
///   default and reports the error, and the old bytes stay on disk. A file that cannot be read
///   at all (permissions, too many open files, a directory in its place) is not corrupt: it is
///   left where it is, and the property writes nothing over it while it stays unreadable.
/// - **Keys stay in the folder.** A file is named after the key's
///   ``PersistentPropertyKey/sanitizedIndex`` (plus `.json`), which never contains a path
///   separator and is never `.` or `..`; very long keys are shortened with a hash.
/// - Stray temporary files left by an interrupted write are removed by the next engine created
///   on the folder, once their process is gone.
///
/// Files hold `{"value": <the value's JSON>}`, as in the original CombineEx.
public final class FileBasedPersistentPropertyStorageEngine: PersistentPropertyStorageEngine,
  Sendable
{
  /// Standard places for the root folder.
  public enum RootDirectory: Sendable {
    /// The user's documents folder.
    case documents

    /// The user's caches folder (the system may empty it).
    case caches

    /// The temporary folder.
    case temporary

    /// An app group's shared container: Apple platforms only. Elsewhere, the engine has no
    /// root folder, and every call throws
    /// ``FileBasedPersistentPropertyStorageEngineError/noRootDirectory``.
    case appGroup(String)
  }

  /// The folder holding the files (symbolic links resolved), or `nil` after an initialization
  /// error.
  private let rootDirectoryUrl: URL?

  /// Why the engine has no folder, if it has none.
  private let initializationError: FileBasedPersistentPropertyStorageEngineError?

  /// Creates an engine storing its files in `rootDirectoryUrl`, which it creates if needed.
  ///
  /// If the folder cannot be created, every call throws
  /// ``FileBasedPersistentPropertyStorageEngineError/unableToCreateDirectory(_:)``.
  public init(rootDirectoryUrl: URL) {
    do {
      try FileManager.default.createDirectory(
        at: rootDirectoryUrl, withIntermediateDirectories: true)
    } catch {
      initializationError = .unableToCreateDirectory(error)
      self.rootDirectoryUrl = nil
      return
    }
    initializationError = nil
    self.rootDirectoryUrl = rootDirectoryUrl.standardizedFileURL.resolvingSymlinksInPath()
    AtomicFile.removeAbandonedTemporaryFiles(in: self.rootDirectoryUrl!)
  }

  /// Creates an engine storing its files in `<rootDirectory>/<environmentId>/_PersistentProperties_`,
  /// as the original CombineEx does (`environmentId` is escaped like a key, so it names one
  /// folder whatever it contains).
  public convenience init(environmentId: String, rootDirectory: RootDirectory) {
    let base: URL?
    switch rootDirectory {
    case .documents:
      base = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
    case .caches:
      base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
    case .temporary:
      base = FileManager.default.temporaryDirectory
    case .appGroup:
      base = nil
    }
    guard let base else {
      self.init(initializationError: .noRootDirectory)
      return
    }
    self.init(
      rootDirectoryUrl: base.appendingPathComponent(
        PersistentPropertyKey(key: environmentId).sanitizedIndex
      ).appendingPathComponent("_PersistentProperties_"))
  }

  private init(initializationError: FileBasedPersistentPropertyStorageEngineError) {
    self.initializationError = initializationError
    rootDirectoryUrl = nil
  }

  /// Deletes the folder and every value in it, then creates it again, empty.
  public func wipeDirectory() {
    guard let rootDirectoryUrl else { return }
    try? FileManager.default.removeItem(at: rootDirectoryUrl)
    try? FileManager.default.createDirectory(
      at: rootDirectoryUrl, withIntermediateDirectories: true)
  }

  /// Writes `value` to the key's file, atomically.
  ///
  /// - Throws: ``FileBasedPersistentPropertyStorageEngineError``: `encodeToDiskError` if the
  ///   value cannot be encoded or written (the previous file is then untouched), or the
  ///   initialization error.
  public func store(value: some Codable, key: PersistentPropertyKey) throws {
    let url = try fileURL(for: key)
    do {
      let data = try JSONEncoder().encode(StoredValue(value: value))
      try AtomicFile.write(data, to: url)
    } catch {
      throw FileBasedPersistentPropertyStorageEngineError.encodeToDiskError(error)
    }
  }

  /// Reads the key's file: `nil` if there is none.
  ///
  /// - Throws: ``FileBasedPersistentPropertyStorageEngineError``: `decodeFromDiskError` with a
  ///   ``PersistentPropertyCorruptFileError`` if the file's content does not decode as `T` (it
  ///   is renamed aside first); `decodeFromDiskError` with a
  ///   ``PersistentPropertyUnreadableValueError`` if the file could not be read (permissions,
  ///   too many open files, a directory in its place: it is left where it is); or the
  ///   initialization error.
  public func retrieve<T: Codable>(key: PersistentPropertyKey) throws -> T? {
    let url = try fileURL(for: key)
    let data: Data?
    do {
      data = try AtomicFile.read(url)
    } catch {
      throw FileBasedPersistentPropertyStorageEngineError.decodeFromDiskError(
        PersistentPropertyUnreadableValueError(underlyingError: error, location: url))
    }
    guard let data else { return nil }
    do {
      return try JSONDecoder().decode(StoredValue<T>.self, from: data).value
    } catch {
      let keptAt = AtomicFile.keepAside(url)
      throw FileBasedPersistentPropertyStorageEngineError.decodeFromDiskError(
        PersistentPropertyCorruptFileError(underlyingError: error, keptAt: keptAt))
    }
  }

  /// Renames the key's file (or whatever is in its place) aside, adding `.unreadable-` and a
  /// timestamp to its name, so that ``PersistentProperty/discardStoredValue()`` can write
  /// without destroying it.
  ///
  /// - Throws: `encodeToDiskError` if it could not be renamed, or the initialization error.
  func setAsideUnreadableValue(for key: PersistentPropertyKey) throws {
    let url = try fileURL(for: key)
    do {
      _ = try AtomicFile.moveAside(url, label: "unreadable")
    } catch {
      throw FileBasedPersistentPropertyStorageEngineError.encodeToDiskError(error)
    }
  }

  /// The file holding `key`'s value.
  func fileURL(for key: PersistentPropertyKey) throws -> URL {
    if let initializationError { throw initializationError }
    guard let rootDirectoryUrl else {
      throw FileBasedPersistentPropertyStorageEngineError.filePathError
    }
    return rootDirectoryUrl.appendingPathComponent(Self.fileName(for: key))
  }

  /// `<sanitizedIndex>.json`; a sanitized index too long for a file name keeps its first 120
  /// characters, followed by `~` and a 128-bit hash of the whole (`~` never occurs in a
  /// sanitized index, so a shortened name never equals a plain one).
  static func fileName(for key: PersistentPropertyKey) -> String {
    let index = key.sanitizedIndex
    guard index.utf8.count > 200 else { return index + ".json" }
    let bytes = Array(index.utf8)
    let hash =
      hexadecimal(fnv1a(bytes, basis: 0xcbf2_9ce4_8422_2325))
      + hexadecimal(fnv1a(bytes.reversed(), basis: 0x8422_2325_cbf2_9ce4))
    return String(index.prefix(120)) + "~" + hash + ".json"
  }

  private static func fnv1a(_ bytes: some Sequence<UInt8>, basis: UInt64) -> UInt64 {
    bytes.reduce(basis) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
  }

  private static func hexadecimal(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

/// The JSON envelope of a stored value: `{"value": ...}`, so that any `Codable` value (a bare
/// number or string too) is a valid JSON document.
private struct StoredValue<Value: Codable>: Codable {
  let value: Value
}
