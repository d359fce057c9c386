extension Publisher {
  /// Calls a closure with each received element and publishes any returned optional that has a
  /// value.
  ///
  /// ```swift
  /// let cancellable = ["1", "x", "3"].publisher
  ///   .compactMap { Int($0) }
  ///   .sink { print($0) }
  /// // Prints: 1, 3
  /// ```
  ///
  /// A `nil` result gives its unit of demand back to the upstream, like a rejected element of
  /// ``filter(_:)``.
  @inlinable
  public func compactMap<T>(_ transform: @escaping (Output) -> T?)
    -> Publishers.CompactMap<
      Self, T
    >
  {
    Publishers.CompactMap(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that republishes all non-`nil` results of calling a closure with each
  /// received element.
  @frozen
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that receives values from the upstream publisher and returns optional values.
    public let transform: (Upstream.Output) -> Output?

    /// Creates a publisher that republishes the non-`nil` results of `transform`.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber, through a stateless subscriber that applies `transform`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      upstream.receive(
        subscriber: CompactMapSubscriber(downstream: subscriber, transform: transform))
    }
  }
}

extension Publishers.CompactMap {
  /// Fuses two compact maps into one.
  @inlinable
  public func compactMap<T>(_ transform: @escaping (Output) -> T?)
    -> Publishers.CompactMap<
      Upstream, T
    >
  {
    let first = self.transform
    return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
  }

  /// Fuses a map after a compact map into one compact map.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
  }
}

/// The subscriber `Publishers.CompactMap` attaches upstream: stateless, like
/// ``MapSubscriber``.
@usableFromInline
struct CompactMapSubscriber<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible {
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream

  @usableFromInline
  let transform: (Input) -> Downstream.Input?

  @inlinable
  init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
    self.downstream = downstream
    self.transform = transform
  }

  /// The downstream's identifier: this stateless link adds no identity of its own.
  @inlinable
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @usableFromInline
  var description: String { "CompactMap" }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    if let output = transform(input) {
      return downstream.receive(output)
    }
    return .max(1)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    downstream.receive(completion: completion)
  }
}

extension CompactMapSubscriber: NamedReflection {}

extension Publishers.CompactMap: OperatorReportingItsSubscriber {
  /// `receive(subscriber:)`, subscribing upstream through `subscribe(_:)`.
  func receiveReportingItsSubscriber<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    upstream.subscribe(CompactMapSubscriber(downstream: subscriber, transform: transform))
  }
}
