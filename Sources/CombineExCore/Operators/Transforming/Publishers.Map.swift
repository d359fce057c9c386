extension Publisher {
  /// Transforms all elements from the upstream publisher with a provided closure.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .map { $0 * 10 }
  ///   .sink { print($0) }
  /// // Prints: 10, 20, 30
  /// ```
  ///
  /// `map` keeps no state: demand, completion and cancellation pass straight through, and
  /// `map(f).map(g)` fuses into a single `Publishers.Map` that applies `g(f(x))`.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
    Publishers.Map(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a provided
  /// closure.
  @frozen
  public struct Map<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) -> Output

    /// Creates a publisher that transforms the elements of `upstream` with `transform`.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber, through a stateless subscriber that applies `transform`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      upstream.receive(subscriber: MapSubscriber(downstream: subscriber, transform: transform))
    }
  }
}

extension Publishers.Map {
  /// Fuses two maps: `map(f).map(g)` is one `Publishers.Map` applying `g(f(x))`.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
    let first = self.transform
    return Publishers.Map(upstream: upstream) { transform(first($0)) }
  }
}

/// The subscriber `Publishers.Map` attaches upstream: a value type that forwards the
/// subscription and the completion, and transforms each value. It has no state, so it costs
/// nothing per value but the transform and needs no lock.
///
/// This is the first of the operators' three shapes (CONTRIBUTING.md, "Writing an operator"):
/// a *stateless link*. The downstream receives the upstream's own subscription, so there is no
/// status to keep, and nothing of the ``OperatorDriver`` (a lock, an allocation per
/// subscription) is needed; the links on hot paths (map, filter, compactMap) are inlinable.
@usableFromInline
struct MapSubscriber<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible {
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream

  @usableFromInline
  let transform: (Input) -> Downstream.Input

  @inlinable
  init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input) {
    self.downstream = downstream
    self.transform = transform
  }

  /// The downstream's identifier: this stateless link adds no identity of its own.
  @inlinable
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @usableFromInline
  var description: String { "Map" }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(transform(input))
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    downstream.receive(completion: completion)
  }
}

extension MapSubscriber: NamedReflection {}

extension Publishers.Map: OperatorReportingItsSubscriber {
  /// `receive(subscriber:)`, subscribing upstream through `subscribe(_:)`.
  func receiveReportingItsSubscriber<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    upstream.subscribe(MapSubscriber(downstream: subscriber, transform: transform))
  }
}
