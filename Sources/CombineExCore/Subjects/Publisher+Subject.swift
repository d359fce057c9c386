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
  @inlinable
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
///
/// Inlinable, and its subscription, completion, request and cancel only call the closures of
/// ``entries``, made in the inlined `init`: the upstream and the subject reach it through their
/// protocols, which run a generic class's unspecialized code, where every generic type it
/// touches costs a metadata lookup (as ``OperatorDriver/entries``). Values go to the subject
/// directly (a per-value path: no extra call).
// @unchecked Sendable: `status`, `subject` and `upstream` are guarded by `lock`.
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription,
  EndingSubscription, CustomStringConvertible, @unchecked Sendable
{
  @usableFromInline
  typealias Input = Downstream.Output
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  enum Status {
    case awaitingSubscription
    case subscribed
    case terminated
  }

  @usableFromInline
  let lock = Lock()
  @usableFromInline
  var status = Status.awaitingSubscription
  @usableFromInline
  weak var subject: Downstream?
  @usableFromInline
  var upstream: (any Subscription)?
  @usableFromInline
  let entries: SubscriberEntries<SubjectSubscriber, Input, Failure>

  @inlinable
  init(subject: Downstream) {
    self.subject = subject
    entries = SubscriberEntries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
  }

  @usableFromInline
  var description: String { "Subject" }

  var hasEnded: Bool { lock.withLock { status == .terminated } }

  @inlinable
  func receive(subscription: any Subscription) {
    entries.subscription(self, subscription)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    entries.completion(self, completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    entries.request(self, demand)
  }

  @inlinable
  func cancel() {
    entries.cancel(self)
  }

  @inlinable
  func handle(subscription: any Subscription) {
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

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    entries.value(self, input)
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    let subject = lock.withLock { status == .subscribed ? self.subject : nil }
    subject?.send(input)
    return .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
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

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    let upstream = lock.withLock { status == .subscribed ? self.upstream : nil }
    upstream?.request(demand)
  }

  @inlinable
  func handleCancel() {
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
  @usableFromInline
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

  @usableFromInline
  var playgroundDescription: Any { description }
}
