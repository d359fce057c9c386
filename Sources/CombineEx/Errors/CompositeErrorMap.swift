import CombineExCore

/// The mappings a ``CompositeError`` uses to file lower-level errors under its cases.
///
/// Build one by chaining ``mapping(_:resolution:)``, usually in the error type's `errorMap`:
///
/// ```swift
/// struct DiskFull: Error {}
/// struct NotFound: Error { let path: String }
/// enum SaveError: CompositeError {
///   case diskFull
///   case missing(String)
///   case unexpected(any Error)
///
///   static let errorMap = CompositeErrorMap<SaveError>()
///     .mapping(DiskFull.self) { _ in .diskFull }
///     .mapping(NotFound.self) { .missing($0.path) }
/// }
/// print(SaveError.wrappingAllCases(NotFound(path: "/tmp/a")))
/// // Prints: missing("/tmp/a")
/// ```
///
/// An error is matched by type (`error as? E`), against the mappings in the order they were
/// added: the first that matches makes the case. The map is safe to share between threads;
/// adding a mapping while another thread resolves an error is safe too, though the resolution
/// may or may not see the new mapping.
public final class CompositeErrorMap<T: CompositeError>: Sendable {
  /// One mapping: it claims the errors of one type and makes a `T` of them.
  private struct Mapping: Sendable {
    /// The mapping's case for `error`, or `nil` if `error` is not of the mapping's type.
    let resolve: @Sendable (any Error) -> T?
  }

  /// The mappings, in the order they were added.
  private let mappings = LockedMappings()

  /// An empty map: it claims no error until mappings are added.
  public init() {}

  /// Adds a mapping for the errors of type `type`, tried after the mappings added before it;
  /// returns this map, so that mappings chain.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// enum FetchError: CompositeError {
  ///   case offline
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<FetchError>().mapping(Offline.self) { _ in .offline }
  /// }
  /// print(FetchError.wrappingAllCases(Offline()))
  /// // Prints: offline
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type of the errors this mapping claims (subclasses and conforming types
  ///     match as they do for `as?`).
  ///   - resolution: Makes the case for one such error.
  public func mapping<E: Error>(_ type: E.Type, resolution: @escaping @Sendable (E) -> T) -> Self {
    let mapping = Mapping { error in (error as? E).map(resolution) }
    mappings.append(mapping)
    return self
  }

  /// The case the first matching mapping makes for `error`, or `nil` if none matches.
  func resolving(_ error: some Error) -> T? {
    // The resolutions run outside the lock: they are user code.
    for mapping in mappings.snapshot() {
      if let resolved = mapping.resolve(error) { return resolved }
    }
    return nil
  }

  /// The list of mappings, guarded by a lock.
  private final class LockedMappings: @unchecked Sendable {
    // @unchecked Sendable: `list` is only read and written under `lock`, and holds Sendable
    // values.
    private let lock = Lock()
    private var list: [Mapping] = []

    func append(_ mapping: Mapping) {
      lock.withLock { list.append(mapping) }
    }

    func snapshot() -> [Mapping] {
      lock.withLock { list }
    }
  }
}
