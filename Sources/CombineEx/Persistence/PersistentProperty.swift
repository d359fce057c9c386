import CombineExCore
import Foundation

/// A ``MutableProperty`` whose value is stored by a storage engine, so that it survives the
/// process: it starts with the stored value, and every value set is written back.
///
/// ```swift
/// let folder = FileManager.default.temporaryDirectory
///   .appendingPathComponent("PersistentPropertyExample-\(UUID().uuidString)")
/// let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder)
/// let username = PersistentProperty<String?>(
///   storageEngine: engine, key: "username", defaultValue: nil)
/// username.value = "ada"  // on disk when this line returns
/// // ... the next run of the program:
/// let restored = PersistentProperty<String?>(
///   storageEngine: engine, key: "username", defaultValue: nil)
/// print(restored.value ?? "-")  // Prints: ada
/// engine.wipeDirectory()
/// ```
///
/// ## Semantics
/// - It is a property like ``MutableProperty``, with the same threading contract (it is built on
///   one): `value`, `modify(_:)`, ``withValue(_:)`` and ``swap(_:)`` from any thread;
///   subscribing delivers the current value, then every change.
/// - **Loading.** At creation it reads the engine: a stored value is the starting value; no
///   stored value gives `defaultValue`. A stored value that does not decode gives the
///   `migration`'s value if there is a migration and it succeeds; otherwise `defaultValue`, and
///   ``error`` is set (the file engine keeps the undecodable file aside, and the next write
///   replaces it).
/// - **Unreadable values.** A stored value that could not be read at all (the file engine:
///   permissions, too many open files, a directory in the file's place; any engine: a
///   ``PersistentPropertyUnreadableValueError``) is not corrupt: it is left where it is, ``error``
///   reports the read error, and nothing is written over it while it stays unreadable. A set
///   changes the value in memory, and each set first reads the engine again: once the read
///   succeeds (or finds no value, or one that does not decode), the set's value is written, as
///   every later one. ``discardStoredValue()`` gives the stored value up at once.
/// - **Writing.** Every value set is written to the engine before the set returns, in the order
///   the values were set, before any other subscriber sees it. After sets from many threads
///   have returned, the stored value is the property's value. (A set made from inside one of
///   the property's own subscribers is written after the current delivery, with the value.)
///   A write that fails sets ``error``; the value stays set in memory.
/// - **Sharing.** Live properties on the same stored value (the same key in the same folder,
///   with the file engine, even through two engine instances; the same key of the same engine
///   object otherwise) and of the same `Output` type share one value: a set on one is seen by
///   the others at once, and is written once. The first one's `defaultValue` applies until a
///   value is stored.
///
/// The value is written as JSON by ``FileBasedPersistentPropertyStorageEngine``; choose a
/// `Codable` type that decodes what older versions of your program wrote, or give a `migration`
/// that turns their JSON into a value.
public final class PersistentProperty<Output: Codable>: ComposableMutablePropertyProtocol {
  /// A property never fails.
  public typealias Failure = Never

  /// The last error met reading or writing the stored value, or `nil` if there has been none.
  ///
  /// It is not reset by a later success: it tells that something went wrong since the value was
  /// loaded. Properties sharing a stored value share their errors.
  public let error: Property<(any Error)?>

  private let slot: PersistentValueSlot<Output>

  /// Creates a property stored under `key` by `storageEngine`, starting with the stored value,
  /// or `defaultValue` if there is none (or it cannot be used).
  ///
  /// ```swift
  /// struct Settings: Codable { var volume: Int; var theme: String }
  /// struct SettingsV1: Codable { var volume: Int }  // what version 1 stored
  /// let engine = FileBasedPersistentPropertyStorageEngine(
  ///   rootDirectoryUrl: FileManager.default.temporaryDirectory
  ///     .appendingPathComponent("MigrationExample-\(UUID().uuidString)"))
  /// try engine.store(value: SettingsV1(volume: 7), key: PersistentPropertyKey(key: "settings"))
  /// let settings = PersistentProperty(
  ///   storageEngine: engine, key: "settings", defaultValue: Settings(volume: 5, theme: "light"),
  ///   migration: { json in
  ///     let old = try JSONDecoder().decode(SettingsV1.self, from: json)
  ///     return Settings(volume: old.volume, theme: "light")
  ///   })
  /// print(settings.value.volume)  // Prints: 7
  /// engine.wipeDirectory()
  /// ```
  ///
  /// - Parameters:
  ///   - storageEngine: Where the value is stored.
  ///   - key: The stored value's name.
  ///   - defaultValue: The value while nothing usable is stored.
  ///   - migration: Called when the stored value does not decode as `Output` (a type that
  ///     gained a field, say), with the stored value as JSON (the file engine's file holds
  ///     `{"value": <this JSON>}`); returns the value to start with, which the next set writes
  ///     over the old one. If it throws, the stored value counts as undecodable: the file engine
  ///     keeps the file aside, and ``error`` holds a ``PersistentPropertyMigrationError`` with
  ///     both errors. The engine must decode values with a `Decoder` on the thread that calls
  ///     its `retrieve(key:)`, as the file engine does. Properties sharing a stored value use
  ///     the first one's migration.
  public init(
    storageEngine: any PersistentPropertyStorageEngine,
    key: PersistentPropertyKey,
    defaultValue: Output,
    migration: (@Sendable (_ storedJSON: Data) throws -> Output)? = nil
  ) {
    slot = PersistentValueSlots.slot(
      engine: storageEngine, key: key, defaultValue: defaultValue, migration: migration)
    error = Property(slot.error)
  }

  /// Creates a property stored under the key `key` (with no sub-key) by `storageEngine`; see
  /// ``init(storageEngine:key:defaultValue:migration:)-(_,PersistentPropertyKey,_,_)``.
  public convenience init(
    storageEngine: any PersistentPropertyStorageEngine,
    key: any CustomStringConvertible,
    defaultValue: Output,
    migration: (@Sendable (_ storedJSON: Data) throws -> Output)? = nil
  ) {
    self.init(
      storageEngine: storageEngine, key: PersistentPropertyKey(key: key),
      defaultValue: defaultValue, migration: migration)
  }

  /// Gives up the stored value, readable or not, and writes the property's current value in its
  /// place (publishing it again, as a set of that value would).
  ///
  /// Use it when ``error`` reports a stored value that cannot be read
  /// (``PersistentPropertyUnreadableValueError``) and you choose to continue without it: the
  /// file engine first renames the unreadable file (or the directory in its place) aside, with
  /// `.unreadable-` and a timestamp added to its name, so that nothing is destroyed; other
  /// engines write over it. ``error`` is reset to `nil` first, then reports what the discard
  /// met (the file could not be renamed: it stays unreadable; or the write failed).
  ///
  /// ```swift
  /// let engine = FileBasedPersistentPropertyStorageEngine(
  ///   rootDirectoryUrl: FileManager.default.temporaryDirectory
  ///     .appendingPathComponent("DiscardExample-\(UUID().uuidString)"))
  /// let theme = PersistentProperty(storageEngine: engine, key: "theme", defaultValue: "light")
  /// if theme.error.value != nil { theme.discardStoredValue() }
  /// engine.wipeDirectory()
  /// ```
  public func discardStoredValue() {
    slot.discardStoredValue()
  }

  /// The current value. Setting it stores it, then publishes it to every subscriber.
  public var value: Output {
    get { slot.value.value }
    set { slot.value.value = newValue }
  }

  /// Atomically modifies the value, then stores and publishes the result once.
  ///
  /// As with `MutableProperty/modify(_:)`, `block` may run more than once if another thread
  /// sets the property meanwhile: keep it free of side effects.
  public func modify(_ block: (inout Output) -> Void) {
    slot.value.modify(block)
  }

  /// Atomically modifies the value, then stores and publishes the result once, and returns
  /// what `body` returns (`body` may run more than once, as for the other `modify(_:)`).
  @discardableResult
  public func modify<Result>(_ body: (inout Output) throws -> Result) rethrows -> Result {
    try slot.value.modify(body)
  }

  /// Calls `action` with the current value and returns its result.
  public func withValue<Result>(_ action: (Output) -> Result) -> Result {
    slot.value.withValue(action)
  }

  /// Calls the throwing `action` with the current value and returns its result, or rethrows
  /// its error.
  public func tryWithValue<Result>(_ action: (Output) throws -> Result) rethrows -> Result {
    try slot.value.withValue(action)
  }

  /// Replaces the value, stores and publishes the new one, and returns the old one.
  @discardableResult
  public func swap(_ newValue: Output) -> Output {
    slot.value.swap(newValue)
  }

  /// Attaches a subscriber, which receives the current value, then every change.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    slot.value.receive(subscriber: subscriber)
  }
}

extension PersistentProperty: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: both stored properties are immutable references to thread-safe
  // objects (a slot made of MutablePropertys, and a Property view of one).
}
