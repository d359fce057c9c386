extension Publisher where Failure == Never {
  /// Assigns each element from a publisher to a property on an object.
  ///
  /// The returned ``AnyCancellable`` keeps the subscription alive. The subscriber holds `object`
  /// strongly until the publisher completes or the subscription is cancelled, like Combine.
  ///
  /// ```swift
  /// final class Model { var count = 0 }
  /// let model = Model()
  /// let cancellable = [1, 2, 3].publisher.assign(to: \.count, on: model)
  /// print(model.count)  // Prints: 3
  /// ```
  public func assign<Root>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
  ) -> AnyCancellable {
    let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(subscriber)
    return AnyCancellable(object: subscriber)
  }
}

extension Subscribers {
  /// A simple subscriber that assigns received elements to a property indicated by a key path.
  ///
  /// It requests unlimited values, holds `object` strongly until completion or cancellation and
  /// then releases it.
  ///
  /// ```swift
  /// final class Label { var text = "" }
  /// let label = Label()
  /// let assign = Subscribers.Assign(object: label, keyPath: \Label.text)
  /// Just("hello").subscribe(assign)
  /// print(label.text)  // Prints: hello
  /// ```
  public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable
  {
    // @unchecked Sendable: `object` and `subscription` are guarded by `lock`; the key path is
    // immutable.
    /// The kind of errors this subscriber might receive: it cannot receive errors.
    public typealias Failure = Never

    private let lock = Lock()
    private var _object: Root?
    private var subscription: (any Subscription)?
    private var phase = AssignPhase.awaitingSubscription

    /// The object that contains the property to assign, or `nil` once the subscriber ended.
    public var object: Root? { lock.withLock { _object } }

    /// The key path that indicates the property to assign.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    /// What the mirror shows as `status`: the upstream's subscription while subscribed, or the
    /// state the subscriber is in.
    var status: Any {
      lock.withLock { () -> Any in
        if let subscription { return subscription }
        return phase == .awaitingSubscription ? "awaiting subscription" : "terminal"
      }
    }

    /// A textual representation of the subscriber, naming the assigned object's type.
    public var description: String { "Assign \(Root.self)." }

    /// Creates a subscriber to assign the value of a property indicated by a key path.
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      _object = object
      self.keyPath = keyPath
    }

    /// Stores the subscription and requests unlimited values; cancels any later subscription.
    public func receive(subscription: any Subscription) {
      let accepted = lock.withLock { () -> Bool in
        guard phase == .awaitingSubscription else { return false }
        phase = .subscribed
        self.subscription = subscription
        return true
      }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    /// Assigns the value to the property.
    public func receive(_ value: Input) -> Subscribers.Demand {
      let target = lock.withLock { phase == .subscribed ? _object : nil }
      if let target {
        target[keyPath: keyPath] = value
      }
      return .none
    }

    /// Releases the object and the subscription.
    public func receive(completion: Subscribers.Completion<Never>) {
      let released = lock.withLock { () -> Root? in
        phase = .terminated
        subscription = nil
        defer { _object = nil }
        return _object
      }
      // Released outside the lock: the object's deinit may run here.
      _ = released
    }

    /// Cancels the subscription and releases the object.
    public func cancel() {
      let (subscription, released) = lock.withLock { () -> ((any Subscription)?, Root?) in
        guard phase != .terminated else { return (nil, nil) }
        phase = .terminated
        defer {
          self.subscription = nil
          _object = nil
        }
        return (self.subscription, _object)
      }
      subscription?.cancel()
      _ = released
    }
  }
}

/// Where a ``Subscribers/Assign`` is in its life (its subscription is kept beside it, under the
/// same lock).
private enum AssignPhase {
  case awaitingSubscription
  case subscribed
  case terminated
}
