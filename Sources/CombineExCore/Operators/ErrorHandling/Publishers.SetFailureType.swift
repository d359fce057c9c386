extension Publisher where Failure == Never {
  /// Changes the failure type declared by the upstream publisher.
  ///
  /// ```swift
  /// struct NetworkError: Error {}
  /// let subject = PassthroughSubject<Int, Never>()
  /// let numbers: AnyPublisher<Int, NetworkError> = subject
  ///   .setFailureType(to: NetworkError.self)
  ///   .eraseToAnyPublisher()
  /// let cancellable = numbers.sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// subject.send(1)
  /// subject.send(completion: .finished)
  /// // Prints: 1, finished
  /// ```
  ///
  /// The publisher cannot actually fail: it finishes normally. Use it to match the failure type
  /// that another operator or subscriber expects.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E>
  {
    Publishers.SetFailureType(upstream: self)
  }
}

extension Publishers {
  /// A publisher that appears to send a specified failure type.
  ///
  /// The publisher can't actually fail with the specified type and finishes normally. Use this
  /// publisher type when you need to match the error types for two mismatched publishers.
  public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher
  where Upstream.Failure == Never {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that appears to send the specified failure type.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber, through a stateless subscriber that forwards everything.
    public func receive<S: Subscriber>(subscriber: S)
    where Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(SetFailureTypeSubscriber(downstream: subscriber))
    }

    /// Changes the failure type again: still one `SetFailureType` over the same upstream.
    public func setFailureType<E: Error>(to failure: E.Type)
      -> Publishers.SetFailureType<
        Upstream, E
      >
    {
      Publishers.SetFailureType<Upstream, E>(upstream: upstream)
    }
  }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

/// The subscriber `Publishers.SetFailureType` attaches upstream: stateless, like
/// ``MapSubscriber``; the upstream cannot fail, so its completion is always `.finished`.
struct SetFailureTypeSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
  typealias Input = Downstream.Input
  typealias Failure = Never

  let downstream: Downstream

  /// The downstream's identifier: this stateless link adds no identity of its own.
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { "SetFailureType" }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Never>) {
    downstream.receive(completion: .finished)
  }
}

extension SetFailureTypeSubscriber: NamedReflection {}
