extension Publisher {
  /// Buffers elements received from an upstream publisher.
  ///
  /// Use a buffer to let a fast upstream run ahead of a slow subscriber, up to `size` values:
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let recorder = subject
  ///   .buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
  ///   .record(initialDemand: .none)  // CombineExTesting's TestSubscriber
  /// for value in 1...4 { subject.send(value) }  // 1 and 2 are dropped to make room
  /// recorder.request(.max(2))
  /// print(recorder.values)
  /// // Prints: [3, 4]
  /// ```
  ///
  /// - Parameters:
  ///   - size: The maximum number of elements to store.
  ///   - prefetch: The strategy to initially populate the buffer.
  ///   - whenFull: The action to take when the buffer becomes full.
  /// - Returns: A publisher that buffers elements received from an upstream publisher.
  public func buffer(
    size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) -> Publishers.Buffer<Self> {
    Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
  }
}

extension Publishers {
  /// A strategy for filling a buffer.
  public enum PrefetchStrategy: Sendable {
    /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
    ///
    /// The upstream is asked for `size` values when it is subscribed, then for one more each
    /// time a value leaves the buffer for the subscriber.
    case keepFull

    /// A strategy that avoids prefetching and instead performs requests on demand.
    ///
    /// As in Combine, the upstream is asked for unlimited values when it is subscribed, and
    /// the buffer holds what arrives before the subscriber asks for it (up to `size` values,
    /// then the `whenFull` strategy applies).
    case byRequest
  }

  /// A strategy that handles exhaustion of a buffer's capacity.
  public enum BufferingStrategy<Failure: Error> {
    /// When the buffer is full, discard the newly received element.
    case dropNewest

    /// When the buffer is full, discard the oldest element in the buffer.
    case dropOldest

    /// When the buffer is full, execute the closure to provide a custom error.
    ///
    /// The upstream is cancelled, and the publisher fails with the closure's error.
    case customError(() -> Failure)
  }

  /// A publisher that buffers elements from an upstream publisher.
  ///
  /// When the upstream's subscription arrives, the subscriber receives its subscription, then
  /// the upstream is asked for values: `size` of them with `.keepFull`, unlimited with
  /// `.byRequest`.
  /// - **Buffering.** Values the subscriber has not asked for yet wait in arrival order, up to
  ///   `size` of them. A value that arrives when `size` values are waiting is dropped
  ///   (`.dropNewest`), makes room by dropping the oldest waiting value (`.dropOldest`), or
  ///   ends the buffer (`.customError`: the upstream is cancelled and the closure's error is
  ///   the failure, made outside any lock).
  /// - **Demand.** Waiting values are delivered, oldest first, as the subscriber asks for them;
  ///   it never receives more than it asked for. With `.keepFull`, each value that leaves the
  ///   buffer asks the upstream for one more.
  /// - **Completion.** `.finished` is delivered after every waiting value. A failure (the
  ///   upstream's, or `.customError`'s) is delivered once the values the subscriber has asked
  ///   for are delivered: as soon as no delivery is in progress and either no value is waiting
  ///   or the subscriber has no demand left; the values still waiting then are dropped.
  /// - **Cancellation** cancels the upstream, drops the waiting values and releases the
  ///   subscriber.
  /// - **Threading.** The subscriber may request from any thread while the upstream sends on
  ///   another: one thread at a time delivers, values are delivered in order, and no lock is
  ///   held while calling the subscriber, the upstream or the `.customError` closure.
  public struct Buffer<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of elements to store.
    public let size: Int

    /// The strategy for initially populating the buffer.
    public let prefetch: Publishers.PrefetchStrategy

    /// The action to take when the buffer becomes full.
    public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

    /// Creates a publisher that buffers elements received from an upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - size: The maximum number of elements to store.
    ///   - prefetch: The strategy for initially populating the buffer.
    ///   - whenFull: The action to take when the buffer becomes full.
    public init(
      upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
      whenFull: Publishers.BufferingStrategy<Upstream.Failure>
    ) {
      self.upstream = upstream
      self.size = size
      self.prefetch = prefetch
      self.whenFull = whenFull
    }

    /// Attaches the subscriber: the upstream is subscribed, and the subscriber receives its
    /// subscription once the upstream's has arrived.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(
        BufferStorage(
          downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
    }
  }
}

extension Publishers.PrefetchStrategy: Equatable {}

extension Publishers.PrefetchStrategy: Hashable {}

/// The upstream's subscriber and the downstream's subscription of ``Publishers/Buffer``: it
/// owns the ``BufferStateMachine`` and its lock, and performs what the machine decides after
/// releasing the lock.
///
/// A multi-input machine, not an ``OperatorDriver``, although it has one upstream: values are
/// delivered both by the upstream (on its thread) and by the downstream's requests (on
/// theirs), from a buffer, so delivery needs a deliverer role (``DeliveryQueue``), which the
/// driver, delivering on the upstream's thread only, does not have.
///
/// `@usableFromInline`, with its machine, so that it is specialized at the buffer's
/// `receive(subscriber:)`; the protocol methods only call ``entries``, closures made in the
/// inlined init (see ``SubscriberEntries``): reached through `any Subscription` or an
/// unspecialized upstream, the class's own witnesses would look up every generic type they
/// touch in the runtime's metadata cache.
@usableFromInline
final class BufferStorage<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `machine` and `downstream` are guarded by `lock`; the machine lets
  // only one caller at a time deliver.
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure
  @usableFromInline
  typealias Machine = BufferStateMachine<Downstream.Input, Downstream.Failure>

  /// The entry points of the events, specialized (see the type's header). They capture
  /// nothing (no allocation).
  @usableFromInline
  let entries: SubscriberEntries<BufferStorage, Input, Failure>

  @usableFromInline
  let lock = Lock()
  /// Under `lock`, so the runtime's exclusivity check (a call at every access) is off, as for
  /// `downstream`.
  @exclusivity(unchecked)
  @usableFromInline
  var machine: Machine
  /// Released when the completion is handed out or the downstream cancels. Under `lock`.
  @exclusivity(unchecked)
  @usableFromInline
  var downstream: Downstream?
  @usableFromInline
  let makeError: (() -> Failure)?

  @inlinable
  init(
    downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) {
    self.downstream = downstream
    machine = Machine(size: size, prefetch: prefetch, whenFull: whenFull)
    if case .customError(let makeError) = whenFull {
      self.makeError = makeError
    } else {
      makeError = nil
    }
    entries = SubscriberEntries(
      subscription: { $0.handle(subscription: $1) },
      value: { storage, input in
        storage.perform(storage.transition { $0.receive(input) }, returningUpstreamDemand: true)
      },
      completion: { storage, completion in
        _ = storage.perform(storage.transition { $0.receive(completion: completion) })
      },
      request: { storage, demand in
        _ = storage.perform(storage.transition { $0.request(demand) })
      },
      cancel: { $0.handleCancel() })
  }

  @usableFromInline
  var description: String { "Buffer" }

  // MARK: Upstream

  @inlinable
  func receive(subscription: any Subscription) { entries.subscription(self, subscription) }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    // Demand for the upstream that this call's deliveries make is returned, not requested.
    entries.value(self, input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    entries.completion(self, completion)
  }

  // MARK: Subscription

  @inlinable
  func request(_ demand: Subscribers.Demand) { entries.request(self, demand) }

  @inlinable
  func cancel() { entries.cancel(self) }

  // MARK: Handling the events (specialized, through `entries`)

  @inlinable
  func handle(subscription: any Subscription) {
    let (demand, downstream) = lock.withLock {
      () -> (Subscribers.Demand?, Downstream?) in
      (machine.receive(subscription: subscription), self.downstream)
    }
    guard let demand else {
      subscription.cancel()
      return
    }
    // As in Combine, the upstream is asked for values before the subscriber gets its
    // subscription; what the upstream sends meanwhile waits in the buffer (a completion too).
    if demand > 0 { subscription.request(demand) }
    downstream?.receive(subscription: self)
    _ = perform(transition { $0.downstreamSubscribed() })
  }

  @inlinable
  func handleCancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      downstream = nil
      return machine.cancel()
    }
    upstream?.cancel()
  }

  // MARK: Performing actions (never under the lock)

  @inlinable
  func transition(
    _ body: (inout Machine) -> Machine.Action
  ) -> (action: Machine.Action, downstream: Downstream?) {
    lock.withLock {
      let action = body(&machine)
      switch action.deliver {
      case nil:
        return (action, nil)
      case .value:
        return (action, downstream)
      case .completion:
        defer { downstream = nil }
        return (action, downstream)
      }
    }
  }

  /// Performs `first`'s action, then keeps delivering for as long as the machine hands out
  /// values. Returns the demand for the upstream if `returningUpstreamDemand` (the caller is
  /// the upstream's `receive`, which returns it); otherwise requests it.
  @inlinable
  func perform(
    _ first: (action: Machine.Action, downstream: Downstream?),
    returningUpstreamDemand: Bool = false
  ) -> Subscribers.Demand {
    var action = first.action
    let downstream = first.downstream
    var upstreamDemand = Subscribers.Demand.none
    var upstream: (any Subscription)?
    delivering: while true {
      action.cancel?.cancel()
      if let subscription = action.refill {
        upstream = subscription
        upstreamDemand += 1
      }
      if action.needsError, let makeError {
        // Made outside the lock (user code); the failure waits for a request (see the machine).
        let error = makeError()
        lock.withLock { machine.fail(with: error) }
      }
      guard let item = action.deliver, let target = downstream else { break }
      Interleaving.point("deliveryQueue.deliver")  // The deliverer role, between two lock holds.
      switch item {
      case .value(let value):
        let more = target.receive(value)
        // Still the deliverer: keep delivering to `target`.
        action = transition { $0.didDeliver(requesting: more) }.action
      case .completion(let completion):
        target.receive(completion: completion)
        break delivering
      }
    }
    if returningUpstreamDemand { return upstreamDemand }
    if upstreamDemand > 0 { upstream?.request(upstreamDemand) }
    return .none
  }
}

// What Combine shows of a buffer's subscription: its name and its machine's children, read
// under the lock when asked for.
extension BufferStorage: NamedReflection {
  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: lock.withLock { machine.mirrorChildren }) }
}
