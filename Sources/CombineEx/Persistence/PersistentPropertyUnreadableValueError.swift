import Foundation

/// A stored value that exists but could not be read (not one that does not decode): a file that
/// cannot be opened or read (permissions, too many open files, a directory in its place), a
/// database that does not answer.
///
/// A storage engine throws it from `retrieve(key:)` (the file engine wraps it in
/// ``FileBasedPersistentPropertyStorageEngineError/decodeFromDiskError(_:)``) to say that the
/// stored value is still there, untouched, and must not be overwritten. A ``PersistentProperty``
/// then starts with its default value, reports the error in its `error`, and writes nothing while
/// the value stays unreadable: a set changes the value in memory, and each set first tries the
/// read again. ``PersistentProperty/discardStoredValue()`` gives the stored value up.
///
/// ```swift
/// func isUnreadable(_ error: (any Error)?) -> Bool {
///   guard case .decodeFromDiskError(let underlying)? =
///     error as? FileBasedPersistentPropertyStorageEngineError
///   else { return error is PersistentPropertyUnreadableValueError }
///   return underlying is PersistentPropertyUnreadableValueError
/// }
/// ```
public struct PersistentPropertyUnreadableValueError: Error, CustomStringConvertible {
  /// Why the value could not be read (for the file engine, the file system's error).
  public let underlyingError: any Error

  /// Where the value is, left as it was (the file engine's file), if the engine knows.
  public let location: URL?

  /// Creates the error.
  public init(underlyingError: any Error, location: URL? = nil) {
    self.underlyingError = underlyingError
    self.location = location
  }

  /// A sentence saying what went wrong and that the value was left in place.
  public var description: String {
    let place = location.map { " at \($0.path)" } ?? ""
    return "the persistent property's stored value\(place) could not be read (\(underlyingError)); "
      + "it was left in place, and nothing is written over it while it stays unreadable"
  }
}
