import CombineEx
import CombineExTesting
import Foundation
import Testing

/// An engine without identity: its properties never share a value.
private struct StructEngine: PersistentPropertyStorageEngine {
  let inner: MemoryStorageEngine
  func store(value: some Codable, key: PersistentPropertyKey) throws {
    try inner.store(value: value, key: key)
  }
  func retrieve<T: Codable>(key: PersistentPropertyKey) throws -> T? {
    try inner.retrieve(key: key)
  }
}

@Suite("PersistentProperty")
struct PersistentPropertyTests {
  @Test("with nothing stored it starts with the default value and no error")
  func startsWithDefault() {
    let property = PersistentProperty(
      storageEngine: MemoryStorageEngine(), key: "count", defaultValue: 5)
    #expect(property.value == 5)
    #expect(property.error.value == nil)
  }

  @Test("a set is written before it returns")
  func setWritesBeforeReturning() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let property = PersistentProperty<Ledger?>(storageEngine: engine, key: "l", defaultValue: nil)
    property.value = Ledger(number: 1)
    #expect(try engine.retrieve(key: PersistentPropertyKey(key: "l")) == Ledger(number: 1))
    property.modify { $0?.number = 2 }
    let stored: Ledger? = try engine.retrieve(key: PersistentPropertyKey(key: "l"))
    #expect(stored?.number == 2)
    #expect(property.swap(nil)?.number == 2)
    let cleared: Ledger?? = try engine.retrieve(key: PersistentPropertyKey(key: "l"))
    #expect(cleared == .some(nil))
  }

  @Test("the default value is not written; creating a property writes nothing")
  func creationWritesNothing() {
    let engine = MemoryStorageEngine()
    let property = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 1)
    #expect(property.value == 1)
    #expect(engine.stores == 0)
    #expect(engine.storedValue(Int.self, key: "k") == nil)
  }

  @Test("a property created later starts with the value stored earlier")
  func restores() {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    do {
      let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
      let first = PersistentProperty(storageEngine: engine, key: "name", defaultValue: "")
      first.value = "ada"
    }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let second = PersistentProperty(storageEngine: engine, key: "name", defaultValue: "")
    #expect(second.value == "ada")
  }

  @Test("subscribers receive the current value, then every change, after it is written")
  func subscribersSeeWrittenValues() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let property = PersistentProperty(storageEngine: engine, key: "n", defaultValue: 0)
    var seenOnDisk: [Int?] = []
    let cancellable = property.sink { _ in
      seenOnDisk.append(try? engine.retrieve(key: PersistentPropertyKey(key: "n")))
    }
    property.value = 1
    property.value = 2
    #expect(seenOnDisk == [nil, 1, 2])
    cancellable.cancel()
  }

  @Test("the original's publisher test: a sink sees the current value, then the next set")
  func originalPublisherBehaviour() {
    let property = PersistentProperty<Ledger?>(
      storageEngine: MemoryStorageEngine(), key: "key", defaultValue: nil)
    property.value = Ledger(number: 1)
    let recorder = property.record()
    property.value = Ledger(number: 2)
    #expect(recorder.values.map { $0?.number } == [1, 2])
  }

  @Test("two properties on one key see each other's writes, which are written once")
  func sharingSameEngine() {
    let engine = MemoryStorageEngine()
    let first = PersistentProperty(storageEngine: engine, key: "shared", defaultValue: 0)
    let second = PersistentProperty(storageEngine: engine, key: "shared", defaultValue: 0)
    let recorder = second.record()
    first.value = 4
    #expect(second.value == 4)
    second.modify { $0 += 1 }
    #expect(first.value == 5)
    #expect(recorder.values == [0, 4, 5])
    #expect(engine.stores == 2)
    #expect(engine.retrieves == 1)
  }

  @Test("two engines on one folder share the value of a key")
  func sharingAcrossEngineInstances() {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let first = PersistentProperty(
      storageEngine: FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url),
      key: "shared", defaultValue: "")
    let second = PersistentProperty(
      storageEngine: FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url),
      key: "shared", defaultValue: "")
    first.value = "from first"
    #expect(second.value == "from first")
  }

  @Test("different keys, and engines without identity, do not share")
  func noSharing() {
    let engine = MemoryStorageEngine()
    let a = PersistentProperty(storageEngine: engine, key: "a", defaultValue: 0)
    let b = PersistentProperty(storageEngine: engine, key: "b", defaultValue: 0)
    a.value = 1
    #expect(b.value == 0)
    let inner = MemoryStorageEngine()
    let c = PersistentProperty(storageEngine: StructEngine(inner: inner), key: "c", defaultValue: 0)
    let d = PersistentProperty(storageEngine: StructEngine(inner: inner), key: "c", defaultValue: 0)
    c.value = 2
    #expect(d.value == 0)
    #expect(inner.storedValue(Int.self, key: "c") == 2)
  }

  @Test("once every property of a key is gone, a new one reads the engine again")
  func releasedAndReread() {
    let engine = MemoryStorageEngine()
    weak var weakProperty: PersistentProperty<Int>?
    do {
      let property = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
      weakProperty = property
      property.value = 3
    }
    #expect(weakProperty == nil)
    let again = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
    #expect(again.value == 3)
    #expect(engine.retrieves == 2)
  }

  @Test("a corrupt file gives the default, sets error, and is kept aside")
  func corruptFile() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let key = PersistentPropertyKey(key: "settings")
    try Data("not json".utf8).write(
      to: folder.url.appendingPathComponent("\(key.sanitizedIndex).json"))
    let property = PersistentProperty(storageEngine: engine, key: key, defaultValue: 10)
    #expect(property.value == 10)
    guard
      case .decodeFromDiskError? =
        property.error.value as? FileBasedPersistentPropertyStorageEngineError
    else {
      Issue.record("expected decodeFromDiskError, got \(String(describing: property.error.value))")
      return
    }
    #expect(folder.entries.count == 1)
    #expect(folder.entries[0].contains(".corrupt-"))
    property.value = 11
    #expect(folder.entries.count == 2)
    #expect(try engine.retrieve(key: key) == 11)
  }

  @Test("a failed write sets error and keeps the value in memory")
  func failedWrite() {
    let engine = MemoryStorageEngine()
    let property = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
    let errors = property.error.map { $0 == nil ? "none" : "failed" }.record()
    engine.setFailing(true)
    property.value = 1
    #expect(property.value == 1)
    #expect(property.error.value is MemoryStorageEngine.StoreFailure)
    engine.setFailing(false)
    property.value = 2
    #expect(engine.storedValue(Int.self, key: "k") == 2)
    #expect(errors.values == ["none", "failed"])
  }

  @Test("withValue, tryWithValue and the generic modify work as on MutableProperty")
  func composableMethods() {
    let property = PersistentProperty(
      storageEngine: MemoryStorageEngine(), key: "k", defaultValue: [1, 2])
    #expect(property.withValue { $0.count } == 2)
    #expect(property.tryWithValue { $0.first } == 1)
    let removed = property.modify { $0.removeLast() }
    #expect(removed == 2)
    #expect(property.value == [1])
  }

  @Test("a value set from inside a subscriber is written after the current delivery")
  func reentrantSet() {
    let engine = MemoryStorageEngine()
    let property = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
    var seen: [Int] = []
    let cancellable = property.sink { value in
      seen.append(value)
      if value == 1 { property.value = 2 }
    }
    property.value = 1
    #expect(seen == [0, 1, 2])
    #expect(engine.storedValue(Int.self, key: "k") == 2)
    cancellable.cancel()
  }

  @Test("a subscriber does not keep the property alive past its own subscription")
  func subscriberLifetime() {
    let engine = MemoryStorageEngine()
    weak var weakProperty: PersistentProperty<Int>?
    var recorder: TestSubscriber<Int, Never>?
    do {
      let property = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
      weakProperty = property
      recorder = property.record()
    }
    #expect(weakProperty == nil)
    #expect(recorder?.values == [0])
  }

  @Test("a PersistentProperty can be a binding target too")
  func persistentTarget() {
    let engine = MemoryStorageEngine()
    let stored = PersistentProperty(storageEngine: engine, key: "k", defaultValue: 0)
    let source = PassthroughSubject<Int, Never>()
    stored <~ source
    source.send(9)
    #expect(stored.value == 9)
    #expect(engine.storedValue(Int.self, key: "k") == 9)
  }

  @Test("stress: after sets from 8 threads, the file holds a written value equal to the property's")
  func stressEightThreads() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let property = PersistentProperty(
      storageEngine: engine, key: "ledger", defaultValue: Ledger(number: -1))
    let other = PersistentProperty(
      storageEngine: FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url),
      key: "ledger", defaultValue: Ledger(number: -1))
    await concurrentPerform(8) { thread in
      for index in 1...10 {
        let ledger = Ledger(number: thread * 1_000 + index)
        if index.isMultiple(of: 2) { property.value = ledger } else { other.value = ledger }
      }
    }
    let stored: Ledger? = try engine.retrieve(key: PersistentPropertyKey(key: "ledger"))
    #expect(stored == property.value)
    #expect(other.value == property.value)
    // The last write is some thread's last: its 10th value.
    #expect(stored.map { $0.isConsistent && $0.number % 1_000 == 10 } == true)
    #expect(folder.entries == ["\(PersistentPropertyKey(key: "ledger").sanitizedIndex).json"])
  }

  @Test("stress: with 8 threads setting it, values are stored in the order they are published")
  func stressStoreOrder() async {
    let engine = MemoryStorageEngine(jitter: true)
    let property = PersistentProperty(storageEngine: engine, key: "n", defaultValue: -1)
    let published = LockedBox<[Int]>([])
    let cancellable = property.dropFirst().sink { value in published.withLock { $0.append(value) } }
    await concurrentPerform(8) { thread in
      for index in 1...50 { property.value = thread * 1_000 + index }
    }
    let stored = engine.storedValues(Int.self)
    #expect(stored.count == 400)
    #expect(stored == published.withLock { $0 })
    #expect(stored.last == property.value)
    cancellable.cancel()
  }
}
