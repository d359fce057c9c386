extension Publisher {
  /// Republishes all elements that match a provided closure.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4].publisher
  ///   .filter { $0.isMultiple(of: 2) }
  ///   .sink { print($0) }
  /// // Prints: 2, 4
  /// ```
  ///
  /// A rejected element gives its unit of demand back to the upstream, so the subscriber still
  /// receives as many elements as it asked for. `filter(p).filter(q)` fuses into one
  /// `Publishers.Filter` testing `p(x) && q(x)`.
  @inlinable
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
    Publishers.Filter(upstream: self, isIncluded: isIncluded)
  }
}

extension Publishers {
  /// A publisher that republishes all elements that match a provided closure.
  @frozen
  public struct Filter<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that indicates whether to republish an element.
    public let isIncluded: (Upstream.Output) -> Bool

    /// Creates a publisher that republishes the elements of `upstream` that match `isIncluded`.
    @inlinable
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    /// Attaches the subscriber, through a stateless subscriber that tests each element.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.receive(subscriber: FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
    }
  }
}

extension Publishers.Filter {
  /// Fuses two filters: `filter(p).filter(q)` is one `Publishers.Filter` testing
  /// `p(x) && q(x)`.
  @inlinable
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
    let first = self.isIncluded
    return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
  }
}

/// The subscriber `Publishers.Filter` attaches upstream: stateless, like ``MapSubscriber``.
@usableFromInline
struct FilterSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
  @usableFromInline
  typealias Input = Downstream.Input

  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream

  @usableFromInline
  let isIncluded: (Downstream.Input) -> Bool

  @inlinable
  init(downstream: Downstream, isIncluded: @escaping (Downstream.Input) -> Bool) {
    self.downstream = downstream
    self.isIncluded = isIncluded
  }

  /// The downstream's identifier: this stateless link adds no identity of its own.
  @inlinable
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @usableFromInline
  var description: String { "Filter" }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    // A rejected element hands its unit of demand back upstream.
    isIncluded(input) ? downstream.receive(input) : .max(1)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    downstream.receive(completion: completion)
  }
}

extension FilterSubscriber: NamedReflection {}

extension Publishers.Filter: OperatorReportingItsSubscriber {
  /// `receive(subscriber:)`, subscribing upstream through `subscribe(_:)`.
  func receiveReportingItsSubscriber<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    upstream.subscribe(FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
  }
}
