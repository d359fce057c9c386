import CombineExCore

/// An umbrella error for an operation that can fail with several kinds of lower-level errors.
///
/// A long piece of work (a future that talks to the network, then to a database, then parses)
/// can fail in many ways, each with its own error type. An umbrella enum with a case per kind
/// keeps the failure typed; adopting `CompositeError` lets CombineEx file any error under the
/// right case for you (``wrappingAllCases(_:)``, and
/// `wrapWithCompositeFailure()` on publishers and futures):
///
/// ```swift
/// struct NetworkError: Error {}
/// struct ParseError: Error {}
///
/// enum LoadError: CompositeError {
///   case network(NetworkError)
///   case parse(ParseError)
///   case unexpected(any Error)
///
///   static let errorMap = CompositeErrorMap<LoadError>()
///     .mapping(NetworkError.self) { .network($0) }
///     .mapping(ParseError.self) { .parse($0) }
/// }
///
/// print(LoadError.wrappingAllCases(ParseError()))
/// // Prints: parse(ParseError())
/// ```
///
/// The `case unexpected(any Error)` satisfies ``unexpected(_:)``: it receives every error that
/// is neither a `LoadError` already nor mapped by ``errorMap``.
public protocol CompositeError: Error {
  /// How each lower-level error becomes a case of this type, tried in the order the mappings
  /// were added.
  ///
  /// It need not handle errors that are already of this type, nor unexpected ones: those are
  /// passed through unchanged, and wrapped with ``unexpected(_:)``, respectively.
  static var errorMap: CompositeErrorMap<Self> { get }

  /// The case for an error that no mapping claims: declaring `case unexpected(any Error)` is
  /// enough.
  static func unexpected(_ error: any Error) -> Self
}

extension CompositeError {
  /// `error` as this type: unchanged if it already is one, else the case its first matching
  /// ``errorMap`` mapping makes; `nil` if no mapping claims it.
  ///
  /// Unlike ``wrappingAllCases(_:)`` it never makes the ``unexpected(_:)`` case, so it suits
  /// code that wants to handle unknown errors itself:
  ///
  /// ```swift
  /// struct Timeout: Error {}
  /// struct Cancelled: Error {}
  /// enum StepError: CompositeError {
  ///   case timeout(Timeout)
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<StepError>().mapping(Timeout.self) { .timeout($0) }
  /// }
  /// if case .timeout = StepError.wrappingWithSelf(Timeout()) { print("a timeout") }
  /// // Prints: a timeout
  /// print(StepError.wrappingWithSelf(Cancelled()) == nil)
  /// // Prints: true
  /// ```
  public static func wrappingWithSelf(_ error: some Error) -> Self? {
    if let alreadyWrapped = error as? Self { return alreadyWrapped }
    return errorMap.resolving(error)
  }

  /// `error` as this type, always: unchanged if it already is one, else the case its first
  /// matching ``errorMap`` mapping makes, else ``unexpected(_:)``.
  ///
  /// ```swift
  /// struct Timeout: Error {}
  /// struct Cancelled: Error {}
  /// enum StepError: CompositeError {
  ///   case timeout(Timeout)
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<StepError>().mapping(Timeout.self) { .timeout($0) }
  /// }
  /// print(StepError.wrappingAllCases(Cancelled()))
  /// // Prints: unexpected(Cancelled())
  /// ```
  public static func wrappingAllCases(_ error: some Error) -> Self {
    wrappingWithSelf(error) ?? unexpected(error)
  }
}
