import CombineExCore

extension Publisher {
  /// Publishes a value computed at subscription time, then the upstream's values.
  ///
  /// ```swift
  /// var counter = 0
  /// let numbered = Just("x").prependDynamic { counter += 1; return "start \(counter)" }
  /// let first = numbered.sink { print($0) }
  /// // Prints: start 1, x
  /// let second = numbered.sink { print($0) }
  /// // Prints: start 2, x
  /// ```
  ///
  /// Unlike `prepend(_:)`, whose value is fixed when the operator is built, `initialValue`
  /// runs once per subscription, on the subscribing thread, when the subscriber attaches.
  public func prependDynamic(
    _ initialValue: @escaping () -> Output
  ) -> Publishers.PrependDynamic<Self> {
    Publishers.PrependDynamic(upstream: self, initialValue: initialValue)
  }
}

extension Publishers {
  /// A publisher that publishes a value computed when a subscriber attaches, then the values
  /// of its upstream.
  ///
  /// See ``Publisher/prependDynamic(_:)``. Each subscription calls `initialValue` once, then
  /// behaves as `upstream.prepend(value)`: the value waits for demand, and the upstream is
  /// subscribed once it has been delivered.
  public struct PrependDynamic<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values follow the computed one.
    public let upstream: Upstream

    /// Computes the first value, once per subscription.
    public let initialValue: () -> Output

    /// Creates a publisher that publishes `initialValue()` and then `upstream`'s values.
    public init(upstream: Upstream, initialValue: @escaping () -> Output) {
      self.upstream = upstream
      self.initialValue = initialValue
    }

    /// Computes the first value and attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      Publishers.Concatenate(
        prefix: Publishers.Sequence<[Output], Failure>(sequence: [initialValue()]),
        suffix: upstream
      )
      .receive(subscriber: subscriber)
    }
  }
}

// Each subscription subscribes the upstream once: cold when the upstream is.
extension Publishers.PrependDynamic: ColdPublisher where Upstream: ColdPublisher {}
