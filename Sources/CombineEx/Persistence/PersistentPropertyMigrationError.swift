/// A stored value that did not decode as the property's type, and that the property's migration
/// could not turn into one either: both errors.
///
/// The stored value counts as undecodable: the file engine keeps the file aside (this error is
/// then the ``PersistentPropertyCorruptFileError/underlyingError``), and the property starts with
/// its default value.
///
/// ```swift
/// func migrationFailure(_ error: (any Error)?) -> PersistentPropertyMigrationError? {
///   guard case .decodeFromDiskError(let underlying)? =
///     error as? FileBasedPersistentPropertyStorageEngineError
///   else { return error as? PersistentPropertyMigrationError }
///   return (underlying as? PersistentPropertyCorruptFileError)?.underlyingError
///     as? PersistentPropertyMigrationError
/// }
/// ```
public struct PersistentPropertyMigrationError: Error, CustomStringConvertible {
  /// Why the stored value did not decode as the property's type (a `DecodingError`).
  public let decodingError: any Error

  /// What the migration threw.
  public let migrationError: any Error

  /// Creates the error.
  public init(decodingError: any Error, migrationError: any Error) {
    self.decodingError = decodingError
    self.migrationError = migrationError
  }

  /// A sentence with both errors.
  public var description: String {
    "the stored value did not decode (\(decodingError)), and its migration failed "
      + "(\(migrationError))"
  }
}
