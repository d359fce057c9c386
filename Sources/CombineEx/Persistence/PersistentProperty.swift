import CombineExCore

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
///   stored value gives `defaultValue`; a stored value that cannot be read gives `defaultValue`
///   and sets ``error`` (the file engine keeps the unreadable file aside).
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
/// `Codable` type that decodes what older versions of your program wrote.
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
  /// or `defaultValue` if there is none (or it cannot be read).
  public init(
    storageEngine: any PersistentPropertyStorageEngine,
    key: PersistentPropertyKey,
    defaultValue: Output
  ) {
    slot = PersistentValueSlots.slot(engine: storageEngine, key: key, defaultValue: defaultValue)
    error = Property(slot.error)
  }

  /// Creates a property stored under the key `key` (with no sub-key) by `storageEngine`.
  public convenience init(
    storageEngine: any PersistentPropertyStorageEngine,
    key: any CustomStringConvertible,
    defaultValue: Output
  ) {
    self.init(
      storageEngine: storageEngine, key: PersistentPropertyKey(key: key),
      defaultValue: defaultValue)
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
