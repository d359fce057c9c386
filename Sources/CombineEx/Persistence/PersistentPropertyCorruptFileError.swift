import Foundation

/// A stored file whose content could not be decoded, and where it was kept: the underlying error
/// of ``FileBasedPersistentPropertyStorageEngineError/decodeFromDiskError(_:)`` in that case.
/// (A file that could not be read at all is left in place:
/// ``PersistentPropertyUnreadableValueError``.)
///
/// The engine never overwrites such a file: it renames it (in the same folder, adding
/// `.corrupt-` and a timestamp to its name) before reporting the error, so that the property can
/// start over with its default value while the old bytes stay available for recovery.
///
/// ```swift
/// func describe(_ error: (any Error)?) -> String {
///   guard case .decodeFromDiskError(let underlying)? =
///     error as? FileBasedPersistentPropertyStorageEngineError,
///     let corrupt = underlying as? PersistentPropertyCorruptFileError
///   else { return "no corrupt file" }
///   return "kept at \(corrupt.keptAt?.lastPathComponent ?? "nowhere")"
/// }
/// ```
public struct PersistentPropertyCorruptFileError: Error, CustomStringConvertible {
  /// Why the file could not be used: a `DecodingError`, or a
  /// ``PersistentPropertyMigrationError`` if the property's migration failed too.
  public let underlyingError: any Error

  /// Where the file is now, or `nil` if it could not be moved (it was then left in place, and
  /// the next write replaces it).
  public let keptAt: URL?

  /// Creates the error.
  public init(underlyingError: any Error, keptAt: URL?) {
    self.underlyingError = underlyingError
    self.keptAt = keptAt
  }

  /// A sentence saying what went wrong and where the file is.
  public var description: String {
    let place = keptAt.map { "kept at \($0.path)" } ?? "could not be moved aside"
    return "undecodable persistent property file (\(underlyingError)); \(place)"
  }
}
