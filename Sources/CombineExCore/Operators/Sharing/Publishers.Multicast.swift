import Synchronization

extension Publisher {
  /// Applies a closure to create a subject that delivers elements to subscribers.
  ///
  /// Use a multicast publisher when you have multiple downstream subscribers, but you want
  /// the upstream publisher to do its work (a network request, an expensive computation) only
  /// once. Subscribers attach to one subject, which the closure creates the first time it is
  /// needed (it runs once); nothing flows until ``ConnectablePublisher/connect()`` subscribes
  /// the subject to the upstream.
  ///
  /// ```swift
  /// let upstream = PassthroughSubject<Int, Never>()
  /// var computations = 0
  /// let multicast = upstream
  ///   .map { value -> Int in computations += 1; return value * 10 }
  ///   .multicast { PassthroughSubject<Int, Never>() }
  /// let first = multicast.sink { print("first", $0) }
  /// let second = multicast.sink { print("second", $0) }
  /// let connection = multicast.connect()
  /// upstream.send(1)
  /// upstream.send(2)
  /// print(computations)
  /// // Prints: first 10, second 10, first 20, second 20, 2
  /// ```
  ///
  /// - Parameter createSubject: A closure to create the `Subject` that delivers the elements
  ///   to the subscribers. It is called once, when the first subscriber attaches or
  ///   `connect()` is called, whichever comes first.
  /// - Returns: A connectable publisher that shares the upstream's elements through the
  ///   subject.
  public func multicast<S: Subject>(
    _ createSubject: @escaping () -> S
  ) -> Publishers.Multicast<Self, S> where Failure == S.Failure, Output == S.Output {
    Publishers.Multicast(upstream: self, createSubject: createSubject)
  }

  /// Provides a subject to deliver elements to multiple subscribers.
  ///
  /// Like ``multicast(_:)``, with a subject you provide (and may send to yourself).
  ///
  /// ```swift
  /// let subject = PassthroughSubject<String, Never>()
  /// let multicast = ["a", "b"].publisher.multicast(subject: subject)
  /// let cancellable = multicast.sink { print($0) }
  /// let connection = multicast.connect()
  /// // Prints: a, b
  /// ```
  ///
  /// - Parameter subject: A subject to deliver elements to downstream subscribers.
  /// - Returns: A connectable publisher that shares the upstream's elements through
  ///   `subject`.
  public func multicast<S: Subject>(
    subject: S
  ) -> Publishers.Multicast<Self, S> where Failure == S.Failure, Output == S.Output {
    multicast { subject }
  }
}

extension Publishers {
  /// A publisher that uses a subject to deliver elements to multiple subscribers.
  ///
  /// A class, as in Combine: its copies are one publisher, with one subject and one
  /// connection.
  /// - **Subscribing** attaches the subscriber to the subject (created by `createSubject` the
  ///   first time it is needed; the closure runs once, even when subscribers arrive on several
  ///   threads at once, and never with a lock held). What a subscriber receives is what the
  ///   subject gives it: with a `PassthroughSubject`, the values sent while it has demand.
  /// - **Connecting.** ``connect()`` subscribes the subject to the upstream: the subject
  ///   receives the upstream's subscription (through `send(subscription:)`, so it decides what
  ///   to request: subjects request unlimited values), then its values and completion. While a
  ///   connection is live, `connect()` returns it again instead of subscribing a second time
  ///   (Combine would subscribe again, duplicating every value); cancelling any of the returned
  ///   cancellables cancels the upstream subscription, and a later `connect()` subscribes
  ///   anew. Once the upstream has completed, the subject has completed too, so `connect()`
  ///   does not subscribe again (it returns a cancellable that does nothing): late subscribers
  ///   receive only the completion, and the upstream's work is never repeated.
  /// - **Threading.** Subscribing, connecting and cancelling may happen on any threads.
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher,
    @unchecked Sendable
  where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
    // @unchecked Sendable: `subjectState` and `connection` are guarded by `lock`,
    // `isCreatingSubject` is atomic; `upstream`
    // and `createSubject` are constants, and the subject is created once.
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public final let upstream: Upstream

    /// A closure to create a new subject when the publisher needs one.
    public final let createSubject: () -> SubjectType

    private let lock = Lock()
    private var subjectState = MulticastSubjectState<SubjectType>.none
    private var connection = MulticastConnectionState<Upstream, SubjectType>.disconnected
    /// Whether `createSubject` is running: what a thread waiting for the subject sleeps on
    /// (an atomic, because a parked thread's condition must not take a ``Lock``).
    private let isCreatingSubject = Atomic<Bool>(false)

    /// Creates a multicast publisher that applies a closure to create a subject that delivers
    /// elements to subscribers.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - createSubject: A closure that returns a ``Subject`` each time a subscriber attaches
    ///     to the multicast publisher.
    public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
      self.upstream = upstream
      self.createSubject = createSubject
    }

    /// Attaches the subscriber to the subject (creating the subject if it does not exist yet).
    public func receive<S: Subscriber>(subscriber: S)
    where SubjectType.Failure == S.Failure, SubjectType.Output == S.Input {
      subject.receive(subscriber: subscriber)
    }

    /// Subscribes the subject to the upstream (unless a connection is live, or the upstream
    /// has completed) and returns the connection; cancel it to cancel the upstream
    /// subscription.
    public func connect() -> any Cancellable {
      let subject = subject
      let (made, isNew) = lock.withLock {
        () -> (MulticastConnection<Upstream, SubjectType>?, Bool) in
        switch connection {
        case .completed:
          return (nil, false)
        case .connected(let live):
          return (live, false)
        case .disconnected:
          let made = MulticastConnection<Upstream, SubjectType>(subject: subject) {
            [weak self] ended, completed in
            self?.connectionEnded(ended, completed: completed)
          }
          connection = .connected(made)
          return (made, true)
        }
      }
      guard let made else { return Subscriptions.empty }
      if isNew { upstream.receive(subscriber: made) }
      return made
    }

    /// The subject, created on first use: `createSubject` runs once, outside the lock. A
    /// caller on another thread that needs the subject while it is being created sleeps until
    /// it exists; a call from inside `createSubject` itself is a misuse.
    private var subject: SubjectType {
      let me = currentThreadIdentity()
      while true {
        let (subject, mustCreate) = lock.withLock { () -> (SubjectType?, Bool) in
          switch subjectState {
          case .created(let subject):
            return (subject, false)
          case .none:
            subjectState = .creating(thread: me)
            isCreatingSubject.store(true, ordering: .relaxed)
            return (nil, true)
          case .creating(let thread):
            checkAPI(
              thread != me,
              "Multicast's createSubject closure used the multicast publisher it creates the "
                + "subject for. The subject does not exist yet")
            return (nil, false)
          }
        }
        if let subject { return subject }
        if mustCreate {
          let subject = createSubject()
          lock.withLock { subjectState = .created(subject) }
          isCreatingSubject.store(false, ordering: .releasing)
          Parking.unparkAll(on: parkingAddress)
          return subject
        }
        // Another thread is running `createSubject` (user code, which may take long): sleep
        // until it is done.
        Parking.park(on: parkingAddress) { isCreatingSubject.load(ordering: .acquiring) }
      }
    }

    /// The address threads waiting for the subject's creation park on.
    private var parkingAddress: UnsafeRawPointer {
      UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// Forgets a connection that was cancelled or whose upstream completed.
    private func connectionEnded(
      _ ended: MulticastConnection<Upstream, SubjectType>, completed: Bool
    ) {
      lock.withLock {
        if case .connected(let live) = connection, live === ended {
          connection = completed ? .completed : .disconnected
        }
      }
    }
  }
}

/// Where a ``Publishers/Multicast`` is with its subject.
enum MulticastSubjectState<SubjectType> {
  /// Not created yet.
  case none
  /// `createSubject` is running on `thread`.
  case creating(thread: UInt)
  /// Created.
  case created(SubjectType)
}

/// Where a ``Publishers/Multicast`` is with its upstream.
enum MulticastConnectionState<Upstream: Publisher, SubjectType: Subject>
where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
  /// No live connection: `connect()` subscribes the subject to the upstream.
  case disconnected
  /// Connected: `connect()` returns this connection.
  case connected(MulticastConnection<Upstream, SubjectType>)
  /// The upstream completed (and so did the subject): `connect()` does nothing.
  case completed
}

/// A connection of ``Publishers/Multicast`` (and `makeConnectable()`): the upstream's
/// subscriber, which forwards everything to the subject, and the subscription the subject
/// receives, which forwards the subject's requests to the upstream. Cancelling it (as the
/// connection, or as the subject's subscription) cancels the upstream subscription.
///
/// Not on the ``OperatorDriver``: its downstream is a subject, which it feeds with
/// `send(_:)` rather than as a subscriber, and it reports its end to the multicast before the
/// subject hears of it.
final class MulticastConnection<Upstream: Publisher, SubjectType: Subject>: Subscriber,
  Subscription, EndingSubscription, CustomStringConvertible, @unchecked Sendable
where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
  // @unchecked Sendable: `status`, `subject` and `onEnd` are guarded by `lock`; the subject is
  // thread-safe.
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure
  typealias OnEnd = (MulticastConnection<Upstream, SubjectType>, _ completed: Bool) -> Void

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  /// Released when the connection ends (so the subject, which keeps the subscriptions it was
  /// sent, does not keep itself alive through it).
  private var subject: SubjectType?
  private var onEnd: OnEnd?

  init(subject: SubjectType, onEnd: @escaping OnEnd) {
    self.subject = subject
    self.onEnd = onEnd
  }

  var description: String { "Multicast" }

  var hasEnded: Bool {
    lock.withLock {
      if case .terminated = status { return true }
      return false
    }
  }

  func receive(subscription: any Subscription) {
    let subject = lock.withLock { () -> SubjectType? in
      guard case .awaitingSubscription = status, let subject = self.subject else { return nil }
      status = .subscribed(subscription)
      return subject
    }
    guard let subject else {
      subscription.cancel()
      return
    }
    subject.send(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let subject = lock.withLock { status.isSubscribed ? self.subject : nil }
    subject?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (subject, onEnd) = lock.withLock { () -> (SubjectType?, OnEnd?) in
      guard status.isSubscribed else { return (nil, nil) }
      status = .terminated
      defer {
        self.subject = nil
        self.onEnd = nil
      }
      return (self.subject, self.onEnd)
    }
    // The multicast learns of the completion first, so that a subscriber reacting to it
    // already sees the multicast as completed.
    onEnd?(self, true)
    subject?.send(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.request(demand)
  }

  func cancel() {
    // The subject is taken out and released after the lock: this may be its last reference,
    // and a subject's deinit cancels its upstream, which is this connection.
    let taken = lock.withLock {
      () -> (upstream: (any Subscription)?, onEnd: OnEnd?, subject: SubjectType?) in
      var upstream: (any Subscription)?
      if case .subscribed(let subscription) = status { upstream = subscription }
      let taken = (upstream: upstream, onEnd: onEnd, subject: subject)
      status = .terminated
      subject = nil
      onEnd = nil
      return taken
    }
    taken.onEnd?(self, false)
    taken.upstream?.cancel()
  }
}
