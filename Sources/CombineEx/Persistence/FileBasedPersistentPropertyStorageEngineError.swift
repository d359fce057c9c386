/// What can go wrong in a ``FileBasedPersistentPropertyStorageEngine``.
public enum FileBasedPersistentPropertyStorageEngineError: Error, CustomStringConvertible {
  /// The engine has no root directory: the requested standard directory does not exist here,
  /// or it names an app group's container, which only Apple platforms have.
  case noRootDirectory

  /// The root directory could not be created.
  /// - Parameter underlyingError: Why.
  case unableToCreateDirectory(Error)

  /// No file path could be made for the key.
  case filePathError

  /// The value could not be encoded, or written to disk.
  /// - Parameter underlyingError: Why.
  case encodeToDiskError(Error)

  /// The stored file could not be read, or decoded as the property's type. If its content did
  /// not decode, the file has been kept aside, and the underlying error is a
  /// ``PersistentPropertyCorruptFileError``; if it could not be read at all, it was left where it
  /// is, and the underlying error is a ``PersistentPropertyUnreadableValueError``.
  /// - Parameter underlyingError: Why.
  case decodeFromDiskError(Error)

  /// A sentence saying what went wrong.
  public var description: String {
    switch self {
    case .noRootDirectory:
      return "FileBasedPersistentPropertyStorageEngine has no root directory: the requested "
        + "directory is not available on this platform (an app group container exists only on "
        + "Apple platforms; use init(rootDirectoryUrl:) with a folder of your choice)"
    case .unableToCreateDirectory(let error):
      return
        "FileBasedPersistentPropertyStorageEngine could not create its root directory: \(error)"
    case .filePathError:
      return "FileBasedPersistentPropertyStorageEngine could not make a file path for the key"
    case .encodeToDiskError(let error):
      return "FileBasedPersistentPropertyStorageEngine could not store the value: \(error)"
    case .decodeFromDiskError(let error):
      return "FileBasedPersistentPropertyStorageEngine could not read the stored value: \(error)"
    }
  }
}
