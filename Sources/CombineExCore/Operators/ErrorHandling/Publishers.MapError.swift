extension Publisher {
  /// Converts any failure from the upstream publisher into a new error.
  ///
  /// ```swift
  /// struct Timeout: Error {}
  /// struct Wrapped: Error { let underlying: any Error }
  /// let cancellable = Fail<Int, Timeout>(error: Timeout())
  ///   .mapError { Wrapped(underlying: $0) }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(Wrapped(underlying: Timeout()))
  /// ```
  ///
  /// Values, demand and cancellation pass straight through; only the failure changes.
  public func mapError<E: Error>(_ transform: @escaping (Failure) -> E)
    -> Publishers.MapError<Self, E>
  {
    Publishers.MapError(upstream: self, transform)
  }
}

extension Publishers {
  /// A publisher that converts any failure from the upstream publisher into a new error.
  public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that converts the upstream failure into a new error.
    public let transform: (Upstream.Failure) -> Failure

    /// Creates a publisher that converts any failure from `upstream` with `map`.
    public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      self.transform = map
    }

    /// Creates a publisher that converts any failure from `upstream` with `transform`.
    public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber, through a stateless subscriber that converts the failure.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Failure == S.Failure {
      upstream.subscribe(
        MapErrorSubscriber<S, Upstream.Failure>(
          downstream: subscriber, transform: transform))
    }
  }
}

/// The subscriber `Publishers.MapError` attaches upstream: stateless, like ``MapSubscriber``.
struct MapErrorSubscriber<Downstream: Subscriber, Failure: Error>: Subscriber,
  CustomStringConvertible
{
  typealias Input = Downstream.Input

  let downstream: Downstream
  let transform: (Failure) -> Downstream.Failure

  /// The downstream's identifier: this stateless link adds no identity of its own.
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { "MapError" }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion.mapFailure(transform))
  }
}

extension MapErrorSubscriber: NamedReflection {}
