/// Where a ``PersistentProperty`` keeps its value: a store of `Codable` values by
/// ``PersistentPropertyKey``.
///
/// CombineEx provides ``FileBasedPersistentPropertyStorageEngine``. A custom engine (a
/// database, a test double) implements the two methods:
///
/// ```swift
/// final class MemoryEngine: PersistentPropertyStorageEngine, @unchecked Sendable {
///   // @unchecked Sendable: `stored` is guarded by `lock`.
///   private let lock = NSLock()
///   private var stored: [PersistentPropertyKey: Data] = [:]
///
///   func store(value: some Codable, key: PersistentPropertyKey) throws {
///     let data = try JSONEncoder().encode([value])
///     lock.withLock { stored[key] = data }
///   }
///
///   func retrieve<T: Codable>(key: PersistentPropertyKey) throws -> T? {
///     guard let data = lock.withLock({ stored[key] }) else { return nil }
///     return try JSONDecoder().decode([T].self, from: data).first
///   }
/// }
/// let count = PersistentProperty(storageEngine: MemoryEngine(), key: "count", defaultValue: 0)
/// count.value = 3
/// ```
///
/// A ``PersistentProperty`` calls ``retrieve(key:)`` once, when it is created (unless another
/// live property already holds that key, see ``PersistentProperty``), and ``store(value:key:)``
/// for every value set, in order, one call at a time per key. Engines are called from any
/// thread, without any lock held.
public protocol PersistentPropertyStorageEngine: Sendable {
  /// Stores `value` under `key`, replacing any value stored before.
  ///
  /// - Throws: An error if the value cannot be stored; the property reports it through its
  ///   `error` and keeps the value in memory.
  func store(
    value: some Codable,
    key: PersistentPropertyKey
  ) throws

  /// The value stored under `key`, or `nil` if there is none.
  ///
  /// - Throws: An error if a value exists but cannot be read or decoded; the property reports
  ///   it through its `error` and starts with its default value.
  func retrieve<T: Codable>(
    key: PersistentPropertyKey
  ) throws -> T?
}
