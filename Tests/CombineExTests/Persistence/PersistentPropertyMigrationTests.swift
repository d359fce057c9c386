import CombineEx
import CombineExTesting
import Foundation
import Testing

/// Version 1 of a settings struct: what older versions of a program stored.
private struct SettingsV1: Codable, Equatable {
  var volume: Int
}

/// Version 2 gained a field, so version 1's JSON no longer decodes as it.
private struct SettingsV2: Codable, Equatable {
  var volume: Int
  var theme: String
}

private struct MigrationRefused: Error, Equatable {}

/// Migrates version 1's JSON, counting its calls.
private final class Migrator: Sendable {
  let calls = LockedBox(0)
  let inputs = LockedBox<[String]>([])

  var migration: @Sendable (Data) throws -> SettingsV2 {
    { [self] json in
      calls.withLock { $0 += 1 }
      inputs.withLock { $0.append(String(decoding: json, as: UTF8.self)) }
      let old = try JSONDecoder().decode(SettingsV1.self, from: json)
      return SettingsV2(volume: old.volume, theme: "light")
    }
  }
}

private let settingsKey = PersistentPropertyKey(key: "settings")
private let defaultSettings = SettingsV2(volume: 5, theme: "dark")

@Suite("PersistentProperty: migrating stored values")
struct PersistentPropertyMigrationTests {
  @Test("a stored value that no longer decodes is migrated, and the next set writes the new form")
  func migratesOldValue() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    try engine.store(value: SettingsV1(volume: 7), key: settingsKey)
    let migrator = Migrator()
    let settings = PersistentProperty(
      storageEngine: engine, key: settingsKey, defaultValue: defaultSettings,
      migration: migrator.migration)
    #expect(settings.value == SettingsV2(volume: 7, theme: "light"))
    #expect(settings.error.value == nil)
    #expect(folder.entries == ["\(settingsKey.sanitizedIndex).json"])  // nothing set aside
    #expect(migrator.inputs.withLock { $0 } == [#"{"volume":7}"#])  // the value, not the envelope
    settings.modify { $0.theme = "blue" }
    #expect(try engine.retrieve(key: settingsKey) == SettingsV2(volume: 7, theme: "blue"))
  }

  @Test("the migration is not called for a value that decodes")
  func notCalledWhenDecodable() throws {
    let engine = MemoryStorageEngine()
    try engine.store(value: SettingsV2(volume: 1, theme: "x"), key: settingsKey)
    let migrator = Migrator()
    let settings = PersistentProperty(
      storageEngine: engine, key: settingsKey, defaultValue: defaultSettings,
      migration: migrator.migration)
    #expect(settings.value == SettingsV2(volume: 1, theme: "x"))
    #expect(migrator.calls.withLock { $0 } == 0)
  }

  @Test("another engine's envelope does not matter: the migration gets the value's JSON")
  func otherEngine() throws {
    let engine = MemoryStorageEngine()  // stores [value]
    try engine.store(value: SettingsV1(volume: 3), key: settingsKey)
    let migrator = Migrator()
    let settings = PersistentProperty(
      storageEngine: engine, key: settingsKey, defaultValue: defaultSettings,
      migration: migrator.migration)
    #expect(settings.value == SettingsV2(volume: 3, theme: "light"))
    #expect(migrator.inputs.withLock { $0 } == [#"{"volume":3}"#])
  }

  @Test(
    "a migration that throws: the file is set aside, error has both errors, the default is used")
  func throwingMigration() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    try engine.store(value: SettingsV1(volume: 7), key: settingsKey)
    let settings = PersistentProperty(
      storageEngine: engine, key: settingsKey, defaultValue: defaultSettings,
      migration: { _ in throw MigrationRefused() })
    #expect(settings.value == defaultSettings)
    guard
      case .decodeFromDiskError(let underlying)? =
        settings.error.value as? FileBasedPersistentPropertyStorageEngineError,
      let corrupt = underlying as? PersistentPropertyCorruptFileError,
      let migration = corrupt.underlyingError as? PersistentPropertyMigrationError
    else {
      Issue.record("expected a migration error, got \(String(describing: settings.error.value))")
      return
    }
    #expect(migration.decodingError is DecodingError)
    #expect(migration.migrationError as? MigrationRefused == MigrationRefused())
    #expect(corrupt.keptAt?.lastPathComponent.contains(".corrupt-") == true)
    settings.value = SettingsV2(volume: 1, theme: "new")
    #expect(folder.entries.count == 2)  // the new file, and the old one kept aside
  }

  @Test("with another engine, a throwing migration is reported with both errors")
  func throwingMigrationOtherEngine() throws {
    let engine = MemoryStorageEngine()
    try engine.store(value: SettingsV1(volume: 7), key: settingsKey)
    let settings = PersistentProperty(
      storageEngine: engine, key: settingsKey, defaultValue: defaultSettings,
      migration: { _ in throw MigrationRefused() })
    #expect(settings.value == defaultSettings)
    let error = settings.error.value as? PersistentPropertyMigrationError
    #expect(error?.migrationError is MigrationRefused)
    #expect(error?.decodingError is DecodingError)
  }

  @Test("without a migration, a struct that gained a field starts from its default")
  func noMigration() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    try engine.store(value: SettingsV1(volume: 7), key: settingsKey)
    let settings = PersistentProperty(
      storageEngine: engine, key: settingsKey, defaultValue: defaultSettings)
    #expect(settings.value == defaultSettings)
    #expect(settings.error.value != nil)
  }

  @Test("the migration's JSON keeps numbers, strings, booleans, nulls, arrays and objects")
  func jsonTree() throws {
    struct Rich: Codable, Equatable {
      var integer: Int
      var big: UInt64
      var fraction: Double
      var flag: Bool
      var text: String
      var missing: String?
      var list: [Int?]
      var nested: [String: [Bool]]
    }
    struct Wrapper: Codable, Equatable { var rich: Rich }
    let rich = Rich(
      integer: -3, big: UInt64.max, fraction: 0.5, flag: true, text: "é\"", missing: nil,
      list: [1, nil], nested: ["a": [false]])
    let engine = MemoryStorageEngine()
    try engine.store(value: rich, key: settingsKey)
    let property = PersistentProperty(
      storageEngine: engine, key: settingsKey, defaultValue: Wrapper(rich: rich),
      migration: { json in Wrapper(rich: try JSONDecoder().decode(Rich.self, from: json)) })
    #expect(property.value == Wrapper(rich: rich))
    #expect(property.error.value == nil)
  }
}
