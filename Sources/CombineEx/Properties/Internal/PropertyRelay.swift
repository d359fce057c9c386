import CombineExCore
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The one subscriber of the stream an eager property follows (every composition, and
/// `lift(_:)`): the stream's first value creates the ``PropertyStorage`` behind the property,
/// and every later value and the completion go to that storage.
///
/// A property's stream publishes its current value when subscribed to, on the subscribing
/// thread, so the storage normally exists before `subscribe` returns. A property delivering to
/// another thread at that moment may deliver that first value later, on that thread: the
/// compositions then start from a value computed on the spot (``takeStorage(seed:)``), and
/// `lift` reports an API violation (``takeStorage(createdOn:)``).
///
/// ## Lifetime
/// The storage holds the relay (through `PropertyStorage.hold(_:)`), and the relay holds its
/// subscription to the stream. Once the property has taken the storage, the relay holds only
/// the storage's ``PropertyCell`` (its value and subscribers), strongly; nothing holds the storage
/// but the property and the property's subscribers. So the sources (whose subscriber lists hold
/// the relay) never keep the derived property alive, and when the storage goes (the property and
/// all its subscribers are gone) its `upstream` cancels the relay, which drops the cell and its
/// subscription. A value the relay took from the state before that cancellation is delivered to
/// a cell that is still alive (the relay's strong reference), which has no subscriber left. (No
/// weak reference: a weakly referenced object counts its references in a side table, on the slow
/// path, 22% of Benchmarks' j5; an `unowned(unsafe)` one could be read while its storage is being
/// freed, before the storage's deinitialization reaches the cancellation.)
///
/// ## Delivery without the lock
/// Once the relay is `following` a cell, every value goes to that cell, whatever happens to the
/// state afterwards: the only ways out of `following` are the completion (after which the cell
/// is finished and ignores values) and the cancellation by the storage's deinitialization
/// (after which the cell has no subscriber and no property reads it). So the relay keeps the
/// cell it follows in ``followedCell``, written once, under the lock, before ``isFollowing``
/// is set (releasing), and never changed again; a value that sees ``isFollowing`` set
/// (acquiring) sends to that cell without the lock and without copying the state (those were
/// 30% of Benchmarks' j5). The cell then lives as long as the relay (not only until the
/// cancellation), and the relay goes when the cancelled stream releases it.
/// The derived ``Property`` object itself keeps its sources alive (``DerivedPropertySources``);
/// its subscribers keep only the storage, and through the subscription what the sources'
/// streams need, as the original CombineEx's derived properties do.
///
/// Inlinable, like the compositions that make it: made in the caller's module, the relay and
/// the storage run code specialized for the property's type, where generic code would look up
/// the metadata of its enums and classes on every value (5 times as many instructions per
/// change, measured with Benchmarks' j4).
@usableFromInline
final class PropertyRelay<Output>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: `state` is guarded by `lock`; `followedCell` is written once under it
  // and read only after `isFollowing` (atomic) publishes it; the storage is called outside it.
  @usableFromInline
  typealias Failure = Never

  @usableFromInline
  enum State {
    /// No value yet; `subscription` arrives first. `finished`: the stream completed without
    /// a value (a misbehaving property).
    case awaitingFirstValue(subscription: (any Subscription)?, finished: Bool)
    /// The first value, delivered on `thread`, created the storage, which the property has not
    /// taken yet.
    case created(PropertyStorage<Output>, thread: pthread_t, subscription: (any Subscription)?)
    /// Feeding the storage, which the property owns, through its cell: held strongly, which
    /// keeps neither the storage nor the property alive (see Lifetime).
    case following(PropertyCell<Output>, subscription: (any Subscription)?)
    /// Cancelled, finished, or abandoned by `lift` for want of a first value.
    case ended
  }

  @usableFromInline
  let lock = Lock()

  /// Guarded by `lock`. (Unchecked exclusivity: the lock serializes every access, which would
  /// otherwise cost a runtime access check per value.)
  @usableFromInline
  @exclusivity(unchecked)
  var state = State.awaitingFirstValue(subscription: nil, finished: false)

  /// The cell of the first `following` state: written once, under `lock`, before `isFollowing`
  /// is set, and never again (see "Delivery without the lock"). Read without the lock only
  /// after `isFollowing` was seen set.
  @usableFromInline
  @exclusivity(unchecked)
  var followedCell: PropertyCell<Output>?

  /// `followedCell`, unretained, for delivery: written with it, and kept alive by it (which is
  /// never cleared while the relay lives), so a value borrows the cell instead of retaining and
  /// releasing it (two atomic operations per value; Benchmarks' j5).
  @usableFromInline
  @exclusivity(unchecked)
  var followedCellReference: Unmanaged<PropertyCell<Output>>?

  /// Whether `followedCell` is set: stored with releasing order after it, loaded with acquiring
  /// order before it is read without the lock.
  @usableFromInline
  let isFollowing = Atomic<Bool>(false)

  @inlinable
  init() {}

  @inlinable
  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      switch state {
      case .awaitingFirstValue(nil, false):
        state = .awaitingFirstValue(subscription: subscription, finished: false)
        return true
      case .following(let cell, nil):
        // A property busy on another thread attaches the relay after the storage was seeded.
        state = .following(cell, subscription: subscription)
        return true
      default:
        return false
      }
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.unlimited)
  }

  @inlinable
  func receive(_ input: Output) -> Subscribers.Demand {
    if isFollowing.load(ordering: .acquiring), let cell = followedCellReference {
      cell._withUnsafeGuaranteedRef { $0.send(input) }
      return .none
    }
    let target = lock.withLock { () -> PropertyCell<Output>? in
      switch state {
      case .awaitingFirstValue(let subscription, _):
        state = .created(PropertyStorage(input), thread: pthread_self(), subscription: subscription)
        return nil
      case .created(let storage, _, _):
        return storage.cell
      case .following(let cell, _):
        return cell
      case .ended:
        return nil
      }
    }
    target?.send(input)
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Never>) {
    // The subscription is over: forget it (it may hold the upstream), keep the storage.
    let target = lock.withLock { () -> PropertyCell<Output>? in
      switch state {
      case .created(let storage, let thread, _):
        state = .created(storage, thread: thread, subscription: nil)
        return storage.cell
      case .following(let cell, _):
        state = .ended
        return cell
      case .awaitingFirstValue:
        state = .awaitingFirstValue(subscription: nil, finished: true)
        return nil
      case .ended:
        return nil
      }
    }
    target?.finish()
  }

  /// Hands the storage created by the first value to the property, which makes the storage own
  /// this relay; `nil` (and the subscription cancelled) if no value has arrived on `thread`, the
  /// subscribing thread. (A first value delivered by another thread, from a `receive(on:)`, may
  /// or may not have arrived by now: it is refused either way, so that `lift`'s misuse is always
  /// reported.)
  func takeStorage(createdOn thread: pthread_t) -> PropertyStorage<Output>? {
    let (storage, abandoned) = lock.withLock {
      () -> (PropertyStorage<Output>?, (any Subscription)?) in
      switch state {
      case .created(let storage, let creator, let subscription)
      where pthread_equal(creator, thread) != 0:
        follow(storage.cell, subscription: subscription)
        return (storage, nil)
      case .awaitingFirstValue(let subscription, _), .created(_, _, let subscription):
        state = .ended
        return (nil, subscription)
      case .following, .ended:
        return (nil, nil)
      }
    }
    abandoned?.cancel()
    storage?.hold(AnyCancellable(self))
    return storage
  }

  /// Hands the storage created by the first value to the property, which makes the storage own
  /// this relay. If no value has arrived yet (another thread is delivering to a source, and will
  /// deliver the first value when it is done), the storage starts with `seed()` instead, and
  /// that value follows when it comes.
  @inlinable
  func takeStorage(seed: () -> Output) -> PropertyStorage<Output> {
    if let storage = lock.withLock({ adoptCreatedStorage() }) {
      storage.hold(AnyCancellable(self))
      return storage
    }
    let seedValue = seed()  // user code: outside the lock
    let (storage, finished) = lock.withLock { () -> (PropertyStorage<Output>, Bool) in
      if let storage = adoptCreatedStorage() { return (storage, false) }
      let storage = PropertyStorage(seedValue)
      switch state {
      case .awaitingFirstValue(let subscription, let finished):
        if finished {
          state = .ended
        } else {
          follow(storage.cell, subscription: subscription)
        }
        return (storage, finished)
      case .created, .following, .ended:
        // Only the property takes the storage, once; nothing else leaves `awaitingFirstValue`
        // but a first value (`created`, handled above).
        state = .ended
        return (storage, true)
      }
    }
    storage.hold(AnyCancellable(self))
    if finished { storage.finish() }
    return storage
  }

  /// Enters the `following` state for `cell` (with `lock` held), and publishes the cell for
  /// delivery without the lock (see "Delivery without the lock"): the relay follows one cell in
  /// its life, so this runs at most once.
  @inlinable
  func follow(_ cell: PropertyCell<Output>, subscription: (any Subscription)?) {
    state = .following(cell, subscription: subscription)
    followedCell = cell
    followedCellReference = Unmanaged.passUnretained(cell)
    isFollowing.store(true, ordering: .releasing)
  }

  /// The storage the first value created, now followed on the property's behalf; `nil` if
  /// there is none yet. Called with `lock` held.
  @inlinable
  func adoptCreatedStorage() -> PropertyStorage<Output>? {
    guard case .created(let storage, _, let subscription) = state else { return nil }
    follow(storage.cell, subscription: subscription)
    return storage
  }

  @inlinable
  func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      defer { state = .ended }
      switch state {
      case .awaitingFirstValue(let subscription, _), .created(_, _, let subscription),
        .following(_, let subscription):
        return subscription
      case .ended:
        return nil
      }
    }
    subscription?.cancel()
  }
}

// The relay lets go of its subscription when the stream ends: `cancel()` and the completion
// leave the state without it (`ended`, or `created` with none). So a subject's conduit holds
// the relay (with the `map` in front of it) in place and delivers to it without reference
// counting: no retain and release of the relay and of the transform's context per value.
extension PropertyRelay: SubscriptionReleasing {}

/// What a derived ``Property`` keeps alive for as long as it lives, beside its storage: its
/// sources (which may be values, not objects).
@usableFromInline
final class DerivedPropertySources {
  let sources: Any

  @usableFromInline
  init(_ sources: Any) {
    self.sources = sources
  }
}

extension Property {
  /// Creates an eager derived property: subscribes to `stream` (a composition of `sources`)
  /// once, at once, starts with its first value and takes every later one (see
  /// ``PropertyRelay``). The property keeps `sources` alive; they never keep it alive.
  ///
  /// `seed` computes the first value if `stream` does not publish one while being subscribed
  /// to (a source busy delivering on another thread); it is not called otherwise.
  @inlinable
  convenience init<Stream: Publisher>(
    deriving stream: Stream, from sources: Any, seed: () -> Output
  ) where Stream.Output == Output, Stream.Failure == Never {
    let relay = PropertyRelay<Output>()
    stream.subscribe(relay)
    self.init(derivedFrom: sources, storage: relay.takeStorage(seed: seed))
  }

  /// Creates the property that reads and publishes `storage`, keeping `sources` alive.
  @usableFromInline
  convenience init(derivedFrom sources: Any, storage: PropertyStorage<Output>) {
    self.init(
      currentValue: { storage.value }, publisher: AnyPublisher(storage), storage: storage,
      retaining: DerivedPropertySources(sources))
  }
}
