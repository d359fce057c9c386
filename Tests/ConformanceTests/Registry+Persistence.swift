import CombineEx
import Foundation

extension Registry {
  // MARK: PersistentProperty (CombineEx)

  static let persistentProperties: [RegistryEntry] = [
    // In memory: the file engine's writes (flushed to the disk) would make the thousands of
    // scenarios slow; PersistentPropertyTests check the file path, on top of the same
    // MutableProperty delivery checked here.
    .generic(
      "PersistentProperty",
      [
        CaseBuilder("PersistentProperty", traits: .neverCompletes) { env in
          let property = PersistentProperty(
            storageEngine: ConformanceStorageEngine(), key: "value", defaultValue: -1)
          env.drive(
            "PersistentProperty", keepAlive: property, canFail: false,
            send: { property.value = $0 }, complete: nil)
          return property
        }
      ])
  ]
}

/// A storage engine in memory for the conformance cases: each case gets its own instance, so
/// properties never share a value across cases.
final class ConformanceStorageEngine: PersistentPropertyStorageEngine, @unchecked Sendable {
  // @unchecked Sendable: `values` is guarded by `lock`.
  private let lock = NSLock()
  private var values: [PersistentPropertyKey: Data] = [:]

  func store(value: some Codable, key: PersistentPropertyKey) throws {
    let data = try JSONEncoder().encode([value])
    lock.withLock { values[key] = data }
  }

  func retrieve<T: Codable>(key: PersistentPropertyKey) throws -> T? {
    guard let data = lock.withLock({ values[key] }) else { return nil }
    return try JSONDecoder().decode([T].self, from: data).first
  }
}
