import CombineExCore
import Foundation

/// What a read of the stored value found.
enum PersistentStoredValueRead<Output> {
  /// The value, or `nil` if nothing is stored.
  case value(Output?)
  /// A value is stored but could not be read (``PersistentPropertyUnreadableValueError``).
  case unreadable(any Error)
  /// The stored value does not decode (the file engine has set it aside), or the engine failed
  /// otherwise.
  case undecodable(any Error)
}

/// Reads one key's stored value, with the property's migration if it has one.
struct PersistentValueReader<Output: Codable>: Sendable {
  let engine: any PersistentPropertyStorageEngine
  let key: PersistentPropertyKey
  let migration: (@Sendable (Data) throws -> Output)?

  func read() -> PersistentStoredValueRead<Output> {
    do {
      guard let migration else { return .value(try engine.retrieve(key: key)) }
      let context = PersistentValueMigration(migrate: migration)
      let stored: PersistentMigratingValue<Output>? = try PersistentValueMigration.$current
        .withValue(context) { try engine.retrieve(key: key) }
      return .value(stored?.value)
    } catch {
      return Self.isUnreadable(error) ? .unreadable(error) : .undecodable(error)
    }
  }

  /// Sets an unreadable stored value aside before it is discarded: the file engine renames the
  /// file (or the directory in its place); other engines write over it.
  func setAside() throws {
    guard let fileEngine = engine as? FileBasedPersistentPropertyStorageEngine else { return }
    try fileEngine.setAsideUnreadableValue(for: key)
  }

  /// Whether `error` says that a stored value exists but could not be read.
  private static func isUnreadable(_ error: any Error) -> Bool {
    if error is PersistentPropertyUnreadableValueError { return true }
    guard
      case .decodeFromDiskError(let underlying)? =
        error as? FileBasedPersistentPropertyStorageEngineError
    else { return false }
    return underlying is PersistentPropertyUnreadableValueError
  }
}
