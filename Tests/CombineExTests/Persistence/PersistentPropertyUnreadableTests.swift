import CombineEx
import CombineExTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An engine whose reads fail as a file that cannot be opened does (too many open files) while
/// `unreadable` is set; it stores in a ``MemoryStorageEngine``.
private final class UnreadableEngine: PersistentPropertyStorageEngine, @unchecked Sendable {
  // @unchecked Sendable: `unreadable` is guarded by `lock`; `inner` is thread-safe.
  let inner = MemoryStorageEngine()
  private let lock = NSLock()
  private var unreadable: Bool

  init(unreadable: Bool) {
    self.unreadable = unreadable
  }

  func setUnreadable(_ unreadable: Bool) { lock.withLock { self.unreadable = unreadable } }

  func store(value: some Codable, key: PersistentPropertyKey) throws {
    try inner.store(value: value, key: key)
  }

  func retrieve<T: Codable>(key: PersistentPropertyKey) throws -> T? {
    if lock.withLock({ unreadable }) {
      _ = try? inner.retrieve(key: key) as T?  // counted as a read, as a failed open would be
      throw PersistentPropertyUnreadableValueError(underlyingError: POSIXError(.EMFILE))
    }
    return try inner.retrieve(key: key)
  }
}

/// The unreadable-value error inside a property's `error`, if that is what it holds.
private func unreadableError(_ error: (any Error)?) -> PersistentPropertyUnreadableValueError? {
  if let unreadable = error as? PersistentPropertyUnreadableValueError { return unreadable }
  guard
    case .decodeFromDiskError(let underlying)? =
      error as? FileBasedPersistentPropertyStorageEngineError
  else { return nil }
  return underlying as? PersistentPropertyUnreadableValueError
}

/// A folder with a directory (holding one file) where `key`'s file would be.
private func folderWithDirectoryInPlace(of key: PersistentPropertyKey) throws -> TemporaryFolder {
  let folder = TemporaryFolder()
  let inPlace = folder.url.appendingPathComponent("\(key.sanitizedIndex).json")
  try FileManager.default.createDirectory(at: inPlace, withIntermediateDirectories: true)
  try Data("keep me".utf8).write(to: inPlace.appendingPathComponent("inside"))
  return folder
}

@Suite("PersistentProperty: a stored value that cannot be read")
struct PersistentPropertyUnreadableTests {
  @Test("a directory in the file's place is reported, left where it is, and not written over")
  func directoryInPlaceIsLeftAlone() throws {
    let key = PersistentPropertyKey(key: "settings")
    let folder = try folderWithDirectoryInPlace(of: key)
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let property = PersistentProperty(storageEngine: engine, key: key, defaultValue: 1)
    #expect(property.value == 1)
    let error = unreadableError(property.error.value)
    #expect(error != nil, "expected an unreadable value, got \(String(describing: error))")
    #expect(error?.location?.lastPathComponent == "\(key.sanitizedIndex).json")
    #expect(folder.entries == ["\(key.sanitizedIndex).json"])  // not renamed aside
    property.value = 2
    property.modify { $0 += 1 }
    #expect(property.value == 3)  // in memory
    #expect(folder.entries == ["\(key.sanitizedIndex).json"])
    let inside = folder.url.appendingPathComponent("\(key.sanitizedIndex).json/inside")
    #expect(try Data(contentsOf: inside) == Data("keep me".utf8))
    #expect(unreadableError(property.error.value) != nil)
  }

  @Test("while the value is unreadable each set reads again, and writes once the read succeeds")
  func eachSetReadsAgain() throws {
    let engine = UnreadableEngine(unreadable: true)
    try engine.inner.store(value: 40, key: PersistentPropertyKey(key: "count"))
    let property = PersistentProperty(storageEngine: engine, key: "count", defaultValue: 0)
    #expect(property.value == 0)
    #expect(unreadableError(property.error.value)?.underlyingError is POSIXError)
    let storesBefore = engine.inner.stores
    property.value = 1
    property.value = 2
    #expect(engine.inner.stores == storesBefore)  // nothing written over the stored 40
    #expect(engine.inner.storedValue(Int.self, key: "count") == 40)
    #expect(engine.inner.retrieves == 3)  // the load, then one read per set
    engine.setUnreadable(false)
    property.value = 3
    #expect(engine.inner.storedValue(Int.self, key: "count") == 3)  // the latest set wins
    #expect(engine.inner.retrieves == 4)
    property.value = 4
    #expect(engine.inner.storedValue(Int.self, key: "count") == 4)
    #expect(engine.inner.retrieves == 4)  // readable again: no more reads
  }

  @Test("once the directory in the file's place is gone, the next set writes the file")
  func fileWrittenOnceReadable() throws {
    let key = PersistentPropertyKey(key: "settings")
    let folder = try folderWithDirectoryInPlace(of: key)
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let property = PersistentProperty(storageEngine: engine, key: key, defaultValue: 1)
    property.value = 2
    try FileManager.default.removeItem(
      at: folder.url.appendingPathComponent("\(key.sanitizedIndex).json"))
    property.value = 3
    #expect(try engine.retrieve(key: key) == 3)
  }

  @Test(
    "a file without read permission is left in place and not written over",
    .enabled(if: getuid() != 0, "root reads files whatever their permission bits"))
  func unreadablePermissions() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let key = PersistentPropertyKey(key: "secret")
    try engine.store(value: 9, key: key)
    let path = folder.url.appendingPathComponent("\(key.sanitizedIndex).json").path
    chmod(path, 0)
    defer { chmod(path, 0o644) }
    let property = PersistentProperty(storageEngine: engine, key: key, defaultValue: 0)
    #expect(unreadableError(property.error.value) != nil)
    property.value = 1
    chmod(path, 0o644)
    #expect(try engine.retrieve(key: key) == 9)
  }

  @Test("discardStoredValue sets the unreadable entry aside and writes the current value")
  func discardSetsAsideAndWrites() throws {
    let key = PersistentPropertyKey(key: "settings")
    let folder = try folderWithDirectoryInPlace(of: key)
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let property = PersistentProperty(storageEngine: engine, key: key, defaultValue: 1)
    let recorder = property.record()
    property.value = 5
    property.discardStoredValue()
    #expect(property.error.value == nil)
    #expect(try engine.retrieve(key: key) == 5)
    let aside = folder.entries.filter { $0.contains(".unreadable-") }
    #expect(aside.count == 1)  // the directory, kept with what it held
    let inside = folder.url.appendingPathComponent(aside.first ?? "-").appendingPathComponent(
      "inside")
    #expect(try Data(contentsOf: inside) == Data("keep me".utf8))
    property.value = 6
    #expect(try engine.retrieve(key: key) == 6)
    #expect(recorder.values == [1, 5, 5, 6])  // the discard publishes the current value again
  }

  @Test("discardStoredValue with another engine writes over the value it cannot read")
  func discardWithAnotherEngine() throws {
    let engine = UnreadableEngine(unreadable: true)
    let property = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
    property.value = 7
    #expect(engine.inner.stores == 0)
    property.discardStoredValue()
    #expect(engine.inner.storedValue(Int.self, key: "k") == 7)
    let retrieves = engine.inner.retrieves
    property.value = 8  // the engine still cannot read, but the stored value was given up
    #expect(engine.inner.storedValue(Int.self, key: "k") == 8)
    #expect(engine.inner.retrieves == retrieves)
  }

  @Test("discardStoredValue on a readable value rewrites it, and resets error")
  func discardReadable() {
    let engine = MemoryStorageEngine()
    let property = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
    engine.setFailing(true)
    property.value = 1
    #expect(property.error.value is MemoryStorageEngine.StoreFailure)
    engine.setFailing(false)
    property.discardStoredValue()
    #expect(property.error.value == nil)
    #expect(engine.storedValue(Int.self, key: "k") == 1)
  }

  @Test("discardStoredValue called from the property's error subscriber does not deadlock")
  func discardFromErrorSubscriber() throws {
    let engine = UnreadableEngine(unreadable: true)
    let property = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
    let cancellable = property.error.sink { error in
      if unreadableError(error) != nil { property.discardStoredValue() }
    }
    property.value = 3
    #expect(engine.inner.storedValue(Int.self, key: "k") == 3)
    #expect(property.error.value == nil)
    cancellable.cancel()
  }

  @Test("content that does not decode is still set aside, and written over")
  func undecodableIsSetAside() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let key = PersistentPropertyKey(key: "n")
    try engine.store(value: "text", key: key)
    let property = PersistentProperty(storageEngine: engine, key: key, defaultValue: 0)
    #expect(unreadableError(property.error.value) == nil)
    #expect(folder.entries.filter { $0.contains(".corrupt-") }.count == 1)
    property.value = 1
    #expect(try engine.retrieve(key: key) == 1)
  }

  @Test(
    "stress: sets from 8 threads race a discard of an unreadable value; the stored value is the property's"
  )
  func stressSetsRaceDiscard() async throws {
    for round in 0..<10 {
      let key = PersistentPropertyKey(key: "race")
      let folder = try folderWithDirectoryInPlace(of: key)
      let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
      let property = PersistentProperty(storageEngine: engine, key: key, defaultValue: -1)
      await concurrentPerform(8) { thread in
        for index in 1...6 {
          if thread == 0 && index == 3 { property.discardStoredValue() }
          property.value = thread * 1_000 + index
        }
      }
      let stored: Int? = try engine.retrieve(key: key)
      #expect(stored == property.value, "round \(round)")
      #expect(folder.entries.filter { $0.contains(".unreadable-") }.count == 1, "round \(round)")
      folder.remove()
    }
  }
}
