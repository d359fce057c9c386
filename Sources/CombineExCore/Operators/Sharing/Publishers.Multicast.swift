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
  /// A class, as in Combine: its copies are one publisher, with one subject.
  /// - **Subscribing** attaches the subscriber to the subject (created by `createSubject` the
  ///   first time it is needed; the closure runs once, even when subscribers arrive on several
  ///   threads at once, and never with a lock held), through a subscription of the multicast's
  ///   own (`"Multicast"`), which passes the subscriber's requests to the subject and keeps
  ///   the subject alive while the subscriber is attached. What a subscriber receives is what
  ///   the subject gives it: with a `PassthroughSubject`, the values sent while it has demand.
  /// - **Connecting.** ``connect()`` subscribes the subject to the upstream, as
  ///   `upstream.subscribe(subject)` does, and returns that subscription as an
  ///   `AnyCancellable` (keep it: its deinit cancels). As in Combine, each call subscribes
  ///   again: two live connections deliver every value twice. The subject receives the
  ///   upstream's subscription (through `send(subscription:)`, so it decides what to request:
  ///   subjects request unlimited values), then its values and completion. The connection
  ///   holds the subject weakly: a subject nothing else holds goes away, and cancels the
  ///   upstream subscription.
  /// - **Threading.** Subscribing, connecting and cancelling may happen on any threads.
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher,
    @unchecked Sendable
  where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
    // @unchecked Sendable: `subjectState` is guarded by `lock`, `isCreatingSubject` is atomic;
    // `upstream` and `createSubject` are constants, and the subject is created once.
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public final let upstream: Upstream

    /// A closure to create a new subject when the publisher needs one.
    public final let createSubject: () -> SubjectType

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    var subjectState = MulticastSubjectState<SubjectType>.none
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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where SubjectType.Failure == S.Failure, SubjectType.Output == S.Input {
      let subject = subject
      subject.subscribe(MulticastInner(subject: subject, downstream: subscriber))
    }

    /// Subscribes the subject to the upstream and returns the subscription; cancel it (or let
    /// it go) to cancel the upstream subscription. Inlinable, so that the subject's subscriber
    /// is specialized in the caller's module.
    @inlinable
    public func connect() -> any Cancellable {
      upstream.subscribe(subject)
    }

    /// The subject, created on first use (by ``createdSubject()``). Inlinable: once the subject
    /// exists, reading it costs no call into the unspecialized code.
    @inlinable
    var subject: SubjectType {
      let created = lock.withLock { () -> SubjectType? in
        guard case .created(let subject) = subjectState else { return nil }
        return subject
      }
      return created ?? createdSubject()
    }

    /// The subject, created if it does not exist yet: `createSubject` runs once, outside the
    /// lock. A caller on another thread that needs the subject while it is being created sleeps
    /// until it exists; a call from inside `createSubject` itself is a misuse.
    @usableFromInline
    func createdSubject() -> SubjectType {
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
  }
}

/// Where a ``Publishers/Multicast`` is with its subject.
@usableFromInline
enum MulticastSubjectState<SubjectType> {
  /// Not created yet.
  case none
  /// `createSubject` is running on `thread`.
  case creating(thread: UInt)
  /// Created.
  case created(SubjectType)
}

/// A subscriber of a ``Publishers/Multicast``, attached to its subject: the subscriber the subject
/// sees, and the subscription (`"Multicast"`) the downstream sees, as in Combine. It passes the
/// downstream's requests to the subject's subscription, and the demand the downstream returns
/// for a value as a request to it too (a subject's `send` ignores returned demand). It keeps
/// the subject alive while the downstream is attached (the connection holds it weakly), and
/// lets go of the subject and the downstream when it ends (cancelled or completed).
///
/// Inlinable, and its protocol methods only call the closures of ``entries``: the subject and
/// the downstream reach it through their protocols (`any Subscription`, a subject's stored
/// subscriber), which run a generic class's unspecialized code, where every generic type it
/// touches costs a metadata lookup (as ``OperatorDriver/entries``).
// @unchecked Sendable: `state` is guarded by `lock`.
@usableFromInline
final class MulticastInner<SubjectType: Subject, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, @unchecked Sendable
where Downstream.Input == SubjectType.Output, Downstream.Failure == SubjectType.Failure {
  @usableFromInline
  typealias Input = SubjectType.Output
  @usableFromInline
  typealias Failure = SubjectType.Failure

  @usableFromInline
  enum State {
    /// Attached to the subject, which has not sent its subscription yet.
    case awaiting(subject: SubjectType, downstream: Downstream)
    /// The downstream has this subscription; requests go to `subjectSubscription`.
    case subscribed(
      subject: SubjectType, downstream: Downstream, subjectSubscription: any Subscription)
    /// Cancelled or completed: everything is released.
    case ended
  }

  @usableFromInline
  let lock = Lock()
  /// Read and written only under `lock`.
  @exclusivity(unchecked)
  @usableFromInline
  var state: State
  @usableFromInline
  let entries: Entries

  @inlinable
  init(subject: SubjectType, downstream: Downstream) {
    state = .awaiting(subject: subject, downstream: downstream)
    entries = Entries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
  }

  /// The entry points of the events, written in the inlined `init`, so specialized; they
  /// capture nothing (no allocation).
  @usableFromInline
  typealias Entries = SubscriberEntries<MulticastInner, Input, Failure>

  @usableFromInline
  var description: String { "Multicast" }

  @inlinable
  func receive(subscription: any Subscription) {
    entries.subscription(self, subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    entries.value(self, input)
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
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaiting(let subject, let downstream) = state else { return nil }
      state = .subscribed(
        subject: subject, downstream: downstream, subjectSubscription: subscription)
      return downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    let live = lock.withLock { () -> (Downstream, any Subscription)? in
      guard case .subscribed(_, let downstream, let subscription) = state else { return nil }
      return (downstream, subscription)
    }
    guard let (downstream, subscription) = live else { return .none }
    let more = downstream.receive(input)
    if more > .none { subscription.request(more) }
    return .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    let taken = lock.withLock { () -> (SubjectType, Downstream)? in
      guard case .subscribed(let subject, let downstream, _) = state else { return nil }
      state = .ended
      return (subject, downstream)
    }
    // The subject is released after the completion, outside the lock (its deinit may cancel
    // its upstream).
    guard let (subject, downstream) = taken else { return }
    downstream.receive(completion: completion)
    _ = subject
  }

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(_, _, let subscription) = state else { return nil }
      return subscription
    }
    subscription?.request(demand)
  }

  @inlinable
  func handleCancel() {
    let taken = lock.withLock { () -> (SubjectType?, Downstream?, (any Subscription)?) in
      defer { state = .ended }
      switch state {
      case .awaiting(let subject, let downstream): return (subject, downstream, nil)
      case .subscribed(let subject, let downstream, let subscription):
        return (subject, downstream, subscription)
      case .ended: return (nil, nil, nil)
      }
    }
    taken.2?.cancel()
    // The subject and the downstream are released here, outside the lock.
    _ = taken
  }
}

// As in Combine, a multicast subscriber's subscription shows its name ("Multicast") in a
// debugger or a playground, and no children.
extension MulticastInner: NamedReflection {}
