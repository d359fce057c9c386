/// A type-erasing cancellable object that executes a provided closure when canceled.
///
/// An `AnyCancellable` instance automatically calls ``cancel()`` when deinitialized, so a
/// subscription lives exactly as long as you keep its `AnyCancellable`. Keep it in a property,
/// or in a collection with ``store(in:)-(Set<AnyCancellable>)``.
///
/// ```swift
/// var cancellables = Set<AnyCancellable>()
/// let subject = PassthroughSubject<Int, Never>()
/// subject.sink { print($0) }.store(in: &cancellables)
/// subject.send(1)  // Prints: 1
/// cancellables.removeAll()  // Cancels the subscription.
/// subject.send(2)  // Prints nothing.
/// ```
///
/// Cancelling is thread-safe and idempotent: the wrapped cancellation runs once, and the
/// wrapped object is released when it does.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  // @unchecked Sendable: `target` is only read and cleared under `lock`, and the wrapped
  // cancellation is called at most once, outside the lock.
  @usableFromInline
  let lock = Lock()

  /// What to cancel, until ``cancel()`` takes it. A class-bound existential keeps this object
  /// small: closures and value-type cancellables are boxed in a ``ClosureCancellable``.
  @usableFromInline
  var target: (any AnyObject & Cancellable)?

  /// Whether deinitialization cancels (always, except for cancellables that only give the
  /// caller a way to cancel something kept alive elsewhere, such as
  /// `sink(duringLifetimeOf:)`'s).
  @usableFromInline
  let cancelsOnDeinit: Bool

  /// Initializes the cancellable object with the given cancel-time closure.
  public init(_ cancel: @escaping () -> Void) {
    target = ClosureCancellable(cancel)
    cancelsOnDeinit = true
  }

  /// Constructs a type-erased cancellable to wrap the provided cancellable.
  public init<OtherCancellable: Cancellable>(_ canceller: OtherCancellable) {
    if let object = canceller as? any AnyObject & Cancellable {
      target = object
    } else {
      target = ClosureCancellable(canceller.cancel)
    }
    cancelsOnDeinit = true
  }

  /// Wraps an object that is known to be a class, without a dynamic cast.
  @inlinable
  init(object: some AnyObject & Cancellable) {
    target = object
    cancelsOnDeinit = true
  }

  /// Wraps an object that something else keeps alive: ``cancel()`` cancels it, but
  /// deinitializing this `AnyCancellable` does not.
  package init(cancellingOnlyExplicitly object: some AnyObject & Cancellable) {
    target = object
    cancelsOnDeinit = false
  }

  deinit {
    // No other reference exists, so no lock is needed.
    if cancelsOnDeinit { target?.cancel() }
  }

  /// Cancels the wrapped activity, once. Later calls do nothing.
  @inlinable
  public func cancel() {
    let taken = lock.withLock { () -> (any AnyObject & Cancellable)? in
      defer { target = nil }
      return target
    }
    taken?.cancel()
  }

  /// Two `AnyCancellable` values are equal when they are the same object.
  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
    lhs === rhs
  }

  /// Hashes the object's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }

  /// Stores this type-erasing cancellable instance in the specified collection.
  @inlinable
  public func store<Cancellables: RangeReplaceableCollection>(in collection: inout Cancellables)
  where Cancellables.Element == AnyCancellable {
    collection.append(self)
  }

  /// Stores this type-erasing cancellable instance in the specified set.
  @inlinable
  public func store(in set: inout Set<AnyCancellable>) {
    set.insert(self)
  }
}

extension Cancellable {
  /// Stores this cancellable instance in the specified collection, wrapped in an
  /// ``AnyCancellable``.
  public func store<Cancellables: RangeReplaceableCollection>(in collection: inout Cancellables)
  where Cancellables.Element == AnyCancellable {
    AnyCancellable(self).store(in: &collection)
  }

  /// Stores this cancellable instance in the specified set, wrapped in an ``AnyCancellable``.
  public func store(in set: inout Set<AnyCancellable>) {
    AnyCancellable(self).store(in: &set)
  }
}

/// A cancellable that runs a closure; the box that lets ``AnyCancellable`` hold closures and
/// value types behind a single class reference.
@usableFromInline
final class ClosureCancellable: Cancellable {
  @usableFromInline
  let action: () -> Void

  @usableFromInline
  init(_ action: @escaping () -> Void) {
    self.action = action
  }

  @usableFromInline
  func cancel() {
    action()
  }
}
