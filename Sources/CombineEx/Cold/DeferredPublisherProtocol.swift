import CombineExCore

/// The original CombineEx's name for a cold publisher: the same protocol as ``ColdPublisher``.
///
/// Code written against the original library keeps compiling: `some DeferredPublisherProtocol<Int,
/// Never>` as a return type, `P: DeferredPublisherProtocol` as a constraint, and
/// `extension DeferredPublisherProtocol` all mean ``ColdPublisher``.
///
/// ```swift
/// func evens() -> some DeferredPublisherProtocol<Int, Never> {
///   Deferred { [1, 2, 3, 4].publisher }.filter { $0.isMultiple(of: 2) }
/// }
/// let cancellable = evens().sink { print($0) }  // Prints: 2, 4
/// ```
public typealias DeferredPublisherProtocol = ColdPublisher

extension ColdPublisher {
  /// A closure that returns the publisher one subscription runs: for a cold publisher, the
  /// publisher itself, since subscribing to it already starts a new run.
  ///
  /// The original CombineEx required this of its deferred publishers. `Deferred` keeps its own
  /// `createPublisher` (its closure), and ``AnyDeferredPublisher`` returns a new
  /// `AnyPublisher` of its work.
  ///
  /// ```swift
  /// let numbers = Just(1).map { $0 * 10 }
  /// let cancellable = numbers.createPublisher().sink { print($0) }  // Prints: 10
  /// ```
  public var createPublisher: () -> Self {
    { self }
  }

  /// Applies `transform` to this publisher inside a `Deferred`, so that the transformed
  /// publisher is built anew for each subscription (the original CombineEx's way of keeping an
  /// operator chain cold).
  ///
  /// ```swift
  /// let doubled = Just(21).deferredLift { $0.map { $0 * 2 } }
  /// let cancellable = doubled.sink { print($0) }  // Prints: 42
  /// ```
  ///
  /// Combine's operators on a cold publisher are cold already (see ``ColdPublisher``): use this
  /// when the transform itself must run per subscription, or where the original did.
  public func deferredLift<Target: Publisher>(
    _ transform: @escaping (Self) -> Target
  ) -> Deferred<Target> {
    Deferred { transform(self) }
  }
}

extension Deferred {
  /// The type of the publisher each subscription runs, as the original CombineEx names it.
  public typealias WrappedPublisher = DeferredPublisher
}
