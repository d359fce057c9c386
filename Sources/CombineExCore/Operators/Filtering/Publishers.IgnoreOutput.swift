extension Publisher {
  /// Ignores all upstream elements, but passes along the upstream publisher's completion state
  /// (finished or failed).
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .ignoreOutput()
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// subject.send(1)
  /// subject.send(2)
  /// subject.send(completion: .finished)
  /// // Prints: finished
  /// ```
  ///
  /// The operator requests unlimited elements from the upstream as soon as it is subscribed,
  /// whatever the subscriber's demand, since it publishes none of them.
  public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
    Publishers.IgnoreOutput(upstream: self)
  }
}

extension Publishers {
  /// A publisher that ignores all upstream elements, but passes along the upstream publisher's
  /// completion state (finished or failed).
  public struct IgnoreOutput<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: none.
    public typealias Output = Never

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that ignores the elements of `upstream`.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber, through a stateless subscriber that drops every element.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Never, S.Failure == Upstream.Failure {
      upstream.subscribe(IgnoreOutputSubscriber<S, Upstream.Output>(downstream: subscriber))
    }
  }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

/// The subscriber `Publishers.IgnoreOutput` attaches upstream: stateless, like
/// ``MapSubscriber``. It hands the upstream's subscription to the downstream, asks it for
/// everything, and forwards only the completion.
struct IgnoreOutputSubscriber<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible
where Downstream.Input == Never {
  typealias Failure = Downstream.Failure

  let downstream: Downstream

  /// The downstream's identifier: this stateless link adds no identity of its own.
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { "IgnoreOutput" }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}

extension IgnoreOutputSubscriber: NamedReflection {}
