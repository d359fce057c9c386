import CombineExCore

/// A cold publisher of exactly one result: ``DeferredFuture`` and ``AnyDeferredFuture``.
///
/// Every subscription runs the future's work anew, and receives either one value followed by
/// `.finished`, or a failure. The single-value operators that CombineEx declares on this
/// protocol (`map`, `flatMap`, `catch`, `retry`, `delay`, `zip`, ...) return a
/// ``DeferredFuture``, so a chain of them stays a cold future; multi-value operators (`filter`,
/// `collect`, ...) are Combine's own and return ordinary publishers.
///
/// ```swift
/// let future = DeferredFuture<Int, Never> { promise in promise(.success(20)) }
/// let doubled: DeferredFuture<Int, Never> = future.map { $0 * 2 }
/// let cancellable = doubled.sink { print($0) }  // Prints: 40
/// ```
///
/// It refines ``ColdPublisher`` (the original CombineEx's `DeferredPublisherProtocol`), so a
/// future erases to an ``AnyDeferredPublisher`` with `eraseToAnyDeferredPublisher()` when you
/// need multi-value operators on it.
///
/// Conform your own types by returning a ``DeferredFuture``-backed ``AnyDeferredFuture`` from
/// ``eraseToAnyDeferredFuture()``: that keeps the "one result per subscription" promise.
public protocol DeferredFutureProtocol<Output, Failure>: ColdPublisher {
  /// Wraps this future in a type eraser that keeps its cold, single-result semantics.
  ///
  /// ```swift
  /// func loadName() -> AnyDeferredFuture<String, Never> {
  ///   DeferredFuture { promise in promise(.success("Ada")) }.eraseToAnyDeferredFuture()
  /// }
  /// let cancellable = loadName().sink { print($0) }  // Prints: Ada
  /// ```
  func eraseToAnyDeferredFuture() -> AnyDeferredFuture<Output, Failure>
}

extension DeferredFutureProtocol {
  /// The future's publisher, type-erased: what the operators build on.
  @usableFromInline
  var erasedPublisher: AnyPublisher<Output, Failure> {
    eraseToAnyDeferredFuture().future.publisher
  }
}

extension DeferredFutureProtocol {
  /// The future as a chain that single-value operators compose onto (one subscription for the
  /// whole chain), or `nil` if it runs as a publisher (then the operators subscribe it).
  @inlinable
  var composableChain: FutureChain<Output, Failure>? {
    eraseToAnyDeferredFuture().future.chain
  }

  /// Runs the future as the next stage of a composed future's subscription.
  @inlinable
  func run(in run: FutureRun, promise: @escaping FutureChain<Output, Failure>.Continuation) {
    eraseToAnyDeferredFuture().future.run(in: run, promise: promise)
  }
}
