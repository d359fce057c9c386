import CombineEx
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private struct Unencodable: Codable {
  struct Refused: Error {}
  init() {}
  init(from decoder: any Decoder) throws { throw Refused() }
  func encode(to encoder: any Encoder) throws { throw Refused() }
}

@Suite("FileBasedPersistentPropertyStorageEngine")
struct FileBasedPersistentPropertyStorageEngineTests {
  @Test("a stored value is retrieved, including nil and nested values")
  func roundTrip() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let key = PersistentPropertyKey(key: "ledger")
    try engine.store(value: Ledger(number: 3), key: key)
    #expect(try engine.retrieve(key: key) == Ledger(number: 3))
    try engine.store(value: String?.none, key: PersistentPropertyKey(key: "empty"))
    let empty: String?? = try engine.retrieve(key: PersistentPropertyKey(key: "empty"))
    #expect(empty == .some(nil))
  }

  @Test("a missing file gives nil")
  func missing() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let value: Int? = try engine.retrieve(key: PersistentPropertyKey(key: "never"))
    #expect(value == nil)
  }

  @Test("files hold {\"value\": ...} JSON, named after the sanitized index")
  func fileFormat() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let key = PersistentPropertyKey(key: "count")
    try engine.store(value: 5, key: key)
    #expect(folder.entries == ["\(key.sanitizedIndex).json"])
    let data = try Data(contentsOf: folder.url.appendingPathComponent(folder.entries[0]))
    #expect(String(decoding: data, as: UTF8.self) == #"{"value":5}"#)
  }

  @Test("a corrupt file throws decodeFromDiskError and is kept aside, bytes intact")
  func corruptKeptAside() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let key = PersistentPropertyKey(key: "settings")
    let path = folder.url.appendingPathComponent("\(key.sanitizedIndex).json")
    let garbage = Data("{\"value\": tru".utf8)
    try garbage.write(to: path)
    var thrown: (any Error)?
    do {
      let _: Bool? = try engine.retrieve(key: key)
    } catch {
      thrown = error
    }
    guard
      case .decodeFromDiskError(let underlying)? =
        thrown as? FileBasedPersistentPropertyStorageEngineError,
      let corrupt = underlying as? PersistentPropertyCorruptFileError,
      let keptAt = corrupt.keptAt
    else {
      Issue.record(
        "expected a decodeFromDiskError with the file kept aside, got \(String(describing: thrown))"
      )
      return
    }
    #expect(!FileManager.default.fileExists(atPath: path.path))
    #expect(keptAt.deletingLastPathComponent().path == folder.url.resolvingSymlinksInPath().path)
    #expect(keptAt.lastPathComponent.hasPrefix("\(key.sanitizedIndex).json.corrupt-"))
    #expect(try Data(contentsOf: keptAt) == garbage)
    #expect(corrupt.underlyingError is DecodingError)
    // The key is usable again: the next value is written to a fresh file.
    try engine.store(value: true, key: key)
    #expect(try engine.retrieve(key: key) == true)
  }

  @Test("a value of another type is reported, not read as something else")
  func wrongType() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let key = PersistentPropertyKey(key: "n")
    try engine.store(value: "text", key: key)
    #expect(throws: FileBasedPersistentPropertyStorageEngineError.self) {
      let _: Int? = try engine.retrieve(key: key)
    }
  }

  @Test("keys with separators and dots never leave the root folder")
  func keysStayInRoot() throws {
    let parent = TemporaryFolder()
    defer { parent.remove() }
    let root = parent.url.appendingPathComponent("root")
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: root)
    let texts = ["..", ".", "../escape", "/abs/path", "a/../../b", "", " ", "..\\x", "\u{1}"]
    for (index, text) in texts.enumerated() {
      try engine.store(value: index, key: PersistentPropertyKey(key: text, subKey: text))
      try engine.store(value: index, key: PersistentPropertyKey(key: text))
    }
    #expect(parent.entries == ["root"])
    let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
    #expect(files.count == texts.count * 2)
    for (index, text) in texts.enumerated() {
      #expect(try engine.retrieve(key: PersistentPropertyKey(key: text, subKey: text)) == index)
    }
  }

  @Test("very long keys get short, distinct file names")
  func longKeys() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let base = String(repeating: "Ä/", count: 300)
    try engine.store(value: 1, key: PersistentPropertyKey(key: base + "1"))
    try engine.store(value: 2, key: PersistentPropertyKey(key: base + "2"))
    #expect(folder.entries.count == 2)
    #expect(folder.entries.allSatisfy { $0.utf8.count <= 255 })
    #expect(try engine.retrieve(key: PersistentPropertyKey(key: base + "1")) == 1)
    #expect(try engine.retrieve(key: PersistentPropertyKey(key: base + "2")) == 2)
  }

  @Test("a write leaves no temporary file; a failed one keeps the previous value intact")
  func failedWriteKeepsPrevious() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    let key = PersistentPropertyKey(key: "doc")
    try engine.store(value: Ledger(number: 1), key: key)
    #expect(folder.entries.count == 1)
    #expect(throws: FileBasedPersistentPropertyStorageEngineError.self) {
      try engine.store(value: Unencodable(), key: key)
    }
    #expect(folder.entries.count == 1)
    #expect(try engine.retrieve(key: key) == Ledger(number: 1))
  }

  @Test("wipeDirectory removes every value and keeps the folder usable")
  func wipe() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    try engine.store(value: 1, key: PersistentPropertyKey(key: "a"))
    engine.wipeDirectory()
    #expect(folder.entries.isEmpty)
    let value: Int? = try engine.retrieve(key: PersistentPropertyKey(key: "a"))
    #expect(value == nil)
    try engine.store(value: 2, key: PersistentPropertyKey(key: "a"))
    #expect(try engine.retrieve(key: PersistentPropertyKey(key: "a")) == 2)
  }

  @Test("an app group root throws noRootDirectory, with a message naming app groups")
  func appGroup() {
    let engine = FileBasedPersistentPropertyStorageEngine(
      environmentId: "tests", rootDirectory: .appGroup("group.example"))
    do {
      try engine.store(value: 1, key: PersistentPropertyKey(key: "a"))
      Issue.record("store should throw")
    } catch let error as FileBasedPersistentPropertyStorageEngineError {
      guard case .noRootDirectory = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(error.description.contains("app group"))
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(throws: FileBasedPersistentPropertyStorageEngineError.self) {
      let _: Int? = try engine.retrieve(key: PersistentPropertyKey(key: "a"))
    }
  }

  @Test("a root folder that cannot be created makes every call throw unableToCreateDirectory")
  func uncreatableRoot() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("plain-file")
    try Data("x".utf8).write(to: file)
    let engine = FileBasedPersistentPropertyStorageEngine(
      rootDirectoryUrl: file.appendingPathComponent("inside"))
    do {
      try engine.store(value: 1, key: PersistentPropertyKey(key: "a"))
      Issue.record("store should throw")
    } catch FileBasedPersistentPropertyStorageEngineError.unableToCreateDirectory {
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test("the environment initializer keeps one folder per environment, escaped")
  func environmentFolder() throws {
    let environment = "env/../\(UUID().uuidString)"
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent(PersistentPropertyKey(key: environment).sanitizedIndex)
    // The environment's whole folder (wipeDirectory() would leave it, empty, behind).
    defer { try? FileManager.default.removeItem(at: folder) }
    let engine = FileBasedPersistentPropertyStorageEngine(
      environmentId: environment, rootDirectory: .temporary)
    try engine.store(value: 3, key: PersistentPropertyKey(key: "a"))
    let files = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("_PersistentProperties_").path)
    #expect(files.count == 1)
    let again = FileBasedPersistentPropertyStorageEngine(
      environmentId: environment, rootDirectory: .temporary)
    #expect(try again.retrieve(key: PersistentPropertyKey(key: "a")) == 3)
  }

  @Test("a new engine removes old temporary files of dead processes, and only those")
  func removesAbandonedTemporaryFiles() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let old = Date().addingTimeInterval(-600)
    let deadOld = ".a.json.999999999-1.tmp"
    let deadRecent = ".b.json.999999999-2.tmp"
    let aliveOld = ".c.json.\(getpid())-3.tmp"
    let unrelated = ".notes.tmp"
    for name in [deadOld, deadRecent, aliveOld, unrelated] {
      try Data("partial".utf8).write(to: folder.url.appendingPathComponent(name))
    }
    for name in [deadOld, aliveOld, unrelated] {
      try FileManager.default.setAttributes(
        [.modificationDate: old], ofItemAtPath: folder.url.appendingPathComponent(name).path)
    }
    _ = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    #expect(folder.entries == [aliveOld, deadRecent, unrelated].sorted())
  }
}
