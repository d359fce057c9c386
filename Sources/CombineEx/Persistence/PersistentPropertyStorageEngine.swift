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
/// for every value set, in order, one call at a time per key (while the stored value is
/// unreadable, each set calls ``retrieve(key:)`` first, in the same sequence). Engines are
/// called from any thread, without any lock held. A property with a migration asks `retrieve`
/// for a type of its own, which decodes through the engine's `Decoder`: decode values with a
/// `Decoder`, on the calling thread.
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
  /// - Throws: An error if a value exists but cannot be used; the property reports it through
  ///   its `error` and starts with its default value. Throw a
  ///   ``PersistentPropertyUnreadableValueError`` if the value could not be read at all (it is
  ///   still there, and must not be overwritten): the property then writes nothing until a read
  ///   succeeds or ``PersistentProperty/discardStoredValue()`` is called. Any other error (a
  ///   `DecodingError`: the content does not decode) lets the next write replace the value.
  func retrieve<T: Codable>(
    key: PersistentPropertyKey
  ) throws -> T?
}
