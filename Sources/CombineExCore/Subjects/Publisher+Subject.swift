extension Publisher {
  /// Attaches the specified subject to this publisher.
  ///
  /// The subject receives every value and the completion. It also receives the subscription
  /// through `send(subscription:)`, and requests values from it (subjects request unlimited
  /// values). Cancelling the returned ``AnyCancellable`` cancels the subscription; the subject
  /// is held weakly, and cancels the subscription itself when it is deinitialized.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let printer = subject.sink { print($0) }
  /// let connection = [1, 2, 3].publisher.subscribe(subject)
  /// // Prints: 1, 2, 3
  /// ```
  public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
  where Failure == S.Failure, Output == S.Output {
    let subscriber = SubjectSubscriber(subject: subject)
    subscribe(subscriber)
    return AnyCancellable(object: subscriber)
  }
}

/// The subscriber of `subscribe(_ subject:)`: forwards values and the completion to the
/// subject, and is itself the subscription the subject receives, so that the subject's
/// requests and cancellation reach the upstream.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription,
  EndingSubscription, CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `status`, `subject` and `upstream` are guarded by `lock`.
  typealias Input = Downstream.Output
  typealias Failure = Downstream.Failure

  private enum Status {
    case awaitingSubscription
    case subscribed
    case terminated
  }

  private let lock = Lock()
  private var status = Status.awaitingSubscription
  private weak var subject: Downstream?
  private var upstream: (any Subscription)?

  init(subject: Downstream) {
    self.subject = subject
  }

  var description: String { "Subject" }

  var hasEnded: Bool { lock.withLock { status == .terminated } }

  func receive(subscription: any Subscription) {
    let subject = lock.withLock { () -> Downstream? in
      guard status == .awaitingSubscription, let subject = self.subject else { return nil }
      status = .subscribed
      upstream = subscription
      return subject
    }
    guard let subject else {
      subscription.cancel()
      return
    }
    subject.send(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let subject = lock.withLock { status == .subscribed ? self.subject : nil }
    subject?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (subject, upstream) = lock.withLock { () -> (Downstream?, (any Subscription)?) in
      guard status == .subscribed else { return (nil, nil) }
      status = .terminated
      defer {
        self.subject = nil
        self.upstream = nil
      }
      return (self.subject, self.upstream)
    }
    _ = upstream  // Released outside the lock.
    subject?.send(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { status == .subscribed ? self.upstream : nil }
    upstream?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard status != .terminated else { return nil }
      status = .terminated
      subject = nil
      defer { self.upstream = nil }
      return self.upstream
    }
    upstream?.cancel()
  }
}

extension SubjectSubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible {
  /// Combine's children: the subject (twice, under two labels, as Combine shows it) and the
  /// upstream subscription, each nil once the subscriber has ended.
  var customMirror: Mirror {
    let (subject, upstream) = lock.withLock { (self.subject, self.upstream) }
    return Mirror(
      self,
      children: [
        ("downstreamSubject", subject as Any),
        ("upstreamSubscription", upstream as Any),
        ("subject", subject as Any),
      ])
  }

  var playgroundDescription: Any { description }
}
